#include "games/position_index.h"

#include <algorithm>
#include <climits>
#include <map>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"

namespace scribe::games {

namespace {

// The runs of `blocks`, those from run `from` on.
std::vector<int64_t> RunsOf(const std::vector<RunBlock>& blocks, int64_t from = INT64_MIN) {
  std::vector<int64_t> runs;
  for (const RunBlock& b : blocks) {
    if (b.run >= from) runs.push_back(b.run);
  }
  return runs;
}

}  // namespace

absl::Status KeyPostings::Read(Store& store, bool heads) {
  const int64_t ruleset = known_->id, own_bucket = OwnBucket(key_);
  for (int attempt = 0; attempt < kReadTries; ++attempt) {
    absl::StatusOr<std::vector<RunBlock>> own =
        heads ? store.PostingHeads(ruleset, own_bucket, kHeadBytes) : store.Postings(ruleset, own_bucket, {});
    if (!own.ok()) return own.status();
    // The runs with an own block that keep keys apart: their ordinary
    // blocks hold none of the key's postings.
    absl::StatusOr<std::vector<RunBlock>> blocks =
        store.Postings(ruleset, known_->keys->Bucket(key_), RunsOf(*own, known_->apart_from));
    if (!blocks.ok()) return blocks.status();
    std::vector<int64_t> runs = RunsOf(*own);
    if (!runs.empty()) {  // no own block, none a merge could make: nothing to check
      absl::StatusOr<std::vector<RunBlock>> again = store.PostingHeads(ruleset, own_bucket, 0);
      if (!again.ok()) return again.status();
      if (RunsOf(*again) != runs) continue;
    }
    own_runs_ = std::move(runs);
    own_heads_.clear();
    blocks_.clear();
    for (RunBlock& b : *own) (heads ? own_heads_ : blocks_).push_back(std::move(b.data));
    for (RunBlock& b : *blocks) blocks_.push_back(std::move(b.data));
    heads_only_ = heads;
    return absl::OkStatus();
  }
  return absl::UnavailableError(absl::StrCat(store.Name(), ": the position index changed each of the ", kReadTries,
                                             " times it was read (an import merging it); try again"));
}

absl::StatusOr<KeyPostings> KeyPostings::Fetch(Store& store, const KnownRules& known, uint64_t key) {
  return Opened(store, known, key, false);
}

absl::StatusOr<KeyPostings> KeyPostings::FetchHeads(Store& store, const KnownRules& known, uint64_t key) {
  return Opened(store, known, key, true);
}

absl::StatusOr<KeyPostings> KeyPostings::Opened(Store& store, const KnownRules& known, uint64_t key, bool heads) {
  KeyPostings out;
  out.key_ = key;
  out.known_ = &known;
  absl::Status s = out.Read(store, heads);
  if (!s.ok()) return s;
  return out;
}

absl::Status KeyPostings::Complete(Store& store) {
  if (!heads_only_) return absl::OkStatus();
  absl::StatusOr<std::vector<RunBlock>> own = store.Postings(known_->id, OwnBucket(key_), {});
  if (!own.ok()) return own.status();
  // Runs merged since the heads were read: everything read again.
  if (RunsOf(*own) != own_runs_) return Read(store, false);
  for (RunBlock& b : *own) blocks_.push_back(std::move(b.data));
  own_heads_.clear();
  heads_only_ = false;
  return absl::OkStatus();
}

absl::StatusOr<int64_t> KeyPostings::Count(Store& store) {
  int64_t own = 0;
  for (const std::string& head : own_heads_) {
    const std::optional<uint64_t> n = CountFromHead(head, key_);
    if (!n.has_value()) {  // a head that cannot tell: every block read
      absl::Status s = Complete(store);
      if (!s.ok()) return s;
      return CountBlocks();
    }
    own += static_cast<int64_t>(*n);
  }
  absl::StatusOr<int64_t> rest = CountBlocks();
  if (!rest.ok()) return rest.status();
  return own + *rest;
}

absl::StatusOr<int64_t> KeyPostings::Count() const {
  if (heads_only_) return absl::FailedPreconditionError("KeyPostings::Count() before Complete");
  return CountBlocks();
}

absl::StatusOr<int64_t> KeyPostings::CountBlocks() const {
  int64_t total = 0;
  for (const std::string& block : blocks_) {
    absl::StatusOr<uint64_t> n = CountPostings(block, key_);
    if (!n.ok()) return n.status();
    total += static_cast<int64_t>(*n);
  }
  return total;
}

absl::StatusOr<std::vector<PostedGame>> KeyPostings::Games(uint64_t n) const {
  if (heads_only_) return absl::FailedPreconditionError("KeyPostings::Games before Complete");
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
  if (heads_only_) return absl::FailedPreconditionError("KeyPostings::Bitmap before Complete");
  std::vector<uint64_t> bits;
  for (const std::string& block : blocks_) {
    absl::Status s = MarkPostings(block, key_, &bits);
    if (!s.ok()) return s;
  }
  return bits;
}

absl::StatusOr<std::vector<PostedGame>> LookUp(Store& store, const KnownRules& known, uint64_t key) {
  absl::StatusOr<KeyPostings> postings = KeyPostings::Fetch(store, known, key);
  if (!postings.ok()) return postings.status();
  return postings->Games();
}

namespace {

// One run read a slice of blocks at a time, in (ruleset, bucket) order,
// of the buckets in a range.
class RunReader {
 public:
  RunReader(Store& store, int64_t run, std::pair<int64_t, int64_t> buckets)
      : store_(store), run_(run), buckets_(buckets) {}
  // The next block (its data the caller's to take), or nullptr at the end.
  absl::StatusOr<PostingRow*> Next() {
    if (i_ == rows_.size()) {
      if (done_) return nullptr;
      absl::StatusOr<std::vector<PostingRow>> rows = store_.RunPostings(run_, after_, kSlice, buckets_);
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
  std::pair<int64_t, int64_t> buckets_;
  std::pair<int64_t, int64_t> after_{INT64_MIN, INT64_MIN};
  std::vector<PostingRow> rows_;
  size_t i_ = 0;
  bool done_ = false;
};

constexpr std::pair<int64_t, int64_t> kOrdinaryBuckets{0, INT64_MAX};
constexpr std::pair<int64_t, int64_t> kOwnBuckets{INT64_MIN, -1};

// The keys of a ruleset a merge keeps apart (sorted), by ruleset.
using ApartKeys = std::map<int64_t, std::vector<uint64_t>>;
// Postings taken out of ordinary blocks, by (ruleset, own bucket).
using TakenPostings = std::map<std::pair<int64_t, int64_t>, std::vector<Posting>>;

// One block of the merged run: its bucket's blocks gathered from the runs
// by the thread that reads and writes the store, made into one (merged,
// keys taken out, taken postings merged in) by a helper thread meanwhile.
struct MergeJob {
  int64_t ruleset = 0, bucket = 0;
  std::vector<std::string> blocks;              // the runs' blocks of the bucket, oldest first
  const std::vector<uint64_t>* take = nullptr;  // keys to take out (sorted)
  std::vector<Posting> extra;                   // postings to merge in
  // Made:
  absl::Status status;
  std::string data;            // "" when nothing is left
  std::vector<Posting> taken;  // the postings of `take`'s keys
};

void Make(MergeJob& job) {
  job.taken.clear();
  if (job.blocks.size() == 1) {
    job.data = std::move(job.blocks[0]);
    if (job.take != nullptr) job.status = TakeKeys(&job.data, *job.take, &job.taken);
  } else {
    std::vector<absl::string_view> views(job.blocks.begin(), job.blocks.end());
    absl::StatusOr<std::string> data = MergeBlocks(views, job.take, &job.taken);
    if (!data.ok()) {
      job.status = data.status();
      return;
    }
    job.data = *std::move(data);
  }
  if (!job.status.ok() || job.extra.empty()) return;
  std::sort(job.extra.begin(), job.extra.end());
  const std::string extra = EncodePostings(job.extra.data(), job.extra.data() + job.extra.size());
  absl::StatusOr<std::string> data = MergeBlocks({job.data, extra});
  if (!data.ok()) {
    job.status = data.status();
    return;
  }
  job.data = *std::move(data);
}

// Makes a chunk of jobs on a thread of its own; joined before it goes.
class Maker {
 public:
  ~Maker() { Join(); }
  void Start(std::vector<MergeJob>* jobs) {
    thread_ = std::thread([jobs] {
      for (MergeJob& job : *jobs) Make(job);
    });
  }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::thread thread_;
};

// Merges the blocks of `runs` of the buckets in `buckets` into run
// `merged`, adding their bytes to `bytes`. The postings of `apart`'s keys
// are taken out (added to `taken`); the postings `merge_in` holds for a
// block's (ruleset, bucket) are merged into it (and erased from it). A
// block left empty is not written. The store is read and written on this
// thread, a chunk of blocks at a time, while a helper thread makes the
// chunk before (merging blocks was an eighth of the import's writer).
absl::Status MergeBuckets(Store& store, const std::vector<int64_t>& runs, std::pair<int64_t, int64_t> buckets,
                          int64_t merged, const ApartKeys& apart, TakenPostings* taken, TakenPostings* merge_in,
                          int64_t* bytes) {
  std::vector<RunReader> readers;
  std::vector<PostingRow*> at;  // each reader's current block
  readers.reserve(runs.size());
  for (int64_t run : runs) {
    readers.emplace_back(store, run, buckets);
    absl::StatusOr<PostingRow*> row = readers.back().Next();
    if (!row.ok()) return row.status();
    at.push_back(*row);
  }
  // A chunk: 256 blocks, fewer where their bytes pass 4 MiB (a key's own
  // blocks from a million games run to hundreds of KB each): two chunks
  // are in memory at a time, besides each reader's slice.
  constexpr size_t kChunk = 256;
  constexpr size_t kChunkBytes = size_t{4} << 20;
  std::vector<MergeJob> gathering, making;
  std::vector<size_t> with;  // the readers at the smallest (ruleset, bucket), oldest first
  // The next chunk of jobs from the readers (fewer at the end).
  auto gather = [&]() -> absl::Status {
    gathering.resize(kChunk);
    size_t n = 0, chunk_bytes = 0;
    while (n < kChunk && chunk_bytes < kChunkBytes) {
      with.clear();
      for (size_t i = 0; i < at.size(); ++i) {
        if (at[i] == nullptr) continue;
        if (!with.empty()) {
          const auto mine = std::make_pair(at[i]->ruleset, at[i]->bucket);
          const auto best = std::make_pair(at[with[0]]->ruleset, at[with[0]]->bucket);
          if (mine > best) continue;
          if (mine < best) with.clear();
        }
        with.push_back(i);
      }
      if (with.empty()) break;
      MergeJob& job = gathering[n++];
      job.ruleset = at[with[0]]->ruleset;
      job.bucket = at[with[0]]->bucket;
      auto keys = apart.find(job.ruleset);
      job.take = keys == apart.end() ? nullptr : &keys->second;
      job.blocks.resize(with.size());
      for (size_t k = 0; k < with.size(); ++k) {
        job.blocks[k] = std::move(at[with[k]]->data);
        chunk_bytes += job.blocks[k].size();
      }
      job.extra.clear();
      if (merge_in != nullptr) {
        if (auto more = merge_in->find({job.ruleset, job.bucket}); more != merge_in->end()) {
          job.extra = std::move(more->second);
          merge_in->erase(more);
        }
      }
      job.status = absl::OkStatus();
      // The rows are taken: the readers may move on.
      for (size_t i : with) {
        absl::StatusOr<PostingRow*> next = readers[i].Next();
        if (!next.ok()) return next.status();
        at[i] = *next;
      }
    }
    gathering.resize(n);
    return absl::OkStatus();
  };
  std::vector<PostingRow> out;
  // The chunk made, written.
  auto write = [&]() -> absl::Status {
    out.clear();
    for (MergeJob& job : making) {
      if (!job.status.ok()) return job.status;
      for (const Posting& p : job.taken) (*taken)[{job.ruleset, OwnBucket(p.key)}].push_back(p);
      if (job.data.empty()) continue;
      *bytes += static_cast<int64_t>(job.data.size());
      out.push_back(PostingRow{job.ruleset, job.bucket, std::move(job.data)});
    }
    return out.empty() ? absl::OkStatus() : store.AddPostings(merged, out);
  };
  Maker maker;
  while (true) {
    absl::Status s = gather();
    maker.Join();
    if (s.ok() && !making.empty()) s = write();
    if (!s.ok() || gathering.empty()) return s;
    std::swap(gathering, making);
    maker.Start(&making);
  }
}

}  // namespace

absl::StatusOr<RunRow> MergeRuns(Store& store, const std::vector<int64_t>& runs) {
  absl::StatusOr<int64_t> merged = store.NewRun();
  if (!merged.ok()) return merged.status();
  // The keys with an own block in any of the runs, by ruleset, sorted
  // (both keys an own bucket may hold): kept apart in the merged run.
  ApartKeys apart;
  for (int64_t run : runs) {
    absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> own = store.RunBuckets(run, kOwnBuckets);
    if (!own.ok()) return own.status();
    for (const auto& [ruleset, bucket] : *own) {
      const uint64_t key = static_cast<uint64_t>(bucket - INT64_MIN);
      apart[ruleset].push_back(key);
      apart[ruleset].push_back(key | uint64_t{1} << 63);
    }
  }
  for (auto& [ruleset, keys] : apart) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }
  // Their postings in ordinary blocks, by (ruleset, own bucket).
  TakenPostings taken;
  int64_t bytes = 0;
  absl::Status s = MergeBuckets(store, runs, kOrdinaryBuckets, *merged, apart, &taken, nullptr, &bytes);
  if (s.ok()) s = MergeBuckets(store, runs, kOwnBuckets, *merged, ApartKeys(), &taken, &taken, &bytes);
  if (s.ok() && !taken.empty()) {
    s = absl::InternalError("merging the position index: postings taken for an own block no run has");
  }
  for (int64_t run : runs) {
    if (s.ok()) s = store.DeleteRun(run);
  }
  if (!s.ok()) return s;
  return RunRow{*merged, bytes};
}

int RunLevel(int64_t bytes) {
  int level = 0;
  for (int64_t bound = kLevelBytes; bytes >= bound && bound <= INT64_MAX / kLevelFactor; bound *= kLevelFactor) {
    ++level;
  }
  return level;
}

size_t LevelMergeStart(const std::vector<int64_t>& bytes) {
  if (bytes.size() < kLevelFanIn) return bytes.size();
  const int level = RunLevel(bytes.back());
  size_t from = bytes.size() - 1;
  while (from > 0 && RunLevel(bytes[from - 1]) <= level) --from;
  return bytes.size() - from >= kLevelFanIn ? from : bytes.size();
}

absl::StatusOr<RunRow> MergeRunsAtomically(Store& store, const std::vector<int64_t>& runs) {
  absl::Status s = store.BeginWrite();
  if (!s.ok()) return s;
  absl::StatusOr<RunRow> merged = MergeRuns(store, runs);
  if (merged.ok()) s = store.Commit();
  if (merged.ok() && s.ok()) return merged;
  (void)store.Rollback();
  return merged.ok() ? s : merged.status();
}

absl::Status MergeFullLevels(Store& store, std::vector<RunRow>& runs) {
  while (true) {
    std::vector<int64_t> bytes;
    for (const RunRow& r : runs) bytes.push_back(r.bytes);
    const size_t from = LevelMergeStart(bytes);
    if (from == runs.size()) return absl::OkStatus();
    std::vector<int64_t> merging;
    for (size_t i = from; i < runs.size(); ++i) merging.push_back(runs[i].run);
    absl::StatusOr<RunRow> merged = MergeRunsAtomically(store, merging);
    if (!merged.ok()) return merged.status();
    runs.resize(from);
    runs.push_back(*merged);
  }
}

absl::Status MergeStoreLevels(Store& store) {
  absl::StatusOr<std::vector<RunRow>> runs = store.Runs();
  if (!runs.ok()) return runs.status();
  return MergeFullLevels(store, *runs);
}

absl::Status CompactIndex(Store& store) {
  absl::StatusOr<std::vector<RunRow>> runs = store.Runs();
  if (!runs.ok()) return runs.status();
  const size_t n = runs->size();
  if (n <= static_cast<size_t>(kMaxRuns)) return absl::OkStatus();
  // The `width` neighbouring runs smallest together, merged into one: n
  // runs become kMaxRuns, each posting of the window rewritten once.
  const size_t width = n - static_cast<size_t>(kMaxRuns) + 1;
  size_t best = 0;
  int64_t best_bytes = INT64_MAX, bytes = 0;
  for (size_t i = 0; i < n; ++i) {
    bytes += (*runs)[i].bytes;
    if (i >= width) bytes -= (*runs)[i - width].bytes;
    if (i + 1 >= width && bytes < best_bytes) {
      best_bytes = bytes;
      best = i + 1 - width;
    }
  }
  std::vector<int64_t> window;
  for (size_t i = best; i < best + width; ++i) window.push_back((*runs)[i].run);
  return MergeRunsAtomically(store, window).status();
}

}  // namespace scribe::games
