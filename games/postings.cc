#include "games/postings.h"

#include <algorithm>
#include <array>
#include <climits>

#include "games/varint.h"

namespace scribe::games {
namespace {

absl::Status Damaged() { return absl::DataLossError("a block of the position index is damaged"); }

// Walks the groups; `want(key)` says whether to decode a group's entries
// (false: skip them), `add(key, game, shallow)` takes each decoded one;
// stops after a group with key > `stop`.
template <class Want, class Add>
absl::Status Walk(absl::string_view block, uint64_t stop, Want want, Add add, uint64_t limit = UINT64_MAX) {
  ByteReader in(block);
  uint64_t key = 0;
  if (!in.done() && !in.Varint(&key)) return Damaged();
  while (!in.done()) {
    uint64_t head = 0, count = 1;
    if (!in.Varint(&head)) return Damaged();
    // Keys and games only grow: a sum that wraps is damage.
    if (key + (head >> 1) < key) return Damaged();
    key += head >> 1;
    if ((head & 1) == 0 && (!in.Varint(&count) || count < 2 || count > block.size())) return Damaged();
    if (key > stop) return absl::OkStatus();
    const bool keep = want(key, count);
    if (!keep) {  // another key's group: its entries skipped, not decoded
      if (!in.SkipVarints(count)) return Damaged();
      continue;
    }
    uint64_t game = 0;
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t entry = 0;
      if (!in.Varint(&entry)) return Damaged();
      game += entry >> 1;
      if (game > static_cast<uint64_t>(INT64_MAX)) return Damaged();
      if (keep && i < limit) add(key, static_cast<int64_t>(game), (entry & 1) != 0);
    }
  }
  return absl::OkStatus();
}

// A block read a group at a time, for MergeBlocks.
class GroupCursor {
 public:
  explicit GroupCursor(absl::string_view block) : block_(block), in_(block) {}
  // Reads the first key and group.
  absl::Status Open() {
    if (block_.empty()) return absl::OkStatus();
    if (!in_.Varint(&key_)) return Damaged();
    return Next();
  }
  // Reads the next group; at_group() is false past the last.
  absl::Status Next() {
    at_group_ = false;
    if (in_.done()) return absl::OkStatus();
    uint64_t head = 0;
    count_ = 1;
    if (!in_.Varint(&head) || key_ + (head >> 1) < key_) return Damaged();
    key_ += head >> 1;
    if ((head & 1) == 0 && (!in_.Varint(&count_) || count_ < 2 || count_ > block_.size())) return Damaged();
    const size_t start = in_.pos();
    uint64_t game = 0;
    for (uint64_t i = 0; i < count_; ++i) {
      uint64_t entry = 0;
      if (!in_.Varint(&entry)) return Damaged();
      if (i == 0) {
        first_entry_ = entry;
        first_length_ = in_.pos() - start;
      }
      game += entry >> 1;
      if (game > static_cast<uint64_t>(INT64_MAX)) return Damaged();
    }
    entries_ = block_.substr(start, in_.pos() - start);
    last_game_ = game;
    at_group_ = true;
    return absl::OkStatus();
  }
  bool at_group() const { return at_group_; }
  uint64_t key() const { return key_; }
  uint64_t count() const { return count_; }
  absl::string_view entries() const { return entries_; }
  uint64_t first_game() const { return first_entry_ >> 1; }
  uint64_t last_game() const { return last_game_; }
  // The entries after the first, and the first's shallow bit.
  absl::string_view rest() const { return entries_.substr(first_length_); }
  bool first_shallow() const { return (first_entry_ & 1) != 0; }
  // Passes each of the group's games to `add(game, shallow)` (its entries
  // were read whole by Next: no damage left to find).
  template <typename Add>
  void EachGame(Add&& add) const {
    ByteReader in(entries_);
    uint64_t game = 0, entry = 0;
    for (uint64_t i = 0; i < count_ && in.Varint(&entry); ++i) {
      game += entry >> 1;
      add(static_cast<int64_t>(game), (entry & 1) != 0);
    }
  }

