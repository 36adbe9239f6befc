#include "engine/perft.h"

namespace scribe {

uint64_t Perft(const Rules& rules, const Position& pos, int depth) {
  if (depth == 0 || IsOver(rules, pos)) return 1;
  uint64_t leaves = 0;
  MoveList moves;
  for (const RollOutcome& outcome : rules.outcomes) {
    LegalMoves(rules, pos, outcome.roll, &moves);
    if (moves.empty()) {
      Position next = pos;
      PassTurn(&next);
      leaves += Perft(rules, next, depth - 1);
      continue;
    }
    for (const Move& m : moves) {
      Position next = pos;
      ApplyMove(rules, &next, m);
      leaves += Perft(rules, next, depth - 1);
    }
  }
  return leaves;
}

}  // namespace scribe
