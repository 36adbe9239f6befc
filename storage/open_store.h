// Opening a game database: a SQLite file, or a PostgreSQL server given by a
// connection URL.
#ifndef SCRIBE_STORAGE_OPEN_STORE_H_
#define SCRIBE_STORAGE_OPEN_STORE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "games/store.h"

namespace scribe::storage {

enum class OpenMode {
  kCreate,    // make the database (schema included) when it is not there
  kExisting,  // NOT_FOUND when there is no database there
};

// `location` is a PostgreSQL URL ("postgresql://user@host:port/db" or
// "postgres://..."), else the path of a SQLite file. The schema is made or
// migrated to this build's version; a database made by a newer build is
// FAILED_PRECONDITION, a file that is not a Scribe database DATA_LOSS.
absl::StatusOr<std::unique_ptr<games::Store>> OpenStore(const std::string& location, OpenMode mode);

bool IsPostgresUrl(const std::string& location);

// The backends (open_store.cc picks one).
absl::StatusOr<std::unique_ptr<games::Store>> OpenSqliteStore(const std::string& path, OpenMode mode);
absl::StatusOr<std::unique_ptr<games::Store>> OpenPostgresStore(const std::string& url, OpenMode mode);

}  // namespace scribe::storage

#endif  // SCRIBE_STORAGE_OPEN_STORE_H_
