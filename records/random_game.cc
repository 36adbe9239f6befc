#include "records/random_game.h"

#include "absl/strings/str_cat.h"
#include "engine/ruleset.h"
#include "records/referee.h"

namespace scribe {

RandomGameResult PlayRandomGame(const Rules& rules, Rng& rng, const RandomGameOptions& options,
                                std::vector<Position>* positions) {
  using FirstPlayer = RandomGameOptions::FirstPlayer;
  RandomGameResult result;
  v1::GameRecord& record = result.record;
  if (!options.ruleset.empty()) record.set_ruleset(options.ruleset);
  if (options.ruleset_digest) record.set_ruleset_digest(rules.digest);
  for (const auto& [key, value] : options.tags) (*record.mutable_tags())[key] = value;

  Side first = options.first;
  if (options.random_first) first = rng.Below(2) == 0 ? kLight : kDark;
  if (options.throw_off && rules.opening == v1::OPENING_THROW_OFF) {
    while (true) {
      v1::OpeningThrow* t = record.add_opening();
      t->set_light(rng.Throw(rules));
      t->set_dark(rng.Throw(rules));
      if (t->light() != t->dark()) {
        first = t->light() > t->dark() ? kLight : kDark;
        break;
      }
    }
  }
  bool write_first = false;
  switch (options.first_player) {
    case FirstPlayer::kNever:
      break;
    case FirstPlayer::kAlways:
      write_first = true;
      break;
    case FirstPlayer::kWithoutThrowOff:
      write_first = record.opening_size() == 0;
      break;
    case FirstPlayer::kAfterThrowOff:
      write_first = record.opening_size() > 0;
      break;
    case FirstPlayer::kTwoInThree:
      write_first = rng.Below(3) > 0;
      break;
  }
  if (write_first) record.set_first_player(ToPlayer(first));
  if (!record.has_first_player() && record.opening_size() == 0) first = kLight;

  Position pos = StartPosition(rules, first);
  MoveList moves;
  while (!IsOver(rules, pos) && record.actions_size() < options.max_actions) {
    if (positions != nullptr) positions->push_back(pos);
    v1::Action* a = record.add_actions();
    const int roll = rng.Throw(rules);
    a->set_roll(roll);
    LegalMoves(rules, pos, roll, &moves);
    if (moves.empty()) {
      PassTurn(&pos);
      continue;
    }
    const Move m = moves[rng.Below(moves.size())];
    a->set_from(m.from);
    a->set_to(m.to);
    ApplyMove(rules, &pos, m);
  }
  if (positions != nullptr) positions->push_back(pos);
  result.end = pos;
  result.over = IsOver(rules, pos);
  return result;
}

v1::GameRecord RandomGame(const Rules& rules, Rng& rng, const RandomGameOptions& options) {
  return PlayRandomGame(rules, rng, options).record;
}

RandomGameOptions ScribePlayOptions(const Rules& rules, const std::string& reference, uint64_t seed) {
  RandomGameOptions options;
  options.ruleset = RulesetReference(rules, reference);
  options.ruleset_digest = true;
  options.tags = {{"Light", "random"}, {"Dark", "random"}, {"Seed", absl::StrCat(seed)}};
  options.throw_off = true;
  options.first_player = RandomGameOptions::FirstPlayer::kAfterThrowOff;
  options.max_actions = 1000000;
  return options;
}

}  // namespace scribe
