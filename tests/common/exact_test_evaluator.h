// An exact evaluator for tests, independent of the solver, its position
// index and its tables (engine/solver.h, analysis/table.h) and of the search
// (engine/search.h): every position reachable from the start (either side
// first), found with the engine's move generator and kept with both colours
// in a hash map (no ranking, no mirror trick), solved by plain in-place
// value iteration in double until no value moves by more than 1e-14. Meant
// for tiny rulesets (finkel(pieces=2): about 26,000 positions).
#ifndef SCRIBE_TESTS_COMMON_EXACT_TEST_EVALUATOR_H_
#define SCRIBE_TESTS_COMMON_EXACT_TEST_EVALUATOR_H_

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "gtest/gtest.h"

namespace scribe {

struct PositionHash {
  size_t operator()(const Position& p) const {
    uint64_t words[sizeof(p.count) / 8];
    std::memcpy(words, p.count, sizeof words);
    uint64_t h = p.to_move;
    for (uint64_t w : words) h = (h ^ w) * 0x9e3779b97f4a7c15ULL + (h >> 29);
    return static_cast<size_t>(h);
  }
};

class ExactTestEvaluator : public Evaluator {
 public:
  explicit ExactTestEvaluator(std::shared_ptr<const Rules> rules) : rules_(std::move(rules)) { Solve(); }

  // The value of a reachable position (a test failure for any other).
  double Value(const Position& pos) const override {
    if (IsOver(*rules_, pos)) return FinishedValue(*rules_, pos);
    auto it = index_.find(pos);
    EXPECT_NE(it, index_.end()) << "a position the test evaluator never reached";
    return it == index_.end() ? 0.5 : values_[it->second];
  }
  bool exact() const override { return true; }
  std::string name() const override { return "test exact " + rules_->ruleset.id(); }
  const Rules& rules() const override { return *rules_; }

  bool Reachable(const Position& pos) const { return index_.count(pos) > 0; }
  const std::vector<Position>& positions() const { return positions_; }
  // The value of positions()[i].
  double value(size_t i) const { return values_[i]; }
  int sweeps() const { return sweeps_; }

 private:
  // One choice: the position it leads to (-1: the move wins) and whether
  // the mover throws again there.
  struct Edge {
    int next;
    bool same_side;
  };

  int Intern(const Position& pos) {
    auto [it, fresh] = index_.emplace(pos, static_cast<int>(positions_.size()));
    if (fresh) positions_.push_back(pos);
    return it->second;
  }

  void Solve() {
    const Rules& rules = *rules_;
    Intern(StartPosition(rules, kLight));
    Intern(StartPosition(rules, kDark));
    std::vector<std::vector<std::vector<Edge>>> choices;  // [position][outcome]
    MoveList moves;
    for (size_t p = 0; p < positions_.size(); ++p) {
      const Position pos = positions_[p];
      std::vector<std::vector<Edge>> per_outcome;
      if (!IsOver(rules, pos)) {
        for (const RollOutcome& o : rules.outcomes) {
          std::vector<Edge> options;
          LegalMoves(rules, pos, o.roll, &moves);
          if (moves.empty()) {
            Position next = pos;
            PassTurn(&next);
            options.push_back({Intern(next), false});
          }
          for (const Move& m : moves) {
            Position next = pos;
            const MoveResult r = ApplyMove(rules, &next, m);
            options.push_back(r.won ? Edge{-1, true} : Edge{Intern(next), r.extra_roll});
          }
          per_outcome.push_back(std::move(options));
        }
      }
      choices.push_back(std::move(per_outcome));
    }
    values_.assign(positions_.size(), 0.5);
    for (size_t p = 0; p < positions_.size(); ++p) {
      if (IsOver(rules, positions_[p])) values_[p] = FinishedValue(rules, positions_[p]);
    }
    const double total = static_cast<double>(1u << rules.dice_count);
    for (sweeps_ = 1; sweeps_ < 100000; ++sweeps_) {
      double change = 0;
      for (size_t p = 0; p < positions_.size(); ++p) {
        if (choices[p].empty()) continue;
        double v = 0;
        for (size_t k = 0; k < rules.outcomes.size(); ++k) {
          double best = 0;
          for (const Edge& e : choices[p][k]) {
            best = std::max(best, e.next < 0 ? 1.0 : e.same_side ? values_[e.next] : 1.0 - values_[e.next]);
          }
          v += rules.outcomes[k].weight / total * best;
        }
        change = std::max(change, std::fabs(v - values_[p]));
        values_[p] = v;
      }
      if (change < 1e-14) break;
    }
  }

  std::shared_ptr<const Rules> rules_;
  std::unordered_map<Position, int, PositionHash> index_;
  std::vector<Position> positions_;
  std::vector<double> values_;
  int sweeps_ = 0;
};

}  // namespace scribe

#endif  // SCRIBE_TESTS_COMMON_EXACT_TEST_EVALUATOR_H_
