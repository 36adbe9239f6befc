// The players' pages (totals, ratings over time) are recounted from every
// game (games/import.h UpdatePlayers): after imports through the service,
// on a clock of their own rather than at the end of every stream.
#ifndef SCRIBE_SERVICE_PLAYERS_REFRESHER_H_
#define SCRIBE_SERVICE_PLAYERS_REFRESHER_H_

#include <condition_variable>
#include <mutex>
#include <thread>

#include "absl/status/status.h"
#include "service/store_pool.h"

namespace scribe::service {

// Recounts the players' pages after imports, on its own thread (or at
// once, with no interval); a last recount at Stop when one is due.
class PlayersRefresher {
 public:
  PlayersRefresher(StorePool* pool, int seconds);
  ~PlayersRefresher() { Stop(); }
  // Games were added: a recount is due (done now when the interval is 0).
  absl::Status Due();
  void Stop();

 private:
  absl::Status Refresh();
  StorePool* pool_;
  const int seconds_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool due_ = false, stopping_ = false;
  std::thread thread_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_PLAYERS_REFRESHER_H_
