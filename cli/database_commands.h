// scribe db: the game database (docs/database.md): import, search,
// explore, player, export.
#ifndef SCRIBE_CLI_DATABASE_COMMANDS_H_
#define SCRIBE_CLI_DATABASE_COMMANDS_H_

#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "cli/command.h"
#include "games/rules_cache.h"
#include "games/store.h"

namespace scribe {

void AddDatabaseCommands(CLI::App& app, CommandRegistry& registry);

// Shared by the db commands (database_commands.cc, database_queries.cc).
inline constexpr char kDefaultDatabase[] = "games.db";

// Prints "scribe: db CMD: MESSAGE" and returns kExitUsage.
int DatabaseError(const std::string& command, const absl::Status& status);

// The database at --db, which must exist: nullptr after printing why.
std::unique_ptr<games::Store> OpenExisting(const std::string& command, const std::string& db);

// The filters shared by search and export.
struct GameFilters {
  std::string player, light, dark, event, ruleset, date_from, date_to, result;
  std::string sort = "id";
  bool descending = false;
};
void AddFilterOptions(CLI::App* app, GameFilters& f);
// The query of the filters; INVALID_ARGUMENT for a ruleset the database
// does not hold (says so) or a bad value.
absl::Status MakeQuery(games::Store& store, const GameFilters& f, games::GameQuery* q);

// The rules of --ruleset `ref` among the database's, or (ref empty) the
// database's only ruleset: INVALID_ARGUMENT when it holds none or several.
absl::StatusOr<const games::KnownRules*> RulesOf(games::Store& store, games::RulesCache& cache,
                                                 const std::string& ref);

void AddDatabaseQueries(CLI::App& db, CommandRegistry& registry);
void AddPlayerCommand(CLI::App& db, CommandRegistry& registry);
void AddPagesCommand(CLI::App& db, CommandRegistry& registry);

}  // namespace scribe

#endif  // SCRIBE_CLI_DATABASE_COMMANDS_H_
