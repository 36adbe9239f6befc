// Ctrl-C for the commands that run long (solve, review): SIGINT or SIGTERM
// sets a flag that the work polls (engine/stop.h), so it stops within
// milliseconds and the command says what it did not finish, instead of
// dying half-way through a file.
#ifndef SCRIBE_CLI_INTERRUPT_H_
#define SCRIBE_CLI_INTERRUPT_H_

#include "engine/stop.h"

namespace scribe {

// Exit status of a command stopped by a signal (128 + SIGINT, as a shell's).
inline constexpr int kExitInterrupted = 130;

// From now on, SIGINT and SIGTERM stop the work instead of the process:
// the returned check says stop once either came.
StopCheck StopOnInterrupt();

// True once SIGINT or SIGTERM came (after StopOnInterrupt).
bool Interrupted();

}  // namespace scribe

#endif  // SCRIBE_CLI_INTERRUPT_H_
