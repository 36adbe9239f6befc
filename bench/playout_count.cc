// A fixed number of random finkel playouts, for counting instructions and
// branch mispredictions under callgrind (docs/BENCHMARKS.md, "Random
// playouts"), where wall-clock runs are too noisy. Two ways of picking the
// move, the same games:
//   list: LegalMoves, then moves[k]
//   nth:  LegalDestinations, then NthLegalMove(k)
//
//   playout_count list|nth GAMES
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bench/playout.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"

namespace {

using namespace scribe;

// Each way in its own function, compiled as it would be alone.
template <bool kNth>
[[gnu::noinline]] uint64_t Play(const Rules& rules, long games) {
  Rng rng(20261129);
  const Position start = StartPosition(rules);
  uint64_t throws = 0;
  for (long g = 0; g < games; ++g) {
    Position pos = start;
    throws += Playout<kNth>(rules, rng, &pos);
  }
  return throws;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[1], "list") != 0 && std::strcmp(argv[1], "nth") != 0)) {
    std::fprintf(stderr, "usage: playout_count list|nth GAMES\n");
    return 2;
  }
  const long games = std::strtol(argv[2], nullptr, 10);
  auto loaded = scribe::LoadRuleset("finkel");
  if (!loaded.ok()) return 1;
  const uint64_t throws = std::strcmp(argv[1], "nth") == 0 ? Play<true>(**loaded, games) : Play<false>(**loaded, games);
  std::printf("%llu throws in %ld games\n", static_cast<unsigned long long>(throws), games);
  return 0;
}
