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
#include "engine/status_macros.h"

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

namespace {

// ---------------------------------------------------------------------------
// The solve, step by step, as docs/analysis.md ("How it is solved") tells it:
//
//   Solve                        refuse what does not fit (CheckMemory)
//     SolveRun::Run              every layer pair, most pieces off first
//       FillValues               every position at 50% to begin with
//       SolvePair                one pair {(a, b), (b, a)}:
//         AdvancedFirst            its positions, most advanced first, by level
//         PairSolve::Run           its threads, each running Work:
//           StartFromEstimates       the start of the pair (estimated start)
//           Sweep                    one Gauss-Seidel sweep, level by level,
//                                      each position backed up in full or by
//                                      its kept policy (FinishFast, PrepareFast,
//                                      BackUpGeneral)
//           EndOfSweep               (the last thread to arrive) the sweep's
//                                      residual and ratio; done or not;
//                                      ChooseNextSweep (the policy step);
//                                      PlanExtrapolation
//           Extrapolate              Aitken's jump, when planned
//         AddPair                  the pair's counts into the solution
// ---------------------------------------------------------------------------

// What stays the same through a solve, for every layer pair.
struct SolveSetup {
  SolveSetup(const Rules& rules, const StateIndex& index, const SolveOptions& options)
      : rules(rules),
        index(index),
        options(options),
        threads(std::max(1, options.threads)),
        fast(rules.auto_place_mask == 0),
        outcomes(static_cast<int>(rules.outcomes.size())),
        stride(outcomes),
        policy_limit(UsesPolicySweeps(rules, index.size(), options)
                         ? options.policy_bytes / PolicyBytesPerPosition(rules)
                         : 0) {}

  const Rules& rules;
  const StateIndex& index;
  const SolveOptions& options;
  const int threads;
  // Rules without auto-placement back up on occupancy bits (PreparedBackup);
  // auto-placement needs the general move code (Backup).
  const bool fast;
  const int outcomes;
  // A kept policy: one successor a throw, so a policy sweep generates no
  // moves and ranks only the position itself.
  const size_t stride;
  // How many positions of a pair keep a policy (0: no policy sweeps).
  const uint64_t policy_limit;
};

// One layer pair being solved: its positions in order, the state its
// sweeping threads share, and the steps of its solve. Every thread runs
// Work; the last thread to finish a sweep runs EndOfSweep, the only step
// that writes the sweep control below, while the others wait at the
// barrier.
class PairSolve {
 public:
  PairSolve(const SolveSetup& setup, float* values, std::vector<std::pair<int, int>> layers, PairOrder order);
  PairSolve(const PairSolve&) = delete;
  PairSolve& operator=(const PairSolve&) = delete;

  // Solves the pair in place in `values`: OK, CANCELLED (the stop check
  // said stop) or INTERNAL (no convergence in max_sweeps).
  absl::Status Run();

  uint64_t size() const { return order_.size(); }
  int sweeps() const { return sweeps_; }
  int policy_sweeps() const { return policy_sweeps_done_; }
  double residual() const { return residual_; }
  uint64_t backups() const;
  uint64_t full_backups() const;

 private:
  // The positions prepared ahead of the one finished (fast rules).
  static constexpr size_t kAhead = 8;

  // What one thread adds up over one sweep.
  struct SweepTally {
    double delta = 0;  // the largest change
    double cp = 0;     // sum of change times the last sweep's change
    double pp = 0;     // sum of the last sweep's change squared
    // The least `settled` of the positions a full sweep backed up by their
    // policy.
    double least_settled = std::numeric_limits<double>::infinity();
    uint64_t backups = 0, full_backups = 0;
  };
  // A thread's tally as the end of the sweep reads it (padded: one cache
  // line a thread).
  struct ThreadTally {
    double delta = 0, cp = 0, pp = 0;
    double least_settled = std::numeric_limits<double>::infinity();
    uint64_t backups = 0, full_backups = 0;  // (not reset: the pair's totals)
    char pad[64];
  };
  // What a sweeping thread keeps from one sweep to the next.
  struct Worker {
    int t;
    Position pos;                      // (general rules)
    std::vector<PreparedBackup> ring;  // (fast rules)
  };
  struct CallEndOfSweep {
    PairSolve* pair;
    void operator()() noexcept { pair->EndOfSweep(); }
  };

