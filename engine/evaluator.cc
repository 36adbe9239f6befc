#include "engine/evaluator.h"

#include <algorithm>

namespace scribe {

double ValueAfterMove(const Evaluator& evaluator, const Position& pos, Move move) {
  const Rules& rules = evaluator.rules();
  Position next = pos;
  const MoveResult result = ApplyMove(rules, &next, move);
  if (result.won) return 1.0;
  const double v = evaluator.Value(next);
  return result.extra_roll ? v : 1.0 - v;
}

double ValueAfterPass(const Evaluator& evaluator, const Position& pos) {
  Position next = pos;
  PassTurn(&next);
  return 1.0 - evaluator.Value(next);
}

std::vector<ValuedMove> RankMovesByValue(const Evaluator& evaluator, const Position& pos, int roll) {
  MoveList moves;
  LegalMoves(evaluator.rules(), pos, roll, &moves);
  std::vector<ValuedMove> ranked;
  ranked.reserve(moves.size());
  for (const Move& m : moves) ranked.push_back({m, ValueAfterMove(evaluator, pos, m)});
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const ValuedMove& a, const ValuedMove& b) { return a.value > b.value; });
  return ranked;
}

double ValueOfThrow(const Evaluator& evaluator, const Position& pos, int roll) {
  MoveList moves;
  LegalMoves(evaluator.rules(), pos, roll, &moves);
  if (moves.empty()) return ValueAfterPass(evaluator, pos);
  double best = 0;
  for (const Move& m : moves) best = std::max(best, ValueAfterMove(evaluator, pos, m));
  return best;
}

double ExpectedValueOverThrows(const Evaluator& evaluator, const Position& pos) {
  const Rules& rules = evaluator.rules();
  if (IsOver(rules, pos)) return FinishedValue(rules, pos);
  const double total = static_cast<double>(1u << rules.dice_count);
  double sum = 0;
  for (const RollOutcome& o : rules.outcomes) {
    sum += o.weight / total * ValueOfThrow(evaluator, pos, o.roll);
  }
  return sum;
}

}  // namespace scribe
