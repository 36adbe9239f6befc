// The engine's invariants, checked step by step by the engine and position
// string fuzz targets.
//
// Besides the contracts engine/position.h states (sorted unique legal
// moves, pieces conserved, CheckPosition clean, LegalDestinations and
// IsLegalMove saying the same as LegalMoves), every legal move list and
// every applied move is compared with a reference: a deliberately plain
// reading of docs/rulesets.md ("How a game is played under a ruleset"),
// piece by piece over the resolved ruleset proto, with none of the engine's
// bit tables. A difference is reported with the position, the throw and
// both answers.
#ifndef SCRIBE_FUZZ_ENGINE_CHECKS_H_
#define SCRIBE_FUZZ_ENGINE_CHECKS_H_

#include <algorithm>
#include <bit>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/board.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"
#include "fuzz/fuzz_util.h"
#include "records/position_string.h"
#include "records/referee.h"

namespace scribe::fuzz {

// The rules as the documentation states them, straight from the proto.
struct PlainRules {
  int length = 0;  // L
  int off = 0;     // L+1
  int pieces = 0;
  // square[s][i]: tile and phase of side s's index i; equal squares meet.
  int square[2][kIndexSlots] = {};
  bool safe[kIndexSlots] = {};
  bool extra[kIndexSlots] = {};
  bool auto_place[kIndexSlots] = {};
  int auto_place_to = 1;
  bool entry[kMaxRoll + 1] = {};
  std::vector<int> rolls;  // distinct throws the dice can give, ascending
  bool stacking = false;
  bool safe_shared = false;
  bool capture_extra_roll = false;
  bool stack_bear_off = false;
  int bear_off_roll = 0;

  SCRIBE_FUZZ_NO_COVERAGE explicit PlainRules(const v1::Ruleset& r) {
    length = r.path_size();
    off = length + 1;
    pieces = r.pieces();
    for (int i = 1; i <= length; ++i) {
      int phase = 0;
      for (int start : r.phase_starts()) phase += i >= start ? 1 : 0;
      // Tile ids are below 64: a square is tile * 64 + phase.
      square[kLight][i] = *ParseTileName(r.path(i - 1)) * 64 + phase;
      square[kDark][i] = *ParseTileName(r.dark_path(i - 1)) * 64 + phase;
    }
    for (int i : r.safe_squares()) safe[i] = true;
    for (int i : r.extra_roll_squares()) extra[i] = true;
    for (int i : r.auto_place_squares()) auto_place[i] = true;
    auto_place_to = r.auto_place_to();
    for (int v : r.dice().roll_for_marks()) rolls.push_back(v);
    std::sort(rolls.begin(), rolls.end());
    rolls.erase(std::unique(rolls.begin(), rolls.end()), rolls.end());
    if (r.entry_rolls_size() == 0) {
      for (int v : rolls) entry[v] = v > 0;
    } else {
      for (int v : r.entry_rolls()) entry[v] = true;
    }
    stacking = r.stacking();
    safe_shared = r.safe_shared();
    capture_extra_roll = r.capture_extra_roll();
    stack_bear_off = r.bear_off() == v1::BEAR_OFF_STACK_FROM_LAST;
    bear_off_roll = r.bear_off_roll();
  }

  // Whether side `s` has a piece on the square of `square_id`, not
  // counting `except` (an index of s's path, or -1).
  SCRIBE_FUZZ_NO_COVERAGE bool Occupies(const Position& pos, Side s, int square_id,
                                        int except) const {
    for (int j = 1; j <= length; ++j) {
      if (j != except && pos.count[s][j] > 0 && square[s][j] == square_id) return true;
    }
    return false;
  }

  SCRIBE_FUZZ_NO_COVERAGE bool IsOver(const Position& pos) const {
    return pos.count[kLight][off] == pieces || pos.count[kDark][off] == pieces;
  }

