// `scribe replay`, `scribe validate` and `scribe convert`: the commands
// over game record files (and `scribe annotate`, registered among them:
// cli/annotate_command.h).
#ifndef SCRIBE_CLI_RECORD_COMMANDS_H_
#define SCRIBE_CLI_RECORD_COMMANDS_H_

#include <string>

#include "CLI/CLI.hpp"
#include "cli/command.h"

namespace scribe {

void AddRecordCommands(CLI::App& app, CommandRegistry& registry);

// --from, as every record command has it.
void AddFromOption(CLI::App* cmd, std::string& from);

}  // namespace scribe

#endif  // SCRIBE_CLI_RECORD_COMMANDS_H_
