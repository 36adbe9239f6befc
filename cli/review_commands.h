// scribe review (docs/review.md).
#ifndef SCRIBE_CLI_REVIEW_COMMANDS_H_
#define SCRIBE_CLI_REVIEW_COMMANDS_H_

#include "CLI/CLI.hpp"
#include "cli/command.h"

namespace scribe {

void AddReviewCommands(CLI::App& app, CommandRegistry& registry);

}  // namespace scribe

#endif  // SCRIBE_CLI_REVIEW_COMMANDS_H_
