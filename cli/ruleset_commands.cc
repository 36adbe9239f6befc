#include "cli/ruleset_commands.h"

#include <cstdint>
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/common.h"
#include "engine/perft.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "records/json_record.h"
#include "records/random_game.h"
#include "records/referee.h"

namespace scribe {
namespace {

int CmdRulesets() {
  for (const PresetInfo& p : Presets()) {
    auto rules = LoadRuleset(p.id);
    std::string names = p.id;
    for (const std::string& a : p.aliases) absl::StrAppend(&names, " (alias ", a, ")");
    std::cout << absl::StrFormat("%-26s %s  %s\n", names, rules.ok() ? (*rules)->digest : "?", p.title);
  }
  std::cout << absl::StrFormat("%-26s %s  %s\n", "tablet-betting", "-", "declined: no complete rules survive");
  return kExitOk;
}

struct RulesetShowOptions {
  std::string ref;
};

int CmdRulesetShow(const RulesetShowOptions& o) {
  auto rules = CliRuleset(o.ref);
  if (!rules.ok()) return RulesetError(rules.status());
  std::cout << "# digest: " << (*rules)->digest << "\n" << RulesetToText((*rules)->ruleset);
  return kExitOk;
}

struct PlayOptions {
  std::string ruleset;
  uint64_t seed = 1;
};

int CmdPlay(const PlayOptions& o) {
  auto loaded = CliRuleset(o.ruleset);
  if (!loaded.ok()) return RulesetError(loaded.status());
  const Rules& rules = **loaded;
  Rng rng(o.seed);
  const RandomGameOptions options = ScribePlayOptions(rules, o.ruleset, o.seed);
  const RandomGameResult game = PlayRandomGame(rules, rng, options);
  if (!game.over) {
    std::cerr << "scribe: play: no winner after " << options.max_actions << " throws\n";
    return kExitInvalid;
  }
  const v1::GameRecord& record = game.record;
  std::cout << WriteJsonRecord(record) << "\n";
  return kExitOk;
}

struct PerftOptions {
  std::string ruleset;
  int depth = 1;
};

int CmdPerft(const PerftOptions& o) {
  auto rules = CliRuleset(o.ruleset);
  if (!rules.ok()) return RulesetError(rules.status());
  std::cout << Perft(**rules, StartPosition(**rules), o.depth) << "\n";
  return kExitOk;
}

}  // namespace

void AddRulesetCommands(CLI::App& app, CommandRegistry& registry) {
  registry.Add(app, "rulesets", "List the built-in rulesets with their digests", CmdRulesets);

  CLI::App* ruleset = registry.AddGroup(app, "ruleset", "Inspect a ruleset");
  auto [show, s] = registry.Add(*ruleset, "show", "Print a resolved ruleset (every parameter)", CmdRulesetShow);
  show->add_option("REF", s.ref, "preset, preset(key=value,...) or a ruleset file")->required();

  auto [play, p] = registry.Add(app, "play", "Play a random legal game; print it as a JSON record", CmdPlay);
  play->add_option("--ruleset", p.ruleset, "ruleset reference or file")->required();
  play->add_option("--seed", p.seed, "random seed (same seed, same game)")
      ->check(SeedNumber());
}

void AddPerftCommand(CLI::App& app, CommandRegistry& registry) {
  auto [perft, p] = registry.Add(app, "perft", "Count the leaves of the game tree N throws deep", CmdPerft);
  perft->add_option("--ruleset", p.ruleset, "ruleset reference or file")->required();
  perft->add_option("--depth", p.depth, "throws deep")->required()->check(CLI::Range(0, 12));
}

}  // namespace scribe
