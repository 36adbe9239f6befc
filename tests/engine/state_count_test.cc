// The position count of every ruleset (engine/state_count.h) against two
// judges: the index's own size where the index ranks the rules, and, for
// the rules it cannot rank (paths that revisit squares, stacking, phases),
// a brute force over every placement of the pieces, each kept when the
// engine's own CheckPosition accepts it; and every position reachable
// from the start with the engine's moves is among those counted.
#include <functional>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/ruleset.h"
#include "engine/state_count.h"
#include "engine/state_index.h"
#include "gtest/gtest.h"
#include "tests/common/test_rules.h"

namespace scribe {
namespace {

uint64_t Count(const Rules& rules) {
  auto count = CountPositions(rules);
  EXPECT_TRUE(count.ok()) << count.status();
  return count.ok() ? count->positions : 0;
}

// The same as the solver sees it: the side to move is light.
std::string Key(const Position& p) {
  Position m = p;
  if (p.to_move == kDark) {
    std::swap(m.occ[0], m.occ[1]);
    for (int i = 0; i < kIndexSlots; ++i) std::swap(m.count[0][i], m.count[1][i]);
    m.to_move = kLight;
  }
  return std::string(reinterpret_cast<const char*>(&m.count), sizeof(m.count));
}

// Every way to spread `pieces` over path indices 0..L+1.
void Placements(int pieces, int off, std::vector<int>* counts, int from, std::vector<std::vector<int>>* out) {
  if (from == off) {
    (*counts)[off] = pieces;
    out->push_back(*counts);
    (*counts)[off] = 0;
    return;
  }
  for (int k = 0; k <= pieces; ++k) {
    (*counts)[from] = k;
    Placements(pieces - k, off, counts, from + 1, out);
  }
  (*counts)[from] = 0;
}

uint64_t BruteForce(const Rules& rules) {
  std::vector<std::vector<int>> sides;
  std::vector<int> counts(rules.off + 1, 0);
  Placements(rules.pieces, rules.off, &counts, 0, &sides);
  uint64_t n = 0;
  for (const auto& light : sides) {
    for (const auto& dark : sides) {
      Position p;
      p.to_move = kLight;
      for (int i = 0; i <= rules.off; ++i) {
        p.count[kLight][i] = static_cast<uint8_t>(light[i]);
        p.count[kDark][i] = static_cast<uint8_t>(dark[i]);
        if (i >= 1 && i <= rules.path_length) {
          if (light[i] > 0) p.occ[kLight] |= 1u << i;
          if (dark[i] > 0) p.occ[kDark] |= 1u << i;
        }
      }
      if (IsOver(rules, p) || !CheckPosition(rules, p).empty()) continue;
      ++n;
    }
  }
  return n;
}

// Every position not over reachable from either side starting, by the
// engine's moves and passes.
std::set<std::string> Reachable(const Rules& rules) {
  std::set<std::string> seen;
  std::vector<Position> todo = {StartPosition(rules, kLight), StartPosition(rules, kDark)};
  while (!todo.empty()) {
    const Position p = todo.back();
    todo.pop_back();
    if (IsOver(rules, p) || !seen.insert(Key(p)).second) continue;
    for (const RollOutcome& o : rules.outcomes) {
      MoveList moves;
      LegalMoves(rules, p, o.roll, &moves);
      if (moves.empty()) {
        Position q = p;
        PassTurn(&q);
        todo.push_back(q);
      }
      for (const Move& m : moves) {
        Position q = p;
        ApplyMove(rules, &q, m);
        todo.push_back(q);
      }
    }
  }
  return seen;
}

TEST(StateCountTest, EqualsTheIndexWhereTheIndexRanksTheRules) {
  for (const char* ref : {"finkel", "masters", "blitz", "sawah", "sawah-tablet", "sawah-marks", "finkel-blank4",
                          "finkel(pieces=3)", "masters(pieces=2)",
                          "finkel(pieces=5, capture_extra_roll=true)"}) {
    auto rules = MustLoad(ref);
    auto index = StateIndex::Create(*rules);
    ASSERT_TRUE(index.ok()) << ref << ": " << index.status();
    auto count = CountPositions(*rules);
    ASSERT_TRUE(count.ok()) << count.status();
    EXPECT_EQ(count->positions, (*index)->size()) << ref;
    for (int a = 0; a < rules->pieces; ++a) {
      for (int b = 0; b < rules->pieces; ++b) {
        EXPECT_EQ(count->layers[a * rules->pieces + b], (*index)->LayerSize(a, b)) << ref << " layer " << a << b;
      }
    }
  }
}

TEST(StateCountTest, TheFullPresetsTheIndexCannotRank) {
  // docs/analysis.md quotes these.
  EXPECT_EQ(Count(*MustLoad("finkel")), 137870097u);
  EXPECT_EQ(Count(*MustLoad("masters")), 500929993u);
  EXPECT_EQ(Count(*MustLoad("skiriuk")), 10474772403u);
  EXPECT_EQ(Count(*MustLoad("murray")), 107965167229u);
  EXPECT_EQ(Count(*MustLoad("turnover")), 602840473137u);
}

TEST(StateCountTest, EqualsABruteForceOfEveryPlacement) {
  for (const char* ref : {"skiriuk(pieces=1)", "skiriuk(pieces=2)", "murray(pieces=1)", "murray(pieces=2)",
                          "turnover(pieces=1)", "turnover(pieces=2)", "finkel(pieces=2)",
                          "finkel(pieces=2, safe_shared=true)", "masters(pieces=3)"}) {
    auto rules = MustLoad(ref);
    EXPECT_EQ(Count(*rules), BruteForce(*rules)) << ref;
  }
}

TEST(StateCountTest, EveryReachablePositionIsCounted) {
  for (const char* ref : {"skiriuk(pieces=2)", "murray(pieces=2)", "turnover(pieces=2)", "finkel(pieces=2)"}) {
    auto rules = MustLoad(ref);
    const std::set<std::string> reachable = Reachable(*rules);
    const uint64_t counted = Count(*rules);
    EXPECT_LE(reachable.size(), counted) << ref;
    // Without stacking every placement is reached; turnover's placement on
    // a rosette leaves some placements unreachable.
    if (!rules->stacking) {
      EXPECT_EQ(reachable.size(), counted) << ref;
    }
    std::cout << ref << ": " << reachable.size() << " reachable of " << counted << " counted\n";
  }
}

}  // namespace
}  // namespace scribe
