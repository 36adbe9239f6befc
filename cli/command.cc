#include "cli/command.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cli/common.h"

namespace scribe {

CLI::App* CommandRegistry::Add(CLI::App& parent, const std::string& name, const std::string& description,
                               std::function<int()> run) {
  CLI::App* app = parent.add_subcommand(name, description);
  // A command of a group is named with its group ("table info").
  const std::string full = parent.get_parent() == nullptr ? name : parent.get_name() + " " + name;
  commands_.push_back({app, full, std::move(run)});
  return app;
}

CLI::App* CommandRegistry::AddGroup(CLI::App& parent, const std::string& name, const std::string& description) {
  CLI::App* group = parent.add_subcommand(name, description);
  group->require_subcommand(1);
  return group;
}

int CommandRegistry::Run() const {
  for (const Entry& command : commands_) {
    if (!command.app->parsed()) continue;
    const int code = command.run();
    return CheckStandardOutput(command.name) ? code : kExitUsage;
  }
  return kExitUsage;
}

CLI::Validator SeedNumber() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        uint64_t seed;
        const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
        if (digits && absl::SimpleAtoi(value, &seed)) return "";
        return absl::StrCat("\"", TerminalText(value), "\" is not a seed (a whole number from 0 to ",
                            UINT64_MAX, ")");
      },
      "SEED");
}

}  // namespace scribe
