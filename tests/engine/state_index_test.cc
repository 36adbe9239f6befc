// The position index (engine/state_index.h): rank and unrank inverse for
// every position, the solver's shortcuts against the plain rank, and every
// position reachable from the start (tests/common/exact_test_evaluator.h)
// with a rank of its own.
#include <bit>
#include <map>
#include <string>
#include <utility>

#include "engine/position.h"
#include "engine/state_index.h"
#include "gtest/gtest.h"
#include "tests/common/exact_test_evaluator.h"
#include "tests/common/test_rules.h"
#include "tests/engine/solved.h"

namespace scribe {
namespace {

std::string Key(const Position& p) {
  return std::string(reinterpret_cast<const char*>(&p.occ), sizeof(p.occ)) +
         std::string(reinterpret_cast<const char*>(&p.count), sizeof(p.count)) + static_cast<char>(p.to_move);
}

TEST(StateIndexTest, FinkelHasRoyalUrsPositionCount) {
  auto rules = MustLoad("finkel");
  auto index = StateIndex::Create(*rules);
  ASSERT_TRUE(index.ok()) << index.status();
  // RoyalUr's solver: about 138 million light-to-move positions.
  EXPECT_EQ((*index)->size(), 137870097u);
  EXPECT_EQ((*index)->shared_squares(), 8);
  EXPECT_EQ((*index)->private_squares(), 6);
}

TEST(StateIndexTest, RankInvertsUnrankForEveryPosition) {
  for (const char* ref : {"finkel(pieces=2)", "masters(pieces=2)", "blitz(pieces=2)", "sawah-tablet(pieces=2)",
                          "finkel(pieces=3)"}) {
    auto rules = MustLoad(ref);
    auto index = StateIndex::Create(*rules);
    ASSERT_TRUE(index.ok()) << ref;
    for (uint64_t r = 0; r < (*index)->size(); ++r) {
      const Position p = (*index)->Unrank(r);
      ASSERT_EQ(CheckPosition(*rules, p), "") << ref << " rank " << r;
      ASSERT_EQ((*index)->Rank(p), r) << ref;
      // The colour-swapped position has the same rank.
      ASSERT_EQ((*index)->Rank(Mirror(p)), r) << ref;
    }
  }
}

// The solver's shortcut for successors that keep the mover's parts: the
// same rank as RankParts for every position with the opponent's pieces
// moved one step of any length.
TEST(StateIndexTest, FixedMoverRanksAsRankParts) {
  for (const char* ref : {"finkel(pieces=3)", "masters(pieces=3)", "sawah-tablet(pieces=2)"}) {
    auto rules = MustLoad(ref);
    auto index = StateIndex::Create(*rules);
    ASSERT_TRUE(index.ok()) << ref;
    const StateIndex& x = **index;
    const int off = rules->off;
    uint64_t checked = 0;
    for (uint64_t r = 0; r < x.size(); r += 7) {
      const Position p = x.Unrank(r);
      const uint32_t m = p.occ[kLight], o = p.occ[kDark];
      const int m_off = p.count[kLight][off], o_off = p.count[kDark][off];
      // The successors' mover is the opponent; the mover becomes the opponent.
      const StateIndex::FixedMover fixed(x, x.MoverParts(o), o_off, m_off);
      const StateIndex::Parts base = x.OpponentParts(m);
      ASSERT_EQ(fixed.Rank(base), x.RankParts(x.MoverParts(o), o_off, base, m_off)) << ref << " " << r;
      const int waiting = rules->pieces - m_off - std::popcount(m);
      for (int from = waiting > 0 ? 0 : 1; from <= rules->path_length; ++from) {
        if (from > 0 && !((m >> from) & 1u)) continue;
        for (int to = from + 1; to <= rules->path_length; ++to) {
          if ((m >> to) & 1u) continue;
          if (rules->opp_overlap[kLight][to] & o) continue;  // a capture: not this shortcut's
          const uint32_t moved = (m & ~(1u << from)) | (1u << to);
          const StateIndex::Parts parts = base ^ x.OpponentBits(from) ^ x.OpponentBits(to);
          ASSERT_EQ(parts.shared, x.OpponentParts(moved).shared);
          ASSERT_EQ(fixed.Rank(parts), x.Rank(o, o_off, moved, m_off)) << ref << " " << r;
          ++checked;
        }
      }
    }
    EXPECT_GT(checked, 1000u) << ref;
  }
}

// The compression of the opponent's shared slots into the mover's free
// ones, against a plain parallel bit extract, for every pair of disjoint
// masks of 12 slots; every preset the index ranks takes the table for it.
TEST(StateIndexTest, CompressSharedIsAParallelBitExtract) {
  for (uint32_t ms = 0; ms < 4096; ++ms) {
    for (uint32_t os = 0; os < 4096; ++os) {
      if (ms & os) continue;
      uint32_t expected = 0;
      int out = 0;
      for (int i = 0; i < 12; ++i) {
        if ((ms >> i) & 1u) continue;  // a slot the mover holds: not in the compressed form
        if ((os >> i) & 1u) expected |= 1u << out;
        ++out;
      }
      ASSERT_EQ(StateIndex::CompressShared(ms, os), expected) << ms << " " << os;
    }
  }
  for (const char* ref : {"finkel", "masters", "blitz", "sawah-tablet", "finkel-blank4"}) {
    auto rules = MustLoad(ref);
    auto index = StateIndex::Create(*rules);
    ASSERT_TRUE(index.ok()) << ref;
    EXPECT_LE((*index)->shared_squares(), StateIndex::kTableSharedBits) << ref;
    EXPECT_TRUE((*index)->has_opp_colex_table()) << ref;
  }
}

TEST(StateIndexTest, LayersEnumerateInRankOrder) {
  auto rules = MustLoad("masters(pieces=3)");
  auto index = StateIndex::Create(*rules);
  ASSERT_TRUE(index.ok());
  uint64_t expected = 0;
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      ASSERT_EQ((*index)->LayerBegin(a, b), expected);
      (*index)->ForEachInLayer(a, b, [&](uint64_t rank, uint32_t mover, uint32_t opp) {
        ASSERT_EQ(rank, expected);
        ASSERT_EQ((*index)->Rank(mover, a, opp, b), rank);
        ++expected;
      });
    }
  }
  EXPECT_EQ(expected, (*index)->size());
}

