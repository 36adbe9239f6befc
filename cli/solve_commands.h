// `scribe solve` (solve a ruleset into a table file) and `scribe table
// info` (what a table file holds).
#ifndef SCRIBE_CLI_SOLVE_COMMANDS_H_
#define SCRIBE_CLI_SOLVE_COMMANDS_H_

#include "CLI/CLI.hpp"
#include "cli/command.h"

namespace scribe {

void AddSolveCommands(CLI::App& app, CommandRegistry& registry);

}  // namespace scribe

#endif  // SCRIBE_CLI_SOLVE_COMMANDS_H_
