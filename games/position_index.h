// The position index over a Store: looking a position up, and merging runs.
#ifndef SCRIBE_GAMES_POSITION_INDEX_H_
#define SCRIBE_GAMES_POSITION_INDEX_H_

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "games/postings.h"
#include "games/position_key.h"
#include "games/rules_cache.h"
#include "games/store.h"

namespace scribe::games {

// A key with this many postings in one batch gets a block of its own in
// the batch's run, in bucket OwnBucket(key) (negative: apart from every
// ordinary bucket, which is >= 0). Buckets only group keys; a block holds
// its keys, so two keys sharing a bucket are told apart by the key (the
// two keys alike but for the top bit share an own bucket).
inline constexpr int64_t kOwnBlock = 64;
inline int64_t OwnBucket(uint64_t key) {
  return INT64_MIN + static_cast<int64_t>(key & ~(uint64_t{1} << 63));
}

// Keys kept apart: a run from the database's setting kApartSetting on
// holds each key's postings either in the key's own bucket's block or in
// its ordinary bucket's, never in both, so a lookup reads a run's
// ordinary block only when the run has no own block for the key. (A key
// looked up first among the first plies has an own block in every run:
// the 1.5 MB of other keys' postings its bucket's blocks hold in a million
// games are not read.) A batch's run keeps keys apart as it is written
// (an own bucket holds every posting of its keys in the batch); a merge
// moves the postings of a key with an own block in any of the runs merged
// from the ordinary blocks into it. Runs made before a database had the
// setting (a schema step sets it to the next run) are read as before:
// every block that may hold the key.
inline constexpr char kApartSetting[] = "index_apart_from";

// The blocks that may hold a key's postings (its own blocks and its
// bucket's, one of each per run), read once; then counted, or decoded in
// part or whole.
class KeyPostings {
 public:
  static absl::StatusOr<KeyPostings> Fetch(Store& store, const KnownRules& known, uint64_t key);
  // Its bucket's blocks whole (but a run's that keeps keys apart and has
  // an own block for it), and of its own blocks (one a run where many
  // games reached it: the start's are about 300 KB each in a million
  // games) only the heads, where the count is (CountFromHead): the
  // explorer's check that its aggregates count every game reads no more.
  static absl::StatusOr<KeyPostings> FetchHeads(Store& store, const KnownRules& known, uint64_t key);
  // Fetch and FetchHeads read the key's own blocks, then the bucket's
  // blocks of the runs without one: two reads, between which an import
  // may merge runs. So when the key has own blocks, their runs are read
  // again after the bucket's blocks, and all is read again when they
  // changed (a merge that moves a key's postings from bucket blocks into
  // its own block changes the key's own runs); after kReadTries reads that
  // changed each time, UNAVAILABLE.
  static constexpr int kReadTries = 4;
  // After FetchHeads, reads its own blocks whole (after Fetch: nothing).
  absl::Status Complete(Store& store);
  // How many games reached it (each once), decoding nothing; after
  // FetchHeads, completing it first when a head cannot tell.
  absl::StatusOr<int64_t> Count(Store& store);
  // How many games reached it (each once), decoding nothing. After
  // FetchHeads (as Games and Bitmap): FAILED_PRECONDITION until Complete.
  absl::StatusOr<int64_t> Count() const;
  // Its games sorted by game, the first `n` of them (all: UINT64_MAX).
  absl::StatusOr<std::vector<PostedGame>> Games(uint64_t n = UINT64_MAX) const;
  // Its games as a bitmap (bit g: game g reached it): a bit a game, for
  // membership tests over many games.
  absl::StatusOr<std::vector<uint64_t>> Bitmap() const;

 private:
  absl::StatusOr<int64_t> CountBlocks() const;  // the whole blocks' count
  // Fetch (FetchHeads with `heads`).
  static absl::StatusOr<KeyPostings> Opened(Store& store, const KnownRules& known, uint64_t key, bool heads);
  // Reads its blocks (own heads only with `heads`) as Fetch says.
  absl::Status Read(Store& store, bool heads);

