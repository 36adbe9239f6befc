// Property tests: random games of every preset, and of presets with random
// valid parameter overrides, keep the engine's contracts after every ply.
//
// Throws and choices come either from RapidCheck (so that a failure shrinks
// to a short game) or from scribe::Rng with a generated seed (to play whole
// games to their end). Every ply is checked against the contracts of
// engine/position.h and against a small model of the rules that reads the
// resolved ruleset proto (tile names, phases, index lists) and nothing of the
// engine's lookup tables.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "bench/playout.h"
#include "engine/board.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/rules.h"
#include "engine/ruleset.h"
#include "engine/types.h"

namespace scribe {
namespace {

// Whole games played by scribe::Rng must end within this many throws (in
// 20000 random games per preset the longest took 4018 throws, murray's).
constexpr int kMaxPlies = 100000;

// ---------------------------------------------------------------------------
// The model: the rules as read from the resolved proto alone.

struct Model {
  int length = 0;  // L
  int off = 0;     // L+1
  int pieces = 0;
  std::vector<int> rolls;            // distinct throws of the dice, ascending
  std::vector<std::string> tile[2];  // tile[s][i], i in 1..L ([0] unused)
  std::vector<int> phase;            // phase[i], i in 1..L
  std::set<int> safe, extra, entry, auto_place;
  int auto_place_to = 1;
  bool stacking = false;
  bool safe_shared = false;
  bool capture_extra_roll = false;
  bool bear_off_stack = false;
  int bear_off_roll = 0;