  // The steps.
  void Work(int t);
  void StartFromEstimates(int t);
  void Sweep(Worker& w);
  void SweepFast(const Level& level, size_t lo, size_t hi, bool policy_sweep, Worker& w, SweepTally& tally);
  void PrepareFast(const Level& level, size_t i, bool policy_sweep, PreparedBackup& slot, SweepTally& tally);
  void FinishFast(size_t f, const PreparedBackup& slot, SweepTally& tally);
  void BackUpGeneral(const Level& level, size_t lo, size_t hi, Worker& w, SweepTally& tally);
  void EndOfSweep() noexcept;
  SweepTally CollectTallies();
  void ChooseNextSweep(bool was_full);
  void PlanExtrapolation(double ratio);
  void Extrapolate(int t);

  // Helpers.
  // The layer (mover off, opponent off) of the level's position i.
  std::pair<int, int> LayerOf(const Level& level, size_t i) const { return layers_[i < level.split ? 0 : 1]; }
  // Thread t's share of a level.
  std::pair<size_t, size_t> Share(const Level& level, int t) const {
    const size_t size = level.end - level.begin;
    return std::pair{level.begin + size * t / pool_size_, level.begin + size * (t + 1) / pool_size_};
  }
  uint64_t RankOf(const Level& level, size_t i) const {
    const PairEntry e = order_[i];
    const auto [mo, oo] = LayerOf(level, i);
    return setup_.index.Rank(e.mover_occ, mo, e.opp_occ, oo);
  }
  // Position i's new value v, at rank.
  void Update(SweepTally& tally, size_t i, uint64_t rank, double v) {
    const double d = v - Load(values_, rank);
    tally.delta = std::max(tally.delta, std::fabs(d));
    tally.cp += d * change_[i];
    tally.pp += static_cast<double>(change_[i]) * change_[i];
    change_[i] = static_cast<float>(d);
    Store(values_, rank, static_cast<float>(v));
  }
  // Polled every position with how many of its share the thread has done;
  // asks the stop check every 4096.
  bool ShouldStop(size_t done_here) {
    if (done_here % 4096 != 0) return stopped_.load(std::memory_order_relaxed);
    if (!stopped_.load(std::memory_order_relaxed) && StopRequested(setup_.options.stop)) stopped_.store(true);
    return stopped_.load(std::memory_order_relaxed);
  }

  const SolveSetup& setup_;
  float* const values_;
  const std::vector<std::pair<int, int>> layers_;  // (a, b), and (b, a) unless a == b
  // The pair's positions, most advanced first (AdvancedFirst).
  const PairOrder order_;
  // Sweeps go level by level (one level: one sum of path indices): a
  // level's positions depend on each other only through passes, so the
  // threads share each level and meet at a barrier before the next.
  // Every successor but a pass's is final for the sweep when it is read;
  // a pass's may be read before or after the other thread updates it, so
  // two-thread runs agree within the tolerance, not bit for bit. Small
  // pairs take one thread.
  const int pool_size_;

  // By position of the order: its change in the last sweep (for the
  // extrapolation).
  std::vector<float> change_;
  // Modified policy iteration: a full sweep backs up every move and keeps
  // each position's best ones (its policy); the policy sweeps after it
  // back up only those, at a fraction of the cost. Only a full sweep ends
  // a pair, so the result is the same fixed point. The first `kept_`
  // positions of the order keep a policy (a memory limit); the rest have
  // full backups in every sweep.
  //
  // A full sweep need not back up every move of every kept position: no
  // value has moved by more than `moved_` (the sum of the sweeps' largest
  // changes and extrapolation jumps) since the pair began. When a full
  // backup finds the best move of every throw ahead of the next by a
  // margin, the policy stays the best until the values have moved by half
  // that margin: `settled_` holds `moved_` plus that half, and until
  // `moved_` reaches it a full sweep backs up the policy instead, the same
  // value at a policy sweep's cost.
  const size_t kept_;
  std::vector<uint32_t> policy_;  // stride words a kept position
  std::vector<float> settled_;    // a float a kept position
  std::vector<ThreadTally> per_thread_;

