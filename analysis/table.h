// Solved tables on disk: the exact winning chance of every position of a
// ruleset (engine/solver.h computes them), written once and read by
// memory-mapping.
//
// File format (docs/analysis.md): a fixed header (magic "SCRIBETB", format
// version, the ruleset's digest, the number of positions, the tolerance the
// solve reached), the resolved ruleset as protobuf text, then one
// little-endian uint16 per position in StateIndex order (engine/state_index.h),
// value = chance * 65535, rounded. Nothing else: positions are found by
// their rank, no keys are stored.
//
// A table is refused, never misread, when its magic, version, size, digest
// or ruleset text do not agree with each other or with the rules the caller
// expects.
#ifndef SCRIBE_ANALYSIS_TABLE_H_
#define SCRIBE_ANALYSIS_TABLE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/evaluator.h"
#include "engine/rules.h"
#include "engine/solver.h"
#include "engine/state_index.h"

namespace scribe {

struct TableInfo {
  std::string digest;        // the ruleset's digest (engine/ruleset.h)
  std::string ruleset_text;  // resolved ruleset, protobuf text
  uint64_t positions = 0;
  double tolerance = 0;      // largest Bellman residual when solved
  double seconds = 0;        // how long the solve took
  uint64_t file_bytes = 0;
};

// Writes `solution` (for `rules`) to `path`, atomically (a temporary file
// renamed into place).
absl::Status WriteTable(const std::string& path, const Rules& rules, const Solution& solution);

// An exact evaluator over a memory-mapped table.
class TableEvaluator : public Evaluator {
 public:
  // Maps `path`. With `expected` rules, a table for other rules is refused
  // (FAILED_PRECONDITION naming both digests); without, the table's own
  // ruleset is loaded. INVALID_ARGUMENT for a file that is not a table, or
  // is truncated or damaged; NOT_FOUND when it does not exist.
  static absl::StatusOr<std::unique_ptr<TableEvaluator>> Open(
      const std::string& path, std::shared_ptr<const Rules> expected = nullptr);
  ~TableEvaluator() override;

  double Value(const Position& pos) const override;
  bool exact() const override { return true; }
  std::string name() const override;
  const Rules& rules() const override { return *rules_; }
  std::shared_ptr<const Rules> shared_rules() const { return rules_; }
  const TableInfo& info() const { return info_; }

 private:
  TableEvaluator() = default;
  std::shared_ptr<const Rules> rules_;
  std::unique_ptr<StateIndex> index_;
  TableInfo info_;
  const uint16_t* values_ = nullptr;
  void* map_ = nullptr;
  size_t map_bytes_ = 0;
};

}  // namespace scribe

#endif  // SCRIBE_ANALYSIS_TABLE_H_
