// One random playout, shared by bench/playout_bench.cc (throws per second)
// and bench/playout_count.cc (instructions under callgrind): throw the
// dice, pick a legal move at random, apply it, until the game ends. One
// 64-bit draw serves both the throw (top bits) and the choice (low 32 bits,
// multiply-shift). The game ends with the move that ApplyMove reports as a
// win (only bearing off wins), so the end is not tested again before each
// throw. Two ways of picking the move give the same games:
//   kNth = true:  LegalDestinationsInPlay, then NthLegalMove(k) (the random
//                 bot's way, less its tests for a game already over)
//   kNth = false: LegalMoves, then moves[k]
// tests/engine/properties_test.cc checks both against a plain loop over the
// engine's checked calls.
#ifndef SCRIBE_BENCH_PLAYOUT_H_
#define SCRIBE_BENCH_PLAYOUT_H_

#include <cstdint>

#include "engine/position.h"
#include "engine/random.h"

namespace scribe {

// Plays *pos out to the end with the move code of `Shape`; returns the
// throws it took (0 for a game already over).
template <bool kNth, class Shape>
inline uint64_t PlayoutOf(const Rules& rules, Rng& rng, Position* pos) {
  uint64_t throws = 0;
  if (IsOver(rules, *pos)) return throws;
  MoveList moves;
  for (;;) {
    const uint64_t r = rng.Next();
    const int roll = rules.roll_for_bits[r >> (64 - rules.dice_count)];
    ++throws;
    int n;
    LegalSet legal;
    if constexpr (kNth) {
      legal = LegalDestinationsInPlay<Shape>(rules, *pos, roll);
      n = LegalCount(legal);
    } else {
      LegalMoves<Shape>(rules, *pos, roll, &moves);
      n = moves.size();
    }
    if (n == 0) {
      PassTurn(pos);
      continue;
    }
    const int k = static_cast<int>(((r & 0xffffffffu) * static_cast<uint64_t>(n)) >> 32);
    MoveResult result;
    if constexpr (kNth) {
      result = ApplyMove<Shape>(rules, pos, NthLegalMove<Shape>(rules, legal, roll, k));
    } else {
      result = ApplyMove<Shape>(rules, pos, moves[k]);
    }
    if (result.won) return throws;
  }
}

// Plays *pos out to the end, the ruleset's shape picked once.
template <bool kNth = true>
inline uint64_t Playout(const Rules& rules, Rng& rng, Position* pos) {
  return WithShape(rules, [&](auto shape) { return PlayoutOf<kNth, decltype(shape)>(rules, rng, pos); });
}

}  // namespace scribe

#endif  // SCRIBE_BENCH_PLAYOUT_H_
