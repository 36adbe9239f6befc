#include "storage/open_store.h"

namespace scribe::storage {

absl::StatusOr<std::unique_ptr<games::Store>> OpenPostgresStore(const std::string& location, OpenMode) {
  return absl::UnimplementedError("not built yet: " + location);
}

}  // namespace scribe::storage
