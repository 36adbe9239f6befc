#include "cli/command.h"

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

}  // namespace scribe
