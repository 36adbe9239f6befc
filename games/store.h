// The one interface between the game database's domain (this folder: what
// a stored game, a position key, an explorer row and a rating are, and how
// import, search, the explorer and player pages work) and the databases
// that keep it (storage/: SQLite and PostgreSQL, each with all its SQL in
// one file). Nothing in games/ knows SQL; nothing in storage/ knows the
// rules.
//
// Every call is one or a few statements with bound parameters. Writes
// happen between BeginWrite and Commit (or Rollback); one writer at a time
// (BeginWrite waits for another writer, up to the backend's timeout, then
// fails with UNAVAILABLE naming the database). Reads may run at any time,
// also while another process writes, and see only committed data.
//
// Errors: UNAVAILABLE (cannot reach or lock the database), RESOURCE_EXHAUSTED
// (disk full), PERMISSION_DENIED (read-only), DATA_LOSS (not a Scribe
// database, corrupt), FAILED_PRECONDITION (made by a newer Scribe); every
// message names the database (Store::Name()).
//
// A Commit whose answer never came (PostgreSQL's connection broke after
// COMMIT was sent) may or may not have kept the write: no client can know
// until it asks the server again. Such a Commit fails UNAVAILABLE marked
// by MarkCommitInDoubt; IsCommitInDoubt tells it from a Commit that
// surely kept nothing.
#ifndef SCRIBE_GAMES_STORE_H_
#define SCRIBE_GAMES_STORE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/string_view.h"

namespace scribe::games {

inline constexpr absl::string_view kCommitInDoubtPayload = "scribe.dev/commit-in-doubt";

inline absl::Status MarkCommitInDoubt(absl::Status status) {
  status.SetPayload(kCommitInDoubtPayload, absl::Cord("1"));
  return status;
}

inline bool IsCommitInDoubt(const absl::Status& status) {
  return status.GetPayload(kCommitInDoubtPayload).has_value();
}

// A ruleset the database holds games of: its digest (the identity of the
// rules) and, in `reference`, the rules as text (engine/ruleset.h
// RulesetToText), so the database resolves its own rules, a user's ruleset
// file's too (games/rules_cache.h).
struct RulesetRow {
  int64_t id = 0;
  std::string digest;
  std::string reference;
};

// A side's figures from the review made at import (a table or a search
// depth given), per game.
struct ReviewFigures {
  double accuracy = 0;     // 0..100
  double error_rate = 0;   // mean loss per decision
  double performance = 0;  // performance rating
};

// One stored game.
struct GameRow {
  int64_t id = 0;       // assigned by AddGame
  int64_t ruleset = 0;  // RulesetRow::id
  // The game itself, encoded (games/game_codec.h): start, who moved first,
  // the throw-off, every throw and move. Two records are the same game
  // exactly when their ruleset and identity are equal.
  std::string identity;
  // FNV-1a 64 of the digest and the identity: to find candidates only.
  uint64_t identity_hash = 0;
  // Tags and comments, encoded (game_codec.h): what export writes back.
  std::string extra;
  // Copies of tags, for search ("" when the record has none). `date` is the
  // Date tag as written ("2026-03-01", "2026.03.01" is made ISO at import).
  std::string light, dark, event, date;
  int result = 0;  // 0 unfinished, 1 light won, 2 dark won
  int plies = 0;   // actions
  std::optional<ReviewFigures> figures[2];  // by side, when reviewed
};

// Where a game was read from: a file (its absolute path) and the record's
// index in it. A (file, index) is recorded once: importing a file again
// adds nothing.
struct SourceRow {
  std::string file;
  int64_t index = 0;
};

// A block of the position index: the postings (position key -> games) of
// one bucket of keys of one ruleset, in one run (games/postings.h).
struct PostingRow {
  int64_t ruleset = 0;
  int64_t bucket = 0;
  std::string data;
};

// A block as a lookup reads it: its run and its bytes (or their head).
struct RunBlock {
  int64_t run = 0;
  std::string data;
  friend bool operator==(const RunBlock& a, const RunBlock& b) { return a.run == b.run && a.data == b.data; }
};

// A run: the postings written by one import batch, or by the merge of
// earlier runs.
struct RunRow {
  int64_t run = 0;
  int64_t bytes = 0;  // sum of its postings' data sizes
};

// One explorer aggregate: games that reached a position (first reached at
// a ply up to the database's explorer depth) and played a move from it.
// roll -1: the game ended there (no move).
struct ExplorerRow {
  int64_t ruleset = 0;
  int64_t key = 0;  // the position key as stored (games/position_key.h)
  int roll = 0;
  int from = -1;  // path index moved from; -1: no move (a pass)
  int to = -1;
  int64_t games = 0;
  int64_t light_wins = 0;
  int64_t dark_wins = 0;
  double accuracy_sum = 0;  // of the players who chose it, when reviewed
  int64_t accuracy_count = 0;
};

// A game search without positions: every field empty or unset matches all.
struct GameQuery {
  std::optional<int64_t> ruleset;
  std::string player;  // either side
  std::string light, dark, event;
  std::string date_from, date_to;  // inclusive, compared as text (ISO dates)
  std::optional<int> result;
  enum class Order { kId, kDate } order = Order::kId;  // kDate: date, then id; no date last
  bool descending = false;
};

// A player's totals over their games.
struct PlayerTotals {
  int64_t games = 0, wins = 0, losses = 0, unfinished = 0;
  int64_t as_light = 0;
  int64_t reviewed = 0;  // games with figures for the player's side
  double accuracy = 0, error_rate = 0, performance = 0;  // means over reviewed
  std::string first_date, last_date;
};

// One point of a player's rating over time (games/rating.h): after the
// rating period `period`.
struct RatingRow {
  std::string player;
  std::string period;  // "2026-03"
  double rating = 0, deviation = 0, volatility = 0;
  int64_t games = 0;  // games in the period
};

class Store {
 public:
  virtual ~Store() = default;
  // "SQLite database games.db", "PostgreSQL database scribe at 127.0.0.1:5432".
  virtual std::string Name() const = 0;

