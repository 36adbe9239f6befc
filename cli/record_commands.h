// `scribe replay`, `scribe annotate`, `scribe validate` and `scribe
// convert`: the commands over game record files.
#ifndef SCRIBE_CLI_RECORD_COMMANDS_H_
#define SCRIBE_CLI_RECORD_COMMANDS_H_

#include "CLI/CLI.hpp"
#include "cli/command.h"

namespace scribe {

void AddRecordCommands(CLI::App& app, CommandRegistry& registry);

}  // namespace scribe

#endif  // SCRIBE_CLI_RECORD_COMMANDS_H_
