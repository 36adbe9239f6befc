// Unit tests for every rule of every preset, written from docs/rulesets.md
// alone (#where-the-rules-come-from: each rule with the sentence of its
// source): each sentence of a rule that can be broken has a test here that
// fails when the engine breaks it.
//
// Part 1 sweeps every preset with the same questions (dice, entering, exact
// bearing off, throw-again squares, where captures happen, blocking by one's
// own pieces, jumping, the end of the game) and replays random games against
// a deliberately naive referee written from docs/rulesets.md. Part 2 has one
// test per source sentence, preset by preset, each on a position drawn as a
// board.
//
// Board drawings: lane A (light's own lane) on top, B the shared middle lane,
// C (dark's own lane) at the bottom, positions 1.. left to right. L is a
// light piece, D a dark piece; in `turnover`, l and d are pieces turned over
// (on the way down, path indices 14-20) and * marks a tile with more than
// one piece, explained beside the drawing. Path indices are the mover's own:
// 0 waiting, 1..L on the board, L+1 borne off.
#include "engine/rules.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine/board.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "engine/types.h"
#include "gtest/gtest.h"

namespace scribe {
namespace {

using Moves = std::vector<std::pair<int, int>>;  // (from, to), in list order

// ---------------------------------------------------------------------------
// The presets as docs/rulesets.md#the-presets states them (independent of
// the engine's data).
// ---------------------------------------------------------------------------

const std::vector<std::string> kFinkelPath = {"A4", "A3", "A2", "A1", "B1", "B2", "B3",
                                              "B4", "B5", "B6", "B7", "B8", "A8", "A7"};
const std::vector<std::string> kMastersPath = {"A4", "A3", "A2", "A1", "B1", "B2", "B3", "B4",
                                               "B5", "B6", "B7", "C7", "C8", "B8", "A8", "A7"};
const std::vector<std::string> kSawahPath = {"A4", "A3", "A2", "A1", "B1", "B2",  "B3",  "B4",
                                             "B5", "B6", "B7", "B8", "B9", "B10", "B11", "B12"};
const std::vector<std::string> kTurnoverPath = {"A1", "A2", "A3", "A4", "B4", "B5", "B6",
                                                "B7", "A7", "A8", "B8", "C8", "C7", "B7",
                                                "B6", "B5", "B4", "B3", "B2", "B1"};
const std::vector<std::string> kMurrayPath = {"A4", "A3", "A2", "A1", "B1", "B2", "B3", "B4", "B5",
                                              "B6", "B7", "C7", "C8", "B8", "A8", "A7", "B7", "B6",
                                              "B5", "B4", "B3", "B2", "B1", "C1", "C2", "C3", "C4"};
const std::vector<std::string> kSkiriukPath = {"A4", "A3", "A2", "A1", "B1", "B2", "B3", "B4",
                                               "B5", "B6", "B7", "C7", "C8", "B8", "A8", "A7",
                                               "B7", "B6", "B5", "B4", "B3", "B2", "B1"};

// Throw -> chance in 16 (docs/rulesets.md#the-dice).
const std::map<int, int> kFourBinary = {{0, 1}, {1, 4}, {2, 6}, {3, 4}, {4, 1}};
const std::map<int, int> kThreeBlank4 = {{1, 6}, {2, 6}, {3, 2}, {4, 2}};
const std::map<int, int> kThreeTurnover = {{0, 6}, {1, 6}, {4, 2}, {5, 2}};

std::set<int> Range(int first, int last, std::set<int> except = {}) {
  std::set<int> out;
  for (int i = first; i <= last; ++i) {
    if (!except.count(i)) out.insert(i);
  }
  return out;
}

struct Spec {
  std::string id;
  std::vector<std::string> path;  // light's; dark's is the mirror image
  int pieces = 7;
  int dice = 4;
  std::map<int, int> chance16;
  std::set<int> extra;         // "a throw again on"
  std::set<int> safe;          // "safe from capture"
  bool capture_extra = false;  // blitz
  bool turnover = false;       // turnover's own rules
  // Expectations spelled out by hand: the light indices where landing can
  // capture some dark piece, where a dark piece makes the move illegal (a
  // safe square), where both colours stand together (turnover), and the
  // pairs of own indices on one tile (murray, skiriuk).
  std::set<int> capture_at;
  std::set<int> blocked_at;
  std::set<int> shared_at;
  std::set<std::pair<int, int>> revisits;
  int L() const { return static_cast<int>(path.size()); }
};

void PrintTo(const Spec& spec, std::ostream* os) { *os << spec.id; }

const std::set<std::pair<int, int>> kBackDownTheMiddle = {{5, 23}, {6, 22},  {7, 21}, {8, 20},
                                                          {9, 19}, {10, 18}, {11, 17}};

std::vector<Spec> Specs() {
  std::vector<Spec> specs;
  Spec finkel;
  finkel.id = "finkel";
  finkel.path = kFinkelPath;
  finkel.chance16 = kFourBinary;
  finkel.extra = {4, 8, 14};
  finkel.safe = {4, 8, 14};
  finkel.capture_at = {5, 6, 7, 9, 10, 11, 12};
  finkel.blocked_at = {8};
  specs.push_back(finkel);

  Spec blank4 = finkel;
  blank4.id = "finkel-blank4";
  blank4.dice = 3;
  blank4.chance16 = kThreeBlank4;
  specs.push_back(blank4);

  Spec masters;
  masters.id = "masters";
  masters.path = kMastersPath;
  masters.dice = 3;
  masters.chance16 = kThreeBlank4;
  masters.extra = {4, 8, 12, 16};
  masters.capture_at = Range(5, 16);
  specs.push_back(masters);

  Spec blitz = masters;
  blitz.id = "blitz";
  blitz.pieces = 5;
  blitz.dice = 4;
  blitz.chance16 = kFourBinary;
  blitz.capture_extra = true;
  specs.push_back(blitz);

  Spec sawah;
  sawah.id = "sawah";
  sawah.path = kSawahPath;
  sawah.chance16 = kFourBinary;
  sawah.extra = {4, 8, 12, 16};
  sawah.safe = {4, 8, 12, 16};
  sawah.capture_at = Range(5, 16, {8, 12, 16});
  sawah.blocked_at = {8, 12, 16};
  specs.push_back(sawah);

  Spec tablet = sawah;
  tablet.id = "sawah-tablet";
  tablet.pieces = 5;
  specs.push_back(tablet);
  tablet.id = "aseb";
  specs.push_back(tablet);

  Spec marks = sawah;
  marks.id = "sawah-marks";
  marks.safe = {};
  marks.capture_at = Range(5, 16);
  marks.blocked_at = {};
  specs.push_back(marks);

  Spec turnover;
  turnover.id = "turnover";
  turnover.path = kTurnoverPath;
  turnover.dice = 3;
  turnover.chance16 = kThreeTurnover;
  turnover.extra = {};
  turnover.safe = {1, 5, 9, 13, 20};
  turnover.turnover = true;
  turnover.capture_at = Range(6, 19, {9, 13});
  turnover.shared_at = {5, 9, 13, 20};
  specs.push_back(turnover);

  Spec murray;
  murray.id = "murray";
  murray.path = kMurrayPath;
  murray.chance16 = kFourBinary;
  murray.extra = {4, 8, 12, 16, 20, 24};
  murray.safe = murray.extra;
  murray.capture_at = Range(1, 27, murray.safe);
  murray.blocked_at = murray.safe;
  murray.revisits = kBackDownTheMiddle;
  specs.push_back(murray);

  Spec skiriuk;
  skiriuk.id = "skiriuk";
  skiriuk.path = kSkiriukPath;
  skiriuk.chance16 = kFourBinary;
  skiriuk.extra = {4, 8, 12, 16, 20};
  skiriuk.safe = skiriuk.extra;
  skiriuk.capture_at = Range(5, 23, skiriuk.safe);
  skiriuk.blocked_at = {8, 12, 16, 20};
  skiriuk.revisits = kBackDownTheMiddle;
  specs.push_back(skiriuk);
  return specs;
}

std::string MirrorName(const std::string& tile) {
  std::string out = tile;
  if (out[0] == 'A') {
    out[0] = 'C';
  } else if (out[0] == 'C') {
    out[0] = 'A';
  }
  return out;
}

// Tile of side s's path index i (1..L), from the spec.
std::string SpecTile(const Spec& spec, Side s, int i) {
  const std::string& light = spec.path[i - 1];
  return s == kLight ? light : MirrorName(light);
}

// Two pieces interact only on the same tile in the same phase (turnover
// turns a piece over on arriving at index 14).
std::string SpecSquare(const Spec& spec, Side s, int i) {
  const int phase = spec.turnover && i >= 14 ? 1 : 0;
  return absl::StrCat(SpecTile(spec, s, i), "/", phase);
}

bool SpecCanEnter(const Spec& spec, int roll) {
  return spec.turnover ? (roll == 1 || roll == 5) : roll > 0;
}

// ---------------------------------------------------------------------------
// Helpers: loading, building and drawing positions, listing moves.
// ---------------------------------------------------------------------------

const Rules& Preset(absl::string_view id) {
  auto loaded = LoadRuleset(id);
  if (!loaded.ok()) {
    std::fprintf(stderr, "cannot load preset %s: %s\n", std::string(id).c_str(),
                 loaded.status().ToString().c_str());
    std::abort();
  }
  static auto* keep = new std::vector<std::shared_ptr<const Rules>>();
  keep->push_back(*loaded);
  return *keep->back();
}

// A position: the pieces on the board by path index (repeat an index for a
// stack), how many are borne off; every other piece is waiting.
struct Layout {
  std::vector<int> light;
  std::vector<int> dark;
  int light_off = 0;
  int dark_off = 0;
  Side to_move = kLight;
};

Position Place(const Rules& rules, const Layout& layout) {
  Position pos;
  auto put = [&](Side s, const std::vector<int>& on, int off) {
    for (int i : on) {
      ++pos.count[s][i];
      pos.occ[s] |= 1u << i;
    }
    pos.count[s][rules.off] = static_cast<uint8_t>(off);
    const int waiting = rules.pieces - static_cast<int>(on.size()) - off;
    pos.count[s][0] = static_cast<uint8_t>(waiting < 0 ? 99 : waiting);
  };
  put(kLight, layout.light, layout.light_off);
  put(kDark, layout.dark, layout.dark_off);
  pos.to_move = layout.to_move;
  return pos;
}

std::string Render(const Rules& rules, const Position& pos);

// Place, and fail the test when the position is not consistent.
Position Build(const Rules& rules, const Layout& layout) {
  const Position pos = Place(rules, layout);
  const std::string problem = CheckPosition(rules, pos);
  EXPECT_EQ(problem, "") << "the test's own position is inconsistent:\n" << Render(rules, pos);
  return pos;
}

int Count(const Position& pos, Side s, int index) { return pos.count[s][index]; }

// The board as drawn in this file's comments, then the counts.
std::string Render(const Rules& rules, const Position& pos) {
  const v1::Board board = rules.ruleset.board();
  const int length = BoardLength(board);
  std::vector<int> column(length + 1);
  std::string header = "pos: ";
  for (int p = 1; p <= length; ++p) {
    column[p] = static_cast<int>(header.size());
    absl::StrAppend(&header, p, p < length ? " " : "");
  }
  std::string out = header + "\n";
  for (int lane = 0; lane < 3; ++lane) {
    std::string row(header.size(), ' ');
    row[1] = static_cast<char>('A' + lane);
    row[2] = ':';
    for (int p = 1; p <= length; ++p) {
      const TileId t = MakeTile(lane, p);
      if (!OnBoard(board, t)) continue;
      int total = 0;
      char c = '.';
      for (int s = 0; s < 2; ++s) {
        for (int i = 1; i <= rules.path_length; ++i) {
          if (rules.tile[s][i] != t || pos.count[s][i] == 0) continue;
          total += pos.count[s][i];
          c = s == kLight ? 'L' : 'D';
          if (rules.phase[i] > 0) c = static_cast<char>(c - 'A' + 'a');
        }
      }
      row[column[p]] = total > 1 ? '*' : c;
    }
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += row + "\n";
  }
  for (int s = 0; s < 2; ++s) {
    absl::StrAppend(&out, SideName(Side(s)), ": waiting ", pos.count[s][0], ", off ",
                    pos.count[s][rules.off], ", on");
    for (int i = 1; i <= rules.path_length; ++i) {
      if (pos.count[s][i]) absl::StrAppend(&out, " ", i, "x", pos.count[s][i]);
    }
    out += "\n";
  }
  absl::StrAppend(&out, SideName(pos.to_move), " to move\n");
  return out;
}

Moves Legal(const Rules& rules, const Position& pos, int roll) {
  MoveList list;
  LegalMoves(rules, pos, roll, &list);
  Moves out;
  for (const Move& m : list) out.push_back({m.from, m.to});
  return out;
}

bool HasMove(const Rules& rules, const Position& pos, int roll, int from, int to) {
  const Moves moves = Legal(rules, pos, roll);
  return std::find(moves.begin(), moves.end(), std::make_pair(from, to)) != moves.end();
}

// Applies (from, to) after checking it is legal for the throw.
MoveResult Play(const Rules& rules, Position* pos, int roll, int from, int to) {
  EXPECT_TRUE(HasMove(rules, *pos, roll, from, to))
      << from << "->" << to << " with a throw of " << roll << " is not legal in\n"
      << Render(rules, *pos);
  return ApplyMove(rules, pos, Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to)});
}

