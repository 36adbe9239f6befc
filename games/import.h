// Import: legal judged records into a game database.
//
// Records are handed over one at a time (Add) and kept in memory until a
// batch is full; a batch is then written in one transaction (Flush): its
// games, their sources, a run of the position index and the explorer's
// aggregates, or none of it. A failed or killed import keeps every batch
// committed before it and nothing of the batch it was writing; importing
// the same files again skips the sources already there and adds the rest.
// The positions are keyed, and the games reviewed (with an Analyzer), in
// Add, before the transaction: a writer holds the database's write lock
// only while it writes.
//
// Duplicates (game_codec.h): a record whose source (file, index) is
// already stored adds nothing; a record that is the same game as a stored
// one (same ruleset digest, same identity bytes) adds only its source.
#ifndef SCRIBE_GAMES_IMPORT_H_
#define SCRIBE_GAMES_IMPORT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/container/flat_hash_set.h"
#include "games/game_codec.h"
#include "games/position_key.h"
#include "games/postings.h"
#include "games/rules_cache.h"
#include "games/store.h"
#include "records/judged.h"
#include "review/pipeline.h"

namespace scribe::games {

// The explorer keeps aggregates for the positions games first reach within
// this many plies; deeper ones are counted from the games (docs/database.md
// says why 8).
inline constexpr int kDefaultExplorerDepth = 8;

struct ImportOptions {
  int batch_games = 20000;
  // Reviews the games (their figures per side) when given.
  const Analyzer* analyzer = nullptr;
};

struct ImportCounts {
  int64_t added = 0;          // new games
  int64_t new_sources = 0;    // records of games already stored, from a new source
  int64_t known_sources = 0;  // records whose source was imported before
  int64_t reviewed = 0;
};

class Importer {
 public:
  // Reads (or, for a new database, sets) the explorer depth.
  static absl::StatusOr<std::unique_ptr<Importer>> Start(Store& store, ImportOptions options);
  ~Importer();
  // A legal record judged with RefereeOptions::keep_positions, read from
  // `file` (an absolute path; "" for none) as its record `index`.
  absl::Status Add(const JudgedRecord& judged, const std::string& file, int64_t index);
  // Writes the records added since the last flush, in one transaction.
  absl::Status Flush();
  // Flush, then merge the index's runs and recompute the ratings.
  absl::Status Finish();
  const ImportCounts& counts() const { return counts_; }
  // Records added but not yet written.
  size_t pending() const;

 private:
  struct Pending;
  Importer(Store& store, ImportOptions options, int depth);
  absl::Status Write();
  // The new game's id; -1 when it adds no game (a known source, or a game
  // already stored, to which it adds its source).
  absl::StatusOr<int64_t> Place(Pending& game, int64_t ruleset);
  struct Keys {
    std::shared_ptr<const Rules> rules;
    std::unique_ptr<PositionKeys> keys;
  };
  std::map<std::string, Keys> keys_;  // by digest
  // Add's scratch, kept between games.
  std::vector<PlayedAction> actions_;
  absl::flat_hash_set<uint64_t> seen_;
  Store& store_;
  ImportOptions options_;
  int depth_;
  RulesCache rules_;
  std::vector<Pending> pending_;
  ImportCounts counts_;
};

// Recomputes every player's rating over time from all results
// (games/rating.h). In one transaction.
absl::Status RecomputeRatings(Store& store);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_IMPORT_H_