  // The sweep control: written by EndOfSweep only.
  int sweeps_ = 0;
  int policy_sweeps_in_a_row_ = 0, policy_sweeps_done_ = 0;
  bool full_sweep_ = true;  // the next sweep is a full one
  double moved_ = 0;
  double residual_ = 0, last_residual_ = 1;
  // Aitken extrapolation: the estimate of the slowest error mode's ratio
  // per sweep, and the jump planned for after this sweep (0: none).
  double last_ratio_ = 0, extrapolate_ = 0;
  int since_extrapolation_ = 0;
  bool finished_ = false;
  absl::Status failure_;

  // Set by the first thread that finds the stop check saying stop: the
  // others skip the rest of the sweep, and it ends the solve.
  std::atomic<bool> stopped_{false};
  std::barrier<> level_done_;
  std::barrier<CallEndOfSweep> sweep_done_;
};

PairSolve::PairSolve(const SolveSetup& setup, float* values, std::vector<std::pair<int, int>> layers,
                     PairOrder order)
    : setup_(setup),
      values_(values),
      layers_(std::move(layers)),
      order_(std::move(order)),
      pool_size_(order_.size() < 64 * kBlock ? 1 : setup.threads),
      change_(order_.size(), 0.0f),
      kept_(std::min<uint64_t>(order_.size(), setup.policy_limit)),
      policy_(kept_ * setup.stride),
      settled_(kept_, 0.0f),
      per_thread_(pool_size_),
      level_done_(pool_size_),
      sweep_done_(pool_size_, CallEndOfSweep{this}) {}

absl::Status PairSolve::Run() {
  if (pool_size_ == 1) {
    Work(0);
  } else {
    std::vector<std::thread> pool;
    for (int t = 0; t < pool_size_; ++t) pool.emplace_back(&PairSolve::Work, this, t);
    for (auto& th : pool) th.join();
  }
  return failure_;
}

// One sweeping thread, from the start of the pair to its end.
void PairSolve::Work(int t) {
  Worker w{t, Position{}, std::vector<PreparedBackup>(setup_.fast ? kAhead : 0)};
  if (setup_.options.estimated_start) StartFromEstimates(t);
  while (true) {
    Sweep(w);
    if (finished_) return;
    if (extrapolate_ != 0) Extrapolate(t);
  }
}

// The start of the pair: every position at its estimate from the solved
// pairs next to it (EstimatedStart), not at 50%. (Reads only solved
// pairs: no order between the threads' shares.)
void PairSolve::StartFromEstimates(int t) {
  const StateIndex& index = setup_.index;
  for (const Level& level : order_.levels) {
    const auto [lo, hi] = Share(level, t);
    for (size_t i = lo; i < hi; ++i) {
      if (ShouldStop(i - lo)) break;
      const PairEntry e = order_[i];
      const auto [mo, oo] = LayerOf(level, i);
      Store(values_, index.Rank(e.mover_occ, mo, e.opp_occ, oo),
            static_cast<float>(EstimatedStart(index, values_, e.mover_occ, mo, e.opp_occ, oo)));
    }
  }
  if (pool_size_ > 1) level_done_.arrive_and_wait();
}

// One sweep, thread t's share of every level, in place (Gauss-Seidel);
// its end (EndOfSweep) is run by the last thread to arrive.
void PairSolve::Sweep(Worker& w) {
  SweepTally tally;
  // A full sweep keeps the policy of the positions that keep one.
  const bool policy_sweep = kept_ > 0 && !full_sweep_;
  for (const Level& level : order_.levels) {
    const auto [lo, hi] = Share(level, w.t);
    if (setup_.fast) {
      SweepFast(level, lo, hi, policy_sweep, w, tally);
    } else {
      BackUpGeneral(level, lo, hi, w, tally);
    }
    if (pool_size_ > 1) level_done_.arrive_and_wait();
  }
  ThreadTally& mine = per_thread_[w.t];
  mine.delta = tally.delta;
  mine.cp = tally.cp;
  mine.pp = tally.pp;
  mine.least_settled = tally.least_settled;
  mine.backups += tally.backups;
  mine.full_backups += tally.full_backups;
  sweep_done_.arrive_and_wait();
}

// Positions lo..hi of a level, for rules without auto-placement: position
// i is prepared kAhead steps before it is finished, in the slot position
// i - kAhead has just left, so the memory reads of several positions are
// in flight at once.
void PairSolve::SweepFast(const Level& level, size_t lo, size_t hi, bool policy_sweep, Worker& w,
                          SweepTally& tally) {
  for (size_t i = lo; i < hi + kAhead; ++i) {
    PreparedBackup& slot = w.ring[i % kAhead];
    if (i >= lo + kAhead) FinishFast(i - kAhead, slot, tally);
    if (i < hi) {
      if (ShouldStop(i - lo)) break;
      PrepareFast(level, i, policy_sweep, slot, tally);
    }
  }
}

// Position i, prepared: backed up by its kept policy in a policy sweep, and
// in a full sweep when its policy should stay the best through this sweep,
// if its changes are no more than twice the last sweep's (checked at its
// end); otherwise every move of every throw (Prepare).
void PairSolve::PrepareFast(const Level& level, size_t i, bool policy_sweep, PreparedBackup& slot,
                            SweepTally& tally) {
  slot.by_policy = i < kept_ && (policy_sweep || moved_ + 2 * last_residual_ < settled_[i]);
  if (slot.by_policy && !policy_sweep) tally.least_settled = std::min<double>(tally.least_settled, settled_[i]);
  const PairEntry e = order_[i];
  const auto [mo, oo] = LayerOf(level, i);
  if (slot.by_policy) {
    slot.rank = setup_.index.Rank(e.mover_occ, mo, e.opp_occ, oo);
    __builtin_prefetch(values_ + slot.rank);
    PrefetchPolicy(values_, &policy_[i * setup_.stride], setup_.outcomes);
  } else {
    Prepare(setup_.rules, setup_.index, values_, e.mover_occ, mo, e.opp_occ, oo, &slot);
  }
}

// Position f's backup, finished from its prepared slot. A full backup of a
// kept position keeps its policy, and until when that stays the best:
// while `moved_` has grown by less than half its margin.
void PairSolve::FinishFast(size_t f, const PreparedBackup& slot, SweepTally& tally) {
  double v;
  if (slot.by_policy) {
    v = PolicyBackup(setup_.rules, values_, &policy_[f * setup_.stride]);
  } else if (f < kept_) {
    double margin;
    v = Finish(setup_.rules, values_, slot, &policy_[f * setup_.stride], &margin);
    // (Rounded down: the float must not promise more.)
    const double until = moved_ + margin / 2;
    float rounded = static_cast<float>(until);
    if (rounded > until) rounded = std::nextafter(rounded, -std::numeric_limits<float>::infinity());
    settled_[f] = rounded;
  } else {
    v = Finish(setup_.rules, values_, slot, nullptr, nullptr);
  }
  Update(tally, f, slot.rank, v);
  ++tally.backups;
  if (!slot.by_policy) ++tally.full_backups;
}

// Positions lo..hi of a level, for rules with auto-placement: every move
// of every throw, with the general move code.
void PairSolve::BackUpGeneral(const Level& level, size_t lo, size_t hi, Worker& w, SweepTally& tally) {
  const StateIndex& index = setup_.index;
  for (size_t i = lo; i < hi; ++i) {
    if (ShouldStop(i - lo)) break;
    const PairEntry e = order_[i];
    const auto [mo, oo] = LayerOf(level, i);
    index.FillPosition(e.mover_occ, mo, e.opp_occ, oo, &w.pos);
    Update(tally, i, index.Rank(w.pos), Backup(setup_.rules, index, values_, w.pos));
    ++tally.backups;
    ++tally.full_backups;
  }
}

// The end of a sweep, run once by the last thread to arrive: the sweep's
// largest change and error ratio; whether the pair is done; the next
// sweep's kind; and whether to extrapolate before it.
void PairSolve::EndOfSweep() noexcept {
  if (stopped_.load(std::memory_order_relaxed)) {
    failure_ = Stopped();
    finished_ = true;
    return;
  }
  ++sweeps_;
  ++since_extrapolation_;
  const SweepTally sweep = CollectTallies();
  residual_ = sweep.delta;
  const double ratio = sweep.pp > 0 ? sweep.cp / sweep.pp : 0;
  extrapolate_ = 0;
  const bool was_full = full_sweep_;
  // (Each stored value also rounds to float.)
  moved_ += residual_ + 1e-7;
  // A full sweep is a true Bellman sweep when every policy it backed up
  // instead of every move stayed the best through the sweep's own changes,
  // which are known only now; only such a sweep ends a pair.
  const bool exact = was_full && moved_ < sweep.least_settled;
  last_residual_ = residual_;
  ChooseNextSweep(was_full);
  const double tolerance = setup_.options.tolerance;
  if (residual_ < tolerance && exact) {
    finished_ = true;
  } else if (residual_ < tolerance) {
    // Converged for the policy: the full sweep next says whether it is
    // still the best.
  } else if (sweeps_ >= setup_.options.max_sweeps) {
    failure_ = absl::InternalError(absl::StrFormat("layers (%d, %d) did not converge in %d sweeps (last change %g)",
                                                   layers_[0].first, layers_[0].second, sweeps_, residual_));
    finished_ = true;
  } else {
    PlanExtrapolation(ratio);
  }
  last_ratio_ = ratio;
}

// The threads' tallies of the sweep, added up (the largest change, the
// sums, the least `settled`), and cleared for the next sweep.
PairSolve::SweepTally PairSolve::CollectTallies() {
  SweepTally sweep;
  for (ThreadTally& t : per_thread_) {
    sweep.delta = std::max(sweep.delta, t.delta);
    sweep.cp += t.cp;
    sweep.pp += t.pp;
    sweep.least_settled = std::min(sweep.least_settled, t.least_settled);
    t.delta = t.cp = t.pp = 0;
    t.least_settled = std::numeric_limits<double>::infinity();
  }
  return sweep;
}

// The policy step: after a full sweep come options.policy_sweeps policy
// sweeps, then a full one again; a sweep that converged is followed by a
// full one (only a full sweep ends a pair).
void PairSolve::ChooseNextSweep(bool was_full) {
  policy_sweeps_in_a_row_ = was_full ? 0 : policy_sweeps_in_a_row_ + 1;
  if (!was_full) ++policy_sweeps_done_;
  full_sweep_ = kept_ == 0 || residual_ < setup_.options.tolerance ||
                policy_sweeps_in_a_row_ >= setup_.options.policy_sweeps;
}

// Once the error has settled into its slowest mode, shrinking by a steady
// `ratio` a sweep, the values jump to where that would end (Extrapolate,
// after this sweep); the jump counts in `moved_`.
void PairSolve::PlanExtrapolation(double ratio) {
  if (since_extrapolation_ >= 3 && std::fabs(ratio) < 0.97 &&
      std::fabs(ratio - last_ratio_) < 0.02 * std::fabs(ratio)) {
    extrapolate_ = ratio / (1 - ratio);
    moved_ += std::fabs(extrapolate_) * residual_ + 1e-7;
    since_extrapolation_ = 0;
  }
}

// Aitken extrapolation, thread t's share: every value moves by its last
// change times extrapolate_ (within [0, 1]).
void PairSolve::Extrapolate(int t) {
  for (const Level& level : order_.levels) {
    const auto [lo, hi] = Share(level, t);
    for (size_t i = lo; i < hi; ++i) {
      const uint64_t rank = RankOf(level, i);
      const double v = std::clamp(Load(values_, rank) + extrapolate_ * change_[i], 0.0, 1.0);
      Store(values_, rank, static_cast<float>(v));
    }
  }
  level_done_.arrive_and_wait();
}

uint64_t PairSolve::backups() const {
  uint64_t sum = 0;
  for (const ThreadTally& t : per_thread_) sum += t.backups;
  return sum;
}

uint64_t PairSolve::full_backups() const {
  uint64_t sum = 0;
  for (const ThreadTally& t : per_thread_) sum += t.full_backups;
  return sum;
}

// A solve: the values of every position, solved layer pair by layer pair,
// and what the solve has counted so far.
class SolveRun {
 public:
  SolveRun(const Rules& rules, const StateIndex& index, const SolveOptions& options)
      : setup_(rules, index, options), start_(std::chrono::steady_clock::now()) {}
  absl::StatusOr<Solution> Run();