  // At most one move per source index: a MoveList holds them (no heap
  // allocation per step, which would swell AddressSanitizer's quarantine).
  SCRIBE_FUZZ_NO_COVERAGE MoveList LegalMoves(const Position& pos, int roll) const {
    MoveList out;
    if (roll <= 0 || IsOver(pos)) return out;
    const Side me = pos.to_move;
    const Side opp = Other(me);
    for (int from = 0; from <= length; ++from) {
      if (from == 0 ? (pos.count[me][0] == 0 || !entry[roll]) : pos.count[me][from] == 0) continue;
      const int to = from + roll;
      if (stack_bear_off) {
        // Only the exact landing on L, and from L only bear_off_roll.
        if (from == length) {
          if (roll == bear_off_roll) out.push_back(Move{uint8_t(from), uint8_t(off)});
          continue;
        }
        if (to > length) continue;
      } else {
        if (to > off) continue;
        if (to == off) {
          out.push_back(Move{uint8_t(from), uint8_t(off)});
          continue;
        }
      }
      const int target = square[me][to];
      if (!stacking && Occupies(pos, me, target, from)) continue;
      if (safe[to] && !safe_shared && Occupies(pos, opp, target, -1)) continue;
      out.push_back(Move{uint8_t(from), uint8_t(to)});
    }
    return out;
  }

  SCRIBE_FUZZ_NO_COVERAGE MoveResult Apply(Position* pos, Move m) const {
    MoveResult result;
    const Side me = pos->to_move;
    const Side opp = Other(me);
    if (m.to == off) {
      const int n = stack_bear_off ? pos->count[me][m.from] : 1;
      pos->count[me][m.from] = uint8_t(pos->count[me][m.from] - n);
      pos->count[me][off] = uint8_t(pos->count[me][off] + n);
      result.bore_off = true;
      result.won = pos->count[me][off] == pieces;
      if (!result.won) pos->to_move = opp;
      SetOccupancy(pos);
      return result;
    }
    --pos->count[me][m.from];
    const int target = square[me][m.to];
    if (!safe[m.to]) {
      for (int j = 1; j <= length; ++j) {
        if (square[opp][j] != target || pos->count[opp][j] == 0) continue;
        result.captured += pos->count[opp][j];
        pos->count[opp][0] = uint8_t(pos->count[opp][0] + pos->count[opp][j]);
        pos->count[opp][j] = 0;
      }
    }
    ++pos->count[me][m.to];
    result.rosette = extra[m.to];
    if (auto_place[m.to] && pos->count[me][0] > 0) {
      const int place = square[me][auto_place_to];
      const bool own_there = Occupies(*pos, me, place, -1);
      const bool opp_there = Occupies(*pos, opp, place, -1);
      if ((stacking || !own_there) && (!opp_there || (safe[auto_place_to] && safe_shared))) {
        --pos->count[me][0];
        ++pos->count[me][auto_place_to];
        result.placed = true;
      }
    }
    result.extra_roll = result.rosette || (result.captured > 0 && capture_extra_roll);
    if (!result.extra_roll) pos->to_move = opp;
    SetOccupancy(pos);
    return result;
  }