  // Two pieces interact only on the same tile in the same phase.
  bool SameSquare(Side s, int i, Side t, int j) const {
    return tile[s][i] == tile[t][j] && phase[i] == phase[j];
  }
};

Model ModelOf(const v1::Ruleset& r) {
  Model m;
  m.length = r.path_size();
  m.off = m.length + 1;
  m.pieces = r.pieces();
  std::set<int> rolls(r.dice().roll_for_marks().begin(), r.dice().roll_for_marks().end());
  m.rolls.assign(rolls.begin(), rolls.end());
  for (int s = 0; s < 2; ++s) m.tile[s].push_back("");
  m.phase.assign(m.length + 1, 0);
  for (int i = 1; i <= m.length; ++i) {
    m.tile[kLight].push_back(r.path(i - 1));
    m.tile[kDark].push_back(r.dark_path(i - 1));
    for (int start : r.phase_starts()) m.phase[i] += i >= start ? 1 : 0;
  }
  m.safe.insert(r.safe_squares().begin(), r.safe_squares().end());
  m.extra.insert(r.extra_roll_squares().begin(), r.extra_roll_squares().end());
  m.auto_place.insert(r.auto_place_squares().begin(), r.auto_place_squares().end());
  if (r.entry_rolls_size() == 0) {
    for (int roll : m.rolls) {
      if (roll > 0) m.entry.insert(roll);
    }
  } else {
    m.entry.insert(r.entry_rolls().begin(), r.entry_rolls().end());
  }
  m.auto_place_to = r.auto_place_to();
  m.stacking = r.stacking();
  m.safe_shared = r.safe_shared();
  m.capture_extra_roll = r.capture_extra_roll();
  m.bear_off_stack = r.bear_off() == v1::BEAR_OFF_STACK_FROM_LAST;
  m.bear_off_roll = r.bear_off_roll();
  return m;
}

bool ModelOver(const Model& m, const Position& pos) {
  return pos.count[kLight][m.off] == m.pieces || pos.count[kDark][m.off] == m.pieces;
}

// Any piece of side t on the same square as side s's index i, leaving out
// one piece standing on t's index `except` (the piece being moved).
bool AnyOn(const Model& m, const Position& pos, Side s, int i, Side t, int except = -1) {
  for (int j = 1; j <= m.length; ++j) {
    const int n = pos.count[t][j] - (j == except ? 1 : 0);
    if (n > 0 && m.SameSquare(s, i, t, j)) return true;
  }
  return false;
}

// The model's move for the side to move's piece(s) on `from` and `roll`, or
// nothing when that piece cannot move.
std::optional<Move> ModelMoveFrom(const Model& m, const Position& pos, int from, int roll) {
  const Side me = pos.to_move, opp = Other(me);
  if (roll <= 0 || ModelOver(m, pos) || from < 0 || from >= m.off) return std::nullopt;
  if (pos.count[me][from] == 0) return std::nullopt;
  if (from == 0 && m.entry.count(roll) == 0) return std::nullopt;
  const auto move = [](int f, int t) {
    return Move{static_cast<uint8_t>(f), static_cast<uint8_t>(t)};
  };
  const int to = from + roll;
  if (m.bear_off_stack) {
    if (from == m.length) {
      return roll == m.bear_off_roll ? std::optional<Move>(move(from, m.off)) : std::nullopt;
    }
    if (to > m.length) return std::nullopt;
  } else {
    if (to > m.off) return std::nullopt;
    if (to == m.off) return move(from, to);
  }
  if (!m.stacking && AnyOn(m, pos, me, to, me, from)) return std::nullopt;
  if (AnyOn(m, pos, me, to, opp) && m.safe.count(to) && !m.safe_shared) return std::nullopt;
  return move(from, to);
}

std::vector<Move> ModelMoves(const Model& m, const Position& pos, int roll) {
  std::vector<Move> out;
  for (int from = 0; from < m.off; ++from) {
    if (auto mv = ModelMoveFrom(m, pos, from, roll)) out.push_back(*mv);
  }
  return out;
}

struct ModelResult {
  Position pos;
  int captured = 0;
  bool extra_roll = false;
  bool won = false;
};

ModelResult ModelApply(const Model& m, const Position& before, Move move) {
  ModelResult r;
  r.pos = before;
  Position& p = r.pos;
  const Side me = before.to_move, opp = Other(me);
  const int from = move.from, to = move.to;
  const int n = (m.bear_off_stack && to == m.off) ? p.count[me][from] : 1;
  p.count[me][from] -= n;
  bool rosette = false;
  if (to == m.off) {
    p.count[me][to] += n;
  } else {
    if (m.safe.count(to) == 0) {
      for (int j = 1; j <= m.length; ++j) {
        if (p.count[opp][j] > 0 && m.SameSquare(me, to, opp, j)) {
          r.captured += p.count[opp][j];
          p.count[opp][0] += p.count[opp][j];
          p.count[opp][j] = 0;
        }
      }
    }
    p.count[me][to] += 1;
    rosette = m.extra.count(to) > 0;
    const int d = m.auto_place_to;
    if (m.auto_place.count(to) && p.count[me][0] > 0) {
      bool ok = m.stacking || !AnyOn(m, p, me, d, me);
      if (AnyOn(m, p, me, d, opp) && !(m.safe.count(d) && m.safe_shared)) ok = false;
      if (ok) {
        --p.count[me][0];
        ++p.count[me][d];
      }
    }
  }
  r.won = p.count[me][m.off] == m.pieces;
  r.extra_roll = !r.won && (rosette || (r.captured > 0 && m.capture_extra_roll));
  // The engine leaves a finished game with the winner to move.
  p.to_move = (r.won || r.extra_roll) ? me : opp;
  for (int s = 0; s < 2; ++s) {
    p.occ[s] = 0;
    for (int i = 1; i <= m.length; ++i) {
      if (p.count[s][i] > 0) p.occ[s] |= 1u << i;
    }
  }
  return r;
}

// ---------------------------------------------------------------------------
// Printing, for failure logs.

std::string Describe(const Model& m, const Position& pos) {
  std::string out;
  for (Side s : {kLight, kDark}) {
    std::vector<std::string> on;
    for (int i = 1; i <= m.length; ++i) {
      if (pos.count[s][i]) absl::StrAppend(&on.emplace_back(), i, "x", int(pos.count[s][i]));
    }
    absl::StrAppend(&out, SideName(s), ": waiting ", int(pos.count[s][0]), " board [",
                    absl::StrJoin(on, " "), "] off ", int(pos.count[s][m.off]), "; ");
  }
  absl::StrAppend(&out, SideName(pos.to_move), " to move");
  return out;
}

std::string DescribeMoves(const MoveList& moves) {
  std::vector<std::string> out;
  for (const Move& mv : moves) out.push_back(absl::StrCat(int(mv.from), "->", int(mv.to)));
  return absl::StrCat("[", absl::StrJoin(out, " "), "]");
}

// ---------------------------------------------------------------------------
// The checks.

// The engine's tables say what the proto says.
void CheckTables(const Rules& rules, const Model& m) {
  RC_ASSERT(rules.path_length == m.length);
  RC_ASSERT(rules.off == m.off);
  RC_ASSERT(rules.pieces == m.pieces);
  std::vector<int> rolls;
  for (const RollOutcome& o : rules.outcomes) rolls.push_back(o.roll);
  RC_ASSERT(rolls == m.rolls);
  int total_weight = 0;
  for (const RollOutcome& o : rules.outcomes) total_weight += o.weight;
  RC_ASSERT(total_weight == 1 << rules.dice_count);
  for (int i = 1; i <= m.length; ++i) {
    for (Side s : {kLight, kDark}) {
      const std::optional<TileId> t = ParseTileName(m.tile[s][i]);
      RC_ASSERT(t.has_value());
      RC_ASSERT(rules.tile[s][i] == *t);
    }
    RC_ASSERT(rules.phase[i] == m.phase[i]);
    RC_ASSERT(rules.IsSafe(i) == (m.safe.count(i) > 0));
    RC_ASSERT(rules.GivesExtraRoll(i) == (m.extra.count(i) > 0));
  }
  // Plain rules (PlainShape's move code): no stacking, no bearing off a
  // stack, no auto-placement, no square twice on a side's path, and
  // wherever the two sides share a square they give it the same index.
  bool plain = !m.stacking && !m.bear_off_stack && m.auto_place.empty();
  for (int i = 1; i <= m.length; ++i) {
    for (int j = 1; j <= m.length; ++j) {
      if (i != j && (m.SameSquare(kLight, i, kLight, j) || m.SameSquare(kDark, i, kDark, j) ||
                     m.SameSquare(kLight, i, kDark, j))) {
        plain = false;
      }
    }
  }
  RC_ASSERT(rules.plain == plain);
}

// No two own pieces on one square (tile and phase) unless stacking is on;
// checked through the engine's tile and phase tables.
void CheckNoDoubledPieces(const Rules& rules, const Position& pos) {
  if (rules.stacking) return;
  for (int s = 0; s < 2; ++s) {
    for (int i = 1; i <= rules.path_length; ++i) {
      if (pos.count[s][i] == 0) continue;
      RC_ASSERT(pos.count[s][i] == 1);
      for (int j = i + 1; j <= rules.path_length; ++j) {
        if (pos.count[s][j] == 0) continue;
        RC_ASSERT(!(rules.tile[s][i] == rules.tile[s][j] && rules.phase[i] == rules.phase[j]));
      }
    }
  }
}

void CheckConservation(const Rules& rules, const Position& pos) {
  for (int s = 0; s < 2; ++s) {
    int total = 0;
    for (int i = 0; i <= rules.off; ++i) total += pos.count[s][i];
    RC_ASSERT(total == rules.pieces);
    for (int i = rules.off + 1; i < kIndexSlots; ++i) RC_ASSERT(pos.count[s][i] == 0);
  }
}

// Conservation, the engine's own CheckPosition, and no doubled own pieces.
void CheckInvariants(const Rules& rules, const Position& pos) {
  CheckConservation(rules, pos);
  RC_ASSERT(CheckPosition(rules, pos) == std::string());
  CheckNoDoubledPieces(rules, pos);
}

// The legal moves for `roll` in `pos`: sorted, unique, forward by the whole
// throw (or a stack borne off), exactly the model's, and empty only for a 0,
// a blocked throw or a finished game.
void CheckLegalMoves(const Rules& rules, const Model& m, const Position& pos, int roll,
                     const MoveList& legal) {
  const Side me = pos.to_move;
  for (int k = 1; k < legal.size(); ++k) RC_ASSERT(legal[k - 1] < legal[k]);
  for (int k = 1; k < legal.size(); ++k) RC_ASSERT(legal[k - 1].from != legal[k].from);
  for (const Move& mv : legal) {
    RC_ASSERT(mv.from < rules.off);
    RC_ASSERT(pos.count[me][mv.from] > 0);
    RC_ASSERT(Destination(rules, mv.from, roll) == int(mv.to));
    if (mv.to == rules.off) {
      if (rules.bear_off_stack) {
        // Only from the last square, only with the bear-off throw.
        RC_ASSERT(int(mv.from) == rules.path_length);
        RC_ASSERT(roll == rules.bear_off_roll);
      } else {
        // Exact count: from index i with the throw L+1-i.
        RC_ASSERT(roll == rules.path_length + 1 - mv.from);
      }
    } else {
      RC_ASSERT(mv.to == mv.from + roll);
      RC_ASSERT(mv.to >= 1 && mv.to <= rules.path_length);
    }
  }
  if (roll == 0 || IsOver(rules, pos)) RC_ASSERT(legal.empty());
  if (legal.empty() && roll != 0 && !IsOver(rules, pos)) {
    // Blocked: every piece that could move is really stuck.
    for (int from = 0; from < m.off; ++from) {
      if (pos.count[me][from] == 0) continue;
      RC_ASSERT(!ModelMoveFrom(m, pos, from, roll).has_value());
    }
  }
  const std::vector<Move> expected = ModelMoves(m, pos, roll);
  const std::vector<Move> got(legal.begin(), legal.end());
  RC_ASSERT(got == expected);
  // The set form counts the same moves and gives each by its place.
  const LegalSet set = LegalDestinations(rules, pos, roll);
  RC_ASSERT(LegalCount(set) == legal.size());
  if (!IsOver(rules, pos)) {
    // In play, the unchecked form gives the same set, in both shapes.
    const LegalSet in_play = LegalDestinationsInPlay(rules, pos, roll);
    RC_ASSERT(in_play.to == set.to);
    RC_ASSERT(in_play.stack_off == set.stack_off);
    if (rules.plain) {
      const LegalSet plain_in_play = LegalDestinationsInPlay<PlainShape>(rules, pos, roll);
      RC_ASSERT(plain_in_play.to == set.to);
      RC_ASSERT(plain_in_play.stack_off == set.stack_off);
    }
  }
  for (int k = 0; k < legal.size(); ++k) RC_ASSERT(NthLegalMove(rules, set, roll, k) == legal[k]);
  // ... and each move's place back, and none for a move not among them.
  for (int k = 0; k < legal.size(); ++k) RC_ASSERT(LegalMoveIndex(rules, set, roll, legal[k]) == k);
  for (int from = 0; from < kIndexSlots; ++from) {
    for (int to = 0; to < kIndexSlots; ++to) {
      const Move mv{static_cast<uint8_t>(from), static_cast<uint8_t>(to)};
      if (std::find(got.begin(), got.end(), mv) == got.end()) RC_ASSERT(LegalMoveIndex(rules, set, roll, mv) == -1);
    }
  }
  if (rules.plain) {
    // The plain rules' own move code gives the same moves.
    MoveList plain;
    LegalMoves<PlainShape>(rules, pos, roll, &plain);
    RC_ASSERT(std::vector<Move>(plain.begin(), plain.end()) == got);
    const LegalSet plain_set = LegalDestinations<PlainShape>(rules, pos, roll);
    RC_ASSERT(plain_set.to == set.to);
    RC_ASSERT(plain_set.stack_off == set.stack_off);
    for (int k = 0; k < legal.size(); ++k) {
      RC_ASSERT(NthLegalMove<PlainShape>(rules, plain_set, roll, k) == legal[k]);
    }
  }
}

// One applied move: bearing off, captures, turn, results, and the model's
// position.
void CheckAppliedMove(const Rules& rules, const Model& m, const Position& before, int roll, Move mv,
                      const MoveResult& result, const Position& after) {
  const Side me = before.to_move, opp = Other(me);
  const int L = rules.path_length, off = rules.off;
  CheckInvariants(rules, after);

  // Bearing off.
  RC_ASSERT(result.bore_off == (mv.to == off));
  if (mv.to == off) {
    const int n = after.count[me][off] - before.count[me][off];
    if (rules.bear_off_stack) {
      RC_ASSERT(int(mv.from) == L);
      RC_ASSERT(n == before.count[me][L]);
      RC_ASSERT(after.count[me][L] == 0);
    } else {
      RC_ASSERT(n == 1);
      RC_ASSERT(mv.from + roll == off);
    }
  } else {
    RC_ASSERT(after.count[me][off] == before.count[me][off]);
  }

  // Captures: only opponent pieces on the tile landed on, in the same phase,
  // never on a safe square; each goes back to waiting.
  int removed = 0;
  for (int j = 1; j <= L; ++j) {
    RC_ASSERT(after.count[opp][j] <= before.count[opp][j]);
    const int gone = before.count[opp][j] - after.count[opp][j];
    if (gone == 0) continue;
    removed += gone;
    RC_ASSERT(mv.to != off);
    RC_ASSERT(rules.tile[opp][j] == rules.tile[me][mv.to]);
    RC_ASSERT(rules.phase[j] == rules.phase[mv.to]);
    RC_ASSERT(((rules.safe_mask >> mv.to) & 1u) == 0);
    RC_ASSERT(after.count[opp][j] == 0);  // the whole stack goes
  }
  RC_ASSERT(result.captured == removed);
  RC_ASSERT(after.count[opp][0] - before.count[opp][0] == removed);
  RC_ASSERT(after.count[opp][off] == before.count[opp][off]);

  // Extra throws and the side to move.
  const bool rosette = mv.to != off && m.extra.count(mv.to) > 0;
  RC_ASSERT(result.rosette == rosette);
  RC_ASSERT(result.won == (after.count[me][off] == rules.pieces));
  if (result.won) {
    RC_ASSERT(!result.extra_roll);
    RC_ASSERT(IsOver(rules, after));
    RC_ASSERT(Winner(rules, after) == std::optional<Side>(me));
    RC_ASSERT(after.to_move == me);  // a finished game keeps its last mover
  } else {
    RC_ASSERT(!IsOver(rules, after));
    RC_ASSERT(result.extra_roll == (rosette || (removed > 0 && rules.capture_extra_roll)));
    // The side to move changes exactly when no extra throw was earned.
    RC_ASSERT((after.to_move != me) == !result.extra_roll);
  }

  // The whole position, against the model.
  const ModelResult expected = ModelApply(m, before, mv);
  RC_ASSERT(expected.captured == result.captured);
  RC_ASSERT(expected.extra_roll == result.extra_roll);
  RC_ASSERT(expected.won == result.won);
  RC_ASSERT(expected.pos == after);
}

// ---------------------------------------------------------------------------
// Playing.

struct Step {
  int roll;
  int choice;
};

std::ostream& operator<<(std::ostream& os, const Step& step) {
  return os << "{roll " << step.roll << ", choice " << step.choice << "}";
}

// One ply: throws `roll`, takes legal move number `choice % size` (or
// passes), checks everything when `check`. Returns false once the game is
// over (nothing was played).
bool PlayPly(const Rules& rules, const Model& m, Position* pos, int roll, int choice, bool check,
             MoveResult* result_out = nullptr) {
  if (IsOver(rules, *pos)) return false;
  MoveList legal;
  LegalMoves(rules, *pos, roll, &legal);
  const Position before = *pos;
  try {
    if (check) CheckLegalMoves(rules, m, before, roll, legal);
    if (legal.empty()) {
      PassTurn(pos);
      if (check) {
        RC_ASSERT(pos->to_move == Other(before.to_move));
        CheckInvariants(rules, *pos);
      }
      return true;
    }
    const Move mv = legal[choice % legal.size()];
    const MoveResult result = ApplyMove(rules, pos, mv);
    if (result_out) *result_out = result;
    if (check) CheckAppliedMove(rules, m, before, roll, mv, result, *pos);
    if (check && rules.plain) {
      // The plain rules' own move code, the same position and result.
      Position plain = before;
      const MoveResult plain_result = ApplyMove<PlainShape>(rules, &plain, mv);
      RC_ASSERT(plain == *pos);
      RC_ASSERT(plain_result.captured == result.captured);
      RC_ASSERT(plain_result.extra_roll == result.extra_roll);
      RC_ASSERT(plain_result.placed == result.placed);
      RC_ASSERT(plain_result.rosette == result.rosette);
      RC_ASSERT(plain_result.bore_off == result.bore_off);
      RC_ASSERT(plain_result.won == result.won);
    }
  } catch (...) {
    RC_LOG() << "before: " << Describe(m, before) << "\nroll " << roll << ", legal "
             << DescribeMoves(legal) << ", choice " << choice << "\nafter:  " << Describe(m, *pos)
             << "\n";
    throw;
  }
  return true;
}

// What a played game went through, to show that the properties see the
// interesting cases.
struct Seen {
  bool captured = false;
  bool extra_roll = false;
  bool bore_off = false;
  bool placed = false;
};

std::vector<Position> PlaySteps(const Rules& rules, const Model& m, Side first,
                                const std::vector<Step>& steps, bool check, Seen* seen = nullptr) {
  Position pos = StartPosition(rules, first);
  if (check) CheckInvariants(rules, pos);
  std::vector<Position> trace = {pos};
  for (const Step& step : steps) {
    MoveResult result;
    if (!PlayPly(rules, m, &pos, step.roll, step.choice, check, &result)) break;
    if (seen) {
      seen->captured |= result.captured > 0;
      seen->extra_roll |= result.extra_roll;
      seen->bore_off |= result.bore_off;
      seen->placed |= result.placed;
    }
    trace.push_back(pos);
  }
  return trace;
}

// ---------------------------------------------------------------------------
// Generating rulesets.

std::vector<std::string> PresetNames() {
  std::vector<std::string> names;
  for (const PresetInfo& p : Presets()) {
    names.push_back(p.id);
    for (const std::string& alias : p.aliases) names.push_back(alias);
  }
  return names;
}

std::string IndexList(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return absl::StrCat("[", absl::StrJoin(v, ","), "]");
}

// Groups of path indices that must be all safe or all unsafe (the loader
// refuses a tile safe for one piece and not for another): union of indices
// on one square, own or opponent's.
std::vector<std::vector<int>> SafetyGroups(const Model& m) {
  std::vector<int> parent(m.off);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (int i = 1; i <= m.length; ++i) {
    for (int j = 1; j <= m.length; ++j) {
      if (m.SameSquare(kLight, i, kDark, j) || m.SameSquare(kLight, i, kLight, j) ||
          m.SameSquare(kDark, i, kDark, j)) {
        parent[find(i)] = find(j);
      }
    }
  }
  std::vector<std::vector<int>> groups(m.off);
  for (int i = 1; i <= m.length; ++i) groups[find(i)].push_back(i);
  return groups;  // groups[root]: indices with that root; others empty
}

// A ruleset reference: a preset (or alias), or a preset with random valid
// overrides, e.g. "finkel(pieces=5,safe_shared=true,safe_squares=[4,8])".
std::string GenReference() {
  const std::string name = *rc::gen::elementOf(PresetNames());
  const bool plain = *rc::gen::weightedElement<bool>({{1, true}, {3, false}});
  if (plain) return name;
  auto base = LoadRuleset(name);
  RC_ASSERT(base.ok());
  const Model m = ModelOf((*base)->ruleset);
  const auto maybe = [] { return *rc::gen::weightedElement<bool>({{1, true}, {1, false}}); };
  std::vector<std::string> overrides;
  if (maybe()) overrides.push_back(absl::StrCat("pieces=", *rc::gen::inRange(1, kMaxPieces + 1)));
  for (const char* key : {"capture_extra_roll", "safe_shared", "stacking"}) {
    if (maybe()) {
      overrides.push_back(absl::StrCat(key, "=", *rc::gen::arbitrary<bool>() ? "true" : "false"));
    }
  }
  if (maybe()) {
    const auto squares = *rc::gen::container<std::vector<int>>(rc::gen::inRange(1, m.length + 1));
    overrides.push_back(absl::StrCat("extra_roll_squares=", IndexList(squares)));
  }
  if (maybe()) {
    // Whole safety groups, so that the loader accepts the list.
    const auto groups = SafetyGroups(m);
    const auto picks = *rc::gen::container<std::vector<int>>(rc::gen::inRange(1, m.length + 1));
    std::vector<int> squares;
    for (int i : picks) {
      for (const auto& g : groups) {
        if (std::find(g.begin(), g.end(), i) != g.end()) {
          squares.insert(squares.end(), g.begin(), g.end());
        }
      }
    }
    overrides.push_back(absl::StrCat("safe_squares=", IndexList(squares)));
  }
  if (maybe()) {
    std::vector<int> nonzero;
    for (int r : m.rolls) {
      if (r > 0) nonzero.push_back(r);
    }
    const auto rolls = *rc::gen::container<std::vector<int>>(rc::gen::elementOf(nonzero));
    overrides.push_back(absl::StrCat("entry_rolls=", IndexList(rolls)));
  }
  if (overrides.empty()) return name;
  return absl::StrCat(name, "(", absl::StrJoin(overrides, ","), ")");
}

struct Loaded {
  std::shared_ptr<const Rules> rules;
  Model model;
};

Loaded LoadOrFail(const std::string& reference) {
  std::vector<FieldProblem> problems;
  auto loaded = LoadRuleset(reference, &problems);
  if (!loaded.ok()) RC_LOG() << "refused: " << loaded.status() << "\n";
  RC_ASSERT(loaded.ok());
  Loaded out{*loaded, ModelOf((*loaded)->ruleset)};
  CheckTables(*out.rules, out.model);
  return out;
}

// ---------------------------------------------------------------------------
// The properties.

// RapidCheck throws and choices; every ply checked; the same throws and
// choices replayed, with the same rules and with rules built afresh, give
// the same positions.
RC_GTEST_PROP(EngineProperties, GeneratedPlayKeepsEveryContract, ()) {
  const std::string reference = GenReference();
  RC_LOG() << "ruleset " << reference << "\n";
  const Loaded loaded = LoadOrFail(reference);
  const Rules& rules = *loaded.rules;
  const Model& m = loaded.model;
  RC_CLASSIFY(reference.find('(') != std::string::npos, "overridden");
  const Side first = *rc::gen::arbitrary<bool>() ? kDark : kLight;
  const auto step_gen =
      rc::gen::construct<Step>(rc::gen::elementOf(m.rolls), rc::gen::inRange(0, kIndexSlots));
  const auto steps = *rc::gen::scale(20.0, rc::gen::container<std::vector<Step>>(step_gen));

  Seen seen;
  const std::vector<Position> trace = PlaySteps(rules, m, first, steps, /*check=*/true, &seen);
  RC_CLASSIFY(IsOver(rules, trace.back()), "finished");
  RC_CLASSIFY(seen.captured, "captured");
  RC_CLASSIFY(seen.bore_off, "bore off");
  RC_CLASSIFY(seen.placed, "placed");
  RC_ASSERT(PlaySteps(rules, m, first, steps, /*check=*/false) == trace);
  const auto fresh = std::make_unique<Rules>(rules.ruleset, rules.digest);
  RC_ASSERT(PlaySteps(*fresh, m, first, steps, /*check=*/false) == trace);
}

// Whether neither side can ever move again: no throw gives either side a
// legal move (the engine's moves, which CheckLegalMoves compares with the
// model's, agree with the model here too).
bool DeadPosition(const Rules& rules, const Model& m, const Position& pos) {
  for (Side s : {kLight, kDark}) {
    Position p = pos;
    p.to_move = s;
    for (const RollOutcome& o : rules.outcomes) {
      MoveList legal;
      LegalMoves(rules, p, o.roll, &legal);
      RC_ASSERT(legal.empty() == ModelMoves(m, p, o.roll).empty());
      if (!legal.empty()) return false;
    }
  }
  return true;
}

// Whether a piece can stand on a safe square and so keep an opponent's piece
// from landing there (unshared safe squares that both paths visit).
bool OpponentCanBlock(const Model& m) {
  if (m.safe_shared) return false;
  for (int i : m.safe) {
    for (int j = 1; j <= m.length; ++j) {
      if (m.SameSquare(kLight, i, kDark, j)) return true;
    }
  }
  return false;
}

enum class Ending { kWon, kDead, kStalled };

// A whole game of `rules` played by scribe::Rng from `seed`, every ply
// checked. It ends within kMaxPlies with one winner, who has every piece off
// while the loser has not. Only when `allow_stuck`, two other endings are
// accepted, both found with random overrides: a dead position (no throw ever
// moves a piece of either side; checked), and, where pieces on unshared safe
// squares can block each other, a game still going at kMaxPlies (e.g. the
// pieces frozen but two fighting over one square for ever).
Ending PlayWholeGame(const Loaded& loaded, uint64_t seed, Side first, bool allow_stuck) {
  const Rules& rules = *loaded.rules;
  const Model& m = loaded.model;
  Rng rng(seed);
  Position pos = StartPosition(rules, first);
  int plies = 0;
  int wins = 0;
  int passes_in_a_row = 0;
  Side last_mover = first;
  while (!IsOver(rules, pos) && plies < kMaxPlies) {
    const int roll = rng.Throw(rules);
    RC_ASSERT(rules.CanRoll(roll));
    MoveList legal;
    LegalMoves(rules, pos, roll, &legal);
    const int choice = legal.empty() ? 0 : rng.Below(legal.size());
    last_mover = pos.to_move;
    MoveResult result;
    RC_ASSERT(PlayPly(rules, m, &pos, roll, choice, /*check=*/true, &result));
    wins += result.won;
    ++plies;
    passes_in_a_row = legal.empty() ? passes_in_a_row + 1 : 0;
    if (passes_in_a_row >= 8 && DeadPosition(rules, m, pos)) {
      RC_LOG() << "dead after " << plies << " plies: " << Describe(m, pos) << "\n";
      RC_ASSERT(allow_stuck);
      RC_ASSERT(wins == 0);
      return Ending::kDead;
    }
  }
  if (!IsOver(rules, pos) && allow_stuck && OpponentCanBlock(m)) {
    RC_ASSERT(wins == 0);
    return Ending::kStalled;
  }
  if (!IsOver(rules, pos)) RC_LOG() << "unfinished: " << Describe(m, pos) << "\n";
  RC_ASSERT(IsOver(rules, pos));
  RC_ASSERT(wins == 1);
  const std::optional<Side> winner = Winner(rules, pos);
  RC_ASSERT(winner.has_value());
  RC_ASSERT(*winner == last_mover);
  RC_ASSERT(int(pos.count[*winner][rules.off]) == rules.pieces);
  RC_ASSERT(int(pos.count[Other(*winner)][rules.off]) < rules.pieces);
  for (int i = 0; i <= rules.path_length; ++i) RC_ASSERT(pos.count[*winner][i] == 0);
  // Nothing moves in a finished game, whoever is to move.
  for (Side s : {kLight, kDark}) {
    Position p = pos;
    p.to_move = s;
    for (const RollOutcome& o : rules.outcomes) {
      MoveList legal;
      LegalMoves(rules, p, o.roll, &legal);
      RC_ASSERT(legal.empty());
    }
  }
  return Ending::kWon;
}

// Every preset, one whole game each per case.
RC_GTEST_PROP(EngineProperties, EveryPresetGameEndsWithOneWinner, ()) {
  for (const PresetInfo& p : Presets()) {
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    RC_LOG() << "ruleset " << p.id << " seed " << seed << "\n";
    PlayWholeGame(LoadOrFail(p.id), seed, kLight, /*allow_stuck=*/false);
  }
}

// Presets and random overrides, whole games.
RC_GTEST_PROP(EngineProperties, OverriddenGameEndsWithOneWinner, ()) {
  const std::string reference = GenReference();
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  const Side first = *rc::gen::arbitrary<bool>() ? kDark : kLight;
  RC_LOG() << "ruleset " << reference << " seed " << seed << "\n";
  const Ending ending = PlayWholeGame(LoadOrFail(reference), seed, first, /*allow_stuck=*/true);
  RC_CLASSIFY(ending == Ending::kDead, "dead position");
  RC_CLASSIFY(ending == Ending::kStalled, "stalled");
}

// The same seed gives the same game, the same positions.
RC_GTEST_PROP(EngineProperties, SameSeedSameGame, ()) {
  const std::string reference = GenReference();
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  RC_LOG() << "ruleset " << reference << " seed " << seed << "\n";
  const Loaded loaded = LoadOrFail(reference);
  auto play = [&] {
    Rng rng(seed);
    Position pos = StartPosition(*loaded.rules);
    std::vector<Position> trace = {pos};
    for (int plies = 0; plies < kMaxPlies && !IsOver(*loaded.rules, pos); ++plies) {
      const int roll = rng.Throw(*loaded.rules);
      MoveList legal;
      LegalMoves(*loaded.rules, pos, roll, &legal);
      if (legal.empty()) {
        PassTurn(&pos);
      } else {
        ApplyMove(*loaded.rules, &pos, legal[rng.Below(legal.size())]);
      }
      trace.push_back(pos);
    }
    return trace;
  };
  const std::vector<Position> first = play();
  RC_ASSERT(first.size() > 1u);
  RC_ASSERT(play() == first);
}

// The benchmark's playout (bench/playout.h: no test for the end before each
// throw, the game ends on the move ApplyMove calls a win) plays the same
// games as a loop over the engine's checked calls, for every preset, both
// ways of picking the move: same throws, same final position, one winner.
RC_GTEST_PROP(EngineProperties, BenchmarkPlayoutPlaysTheCheckedGame, ()) {
  for (const PresetInfo& p : Presets()) {
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    RC_LOG() << "ruleset " << p.id << " seed " << seed << "\n";
    const Loaded loaded = LoadOrFail(p.id);
    const Rules& rules = *loaded.rules;
    Rng checked_rng(seed);
    Position checked = StartPosition(rules);
    uint64_t checked_throws = 0;
    while (!IsOver(rules, checked)) {
      RC_ASSERT(checked_throws < uint64_t{kMaxPlies});
      const uint64_t r = checked_rng.Next();
      const int roll = rules.roll_for_bits[r >> (64 - rules.dice_count)];
      ++checked_throws;
      MoveList legal;
      LegalMoves(rules, checked, roll, &legal);
      if (legal.empty()) {
        PassTurn(&checked);
        continue;
      }
      const uint64_t k = ((r & 0xffffffffu) * legal.size()) >> 32;
      ApplyMove(rules, &checked, legal[static_cast<int>(k)]);
    }
    for (const bool nth : {true, false}) {
      Rng rng(seed);
      Position pos = StartPosition(rules);
      const uint64_t throws = nth ? Playout<true>(rules, rng, &pos) : Playout<false>(rules, rng, &pos);
      RC_ASSERT(throws == checked_throws);
      RC_ASSERT(pos == checked);
      // A finished game plays no further throw.
      RC_ASSERT((nth ? Playout<true>(rules, rng, &pos) : Playout<false>(rules, rng, &pos)) == 0u);
    }
    RC_ASSERT(Winner(rules, checked).has_value());
  }
}

// The generator of overrides makes rulesets the loader accepts (a plain
// check that GenReference is not vacuous: most cases carry overrides).
TEST(EngineProperties, OverrideExamplesLoad) {
  for (const char* reference :
       {"finkel(pieces=5,safe_shared=true,safe_squares=[4,8])",
        "murray(safe_squares=[4,24],stacking=true)", "turnover(stacking=false,pieces=15)",
        "finkel-blank4(entry_rolls=[4])", "sawah(extra_roll_squares=[],capture_extra_roll=true)"}) {
    auto loaded = LoadRuleset(reference);
    EXPECT_TRUE(loaded.ok()) << reference << ": " << loaded.status();
  }
  // A contradiction the generator avoids: B4 is index 8 and index 20 of
  // murray's path.
  EXPECT_FALSE(LoadRuleset("murray(safe_squares=[8])").ok());
}

}  // namespace
}  // namespace scribe
