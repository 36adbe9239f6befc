// Import: legal judged records into a game database.
//
// Records are handed over one at a time (Add) and kept in memory until a
// batch is full; a batch is then written in one transaction (Flush): its
// games, their sources, a run of the position index and the explorer's
// aggregates, or none of it. After each batch the writer merges the
// import's newest runs when enough of a level have gathered
// (position_index.h, LevelMergeStart), each merge a transaction of its
// own: a merge that fails keeps the batch before it. A failed or killed
// import keeps every batch committed before it and nothing of the batch
// it was writing; importing the same files again skips the sources
// already there and adds the rest.
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
#include <thread>
#include <tuple>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
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
  int batch_games = 16000;
  // What Finish does with the position index's runs. kToMaxRuns (one
  // import of many games, the CLI's): merges them down to kMaxRuns, the
  // fewest a search reads, and gives the space back. kLevels (many small
  // imports, the service's streams): merges only where a level of the
  // store's runs is full (MergeStoreLevels), so a stream of one game does
  // not rewrite an eighth of the index.
  enum class Compaction { kToMaxRuns, kLevels } compaction = Compaction::kToMaxRuns;
  // Finish updates every player's totals and ratings (UpdatePlayers, a
  // recount of all games: about 2.5 s at 1,000,000 on SQLite). The service does it on
  // its own clock instead, after streams that added games.
  bool update_players = true;
  // The store settles (Store::Settle) after every batch, so that searches
  // during a long stream of imports stay quick (the service's), rather
  // than once at Finish (the CLI's: settling each batch of a 600,000-game
  // import into PostgreSQL took it from 78 to 125 s).
  bool settle_each_batch = false;
  // An import into a database without games drops the search indexes at
  // its start and builds them at Finish (Store::DropSearchIndexes): the
  // CLI's, whose first import of a large collection is the one that pays
  // for them most. Not the service's: its readers come first. An import
  // that stops before Finish leaves them to the next one that finishes
  // (any import's Finish builds indexes left to build); meanwhile searches
  // give the same answers, slower.
  bool defer_search_indexes = false;
  // The import that dropped them (the identity hash's index among them)
  // finds the duplicates of its own games by their hashes in memory, as
  // long as no one else writes the database meanwhile (Store::
  // OthersWrites): at most this many games (about 21 bytes each: 42 MB),
  // then by the index, built then.
  int64_t own_hashes_in_memory = 2000000;
  // Reviews the games when given (their figures per side alone:
  // Analyzer::Figures), over `review_threads` threads (0: the machine's
  // cores, at most 8).
  const Analyzer* analyzer = nullptr;
  int review_threads = 0;
};

struct ImportCounts {
  int64_t added = 0;          // new games
  int64_t new_sources = 0;    // records of games already stored, from a new source
  int64_t known_sources = 0;  // records whose source was imported before
  int64_t reviewed = 0;
  // Records without a source (file "") of a game already stored, or
  // earlier in the batch: nothing stored.
  int64_t duplicates = 0;
  // A batch whose commit was sent but never answered (the connection
  // broke: IsCommitInDoubt): its records and the new games it would add,
  // kept or not (no one can tell until the server is asked again), in no
  // count above. Importing the same files again completes the import
  // either way.
  int64_t in_doubt_records = 0;
  int64_t in_doubt = 0;
};

class Importer {
 public:
  // Reads (or, for a new database, sets) the explorer depth.
  static absl::StatusOr<std::unique_ptr<Importer>> Start(Store& store, ImportOptions options);
  ~Importer();
  // A legal record judged with RefereeOptions::keep_positions, read from
  // `file` (the CLI: an absolute path; the service: the client's name of
  // its source) as its record `index`. With file "" the record has no
  // source: nothing records it, and it is a duplicate (counted, nothing
  // stored) exactly when its game is already stored.
  absl::Status Add(const JudgedRecord& judged, const std::string& file, int64_t index);
  // Writes the records added since the last flush, in one transaction.
  // After a failure (returned here or by Add) the batch is rolled back and
  // dropped, and every later call returns the same error.
  absl::Status Flush();
  // Flush, then merge the index's runs and update the players (UpdatePlayers).
  absl::Status Finish();
  // What the batches written so far did (all of it after Finish).
  const ImportCounts& counts() const { return counts_; }
  // The database's search indexes are left to build (dropped by this
  // import, or by one that did not finish), until Finish builds them.
  bool search_indexes_deferred() const { return search_indexes_deferred_; }
  // The duplicates of the games stored are found in memory, not through
  // the identity hash's index (ImportOptions::own_hashes_in_memory).
  bool own_hashes_in_memory() const { return own_hashes_; }

