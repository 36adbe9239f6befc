// The position index's blocks: which games reached which positions.
//
// A posting says a game reached a position (its key, position_key.h). A
// game posts each position it reaches once, at the first ply it reaches it,
// and marks it `shallow` when that ply is within the explorer's depth (the
// explorer's aggregates count it; a deep posting is counted by replaying
// the game). Postings are stored in blocks, one per (ruleset, bucket) per
// run (store.h), sorted by key then game, as groups:
//
//   block := varint(first key) group+
//   group := varint(key delta << 1 | single) [varint count if !single]
//            entry+ (one when single)
//   entry := varint(game delta << 1 | shallow)
//
// The key delta is from the previous group's key (the first group's is
// 0), the
// game delta from the previous entry's game in the group (the first from
// 0). A posting costs about 4 bytes.
#ifndef SCRIBE_GAMES_POSTINGS_H_
#define SCRIBE_GAMES_POSTINGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace scribe::games {

struct Posting {
  uint64_t key = 0;
  int64_t game = 0;
  bool shallow = false;
  friend bool operator<(const Posting& a, const Posting& b) {
    return a.key != b.key ? a.key < b.key : a.game < b.game;
  }
  friend bool operator==(const Posting& a, const Posting& b) {
    return a.key == b.key && a.game == b.game && a.shallow == b.shallow;
  }
};

// A game found for a key (FindPostings): the key is the one looked up.
struct PostedGame {
  int64_t game = 0;
  bool shallow = false;
  friend bool operator<(const PostedGame& a, const PostedGame& b) { return a.game < b.game; }
};

// A posting as an import batch collects it: 16 bytes, `tagged` being
// game << 1 | shallow (or, before the game has its id, the game's place in
// the batch).
struct KeyedGame {
  uint64_t key = 0;
  int64_t tagged = 0;
};

// Sorts by key, keeping the order of equal keys (a stable LSD radix sort,
// a byte a pass, skipping the bytes all keys share). `scratch` is working
// room, kept by the caller between calls so its pages are reused.
void SortByKey(std::vector<KeyedGame>* postings, std::vector<KeyedGame>* scratch);

// The keys one game has reached so far (a position is posted once per
// game, at its first ply): an open-addressed table emptied in constant
// time, each slot stamped with the game that filled it, so the import
// neither clears nor reallocates it between games.
class KeySet {
 public:
  // Empties the set.
  void Clear();
  // Adds `key`; true when it was not in the set.
  bool Insert(uint64_t key);

 private:
  void Grow();
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> stamps_;  // a slot is full when its stamp is stamp_
  uint32_t stamp_ = 1;
  size_t size_ = 0;
  int shift_ = 64;  // the slot is the top bits of key * a constant
};

// [begin, end) sorted, no (key, game) twice.
std::string EncodePostings(const Posting* begin, const Posting* end);

// One block of the postings of `blocks` (of one bucket, from successive
// runs, oldest first): a key's entries are copied as they are, the first
// of each later block's re-based on the game before it, when each block's
// games of a key follow the earlier ones' (as a later run's games do);
// else that key's games are decoded and sorted. DATA_LOSS for a damaged
// block.
// With `take` (sorted keys), the groups of those keys are not merged but
// their postings appended to `taken` (TakeKeys, merging).
absl::StatusOr<std::string> MergeBlocks(const std::vector<absl::string_view>& blocks,
                                        const std::vector<uint64_t>* take = nullptr,
                                        std::vector<Posting>* taken = nullptr);

// Takes the groups of `keys` (sorted) out of `block`: appends their
// postings to `out` and rewrites the block without them (left as it is
// when it holds none of them; "" when it held nothing else). DATA_LOSS
// for a damaged block.
absl::Status TakeKeys(std::string* block, const std::vector<uint64_t>& keys, std::vector<Posting>* out);

// Appends the block's postings to `out`; DATA_LOSS for a damaged block.
absl::Status DecodePostings(absl::string_view block, std::vector<Posting>* out);

// Appends the games of `key` alone (skipping the other groups' entries),
// the first `limit` of them (by game).
absl::Status FindPostings(absl::string_view block, uint64_t key, std::vector<PostedGame>* out,
                          uint64_t limit = UINT64_MAX);

// Sets bit g of `bits` (grown as needed) for each game g of `key`.
absl::Status MarkPostings(absl::string_view block, uint64_t key, std::vector<uint64_t>* bits);

// How many games the block holds for `key`, decoding none.
absl::StatusOr<uint64_t> CountPostings(absl::string_view block, uint64_t key);

// The same from the block's first bytes alone (a key's own block, whose
// first group is the key's: Store::PostingHeads): nullopt when they cannot
// tell (the first group is a smaller key's, or the bytes end before its
// count). kHeadBytes always reach the first group's count.
inline constexpr int64_t kHeadBytes = 32;
std::optional<uint64_t> CountFromHead(absl::string_view head, uint64_t key);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_POSTINGS_H_
