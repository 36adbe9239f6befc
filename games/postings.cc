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

}  // namespace

void SortByKey(std::vector<KeyedGame>* postings, std::vector<KeyedGame>* scratch) {
  const size_t n = postings->size();
  if (n < 2) return;
  // One pass counts every byte's values; a byte whose count is n for one
  // value is the same in every key and needs no pass.
  std::vector<std::array<size_t, 256>> counts(8);
  for (auto& c : counts) c.fill(0);
  for (const KeyedGame& p : *postings) {
    for (int b = 0; b < 8; ++b) ++counts[b][(p.key >> (8 * b)) & 0xff];
  }
  // The same capacity as `postings`: the two swap when the passes are odd,
  // and each keeps room for the next batch.
  scratch->reserve(postings->capacity());
  scratch->resize(n);
  KeyedGame* from = postings->data();
  KeyedGame* to = scratch->data();
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
  if (from != postings->data()) postings->swap(*scratch);
}

std::string EncodePostings(const Posting* begin, const Posting* end) {
  std::string out;
  out.reserve(static_cast<size_t>(end - begin) * 4);
  if (begin == end) return out;
  uint64_t prev_key = begin->key;
  PutVarint(&out, prev_key);
  for (const Posting* p = begin; p != end;) {
    const Posting* q = p;
    while (q != end && q->key == p->key) ++q;
    const uint64_t count = static_cast<uint64_t>(q - p);
    PutVarint(&out, (p->key - prev_key) << 1 | (count == 1));
    if (count != 1) PutVarint(&out, count);
    int64_t prev_game = 0;
    for (; p != q; ++p) {
      PutVarint(&out, static_cast<uint64_t>(p->game - prev_game) << 1 | p->shallow);
      prev_game = p->game;
    }
    prev_key = q[-1].key;
  }
  return out;
}

absl::Status DecodePostings(absl::string_view block, std::vector<Posting>* out) {
  return Walk(
      block, UINT64_MAX, [](uint64_t, uint64_t) { return true; },
      [out](uint64_t key, int64_t game, bool shallow) { out->push_back(Posting{key, game, shallow}); });
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

}  // namespace scribe::games