// ---------------------------------------------------------------------------
// A naive referee, written from docs/rulesets.md with none of the engine's
// tables.
// ---------------------------------------------------------------------------

class NaiveReferee {
 public:
  explicit NaiveReferee(const Spec& spec) : spec_(spec), length_(spec.L()), off_(length_ + 1) {}

  struct Result {
    int captured = 0;
    bool extra_roll = false;
    bool placed = false;
    bool won = false;
  };

  Moves Legal(const Position& pos, int roll) const {
    Moves out;
    if (roll <= 0 || Over(pos)) return out;
    const Side me = pos.to_move;
    const Side opp = Other(me);
    for (int from = 0; from <= length_; ++from) {
      if (pos.count[me][from] == 0) continue;
      if (from == 0 && !SpecCanEnter(spec_, roll)) continue;
      int to = -1;
      if (spec_.turnover) {
        if (from == length_) {
          to = roll == 4 ? off_ : -1;
        } else if (from + roll <= length_) {
          to = from + roll;
        }
      } else if (from + roll <= off_) {
        to = from + roll;
      }
      if (to < 0) continue;
      if (to == off_) {
        out.push_back({from, to});
        continue;
      }
      bool ok = true;
      if (!spec_.turnover) {
        // No stacking: no other own piece may stand on the destination tile.
        for (int k = 1; k <= length_; ++k) {
          if (k != from && pos.count[me][k] &&
              SpecSquare(spec_, me, k) == SpecSquare(spec_, me, to)) {
            ok = false;
          }
        }
        // An opponent on a safe square that cannot be shared.
        for (int j = 1; j <= length_; ++j) {
          if (pos.count[opp][j] && spec_.safe.count(to) &&
              SpecSquare(spec_, opp, j) == SpecSquare(spec_, me, to)) {
            ok = false;
          }
        }
      }
      if (ok) out.push_back({from, to});
    }
    return out;
  }

  Result Apply(Position* pos, int from, int to) const {
    Result r;
    const Side me = pos->to_move;
    const Side opp = Other(me);
    const int n = (spec_.turnover && to == off_) ? pos->count[me][from] : 1;
    pos->count[me][from] -= n;
    pos->count[me][to] += n;
    if (to != off_ && !spec_.safe.count(to)) {
      for (int j = 1; j <= length_; ++j) {
        if (pos->count[opp][j] && SpecSquare(spec_, opp, j) == SpecSquare(spec_, me, to)) {
          r.captured += pos->count[opp][j];
          pos->count[opp][0] += pos->count[opp][j];
          pos->count[opp][j] = 0;
        }
      }
    }
    if (spec_.turnover && to != off_ && (to == 1 || to == 5 || to == 9 || to == 13) &&
        pos->count[me][0] > 0) {
      --pos->count[me][0];
      ++pos->count[me][1];
      r.placed = true;
    }
    r.extra_roll = spec_.extra.count(to) > 0 || (r.captured > 0 && spec_.capture_extra);
    r.won = pos->count[me][off_] == spec_.pieces;
    if (r.won) r.extra_roll = false;
    for (int s = 0; s < 2; ++s) {
      pos->occ[s] = 0;
      for (int i = 1; i <= length_; ++i) {
        if (pos->count[s][i]) pos->occ[s] |= 1u << i;
      }
    }
    if (!r.extra_roll && !r.won) pos->to_move = opp;
    return r;
  }

  bool Over(const Position& pos) const {
    return pos.count[kLight][off_] == spec_.pieces || pos.count[kDark][off_] == spec_.pieces;
  }

 private:
  const Spec& spec_;
  int length_;
  int off_;
};

// ===========================================================================
// Part 1: the same questions asked of every preset.
// ===========================================================================

class PresetTest : public ::testing::TestWithParam<Spec> {
 protected:
  PresetTest() : spec_(GetParam()), rules_(Preset(spec_.id)) {}
  const Spec& spec_;
  const Rules& rules_;
};

TEST_P(PresetTest, LoadsWithItsPiecesAndPath) {
  auto loaded = LoadRuleset(spec_.id);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(rules_.pieces, spec_.pieces);
  ASSERT_EQ(rules_.path_length, spec_.L());
  EXPECT_EQ(rules_.off, spec_.L() + 1);
  for (int i = 1; i <= spec_.L(); ++i) {
    EXPECT_EQ(rules_.TileNameAt(kLight, i), SpecTile(spec_, kLight, i)) << "light index " << i;
    EXPECT_EQ(rules_.TileNameAt(kDark, i), SpecTile(spec_, kDark, i)) << "dark index " << i;
  }
  const Position start = StartPosition(rules_);
  EXPECT_EQ(CheckPosition(rules_, start), "");
  EXPECT_EQ(start.waiting(kLight), spec_.pieces) << "all pieces start off the board";
  EXPECT_EQ(start.waiting(kDark), spec_.pieces);
  EXPECT_EQ(start.occ[kLight] | start.occ[kDark], 0u) << "the board starts empty";
}

TEST_P(PresetTest, DiceGiveTheirExactChances) {
  EXPECT_EQ(rules_.dice_count, spec_.dice);
  std::map<int, int> chance16;
  int total = 0;
  for (const RollOutcome& o : rules_.outcomes) {
    chance16[o.roll] = o.weight * 16 / (1 << rules_.dice_count);
    total += o.weight;
  }
  EXPECT_EQ(total, 1 << rules_.dice_count) << "weights are out of 2^dice";
  EXPECT_EQ(chance16, spec_.chance16);
  for (int roll = 0; roll <= kMaxRoll; ++roll) {
    EXPECT_EQ(rules_.CanRoll(roll), spec_.chance16.count(roll) > 0) << "throw " << roll;
  }
}

// "A throw of 0 loses the turn ... you do not move"; "A throw of 0 moves
// nothing" (docs/rulesets.md#sources-of-the-common-rules,
// #sources-of-turnover): even where other throws could move.
TEST_P(PresetTest, ThrowOfZeroNeverMoves) {
  for (int i = 1; i <= spec_.L(); ++i) {
    const Position pos = Build(rules_, {.light = {i}, .dark = {}});
    EXPECT_TRUE(Legal(rules_, pos, 0).empty()) << Render(rules_, pos);
    EXPECT_FALSE(Legal(rules_, pos, 1).empty()) << "a throw of 1 can move here\n"
                                                << Render(rules_, pos);
  }
}

// "A waiting piece enters on the path index equal to the throw."
// turnover: "only with a 1 or a 5, onto the first or the fifth square".
TEST_P(PresetTest, EnteringLandsOnTheIndexOfTheThrow) {
  for (const auto& [roll, chance] : spec_.chance16) {
    if (roll == 0) continue;
    Position pos = StartPosition(rules_);
    const Moves moves = Legal(rules_, pos, roll);
    if (!SpecCanEnter(spec_, roll)) {
      EXPECT_TRUE(moves.empty()) << "throw " << roll << " may not bring a piece on";
      continue;
    }
    ASSERT_EQ(moves, (Moves{{0, roll}})) << "throw " << roll;
    Play(rules_, &pos, roll, 0, roll);
    EXPECT_EQ(CheckPosition(rules_, pos), "");
    EXPECT_EQ(Count(pos, kLight, roll), 1 + (spec_.turnover && roll == 1 ? 1 : 0));
    EXPECT_EQ(pos.count[kDark][0], spec_.pieces) << "nothing of dark's moves";
  }
}

// "Bear off with an exact count ... A larger count cannot be used for that
// piece" (docs/rulesets.md#sources-of-the-common-rules). turnover: "A piece
// must land exactly on the last square. From there it leaves the board with
// a throw of 4".
TEST_P(PresetTest, BearingOffNeedsTheExactCount) {
  for (int i = 1; i <= spec_.L(); ++i) {
    for (const auto& [roll, chance] : spec_.chance16) {
      if (roll == 0) continue;
      // One light piece on index i, every other one borne off.
      const Position pos = Build(rules_, {.light = {i}, .dark = {}, .light_off = spec_.pieces - 1});
      Moves expected;
      if (spec_.turnover) {
        if (i == spec_.L() && roll == 4) expected = {{i, spec_.L() + 1}};
        if (i < spec_.L() && i + roll <= spec_.L()) expected = {{i, i + roll}};
      } else if (i + roll <= spec_.L() + 1) {
        expected = {{i, i + roll}};
      }
      EXPECT_EQ(Legal(rules_, pos, roll), expected) << "from " << i << " throw " << roll;
      // Destination() answers the same question, ignoring other pieces.
      EXPECT_EQ(Destination(rules_, i, roll), expected.empty() ? -1 : expected[0].second)
          << "from " << i << " throw " << roll;
    }
  }
}

