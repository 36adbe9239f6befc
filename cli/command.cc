#include "cli/command.h"

#include "cli/common.h"

namespace scribe {

CLI::App* CommandRegistry::Add(CLI::App& parent, const std::string& name, const std::string& description,
                               std::function<int()> run) {
  CLI::App* app = parent.add_subcommand(name, description);
  commands_.emplace_back(app, std::move(run));
  return app;
}

CLI::App* CommandRegistry::AddGroup(CLI::App& parent, const std::string& name, const std::string& description) {
  CLI::App* group = parent.add_subcommand(name, description);
  group->require_subcommand(1);
  return group;
}

int CommandRegistry::Run() const {
  for (const auto& [app, run] : commands_) {
    if (app->parsed()) return run();
  }
  return kExitUsage;
}

}  // namespace scribe
