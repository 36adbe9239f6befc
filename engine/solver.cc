#include "engine/solver.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cassert>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/evaluator.h"
#include "engine/position.h"

namespace scribe {
namespace {

// Values are shared between the sweeping threads; each is read and written
// whole (relaxed atomics: asynchronous value iteration converges to the same
// fixed point whatever the interleaving).
inline float Load(const float* values, uint64_t rank) {
  return std::atomic_ref<float>(*const_cast<float*>(values + rank)).load(std::memory_order_relaxed);
}
inline void Store(float* values, uint64_t rank, float v) {
  std::atomic_ref<float>(values[rank]).store(v, std::memory_order_relaxed);
}

// Values being solved, as an evaluator: the general move code
// (engine/evaluator.h) then gives Bellman's right-hand side for any rules.
class SolvingValues : public Evaluator {
 public:
  SolvingValues(const Rules& rules, const StateIndex& index, const float* values)
      : rules_(rules), index_(index), values_(values) {}
  double Value(const Position& pos) const override {
    return IsOver(rules_, pos) ? FinishedValue(rules_, pos) : Load(values_, index_.Rank(pos));
  }
  bool exact() const override { return false; }
  std::string name() const override { return "solving"; }
  const Rules& rules() const override { return rules_; }

 private:
  const Rules& rules_;
  const StateIndex& index_;
  const float* values_;
};

// Bellman's right-hand side for `pos`, with the general move code.
double Backup(const Rules& rules, const StateIndex& index, const float* values, const Position& pos) {
  return ExpectedValueOverThrows(SolvingValues(rules, index, values), pos);
}

// A position of a layer pair: both sides' occupied path indices (the
// layer is known from where it lies in the order).
struct PairEntry {
  uint32_t mover_occ;
  uint32_t opp_occ;
};
constexpr size_t kBlock = 512;

int IndexSum(uint32_t occ) {
  int sum = 0;
  for (; occ; occ &= occ - 1) sum += std::countr_zero(occ);
  return sum;
}

// A level: the positions of one sum of both sides' path indices, those of
// the pair's first layer in [begin, split), of its second in [split, end).
struct Level {
  size_t begin, split, end;
};

// The positions of a pair in order. Paths of at most 16 squares (every
// preset the index ranks) keep both occupancies in 4 bytes (path indices
// 1..16 shifted down by one, 16 bits a side); longer ones take 8.
struct PairOrder {
  std::vector<uint32_t> packed;
  std::vector<PairEntry> wide;
  std::vector<Level> levels;  // the non-empty ones, highest sum first

