// The expectimax search and the bots (engine/search.h, engine/bots.h):
//  - SearchValue: the search's value of one position, N throws deep;
//  - Suggest: what `scribe suggest` computes, every legal move of a throw
//    valued N throws deep after it (RankMovesByValue);
//  - Match: whole games between two bots, as `scribe match` plays them.
// Positions are taken from heuristic-against-heuristic games (seed fixed),
// every 7th position before a throw, so openings, middle games and endings
// all count. docs/BENCHMARKS.md, "Search and bots", has the figures.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/bots.h"
#include "engine/evaluator.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "engine/search.h"

namespace scribe {
namespace {

struct Sample {
  Position pos;
  int roll;  // a throw with at least two legal moves (for Suggest)
};

std::vector<Sample> SamplePositions(const std::shared_ptr<const Rules>& rules, int count) {
  const Rules& r = *rules;
  HeuristicBot bot(rules);
  Rng dice(20261130);
  std::vector<Sample> out;
  int seen = 0;
  MoveList moves;
  while (static_cast<int>(out.size()) < count) {
    Position pos = StartPosition(r);
    while (!IsOver(r, pos) && static_cast<int>(out.size()) < count) {
      const int roll = dice.Throw(r);
      LegalMoves(r, pos, roll, &moves);
      if (moves.size() >= 2 && ++seen % 7 == 0) out.push_back({pos, roll});
      const auto m = bot.Choose(pos, roll);
      if (!m) PassTurn(&pos);
      else ApplyMove(r, &pos, *m);
    }
  }
  return out;
}

void BM_SearchValue(benchmark::State& state, const char* reference) {
  auto rules = *LoadRuleset(reference);
  const SearchEvaluator search(rules, static_cast<int>(state.range(0)));
  const std::vector<Sample> samples = SamplePositions(rules, 64);
  size_t i = 0;
  long long nodes = 0, leaves = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(search.Value(samples[i++ % samples.size()].pos));
    nodes += SearchEvaluator::LastStats().nodes;
    leaves += SearchEvaluator::LastStats().leaves;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["leaves"] = benchmark::Counter(static_cast<double>(leaves), benchmark::Counter::kAvgIterations);
  state.counters["nodes"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kAvgIterations);
}

void BM_Suggest(benchmark::State& state, const char* reference) {
  auto rules = *LoadRuleset(reference);
  const SearchEvaluator search(rules, static_cast<int>(state.range(0)));
  const std::vector<Sample> samples = SamplePositions(rules, 64);
  size_t i = 0;
  for (auto _ : state) {
    const Sample& s = samples[i++ % samples.size()];
    benchmark::DoNotOptimize(RankMovesByValue(search, s.pos, s.roll));
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Match(benchmark::State& state, const char* reference, const char* light_spec, const char* dark_spec) {
  auto rules = *LoadRuleset(reference);
  auto light = *MakeBot(*ParseBotSpec(light_spec), rules, nullptr, 1);
  auto dark = *MakeBot(*ParseBotSpec(dark_spec), rules, nullptr, 2);
  Rng dice(20261130);
  long long games = 0, throws = 0;
  for (auto _ : state) {
    const GameResult g = PlayGame(*rules, *light, *dark, FirstToThrow(*rules, static_cast<int>(games), dice), dice);
    throws += g.throws;
    ++games;
  }
  state.SetItemsProcessed(games);
  state.counters["throws_per_game"] = benchmark::Counter(static_cast<double>(throws) / static_cast<double>(games));
}

BENCHMARK_CAPTURE(BM_SearchValue, finkel, "finkel")->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_SearchValue, turnover, "turnover")->DenseRange(1, 2)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Suggest, finkel, "finkel")->DenseRange(1, 4)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Suggest, masters, "masters")->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Suggest, turnover, "turnover")->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Match, finkel_random_heuristic, "finkel", "random", "heuristic")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Match, finkel_random_random, "finkel", "random", "random")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Match, finkel_heuristic_heuristic, "finkel", "heuristic", "heuristic")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Match, finkel_search1_random, "finkel", "search:1", "random")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Match, finkel_search2_heuristic, "finkel", "search:2", "heuristic")
    ->Unit(benchmark::kMillisecond)
    ->MinTime(3);

}  // namespace
}  // namespace scribe

BENCHMARK_MAIN();
