#include "engine/perft.h"

namespace scribe {
namespace {

template <class Shape>
uint64_t PerftOf(const Rules& rules, const Position& pos, int depth) {
  if (depth == 0 || IsOver(rules, pos)) return 1;
  uint64_t leaves = 0;
  MoveList moves;
  for (const RollOutcome& outcome : rules.outcomes) {
    LegalMoves<Shape>(rules, pos, outcome.roll, &moves);
    if (moves.empty()) {
      Position next = pos;
      PassTurn(&next);
      leaves += PerftOf<Shape>(rules, next, depth - 1);
      continue;
    }
    for (const Move& m : moves) {
      Position next = pos;
      ApplyMove<Shape>(rules, &next, m);
      leaves += PerftOf<Shape>(rules, next, depth - 1);
    }
  }
  return leaves;
}

}  // namespace

uint64_t Perft(const Rules& rules, const Position& pos, int depth) {
  return WithShape(rules, [&](auto shape) { return PerftOf<decltype(shape)>(rules, pos, depth); });
}

}  // namespace scribe
