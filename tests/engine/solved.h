// Solving small rulesets in tests (engine/solver.h): the rules, their
// index and the solution together, and a position's colour-swapped twin.
// Used by the solver's and the index's tests here and by the table tests
// (tests/analysis/table_test.cc).
#ifndef SCRIBE_TESTS_ENGINE_SOLVED_H_
#define SCRIBE_TESTS_ENGINE_SOLVED_H_

#include <memory>
#include <string>
#include <utility>

#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/solver.h"
#include "engine/state_index.h"
#include "gtest/gtest.h"
#include "tests/common/test_rules.h"

namespace scribe {

struct Solved {
  std::shared_ptr<const Rules> rules;
  std::unique_ptr<StateIndex> index;
  Solution solution;
  double Value(const Position& p) const {
    return IsOver(*rules, p) ? FinishedValue(*rules, p) : solution.values[index->Rank(p)];
  }
};

inline Solved SolveOrDie(const std::string& ref, int threads = 2, SolveOptions options = {}) {
  Solved s;
  s.rules = MustLoad(ref);
  auto index = StateIndex::Create(*s.rules);
  EXPECT_TRUE(index.ok()) << index.status();
  s.index = std::move(*index);
  options.threads = threads;
  auto solution = Solve(*s.rules, *s.index, options);
  EXPECT_TRUE(solution.ok()) << solution.status();
  s.solution = std::move(*solution);
  return s;
}

// The same position with the other side to move and the pieces swapped.
inline Position Mirror(const Position& p) {
  Position m = p;
  std::swap(m.occ[0], m.occ[1]);
  for (int i = 0; i < kIndexSlots; ++i) std::swap(m.count[0][i], m.count[1][i]);
  m.to_move = Other(p.to_move);
  return m;
}

}  // namespace scribe

#endif  // SCRIBE_TESTS_ENGINE_SOLVED_H_
