// `scribe match`: games between two computer opponents, their win rates
// and, with --records, the games as TSN records with players, an event and
// dates (docs/suggest.md).
#ifndef SCRIBE_CLI_MATCH_COMMAND_H_
#define SCRIBE_CLI_MATCH_COMMAND_H_

#include "CLI/CLI.hpp"
#include "cli/command.h"

namespace scribe {

// Exit code 0, or 2 for a usage error (a bad ruleset, bot, table, date or
// name; a records file that cannot be written).
void AddMatchCommand(CLI::App& app, CommandRegistry& registry);

}  // namespace scribe

#endif  // SCRIBE_CLI_MATCH_COMMAND_H_
