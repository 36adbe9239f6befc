// `scribe suggest` (the legal moves of a throw ranked by winning chance)
// and `scribe match` (games between computer opponents, win rates);
// docs/suggest.md.
#ifndef SCRIBE_CLI_ANALYSIS_COMMANDS_H_
#define SCRIBE_CLI_ANALYSIS_COMMANDS_H_

#include "CLI/CLI.hpp"

namespace scribe {

// Adds the commands to `app`; RunAnalysisCommands runs whichever was parsed
// and returns its exit code (0, or 2 for a usage error: a bad ruleset,
// position, throw, bot or table), or -1 when none was.
void AddAnalysisCommands(CLI::App& app);
int RunAnalysisCommands();

}  // namespace scribe

#endif  // SCRIBE_CLI_ANALYSIS_COMMANDS_H_