  static bool Packs(const Rules& rules) { return rules.off <= 17; }
  size_t size() const { return packed.size() + wide.size(); }
  PairEntry operator[](size_t i) const {
    if (wide.empty()) return PairEntry{(packed[i] & 0xffffu) << 1, (packed[i] >> 16) << 1};
    return wide[i];
  }
  void Put(size_t i, uint32_t mover_occ, uint32_t opp_occ) {
    if (wide.empty()) {
      assert(((mover_occ | opp_occ) & ~0x1fffeu) == 0);  // (indices 1..16)
      packed[i] = (mover_occ >> 1) | ((opp_occ >> 1) << 16);
    } else {
      wide[i] = PairEntry{mover_occ, opp_occ};
    }
  }
};

// The positions of `layers` (one or two), by the sum of both sides' path
// indices, highest first, and by layer within a sum (a counting sort). Tens
// of millions of positions for the large rulesets: `stop` is polled every
// 64 Ki of them, and once it says stop the rest are skipped and nothing is
// returned.
PairOrder AdvancedFirst(const Rules& rules, const StateIndex& index, const std::vector<std::pair<int, int>>& layers,
                        const StopCheck& stop) {
  bool stopped = false;
  uint64_t seen = 0;
  const auto go_on = [&] {
    if (!stopped && (++seen & 0xffff) == 0 && StopRequested(stop)) stopped = true;
    return !stopped;
  };
  const int max_key = 2 * rules.pieces * rules.off;
  const int buckets = 2 * (max_key + 1);
  std::vector<uint64_t> start(buckets + 1, 0);
  const auto bucket = [&](int layer, uint32_t mover_occ, uint32_t opp_occ) {
    const int key =
        IndexSum(mover_occ) + IndexSum(opp_occ) + (layers[layer].first + layers[layer].second) * rules.off;
    return 2 * (max_key - key) + layer;
  };
  for (int l = 0; l < static_cast<int>(layers.size()); ++l) {
    index.ForEachInLayer(layers[l].first, layers[l].second, [&](uint64_t, uint32_t m, uint32_t o) {
      if (go_on()) ++start[bucket(l, m, o) + 1];
    });
  }
  if (stopped) return {};
  for (int k = 1; k <= buckets; ++k) start[k] += start[k - 1];
  PairOrder order;
  for (int k = 0; k < buckets; k += 2) {
    if (start[k + 2] > start[k]) order.levels.push_back(Level{start[k], start[k + 1], start[k + 2]});
  }
  if (PairOrder::Packs(rules)) {
    order.packed.resize(start[buckets]);
  } else {
    order.wide.resize(start[buckets]);
  }
  for (int l = 0; l < static_cast<int>(layers.size()); ++l) {
    index.ForEachInLayer(layers[l].first, layers[l].second, [&](uint64_t, uint32_t m, uint32_t o) {
      if (go_on()) order.Put(start[bucket(l, m, o)]++, m, o);
    });
  }
  if (stopped) return {};
  return order;
}

// A backup for rules without stacking or auto-placement, on occupancy bits
// alone (no Position), in two steps so that memory reads overlap: Prepare
// ranks every successor and prefetches its value (and the position's own),
// Finish reads them. The sweep prepares a few positions ahead of the one it
// finishes, so the reads of several positions are in flight at once.
struct PreparedBackup {
  static constexpr int kMaxSucc = 8 * kIndexSlots;  // (at most 16 outcomes) x (at most 16 moves)
  uint64_t rank;       // the position's own
  uint64_t pass_rank;  // the position with the turn passed
  uint64_t succ_rank[kMaxSucc];
  uint8_t succ_flip[kMaxSucc];
  int outcome_end[kMaxRoll + 2];
  bool wins[kMaxRoll + 2];
  bool by_policy;  // no successors ranked: the position's kept policy is backed up
};

// `mover` and `opp` are the side to move's and the other side's occupied
// path indices.
inline void Prepare(const Rules& rules, const StateIndex& index, const float* values, uint32_t mover,
                    int mover_off, uint32_t opp, int opp_off, PreparedBackup* b) {
  uint64_t* const succ_rank = b->succ_rank;
  uint8_t* const succ_flip = b->succ_flip;
  int n = 0;
  const int pieces = rules.pieces;
  const int waiting = pieces - mover_off - std::popcount(mover);
  const uint32_t opp_here = rules.opp_is_identity ? (opp & rules.opp_identity[kLight])
                                                  : MapOccupancy(rules.opp_to_mine[kLight], opp);
  const uint32_t blocked = mover | (rules.safe_shared ? 0u : (opp_here & rules.safe_mask));
  const uint32_t allowed = (rules.board_mask | (1u << rules.off)) & ~blocked;
  using Parts = StateIndex::Parts;
  const Parts mover_as_mover = index.MoverParts(mover), mover_as_opp = index.OpponentParts(mover);
  const Parts opp_as_mover = index.MoverParts(opp), opp_as_opp = index.OpponentParts(opp);
  b->rank = index.RankParts(mover_as_mover, mover_off, opp_as_opp, opp_off);
  __builtin_prefetch(values + b->rank);
  // The successors by a move that passes the turn and captures nothing
  // (most of them) share the opponent, now to move, and both counts off.
  const StateIndex::FixedMover next(index, opp_as_mover, opp_off, mover_off);
  const int outcomes = static_cast<int>(rules.outcomes.size());
  for (int k = 0; k < outcomes; ++k) {
    b->wins[k] = false;
    const int roll = rules.outcomes[k].roll;
    if (roll > 0) {
      uint32_t sources = mover;
      if (waiting > 0 && ((rules.entry_roll_mask >> roll) & 1u)) sources |= 1u;
      uint32_t dest = static_cast<uint32_t>(static_cast<uint64_t>(sources) << roll) & allowed;
      while (dest) {
        const int d = std::countr_zero(dest);
        dest &= dest - 1;
        const int from = d - roll;
        if (d == rules.off) {
          if (mover_off + 1 == pieces) {
            b->wins[k] = true;
            continue;
          }
          succ_rank[n] = index.RankParts(opp_as_mover, opp_off, mover_as_opp ^ index.OpponentBits(from),
                                         mover_off + 1);
          succ_flip[n++] = 1;
          continue;
        }
        Parts opp_m = opp_as_mover, opp_o = opp_as_opp;
        bool captured = false;
        if (const uint32_t hit = opp & rules.capture_overlap[kLight][d]) {
          const int j = std::countr_zero(hit);
          opp_m = opp_m ^ index.MoverBits(j);
          opp_o = opp_o ^ index.OpponentBits(j);
          captured = true;
        }
        if (rules.GivesExtraRoll(d) || (captured && rules.capture_extra_roll)) {
          succ_rank[n] = index.RankParts(mover_as_mover ^ index.MoverBits(from) ^ index.MoverBits(d), mover_off,
                                         opp_o, opp_off);
          succ_flip[n++] = 0;
        } else if (!captured) {
          succ_rank[n] = next.Rank(mover_as_opp ^ index.OpponentBits(from) ^ index.OpponentBits(d));
          succ_flip[n++] = 1;
        } else {
          succ_rank[n] = index.RankParts(opp_m, opp_off, mover_as_opp ^ index.OpponentBits(from) ^ index.OpponentBits(d),
                                         mover_off);
          succ_flip[n++] = 1;
        }
      }
    }
    b->outcome_end[k] = n;
  }
  b->pass_rank = next.Rank(mover_as_opp);
  __builtin_prefetch(values + b->pass_rank);
  for (int i = 0; i < n; ++i) __builtin_prefetch(values + succ_rank[i]);
}

// A position's policy, as kept between sweeps: for each throw, the
// successor the last full backup found best (its rank, and kFlip when the
// turn passes with it), or kWin. A policy sweep backs up only these
// (modified policy iteration): no move generation, no successor to rank.
constexpr uint32_t kFlip = uint32_t{1} << 31;
constexpr uint32_t kWin = ~uint32_t{0};

// With `policy` not null, the position's policy is written there
// (a word a throw; the first of equal moves is the one kept), and in
// `margin` by how much, over all throws, the kept move's value beats the
// next best one's (infinity when no throw has a choice).
inline double Finish(const Rules& rules, const float* values, const PreparedBackup& b, uint32_t* policy,
                     double* margin) {
  const double pass = 1.0 - Load(values, b.pass_rank);
  double sum = 0;
  double least = std::numeric_limits<double>::infinity();
  int i = 0;
  const int outcomes = static_cast<int>(rules.outcomes.size());
  for (int k = 0; k < outcomes; ++k) {
    double best;
    uint32_t chosen;
    if (b.wins[k]) {
      best = 1.0;
      chosen = kWin;
      i = b.outcome_end[k];
    } else if (i == b.outcome_end[k]) {
      best = pass;
      chosen = static_cast<uint32_t>(b.pass_rank) | kFlip;
    } else {
      best = -1;
      double second = -1;
      chosen = 0;
      for (; i < b.outcome_end[k]; ++i) {
        const double v = Load(values, b.succ_rank[i]);
        const double w = b.succ_flip[i] ? 1.0 - v : v;
        if (w > best) {
          second = best;
          best = w;
          chosen = static_cast<uint32_t>(b.succ_rank[i]) | (b.succ_flip[i] ? kFlip : 0);
        } else {
          second = std::max(second, w);
        }
      }
      if (second >= 0) least = std::min(least, best - second);
    }
    if (policy != nullptr) policy[k] = chosen;
    sum += rules.outcomes[k].weight * best;
  }
  if (margin != nullptr) *margin = least;
  return sum / static_cast<double>(1u << rules.dice_count);
}

inline void PrefetchPolicy(const float* values, const uint32_t* policy, int outcomes) {
  for (int k = 0; k < outcomes; ++k) {
    if (policy[k] != kWin) __builtin_prefetch(values + (policy[k] & ~kFlip));
  }
}

// The backup of a policy sweep: the policy's value, not the best one.
inline double PolicyBackup(const Rules& rules, const float* values, const uint32_t* policy) {
  double sum = 0;
  const int outcomes = static_cast<int>(rules.outcomes.size());
  for (int k = 0; k < outcomes; ++k) {
    const uint32_t code = policy[k];
    double w = 1.0;
    if (code != kWin) {
      const double v = Load(values, code & ~kFlip);
      w = (code & kFlip) ? 1.0 - v : v;
    }
    sum += rules.outcomes[k].weight * w;
  }
  return sum / static_cast<double>(1u << rules.dice_count);
}

// The values are read at random (every successor of every position), so
// with 4 KiB pages nearly every read of a large table also misses the TLB;
// 2 MiB pages cut those misses 512-fold. Linux gives them to a range that
// asks (transparent huge pages in "madvise" mode, Debian's default); the
// range is not touched yet, so its pages are made huge as they are first
// written. Elsewhere, or when refused, nothing changes but speed.
void AskForHugePages(void* data, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

// Where a position of layers (mover_off, opp_off) starts: the mean of two
// positions of solved pairs, one with the mover's least advanced piece
// (a waiting one if any) borne off instead, one with the opponent's. The
// first overrates the mover by about what the second underrates it; a
// side whose last piece is taken off that way has won (1 or 0). Starting
// here, not at 50%, takes about a quarter fewer backups (docs/analysis.md).
double EstimatedStart(const StateIndex& index, const float* values, uint32_t mover_occ, int mover_off,
                      uint32_t opp_occ, int opp_off) {
  const int n = index.pieces();
  const auto one_fewer = [&](uint32_t occ, int off) {
    const bool waiting = n - off - std::popcount(occ) > 0;
    return waiting ? occ : (occ & (occ - 1));
  };
  const double mover_ahead =
      mover_off + 1 == n ? 1.0
                         : Load(values, index.Rank(one_fewer(mover_occ, mover_off), mover_off + 1, opp_occ, opp_off));
  const double opp_ahead =
      opp_off + 1 == n ? 0.0
                       : Load(values, index.Rank(mover_occ, mover_off, one_fewer(opp_occ, opp_off), opp_off + 1));
  return (mover_ahead + opp_ahead) / 2;
}

// Policy sweeps need the fast backup (no auto-placement), and ranks that
// leave kFlip free.
bool UsesPolicySweeps(const Rules& rules, uint64_t positions, const SolveOptions& options) {
  return rules.auto_place_mask == 0 && options.policy_sweeps > 0 && positions < kFlip;
}

// A kept policy: one successor a throw, and a float (until when the policy
// is known to be the best one).
uint64_t PolicyBytesPerPosition(const Rules& rules) {
  return rules.outcomes.size() * sizeof(uint32_t) + sizeof(float);
}

}  // namespace

SolveMemory SolveMemoryNeeded(const Rules& rules, uint64_t positions, uint64_t largest_pair,
                              const SolveOptions& options) {
  SolveMemory m;
  m.values = positions * sizeof(float);
  m.pair_order = largest_pair * (PairOrder::Packs(rules) ? sizeof(uint32_t) : sizeof(PairEntry));
  m.pair_changes = largest_pair * sizeof(float);
  if (UsesPolicySweeps(rules, positions, options)) {
    const uint64_t per = PolicyBytesPerPosition(rules);
    m.policies = std::min(largest_pair, options.policy_bytes / per) * per;
  }
  return m;
}

SolveMemory SolveMemoryNeeded(const Rules& rules, const StateIndex& index, const SolveOptions& options) {
  uint64_t largest_pair = 0;
  for (int a = 0; a < index.pieces(); ++a) {
    for (int b = a; b < index.pieces(); ++b) {
      largest_pair = std::max(largest_pair, index.LayerSize(a, b) + (a == b ? 0 : index.LayerSize(b, a)));
    }
  }
  return SolveMemoryNeeded(rules, index.size(), largest_pair, options);
}

double BellmanValue(const Rules& rules, const StateIndex& index, const float* values, uint64_t rank) {
  return Backup(rules, index, values, index.Unrank(rank));
}

absl::StatusOr<Solution> Solve(const Rules& rules, const StateIndex& index, const SolveOptions& options) {
  const SolveMemory memory = SolveMemoryNeeded(rules, index, options);
  if (memory.total() > options.max_bytes) {
    constexpr double kGiB = 1073741824.0;
    return absl::ResourceExhaustedError(absl::StrFormat(
        "solving needs %.1f GiB at its peak (%.1f GiB for %d positions' values, %.1f GiB for the largest layer "
        "pair), more than the %.1f GiB allowed",
        memory.total() / kGiB, memory.values / kGiB, index.size(), (memory.total() - memory.values) / kGiB,
        options.max_bytes / kGiB));
  }
  const int n = index.pieces();
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  Solution solution;
  // Hundreds of megabytes for the large rulesets: filled a slice at a time,
  // polling the stop check between slices.
  solution.values.reserve(index.size());
  AskForHugePages(solution.values.data(), index.size() * sizeof(float));
  while (solution.values.size() < index.size()) {
    if (StopRequested(options.stop)) return Stopped();
    const size_t slice = std::min<size_t>(index.size() - solution.values.size(), size_t{1} << 22);
    solution.values.insert(solution.values.end(), slice, 0.5f);
  }
  float* values = solution.values.data();
  const int threads = std::max(1, options.threads);
  uint64_t done = 0;
  // Auto-placement needs the general move code.
  const bool fast = rules.auto_place_mask == 0;
  const int outcomes = static_cast<int>(rules.outcomes.size());
  // A kept policy: one successor a throw, so a policy sweep generates no
  // moves and ranks only the position itself.
  const size_t stride = outcomes;
  const uint64_t policy_limit =
      UsesPolicySweeps(rules, index.size(), options) ? options.policy_bytes / PolicyBytesPerPosition(rules) : 0;

  // Layer pairs {(a, b), (b, a)}, most pieces off first.
  for (int total = 2 * (n - 1); total >= 0; --total) {
    if (StopRequested(options.stop)) return Stopped();
    for (int a = std::max(0, total - (n - 1)); a <= total / 2; ++a) {
      const int b = total - a;
      std::vector<std::pair<int, int>> layers = {{a, b}};
      if (a != b) layers.push_back({b, a});
      uint64_t pair_size = 0;
      for (const auto& [mo, oo] : layers) pair_size += index.LayerSize(mo, oo);

      // The pair's positions, most advanced first: the sum of both sides'
      // path indices (borne-off pieces count L+1) grows with every move
      // that captures nothing, so one in-place sweep in this order sees
      // this sweep's value for every such move's result.
      const PairOrder order = AdvancedFirst(rules, index, layers, options.stop);
      if (order.size() != pair_size) return Stopped();  // (only a stop leaves it short)

      // Sweeps go level by level (one level: one sum of path indices): a
      // level's positions depend on each other only through passes, so the
      // threads share each level and meet at a barrier before the next.
      // Every successor but a pass's is final for the sweep when it is
      // read; a pass's may be read before or after the other thread
      // updates it, so two-thread runs agree within the tolerance, not bit
      // for bit. Small pairs take one thread.
      const int pool_size = order.size() < 64 * kBlock ? 1 : threads;
      // The layer (mover off, opponent off) of the level's position i.
      const auto layer_of = [&](const Level& level, size_t i) { return layers[i < level.split ? 0 : 1]; };
      // Thread t's share of a level.
      const auto share = [&](const Level& level, int t) {
        const size_t size = level.end - level.begin;
        return std::pair{level.begin + size * t / pool_size, level.begin + size * (t + 1) / pool_size};
      };

      // Each position's change in the last sweep, and the estimate of the
      // slowest error mode's ratio per sweep (Aitken extrapolation).
      std::vector<float> change(order.size(), 0.0f);
      // Modified policy iteration: a full sweep backs up every move and
      // keeps each position's best ones (its policy); the policy sweeps
      // after it back up only those, at a fraction of the cost. Only a full
      // sweep ends a pair, so the result is the same fixed point. The first
      // `kept` positions of the order keep a policy (a memory limit); the
      // rest have full backups in every sweep.
      //
      // A full sweep need not back up every move of every kept position:
      // no value has moved by more than `moved` (the sum of the sweeps'
      // largest changes and extrapolation jumps) since the pair began. When
      // a full backup finds the best move of every throw ahead of the next
      // by a margin, the policy stays the best until the values have moved
      // by half that margin: `settled` holds `moved` plus that half, and
      // until `moved` reaches it a full sweep backs up the policy instead,
      // the same value at a policy sweep's cost.
      const size_t kept = std::min<uint64_t>(order.size(), policy_limit);
      std::vector<uint32_t> policy(kept * stride);
      std::vector<float> settled(kept, 0.0f);
      double moved = 0, last_residual = 1;
      bool full_sweep = true;
      int policy_sweeps_in_a_row = 0, policy_sweeps_done = 0;
      struct PerThread {
        double delta = 0, cp = 0, pp = 0;
        // The least `settled` of the positions a full sweep backed up by
        // their policy.
        double least_settled = std::numeric_limits<double>::infinity();
        uint64_t backups = 0, full_backups = 0;  // (not reset: the pair's totals)
        char pad[64];
      };
      std::vector<PerThread> per_thread(pool_size);
      int sweeps = 0;
      double residual = 0, last_ratio = 0, extrapolate = 0;
      int since_extrapolation = 0;
      bool finished = false;
      absl::Status failure;
      // Set by the first thread that finds the stop check saying stop: the
      // others skip the rest of the sweep, and it ends the solve.
      std::atomic<bool> stopped{false};
      const auto should_stop = [&](size_t done_here) {
        if (done_here % 4096 != 0) return stopped.load(std::memory_order_relaxed);
        if (!stopped.load(std::memory_order_relaxed) && StopRequested(options.stop)) stopped.store(true);
        return stopped.load(std::memory_order_relaxed);
      };

      // Run once per sweep by the last thread to arrive.
      const auto end_of_sweep = [&]() noexcept {
        if (stopped.load(std::memory_order_relaxed)) {
          failure = Stopped();
          finished = true;
          return;
        }
        ++sweeps;
        ++since_extrapolation;
        residual = 0;
        double cp = 0, pp = 0, least_settled = std::numeric_limits<double>::infinity();
        for (PerThread& t : per_thread) {
          residual = std::max(residual, t.delta);
          cp += t.cp;
          pp += t.pp;
          least_settled = std::min(least_settled, t.least_settled);
          t.delta = t.cp = t.pp = 0;
          t.least_settled = std::numeric_limits<double>::infinity();
        }
        const double ratio = pp > 0 ? cp / pp : 0;
        extrapolate = 0;
        const bool was_full = full_sweep;
        // (Each stored value also rounds to float.)
        moved += residual + 1e-7;
        // A full sweep is a true Bellman sweep when every policy it backed
        // up instead of every move stayed the best through the sweep's own
        // changes, which are known only now; only such a sweep ends a pair.
        const bool exact = was_full && moved < least_settled;
        last_residual = residual;
        policy_sweeps_in_a_row = was_full ? 0 : policy_sweeps_in_a_row + 1;
        if (!was_full) ++policy_sweeps_done;
        full_sweep = kept == 0 || residual < options.tolerance || policy_sweeps_in_a_row >= options.policy_sweeps;
        if (residual < options.tolerance && exact) {
          finished = true;
        } else if (residual < options.tolerance) {
          // Converged for the policy: the full sweep next says whether it
          // is still the best.
        } else if (sweeps >= options.max_sweeps) {
          failure = absl::InternalError(absl::StrFormat(
              "layers (%d, %d) did not converge in %d sweeps (last change %g)", a, b, sweeps, residual));
          finished = true;
        } else if (since_extrapolation >= 3 && std::fabs(ratio) < 0.97 &&
                   std::fabs(ratio - last_ratio) < 0.02 * std::fabs(ratio)) {
          // The error has settled into its slowest mode, shrinking by
          // `ratio` a sweep: jump to where that would end.
          extrapolate = ratio / (1 - ratio);
          moved += std::fabs(extrapolate) * residual + 1e-7;
          since_extrapolation = 0;
        }
        last_ratio = ratio;
      };
      std::barrier level_done(pool_size);
      std::barrier sweep_done(pool_size, end_of_sweep);

      const auto work = [&](int t) {
        Position pos;
        // The positions prepared ahead of the one finished (fast rules).
        constexpr size_t kAhead = 8;
        std::vector<PreparedBackup> ring(fast ? kAhead : 0);
        if (options.estimated_start) {
          // (Reads only solved pairs: no order between the threads' shares.)
          for (const Level& level : order.levels) {
            const auto [lo, hi] = share(level, t);
            for (size_t i = lo; i < hi; ++i) {
              if (should_stop(i - lo)) break;
              const PairEntry e = order[i];
              const auto [mo, oo] = layer_of(level, i);
              Store(values, index.Rank(e.mover_occ, mo, e.opp_occ, oo),
                    static_cast<float>(EstimatedStart(index, values, e.mover_occ, mo, e.opp_occ, oo)));
            }
          }
          if (pool_size > 1) level_done.arrive_and_wait();
        }
        while (true) {
          PerThread& mine = per_thread[t];
          double delta = 0, cp = 0, pp = 0, least_settled = std::numeric_limits<double>::infinity();
          uint64_t backups = 0, full_backups = 0;
          const auto update = [&](size_t i, uint64_t rank, double v) {
            const double d = v - Load(values, rank);
            delta = std::max(delta, std::fabs(d));
            cp += d * change[i];
            pp += static_cast<double>(change[i]) * change[i];
            change[i] = static_cast<float>(d);
            Store(values, rank, static_cast<float>(v));
          };
          // A full sweep keeps the policy of the positions that keep one.
          const bool policy_sweep = kept > 0 && !full_sweep;
          for (const Level& level : order.levels) {
            const auto [lo, hi] = share(level, t);
            if (fast) {
              // Position i is prepared kAhead steps before it is finished,
              // in the slot position i - kAhead has just left.
              for (size_t i = lo; i < hi + kAhead; ++i) {
                PreparedBackup& slot = ring[i % kAhead];
                if (i >= lo + kAhead) {
                  const size_t f = i - kAhead;
                  double v;
                  if (slot.by_policy) {
                    v = PolicyBackup(rules, values, &policy[f * stride]);
                  } else if (f < kept) {
                    double margin;
                    v = Finish(rules, values, slot, &policy[f * stride], &margin);
                    // (Rounded down: the float must not promise more.)
                    const double until = moved + margin / 2;
                    float rounded = static_cast<float>(until);
                    if (rounded > until) rounded = std::nextafter(rounded, -std::numeric_limits<float>::infinity());
                    settled[f] = rounded;
                  } else {
                    v = Finish(rules, values, slot, nullptr, nullptr);
                  }
                  update(f, slot.rank, v);
                  ++backups;
                  if (!slot.by_policy) ++full_backups;
                }
                if (i < hi) {
                  if (should_stop(i - lo)) break;
                  const PairEntry e = order[i];
                  const auto [mo, oo] = layer_of(level, i);
                  // A full sweep takes the policy of a position whose policy
                  // should stay the best through this sweep, if its changes
                  // are no more than twice the last sweep's (checked at its
                  // end).
                  slot.by_policy = i < kept && (policy_sweep || moved + 2 * last_residual < settled[i]);
                  if (slot.by_policy && !policy_sweep) least_settled = std::min<double>(least_settled, settled[i]);
                  if (slot.by_policy) {
                    slot.rank = index.Rank(e.mover_occ, mo, e.opp_occ, oo);
                    __builtin_prefetch(values + slot.rank);
                    PrefetchPolicy(values, &policy[i * stride], outcomes);
                  } else {
                    Prepare(rules, index, values, e.mover_occ, mo, e.opp_occ, oo, &slot);
                  }
                }
              }
            } else {
              for (size_t i = lo; i < hi; ++i) {
                if (should_stop(i - lo)) break;
                const PairEntry e = order[i];
                const auto [mo, oo] = layer_of(level, i);
                index.FillPosition(e.mover_occ, mo, e.opp_occ, oo, &pos);
                update(i, index.Rank(pos), Backup(rules, index, values, pos));
                ++backups;
                ++full_backups;
              }
            }
            if (pool_size > 1) level_done.arrive_and_wait();
          }
          mine.delta = delta;
          mine.cp = cp;
          mine.pp = pp;
          mine.least_settled = least_settled;
          mine.backups += backups;
          mine.full_backups += full_backups;
          sweep_done.arrive_and_wait();
          if (finished) return;
          if (extrapolate != 0) {
            for (const Level& level : order.levels) {
              const auto [lo, hi] = share(level, t);
              for (size_t i = lo; i < hi; ++i) {
                const PairEntry e = order[i];
                const auto [mo, oo] = layer_of(level, i);
                const uint64_t rank = index.Rank(e.mover_occ, mo, e.opp_occ, oo);
                const double v = std::clamp(Load(values, rank) + extrapolate * change[i], 0.0, 1.0);
                Store(values, rank, static_cast<float>(v));
              }
            }
            level_done.arrive_and_wait();
          }
        }
      };
      if (pool_size == 1) {
        work(0);
      } else {
        std::vector<std::thread> pool;
        for (int t = 0; t < pool_size; ++t) pool.emplace_back(work, t);
        for (auto& th : pool) th.join();
      }
      if (!failure.ok()) return failure;

      done += pair_size;
      solution.sweeps += sweeps;
      solution.policy_sweeps += policy_sweeps_done;
      for (const PerThread& t : per_thread) {
        solution.backups += t.backups;
        solution.full_backups += t.full_backups;
      }
      solution.max_layer_sweeps = std::max(solution.max_layer_sweeps, sweeps);
      solution.residual = std::max(solution.residual, residual);
      if (options.progress) {
        SolveProgress p;
        p.mover_off = a;
        p.opponent_off = b;
        p.sweeps = sweeps;
        p.residual = residual;
        p.positions_done = done;
        p.positions_total = index.size();
        p.seconds = elapsed();
        options.progress(p);
      }
    }
  }
  solution.seconds = elapsed();
  return solution;
}

}  // namespace scribe