  SCRIBE_FUZZ_NO_COVERAGE void SetOccupancy(Position* pos) const {
    for (int s = 0; s < 2; ++s) {
      pos->occ[s] = 0;
      for (int i = 1; i <= length; ++i) {
        if (pos->count[s][i] > 0) pos->occ[s] |= 1u << i;
      }
    }
  }
};

inline std::string MovesText(const Move* begin, const Move* end) {
  std::vector<std::string> parts;
  for (const Move* m = begin; m != end; ++m) parts.push_back(absl::StrCat(m->from, "->", m->to));
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

inline std::string Where(const Rules& rules, const Position& pos, int roll) {
  return absl::StrCat("ruleset ", rules.ruleset.id(), ", position \"", PositionToString(rules, pos),
                      "\", throw ", roll);
}

inline std::string ResultText(const MoveResult& r) {
  return absl::StrCat("captured=", r.captured, " extra_roll=", r.extra_roll, " placed=", r.placed,
                      " rosette=", r.rosette, " bore_off=", r.bore_off, " won=", r.won);
}

// The engine's inline hot functions, kept out of line so that they keep
// their coverage instrumentation inside the uninstrumented checkers below.
[[gnu::noinline]] inline void EngineLegalMoves(const Rules& rules, const Position& pos, int roll,
                                               MoveList* out) {
  LegalMoves(rules, pos, roll, out);
}
[[gnu::noinline]] inline LegalSet EngineLegalDestinations(const Rules& rules, const Position& pos,
                                                          int roll) {
  return LegalDestinations(rules, pos, roll);
}
[[gnu::noinline]] inline MoveResult EngineApplyMove(const Rules& rules, Position* pos, Move m) {
  return ApplyMove(rules, pos, m);
}

// The dice tables agree with the proto.
SCRIBE_FUZZ_NO_COVERAGE inline void CheckDiceTables(const Rules& rules, const PlainRules& plain) {
  std::vector<int> rolls;
  int total = 0;
  for (const RollOutcome& o : rules.outcomes) {
    rolls.push_back(o.roll);
    total += o.weight;
    FUZZ_CHECK(rules.CanRoll(o.roll), "outcome ", o.roll, " not in possible_rolls");
  }
  FUZZ_CHECK(rolls == plain.rolls, "outcomes ", absl::StrJoin(rolls, ","), " but the dice give ",
             absl::StrJoin(plain.rolls, ","), " (", rules.ruleset.id(), ")");
  FUZZ_CHECK(total == (1 << rules.dice_count), "outcome weights sum to ", total, " for ",
             rules.dice_count, " dice");
  for (uint32_t bits = 0; bits < (1u << rules.dice_count); ++bits) {
    FUZZ_CHECK(
        rules.roll_for_bits[bits] == rules.ruleset.dice().roll_for_marks(std::popcount(bits)),
        "roll_for_bits[", bits, "] is ", int(rules.roll_for_bits[bits]));
  }
}

// LegalMoves for `roll` in `pos`, checked against the contracts and the
// plain rules.
SCRIBE_FUZZ_NO_COVERAGE inline MoveList CheckedLegalMoves(const Rules& rules,
                                                          const PlainRules& plain,
                                                          const Position& pos, int roll) {
  MoveList moves;
  EngineLegalMoves(rules, pos, roll, &moves);
  const Side me = pos.to_move;
  for (int k = 0; k < moves.size(); ++k) {
    const Move m = moves[k];
    FUZZ_CHECK(k == 0 || moves[k - 1] < m,
               "legal moves not sorted and unique: ", MovesText(moves.begin(), moves.end()), " at ",
               Where(rules, pos, roll));
    FUZZ_CHECK(m.from <= rules.path_length && m.to > m.from && m.to <= rules.off, "move ", m.from,
               "->", m.to, " out of range at ", Where(rules, pos, roll));
    FUZZ_CHECK(pos.count[me][m.from] > 0, "move ", m.from, "->", m.to,
               " moves a piece that is not there at ", Where(rules, pos, roll));
    if (m.to == rules.off) {
      const bool exact = !rules.bear_off_stack && m.to - m.from == roll;
      const bool stack =
          rules.bear_off_stack && m.from == rules.path_length && roll == rules.bear_off_roll;
      FUZZ_CHECK(exact || stack, "bearing off ", m.from, "->", m.to,
                 " neither by the exact count nor by the stack rule at ", Where(rules, pos, roll));
    } else {
      FUZZ_CHECK(m.to - m.from == roll, "move ", m.from, "->", m.to, " is not ", roll,
                 " squares at ", Where(rules, pos, roll));
    }
    FUZZ_CHECK(Destination(rules, m.from, roll) == m.to, "Destination(", m.from, ", ", roll,
               ") is ", Destination(rules, m.from, roll), " but the move goes to ", m.to);
  }
  // The referee's set form (LegalDestinations, IsLegalMove) says the same:
  // every listed move is in it, no other move of `roll` steps or off.
  const LegalSet set = EngineLegalDestinations(rules, pos, roll);
  FUZZ_CHECK(set.empty() == moves.empty(), "LegalDestinations is ", set.empty() ? "" : "not ",
             "empty, LegalMoves gives ", MovesText(moves.begin(), moves.end()), " at ",
             Where(rules, pos, roll));
  for (int from = 0; from <= rules.path_length; ++from) {
    for (const int to : {from + roll, rules.off}) {
      const Move m{uint8_t(from), uint8_t(to)};
      const bool listed = std::find(moves.begin(), moves.end(), m) != moves.end();
      FUZZ_CHECK(IsLegalMove(rules, set, roll, m) == listed, "IsLegalMove says ", from, "->", to,
                 listed ? " is not" : " is", " legal, LegalMoves gives ",
                 MovesText(moves.begin(), moves.end()), " at ", Where(rules, pos, roll));
    }
  }
  FUZZ_CHECK(LegalCount(set) == moves.size(), "LegalCount is ", LegalCount(set), ", LegalMoves gives ",
             MovesText(moves.begin(), moves.end()), " at ", Where(rules, pos, roll));
  for (int k = 0; k < moves.size(); ++k) {
    const Move nth = NthLegalMove(rules, set, roll, k);
    FUZZ_CHECK(nth == moves[k], "NthLegalMove(", k, ") is ", int(nth.from), "->", int(nth.to), ", LegalMoves gives ",
               MovesText(moves.begin(), moves.end()), " at ", Where(rules, pos, roll));
  }
  const MoveList expected = plain.LegalMoves(pos, roll);
  FUZZ_CHECK(std::equal(moves.begin(), moves.end(), expected.begin(), expected.end()),
             "LegalMoves gives ", MovesText(moves.begin(), moves.end()),
             ", the rules as documented give ", MovesText(expected.begin(), expected.end()), " at ",
             Where(rules, pos, roll));
  return moves;
}

// Applies a legal move and checks the result against the contracts and
// the plain rules.
SCRIBE_FUZZ_NO_COVERAGE inline MoveResult CheckedApply(const Rules& rules, const PlainRules& plain,
                                                       Position* pos, Move m, int roll) {
  const Position before = *pos;
  const Side me = before.to_move;
  const Side opp = Other(me);
  const MoveResult result = EngineApplyMove(rules, pos, m);
  // Built only for a report.
  const auto where = [&] {
    return absl::StrCat(Where(rules, before, roll), ", move ", m.from, "->", m.to, " (",
                        ResultText(result), ")");
  };
  const std::string problem = CheckPosition(rules, *pos);
  FUZZ_CHECK(problem.empty(), "CheckPosition after the move: ", problem, " at ", where());
  for (Side s : {kLight, kDark}) {
    int total = 0;
    for (int i = 0; i <= rules.off; ++i) total += pos->count[s][i];
    FUZZ_CHECK(total == rules.pieces, SideName(s), " has ", total, " pieces at ", where());
  }
  if (result.captured > 0) {
    FUZZ_CHECK(!rules.IsSafe(m.to), "a capture on safe index ", m.to, " at ", where());
    FUZZ_CHECK(pos->count[opp][0] == before.count[opp][0] + result.captured,
               "captured pieces are not all back waiting at ", where());
  }
  FUZZ_CHECK(result.bore_off == (m.to == rules.off), "bore_off is wrong at ", where());
  if (result.bore_off) {
    FUZZ_CHECK(result.captured == 0 && !result.extra_roll && !result.placed,
               "bearing off did more than bear off at ", where());
  }
  FUZZ_CHECK(result.won == (pos->count[me][rules.off] == rules.pieces), "won is wrong at ",
             where());
  if (result.won) {
    FUZZ_CHECK(Winner(rules, *pos) == me && IsOver(rules, *pos), "no winner after won at ",
               where());
  } else {
    FUZZ_CHECK(pos->to_move == (result.extra_roll ? me : opp), "the turn ",
               result.extra_roll ? "passed after another throw was earned" : "did not pass", " at ",
               where());
  }
  Position expected = before;
  const MoveResult expected_result = plain.Apply(&expected, m);
  FUZZ_CHECK(*pos == expected && result.captured == expected_result.captured &&
                 result.extra_roll == expected_result.extra_roll &&
                 result.placed == expected_result.placed &&
                 result.bore_off == expected_result.bore_off && result.won == expected_result.won,
             "ApplyMove gives \"", PositionToString(rules, *pos), "\" (", ResultText(result),
             "), the rules as documented give \"", PositionToString(rules, expected), "\" (",
             ResultText(expected_result), ") at ", where());
  return result;
}

// A finished game: the winner has every piece off, the loser not, and
// nothing moves any more.
SCRIBE_FUZZ_NO_COVERAGE inline void CheckFinished(const Rules& rules, const Position& pos) {
  const std::optional<Side> winner = Winner(rules, pos);
  FUZZ_CHECK(winner.has_value(), "IsOver without a winner at \"", PositionToString(rules, pos),
             "\"");
  FUZZ_CHECK(pos.count[*winner][rules.off] == rules.pieces &&
                 pos.count[Other(*winner)][rules.off] < rules.pieces,
             "the game ended but the pieces off are ", int(pos.count[kLight][rules.off]), " and ",
             int(pos.count[kDark][rules.off]), " of ", rules.pieces);
  for (const RollOutcome& o : rules.outcomes) {
    MoveList moves;
    EngineLegalMoves(rules, pos, o.roll, &moves);
    FUZZ_CHECK(moves.empty(), "a legal move after the end at ", Where(rules, pos, o.roll));
  }
}

}  // namespace scribe::fuzz

#endif  // SCRIBE_FUZZ_ENGINE_CHECKS_H_
