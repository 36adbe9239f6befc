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
  MoveList moves;
  for (long g = 0; g < games; ++g) {
    Position pos = start;
    while (!IsOver(rules, pos)) {
      const uint64_t r = rng.Next();
      const int roll = rules.roll_for_bits[r >> (64 - rules.dice_count)];
      ++throws;
      if constexpr (kNth) {
        const LegalSet legal = LegalDestinations(rules, pos, roll);
        const int n = LegalCount(legal);
        if (n == 0) {
          PassTurn(&pos);
          continue;
        }
        const int k = static_cast<int>(((r & 0xffffffffu) * static_cast<uint64_t>(n)) >> 32);
        ApplyMove(rules, &pos, NthLegalMove(rules, legal, roll, k));
      } else {
        LegalMoves(rules, pos, roll, &moves);
        if (moves.empty()) {
          PassTurn(&pos);
          continue;
        }
        const int k = static_cast<int>(((r & 0xffffffffu) * static_cast<uint64_t>(moves.size())) >> 32);
        ApplyMove(rules, &pos, moves[k]);
      }
    }
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