// "Ending a move on a 'throw again' square gives another throw": exactly the
// listed squares, never bearing off, and never in turnover.
TEST_P(PresetTest, ThrowAgainOnlyOnTheListedSquares) {
  for (int d = 1; d <= spec_.L() + 1; ++d) {
    int from = d - 1;
    int roll = 1;
    if (spec_.turnover && d == spec_.L() + 1) {
      from = spec_.L();
      roll = 4;
    }
    std::vector<int> on;
    if (from > 0) on.push_back(from);
    Position pos = Build(rules_, {.light = on, .dark = {}});
    const MoveResult result = Play(rules_, &pos, roll, from, d);
    const bool expected = spec_.extra.count(d) > 0;
    EXPECT_EQ(result.extra_roll, expected) << "landing on index " << d;
    EXPECT_EQ(pos.to_move, expected ? kLight : kDark) << "landing on index " << d;
  }
}

// Where captures happen: every light destination d against every dark index
// j. Landing on the dark piece's square captures it (back to waiting) unless
// the square is safe: then the move is not allowed, or in turnover both
// stand together. On any other square nothing happens to the dark piece.
TEST_P(PresetTest, CapturesExactlyWhereThePathsShareAnUnsafeSquare) {
  std::set<int> captured_at, blocked_at, shared_at;
  for (int d = 1; d <= spec_.L(); ++d) {
    const int from = d - 1;
    for (int j = 1; j <= spec_.L(); ++j) {
      if (from > 0 && SpecSquare(spec_, kLight, from) == SpecSquare(spec_, kDark, j) &&
          !(spec_.turnover && spec_.safe.count(from))) {
        continue;  // the two pieces cannot stand together to begin with
      }
      std::vector<int> on;
      if (from > 0) on.push_back(from);
      Position pos = Build(rules_, {.light = on, .dark = {j}});
      SCOPED_TRACE(
          absl::StrCat("light ", from, "->", d, ", dark on ", j, "\n", Render(rules_, pos)));
      const bool same = SpecSquare(spec_, kLight, d) == SpecSquare(spec_, kDark, j);
      const bool legal = HasMove(rules_, pos, 1, from, d);
      if (same && spec_.safe.count(d) && !spec_.turnover) {
        EXPECT_FALSE(legal) << "a piece on a safe square cannot be landed on";
        if (!legal) blocked_at.insert(d);
        continue;
      }
      ASSERT_TRUE(legal);
      const int dark_waiting = pos.count[kDark][0];
      const MoveResult result = Play(rules_, &pos, 1, from, d);
      EXPECT_EQ(CheckPosition(rules_, pos), "");
      EXPECT_EQ(Count(pos, kLight, d) >= 1, true);
      if (same && !spec_.safe.count(d)) {
        EXPECT_EQ(result.captured, 1);
        EXPECT_EQ(Count(pos, kDark, j), 0);
        EXPECT_EQ(Count(pos, kDark, 0), dark_waiting + 1) << "captured goes back to waiting";
        if (result.captured == 1) captured_at.insert(d);
      } else {
        EXPECT_EQ(result.captured, 0);
        EXPECT_EQ(Count(pos, kDark, j), 1);
        EXPECT_EQ(Count(pos, kDark, 0), dark_waiting);
        if (same) shared_at.insert(d);
      }
      const bool extra = spec_.extra.count(d) || (result.captured && spec_.capture_extra);
      EXPECT_EQ(result.extra_roll, extra);
    }
  }
  EXPECT_EQ(captured_at, spec_.capture_at);
  EXPECT_EQ(blocked_at, spec_.blocked_at);
  EXPECT_EQ(shared_at, spec_.shared_at);
}

// "You may not land on your own piece"
// (docs/rulesets.md#sources-of-the-common-rules), also where the path
// comes back to a tile (murray, skiriuk); turnover: "Any number of pieces
// may share a square".
TEST_P(PresetTest, OwnPieceBlocksItsTileUnlessStacking) {
  std::set<std::pair<int, int>> revisits;
  for (int d = 1; d <= spec_.L(); ++d) {
    const int from = d - 1;
    for (int k = 1; k <= spec_.L(); ++k) {
      if (k == from) continue;
      if (!spec_.turnover && from > 0 &&
          SpecTile(spec_, kLight, from) == SpecTile(spec_, kLight, k)) {
        continue;  // two own pieces on one tile: not a position
      }
      std::vector<int> on = {k};
      if (from > 0) on.push_back(from);
      const Position pos = Build(rules_, {.light = on, .dark = {}});
      const bool same = SpecTile(spec_, kLight, d) == SpecTile(spec_, kLight, k);
      const bool legal = HasMove(rules_, pos, 1, from, d);
      EXPECT_EQ(legal, spec_.turnover || !same)
          << "light " << from << "->" << d << ", own piece on " << k << "\n"
          << Render(rules_, pos);
      if (!legal && k != d) revisits.insert({std::min(d, k), std::max(d, k)});
    }
  }
  EXPECT_EQ(revisits, spec_.revisits);
}

// "You may jump over any piece" (docs/rulesets.md#sources-of-the-common-rules):
// own and opponent pieces, also an opponent sitting on a rosette ("An
// opponent may jump it").
TEST_P(PresetTest, JumpsOverAnyPiece) {
  int checked = 0, over_opponent = 0, over_own = 0;
  for (int from = 0; from <= spec_.L(); ++from) {
    for (const auto& [roll, chance] : spec_.chance16) {
      const int to = from + roll;
      if (roll < 2 || to > spec_.L() + 1) continue;
      if (from == 0 && !SpecCanEnter(spec_, roll)) continue;
      if (spec_.turnover && (to > spec_.L() || from == spec_.L())) continue;
      Layout layout;
      if (from > 0) layout.light.push_back(from);
      bool opponent = false, own = false;
      for (int m = from + 1; m < to; ++m) {
        // Alternate an opponent piece (where one can stand on this tile) and
        // an own piece.
        int dark_index = 0;
        for (int j = 1; j <= spec_.L(); ++j) {
          if (SpecSquare(spec_, kDark, j) == SpecSquare(spec_, kLight, m)) dark_index = j;
        }
        if ((m - from) % 2 == 1 && dark_index > 0) {
          layout.dark.push_back(dark_index);
          opponent = true;
        } else {
          layout.light.push_back(m);
          own = true;
        }
      }
      const Position pos = Place(rules_, layout);
      if (CheckPosition(rules_, pos) != "") continue;
      ++checked;
      over_opponent += opponent;
      over_own += own;
      EXPECT_TRUE(HasMove(rules_, pos, roll, from, to)) << "jump " << from << "->" << to << "\n"
                                                        << Render(rules_, pos);
      Position after = pos;
      const MoveResult result = Play(rules_, &after, roll, from, to);
      EXPECT_EQ(result.captured, 0) << "jumped pieces are not captured";
      for (int m = from + 1; m < to; ++m) {
        // (turnover: landing on a rosette may place a waiting piece on 1)
        EXPECT_EQ(after.count[kLight][m], pos.count[kLight][m] + (result.placed && m == 1));
      }
      EXPECT_EQ(after.count[kDark][0], pos.count[kDark][0]);
    }
  }
  EXPECT_GT(checked, spec_.L());
  EXPECT_GT(over_opponent, 0);
  EXPECT_GT(over_own, 0);
}

// "The first player to bear off all pieces wins", and once the game is over
// nobody moves.
TEST_P(PresetTest, FirstToBearOffEveryPieceWinsAndThenNothingMoves) {
  const int last = spec_.L();
  const int roll = spec_.turnover ? 4 : 1;
  // Light's last piece on the last square; dark one piece short too, its
  // last piece waiting.
  Position pos = Build(
      rules_,
      {.light = {last}, .dark = {}, .light_off = spec_.pieces - 1, .dark_off = spec_.pieces - 1});
  EXPECT_FALSE(Winner(rules_, pos).has_value());
  EXPECT_FALSE(IsOver(rules_, pos));
  Position dark_first = pos;
  dark_first.to_move = kDark;
  ASSERT_EQ(Legal(rules_, dark_first, 1), (Moves{{0, 1}})) << "dark could still move";
  const MoveResult result = Play(rules_, &pos, roll, last, last + 1);
  EXPECT_TRUE(result.bore_off);
  EXPECT_TRUE(result.won);
  EXPECT_FALSE(result.extra_roll);
  EXPECT_TRUE(IsOver(rules_, pos));
  ASSERT_TRUE(Winner(rules_, pos).has_value());
  EXPECT_EQ(*Winner(rules_, pos), kLight);
  EXPECT_EQ(CheckPosition(rules_, pos), "");
  for (Side s : {kLight, kDark}) {
    pos.to_move = s;
    for (int r = 0; r <= kMaxRoll; ++r) {
      EXPECT_TRUE(Legal(rules_, pos, r).empty()) << SideName(s) << " throw " << r;
    }
  }
}

// Random games against the naive referee: the same legal moves (sorted by
// `from`, one per source), the same positions, captures, extra throws,
// placements and winners.
TEST_P(PresetTest, AgreesWithANaiveRefereeInRandomGames) {
  const NaiveReferee naive(spec_);
  std::mt19937 rng(20240601u + static_cast<unsigned>(spec_.L()));
  std::vector<int> throws;  // 16 equally likely outcomes
  for (const auto& [roll, chance] : spec_.chance16) throws.insert(throws.end(), chance, roll);
  ASSERT_EQ(throws.size(), 16u);
  int finished = 0, captures = 0, passes = 0, placements = 0, extras = 0;
  for (int game = 0; game < 60; ++game) {
    Position pos = StartPosition(rules_, game % 2 ? kDark : kLight);
    for (int action = 0; action < 5000 && !IsOver(rules_, pos); ++action) {
      const int roll = throws[rng() % 16];
      const Moves moves = Legal(rules_, pos, roll);
      ASSERT_EQ(moves, naive.Legal(pos, roll))
          << "game " << game << " action " << action << " throw " << roll << "\n"
          << Render(rules_, pos);
      for (size_t i = 1; i < moves.size(); ++i) {
        ASSERT_LT(moves[i - 1].first, moves[i].first) << "sorted by from, no duplicates";
      }
      if (moves.empty()) {
        const Side before = pos.to_move;
        PassTurn(&pos);
        ASSERT_EQ(pos.to_move, Other(before));
        ++passes;
        continue;
      }
      const auto [from, to] = moves[rng() % moves.size()];
      Position expected = pos;
      const NaiveReferee::Result want = naive.Apply(&expected, from, to);
      const MoveResult got =
          ApplyMove(rules_, &pos, Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to)});
      ASSERT_EQ(CheckPosition(rules_, pos), "") << Render(rules_, pos);
      ASSERT_EQ(got.captured, want.captured);
      ASSERT_EQ(got.extra_roll, want.extra_roll);
      ASSERT_EQ(got.placed, want.placed);
      ASSERT_EQ(got.won, want.won);
      if (!got.won) {
        ASSERT_TRUE(pos == expected) << "engine:\n"
                                     << Render(rules_, pos) << "naive:\n"
                                     << Render(rules_, expected);
      }
      captures += got.captured > 0;
      placements += got.placed;
      extras += got.extra_roll;
    }
    ASSERT_TRUE(IsOver(rules_, pos)) << "game " << game << " did not end";
    ++finished;
  }
  EXPECT_EQ(finished, 60);
  EXPECT_GT(captures, 0);
  EXPECT_GT(passes, 0);
  EXPECT_EQ(placements > 0, spec_.turnover);
  EXPECT_EQ(extras > 0, !spec_.extra.empty());
}