 private:
  absl::Status FillValues();
  absl::Status SolvePair(int a, int b);
  void AddPair(const PairSolve& pair, int a, int b);
  double Elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  const SolveSetup setup_;
  const std::chrono::steady_clock::time_point start_;
  Solution solution_;
  uint64_t done_ = 0;  // positions of the pairs solved
};

absl::StatusOr<Solution> SolveRun::Run() {
  SCRIBE_RETURN_IF_ERROR(FillValues());
  // Layer pairs {(a, b), (b, a)}, most pieces off first.
  const int n = setup_.index.pieces();
  for (int total = 2 * (n - 1); total >= 0; --total) {
    if (StopRequested(setup_.options.stop)) return Stopped();
    for (int a = std::max(0, total - (n - 1)); a <= total / 2; ++a) {
      SCRIBE_RETURN_IF_ERROR(SolvePair(a, total - a));
    }
  }
  solution_.seconds = Elapsed();
  return std::move(solution_);
}

// Every position at 50%. Hundreds of megabytes for the large rulesets:
// filled a slice at a time, polling the stop check between slices.
absl::Status SolveRun::FillValues() {
  const size_t size = setup_.index.size();
  std::vector<float>& values = solution_.values;
  values.reserve(size);
  AskForHugePages(values.data(), size * sizeof(float));
  while (values.size() < size) {
    if (StopRequested(setup_.options.stop)) return Stopped();
    const size_t slice = std::min<size_t>(size - values.size(), size_t{1} << 22);
    values.insert(values.end(), slice, 0.5f);
  }
  return absl::OkStatus();
}

// The layer pair {(a, b), (b, a)} (one layer when a == b).
absl::Status SolveRun::SolvePair(int a, int b) {
  std::vector<std::pair<int, int>> layers = {{a, b}};
  if (a != b) layers.push_back({b, a});
  uint64_t pair_size = 0;
  for (const auto& [mo, oo] : layers) pair_size += setup_.index.LayerSize(mo, oo);
  // The pair's positions, most advanced first: the sum of both sides' path
  // indices (borne-off pieces count L+1) grows with every move that
  // captures nothing, so one in-place sweep in this order sees this sweep's
  // value for every such move's result.
  PairOrder order = AdvancedFirst(setup_.rules, setup_.index, layers, setup_.options.stop);
  if (order.size() != pair_size) return Stopped();  // (only a stop leaves it short)
  PairSolve pair(setup_, solution_.values.data(), std::move(layers), std::move(order));
  SCRIBE_RETURN_IF_ERROR(pair.Run());
  AddPair(pair, a, b);
  return absl::OkStatus();
}

void SolveRun::AddPair(const PairSolve& pair, int a, int b) {
  done_ += pair.size();
  solution_.sweeps += pair.sweeps();
  solution_.policy_sweeps += pair.policy_sweeps();
  solution_.backups += pair.backups();
  solution_.full_backups += pair.full_backups();
  solution_.max_layer_sweeps = std::max(solution_.max_layer_sweeps, pair.sweeps());
  solution_.residual = std::max(solution_.residual, pair.residual());
  if (setup_.options.progress) {
    SolveProgress p;
    p.mover_off = a;
    p.opponent_off = b;
    p.sweeps = pair.sweeps();
    p.residual = pair.residual();
    p.positions_done = done_;
    p.positions_total = setup_.index.size();
    p.seconds = Elapsed();
    setup_.options.progress(p);
  }
}

// Refuses a solve whose peak memory is over options.max_bytes.
absl::Status CheckMemory(const Rules& rules, const StateIndex& index, const SolveOptions& options) {
  const SolveMemory memory = SolveMemoryNeeded(rules, index, options);
  if (memory.total() <= options.max_bytes) return absl::OkStatus();
  constexpr double kGiB = 1073741824.0;
  return absl::ResourceExhaustedError(absl::StrFormat(
      "solving needs %.1f GiB at its peak (%.1f GiB for %d positions' values, %.1f GiB for the largest layer "
      "pair), more than the %.1f GiB allowed",
      memory.total() / kGiB, memory.values / kGiB, index.size(), (memory.total() - memory.values) / kGiB,
      options.max_bytes / kGiB));
}

}  // namespace

absl::StatusOr<Solution> Solve(const Rules& rules, const StateIndex& index, const SolveOptions& options) {
  SCRIBE_RETURN_IF_ERROR(CheckMemory(rules, index, options));
  return SolveRun(rules, index, options).Run();
}

}  // namespace scribe
