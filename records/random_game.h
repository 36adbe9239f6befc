// Random legal games as records: every throw from an Rng, every move chosen
// at random among the legal ones. One generator for `scribe play` and the
// tests; the options say what they differ in. For a given Rng state and
// options the game is fixed: the Rng is drawn in this order, and only here:
//   1. with random_first, Below(2) for the side that starts (0: light);
//   2. with throw_off and a ruleset that has one, Throw (light) and Throw
//      (dark) until they differ;
//   3. with FirstPlayer::kTwoInThree, Below(3) (0: not written);
//   4. for each action, Throw, then Below(number of legal moves) unless
//      there is none (a pass).
#ifndef SCRIBE_RECORDS_RANDOM_GAME_H_
#define SCRIBE_RECORDS_RANDOM_GAME_H_

#include <climits>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/random.h"
#include "engine/rules.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

struct RandomGameOptions {
  // Written to the record as they are (empty ruleset: none written).
  std::string ruleset;
  bool ruleset_digest = false;  // write rules.digest as ruleset_digest
  std::map<std::string, std::string> tags;

  // Who starts when no throw-off decides it: `first`, or with random_first
  // a side drawn from the Rng before anything else.
  Side first = kLight;
  bool random_first = false;
  // Play the ruleset's throw-off (recorded as the opening) when it has one;
  // its winner starts.
  bool throw_off = false;

  // When the record names its first player.
  enum class FirstPlayer {
    kNever,
    kAlways,
    kWithoutThrowOff,  // only when no throw-off was played
    kAfterThrowOff,    // only when a throw-off was played
    kTwoInThree,       // drawn from the Rng: written unless Below(3) is 0
  };
  FirstPlayer first_player = FirstPlayer::kNever;

  // Stop after this many actions even if the game is not over.
  int max_actions = INT_MAX;
};

struct RandomGameResult {
  v1::GameRecord record;
  Position end;       // the position after the last action
  bool over = false;  // the game ended (false: max_actions stopped it)
};

// A record with neither a first player nor a throw-off starts with light,
// so such a game does too, whatever `first` says. With `positions`, it gets
// the position before every action and, last, `end`.
RandomGameResult PlayRandomGame(const Rules& rules, Rng& rng, const RandomGameOptions& options,
                                std::vector<Position>* positions = nullptr);

// Just the record.
v1::GameRecord RandomGame(const Rules& rules, Rng& rng, const RandomGameOptions& options);

// The options of `scribe play --ruleset reference --seed seed`: the
// ruleset's id (else `reference`) and digest, the tags Light and Dark
// "random" and Seed, the throw-off and then the first player it decided,
// at most 1000000 actions.
RandomGameOptions ScribePlayOptions(const Rules& rules, const std::string& reference, uint64_t seed);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_RANDOM_GAME_H_