  virtual absl::Status BeginWrite() = 0;
  virtual absl::Status Commit() = 0;
  virtual absl::Status Rollback() = 0;
  // Gives the space of deleted rows back (SQLite: the file shrinks), outside
  // a write; a backend that does it on its own does nothing.
  virtual absl::Status Reclaim() { return absl::OkStatus(); }
  // After an import's batch is committed (outside a write): makes the rows
  // just written quick to search. PostgreSQL: VACUUM of the tables an import grows
  // (and ANALYZE once a tenth of their rows are new), so that searches by player read
  // the covering indexes alone (index-only scans need the pages marked all-visible;
  // before autovacuum comes round they visit the heap: 190 ms against 60 for a
  // player's first page at 100,000 games) with the plans fresh statistics give.
  // SQLite needs nothing.
  virtual absl::Status Settle() { return absl::OkStatus(); }
  // The indexes only searches read (SQLite: by player, event and date),
  // and the identity hash's, which an import reads: in a write, Drop takes
  // them away and Build makes those missing. An import into a database
  // without games may drop them at its start and build them at its end
  // (ImportOptions::defer_search_indexes): one sort each, instead of a
  // B-tree insert per game per index, each batch rewriting most of each
  // index's pages. Without them searches give the same answers, slower;
  // GamesWithHash(es) in a write builds the identity hash's index first
  // when it is missing (another importer's write: the one that dropped it
  // finds its own games without it, Importer::Place), so no write reads
  // every game. A backend without that cost (PostgreSQL's import meets its
  // target with them) says it cannot, and does nothing.
  virtual bool CanDeferSearchIndexes() const { return false; }
  virtual absl::Status DropSearchIndexes() { return absl::OkStatus(); }
  virtual absl::Status BuildSearchIndexes() { return absl::OkStatus(); }
  // A number that changes whenever another connection commits a write
  // (SQLite's data_version), read in a write: two equal readings mean no
  // one else wrote between them. UNIMPLEMENTED where there is none.
  virtual absl::StatusOr<int64_t> OthersWrites() {
    return absl::UnimplementedError(Name() + " does not tell other connections' writes apart");
  }

