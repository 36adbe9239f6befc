#include "service/players_refresher.h"

#include <chrono>

#include "games/import.h"

namespace scribe::service {

PlayersRefresher::PlayersRefresher(StorePool* pool, int seconds) : pool_(pool), seconds_(seconds) {
  if (seconds_ <= 0) return;
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      cv_.wait_for(lock, std::chrono::seconds(seconds_), [this] { return stopping_; });
      if (!due_) {
        if (stopping_) return;
        continue;
      }
      due_ = false;
      lock.unlock();
      (void)Refresh();  // a failure leaves the pages as they were: the next import's recount retries
      lock.lock();
      if (stopping_ && !due_) return;
    }
  });
}

absl::Status PlayersRefresher::Due() {
  if (seconds_ <= 0) return Refresh();
  std::lock_guard<std::mutex> lock(mu_);
  due_ = true;
  return absl::OkStatus();
}

void PlayersRefresher::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

absl::Status PlayersRefresher::Refresh() {
  absl::StatusOr<StorePool::Lease> lease = pool_->Acquire();
  if (!lease.ok()) return lease.status();
  absl::Status s = games::UpdatePlayers(lease->store());
  if (!s.ok()) lease->Discard();
  return s;
}

}  // namespace scribe::service
