// Solved tables on disk: the exact winning chance of every position of a
// ruleset (engine/solver.h computes them), written once and read by
// memory-mapping.
//
// File format (docs/analysis.md): a fixed header (magic "SCRIBETB", format
// version, the ruleset's digest, the number of positions, the tolerance the
// solve reached, where the values come from), the resolved ruleset as protobuf text, then one
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
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "analysis/mapped_file.h"
#include "engine/evaluator.h"
#include "engine/rules.h"
#include "engine/solver.h"
#include "engine/state_index.h"

namespace scribe {

// Where a table's values come from.
enum class TableSource : uint32_t {
  kSolved = 0,   // Scribe's solver (`scribe solve`)
  kRoyalUr = 1,  // a RoyalUr table (.rgu), imported or read directly
};

struct TableInfo {
  std::string digest;        // the ruleset's digest (engine/ruleset.h)
  std::string ruleset_text;  // resolved ruleset, protobuf text
  uint64_t positions = 0;
  // Largest Bellman residual when solved (RoyalUr's: its training
  // precision), as a chance; 0 when unknown.
  double tolerance = 0;
  double seconds = 0;        // how long the solve took (0: unknown)
  uint64_t file_bytes = 0;
  TableSource source = TableSource::kSolved;
  std::string format;        // "Scribe table, version 1", "RoyalUr .rgu, version 0, percent16"
  uint64_t entries = 0;      // values the file holds (an .rgu's keys; a Scribe table's positions)
  std::string notes;         // format-specific, for `scribe table info` (an .rgu's settings and keys)
};

// Where a table came from, as its header records it.
struct TableProvenance {
  TableSource source = TableSource::kSolved;
  double tolerance = 0;
  double seconds = 0;
};

// Writes `solution` (for `rules`) to `path`, atomically (a temporary file
// renamed into place).
absl::Status WriteTable(const std::string& path, const Rules& rules, const Solution& solution);
// The same from stored values (chance * 65535, by rank), e.g. imported ones.
absl::Status WriteTableValues(const std::string& path, const Rules& rules, const std::vector<uint16_t>& values,
                              const TableProvenance& provenance);

// A solved table of either format: exact values for one ruleset.
class SolvedTable : public Evaluator {
 public:
  double Value(const Position& pos) const override {
    if (IsOver(*rules_, pos)) return FinishedValue(*rules_, pos);
    const Side me = pos.to_move;
    return Stored(pos.occ[me], pos.count[me][rules_->off], pos.occ[Other(me)], pos.count[Other(me)][rules_->off]) /
           65535.0;
  }
  // The stored value (chance * 65535, rounded) of a position whose game is
  // not over, seen from its side to move.
  virtual uint16_t Stored(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off) const = 0;
  bool exact() const override { return true; }
  std::string name() const override;
  const Rules& rules() const override { return *rules_; }
  std::shared_ptr<const Rules> shared_rules() const { return rules_; }
  const TableInfo& info() const { return info_; }

 protected:
  std::shared_ptr<const Rules> rules_;
  TableInfo info_;
};

// An exact evaluator over a memory-mapped Scribe table.
class TableEvaluator : public SolvedTable {
 public:
  // Maps `path`. With `expected` rules, a table for other rules is refused
  // (FAILED_PRECONDITION naming both digests); without, the table's own
  // ruleset is loaded. INVALID_ARGUMENT for a file that is not a table, or
  // is truncated or damaged; NOT_FOUND when it does not exist.
  static absl::StatusOr<std::unique_ptr<TableEvaluator>> Open(
      const std::string& path, std::shared_ptr<const Rules> expected = nullptr);

  uint16_t Stored(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off) const override {
    return values_[index_->Rank(mover_occ, mover_off, opp_occ, opp_off)];
  }
  const StateIndex& index() const { return *index_; }

 private:
  TableEvaluator() = default;
  std::unique_ptr<StateIndex> index_;
  const uint16_t* values_ = nullptr;
  MappedFile file_;  // the file the pointers above point into
};

}  // namespace scribe

#endif  // SCRIBE_ANALYSIS_TABLE_H_
