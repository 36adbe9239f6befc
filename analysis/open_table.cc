#include "analysis/open_table.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "analysis/rgu.h"
#include "engine/ruleset.h"
#include "engine/state_index.h"
#include "engine/status_macros.h"

namespace scribe {

absl::StatusOr<std::unique_ptr<SolvedTable>> OpenTable(const std::string& path,
                                                       std::shared_ptr<const Rules> expected) {
  char magic[3] = {};
  if (std::FILE* f = std::fopen(path.c_str(), "rbe"); f != nullptr) {
    const size_t n = std::fread(magic, 1, sizeof(magic), f);
    std::fclose(f);
    if (n == sizeof(magic) && std::memcmp(magic, kRguMagic, sizeof(magic)) == 0) {
      SCRIBE_ASSIGN_OR_RETURN(std::unique_ptr<RguTable> table, RguTable::Open(path, std::move(expected)));
      return std::unique_ptr<SolvedTable>(std::move(table));
    }
  }
  // Scribe's reader says why anything else is not a table (or is missing).
  SCRIBE_ASSIGN_OR_RETURN(std::unique_ptr<TableEvaluator> table, TableEvaluator::Open(path, std::move(expected)));
  return std::unique_ptr<SolvedTable>(std::move(table));
}

absl::Status WriteAsScribeTable(const SolvedTable& table, const std::string& path) {
  const Rules& rules = table.rules();
  SCRIBE_ASSIGN_OR_RETURN(const std::unique_ptr<StateIndex> index, StateIndex::Create(rules));
  std::vector<uint16_t> values(index->size());
  const int n = rules.pieces;
  for (int mo = 0; mo < n; ++mo) {
    for (int oo = 0; oo < n; ++oo) {
      index->ForEachInLayer(mo, oo, [&](uint64_t rank, uint32_t mover_occ, uint32_t opp_occ) {
        values[rank] = table.Stored(mover_occ, mo, opp_occ, oo);
      });
    }
  }
  const TableInfo& info = table.info();
  return WriteTableValues(path, rules, values, {info.source, info.tolerance, info.seconds});
}

std::optional<std::string> MatchingPreset(const Rules& rules) {
  for (const PresetInfo& p : Presets()) {
    auto preset = LoadRuleset(p.id);
    if (preset.ok() && (*preset)->digest == rules.digest) return p.id;
  }
  return std::nullopt;
}

}  // namespace scribe