INSTANTIATE_TEST_SUITE_P(AllPresets, PresetTest, ::testing::ValuesIn(Specs()),
                         [](const ::testing::TestParamInfo<Spec>& info) {
                           std::string name = info.param.id;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

// "Who starts": the throw-off is part of turnover's rules only.
TEST(PresetsTest, OnlyTurnoverHasTheThrowOff) {
  for (const Spec& spec : Specs()) {
    const Rules& rules = Preset(spec.id);
    EXPECT_EQ(rules.opening, spec.turnover ? v1::OPENING_THROW_OFF : v1::OPENING_AGREED) << spec.id;
  }
}

// The plain move code (PlainShape, engine/position.h) serves the presets
// without stacking, auto-placement, a stack borne off, a tile visited twice,
// or a shared square numbered differently by the two sides; the property
// tests check it gives the general code's moves wherever it applies.
TEST(PresetsTest, PlainMoveCodeServesTheSimplePresets) {
  const std::set<std::string> plain = {"finkel", "finkel-blank4", "sawah", "sawah-tablet", "sawah-marks",
                                       "aseb"};
  for (const std::string id : {"finkel", "finkel-blank4", "blitz", "sawah", "sawah-tablet", "sawah-marks",
                               "aseb", "masters", "murray", "skiriuk", "turnover"}) {
    EXPECT_EQ(Preset(id).plain, plain.count(id) > 0) << id;
  }
}

TEST(PresetsTest, AsebIsSawahTablet) {
  EXPECT_EQ(Preset("aseb").digest, Preset("sawah-tablet").digest);
  EXPECT_NE(Preset("sawah-tablet").digest, Preset("sawah").digest);
}

// ===========================================================================
// Part 2: source sentences, preset by preset, on drawn positions
// (docs/rulesets.md#sources-of-finkel and the sections after it).
// ===========================================================================

// ------------------ finkel (docs/rulesets.md#sources-of-finkel) -----------
// Light's path: A4 A3 A2 A1 (1-4) B1..B8 (5-12) A8 A7 (13-14); dark's the
// same through lane C. Rosettes 4 (A1), 8 (B4), 14 (A7); 13 (A8) the star.

// "Four tetrahedral dice ... You get 0, 1, 2, 3, or 4"; "A 0 or a 4 comes up
// 1 time in 16, a 1 or a 3 comes up 4 times in 16, and a 2 comes up 6 times".
TEST(FinkelTest, FourDiceCountTheMarks) {
  const Rules& rules = Preset("finkel");
  ASSERT_EQ(rules.dice_count, 4);
  for (int k = 0; k <= 4; ++k) EXPECT_EQ(rules.roll_for_marks[k], k);
  std::vector<std::pair<int, int>> outcomes;
  for (const RollOutcome& o : rules.outcomes) outcomes.push_back({o.roll, o.weight});
  EXPECT_EQ(outcomes, (std::vector<std::pair<int, int>>{{0, 1}, {1, 4}, {2, 6}, {3, 4}, {4, 1}}));
}

// "A throw of 0 ends the turn. If nothing is marked, you do not move. The
// turn passes."
TEST(FinkelTest, ThrowOfZeroPassesTheTurn) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . L . .     . .
  //   B:  . . . . . L . .
  //   C:  . . . .     . .      light to move, throw 0
  Position pos = Build(rules, {.light = {3, 10}, .dark = {}});
  EXPECT_TRUE(Legal(rules, pos, 0).empty());
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{0, 2}, {3, 5}, {10, 12}}));
  PassTurn(&pos);
  EXPECT_EQ(pos.to_move, kDark);
  EXPECT_EQ(Count(pos, kLight, 3), 1);
  EXPECT_EQ(Count(pos, kLight, 10), 1);
}

// "A throw of 1 from off the board lands on square 1. A throw of 4 from off
// the board lands on square 4, the first rosette, and you throw again."
TEST(FinkelTest, EnteringWithOneAndWithFour) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . . . . .
  //   C:  . . . .     . .      everything waiting
  Position one = StartPosition(rules);
  const MoveResult r1 = Play(rules, &one, 1, 0, 1);
  EXPECT_EQ(Count(one, kLight, 1), 1);
  EXPECT_EQ(one.waiting(kLight), 6);
  EXPECT_FALSE(r1.extra_roll);
  EXPECT_EQ(one.to_move, kDark);

  Position four = StartPosition(rules);
  const MoveResult r4 = Play(rules, &four, 4, 0, 4);
  EXPECT_EQ(Count(four, kLight, 4), 1);
  EXPECT_EQ(rules.TileNameAt(kLight, 4), "A1");
  EXPECT_TRUE(r4.extra_roll);
  EXPECT_TRUE(r4.rosette);
  EXPECT_EQ(four.to_move, kLight) << "you throw again";
}

// "You may not land on your own piece."
TEST(FinkelTest, MayNotLandOnOwnPiece) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . L .     . .      light on 2 (A3)
  //   B:  L . . . . . . .      light on 5 (B1); throw 3: 2->5 is blocked
  //   C:  . . . .     . .
  const Position pos = Build(rules, {.light = {2, 5}, .dark = {}});
  EXPECT_EQ(Legal(rules, pos, 3), (Moves{{0, 3}, {5, 8}}));
  // Entering is blocked the same way: throw 2 onto own piece on 2.
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{2, 4}, {5, 7}}));
}

// "You may jump over any piece." "[A rosette piece:] An opponent may jump it
// and may not land on it."
TEST(FinkelTest, JumpsOverOwnAndOpponentPieces) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  L L D D . . . .      light 5, 6; dark 7 (B3), 8 (B4 rosette)
  //   C:  . . . .     . .      throw 4: 5->9 jumps all three
  Position pos = Build(rules, {.light = {5, 6}, .dark = {7, 8}});
  EXPECT_EQ(Legal(rules, pos, 4), (Moves{{0, 4}, {5, 9}, {6, 10}}));
  const MoveResult result = Play(rules, &pos, 4, 5, 9);
  EXPECT_EQ(result.captured, 0);
  EXPECT_EQ(Count(pos, kLight, 6), 1);
  EXPECT_EQ(Count(pos, kDark, 7), 1);
  EXPECT_EQ(Count(pos, kDark, 8), 1);
  EXPECT_EQ(Count(pos, kLight, 9), 1);
}

// "Suppose you throw a 2, you have a piece on square 7, and the opponent has
// a piece on square 9. You may move from 7 to 9 and send that piece off. You
// may instead enter a new piece, or move a different piece ... Nothing in
// this reconstruction forces the capture."
TEST(FinkelTest, CaptureSendsBackToWaitingAndIsNeverForced) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . L . .     . .      light 3 (A2)
  //   B:  . . L . D . . .      light 7 (B3), dark 9 (B5)
  //   C:  . . . .     . .      light to move, throw 2
  const Position pos = Build(rules, {.light = {3, 7}, .dark = {9}});
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{0, 2}, {3, 5}, {7, 9}}));

  Position capture = pos;
  const MoveResult result = Play(rules, &capture, 2, 7, 9);
  EXPECT_EQ(result.captured, 1);
  EXPECT_FALSE(result.extra_roll) << "a capture gives no throw in finkel";
  EXPECT_EQ(Count(capture, kDark, 9), 0);
  EXPECT_EQ(capture.waiting(kDark), 7) << "it comes off to start again";
  EXPECT_EQ(Count(capture, kLight, 9), 1) << "your piece stays where it landed";
  EXPECT_EQ(Count(capture, kLight, 7), 0);
  EXPECT_EQ(capture.to_move, kDark);
  EXPECT_EQ(CheckPosition(rules, capture), "");

  for (const auto& [from, to] : Moves{{0, 2}, {3, 5}}) {
    Position other = pos;
    const MoveResult r = Play(rules, &other, 2, from, to);
    EXPECT_EQ(r.captured, 0);
    EXPECT_EQ(Count(other, kDark, 9), 1);
  }
}

// "If that square is square 8, you cannot land there while they occupy it,
// because a rosette is safe."
TEST(FinkelTest, NoLandingOnAnOpponentOnTheMiddleRosette) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  L L . D . . . .      light 5, 6; dark on 8 (B4, rosette)
  //   C:  . . . .     . .
  const Position pos = Build(rules, {.light = {5, 6}, .dark = {8}});
  EXPECT_FALSE(HasMove(rules, pos, 2, 6, 8));
  EXPECT_FALSE(HasMove(rules, pos, 3, 5, 8));
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{0, 2}, {5, 7}}));
  // The same square free: 6->8 is a move and earns another throw.
  //   B:  L L . . . . . .
  Position free = Build(rules, {.light = {5, 6}, .dark = {}});
  EXPECT_TRUE(Play(rules, &free, 2, 6, 8).extra_roll);
}

// "You also cannot capture on 1-4 or 13-14, because those squares are not on
// your opponent's route." "Squares 1-4 and 13-14 are private."
TEST(FinkelTest, PrivateSquaresNeverCapture) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . L .     . .      light 2 (A3)
  //   B:  . . . . . . . L      light 12 (B8)
  //   C:  . D . .     . D      dark 3 (C2), dark 13 (C8)
  const Position pos = Build(rules, {.light = {2, 12}, .dark = {3, 13}});
  Position a = pos;
  EXPECT_EQ(Play(rules, &a, 1, 2, 3).captured, 0);
  EXPECT_EQ(Count(a, kDark, 3), 1);
  EXPECT_EQ(Count(a, kLight, 3), 1) << "index 3 is A2 for light, C2 for dark";
  EXPECT_EQ(CheckPosition(rules, a), "");
  Position b = pos;
  EXPECT_EQ(Play(rules, &b, 1, 12, 13).captured, 0);
  EXPECT_EQ(Count(b, kDark, 13), 1);
  EXPECT_EQ(CheckPosition(rules, b), "");
}

