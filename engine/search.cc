#include "engine/search.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "engine/evaluate.h"

namespace scribe {
namespace {

// Positions with at least this many throws still to search are kept in the
// call's table; shallower ones cost less to search again than to look up.
// In the presets at the usual depths transpositions are rare (in finkel at
// depth 4 the table saves about 2% of the leaves and a few percent of the
// time: bench/search_bench.cc); on small rulesets searched deep (the
// tests' 32 throws of finkel(pieces=1)) it is what makes the search finish.
constexpr int kMemoMinDepth = 2;

// The stop check is polled once in this many inner positions (a few
// hundred microseconds of work).
constexpr long long kStopPollNodes = 256;

// A position and the depth it was searched to, as 9 words: the counts of
// both sides (which fix the occupancy bits), then the side to move and the
// depth.
struct MemoKey {
  uint64_t w[9];
  friend bool operator==(const MemoKey& a, const MemoKey& b) {
    return std::memcmp(a.w, b.w, sizeof a.w) == 0;
  }
  template <typename H>
  friend H AbslHashValue(H h, const MemoKey& k) {
    return H::combine_contiguous(std::move(h), k.w, 9);
  }
};

MemoKey KeyOf(const Position& pos, int depth) {
  static_assert(sizeof(pos.count) == 8 * sizeof(uint64_t));
  MemoKey k;
  std::memcpy(k.w, pos.count, sizeof(pos.count));
  k.w[8] = static_cast<uint64_t>(pos.to_move) | (static_cast<uint64_t>(depth) << 8);
  return k;
}

thread_local SearchEvaluator::Stats last_stats;

}  // namespace

// One Value call: the search and its table.
class SearchEvaluator::Search {
 public:
  explicit Search(const SearchEvaluator& evaluator)
      : evaluator_(evaluator), rules_(*evaluator.rules_),
        total_(static_cast<double>(1u << rules_.dice_count)) {}

  // The value of `pos` for its side to move, `depth` throws deep, with the
  // move code of the rules' shape.
  double Value(const Position& pos, int depth) {
    return WithShape(rules_, [&](auto shape) { return ValueOf<decltype(shape)>(pos, depth); });
  }

  const Stats& stats() const { return stats_; }

 private:
  template <class Shape>
  double ValueOf(const Position& pos, int depth) {
    if (stopped_) return 0;
    if (IsOver(rules_, pos)) return FinishedValue(rules_, pos);
    if (depth == 0) {
      ++stats_.leaves;
      return evaluator_.LeafValue(pos);
    }
    if (depth < kMemoMinDepth) return Expand<Shape>(pos, depth);
    const MemoKey key = KeyOf(pos, depth);
    auto it = memo_.find(key);
    if (it != memo_.end()) {
      ++stats_.memo_hits;
      return it->second;
    }
    const double v = Expand<Shape>(pos, depth);
    memo_.emplace(key, v);
    return v;
  }

  template <class Shape>
  double Expand(const Position& pos, int depth) {
    if (++stats_.nodes % kStopPollNodes == 0 && StopRequested(evaluator_.stop_)) stopped_ = true;
    if (stopped_) return 0;
    double sum = 0;
    MoveList moves;
    for (const RollOutcome& o : rules_.outcomes) {
      LegalMoves<Shape>(rules_, pos, o.roll, &moves);
      double best;
      if (moves.empty()) {
        Position next = pos;
        PassTurn(&next);
        best = 1.0 - ValueOf<Shape>(next, depth - 1);
      } else {
        best = 0;
        for (const Move& m : moves) {
          Position next = pos;
          const MoveResult r = ApplyMove<Shape>(rules_, &next, m);
          double v;
          if (r.won) {
            v = 1.0;
          } else {
            const double after = ValueOf<Shape>(next, depth - 1);
            v = r.extra_roll ? after : 1.0 - after;
          }
          best = std::max(best, v);
          if (best >= 1.0) break;  // nothing beats a sure win
        }
      }
      sum += o.weight * best;
    }
    return sum / total_;
  }

