// A solved table of either format, chosen by the file's first bytes (not its
// name): Scribe's own (analysis/table.h, magic "SCRIBETB") or RoyalUr's
// (analysis/rgu.h, magic "RGU"); and conversion between the two.
#ifndef SCRIBE_ANALYSIS_OPEN_TABLE_H_
#define SCRIBE_ANALYSIS_OPEN_TABLE_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "analysis/table.h"

namespace scribe {

// TableEvaluator::Open or RguTable::Open, by the file's magic; the errors
// are theirs (a file that is neither: INVALID_ARGUMENT naming both magics).
absl::StatusOr<std::unique_ptr<SolvedTable>> OpenTable(const std::string& path,
                                                       std::shared_ptr<const Rules> expected = nullptr);

// Writes `table`'s values as a Scribe table at `path`, with its source,
// residual and solve time (`scribe table import`).
absl::Status WriteAsScribeTable(const SolvedTable& table, const std::string& path);

// The preset whose rules these are (the same digest), for `scribe table
// info`; nullopt for rules of no preset (e.g. finkel(pieces=2)).
std::optional<std::string> MatchingPreset(const Rules& rules);

}  // namespace scribe

#endif  // SCRIBE_ANALYSIS_OPEN_TABLE_H_