// "Bear off with an exact count. ... From square 14 you need 1. From 13 you
// need 2. From 12 you need 3. From 11 you need 4." "A larger count cannot
// be used for that piece."
TEST(FinkelTest, ExactBearOffFromElevenToFourteen) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     L L      light 13 (A8), 14 (A7)
  //   B:  . . . . . . L L      light 11 (B7), 12 (B8); 3 borne off
  //   C:  . . . .     . .
  const Position pos = Build(rules, {.light = {11, 12, 13, 14}, .dark = {}, .light_off = 3});
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{14, 15}}));
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{13, 15}}));
  EXPECT_EQ(Legal(rules, pos, 3), (Moves{{12, 15}}));
  EXPECT_EQ(Legal(rules, pos, 4), (Moves{{11, 15}}));
  Position after = pos;
  const MoveResult result = Play(rules, &after, 1, 14, 15);
  EXPECT_TRUE(result.bore_off);
  EXPECT_FALSE(result.extra_roll) << "bearing off is not a rosette";
  EXPECT_EQ(Count(after, kLight, 15), 4);
  EXPECT_EQ(after.to_move, kDark);
}

// "Rosettes give another throw ... (squares 4, 8, or 14 on this route)."
// "On square 13, the star, a 1 moves to 14 and a 2 bears off. Square 13 is
// not a rosette." "Landing there does not earn another throw."
TEST(FinkelTest, TheStarIsNotARosette) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . . . . L      light 12 (B8)
  //   C:  . . . .     . .
  const Position pos = Build(rules, {.light = {12}, .dark = {}});
  Position star = pos;
  EXPECT_FALSE(Play(rules, &star, 1, 12, 13).extra_roll);
  EXPECT_EQ(star.to_move, kDark);
  Position flower = pos;
  EXPECT_TRUE(Play(rules, &flower, 2, 12, 14).extra_roll);
  EXPECT_EQ(flower.to_move, kLight);
  //   A:  . . . .     . L      light 13 (A8, the star)
  const Position on_star = Build(rules, {.light = {13}, .dark = {}});
  EXPECT_TRUE(HasMove(rules, on_star, 1, 13, 14));
  EXPECT_TRUE(HasMove(rules, on_star, 2, 13, 15));
  EXPECT_FALSE(HasMove(rules, on_star, 3, 13, 16));
}

// "You may bring a new piece on, or move something still in the middle,
// instead of bearing off, when that other move is legal."
TEST(FinkelTest, BearingOffIsNeverForced) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     L .      light 14 (A7)
  //   B:  . . . . . . L .      light 11 (B7)
  //   C:  . . . .     . .      five light pieces waiting
  const Position pos = Build(rules, {.light = {11, 14}, .dark = {}});
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{0, 1}, {11, 12}, {14, 15}}));
  Position p = pos;
  Play(rules, &p, 1, 11, 12);
  EXPECT_EQ(Count(p, kLight, 14), 1) << "the piece on 14 may stay";
  EXPECT_EQ(Count(p, kLight, 15), 0);
}

// "Pass only when nothing is legal ... If every option is blocked, the turn
// passes." "A throw you cannot use is not saved."
TEST(FinkelTest, PassOnlyWhenNothingIsLegal) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  L . . .     . L      light 4 (A1), 13 (A8)
  //   B:  . . . D L . . L      dark 8 (B4 rosette); light 9 (B5), 12 (B8)
  //   C:  . . . .     . .      3 light borne off, none waiting
  // Throw 4: 4->8 onto the safe rosette, 9->13 onto own piece, 12 and 13
  // would overshoot the exact bear-off. Nothing is legal.
  const Position pos = Build(rules, {.light = {4, 9, 12, 13}, .dark = {8}, .light_off = 3});
  EXPECT_TRUE(Legal(rules, pos, 4).empty());
  // Any throw with a legal move must be used: these are not passes.
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{4, 5}, {9, 10}, {13, 14}}));
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{4, 6}, {9, 11}, {12, 14}, {13, 15}}));
  EXPECT_EQ(Legal(rules, pos, 3), (Moves{{4, 7}, {12, 15}}));
  // With one piece waiting, the 4 still cannot enter: square 4 is taken.
  // (The same board with one light piece waiting instead of borne off.)
  const Position waiting = Build(rules, {.light = {4, 9, 12, 13}, .dark = {8}, .light_off = 2});
  EXPECT_TRUE(Legal(rules, waiting, 4).empty());
}

// "The first player to bear off all seven pieces wins."
TEST(FinkelTest, FirstToBearOffAllSevenWins) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     L .      light's last piece on 14 (A7), 6 off
  //   B:  . . . . . . . .
  //   C:  . . . .     D .      dark's last piece on 14 (C7), 6 off
  Position pos = Build(rules, {.light = {14}, .dark = {14}, .light_off = 6, .dark_off = 6});
  EXPECT_FALSE(Winner(rules, pos).has_value());
  const MoveResult result = Play(rules, &pos, 1, 14, 15);
  EXPECT_TRUE(result.won);
  ASSERT_TRUE(Winner(rules, pos).has_value());
  EXPECT_EQ(*Winner(rules, pos), kLight);
  pos.to_move = kDark;
  EXPECT_TRUE(Legal(rules, pos, 1).empty()) << "the game is over";
}

// Legal moves are sorted by `from` and unique (one move per source).
TEST(FinkelTest, LegalMovesAreSortedByFromAndUnique) {
  const Rules& rules = Preset("finkel");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . L . L     . .      light 1 (A4), 3 (A2)
  //   B:  L . L . L D L .      light 5, 7, 9, 11; dark 10 (B6)
  //   C:  . . . .     . .      one light piece waiting
  const Position pos = Build(rules, {.light = {1, 3, 5, 7, 9, 11}, .dark = {10}});
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}}));
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{0, 2}, {11, 13}}));
  EXPECT_EQ(Legal(rules, pos, 3), (Moves{{1, 4}, {3, 6}, {5, 8}, {7, 10}, {9, 12}, {11, 14}}));
}

// ---------- finkel-blank4 (docs/rulesets.md#sources-of-finkel-blank4) ------

// "Some modern sheets treat a throw with no marks as 4, often with three
// dice rather than four." Three dice: 0 marks 4 (1 way), 1 (3), 2 (3), 3 (1).
TEST(FinkelBlank4Test, ABlankCountsFourWithThreeDice) {
  const Rules& rules = Preset("finkel-blank4");
  ASSERT_EQ(rules.dice_count, 3);
  EXPECT_EQ(rules.roll_for_marks[0], 4);
  EXPECT_EQ(rules.roll_for_marks[1], 1);
  EXPECT_EQ(rules.roll_for_marks[2], 2);
  EXPECT_EQ(rules.roll_for_marks[3], 3);
  std::vector<std::pair<int, int>> outcomes;
  for (const RollOutcome& o : rules.outcomes) outcomes.push_back({o.roll, o.weight});
  // 6/16, 6/16, 2/16, 2/16 as weights out of 2^3.
  EXPECT_EQ(outcomes, (std::vector<std::pair<int, int>>{{1, 3}, {2, 3}, {3, 1}, {4, 1}}));
  EXPECT_FALSE(rules.CanRoll(0)) << "no throw loses the turn";
}

// Everything else is finkel's: rosette 8 safe, a 4 onto a rosette throws again.
TEST(FinkelBlank4Test, OtherwiseFinkelsRules) {
  const Rules& rules = Preset("finkel-blank4");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  L . . .     . .      light 4 (A1)
  //   B:  . . . D . . . .      dark 8 (B4 rosette)
  //   C:  . . . .     . .
  const Position pos = Build(rules, {.light = {4}, .dark = {8}});
  // 4->8 lands on the safe rosette; entering onto 4 lands on the own piece.
  EXPECT_TRUE(Legal(rules, pos, 4).empty());
  EXPECT_EQ(Legal(rules, pos, 3), (Moves{{0, 3}, {4, 7}}));
  Position start = StartPosition(rules);
  EXPECT_TRUE(Play(rules, &start, 4, 0, 4).extra_roll);
}

// ----------------- masters (docs/rulesets.md#sources-of-masters) -----------
// Light: A4 A3 A2 A1 (1-4) B1..B7 (5-11) C7 C8 B8 A8 A7 (12-16).
// Dark:  C4 C3 C2 C1 (1-4) B1..B7 (5-11) A7 A8 B8 C8 C7 (12-16).

// "... send the two paths across each other at the far end. In those
// versions a rosette often does not protect a piece."
TEST(MastersTest, PathsCrossAtTheFarEndAndRosettesAreNotSafe) {
  const Rules& rules = Preset("masters");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . . . L .      light 11 (B7)
  //   C:  . . . .     D .      dark 16 (C7, dark's last square, a rosette)
  Position pos = Build(rules, {.light = {11}, .dark = {16}});
  const MoveResult result = Play(rules, &pos, 1, 11, 12);
  EXPECT_EQ(rules.TileNameAt(kLight, 12), "C7");
  EXPECT_EQ(result.captured, 1) << "rosettes are not safe";
  EXPECT_TRUE(result.extra_roll) << "C7 is still a rosette";
  EXPECT_EQ(pos.waiting(kDark), 7);
  EXPECT_EQ(pos.to_move, kLight);
}

// The shared far end C7 C8 B8 A8 A7: dark, coming round, captures light
// pieces on A7 (light 16), A8 (light 15), B8 (light 14) and C8 (light 13).
TEST(MastersTest, CapturesAlongTheSharedFarEnd) {
  const Rules& rules = Preset("masters");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     L L      light 16 (A7), 15 (A8)
  //   B:  . . . . . . D L      dark 11 (B7); light 14 (B8)
  //   C:  . . . .     . L      light 13 (C8); dark to move
  const Position pos = Build(rules, {.light = {13, 14, 15, 16}, .dark = {11}, .to_move = kDark});
  const std::vector<std::pair<int, int>> throw_victim = {{1, 16}, {2, 15}, {3, 14}, {4, 13}};
  for (const auto& [roll, victim] : throw_victim) {
    Position p = pos;
    const MoveResult result = Play(rules, &p, roll, 11, 11 + roll);
    EXPECT_EQ(result.captured, 1) << "throw " << roll;
    EXPECT_EQ(Count(p, kLight, victim), 0) << "throw " << roll;
    EXPECT_EQ(p.waiting(kLight), 4) << "throw " << roll;
    EXPECT_EQ(result.extra_roll, roll == 1) << "dark's 12 (A7) is a rosette";
  }
}

// A capture off a rosette gives no throw in masters (only in blitz).
TEST(MastersTest, CaptureGivesNoExtraThrow) {
  const Rules& rules = Preset("masters");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . L D . .      light 9 (B5), dark 10 (B6)
  //   C:  . . . .     . .
  Position pos = Build(rules, {.light = {9}, .dark = {10}});
  const MoveResult result = Play(rules, &pos, 1, 9, 10);
  EXPECT_EQ(result.captured, 1);
  EXPECT_FALSE(result.extra_roll);
  EXPECT_EQ(pos.to_move, kDark);
}

