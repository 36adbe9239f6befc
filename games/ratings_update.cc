// The players' totals and ratings over time, recomputed from every game
// after an import.
#include "games/import.h"
#include "games/rating.h"

namespace scribe::games {

absl::Status UpdatePlayers(Store& store) {
  // Every finished game with a date and both players named, in date order
  // (Store::ScanResults), through Glicko-2 (games/rating.h): O(players)
  // memory, read before the write so the write lock is held only to
  // replace the rows.
  RatingHistoryBuilder builder;
  absl::Status s = store.ScanResults([&](const std::string& date, const std::string& light, const std::string& dark,
                                         int result) {
    builder.Add(date, light, dark, result);
    return true;
  });
  if (!s.ok()) return s;
  const std::vector<RatingRow> rows = builder.Finish();
  return InWrite(store, [&] {
    absl::Status written = store.ReplaceRatings(rows);
    if (written.ok()) written = store.RecomputePlayers();
    return written;
  });
}

}  // namespace scribe::games
