// `scribe annotate`: what each move of a record did, its alternatives and,
// with a table or a search, its winning chances (docs/annotation.md); the
// analysis is review/pipeline.h's.
#ifndef SCRIBE_CLI_ANNOTATE_COMMAND_H_
#define SCRIBE_CLI_ANNOTATE_COMMAND_H_

#include "CLI/CLI.hpp"
#include "cli/command.h"

namespace scribe {

void AddAnnotateCommand(CLI::App& app, CommandRegistry& registry);

}  // namespace scribe

#endif  // SCRIBE_CLI_ANNOTATE_COMMAND_H_
