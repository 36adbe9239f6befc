// The PostgreSQL backend of games/store.h, with the knobs a caller (a test,
// a server with its own limits) may set beyond the connection URL. All of
// its SQL is in postgres_store.cc; OpenStore (open_store.h) opens it with
// the defaults.
#ifndef SCRIBE_STORAGE_POSTGRES_STORE_H_
#define SCRIBE_STORAGE_POSTGRES_STORE_H_

#include <chrono>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "games/store.h"
#include "storage/open_store.h"

namespace scribe::storage {

// The schema version this build makes and reads (the table scribe_schema
// holds a database's). A database of a newer version is refused with
// FAILED_PRECONDITION; an older one is migrated on open.
inline constexpr int kPostgresSchemaVersion = 5;

struct PostgresOptions {
  // How long BeginWrite waits for another writer before UNAVAILABLE.
  std::chrono::milliseconds lock_timeout{10'000};
  // How long connecting may take, when the URL sets no connect_timeout.
  std::chrono::seconds connect_timeout{5};
  // How long a write may sit idle inside its transaction before the server
  // ends it (and its writer lock goes): a write's statements follow each
  // other within seconds; a writer frozen or cut off mid-write must not
  // stop every other for hours. When the URL sets no options of its own.
  std::chrono::milliseconds idle_write_timeout{60'000};
};

absl::StatusOr<std::unique_ptr<games::Store>> OpenPostgresStore(const std::string& url, OpenMode mode,
                                                                const PostgresOptions& options);

}  // namespace scribe::storage

#endif  // SCRIBE_STORAGE_POSTGRES_STORE_H_
