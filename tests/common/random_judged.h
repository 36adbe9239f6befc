// A random legal game as the game database and the review take it: played
// as `scribe play` plays (ScribePlayOptions), with the tags given, and
// judged with its positions kept.
#ifndef SCRIBE_TESTS_COMMON_RANDOM_JUDGED_H_
#define SCRIBE_TESTS_COMMON_RANDOM_JUDGED_H_

#include <climits>
#include <cstdint>
#include <map>
#include <string>

#include "records/judged.h"
#include "records/random_game.h"
#include "records/referee.h"
#include "tests/common/test_rules.h"

namespace scribe {

inline JudgedRecord RandomJudged(const std::string& reference, uint64_t seed,
                                 const std::map<std::string, std::string>& tags = {},
                                 int max_actions = INT_MAX) {
  auto rules = MustLoad(reference);
  if (rules == nullptr) return JudgedRecord{};
  Rng rng(seed);
  RandomGameOptions options = ScribePlayOptions(*rules, reference, seed);
  options.max_actions = max_actions;
  for (const auto& [name, value] : tags) options.tags[name] = value;
  RefereeOptions referee;
  referee.keep_positions = true;
  return Judge(RandomGame(*rules, rng, options), {}, referee);
}

}  // namespace scribe

#endif  // SCRIBE_TESTS_COMMON_RANDOM_JUDGED_H_