 private:
  absl::string_view block_;
  ByteReader in_;
  uint64_t key_ = 0, count_ = 0, first_entry_ = 0, last_game_ = 0;
  size_t first_length_ = 0;
  absl::string_view entries_;
  bool at_group_ = false;
};

}  // namespace

absl::StatusOr<std::string> MergeBlocks(const std::vector<absl::string_view>& blocks,
                                        const std::vector<uint64_t>* take, std::vector<Posting>* taken) {
  std::vector<GroupCursor> cursors;
  cursors.reserve(blocks.size());
  size_t bytes = 0;
  for (absl::string_view block : blocks) {
    cursors.emplace_back(block);
    absl::Status s = cursors.back().Open();
    if (!s.ok()) return s;
    bytes += block.size();
  }
  std::string out;
  out.reserve(bytes + 16);
  bool first = true;
  uint64_t prev_key = 0;
  std::vector<GroupCursor*> with;  // the cursors at the smallest key, oldest first
  std::vector<PostedGame> games;   // a key's games when they must be sorted
  size_t next_take = 0;
  while (true) {
    with.clear();
    for (GroupCursor& c : cursors) {
      if (!c.at_group()) continue;
      if (!with.empty() && c.key() > with[0]->key()) continue;
      if (!with.empty() && c.key() < with[0]->key()) with.clear();
      with.push_back(&c);
    }
    if (with.empty()) break;
    const uint64_t key = with[0]->key();
    if (take != nullptr) {  // the keys grow: one pass over `take`
      while (next_take < take->size() && (*take)[next_take] < key) ++next_take;
      if (next_take < take->size() && (*take)[next_take] == key) {
        for (GroupCursor* c : with) {
          c->EachGame([&](int64_t game, bool shallow) { taken->push_back(Posting{key, game, shallow}); });
          absl::Status s = c->Next();
          if (!s.ok()) return s;
        }
        continue;
      }
    }
    uint64_t count = 0;
    bool in_order = true;
    for (size_t i = 0; i < with.size(); ++i) {
      count += with[i]->count();
      if (i > 0 && with[i]->first_game() <= with[i - 1]->last_game()) in_order = false;
    }
    if (first) {
      PutVarint(&out, key);
      prev_key = key;
      first = false;
    }
    PutVarint(&out, (key - prev_key) << 1 | (count == 1));
    if (count != 1) PutVarint(&out, count);
    prev_key = key;
    if (in_order) {
      out.append(with[0]->entries().data(), with[0]->entries().size());
      for (size_t i = 1; i < with.size(); ++i) {
        PutVarint(&out, (with[i]->first_game() - with[i - 1]->last_game()) << 1 | with[i]->first_shallow());
        out.append(with[i]->rest().data(), with[i]->rest().size());
      }
    } else {
      games.clear();
      for (GroupCursor* c : with) {
        c->EachGame([&](int64_t game, bool shallow) { games.push_back(PostedGame{game, shallow}); });
      }
      std::stable_sort(games.begin(), games.end());
      int64_t prev_game = 0;
      for (const PostedGame& g : games) {
        PutVarint(&out, static_cast<uint64_t>(g.game - prev_game) << 1 | g.shallow);
        prev_game = g.game;
      }
    }
    for (GroupCursor* c : with) {
      absl::Status s = c->Next();
      if (!s.ok()) return s;
    }
  }
  return out;
}

namespace {

// Sorts the n entries at `from` by key, stably, a byte a pass through `to`
// (room for n): returns where they end, `from` or `to`.
KeyedGame* RadixSort(KeyedGame* from, KeyedGame* to, size_t n) {
  if (n < 2) return from;
  // One pass counts every byte's values; a byte whose count is n for one
  // value is the same in every key and needs no pass.
  std::array<std::array<size_t, 256>, 8> counts;
  for (auto& c : counts) c.fill(0);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t key = from[i].key;
    for (int b = 0; b < 8; ++b) ++counts[b][(key >> (8 * b)) & 0xff];
  }
  for (int b = 0; b < 8; ++b) {
    std::array<size_t, 256>& c = counts[b];
    if (std::find(c.begin(), c.end(), n) != c.end()) continue;
    size_t at = 0;
    for (size_t& v : c) {
      const size_t here = v;
      v = at;
      at += here;
    }
    for (size_t i = 0; i < n; ++i) to[c[(from[i].key >> (8 * b)) & 0xff]++] = from[i];
    std::swap(from, to);
  }
  return from;
}

}  // namespace

