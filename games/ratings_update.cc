// The players' totals and ratings over time, recomputed from every game
// after an import.
#include <vector>

#include "games/import.h"
#include "games/rating.h"

namespace scribe::games {

absl::StatusOr<std::vector<RatingRow>> RecountRatings(Store& store) {
  // Every finished game with a date and both players named, in date order
  // (Store::ScanResults), through Glicko-2 (games/rating.h): O(players)
  // memory.
  RatingHistoryBuilder builder;
  absl::Status s = store.ScanResults([&](const std::string& date, const std::string& light, const std::string& dark,
                                         int result) {
    builder.Add(date, light, dark, result);
    return true;
  });
  if (!s.ok()) return s;
  return builder.Finish();
}

absl::Status UpdatePlayers(Store& store) {
  // The results read before the write, so the write lock is held only to
  // replace the rows; where the store tells another writer's commits
  // (Store::OthersWrites), read again in the write when one came between.
  const absl::StatusOr<int64_t> before = store.OthersWrites();
  absl::StatusOr<std::vector<RatingRow>> rows = RecountRatings(store);
  if (!rows.ok()) return rows.status();
  return InWrite(store, [&] {
    if (before.ok()) {
      absl::StatusOr<int64_t> now = store.OthersWrites();
      if (!now.ok()) return now.status();
      if (*now != *before) rows = RecountRatings(store);  // here no one else writes
      if (!rows.ok()) return rows.status();
    }
    absl::Status written = store.ReplaceRatings(*rows);
    if (written.ok()) written = store.RecomputePlayers();
    return written;
  });
}

}  // namespace scribe::games
