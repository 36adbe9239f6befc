// Random playouts: throw the dice, generate the legal moves, pick one at
// random, apply it; the figure is throws per second on one core. This is
// the engine's inner loop for search and simulation.
#include <benchmark/benchmark.h>

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
    while (!IsOver(rules, pos)) {
      // One 64-bit draw serves both the throw (top bits) and the choice
      // (low 32 bits, multiply-shift).
      const uint64_t r = rng.Next();
      const int roll = rules.roll_for_bits[r >> (64 - rules.dice_count)];
      ++throws;
      const LegalSet legal = LegalDestinations(rules, pos, roll);
      const int n = LegalCount(legal);
      if (n == 0) {
        PassTurn(&pos);
        continue;
      }
      const uint64_t choice = ((r & 0xffffffffu) * static_cast<uint64_t>(n)) >> 32;
      ApplyMove(rules, &pos, NthLegalMove(rules, legal, roll, static_cast<int>(choice)));
    }
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