TEST(StateIndexTest, EveryReachablePositionHasItsOwnRank) {
  auto rules = MustLoad("masters(pieces=2)");
  auto index = StateIndex::Create(*rules);
  ASSERT_TRUE(index.ok());
  ExactTestEvaluator bf(rules);
  std::map<std::pair<uint64_t, int>, std::string> seen;
  for (const Position& p : bf.positions()) {
    if (IsOver(*rules, p)) continue;
    const uint64_t r = (*index)->Rank(p);
    ASSERT_LT(r, (*index)->size());
    // Two positions share a rank only as mirror images (other side to move).
    const Position canonical = p.to_move == kLight ? p : Mirror(p);
    auto [it, fresh] = seen.emplace(std::make_pair(r, 0), Key(canonical));
    if (!fresh) {
      ASSERT_EQ(it->second, Key(canonical));
    }
  }
}

TEST(StateIndexTest, RefusesRulesItCannotRank) {
  for (const char* ref : {"turnover", "murray", "skiriuk"}) {
    auto index = StateIndex::Create(*MustLoad(ref));
    ASSERT_FALSE(index.ok()) << ref;
    EXPECT_EQ(index.status().code(), absl::StatusCode::kFailedPrecondition) << ref;
  }
  auto stacking = StateIndex::Create(*MustLoad("turnover"));
  EXPECT_NE(stacking.status().message().find("stack"), absl::string_view::npos);
}

}  // namespace
}  // namespace scribe
