// scribe: the command line over Scribe's engine and records library.
//
// A thin shell: it parses flags, reads files, calls the libraries and prints.
// Exit codes: 0 success (every record valid), 1 a record is not a legal game
// (or not a record at all), 2 a usage error, a file that cannot be read or
// written, or out of memory.
// Each group of commands lives in its own file; cli/command.h says how a
// command is declared.
#include <unistd.h>

#include <cstring>
#include <exception>
#include <new>

#include "CLI/CLI.hpp"
#include "cli/analysis_commands.h"
#include "cli/command.h"
#include "cli/database_commands.h"
#include "cli/common.h"
#include "cli/record_commands.h"
#include "cli/review_commands.h"
#include "cli/ruleset_commands.h"
#include "cli/solve_commands.h"

namespace scribe {
namespace {

int Main(int argc, char** argv) {
  // Every write to standard output is checked (CheckStandardOutput).
  const CheckedStandardOutput checked_stdout;
  CLI::App app{"scribe: rules referee and game records for the Royal Game of Ur family"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "scribe 0.1.0");

  // In the order `scribe --help` lists them.
  CommandRegistry registry;
  AddRulesetCommands(app, registry);
  AddRecordCommands(app, registry);
  AddReviewCommands(app, registry);
  AddPerftCommand(app, registry);
  AddSolveCommands(app, registry);
  AddAnalysisCommands(app, registry);
  AddDatabaseCommands(app, registry);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    // --help and --version print to standard output: checked as a
    // command's output is.
    if (!CheckStandardOutput("help")) return kExitUsage;
    return code == 0 ? kExitOk : kExitUsage;
  }
  return registry.Run();
}

}  // namespace
}  // namespace scribe

namespace {

// A message on standard error that needs no memory (after running out).
void Say(const char* text) {
  for (size_t n = std::strlen(text); n > 0;) {
    const ssize_t k = ::write(STDERR_FILENO, text, n);
    if (k <= 0) return;
    text += k;
    n -= static_cast<size_t>(k);
  }
}

}  // namespace

// No exception leaves main: running out of memory (an input too large for
// the address space allowed) is a message and exit 2, as is any other
// exception (a bug: it is named).
int main(int argc, char** argv) {
  try {
    return scribe::Main(argc, argv);
  } catch (const std::bad_alloc&) {
    Say("scribe: out of memory (the input is too large for the memory allowed)\n");
  } catch (const std::exception& e) {
    Say("scribe: internal error: ");
    Say(e.what());
    Say("\n");
  } catch (...) {
    Say("scribe: internal error: an unknown exception\n");
  }
  return scribe::kExitUsage;
}
