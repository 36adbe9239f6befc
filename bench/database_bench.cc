// The game database's questions, timed on a database made by
// bench/database_bench.sh (docs/BENCHMARKS.md, "Game database"):
//
//   database_bench --db games.db [--benchmark_repetitions=5 ...]
//
// Position searches (the first page of 50 with the exact total) at the
// start (every game matches) and at plies 10, 50 and 100 of stored games,
// sorted by id and by date; the explorer at the start and at ply 10; a
// player's page; a search by player. Each call opens nothing: the store is
// opened once, as a server would.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "games/game_codec.h"
#include "games/query.h"
#include "games/rules_cache.h"
#include "storage/open_store.h"

namespace scribe::games {
namespace {

std::string g_db;
std::unique_ptr<Store> g_store;
std::unique_ptr<RulesCache> g_rules;
const KnownRules* g_known = nullptr;

// The position after `ply` actions of stored game `id` (or its last).
Position PositionOf(int64_t id, int ply) {
  auto games = g_store->GamesById({id});
  if (!games.ok() || games->empty()) {
    std::cerr << "no game " << id << "\n";
    std::exit(2);
  }
  auto replayed = ReplayIdentity(*g_known->rules, (*games)[0].identity);
  const size_t at = std::min(replayed->positions.size() - 1, static_cast<size_t>(ply));
  return replayed->positions[at];
}

void BM_SearchPosition(benchmark::State& state) {
  const int ply = static_cast<int>(state.range(0));
  SearchQuery q;
  q.position = PositionTarget{g_known, PositionOf(1 + state.range(2), ply)};
  q.games.order = state.range(1) ? GameQuery::Order::kDate : GameQuery::Order::kId;
  int64_t total = 0;
  for (auto _ : state) {
    auto result = Search(*g_store, q);
    if (!result.ok()) state.SkipWithError(std::string(result.status().message()).c_str());
    total = result.ok() ? result->total : 0;
  }
  state.counters["matches"] = static_cast<double>(total);
}
BENCHMARK(BM_SearchPosition)
    ->ArgNames({"ply", "by_date", "game"})
    ->Args({0, 0, 0})->Args({0, 1, 0})->Args({4, 0, 0})->Args({4, 1, 0})->Args({6, 1, 0})->Args({10, 0, 0})->Args({10, 1, 0})->Args({50, 0, 7})
    ->Args({100, 0, 7})->Args({100, 1, 7})->Unit(benchmark::kMillisecond);

void BM_Explore(benchmark::State& state) {
  const PositionTarget target{g_known, PositionOf(1 + state.range(1), static_cast<int>(state.range(0)))};
  int64_t games = 0;
  for (auto _ : state) {
    auto result = Explore(*g_store, target, nullptr);
    if (!result.ok()) state.SkipWithError(std::string(result.status().message()).c_str());
    games = result.ok() ? result->games : 0;
  }
  state.counters["games"] = static_cast<double>(games);
}
BENCHMARK(BM_Explore)->ArgNames({"ply", "game"})->Args({0, 0})->Args({4, 0})->Args({10, 0})->Args({20, 3})->Args({40, 3})
    ->Unit(benchmark::kMillisecond);

void BM_Player(benchmark::State& state) {
  for (auto _ : state) {
    auto page = Player(*g_store, "p1");
    if (!page.ok()) state.SkipWithError(std::string(page.status().message()).c_str());
    benchmark::DoNotOptimize(page);
  }
}
BENCHMARK(BM_Player)->Unit(benchmark::kMillisecond);

void BM_SearchPlayer(benchmark::State& state) {
  SearchQuery q;
  q.games.player = "p1";
  q.games.order = GameQuery::Order::kDate;
  for (auto _ : state) {
    auto result = Search(*g_store, q);
    if (!result.ok()) state.SkipWithError(std::string(result.status().message()).c_str());
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_SearchPlayer)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace scribe::games

int main(int argc, char** argv) {
  using namespace scribe::games;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--db") == 0) g_db = argv[i + 1];
  }
  if (g_db.empty()) {
    std::cerr << "usage: database_bench --db LOCATION [benchmark flags]\n";
    return 2;
  }
  auto store = scribe::storage::OpenStore(g_db, scribe::storage::OpenMode::kExisting);
  if (!store.ok()) {
    std::cerr << store.status().message() << "\n";
    return 2;
  }
  g_store = *std::move(store);
  g_rules = std::make_unique<RulesCache>(*g_store);
  auto rows = g_store->Rulesets();
  if (!rows.ok() || rows->empty()) {
    std::cerr << "the database holds no game\n";
    return 2;
  }
  auto known = g_rules->ById(rows->front().id);
  if (!known.ok()) {
    std::cerr << known.status().message() << "\n";
    return 2;
  }
  g_known = *known;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--db") == 0) {
      ++i;
      continue;
    }
    args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
