// Solving a ruleset: the chance that the side to move wins, for every
// position (StateIndex order), under perfect play by both sides: the
// expectimax value over the exact dice chances, a fixed point of
//   V(p) = sum over throws r of P(r) * max over moves m of W(p, m)
// with W = 1 for a winning move, V(next) when the move earns another throw,
// 1 - V(next) otherwise, and 1 - V(p with the turn passed) for a throw with
// no move.
//
// The work goes layer by layer, from the most pieces borne off down (a
// borne-off piece never comes back, so a layer depends only on itself, its
// colour-swapped twin and layers already solved). Within a pair of twin
// layers, Gauss-Seidel sweeps update values in place, most advanced
// positions first, so a sweep already sees this sweep's values for every
// successor of a move that does not capture: only captures and passes carry
// old values, and a pair converges in a few dozen sweeps instead of the
// hundreds plain value iteration needs (docs/analysis.md has the figures).
// Most sweeps are policy sweeps (modified policy iteration): each position
// backs up only the moves the last full sweep found best, read from a
// kept list of successor ranks, so no move is generated and no successor
// ranked; every few sweeps a full one updates the policy (skipping, with
// the same result, the positions whose policy the values cannot yet have
// overturned), and a pair ends only on a full sweep whose largest change
// is below the tolerance.
// Both cores share each sweep.
//
// engine/solver.cc opens with the outline of these steps, one function
// each (docs/analysis.md, "The steps in the code").
//
// Nothing here reads or writes files (analysis/table.h does).
#ifndef SCRIBE_ENGINE_SOLVER_H_
#define SCRIBE_ENGINE_SOLVER_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/rules.h"
#include "engine/state_index.h"
#include "engine/stop.h"

namespace scribe {

struct SolveProgress {
  int mover_off = 0;     // the layer pair finished: (a, b) and (b, a)
  int opponent_off = 0;
  int sweeps = 0;        // sweeps it took
  double residual = 0;   // largest change in its last sweep
  uint64_t positions_done = 0;
  uint64_t positions_total = 0;
  double seconds = 0;    // since the solve began
};

struct SolveOptions {
  // Sweeps stop when no value changes by more than this; the largest
  // Bellman residual of the result is below it.
  double tolerance = 1e-6;
  int threads = 2;
  // Modified policy iteration: after each full sweep (every move of every
  // throw), this many sweeps back up only the moves that sweep found best,
  // which costs a fraction of a full sweep; the last sweep of every layer
  // pair is a full one, so the result is the same fixed point within the
  // tolerance. 0: every sweep full (plain value iteration).
  int policy_sweeps = 3;
  // Memory for the policies of one layer pair (4 bytes a throw a
  // position); the positions past it have full backups in every sweep.
  uint64_t policy_bytes = uint64_t{512} << 20;
  // Each layer pair starts from an estimate read off the two solved pairs
  // next to it (the mover, or the opponent, with one piece fewer to bring
  // home), not from 50%: fewer sweeps, the same fixed point. false: every
  // position starts at 50% (for comparison).
  bool estimated_start = true;
  // A layer pair that has not converged after this many sweeps fails the
  // solve (never expected; a guard against a non-converging ruleset).
  int max_sweeps = 10000;
  // Refuse rulesets whose solve would need more memory than this at its
  // peak (SolveMemoryNeeded).
  uint64_t max_bytes = uint64_t{8} << 30;
  std::function<void(const SolveProgress&)> progress;
  // Polled by every sweeping thread every few thousand positions
  // (engine/stop.h): once it says stop, Solve returns CANCELLED within
  // milliseconds.
  StopCheck stop;
};

struct Solution {
  std::vector<float> values;  // by rank
  double residual = 0;        // largest last-sweep change over all layers
  uint64_t sweeps = 0;        // sweeps over all layer pairs
  uint64_t policy_sweeps = 0; // of which policy sweeps
  uint64_t backups = 0;       // positions backed up, over all sweeps
  uint64_t full_backups = 0;  // of which with every move (the rest: by policy)
  int max_layer_sweeps = 0;
  double seconds = 0;
};

// The memory a solve holds at its peak, known before it starts: every
// position's value (a float), and for the largest layer pair its order (4
// bytes a position for paths of up to 16 squares, 8 for longer ones), each
// position's last change (a float, for the extrapolation) and the kept
// policies (4 bytes a throw and a float a position, at most policy_bytes).
struct SolveMemory {
  uint64_t values = 0, pair_order = 0, pair_changes = 0, policies = 0;
  uint64_t total() const { return values + pair_order + pair_changes + policies; }
};
// `positions` and `largest_pair` as CountPositions gives them.
SolveMemory SolveMemoryNeeded(const Rules& rules, uint64_t positions, uint64_t largest_pair,
                              const SolveOptions& options);
// The same for the index's positions (what Solve checks max_bytes against).
SolveMemory SolveMemoryNeeded(const Rules& rules, const StateIndex& index, const SolveOptions& options);

// Bellman's right-hand side for the position of `rank`, given values.
double BellmanValue(const Rules& rules, const StateIndex& index, const float* values, uint64_t rank);

absl::StatusOr<Solution> Solve(const Rules& rules, const StateIndex& index, const SolveOptions& options = {});

}  // namespace scribe

#endif  // SCRIBE_ENGINE_SOLVER_H_
