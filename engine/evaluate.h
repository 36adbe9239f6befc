// A heuristic evaluation of moves, for any ruleset: what the computer
// opponent of turnover's source weighs ("progress, capture, how exposed the
// piece is to a throw of 1, 4 or 5, and the way off";
// docs/rulesets.md#sources-of-turnover), generalised to every ruleset
// the engine plays and measured in one unit, the pip (one square of a
// piece's path; see docs/annotation.md for the terms and why these weights).
//
// The score of a move is the sum of its terms:
//
//   progress     pips the mover gains in the race (squares the moved piece or
//                stack goes forward, and a placed piece's first square)
//   capture      pips the opponent loses: the path index of every captured
//                piece (its progress, which it must make again)
//   extra_throw  another throw earned: worth the dice's mean throw, in pips
//   placement    a waiting piece placed on the board (turnover's rosettes):
//                worth the throw that would have brought it on, the mean
//   safety       +1 for ending on a safe square the opponent also walks,
//                -1 for leaving one
//   exposure     expected pips the moved piece loses to the opponent's next
//                throw, where it stood minus where it lands: the exact chance,
//                from the dice's outcomes, that some opponent piece can land
//                on its square with a capture, times its path index
//   way_off      +1 per piece borne off, +1 for reaching the last stretch of
//                the path that no opponent piece can reach with a capture
//
// With the default weights every term is a multiple of 1/2^dice_count
// (chances are weights out of 2^dice_count), so scores are exact in a
// double: equal moves tie exactly. The same position and throw always give
// the same scores.
//
// Nothing here reads files or records.
#ifndef SCRIBE_ENGINE_EVALUATE_H_
#define SCRIBE_ENGINE_EVALUATE_H_

#include <vector>

#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"

namespace scribe {

// How much each term counts. The defaults (docs/annotation.md explains
// them) make every term a number of pips; a weight of 0 drops a term.
struct EvaluationWeights {
  double progress = 1.0;
  double capture = 1.0;
  double extra_throw = 1.0;  // times the mean throw
  double placement = 1.0;    // times the mean throw
  double safety = 1.0;
  double exposure = 1.0;
  double bear_off = 1.0;     // per piece borne off
  double home = 1.0;         // reaching the uncontested last stretch
};

// One legal move and its score, with the terms that make it up (each
// already weighted; score is their sum).
struct MoveEvaluation {
  Move move;
  double score = 0;
  double progress = 0;
  double capture = 0;
  double extra_throw = 0;
  double placement = 0;
  double safety = 0;
  double exposure = 0;
  double way_off = 0;
};

// Pips each side still needs to bring every piece off: the sum over its
// pieces of (L+1 - path index), a waiting piece counting L+1 and a
// borne-off piece 0.
struct RaceStanding {
  int light = 0;
  int dark = 0;
  int of(Side s) const { return s == kLight ? light : dark; }
  friend bool operator==(const RaceStanding& a, const RaceStanding& b) {
    return a.light == b.light && a.dark == b.dark;
  }
};

RaceStanding Race(const Rules& rules, const Position& pos);

// The dice's mean throw (0s included), in pips.
double MeanThrow(const Rules& rules);

// The chance, as a weight out of 2^dice_count, that `attacker` throwing next
// in `pos` has a legal move that captures the piece of the other side on
// its path index `index` (1..L). 0 where no capture is possible: a safe
// square, a square no opponent path shares, no opponent piece in reach.
// Whose turn `pos` says it is does not matter.
int CaptureWeight(const Rules& rules, const Position& pos, Side attacker, int index);

// The first path index of the last stretch: every index from it to L is a
// square where no opponent piece can capture (not shared, or safe). L+1
// when even the last square can be attacked.
int HomeStretchStart(const Rules& rules, Side side);

// Scores one legal move of the side to move (a move from LegalMoves for
// this position).
MoveEvaluation EvaluateMove(const Rules& rules, const Position& pos, Move move,
                            const EvaluationWeights& weights = {});

// Every legal move for `roll`, in LegalMoves order, scored. Empty when the
// throw has no move.
std::vector<MoveEvaluation> EvaluateMoves(const Rules& rules, const Position& pos, int roll,
                                          const EvaluationWeights& weights = {});

// The same, best first: by score, highest first; equal scores keep the
// LegalMoves order (lower `from` first). Deterministic.
std::vector<MoveEvaluation> RankMoves(const Rules& rules, const Position& pos, int roll,
                                      const EvaluationWeights& weights = {});

}  // namespace scribe

#endif  // SCRIBE_ENGINE_EVALUATE_H_