  // Settings kept with the database (the explorer depth); nullopt when unset.
  virtual absl::StatusOr<std::optional<std::string>> Setting(const std::string& key) = 0;
  virtual absl::Status SetSetting(const std::string& key, const std::string& value) = 0;

  // The ruleset's id, adding it when new.
  virtual absl::StatusOr<int64_t> RulesetId(const std::string& digest, const std::string& reference) = 0;
  virtual absl::StatusOr<std::vector<RulesetRow>> Rulesets() = 0;

  // Games whose identity hash is `hash` (candidates for a duplicate).
  virtual absl::StatusOr<std::vector<GameRow>> GamesWithHash(uint64_t hash) = 0;
  virtual absl::StatusOr<int64_t> AddGame(const GameRow& game) = 0;
  // The games with these ids, in the order of `ids`; ids not there skipped.
  virtual absl::StatusOr<std::vector<GameRow>> GamesById(const std::vector<int64_t>& ids) = 0;
  virtual absl::StatusOr<int64_t> CountGames(const GameQuery& query) = 0;
  // The ids of the games matching `query`, in its order, `limit` of them
  // after skipping `offset` (limit < 0: all).
  virtual absl::StatusOr<std::vector<int64_t>> FindGames(const GameQuery& query, int64_t offset, int64_t limit) = 0;
  // The ids matching `query` in its order, handed to `visit` until it
  // returns false. Streams: memory does not grow with the matches.
  virtual absl::Status ScanGames(const GameQuery& query, const std::function<bool(int64_t id)>& visit) = 0;
  // The dates of these games (same order; "" without a date).
  virtual absl::StatusOr<std::vector<std::string>> Dates(const std::vector<int64_t>& ids) = 0;

  // The game already read from this source, if any.
  virtual absl::StatusOr<std::optional<int64_t>> SourceGame(const SourceRow& source) = 0;
  virtual absl::Status AddSource(int64_t game, const SourceRow& source) = 0;
  virtual absl::StatusOr<std::vector<SourceRow>> Sources(int64_t game) = 0;

  // An import batch's calls, each one round trip to a server (the
  // defaults call the one-row methods above; SQLite, in-process, keeps
  // them):
  // the game of each source, or nullopt (same order);
  virtual absl::StatusOr<std::vector<std::optional<int64_t>>> SourceGames(const std::vector<SourceRow>& sources) {
    std::vector<std::optional<int64_t>> games;
    games.reserve(sources.size());
    for (const SourceRow& source : sources) {
      absl::StatusOr<std::optional<int64_t>> game = SourceGame(source);
      if (!game.ok()) return game.status();
      games.push_back(*game);
    }
    return games;
  }
  // the games whose identity hash is one of `hashes`;
  virtual absl::StatusOr<std::vector<GameRow>> GamesWithHashes(const std::vector<uint64_t>& hashes) {
    std::vector<GameRow> games;
    for (uint64_t hash : hashes) {
      absl::StatusOr<std::vector<GameRow>> some = GamesWithHash(hash);
      if (!some.ok()) return some.status();
      for (GameRow& g : *some) games.push_back(std::move(g));
    }
    return games;
  }
  // adds the games in order: their ids, ascending.
  virtual absl::StatusOr<std::vector<int64_t>> AddGames(const std::vector<GameRow>& games) {
    std::vector<int64_t> ids;
    ids.reserve(games.size());
    for (const GameRow& game : games) {
      absl::StatusOr<int64_t> id = AddGame(game);
      if (!id.ok()) return id.status();
      ids.push_back(*id);
    }
    return ids;
  }

