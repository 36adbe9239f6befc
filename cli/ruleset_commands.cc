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
  int games = 1;
};

// One game as a JSON record; with --games N, N games (seeds seed, seed+1,
// ...) as a JSON array, one record per line, each the game `scribe play
// --seed` of its seed gives.
int CmdPlay(const PlayOptions& o) {
  auto loaded = CliRuleset(o.ruleset);
  if (!loaded.ok()) return RulesetError(loaded.status());
  const Rules& rules = **loaded;
  if (o.seed > UINT64_MAX - static_cast<uint64_t>(o.games - 1)) {
    std::cerr << "scribe: play: --seed " << o.seed << " with --games " << o.games << " goes past the last seed, "
              << UINT64_MAX << "\n";
    return kExitUsage;
  }
  if (o.games > 1) std::cout << "[\n";
  for (int g = 0; g < o.games; ++g) {
    const uint64_t seed = o.seed + static_cast<uint64_t>(g);
    Rng rng(seed);
    const RandomGameOptions options = ScribePlayOptions(rules, o.ruleset, seed);
    const RandomGameResult game = PlayRandomGame(rules, rng, options);
    if (!game.over) {
      std::cerr << "scribe: play: no winner after " << options.max_actions << " throws (seed " << seed << ")\n";
      return kExitInvalid;
    }
    std::cout << WriteJsonRecord(game.record) << (o.games > 1 && g + 1 < o.games ? ",\n" : "\n");
  }
  if (o.games > 1) std::cout << "]\n";
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
  play->add_option("--games", p.games, "this many games (seeds seed, seed+1, ...) as a JSON array")
      ->check(CLI::Range(1, 1000000));
}

void AddPerftCommand(CLI::App& app, CommandRegistry& registry) {
  auto [perft, p] = registry.Add(app, "perft", "Count the leaves of the game tree N throws deep", CmdPerft);
  perft->add_option("--ruleset", p.ruleset, "ruleset reference or file")->required();
  perft->add_option("--depth", p.depth, "throws deep")->required()->check(CLI::Range(0, 12));
}

}  // namespace scribe