void SortByKey(std::vector<KeyedGame>* postings, std::vector<KeyedGame>* scratch) {
  const size_t n = postings->size();
  if (n < 2) return;
  // The same capacity as `postings`: the two swap when the passes end in
  // the scratch, and each keeps room for the next batch.
  scratch->reserve(postings->capacity());
  scratch->resize(n);
  KeyedGame* a = postings->data();
  KeyedGame* b = scratch->data();
  // Hash keys (the top bit set) sort after every rank: the two kinds are
  // put apart first (stably), each then sorted on the bytes its keys do
  // not share. Sorted together, a game's last position (a hash) among the
  // ranks made every byte vary: eight passes where ranks under 2^32 need
  // four.
  size_t ranks = 0;
  for (size_t i = 0; i < n; ++i) ranks += (a[i].key >> 63) == 0;
  if (ranks != 0 && ranks != n) {
    size_t low = 0, high = ranks;
    for (size_t i = 0; i < n; ++i) ((a[i].key >> 63) == 0 ? b[low++] : b[high++]) = a[i];
    std::swap(a, b);
  }
  KeyedGame* low = RadixSort(a, b, ranks);
  KeyedGame* high = RadixSort(a + ranks, b + ranks, n - ranks);
  // Both parts in one buffer: the smaller copied to the larger's.
  KeyedGame* base = ranks >= n - ranks ? low : high - ranks;
  if (low != base) std::copy(low, low + ranks, base);
  if (high != base + ranks) std::copy(high, high + (n - ranks), base + ranks);
  if (base != postings->data()) postings->swap(*scratch);
}

std::string EncodePostings(const Posting* begin, const Posting* end) {
  if (begin == end) return std::string();
  // Written into a buffer with room for the longest varints (the first
  // key; a group's key and count; a game each), then copied out at its
  // length: the thread's buffer, kept for its next block, up to 1 MiB; a
  // buffer of the block's own past it (a key's own block from a million
  // games), so no thread keeps more.
  thread_local std::string kept;
  std::string own;
  const size_t most = 10 + static_cast<size_t>(end - begin) * 30;
  std::string& buffer = most <= (size_t{1} << 20) ? kept : own;
  if (buffer.size() < most) buffer.resize(most);
  char* at = buffer.data();
  uint64_t prev_key = begin->key;
  at = PutVarintAt(at, prev_key);
  for (const Posting* p = begin; p != end;) {
    const Posting* q = p;
    while (q != end && q->key == p->key) ++q;
    const uint64_t count = static_cast<uint64_t>(q - p);
    at = PutVarintAt(at, (p->key - prev_key) << 1 | (count == 1));
    if (count != 1) at = PutVarintAt(at, count);
    int64_t prev_game = 0;
    for (; p != q; ++p) {
      at = PutVarintAt(at, static_cast<uint64_t>(p->game - prev_game) << 1 | p->shallow);
      prev_game = p->game;
    }
    prev_key = q[-1].key;
  }
  return std::string(buffer.data(), at);
}

absl::Status DecodePostings(absl::string_view block, std::vector<Posting>* out) {
  return Walk(
      block, UINT64_MAX, [](uint64_t, uint64_t) { return true; },
      [out](uint64_t key, int64_t game, bool shallow) { out->push_back(Posting{key, game, shallow}); });
}

