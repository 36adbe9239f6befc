// Solved tables for the server (`scribed --table FILE`): opened once at
// start, memory-mapped, one per ruleset; Scribe's tables or RoyalUr's
// (.rgu), by the file's magic (analysis/open_table.h).
#ifndef SCRIBE_SERVICE_TABLES_H_
#define SCRIBE_SERVICE_TABLES_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/evaluator.h"

namespace scribe::service {

struct LoadedTable {
  std::string path;
  // Exact values for the ruleset the table was solved for (its own,
  // whatever the file is called).
  std::shared_ptr<const Evaluator> evaluator;
  // For the log: "ruleset finkel, digest 13f33ad027a00895, 137870097
  // positions, 263.0 MiB mapped" (KiB under a MiB).
  std::string summary;
};

// Opens the tables at `paths`, in order. An error whose message starts with
// the path, on one line (OpenTable's), for a file that cannot be opened (NOT_FOUND), is
// not a table or is damaged (INVALID_ARGUMENT), or is a second table of a
// ruleset already loaded (INVALID_ARGUMENT: a server keeps one per digest).
absl::StatusOr<std::vector<LoadedTable>> OpenTables(const std::vector<std::string>& paths);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_TABLES_H_