 private:
  struct Pending;
  Importer(Store& store, ImportOptions options, int depth, int identity_version);
  // The records added since the last batch was handed to the writer, or
  // the batch being written.
  struct Keys {
    std::shared_ptr<const Rules> rules;
    std::unique_ptr<PositionKeys> keys;
  };
  struct Batch {
    std::vector<Pending> games;
    // Their postings by ruleset digest, in the order added, each game
    // named by its place in the batch (KeyedGame::tagged).
    struct Postings {
      const Keys* keys = nullptr;
      std::vector<KeyedGame> postings;
    };
    std::map<std::string, Postings> postings;
    // The explorer's rows of its games by ruleset digest, summed by Hand
    // (on the judging thread, the writer being the slower one) as if every
    // game is added; the writer takes them when every game was, and sums
    // the added ones again when some were not (SumExplorer).
    using ExplorerRows = absl::flat_hash_map<std::tuple<uint64_t, int, int, int>, ExplorerRow>;
    std::map<std::string, ExplorerRows> explorer;
    ImportCounts counts;  // what writing it did
    RunRow run;           // the run written (run 0: none), and its bytes
    bool committed = false;  // its transaction committed (a merge after it may fail)
    bool in_doubt = false;   // its COMMIT went unanswered
  };
  // Waits for the batch being written, then hands filling_ to a writer
  // thread: the next batch is judged, keyed and reviewed while this one is
  // written.
  absl::Status Hand();
  // Adds the game's steps (positions first reached within the depth) to
  // the explorer's rows.
  static void SumExplorer(const Pending& game, Batch::ExplorerRows* rows);
  // Waits for the batch being written; its error is the importer's.
  absl::Status Wait();
  // The writer: the batch in one transaction, or nothing of it.
  absl::Status WriteBatch(Batch& batch);
  absl::Status Write(Batch& batch);
  // The blocks of the batch's postings of one ruleset (sorted by key:
  // Hand) of the games placed, named by id (ids as Place leaves them):
  // work without the store, done on a helper thread while the writer
  // writes the explorer's rows.
  static void RunBlocks(const PositionKeys& keys, std::vector<KeyedGame>& postings, int64_t ruleset,
                        const std::vector<int64_t>& ids, std::vector<PostingRow>* rows);
  // Writes the batch's explorer rows.
  absl::Status WriteExplorer(Batch& batch);
  // Writes blocks into the batch's run (made by the first call with some).
  absl::Status WriteRun(std::vector<PostingRow>& rows, RunRow* run);
  // After a batch is committed, the writer merges the import's newest runs
  // as LevelMergeStart says, each merge in a transaction of its own.
  absl::Status MergeLevels();
  std::vector<RunRow> runs_;  // the runs this import made, oldest first
  // Adds the batch's new games and sources: ids[i] is the id of the batch's
  // game i, or -1 when it adds no game (a known source, or a game already
  // stored or earlier in the batch, to which it adds its source).
  absl::Status Place(Batch& batch, std::vector<int64_t>& ids);
  // The stored games with one of `hashes` (sorted, each once): from the
  // store, or while own_hashes_ holds every stored game, through it.
  absl::StatusOr<std::vector<GameRow>> StoredWithHashes(const std::vector<uint64_t>& hashes);
  // Every stored game's identity hash and id, kept by the import that
  // dropped the identity hash's index (Start) while it is the only writer
  // (OthersWrites read in each write is others_writes_): the games it
  // added, committed (own_pending_ holds the batch's until its commit).
  // Gone for good (own_hashes_ false) once another writer wrote or it
  // holds ImportOptions::own_hashes_in_memory games.
  bool own_hashes_ = false;
  int64_t others_writes_ = 0;
  absl::btree_multimap<uint64_t, int64_t> own_games_;
  std::vector<std::pair<uint64_t, int64_t>> own_pending_;
  // Reviews: the records waiting (to_review_) are reviewed as a chunk
  // over the review threads while the next ones are judged and keyed;
  // StartReviews finishes the chunk in flight and starts the waiting one,
  // FinishReviews waits for the one in flight and puts its figures in
  // its games (before a batch is handed over, every game is reviewed).
  absl::Status StartReviews();
  absl::Status FinishReviews();
  struct ToReview {
    size_t place;  // in filling_.games
    JudgedRecord judged;
  };
  struct ReviewChunk;
  std::vector<ToReview> to_review_;
  std::unique_ptr<ReviewChunk> reviewing_;
  int review_threads_ = 1;
  // The importer's error: `status` at a record.
  absl::Status At(absl::Status status, const std::string& file, int64_t index);
  // By digest; only Add touches the map (the writer reads a batch's Keys
  // through Batch::Postings, unchanged once made).
  std::map<std::string, Keys> keys_;
  // Add's and Hand's scratch, kept between games and batches.
  std::vector<PlayedAction> actions_;
  std::vector<KeyedGame> scratch_;  // Hand's, sorting the batch's postings
  absl::Status failed_;
  KeySet seen_;  // the keys of the game being added
  Store& store_;
  ImportOptions options_;
  int depth_;
  int identity_version_;  // the database's form of identity bytes (game_codec.h)
  RulesCache rules_;  // the writer's
  Batch filling_, writing_;
  std::thread writer_;
  absl::Status written_;  // the writer's result, read after joining it
  ImportCounts counts_;
  bool search_indexes_deferred_ = false;
};

// Builds the search indexes when an import left them to build
// (ImportOptions::defer_search_indexes), in one write; nothing otherwise.
absl::Status BuildDeferredSearchIndexes(Store& store);
// Whether an import left them to build (another importer may have built
// them since this one started).
absl::StatusOr<bool> SearchIndexesDeferred(Store& store);

// Recomputes every player's totals (Store::RecomputePlayers) and rating
// over time from all results (games/rating.h), in one transaction: a
// player page is as of the last finished import. The results are read
// before the write; where the store tells another writer's commits
// (Store::OthersWrites) and one came between, read again in the write.
absl::Status UpdatePlayers(Store& store);
// Every player's rating over time, from the store's results
// (Store::ScanResults), as UpdatePlayers writes them.
absl::StatusOr<std::vector<RatingRow>> RecountRatings(Store& store);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_IMPORT_H_
