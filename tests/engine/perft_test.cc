// Perft: regression counts for every preset, from the start and from a few
// midgame positions, and a cross-check against a naive move generator that
// knows only the tile names of each side's path.
//
// The pinned counts were computed once with the engine; a change in any of
// them means the engine now plays a different game (or counts differently)
// and must be explained. The naive perft below is the independent witness
// for the presets without stacking.
#include "engine/perft.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/rules.h"
#include "engine/ruleset.h"
#include "engine/types.h"
#include "gtest/gtest.h"

namespace scribe {
namespace {

const Rules& Load(const std::string& reference) {
  auto loaded = LoadRuleset(reference);
  EXPECT_TRUE(loaded.ok()) << reference << ": " << loaded.status();
  // The cache keeps the rules alive; keep our own reference too.
  static std::vector<std::shared_ptr<const Rules>>* keep =
      new std::vector<std::shared_ptr<const Rules>>;
  keep->push_back(*loaded);
  return **loaded;
}

// A position given as each side's piece indices (0 waiting, 1..L on the
// board, L+1 borne off).
struct PieceList {
  std::vector<int> light;
  std::vector<int> dark;
  Side to_move;
};

Position MakePosition(const Rules& rules, const PieceList& p) {
  Position pos;
  for (Side s : {kLight, kDark}) {
    for (int i : s == kLight ? p.light : p.dark) {
      ++pos.count[s][i];
      if (i >= 1 && i <= rules.path_length) pos.occ[s] |= 1u << i;
    }
  }
  pos.to_move = p.to_move;
  return pos;
}

// ---------------------------------------------------------------------------
// Pinned counts.

struct StartCase {
  const char* preset;
  std::vector<uint64_t> counts;  // counts[d - 1]: perft at depth d
};

// Depths 1..7 from the start, light to move.
const std::vector<StartCase>& StartCases() {
  static const auto* cases = new std::vector<StartCase>{
      {"finkel", {5, 28, 192, 1492, 12469, 112552, 1064116}},
      {"finkel-blank4", {4, 19, 116, 842, 6534, 54683, 480583}},
      {"masters", {4, 19, 116, 846, 6556, 54979, 485196}},
      {"blitz", {5, 28, 192, 1496, 12588, 114900, 1098562}},
      {"sawah", {5, 28, 192, 1496, 12496, 113020, 1069951}},
      {"sawah-tablet", {5, 28, 192, 1496, 12496, 113020, 1069951}},
      {"sawah-marks", {5, 28, 192, 1496, 12496, 113047, 1071592}},
      {"turnover", {4, 16, 92, 529, 3998, 30121, 267476}},
      {"murray", {5, 28, 192, 1496, 12499, 113072, 1071020}},
      {"skiriuk", {5, 28, 192, 1496, 12499, 113072, 1071016}},
  };
  return *cases;
}

struct MidCase {
  const char* preset;
  PieceList pieces;
  std::vector<uint64_t> counts;  // depths 1..5
};

// Midgame positions, taken from random games (plus two made by hand for
// blocking on a tile visited twice): pieces near the end of the path and
// pieces on shared tiles, so that bearing off, captures and blocking happen
// within the first throws. Depths 1..5.
const std::vector<MidCase>& MidCases() {
  static const auto* cases = new std::vector<MidCase>{
      {"finkel",
       {{0, 0, 2, 3, 6, 13, 15}, {0, 0, 0, 1, 5, 9, 15}, kDark},
       {14, 196, 2704, 37908, 527642}},
      {"finkel",
       {{0, 2, 7, 13, 14, 15, 15}, {0, 0, 1, 4, 5, 12, 15}, kLight},
       {14, 203, 2707, 37346, 496663}},
      {"finkel-blank4",
       {{0, 0, 0, 2, 11, 15, 15}, {2, 3, 6, 9, 13, 14, 15}, kLight},
       {11, 137, 1575, 18687, 219390}},
      {"finkel-blank4",
       {{8, 9, 12, 15, 15, 15, 15}, {0, 2, 5, 14, 15, 15, 15}, kDark},
       {10, 83, 799, 7060, 64936}},
      {"masters",
       {{2, 4, 8, 13, 14, 15, 17}, {0, 0, 0, 1, 3, 5, 17}, kLight},
       {16, 184, 2396, 30767, 395313}},
      {"masters",
       {{3, 6, 10, 17, 17, 17, 17}, {5, 7, 14, 16, 17, 17, 17}, kLight},
       {10, 107, 1127, 11742, 121820}},
      {"blitz", {{0, 0, 5, 14, 17}, {16, 17, 17, 17, 17}, kLight}, {12, 81, 687, 5097, 41130}},
      {"blitz", {{14, 17, 17, 17, 17}, {0, 1, 3, 8, 17}, kLight}, {5, 48, 367, 2872, 23300}},
      {"sawah",
       {{0, 0, 2, 9, 14, 16, 17}, {0, 0, 1, 2, 5, 6, 15}, kLight},
       {15, 222, 3210, 47215, 687113}},
      {"sawah",
       {{0, 1, 6, 7, 17, 17, 17}, {11, 14, 15, 17, 17, 17, 17}, kLight},
       {15, 145, 1566, 16159, 165294}},
      {"sawah-tablet",
       {{2, 9, 14, 16, 17}, {0, 1, 2, 6, 15}, kLight},
       {12, 159, 1910, 23755, 285403}},
      {"sawah-tablet",
       {{2, 3, 4, 13, 17}, {1, 5, 10, 17, 17}, kLight},
       {14, 171, 2203, 27203, 337602}},
      {"sawah-marks",
       {{0, 0, 0, 4, 9, 16, 17}, {0, 1, 2, 5, 13, 17, 17}, kLight},
       {13, 195, 2710, 38603, 542984}},
      {"sawah-marks",
       {{1, 3, 4, 10, 14, 15, 17}, {3, 9, 11, 17, 17, 17, 17}, kLight},
       {17, 222, 3266, 44729, 619097}},
      {"turnover",
       {{1, 3, 3, 4, 6, 7, 15}, {2, 2, 2, 9, 17, 20, 20}, kLight},
       {19, 171, 3144, 30961, 552840}},
      {"turnover",
       {{0, 1, 5, 10, 16, 17, 20}, {1, 2, 5, 7, 14, 18, 18}, kLight},
       {16, 272, 4024, 65118, 914755}},
      {"murray",
       {{0, 0, 4, 6, 10, 20, 27}, {0, 0, 0, 0, 0, 15, 28}, kLight},
       {16, 157, 2118, 25093, 331592}},
      {"murray",
       {{0, 0, 0, 5, 6, 7, 14}, {0, 2, 3, 4, 10, 28, 28}, kDark},
       {15, 246, 3748, 56825, 855114}},
      // Light's A7 (16) is blocked from B4 (20) by its own piece on B4 (8),
      // and from B6 (18) by its own piece on B6 (10).
      {"murray",
       {{0, 0, 0, 0, 8, 10, 16}, {0, 0, 0, 0, 0, 0, 9}, kLight},
       {14, 127, 1544, 17560, 216690}},
      {"skiriuk",
       {{0, 3, 4, 11, 14, 24, 24}, {0, 5, 6, 8, 13, 15, 24}, kDark},
       {21, 329, 5757, 92277, 1505623}},
      {"skiriuk",
       {{0, 0, 0, 0, 4, 21, 24}, {0, 2, 3, 6, 24, 24, 24}, kLight},
       {10, 116, 1216, 13953, 157528}},
      // Light's A7 (16): B7 (17) blocked by its own piece on B7 (11), B6
      // (18) captures dark's piece, B5 (19) its own, B4 (20) blocked by
      // dark's piece on the safe B4 (8).
      {"skiriuk",
       {{0, 0, 0, 0, 11, 16, 19}, {0, 0, 0, 0, 0, 8, 10}, kLight},
       {13, 137, 1733, 21336, 277515}},
  };
  return *cases;
}

TEST(PerftTest, StartCountsArePinned) {
  for (const StartCase& c : StartCases()) {
    const Rules& rules = Load(c.preset);
    for (size_t d = 1; d <= c.counts.size(); ++d) {
      EXPECT_EQ(Perft(rules, StartPosition(rules), static_cast<int>(d)), c.counts[d - 1])
          << c.preset << " depth " << d;
    }
  }
}

TEST(PerftTest, EveryPresetIsPinned) {
  std::set<std::string> pinned, mid;
  for (const StartCase& c : StartCases()) pinned.insert(c.preset);
  for (const MidCase& c : MidCases()) mid.insert(c.preset);
  for (const PresetInfo& p : Presets()) {
    EXPECT_TRUE(pinned.count(p.id)) << p.id;
    EXPECT_TRUE(mid.count(p.id)) << p.id;
  }
}

TEST(PerftTest, MidgameCountsArePinned) {
  for (const MidCase& c : MidCases()) {
    const Rules& rules = Load(c.preset);
    const Position pos = MakePosition(rules, c.pieces);
    ASSERT_EQ(CheckPosition(rules, pos), "") << c.preset;
    ASSERT_FALSE(IsOver(rules, pos)) << c.preset;
    for (size_t d = 1; d <= c.counts.size(); ++d) {
      EXPECT_EQ(Perft(rules, pos, static_cast<int>(d)), c.counts[d - 1])
          << c.preset << " midgame depth " << d;
    }
  }
}

// ---------------------------------------------------------------------------
// Depth 0 and branching per roll value.

TEST(PerftTest, DepthZeroIsOne) {
  for (const PresetInfo& p : Presets()) {
    const Rules& rules = Load(p.id);
    EXPECT_EQ(Perft(rules, StartPosition(rules), 0), 1u) << p.id;
    EXPECT_EQ(Perft(rules, StartPosition(rules, kDark), 0), 1u) << p.id;
  }
  for (const MidCase& c : MidCases()) {
    const Rules& rules = Load(c.preset);
    EXPECT_EQ(Perft(rules, MakePosition(rules, c.pieces), 0), 1u) << c.preset;
  }
}

TEST(PerftTest, FinishedGameIsALeafAtAnyDepth) {
  const Rules& rules = Load("finkel");
  // Light has borne off every piece; dark still has pieces to move.
  const Position over =
      MakePosition(rules, {{15, 15, 15, 15, 15, 15, 15}, {0, 0, 1, 2, 3, 5, 6}, kDark});
  ASSERT_TRUE(IsOver(rules, over));
  for (int d = 0; d <= 4; ++d) EXPECT_EQ(Perft(rules, over, d), 1u) << d;
}

TEST(PerftTest, BranchesOncePerRollValueWhateverItsChance) {
  // From the start every throw but 0 enters one piece (one move) and 0
  // passes (one branch): depth 1 is the number of distinct roll values,
  // although a 2 is six times as likely as a 0 or a 4.
  const Rules& finkel = Load("finkel");
  ASSERT_EQ(finkel.outcomes.size(), 5u);
  EXPECT_EQ(Perft(finkel, StartPosition(finkel), 1), 5u);
  const Rules& blank4 = Load("finkel-blank4");  // rolls 1, 2, 3, 4
  EXPECT_EQ(Perft(blank4, StartPosition(blank4), 1), 4u);
  // turnover: 0 passes, 1 and 5 enter, 4 cannot enter and passes.
  const Rules& turnover = Load("turnover");
  EXPECT_EQ(Perft(turnover, StartPosition(turnover), 1), 4u);

  // Dice where two mark counts give the same throw: 2 and 3 marks both
  // throw 2. The roll value 2 (chance 10/16) is still one branch.
  const Rules& merged = Load("finkel(dice.roll_for_marks=[0,1,2,2,4])");
  ASSERT_EQ(merged.outcomes.size(), 4u);
  EXPECT_EQ(merged.outcomes[2].roll, 2);
  EXPECT_EQ(merged.outcomes[2].weight, 10);
  EXPECT_EQ(Perft(merged, StartPosition(merged), 1), 4u);
  // Two levels: after each of the 4 first branches, 4 roll values again;
  // a roll that enters a second piece or moves the first gives more moves,
  // so count them by hand from light's entering piece on index r.
  //   0: pass, then dark enters or passes: 4 leaves.
  //   1: light on 1, dark to move: 4 leaves.
  //   2: light on 2, dark: 4 leaves.
  //   4: light on 4 (a rosette: light throws again): 0 passes (1); 1: enter
  //      or 4->5 (2); 2: enter or 4->6 (2); 4: 4->8 only, entering on 4 is
  //      blocked by light's own piece (1). 6 leaves.
  EXPECT_EQ(Perft(merged, StartPosition(merged), 2), 4u + 4u + 4u + 6u);
}

// ---------------------------------------------------------------------------
// The naive generator.

// The rules as the naive generator reads them from the ruleset: each side's
// path as tile names, safe and throw-again indices.
struct NaiveRules {
  int length = 0;
  int pieces = 0;
  std::vector<std::string> path[2];  // path[s][i - 1]: tile of index i
  std::set<int> safe;
  std::set<int> extra;
  std::set<int> rolls;  // distinct throws
  std::set<int> entry;  // throws that bring a piece on
  bool capture_extra_roll = false;
};

NaiveRules MakeNaiveRules(const Rules& rules) {
  const v1::Ruleset& r = rules.ruleset;
  NaiveRules n;
  n.length = r.path_size();
  n.pieces = r.pieces();
  n.path[kLight].assign(r.path().begin(), r.path().end());
  n.path[kDark].assign(r.dark_path().begin(), r.dark_path().end());
  n.safe.insert(r.safe_squares().begin(), r.safe_squares().end());
  n.extra.insert(r.extra_roll_squares().begin(), r.extra_roll_squares().end());
  n.rolls.insert(r.dice().roll_for_marks().begin(), r.dice().roll_for_marks().end());
  if (r.entry_rolls_size() == 0) {
    for (int roll : n.rolls) {
      if (roll > 0) n.entry.insert(roll);
    }
  } else {
    n.entry.insert(r.entry_rolls().begin(), r.entry_rolls().end());
  }
  n.capture_extra_roll = r.capture_extra_roll();
  return n;
}

struct NaivePosition {
  std::vector<int> pieces[2];  // each piece's path index
  int to_move = 0;
};

NaivePosition MakeNaivePosition(const PieceList& p) {
  NaivePosition pos;
  pos.pieces[kLight] = p.light;
  pos.pieces[kDark] = p.dark;
  pos.to_move = p.to_move;
  return pos;
}

bool NaiveOver(const NaiveRules& r, const NaivePosition& pos) {
  for (int s = 0; s < 2; ++s) {
    bool all_off = true;
    for (int i : pos.pieces[s]) all_off = all_off && i == r.length + 1;
    if (all_off) return true;
  }
  return false;
}

// Whether a piece of side `s` other than piece number `except` stands on
// tile `tile`.
bool Occupies(const NaiveRules& r, const NaivePosition& pos, int s, const std::string& tile,
              int except = -1) {
  for (size_t k = 0; k < pos.pieces[s].size(); ++k) {
    const int i = pos.pieces[s][k];
    if (static_cast<int>(k) != except && i >= 1 && i <= r.length && r.path[s][i - 1] == tile) {
      return true;
    }
  }
  return false;
}

// Every position after a legal move of the side to move for `roll`, one per
// distinct source index (pieces on one index, the waiting ones, are the
// same move). Empty when nothing can move.
std::vector<NaivePosition> NaiveChildren(const NaiveRules& r, const NaivePosition& pos, int roll) {
  std::vector<NaivePosition> out;
  if (roll == 0) return out;
  const int me = pos.to_move, opp = 1 - me;
  std::set<int> tried;
  for (size_t k = 0; k < pos.pieces[me].size(); ++k) {
    const int from = pos.pieces[me][k];
    if (from == r.length + 1 || !tried.insert(from).second) continue;
    if (from == 0 && !r.entry.count(roll)) continue;
    const int to = from + roll;
    if (to > r.length + 1) continue;  // bearing off needs the exact count
    NaivePosition next = pos;
    next.pieces[me][k] = to;
    bool again = false;
    if (to <= r.length) {
      const std::string& tile = r.path[me][to - 1];
      if (Occupies(r, pos, me, tile, static_cast<int>(k))) continue;
      bool captured = false;
      if (Occupies(r, pos, opp, tile)) {
        if (r.safe.count(to)) continue;
        for (int& i : next.pieces[opp]) {
          if (i >= 1 && i <= r.length && r.path[opp][i - 1] == tile) {
            i = 0;
            captured = true;
          }
        }
      }
      again = r.extra.count(to) > 0 || (captured && r.capture_extra_roll);
    }
    next.to_move = again ? me : opp;
    out.push_back(next);
  }
  return out;
}

uint64_t NaivePerft(const NaiveRules& r, const NaivePosition& pos, int depth) {
  if (depth == 0 || NaiveOver(r, pos)) return 1;
  uint64_t leaves = 0;
  for (int roll : r.rolls) {
    const std::vector<NaivePosition> children = NaiveChildren(r, pos, roll);
    if (children.empty()) {
      NaivePosition passed = pos;
      passed.to_move = 1 - pos.to_move;
      leaves += NaivePerft(r, passed, depth - 1);
      continue;
    }
    for (const NaivePosition& child : children) leaves += NaivePerft(r, child, depth - 1);
  }
  return leaves;
}

constexpr const char* kNonStacking[] = {"finkel",      "finkel-blank4", "masters",
                                        "blitz",       "sawah",         "sawah-tablet",
                                        "sawah-marks", "murray",        "skiriuk"};

bool IsNonStacking(const std::string& id) {
  for (const char* p : kNonStacking) {
    if (id == p) return true;
  }
  return false;
}

// The naive generator's assumptions hold for these presets.
void ExpectNaiveApplies(const Rules& rules, const std::string& id) {
  const v1::Ruleset& r = rules.ruleset;
  EXPECT_FALSE(r.stacking()) << id;
  EXPECT_FALSE(r.safe_shared()) << id;
  EXPECT_EQ(r.phase_starts_size(), 0) << id;
  EXPECT_EQ(r.auto_place_squares_size(), 0) << id;
  EXPECT_EQ(r.bear_off(), v1::BEAR_OFF_EXACT) << id;
}

constexpr int kNaiveDepth = 4;

TEST(PerftTest, NaiveGeneratorAgreesFromTheStart) {
  for (const char* id : kNonStacking) {
    const Rules& rules = Load(id);
    ExpectNaiveApplies(rules, id);
    const NaiveRules naive = MakeNaiveRules(rules);
    const NaivePosition start = MakeNaivePosition(
        {std::vector<int>(rules.pieces, 0), std::vector<int>(rules.pieces, 0), kLight});
    for (int d = 1; d <= kNaiveDepth; ++d) {
      EXPECT_EQ(NaivePerft(naive, start, d), Perft(rules, StartPosition(rules), d))
          << id << " depth " << d;
    }
  }
}

TEST(PerftTest, NaiveGeneratorAgreesFromMidgames) {
  int checked = 0;
  for (const MidCase& c : MidCases()) {
    if (!IsNonStacking(c.preset)) continue;
    const Rules& rules = Load(c.preset);
    ExpectNaiveApplies(rules, c.preset);
    const NaiveRules naive = MakeNaiveRules(rules);
    const NaivePosition pos = MakeNaivePosition(c.pieces);
    for (int d = 1; d <= kNaiveDepth; ++d) {
      EXPECT_EQ(NaivePerft(naive, pos, d), Perft(rules, MakePosition(rules, c.pieces), d))
          << c.preset << " midgame depth " << d;
    }
    ++checked;
  }
  EXPECT_GE(checked, 18);
}

// The naive generator, move by move: the same number of moves as the
// engine's LegalMoves for every roll, from every midgame position.
TEST(PerftTest, NaiveGeneratorAgreesOnMoveCounts) {
  int checked = 0;
  for (const MidCase& c : MidCases()) {
    if (!IsNonStacking(c.preset)) continue;
    const Rules& rules = Load(c.preset);
    const NaiveRules naive = MakeNaiveRules(rules);
    for (const RollOutcome& o : rules.outcomes) {
      MoveList legal;
      LegalMoves(rules, MakePosition(rules, c.pieces), o.roll, &legal);
      EXPECT_EQ(NaiveChildren(naive, MakeNaivePosition(c.pieces), o.roll).size(),
                static_cast<size_t>(legal.size()))
          << c.preset << " roll " << o.roll;
    }
    ++checked;
  }
  EXPECT_GE(checked, 18);  // as many midgames as NaiveGeneratorAgreesFromMidgames compares
}

}  // namespace
}  // namespace scribe
