// The players' totals and ratings over time, recomputed from every game
// after an import.
#include <optional>
#include <utility>
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

namespace {

// Replaces the ratings with `rows` and recounts the totals, in one write,
// but first reads the results again when `others_writes` (OthersWrites
// read before `rows` were) no longer matches.
absl::Status WritePlayers(Store& store, std::vector<RatingRow> rows, std::optional<int64_t> others_writes) {
  return InWrite(store, [&] {
    if (others_writes.has_value()) {
      // Another connection committed since the results were read: read
      // them again, in this write, where no one else writes.
      absl::StatusOr<int64_t> now = store.OthersWrites();
      if (!now.ok()) return now.status();
      if (*now != *others_writes) {
        absl::StatusOr<std::vector<RatingRow>> again = RecountRatings(store);
        if (!again.ok()) return again.status();
        rows = *std::move(again);
      }
    }
    absl::Status written = store.ReplaceRatings(rows);
    if (written.ok()) written = store.RecomputePlayers();
    return written;
  });
}

}  // namespace

absl::Status UpdatePlayers(Store& store) {
  // The results read before the write, so the write lock is held only to
  // replace the rows; where the store tells another writer's commits
  // (Store::OthersWrites), read again in the write when one came between.
  absl::StatusOr<int64_t> before = store.OthersWrites();
  std::optional<int64_t> others_writes;
  if (before.ok()) others_writes = *before;
  absl::StatusOr<std::vector<RatingRow>> rows = RecountRatings(store);
  if (!rows.ok()) return rows.status();
  return WritePlayers(store, *std::move(rows), others_writes);
}

}  // namespace scribe::games
