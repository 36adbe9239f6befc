#include "service/idle_watch.h"

#include <utility>

namespace scribe::service {

IdleWatch::IdleWatch(int seconds, std::function<void()> cancel)
    : seconds_(seconds), cancel_(std::move(cancel)), since_(Clock::now()) {
  if (seconds_ <= 0) return;
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (!done_) {
      cv_.wait_for(lock, std::chrono::milliseconds(200));
      // since_ is stored before waiting_ is set: a wait seen is timed
      // from its own start.
      if (!done_ && waiting_.load() && Clock::now() - since_.load() > std::chrono::seconds(seconds_)) {
        fired_.store(true);
        if (cancel_) cancel_();
        return;
      }
    }
  });
}

IdleWatch::~IdleWatch() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void IdleWatch::Waiting() {
  since_.store(Clock::now());
  waiting_.store(true);
}

void IdleWatch::Received() { waiting_.store(false); }

}  // namespace scribe::service
