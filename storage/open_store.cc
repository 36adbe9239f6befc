#include "storage/open_store.h"

#include "absl/strings/match.h"

namespace scribe::storage {

bool IsPostgresUrl(const std::string& location) {
  return absl::StartsWith(location, "postgresql://") || absl::StartsWith(location, "postgres://");
}

absl::StatusOr<std::unique_ptr<games::Store>> OpenStore(const std::string& location, OpenMode mode) {
  if (IsPostgresUrl(location)) return OpenPostgresStore(location, mode);
  return OpenSqliteStore(location, mode);
}

}  // namespace scribe::storage