  uint64_t key_ = 0;
  const KnownRules* known_ = nullptr;
  std::vector<int64_t> own_runs_;       // the runs of its own blocks, as read
  std::vector<std::string> blocks_;     // whole blocks
  std::vector<std::string> own_heads_;  // after FetchHeads, until Complete
  bool heads_only_ = false;
};

// Every posting of `key` in the ruleset's index, sorted by game, each game
// once.
absl::StatusOr<std::vector<PostedGame>> LookUp(Store& store, const KnownRules& known, uint64_t key);

// Merges `runs` (oldest first) into a new run and deletes them (inside a
// write): the blocks of a bucket found in several are merged
// (MergeBlocks), the others copied; the new run keeps keys apart
// (kApartSetting): the ordinary buckets are merged first, the postings of
// keys with an own block in any of the runs taken out of them, then the
// own buckets, those postings merged in. Reads a slice of blocks of each
// run at a time, and merges a chunk of blocks on a helper thread while the
// store is read and written for the next and the last (the store is used
// on the calling thread only). Returns the new run and its bytes.
absl::StatusOr<RunRow> MergeRuns(Store& store, const std::vector<int64_t>& runs);

// Merging as an import goes (size-tiered, as log-structured stores do): a
// run's level grows with its bytes, a level every kLevelFactor times
// kLevelBytes; when the newest run and the runs before it of its level or
// lower number kLevelFanIn or more, they are merged into one (a level
// up). `bytes` are the runs' sizes, oldest first; the result is where the
// runs to merge start (bytes.size(): none). Each posting is rewritten
// about once a level, while the import's next batch is judged, and the
// runs stay few: 1,000,000 finkel games in 16,000-game batches end with
// 7 runs of a level and 7 of the one below, where merging only at the end
// rewrote 56 runs after the last batch (docs/database.md, "Merging").
inline constexpr int64_t kLevelBytes = int64_t{4} << 20;
inline constexpr int kLevelFactor = 8;
inline constexpr size_t kLevelFanIn = 8;
int RunLevel(int64_t bytes);
size_t LevelMergeStart(const std::vector<int64_t>& bytes);

// Merges `runs` (oldest first) where LevelMergeStart says, again until it
// says none, each merge MergeRunsAtomically; `runs` ends as the runs left.
absl::Status MergeFullLevels(Store& store, std::vector<RunRow>& runs);

// MergeRuns in a write of its own: committed, or rolled back and the runs
// left as they were (a kill, a full disk).
absl::StatusOr<RunRow> MergeRunsAtomically(Store& store, const std::vector<int64_t>& runs);

// Merges the position index's runs down to kMaxRuns (a lookup reads a
// block of each): the neighbouring runs smallest together, as many as it
// takes, in one merge, so each of their postings is rewritten once. An
// import of n batches makes n runs. Merging pairs of runs instead (the two
// smallest neighbours, until kMaxRuns were left) rewrote each posting about
// log2(n / kMaxRuns) times, and decoded and sorted every block: 1,000,000
// finkel games in 50 batches spent 80 s of a 135 s import merging.
// Why 16: the level merges leave up to 7 runs a level, and 1,000,000
// finkel games in 16,000-game batches end with 14 (7 of level 2, 7 of
// level 1), so an import of that size merges nothing after its last
// batch; with 8, it rewrote the seven level-1 runs there (2.5-3 s on one
// core, a 40 MB higher peak RSS). Searches and the explorer over 14 runs
// were no slower than over 8 (docs/BENCHMARKS.md, ninth session); the
// file is 0.6% larger (each run repeats its keys' group heads).
inline constexpr int kMaxRuns = 16;
absl::Status CompactIndex(Store& store);

// The store's runs (every import's, oldest first) merged by LevelMergeStart
// until no level is full: a small import's run joins the small runs
// before it, and a run is rewritten about once a level, however many
// imports there are. The runs stay at most kLevelFanIn - 1 a level.
absl::Status MergeStoreLevels(Store& store);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_POSITION_INDEX_H_