absl::Status TakeKeys(std::string* block, const std::vector<uint64_t>& keys, std::vector<Posting>* out) {
  if (keys.empty() || block->empty()) return absl::OkStatus();
  const size_t before = out->size();
  size_t at = 0;  // the groups' keys grow: one pass over `keys`
  absl::Status s = Walk(
      *block, keys.back(),
      [&](uint64_t k, uint64_t) {
        while (at < keys.size() && keys[at] < k) ++at;
        return at < keys.size() && keys[at] == k;
      },
      [out](uint64_t key, int64_t game, bool shallow) { out->push_back(Posting{key, game, shallow}); });
  if (!s.ok() || out->size() == before) return s;
  std::vector<Posting> all, kept;
  s = DecodePostings(*block, &all);
  if (!s.ok()) return s;
  kept.reserve(all.size() - (out->size() - before));
  for (const Posting& p : all) {
    if (!std::binary_search(keys.begin(), keys.end(), p.key)) kept.push_back(p);
  }
  *block = EncodePostings(kept.data(), kept.data() + kept.size());
  return absl::OkStatus();
}

absl::Status FindPostings(absl::string_view block, uint64_t key, std::vector<PostedGame>* out, uint64_t limit) {
  return Walk(
      block, key,
      [key, out, limit](uint64_t k, uint64_t count) {
        if (k != key) return false;
        out->reserve(out->size() + std::min(count, limit));
        return true;
      },
      [out](uint64_t, int64_t game, bool shallow) { out->push_back(PostedGame{game, shallow}); }, limit);
}

absl::Status MarkPostings(absl::string_view block, uint64_t key, std::vector<uint64_t>* bits) {
  return Walk(
      block, key, [key](uint64_t k, uint64_t) { return k == key; },
      [bits](uint64_t, int64_t game, bool) {
        if (game < 0) return;
        const size_t word = static_cast<size_t>(game) / 64;
        if (word >= bits->size()) bits->resize(word + 1 + word / 2);
        (*bits)[word] |= uint64_t{1} << (game % 64);
      });
}

absl::StatusOr<uint64_t> CountPostings(absl::string_view block, uint64_t key) {
  uint64_t found = 0;
  absl::Status s = Walk(
      block, key,
      [key, &found](uint64_t k, uint64_t count) {
        if (k == key) found = count;
        return false;
      },
      [](uint64_t, int64_t, bool) {});
  if (!s.ok()) return s;
  return found;
}

std::optional<uint64_t> CountFromHead(absl::string_view head, uint64_t key) {
  ByteReader in(head);
  uint64_t first = 0, group = 0, count = 1;
  if (!in.Varint(&first) || !in.Varint(&group)) return std::nullopt;
  if (first + (group >> 1) < first) return std::nullopt;
  first += group >> 1;
  if ((group & 1) == 0 && !in.Varint(&count)) return std::nullopt;
  if (first == key) return count;
  if (first > key) return uint64_t{0};  // keys only grow: not in the block
  return std::nullopt;
}

void KeySet::Clear() {
  size_ = 0;
  if (++stamp_ == 0) {  // after 2^32 games the stamps start again
    std::fill(stamps_.begin(), stamps_.end(), 0);
    stamp_ = 1;
  }
}

bool KeySet::Insert(uint64_t key) {
  if (2 * (size_ + 1) > keys_.size()) Grow();
  const uint64_t mask = keys_.size() - 1;
  for (uint64_t slot = (key * 0x9e3779b97f4a7c15ull) >> shift_;; slot = (slot + 1) & mask) {
    if (stamps_[slot] != stamp_) {
      stamps_[slot] = stamp_;
      keys_[slot] = key;
      ++size_;
      return true;
    }
    if (keys_[slot] == key) return false;
  }
}

void KeySet::Grow() {
  std::vector<uint64_t> keys;
  std::vector<uint32_t> stamps;
  keys.swap(keys_);
  stamps.swap(stamps_);
  const size_t capacity = keys.empty() ? 512 : 2 * keys.size();
  keys_.assign(capacity, 0);
  stamps_.assign(capacity, 0);
  shift_ = 64 - __builtin_ctzll(capacity);
  const uint32_t stamp = stamp_;
  stamp_ = 1;
  size_ = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (stamps[i] == stamp) Insert(keys[i]);
  }
}

}  // namespace scribe::games