  // The position index, as runs of posting blocks.
  virtual absl::StatusOr<int64_t> NewRun() = 0;
  virtual absl::Status AddPostings(int64_t run, const std::vector<PostingRow>& rows) = 0;
  virtual absl::StatusOr<std::vector<RunRow>> Runs() = 0;  // oldest first
  // Every run's block for (ruleset, bucket), oldest run first, but those
  // of the runs in `except_runs`.
  virtual absl::StatusOr<std::vector<RunBlock>> Postings(int64_t ruleset, int64_t bucket,
                                                         const std::vector<int64_t>& except_runs) = 0;
  // The same blocks' first `bytes` bytes (all of a shorter block): enough
  // to count a key's own block (CountFromHead) without reading it. A
  // backend that can read part of a value reads only that (PostgreSQL: a
  // block is stored uncompressed, so a prefix reads its first chunk); the
  // default reads the blocks and cuts them.
  virtual absl::StatusOr<std::vector<RunBlock>> PostingHeads(int64_t ruleset, int64_t bucket, int64_t bytes) {
    absl::StatusOr<std::vector<RunBlock>> blocks = Postings(ruleset, bucket, {});
    if (!blocks.ok()) return blocks.status();
    for (RunBlock& b : *blocks) {
      if (static_cast<int64_t>(b.data.size()) > bytes) b.data.resize(static_cast<size_t>(bytes));
    }
    return blocks;
  }
  // A run's blocks in (ruleset, bucket) order, after (ruleset, bucket)
  // `after` (exclusive; {INT64_MIN, INT64_MIN} for the first), of buckets
  // in `buckets` (inclusive), at most `limit`: a merge reads runs a slice
  // at a time.
  virtual absl::StatusOr<std::vector<PostingRow>> RunPostings(int64_t run, std::pair<int64_t, int64_t> after,
                                                              int limit, std::pair<int64_t, int64_t> buckets) = 0;
  // The (ruleset, bucket) of a run's blocks of buckets in `buckets`
  // (inclusive), in that order, without their data.
  virtual absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> RunBuckets(int64_t run,
                                                                             std::pair<int64_t, int64_t> buckets) = 0;
  virtual absl::Status DeleteRun(int64_t run) = 0;

  // Adds each row's counts to the stored row of the same (ruleset, key,
  // roll, from, to), creating it when there is none.
  virtual absl::Status AddExplorer(const std::vector<ExplorerRow>& rows) = 0;
  virtual absl::StatusOr<std::vector<ExplorerRow>> Explorer(int64_t ruleset, int64_t key) = 0;

  // A player's totals as of the last RecomputePlayers (zero for a name
  // with no games then): one row read, however many games.
  virtual absl::StatusOr<PlayerTotals> Player(const std::string& name) = 0;
  // Recomputes every player's totals from the games (inside a write; after
  // an import, with the ratings).
  virtual absl::Status RecomputePlayers() = 0;
  // Replaces every stored rating point (ratings are recomputed from all
  // results in date order after an import).
  virtual absl::Status ReplaceRatings(const std::vector<RatingRow>& rows) = 0;
  virtual absl::StatusOr<std::vector<RatingRow>> Ratings(const std::string& player) = 0;
  // Every finished game's (date, light, dark, result) in date order, for
  // the ratings: visit until it returns false.
  virtual absl::Status ScanResults(
      const std::function<bool(const std::string& date, const std::string& light, const std::string& dark,
                               int result)>& visit) = 0;
};

// Runs `body` in a write of its own: committed when it and the commit
// succeed, else rolled back; the first error. (A write that could not
// begin, another one being open, is not touched.)
inline absl::Status InWrite(Store& store, const std::function<absl::Status()>& body) {
  absl::Status s = store.BeginWrite();
  if (!s.ok()) return s;
  s = body();
  if (s.ok()) s = store.Commit();
  if (!s.ok()) (void)store.Rollback();
  return s;
}

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_STORE_H_
