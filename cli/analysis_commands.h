// `scribe suggest` (the legal moves of a throw ranked by winning chance)
// and `scribe match` (games between computer opponents, win rates);
// docs/suggest.md.
#ifndef SCRIBE_CLI_ANALYSIS_COMMANDS_H_
#define SCRIBE_CLI_ANALYSIS_COMMANDS_H_

#include "CLI/CLI.hpp"
#include "cli/command.h"

namespace scribe {

// Adds suggest, and match (cli/match_command.h). Their exit code is 0, or 2 for a usage error: a
// bad ruleset, position, throw, bot or table.
void AddAnalysisCommands(CLI::App& app, CommandRegistry& registry);

}  // namespace scribe

#endif  // SCRIBE_CLI_ANALYSIS_COMMANDS_H_
