#include "games/position_index.h"

#include <algorithm>
#include <climits>
#include <utility>


namespace scribe::games {

absl::StatusOr<KeyPostings> KeyPostings::Fetch(Store& store, int64_t ruleset, const PositionKeys& keys,
                                               uint64_t key) {
  KeyPostings out;
  out.key_ = key;
  // Its own blocks (the runs where many games reached it), then its
  // bucket's.
  for (int64_t bucket : {OwnBucket(key), keys.Bucket(key)}) {
    absl::StatusOr<std::vector<std::string>> blocks = store.Postings(ruleset, bucket);
    if (!blocks.ok()) return blocks.status();
    for (std::string& b : *blocks) out.blocks_.push_back(std::move(b));
  }
  return out;
}

absl::StatusOr<int64_t> KeyPostings::Count() const {
  int64_t total = 0;
  for (const std::string& block : blocks_) {
    absl::StatusOr<uint64_t> n = CountPostings(block, key_);
    if (!n.ok()) return n.status();
    total += static_cast<int64_t>(*n);
  }
  return total;
}

absl::StatusOr<std::vector<PostedGame>> KeyPostings::Games(uint64_t n) const {
  // Each block's games are sorted, and a game is in one block: the
  // blocks' runs merged, the first n kept.
  std::vector<PostedGame> out;
  std::vector<size_t> ends;
  for (const std::string& block : blocks_) {
    const size_t before = out.size();
    absl::Status s = FindPostings(block, key_, &out, n);
    if (!s.ok()) return s;
    if (out.size() > before) ends.push_back(out.size());
  }
  for (size_t width = 1; width < ends.size(); width *= 2) {
    for (size_t i = 0; i + width < ends.size(); i += 2 * width) {
      const size_t begin = i == 0 ? 0 : ends[i - 1];
      const size_t mid = ends[i + width - 1];
      const size_t end = ends[std::min(i + 2 * width, ends.size()) - 1];
      std::inplace_merge(out.begin() + begin, out.begin() + mid, out.begin() + end);
    }
  }
  if (out.size() > n) out.resize(n);
  return out;
}

absl::StatusOr<std::vector<uint64_t>> KeyPostings::Bitmap() const {
  std::vector<uint64_t> bits;
  for (const std::string& block : blocks_) {
    absl::Status s = MarkPostings(block, key_, &bits);
    if (!s.ok()) return s;
  }
  return bits;
}

absl::StatusOr<std::vector<PostedGame>> LookUp(Store& store, int64_t ruleset, const PositionKeys& keys, uint64_t key) {
  absl::StatusOr<KeyPostings> postings = KeyPostings::Fetch(store, ruleset, keys, key);
  if (!postings.ok()) return postings.status();
  return postings->Games();
}

namespace {

// One run read a slice of blocks at a time, in (ruleset, bucket) order.
class RunReader {
 public:
  RunReader(Store& store, int64_t run) : store_(store), run_(run) {}
  // The next block, or nullptr at the end.
  absl::StatusOr<const PostingRow*> Next() {
    if (i_ == rows_.size()) {
      if (done_) return nullptr;
      absl::StatusOr<std::vector<PostingRow>> rows = store_.RunPostings(run_, after_, kSlice);
      if (!rows.ok()) return rows.status();
      rows_ = std::move(*rows);
      i_ = 0;
      done_ = rows_.size() < static_cast<size_t>(kSlice);
      if (rows_.empty()) return nullptr;
      after_ = {rows_.back().ruleset, rows_.back().bucket};
    }
    return &rows_[i_++];
  }

 private:
  static constexpr int kSlice = 256;
  Store& store_;
  int64_t run_;
  std::pair<int64_t, int64_t> after_{INT64_MIN, INT64_MIN};
  std::vector<PostingRow> rows_;
  size_t i_ = 0;
  bool done_ = false;
};

}  // namespace

absl::Status MergeRuns(Store& store, int64_t older, int64_t newer) {
  absl::StatusOr<int64_t> merged = store.NewRun();
  if (!merged.ok()) return merged.status();
  RunReader a(store, older), b(store, newer);
  absl::StatusOr<const PostingRow*> x = a.Next(), y = b.Next();
  std::vector<PostingRow> out;
  std::vector<Posting> postings;
  auto flush = [&](bool last) -> absl::Status {
    if (out.empty() || (!last && out.size() < 256)) return absl::OkStatus();
    absl::Status s = store.AddPostings(*merged, out);
    out.clear();
    return s;
  };
  while (true) {
    if (!x.ok()) return x.status();
    if (!y.ok()) return y.status();
    if (*x == nullptr && *y == nullptr) break;
    const PostingRow* p = *x;
    const PostingRow* q = *y;
    const bool take_x = q == nullptr || (p != nullptr && std::make_pair(p->ruleset, p->bucket) <=
                                                             std::make_pair(q->ruleset, q->bucket));
    const bool take_y = p == nullptr || (q != nullptr && std::make_pair(q->ruleset, q->bucket) <=
                                                             std::make_pair(p->ruleset, p->bucket));
    const PostingRow& first = take_x ? *p : *q;
    if (take_x && take_y) {
      postings.clear();
      absl::Status s = DecodePostings(p->data, &postings);
      if (s.ok()) s = DecodePostings(q->data, &postings);
      if (!s.ok()) return s;
      std::sort(postings.begin(), postings.end());
      out.push_back(PostingRow{p->ruleset, p->bucket, EncodePostings(postings.data(), postings.data() + postings.size())});
    } else {
      out.push_back(first);
    }
    if (take_x) x = a.Next();
    if (take_y) y = b.Next();
    absl::Status s = flush(false);
    if (!s.ok()) return s;
  }
  absl::Status s = flush(true);
  if (s.ok()) s = store.DeleteRun(older);
  if (s.ok()) s = store.DeleteRun(newer);
  return s;
}

absl::Status CompactIndex(Store& store) {
  while (true) {
    absl::StatusOr<std::vector<RunRow>> runs = store.Runs();
    if (!runs.ok()) return runs.status();
    if (runs->size() <= static_cast<size_t>(kMaxRuns)) return absl::OkStatus();
    // The two neighbours smallest together: a posting is rewritten about
    // log2(runs / kMaxRuns) times however the runs came.
    size_t best = 0;
    for (size_t i = 1; i + 1 < runs->size(); ++i) {
      if ((*runs)[i].bytes + (*runs)[i + 1].bytes < (*runs)[best].bytes + (*runs)[best + 1].bytes) best = i;
    }
    // One merge a transaction: the write lock is held for one merge, and a
    // merge cut short (a kill, a full disk) leaves the runs as they were.
    absl::Status s = store.BeginWrite();
    if (!s.ok()) return s;
    s = MergeRuns(store, (*runs)[best].run, (*runs)[best + 1].run);
    if (s.ok()) s = store.Commit();
    if (!s.ok()) {
      (void)store.Rollback();
      return s;
    }
  }
}

}  // namespace scribe::games
