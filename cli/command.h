// How a scribe command is declared: one way for every command.
//
// Each command group has an AddXCommands(app, registry) function. For each
// command it calls registry.Add(parent, name, description, run), where run
// is the command's body, `int CmdX(const XOptions&)`. The registry makes and
// keeps the XOptions; Add returns the new subcommand and those options, to
// bind CLI11 options to their fields. A group of commands (`ruleset show`,
// `table info`) is a subcommand made by AddGroup, whose commands are added
// to it in turn. After CLI11 has parsed the command line, registry.Run()
// runs the one command that it parsed and returns its exit code; it then
// checks that everything the command wrote to standard output got there
// (CheckStandardOutput): when not, the exit code is kExitUsage.
#ifndef SCRIBE_CLI_COMMAND_H_
#define SCRIBE_CLI_COMMAND_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace scribe {

// A declared command: add options to `app`, bound to fields of `options`.
template <typename Options>
struct Command {
  CLI::App* app;
  Options& options;
};

class CommandRegistry {
 public:
  // A command with options: `run` is called with them when it is parsed.
  template <typename Options>
  Command<Options> Add(CLI::App& parent, const std::string& name, const std::string& description,
                       int (*run)(const Options&)) {
    auto options = std::make_shared<Options>();
    CLI::App* app = Add(parent, name, description, [options, run] { return run(*options); });
    return {app, *options};
  }

  // A command without options.
  CLI::App* Add(CLI::App& parent, const std::string& name, const std::string& description,
                std::function<int()> run);

  // A group of commands, itself not run: exactly one of them must follow it.
  CLI::App* AddGroup(CLI::App& parent, const std::string& name, const std::string& description);

  // Runs the command CLI11 parsed and returns its exit code; kExitUsage when
  // none was, or when its standard output could not be written.
  int Run() const;

 private:
  struct Entry {
    CLI::App* app;
    std::string name;  // as typed: "convert", "ruleset show"
    std::function<int()> run;
  };
  std::vector<Entry> commands_;
};

// The check of a --seed: a whole number from 0 to 2^64 - 1 written in
// decimal digits alone; "-1" (which would wrap to 2^64 - 1) and seeds past
// 2^64 - 1 (which would be cut short) are refused, naming the value.
CLI::Validator SeedNumber();

}  // namespace scribe

#endif  // SCRIBE_CLI_COMMAND_H_
