// How many positions a ruleset has, counted without listing them: for any
// rules, also those StateIndex cannot rank (paths that visit a square twice,
// stacking, phases), so that the size of a solve is known before it is
// tried (`scribe table count`, docs/analysis.md).
//
// A position is counted as StateIndex counts it: from the side to move's
// point of view, neither side finished, every placement of the pieces the
// rules allow (reachable or not). The count multiplies one polynomial per
// square (a tile in a phase): the ways a square can hold x of the mover's
// pieces and y of the opponent's. Without stacking a square holds at most
// one piece of a side, at any of the side's path indices on it; with
// stacking any number, spread over those indices. Both colours share a
// square only where the rules let them (a safe square with safe_shared);
// elsewhere one colour captures the other. The pieces off the board are
// then waiting or borne off in every way that leaves neither side with all
// borne off.
#ifndef SCRIBE_ENGINE_STATE_COUNT_H_
#define SCRIBE_ENGINE_STATE_COUNT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/rules.h"

namespace scribe {

struct PositionCount {
  uint64_t positions = 0;
  // layers[a * pieces + b]: the positions with a of the mover's pieces and
  // b of the opponent's borne off (the solver's layers).
  std::vector<uint64_t> layers;
  // The largest pair of twin layers, {(a, b), (b, a)}, that the solver
  // sweeps at once, and its size.
  int pair_mover_off = 0, pair_opponent_off = 0;
  uint64_t pair_positions = 0;
};

// OUT_OF_RANGE when a count passes 2^64.
absl::StatusOr<PositionCount> CountPositions(const Rules& rules);

}  // namespace scribe

#endif  // SCRIBE_ENGINE_STATE_COUNT_H_
