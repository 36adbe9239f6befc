// Winning chances: the one interface behind exact analysis (a solved table,
// analysis/table.h), estimates (an expectimax search, engine/search.h) and
// the computer opponents built on them.
//
// A value is the chance, in [0, 1], that the side to move in a position
// wins, before it throws, when both sides play on as the evaluator assumes
// (perfectly, for a solved table). A finished game is worth 1 to its winner
// (who stays the side to move, see ApplyMove) and 0 to the loser.
//
// Nothing here reads files.
#ifndef SCRIBE_ENGINE_EVALUATOR_H_
#define SCRIBE_ENGINE_EVALUATOR_H_

#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"

namespace scribe {

class Evaluator {
 public:
  virtual ~Evaluator() = default;

  // The chance that the side to move in `pos` wins, before it throws.
  virtual double Value(const Position& pos) const = 0;

  // True when values are exact (a solved table), false for estimates.
  virtual bool exact() const = 0;

  // What the values come from, for people: "table finkel 3f2c…",
  // "search depth 2 + heuristic".
  virtual std::string name() const = 0;

  // The rules the evaluator answers for.
  virtual const Rules& rules() const = 0;
};

// The value of a finished game for its side to move: 1 if that side has
// borne off every piece, 0 if the other side has. Unspecified otherwise.
inline double FinishedValue(const Rules& rules, const Position& pos) {
  return pos.count[pos.to_move][rules.off] == rules.pieces ? 1.0 : 0.0;
}

// The value, for the side that moves, of playing `move` in `pos` (a legal
// move for some throw): 1 for a winning move; the value of the position
// after it when the move earns another throw; else 1 minus the opponent's
// value of the position after it.
double ValueAfterMove(const Evaluator& evaluator, const Position& pos, Move move);

// The value, for the side to move, of passing (a throw of 0 or a throw with
// no legal move): 1 minus the opponent's value of the same position.
double ValueAfterPass(const Evaluator& evaluator, const Position& pos);

struct ValuedMove {
  Move move;
  double value = 0;  // ValueAfterMove
};

// Every legal move for `roll`, best first (highest value; equal values keep
// the LegalMoves order). Empty when the throw has no move.
std::vector<ValuedMove> RankMovesByValue(const Evaluator& evaluator, const Position& pos, int roll);

// The value, for the side to move, of having thrown `roll`: the best move's
// value, or the pass value when the throw has no move.
double ValueOfThrow(const Evaluator& evaluator, const Position& pos, int roll);

// The expected value over the dice of ValueOfThrow: what Value(pos) is for
// an exact table (up to its rounding), computed one ply deeper.
double ExpectedValueOverThrows(const Evaluator& evaluator, const Position& pos);

}  // namespace scribe

#endif  // SCRIBE_ENGINE_EVALUATOR_H_
