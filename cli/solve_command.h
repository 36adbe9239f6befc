// `scribe solve` (solve a ruleset into a table file) and `scribe table
// info` (what a table file holds).
#ifndef SCRIBE_CLI_SOLVE_COMMAND_H_
#define SCRIBE_CLI_SOLVE_COMMAND_H_

#include "CLI/CLI.hpp"

namespace scribe {

// Adds the commands to `app`; RunSolveCommands runs whichever was parsed
// and returns its exit code, or -1 when none was.
void AddSolveCommands(CLI::App& app);
int RunSolveCommands();

}  // namespace scribe

#endif  // SCRIBE_CLI_SOLVE_COMMAND_H_