// Exact bear-off on the long path: from 16 need 1 ... from 13 need 4.
TEST(MastersTest, ExactBearOffFromThirteenToSixteen) {
  const Rules& rules = Preset("masters");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     L L      light 16 (A7), 15 (A8)
  //   B:  . . . . . . . L      light 14 (B8)
  //   C:  . . . .     . L      light 13 (C8); 3 borne off
  const Position pos = Build(rules, {.light = {13, 14, 15, 16}, .dark = {}, .light_off = 3});
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{16, 17}}));
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{15, 17}}));
  EXPECT_EQ(Legal(rules, pos, 3), (Moves{{14, 17}}));
  EXPECT_EQ(Legal(rules, pos, 4), (Moves{{13, 17}}));
}

// ----------------------- blitz (RoyalUr "Blitz") ---------------------------

// "... or give an extra throw for a capture."
TEST(BlitzTest, CaptureGivesAnotherThrow) {
  const Rules& rules = Preset("blitz");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . L D . .      light 9 (B5), dark 10 (B6)
  //   C:  . . . .     . .
  Position pos = Build(rules, {.light = {9}, .dark = {10}});
  const MoveResult result = Play(rules, &pos, 1, 9, 10);
  EXPECT_EQ(result.captured, 1);
  EXPECT_FALSE(result.rosette);
  EXPECT_TRUE(result.extra_roll);
  EXPECT_EQ(pos.to_move, kLight);
  // The same move without a capture passes the turn.
  //   B:  . . . . L . . .
  Position quiet = Build(rules, {.light = {9}, .dark = {}});
  EXPECT_FALSE(Play(rules, &quiet, 1, 9, 10).extra_roll);
  EXPECT_EQ(quiet.to_move, kDark);
}

// Five pieces; rosettes are not safe (masters' path).
TEST(BlitzTest, FivePiecesAndUnsafeRosettes) {
  const Rules& rules = Preset("blitz");
  EXPECT_EQ(StartPosition(rules).waiting(kLight), 5);
  EXPECT_EQ(rules.dice_count, 4);
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . L D . . . .      light 7 (B3), dark 8 (B4 rosette)
  //   C:  . . . .     . .
  Position pos = Build(rules, {.light = {7}, .dark = {8}});
  const MoveResult result = Play(rules, &pos, 1, 7, 8);
  EXPECT_EQ(result.captured, 1);
  EXPECT_TRUE(result.extra_roll);
  EXPECT_EQ(pos.waiting(kDark), 5);
}

// ------------------- sawah (docs/rulesets.md#sources-of-sawah) -------------
// Light: A4 A3 A2 A1 (1-4), B1..B12 (5-16). Marks 4 (A1), 8 (B4), 12 (B8),
// 16 (B12): safe and another throw. Shared lane 5-16.

// "In the shared lane (squares 5 to 16), landing on an enemy piece takes it"
// "A piece on a marked square (4, 8, 12, and 16) cannot be taken. If the
// only way forward lands on an enemy piece sitting on a mark, that move is
// not allowed."
TEST(SawahTest, CapturesInTheSharedLaneExceptOnMarks) {
  const Rules& rules = Preset("sawah");
  //  pos: 1 2 3 4 5 6 7 8 9 10 11 12
  //   A:  . . . .
  //   B:  . . . . . . L D D L  .  D      light 11 (B7), 14 (B10);
  //   C:  . . . .                        dark 12 (B8), 13 (B9), 16 (B12)
  // (light is on its 11 and 14, dark on B8, B9 and B12; all pieces on one
  // lane use the same index for both colours)
  const Position pos = Build(rules, {.light = {11, 14}, .dark = {12, 13, 16}});
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{0, 1}, {14, 15}})) << "11->12 lands on a mark";
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{0, 2}, {11, 13}})) << "14->16 lands on a mark";
  EXPECT_EQ(Legal(rules, pos, 3), (Moves{{0, 3}, {14, 17}}));
  EXPECT_EQ(Legal(rules, pos, 4), (Moves{{0, 4}, {11, 15}}));
  Position p = pos;
  const MoveResult result = Play(rules, &p, 2, 11, 13);
  EXPECT_EQ(result.captured, 1);
  EXPECT_FALSE(result.extra_roll);
  EXPECT_EQ(p.waiting(kDark), 5);
}

// "Your first four squares are yours alone, so nobody can reach you there."
TEST(SawahTest, FirstFourSquaresAreYoursAlone) {
  const Rules& rules = Preset("sawah");
  //  pos: 1 2 3 4 5 6 7 8 9 10 11 12
  //   A:  . L . .                        light 3 (A2)
  //   B:  . . . . . . . . . .  .  .
  //   C:  D . . .                        dark 4 (C1)
  // light's 3->4 lands on A1, dark's 4 is C1: not the same square.
  Position pos = Build(rules, {.light = {3}, .dark = {4}});
  const MoveResult result = Play(rules, &pos, 1, 3, 4);
  EXPECT_EQ(result.captured, 0);
  EXPECT_TRUE(result.extra_roll) << "A1 is a mark";
  EXPECT_EQ(Count(pos, kDark, 4), 1);
}

// "A piece leaves the board with an exact throw: from square 16 on a 1, from
// 15 on a 2, from 14 on a 3, from 13 on a 4. A throw that would carry it
// further is not allowed."
TEST(SawahTest, ExactBearOffFromThirteenToSixteen) {
  const Rules& rules = Preset("sawah");
  //  pos: 1 2 3 4 5 6 7 8 9 10 11 12
  //   A:  . . . .
  //   B:  . . . . . . . . L L  L  L      light 13-16 (B9-B12); 3 off
  //   C:  . . . .
  const Position pos = Build(rules, {.light = {13, 14, 15, 16}, .dark = {}, .light_off = 3});
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{16, 17}}));
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{15, 17}}));
  EXPECT_EQ(Legal(rules, pos, 3), (Moves{{14, 17}}));
  EXPECT_EQ(Legal(rules, pos, 4), (Moves{{13, 17}}));
}

// "End your move on a marked square and you throw again at once."
TEST(SawahTest, MarksGiveAnotherThrow) {
  const Rules& rules = Preset("sawah");
  for (int mark : {4, 8, 12, 16}) {
    // One light piece one step before the mark, e.g. for 12:
    //  pos: 1 2 3 4 5 6 7 8 9 10 11 12
    //   B:  . . . . . . L . . .  .  .      light 11 (B7) -> 12 (B8)
    Position pos = Build(rules, {.light = {mark - 1}, .dark = {}});
    EXPECT_TRUE(Play(rules, &pos, 1, mark - 1, mark).extra_roll) << mark;
    EXPECT_EQ(pos.to_move, kLight);
  }
  //   B:  . . . . . . . . L .  .  .      light 13 (B9) -> 14: no mark
  Position pos = Build(rules, {.light = {13}, .dark = {}});
  EXPECT_FALSE(Play(rules, &pos, 1, 13, 14).extra_roll);
}

// ------- sawah-tablet / aseb (docs/rulesets.md#sources-of-sawah-tablet) ----

// "5 pieces a side instead of seven ... everything else stays as in Sawah".
TEST(SawahTabletTest, FivePiecesAndTheFifthWins) {
  for (const char* id : {"sawah-tablet", "aseb"}) {
    const Rules& rules = Preset(id);
    EXPECT_EQ(StartPosition(rules).waiting(kLight), 5) << id;
    //  pos: 1 2 3 4 5 6 7 8 9 10 11 12
    //   A:  . . . .
    //   B:  . . . . . . . . . .  L  L      light 15, 16; 3 off
    //   C:  . . . .
    Position pos = Build(rules, {.light = {15, 16}, .dark = {}, .light_off = 3});
    EXPECT_FALSE(Play(rules, &pos, 1, 16, 17).won) << "four off is not yet a win";
    pos.to_move = kLight;
    const MoveResult result = Play(rules, &pos, 2, 15, 17);
    EXPECT_TRUE(result.won) << id;
    EXPECT_EQ(Winner(rules, pos), std::optional<Side>(kLight));
    // Sawah's marks stay safe.
    //   B:  . . L D . . . . . .  .  .      light 7 (B3), dark 8 (B4 mark)
    const Position mark = Build(rules, {.light = {7}, .dark = {8}});
    EXPECT_FALSE(HasMove(rules, mark, 1, 7, 8)) << id;
  }
}

// ----------- sawah-marks (docs/rulesets.md#sources-of-sawah-marks) ---------

// "A marked square still gives another throw, but it is not safe: a piece on
// it can be taken." "No square in the shared lane is safe".
TEST(SawahMarksTest, MarksGiveAThrowButDoNotProtect) {
  const Rules& rules = Preset("sawah-marks");
  //  pos: 1 2 3 4 5 6 7 8 9 10 11 12
  //   A:  . . . .
  //   B:  . . L D . . . D . .  L  D      light 7, 15; dark 8 (B4), 12 (B8),
  //   C:  . . . .                        16 (B12)
  const Position pos = Build(rules, {.light = {7, 15}, .dark = {8, 12, 16}});
  for (const auto& [from, to] : Moves{{7, 8}, {15, 16}}) {
    Position p = pos;
    const MoveResult result = Play(rules, &p, to - from, from, to);
    EXPECT_EQ(result.captured, 1) << from << "->" << to;
    EXPECT_TRUE(result.extra_roll) << from << "->" << to;
    EXPECT_EQ(p.to_move, kLight);
  }
  //  pos: 1 2 3 4 5 6 7 8 9 10 11 12
  //   A:  . . . .
  //   B:  . . . . L . . D . .  .  .      light 9 (B5), dark 12 (B8)
  //   C:  . . . .
  Position p = Build(rules, {.light = {9}, .dark = {12}});
  const MoveResult result = Play(rules, &p, 3, 9, 12);
  EXPECT_EQ(result.captured, 1);
  EXPECT_TRUE(result.extra_roll);
}

// ---------------- turnover (docs/rulesets.md#sources-of-turnover) ----------
// Light: A1 A2 A3 A4 (1-4) B4 B5 B6 B7 (5-8) A7 A8 B8 C8 C7 (9-13), turned
// over: B7 B6 B5 B4 B3 B2 B1 (14-20). Dark: C1..C4 (1-4) B4..B7 (5-8)
// C7 C8 B8 A8 A7 (9-13), then B7..B1 (14-20). Rosettes 1, 5, 9, 13.

// "Three pyramid dice ... Three marked tips up give 5, none marked give 4,
// two marked give 1, and one marked gives 0."
TEST(TurnoverTest, TheDice) {
  const Rules& rules = Preset("turnover");
  ASSERT_EQ(rules.dice_count, 3);
  EXPECT_EQ(rules.roll_for_marks[3], 5);
  EXPECT_EQ(rules.roll_for_marks[0], 4);
  EXPECT_EQ(rules.roll_for_marks[2], 1);
  EXPECT_EQ(rules.roll_for_marks[1], 0);
  std::vector<std::pair<int, int>> outcomes;
  for (const RollOutcome& o : rules.outcomes) outcomes.push_back({o.roll, o.weight});
  EXPECT_EQ(outcomes, (std::vector<std::pair<int, int>>{{0, 3}, {1, 3}, {4, 1}, {5, 1}}));
}