  const SearchEvaluator& evaluator_;
  const Rules& rules_;
  const double total_;
  absl::flat_hash_map<MemoKey, double> memo_;
  Stats stats_;
  bool stopped_ = false;
};

SearchEvaluator::SearchEvaluator(std::shared_ptr<const Rules> rules, int depth, LeafParameters leaf, StopCheck stop)
    : rules_(std::move(rules)), depth_(std::max(depth, 0)), leaf_(leaf), stop_(std::move(stop)) {
  mean_ = MeanThrow(*rules_);
  const double total = static_cast<double>(1u << rules_->dice_count);
  double var = 0;
  for (const RollOutcome& o : rules_->outcomes) var += o.weight / total * (o.roll - mean_) * (o.roll - mean_);
  sd_ = std::sqrt(var);
  if (mean_ <= 0) mean_ = 1;  // dice that only give 0 are not playable anyway
  int contested = 0;
  for (int s = 0; s < 2; ++s) {
    home_[s] = HomeStretchStart(*rules_, static_cast<Side>(s));
    for (int i = 1; i <= rules_->path_length; ++i) {
      if (rules_->capture_overlap[s][i] != 0) {
        ++contested;
        contested_[s] |= 1u << i;
      }
    }
  }
  const double throws_contested = contested / 2.0 / mean_;               // K / mean
  const double reach = (home_[kLight] + home_[kDark]) / 2.0 / mean_;  // H / mean
  contact_ = throws_contested * reach * reach / rules_->pieces;
}

std::string SearchEvaluator::name() const {
  return absl::StrCat("search depth ", depth_, " + race estimate (an estimate)");
}

LeafFeatures SearchEvaluator::Features(const Position& pos) const {
  const Rules& rules = *rules_;
  const Side me = pos.to_move, opp = Other(me);
  LeafFeatures f;
  int pips[2] = {0, 0}, behind[2] = {0, 0}, risk[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    for (int i = 0; i <= rules.path_length; ++i) {
      pips[s] += pos.count[s][i] * (rules.off - i);
      if (i < home_[s]) behind[s] += pos.count[s][i];
      if ((contested_[s] >> i) & 1u) risk[s] += pos.count[s][i] * i;
    }
  }
  if (behind[opp] == 0) risk[me] = 0;
  if (behind[me] == 0) risk[opp] = 0;
  f.risk_mine = risk[me];
  f.risk_theirs = risk[opp];
  f.mine = pips[me];
  f.theirs = pips[opp];
  f.behind_mine = behind[me];
  f.behind_theirs = behind[opp];
  f.threat_mine = Threat(pos, me);
  f.threat_theirs = Threat(pos, opp);
  return f;
}

double SearchEvaluator::Threat(const Position& pos, Side me) const {
  const Rules& rules = *rules_;
  const Side opp = Other(me);
  if (pos.occ[opp] == 0) return 0;
  // The opponent's pieces as squares in my index space, where a capture can
  // happen (not safe).
  const uint32_t targets = (rules.opp_is_identity ? (pos.occ[opp] & rules.opp_identity[me])
                                                   : MapOccupancy(rules.opp_to_mine[me], pos.occ[opp])) &
                           ~rules.safe_mask & rules.board_mask;
  if (targets == 0) return 0;
  int sum = 0;
  for (const RollOutcome& o : rules.outcomes) {
    if (o.roll <= 0) continue;
    uint32_t sources = pos.occ[me];
    if (pos.count[me][0] > 0 && ((rules.entry_roll_mask >> o.roll) & 1u)) sources |= 1u;
    uint32_t hits = static_cast<uint32_t>(static_cast<uint64_t>(sources) << o.roll) & targets;
    int best = 0;
    while (hits) {
      const int t = std::countr_zero(hits);
      hits &= hits - 1;
      uint32_t victims = pos.occ[opp] & rules.opp_overlap[me][t];
      int pips = 0;
      while (victims) {
        const int j = std::countr_zero(victims);
        victims &= victims - 1;
        pips += j * pos.count[opp][j];
      }
      best = std::max(best, pips);
    }
    sum += o.weight * best;
  }
  return sum / static_cast<double>(1u << rules.dice_count);
}

double SearchEvaluator::LeafFromFeatures(const LeafFeatures& f, const LeafParameters& leaf) const {
  const double lead = f.theirs - f.mine + leaf.tempo * mean_ + leaf.threat * (f.threat_mine - f.threat_theirs) -
                      leaf.risk * (f.risk_mine - f.risk_theirs);
  const double race = sd_ * sd_ * (f.mine + f.theirs) / mean_;
  const double contact = contact_ * std::min(f.behind_mine, f.behind_theirs);
  // The floor only matters for dice that always give the same throw.
  const double spread = std::max(leaf.scale * std::sqrt(race * (1 + leaf.contact * contact)), 1e-9);
  return 1.0 / (1.0 + std::exp(-lead / spread));
}

double SearchEvaluator::LeafValue(const Position& pos) const {
  if (IsOver(*rules_, pos)) return FinishedValue(*rules_, pos);
  return LeafFromFeatures(Features(pos), leaf_);
}

double SearchEvaluator::Value(const Position& pos) const {
  Search search(*this);
  const double v = search.Value(pos, depth_);
  last_stats = search.stats();
  return v;
}

SearchEvaluator::Stats SearchEvaluator::LastStats() { return last_stats; }

}  // namespace scribe
