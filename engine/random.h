// A small, seedable, portable random generator (xoshiro256**, seeded with
// splitmix64). It lives outside the rules: the engine takes throws and
// choices as plain numbers, and the same seed gives the same game on every
// platform (unlike std::uniform_int_distribution).
#ifndef SCRIBE_ENGINE_RANDOM_H_
#define SCRIBE_ENGINE_RANDOM_H_

#include <bit>
#include <cstdint>

#include "engine/rules.h"

namespace scribe {

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (uint64_t& s : state_) {
      seed += 0x9e3779b97f4a7c15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      s = z ^ (z >> 31);
    }
  }

  uint64_t Next() {
    const uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = std::rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n), n >= 1 (Lemire's multiply-shift; the bias for the
  // small n used here is below 2^-27).
  int Below(int n) {
    return static_cast<int>(((Next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }

  // One throw of the rules' dice: each binary die shows a mark with chance
  // one half.
  int Throw(const Rules& rules) {
    return rules.roll_for_bits[Next() >> (64 - rules.dice_count)];
  }

 private:
  uint64_t state_[4];
};

}  // namespace scribe

#endif  // SCRIBE_ENGINE_RANDOM_H_