// "A piece comes onto the board only with a 1 or a 5, onto the first or the
// fifth square of its route."
TEST(TurnoverTest, EnteringOnlyWithOneOrFive) {
  const Rules& rules = Preset("turnover");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . . . . .
  //   C:  . . . .     . .      all waiting
  const Position start = StartPosition(rules);
  EXPECT_EQ(Legal(rules, start, 1), (Moves{{0, 1}}));
  EXPECT_EQ(Legal(rules, start, 5), (Moves{{0, 5}}));
  EXPECT_TRUE(Legal(rules, start, 4).empty());
  EXPECT_TRUE(Legal(rules, start, 0).empty());
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . L . .     . .      light 2 (A2)
  //   B:  . . . . . . . .
  //   C:  . . . .     . .
  const Position pos = Build(rules, {.light = {2}, .dark = {}});
  EXPECT_EQ(Legal(rules, pos, 4), (Moves{{2, 6}})) << "a 4 never enters";
}

// "When one of your pieces lands on a rosette, another of your pieces comes
// onto square 1." Entering with 1 lands on rosette 1; with 5 on rosette 5.
TEST(TurnoverTest, EnteringOntoARosettePlacesAnotherPiece) {
  const Rules& rules = Preset("turnover");
  Position one = StartPosition(rules);
  const MoveResult r1 = Play(rules, &one, 1, 0, 1);
  //   A:  * . . .     . .      two light pieces on 1 (A1)
  EXPECT_TRUE(r1.placed);
  EXPECT_EQ(Count(one, kLight, 1), 2);
  EXPECT_EQ(one.waiting(kLight), 5);
  EXPECT_FALSE(r1.extra_roll) << "no throw gives an extra turn";
  EXPECT_EQ(one.to_move, kDark);

  Position five = StartPosition(rules);
  const MoveResult r5 = Play(rules, &five, 5, 0, 5);
  //   A:  L . . .     . .      light 1 (A1, placed)
  //   B:  . . . L . . . .      light 5 (B4)
  EXPECT_TRUE(r5.placed);
  EXPECT_EQ(Count(five, kLight, 5), 1);
  EXPECT_EQ(Count(five, kLight, 1), 1);
  EXPECT_EQ(five.waiting(kLight), 5);
  EXPECT_FALSE(r5.extra_roll);
  EXPECT_EQ(CheckPosition(rules, five), "");
}

// "Squares 1, 5, 9 and 13 on the route are rosettes." B4 at index 17 is not
// one (docs/rulesets.md#judgement-calls). The placed piece does not trigger
// another placement; nothing is placed when nothing waits.
TEST(TurnoverTest, AutoPlacementOnTheRosettesOnly) {
  const Rules& rules = Preset("turnover");
  const std::vector<std::pair<int, bool>> landing = {
      {2, false},  {5, true},   {6, false},  {9, true},   {10, false}, {13, true},
      {14, false}, {16, false}, {17, false}, {19, false}, {20, false}};
  for (const auto& [to, rosette] : landing) {
    // One light piece one step before `to`, the other six waiting; e.g. 17:
    //  pos: 1 2 3 4 5 6 7 8
    //   B:  . . . . l . . .      light 16 (B5, turned over) -> 17 (B4)
    Position pos = Build(rules, {.light = {to - 1}, .dark = {}});
    const MoveResult result = Play(rules, &pos, 1, to - 1, to);
    EXPECT_EQ(result.placed, rosette) << "landing on " << to;
    EXPECT_EQ(pos.waiting(kLight), rosette ? 5 : 6) << "exactly one piece placed, on " << to;
    EXPECT_EQ(Count(pos, kLight, 1), rosette ? 1 : 0) << "placed on square 1, landing on " << to;
    EXPECT_FALSE(result.extra_roll);
  }
  // No piece waits: nothing is placed.
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . . . L .      light 8 (B7) -> 9 (A7); the other six borne off
  //   C:  . . . .     . .
  Position none = Build(rules, {.light = {8}, .dark = {}, .light_off = 6});
  const MoveResult result = Play(rules, &none, 1, 8, 9);
  EXPECT_FALSE(result.placed);
  EXPECT_EQ(Count(none, kLight, 9), 1);
  EXPECT_EQ(Count(none, kLight, 1), 0);
  EXPECT_EQ(CheckPosition(rules, none), "");
}

// "Any number of pieces may share a square."
TEST(TurnoverTest, PiecesStack) {
  const Rules& rules = Preset("turnover");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . L L     . .      light 3 (A3), 4 (A4)
  //   B:  . . . . * . . .      three light pieces on 6 (B5)
  //   C:  . . . .     . .
  Position pos = Build(rules, {.light = {3, 4, 6, 6, 6}, .dark = {}});
  ASSERT_EQ(CheckPosition(rules, pos), "");
  Position a = pos;
  Play(rules, &a, 1, 3, 4);
  EXPECT_EQ(Count(a, kLight, 4), 2);
  EXPECT_EQ(CheckPosition(rules, a), "");
  Position b = pos;
  Play(rules, &b, 1, 6, 7);
  EXPECT_EQ(Count(b, kLight, 6), 2) << "one piece of the stack moves";
  EXPECT_EQ(Count(b, kLight, 7), 1);
  EXPECT_TRUE(b.occ[kLight] & (1u << 6));
  // Legal moves stay one per source, sorted.
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{0, 1}, {3, 4}, {4, 5}, {6, 7}}));
}

// "Pieces on the way up attack only pieces on the way up, and pieces on the
// way down only pieces on the way down; going opposite ways, they simply
// pass." Turned over on arriving at 14 (docs/rulesets.md#judgement-calls).
TEST(TurnoverTest, PiecesMeetOnlyInTheSamePhase) {
  const Rules& rules = Preset("turnover");
  // Up against down on B5: light up 5 (B4) -> 6 (B5); dark down on 16 (B5).
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . L d . . .      light 5 (B4, up), dark 16 (B5, down)
  //   C:  . . . .     . .
  Position pass = Build(rules, {.light = {5}, .dark = {16}});
  EXPECT_EQ(Play(rules, &pass, 1, 5, 6).captured, 0);
  EXPECT_EQ(Count(pass, kDark, 16), 1);
  EXPECT_EQ(Count(pass, kLight, 6), 1);
  EXPECT_EQ(CheckPosition(rules, pass), "") << "both colours on B5, different phases";
  // Up against up: dark up on 6 (B5) is taken.
  //   B:  . . . L D . . .      light 5 (B4, up), dark 6 (B5, up)
  Position take = Build(rules, {.light = {5}, .dark = {6}});
  EXPECT_EQ(Play(rules, &take, 1, 5, 6).captured, 1);
  EXPECT_EQ(take.waiting(kDark), 7);
  // Down against down on B4 (index 17 is not safe): light 16 -> 17.
  //   B:  . . . d l . . .      light 16 (B5, down), dark 17 (B4, down)
  Position down = Build(rules, {.light = {16}, .dark = {17}});
  EXPECT_EQ(Play(rules, &down, 1, 16, 17).captured, 1);
  // Down against up on B4: dark up on 5 (the rosette) stays.
  //   B:  . . . D l . . .      light 16 (B5, down), dark 5 (B4, up)
  Position b4 = Build(rules, {.light = {16}, .dark = {5}});
  const MoveResult r = Play(rules, &b4, 1, 16, 17);
  EXPECT_EQ(r.captured, 0);
  EXPECT_FALSE(r.placed) << "B4 at 17 is not a rosette";
  EXPECT_EQ(Count(b4, kDark, 5), 1);
  EXPECT_EQ(Count(b4, kLight, 17), 1);
  EXPECT_EQ(CheckPosition(rules, b4), "") << "B4 holds an up piece and a down piece";
  // Turned over exactly on arriving at 14 (B7): 13 (C7) -> 14 meets dark's
  // down piece on 14 and passes dark's up piece on 8 (also B7).
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . . . * .      dark 8 (B7, up) and dark 14 (B7, down)
  //   C:  . . . .     L .      light 13 (C7)
  Position turn = Build(rules, {.light = {13}, .dark = {8, 14}});
  const MoveResult t = Play(rules, &turn, 1, 13, 14);
  EXPECT_EQ(t.captured, 1);
  EXPECT_EQ(Count(turn, kDark, 14), 0);
  EXPECT_EQ(Count(turn, kDark, 8), 1);
}

// "Land on a square where your opponent's pieces stand and they are removed
// and must start again."
TEST(TurnoverTest, LandingRemovesAllOpponentPieces) {
  const Rules& rules = Preset("turnover");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . L * . . .      light 5 (B4); three dark pieces on 6 (B5, up)
  //   C:  . . . .     . .
  Position pos = Build(rules, {.light = {5}, .dark = {6, 6, 6}});
  const MoveResult result = Play(rules, &pos, 1, 5, 6);
  EXPECT_EQ(result.captured, 3);
  EXPECT_EQ(Count(pos, kDark, 6), 0);
  EXPECT_EQ(pos.waiting(kDark), 7);
  EXPECT_FALSE(result.extra_roll);
  EXPECT_EQ(pos.to_move, kDark);
}

// docs/rulesets.md#judgement-calls: the colours go round the small block in
// mirror image, both on the way up, so they capture each other there.
TEST(TurnoverTest, CapturesRoundTheSmallBlock) {
  const Rules& rules = Preset("turnover");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     L D      light 9 (A7); dark 12 (A8)
  //   B:  . . . . . . . D      dark 11 (B8)
  //   C:  . . . .     . D      dark 10 (C8)
  const Position pos = Build(rules, {.light = {9}, .dark = {10, 11, 12}});
  Position a = pos;
  EXPECT_EQ(Play(rules, &a, 1, 9, 10).captured, 1) << "A8";
  EXPECT_EQ(Count(a, kDark, 12), 0);
  EXPECT_EQ(Count(a, kDark, 11), 1);
  // Light 10 (A8) -> 11 (B8), 12 (C8) against dark 11 and 10.
  //   A:  . . . .     . L      light 10 (A8)
  //   B:  . . . . . . . D      dark 11 (B8)
  //   C:  . . . .     . D      dark 10 (C8)
  const Position b = Build(rules, {.light = {10}, .dark = {10, 11}});
  Position b1 = b;
  EXPECT_EQ(Play(rules, &b1, 1, 10, 11).captured, 1);
  EXPECT_EQ(Count(b1, kDark, 11), 0);
  EXPECT_EQ(Count(b1, kDark, 10), 1);
  // C8: light 11 -> 12 against dark 10.
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . . . . L      light 11 (B8)
  //   C:  . . . .     . D      dark 10 (C8)
  Position c = Build(rules, {.light = {11}, .dark = {10}});
  EXPECT_EQ(Play(rules, &c, 1, 11, 12).captured, 1);
  EXPECT_EQ(c.waiting(kDark), 7);
}

