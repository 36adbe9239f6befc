// Random playouts (bench/playout.h): throw the dice, generate the legal
// moves, pick one at random, apply it; the figure is throws per second on
// one core. This is
// the engine's inner loop for search and simulation.
#include <benchmark/benchmark.h>

#include "bench/playout.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"

namespace scribe {
namespace {

void BM_RandomPlayout(benchmark::State& state, const char* reference) {
  auto loaded = LoadRuleset(reference);
  if (!loaded.ok()) {
    state.SkipWithError(std::string(loaded.status().message()).c_str());
    return;
  }
  const Rules& rules = **loaded;
  Rng rng(20261129);
  const Position start = StartPosition(rules);
  int64_t throws = 0;
  int64_t games = 0;
  for (auto _ : state) {
    Position pos = start;
    throws += static_cast<int64_t>(Playout(rules, rng, &pos));
    benchmark::DoNotOptimize(pos);
    ++games;
  }
  state.SetItemsProcessed(throws);
  state.counters["throws_per_game"] =
      benchmark::Counter(static_cast<double>(throws) / static_cast<double>(games));
}

#define SCRIBE_PLAYOUT(name, ref) BENCHMARK_CAPTURE(BM_RandomPlayout, name, ref)
SCRIBE_PLAYOUT(finkel, "finkel");
SCRIBE_PLAYOUT(finkel_blank4, "finkel-blank4");
SCRIBE_PLAYOUT(masters, "masters");
SCRIBE_PLAYOUT(blitz, "blitz");
SCRIBE_PLAYOUT(sawah, "sawah");
SCRIBE_PLAYOUT(sawah_tablet, "sawah-tablet");
SCRIBE_PLAYOUT(sawah_marks, "sawah-marks");
SCRIBE_PLAYOUT(turnover, "turnover");
SCRIBE_PLAYOUT(murray, "murray");
SCRIBE_PLAYOUT(skiriuk, "skiriuk");

// The legal-move generator alone, over positions from a fixed random game.
void BM_LegalMoves(benchmark::State& state) {
  const Rules& rules = **LoadRuleset("finkel");
  Rng rng(7);
  std::vector<std::pair<Position, int>> samples;
  Position pos = StartPosition(rules);
  MoveList moves;
  while (!IsOver(rules, pos)) {
    const int roll = rng.Throw(rules);
    samples.push_back({pos, roll});
    LegalMoves(rules, pos, roll, &moves);
    if (moves.empty()) PassTurn(&pos);
    else ApplyMove(rules, &pos, moves[rng.Below(moves.size())]);
  }
  size_t i = 0;
  for (auto _ : state) {
    const auto& [p, r] = samples[i];
    LegalMoves(rules, p, r, &moves);
    benchmark::DoNotOptimize(moves);
    if (++i == samples.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LegalMoves);

}  // namespace
}  // namespace scribe

BENCHMARK_MAIN();
