// Placeholder until games/rating.h lands: recomputation of ratings.
#include "games/import.h"

namespace scribe::games {

absl::Status RecomputeRatings(Store&) { return absl::OkStatus(); }

}  // namespace scribe::games
