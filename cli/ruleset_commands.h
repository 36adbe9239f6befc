// `scribe rulesets` (the built-in rulesets), `scribe ruleset show` (a
// resolved ruleset), `scribe play` (a random legal game) and `scribe perft`
// (the size of the game tree).
#ifndef SCRIBE_CLI_RULESET_COMMANDS_H_
#define SCRIBE_CLI_RULESET_COMMANDS_H_

#include "CLI/CLI.hpp"
#include "cli/command.h"

namespace scribe {

// Adds rulesets, ruleset show and play.
void AddRulesetCommands(CLI::App& app, CommandRegistry& registry);

// Adds perft; apart from the others so that `scribe --help` lists it after
// the record commands, as it always has.
void AddPerftCommand(CLI::App& app, CommandRegistry& registry);

}  // namespace scribe

#endif  // SCRIBE_CLI_RULESET_COMMANDS_H_
