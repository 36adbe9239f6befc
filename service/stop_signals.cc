#include "service/stop_signals.h"

#include <pthread.h>

#include <thread>
#include <utility>

namespace scribe::service {

StopSignals::StopSignals(std::function<void(int)> before_serving) : before_serving_(std::move(before_serving)) {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGTERM);
  sigaddset(&signals_, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
  // Detached: it ends with its signal, or with the process (which exits
  // on errors at start without one).
  std::thread([this] { Run(); }).detach();
}

void StopSignals::Run() {
  int signal = 0;
  sigwait(&signals_, &signal);
  std::unique_lock<std::mutex> lock(mu_);
  if (!serving_) {
    lock.unlock();
    before_serving_(signal);
    return;
  }
  signal_ = signal;
  cv_.notify_all();
}

void StopSignals::Serving() {
  std::lock_guard<std::mutex> lock(mu_);
  serving_ = true;
}

int StopSignals::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return signal_ != 0; });
  return signal_;
}

}  // namespace scribe::service
