// The SQLite backend's knobs beyond OpenSqliteStore(path, mode) (open_store.h),
// and what its tests look at: the schema's marks and the plan of a search.
#ifndef SCRIBE_STORAGE_SQLITE_STORE_H_
#define SCRIBE_STORAGE_SQLITE_STORE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "games/store.h"
#include "storage/open_store.h"

namespace scribe::storage {

// PRAGMA application_id of a Scribe game database: 'Scrb'.
inline constexpr int32_t kSqliteApplicationId = 0x53637262;
// PRAGMA user_version: the schema version this build makes, and the
// newest it reads (older ones are migrated to it).
int SqliteSchemaVersion();

struct SqliteOptions {
  // How long BeginWrite (and opening a database that needs its schema
  // made) waits for another writer before UNAVAILABLE.
  int busy_timeout_ms = 10'000;
  // A cap on the file's size in pages (0: none). Reaching it is reported
  // like a full disk (RESOURCE_EXHAUSTED).
  int64_t max_page_count = 0;
  // The players' recount (RecomputePlayers) sums up to this many names in
  // memory from one scan of the games (about 250 bytes a name); past it,
  // SQL's GROUP BY does it, in SQLite's bounded sorter.
  int64_t players_in_memory = 100'000;
};

absl::StatusOr<std::unique_ptr<games::Store>> OpenSqliteStore(const std::string& path, OpenMode mode,
                                                              const SqliteOptions& options);

// SQLite's plan for FindGames(query, 0, 20) on `store` (EXPLAIN QUERY
// PLAN's lines, one a line): the tests check a search uses an index.
// INVALID_ARGUMENT when `store` is not a SQLite store.
absl::StatusOr<std::string> SqliteFindGamesPlan(games::Store& store, const games::GameQuery& query);

}  // namespace scribe::storage

#endif  // SCRIBE_STORAGE_SQLITE_STORE_H_