// "The rosettes and the last square are safe: there both colours may stand
// together."
TEST(TurnoverTest, SafeSquaresAreShared) {
  const Rules& rules = Preset("turnover");
  struct Case {
    int from, to, dark;
  };
  // B4 (5 / dark 5), A7 (9 / dark 13), C7 (13 / dark 9), B1 (20 / dark 20).
  for (const Case& c : {Case{4, 5, 5}, Case{8, 9, 13}, Case{12, 13, 9}, Case{19, 20, 20}}) {
    // e.g. B1:
    //  pos: 1 2 3 4 5 6 7 8
    //   A:  . . . .     . .
    //   B:  * l . . . . . .      dark 20 (B1, twice); light 19 (B2)
    //   C:  . . . .     . .
    Position pos = Build(rules, {.light = {c.from}, .dark = {c.dark, c.dark}});
    const MoveResult result = Play(rules, &pos, 1, c.from, c.to);
    EXPECT_EQ(result.captured, 0) << c.to;
    EXPECT_EQ(Count(pos, kDark, c.dark), 2) << c.to;
    EXPECT_EQ(Count(pos, kLight, c.to), 1) << c.to;
    EXPECT_EQ(CheckPosition(rules, pos), "") << c.to;
  }
}

// "A piece must land exactly on the last square. From there it leaves the
// board with a throw of 4, and if several stand there, they all go off on
// the same throw." No other throw moves a piece on 20.
TEST(TurnoverTest, ExactlyOntoTwentyThenAFourBearsOffTheStack) {
  const Rules& rules = Preset("turnover");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . L      light 10 (A8)
  //   B:  * . l . . . . .      three light on 20 (B1); light 18 (B3)
  //   C:  . . . .     . .      two light waiting
  Position pos = Build(rules, {.light = {10, 18, 20, 20, 20}, .dark = {}});
  EXPECT_EQ(Legal(rules, pos, 1), (Moves{{0, 1}, {10, 11}, {18, 19}}));
  EXPECT_EQ(Legal(rules, pos, 4), (Moves{{10, 14}, {20, 21}})) << "18+4 overshoots 20";
  EXPECT_EQ(Legal(rules, pos, 5), (Moves{{0, 5}, {10, 15}}));
  Position p = pos;
  const MoveResult result = Play(rules, &p, 4, 20, 21);
  EXPECT_TRUE(result.bore_off);
  EXPECT_EQ(Count(p, kLight, 21), 3) << "all three go off";
  EXPECT_EQ(Count(p, kLight, 20), 0);
  EXPECT_FALSE(p.occ[kLight] & (1u << 20));
  EXPECT_FALSE(result.extra_roll);
  EXPECT_EQ(CheckPosition(rules, p), "");
  // Landing exactly: 16 + 4 and 15 + 5 reach 20.
  //   B:  . . . . l l . .      light 15 (B6), 16 (B5)
  const Position q = Build(rules, {.light = {15, 16}, .dark = {}});
  EXPECT_TRUE(HasMove(rules, q, 4, 16, 20));
  EXPECT_TRUE(HasMove(rules, q, 5, 15, 20));
  EXPECT_FALSE(HasMove(rules, q, 5, 16, 21));
}

// "No throw gives an extra turn": not a rosette, not a capture.
TEST(TurnoverTest, NoThrowGivesAnotherThrow) {
  const Rules& rules = Preset("turnover");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . L     . .      light 4 (A4)
  //   B:  . . . . L D L .      light 6 (B5), dark 7 (B6), light 8 (B7), all up
  //   C:  . . . .     . .
  const Position pos = Build(rules, {.light = {4, 6, 8}, .dark = {7}});
  for (const auto& [from, to] : Moves{{4, 5}, {6, 7}, {8, 9}}) {
    Position p = pos;
    const MoveResult result = Play(rules, &p, 1, from, to);
    EXPECT_EQ(result.captured, to == 7 ? 1 : 0);
    EXPECT_EQ(result.placed, to != 7) << "5 and 9 are rosettes";
    EXPECT_FALSE(result.extra_roll) << from << "->" << to;
    EXPECT_EQ(p.to_move, kDark) << from << "->" << to;
  }
}

// -------- murray / skiriuk (docs/rulesets.md#sources-of-murray-and-skiriuk)
// murray: A4..A1 (1-4) B1..B7 (5-11) C7 C8 B8 A8 A7 (12-16) B7..B1 (17-23)
// C1..C4 (24-27). skiriuk: the same to 23 (B1). Dark: lanes A and C swapped.

// "an own piece on B4 at index 8 blocks an own move to B4 at index 20"
TEST(MurrayTest, AnOwnPieceBlocksItsTileWhateverTheIndex) {
  const Rules& rules = Preset("murray");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     L .      light 16 (A7)
  //   B:  . . . L . . . .      light 8 (B4, going out)
  //   C:  . . . .     . .
  const Position pos = Build(rules, {.light = {8, 16}, .dark = {}});
  EXPECT_FALSE(HasMove(rules, pos, 4, 16, 20)) << "16 -> 20 is B4 again";
  EXPECT_EQ(Legal(rules, pos, 4), (Moves{{0, 4}, {8, 12}}));
  // Without the piece on B4, 16 -> 20 is a move onto a rosette.
  //   A:  . . . .     L .      light 16 (A7)
  //   B:  . . L . . . . .      light 7 (B3)
  Position free = Build(rules, {.light = {7, 16}, .dark = {}});
  EXPECT_TRUE(Play(rules, &free, 4, 16, 20).extra_roll);
  // Going out and coming back block each other on every tile they share:
  // light 8 (B4) and 18 (B6), throw 2: 8 -> 10 is B6, 18 -> 20 is B4.
  //   B:  . . . L . L . .
  const Position both = Build(rules, {.light = {8, 18}, .dark = {}});
  EXPECT_EQ(Legal(rules, both, 2), (Moves{{0, 2}}));
  // And the other way round: own piece on B4 at 20 blocks 6 -> 8.
  //   B:  . L . L . . . .      light 6 (B2), 20 (B4, coming back)
  const Position back = Build(rules, {.light = {6, 20}, .dark = {}});
  EXPECT_FALSE(HasMove(rules, back, 2, 6, 8));
  // Two own pieces on one tile is not a position.
  EXPECT_NE(CheckPosition(rules, Place(rules, {.light = {8, 20}, .dark = {}})), "");
}

// "an opponent's piece on a shared tile can be captured from either index"
TEST(MurrayTest, CapturesFromEitherIndex) {
  const Rules& rules = Preset("murray");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  . . . . D L . .      dark 9 (B5, going out), light 18 (B6, back)
  //   C:  . . . .     . .
  Position back = Build(rules, {.light = {18}, .dark = {9}});
  EXPECT_EQ(Play(rules, &back, 1, 18, 19).captured, 1);
  EXPECT_EQ(back.waiting(kDark), 7);
  //   B:  . . L . D . . .      light 7 (B3, going out), dark 19 (B5, back)
  Position out = Build(rules, {.light = {7}, .dark = {19}});
  EXPECT_EQ(Play(rules, &out, 2, 7, 9).captured, 1);
  EXPECT_EQ(out.waiting(kDark), 7);
  // A rosette protects whichever index reaches it: dark on B4 at its 20.
  //   B:  . . L D . . . .      light 7 (B3), dark 20 (B4, back)
  const Position safe = Build(rules, {.light = {7}, .dark = {20}});
  EXPECT_FALSE(HasMove(rules, safe, 1, 7, 8));
}

// Murray's path ends up the opponent's lane: light's own first squares are
// dark's last ones, so they are not private there.
TEST(MurrayTest, TheOwnLaneIsTheOpponentsLastStretch) {
  const Rules& rules = Preset("murray");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  L L . .     . .      light 4 (A1 rosette), 3 (A2)
  //   B:  D . . . . . . .      dark 23 (B1, its last middle square)
  //   C:  . . . .     . .      dark to move
  const Position pos = Build(rules, {.light = {3, 4}, .dark = {23}, .to_move = kDark});
  EXPECT_EQ(rules.TileNameAt(kDark, 25), "A2");
  EXPECT_FALSE(HasMove(rules, pos, 1, 23, 24)) << "A1 is a safe rosette";
  Position p = pos;
  const MoveResult result = Play(rules, &p, 2, 23, 25);
  EXPECT_EQ(result.captured, 1);
  EXPECT_EQ(Count(p, kLight, 3), 0);
  EXPECT_EQ(p.waiting(kLight), 6);
  // Bearing off from the end of the long path: 27 (C4 for light) needs 1.
  //   C:  L . . L     . .      light 24 (C1), 27 (C4); 5 borne off
  const Position end = Build(rules, {.light = {24, 27}, .dark = {}, .light_off = 5});
  EXPECT_EQ(Legal(rules, end, 1), (Moves{{24, 25}, {27, 28}}));
  EXPECT_EQ(Legal(rules, end, 4), (Moves{{24, 28}}));
}

TEST(SkiriukTest, AnOwnPieceBlocksItsTileWhateverTheIndex) {
  const Rules& rules = Preset("skiriuk");
  //  pos: 1 2 3 4 5 6 7 8
  //   A:  . . . .     . .
  //   B:  L . L . . . . .      light 5 (B1, going out), 21 (B3, back)
  //   C:  . . . .     . .
  // Throw 2: 21 -> 23 is B1 (own piece on 5) and 5 -> 7 is B3 (own on 21).
  const Position pos = Build(rules, {.light = {5, 21}, .dark = {}});
  EXPECT_FALSE(HasMove(rules, pos, 2, 21, 23));
  EXPECT_EQ(Legal(rules, pos, 2), (Moves{{0, 2}}));
  // With the B1 piece moved on to B2 (6), 21 -> 23 is legal.
  //   B:  . L L . . . . .      light 6 (B2), 21 (B3, back)
  const Position free = Build(rules, {.light = {6, 21}, .dark = {}});
  EXPECT_TRUE(HasMove(rules, free, 2, 21, 23));
  // An opponent on B2 going out (dark 6) is taken by light coming back (22).
  //   B:  . D L . . . . .      dark 6 (B2), light 21 (B3, back)
  Position cap = Build(rules, {.light = {21}, .dark = {6}});
  EXPECT_EQ(Play(rules, &cap, 1, 21, 22).captured, 1);
  // B4 at 20 is a rosette, safe whichever index the opponent came by.
  //   B:  . . . D . L . .      dark 8 (B4), light 18 (B6, back)
  const Position safe = Build(rules, {.light = {18}, .dark = {8}});
  EXPECT_FALSE(HasMove(rules, safe, 2, 18, 20));
  // The path ends on B1: from 23 a 1 bears off, from 20 a 4.
  //   B:  L . . L . . . .      light 23 (B1), 20 (B4)
  const Position end = Build(rules, {.light = {20, 23}, .dark = {}, .light_off = 5});
  EXPECT_EQ(Legal(rules, end, 1), (Moves{{20, 21}, {23, 24}}));
  EXPECT_EQ(Legal(rules, end, 4), (Moves{{20, 24}}));
}

}  // namespace
}  // namespace scribe
