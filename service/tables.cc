#include "service/tables.h"

#include <map>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "analysis/open_table.h"
#include "engine/ruleset.h"

namespace scribe::service {

absl::StatusOr<std::vector<LoadedTable>> OpenTables(const std::vector<std::string>& paths) {
  std::vector<LoadedTable> out;
  std::map<std::string, std::string> by_digest;  // digest -> path
  for (const std::string& path : paths) {
    auto table = OpenTable(path);
    if (!table.ok()) {
      // The library's message names the file first.
      return absl::Status(table.status().code(), absl::StrReplaceAll(table.status().message(), {{"\n", " "}}));
    }
    const Rules& rules = (*table)->rules();
    const std::string name = RulesetName(rules);
    if (auto seen = by_digest.find(rules.digest); seen != by_digest.end()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": a second table of ruleset ", name, " (digest ",
                                                     rules.digest, "), after ", seen->second,
                                                     "; give one table per ruleset"));
    }
    by_digest[rules.digest] = path;
    const TableInfo& info = (*table)->info();
    LoadedTable loaded;
    loaded.path = path;
    const std::string size = info.file_bytes < (1 << 20) ? absl::StrFormat("%.1f KiB", info.file_bytes / 1024.0)
                                                         : absl::StrFormat("%.1f MiB", info.file_bytes / 1048576.0);
    loaded.summary = absl::StrFormat("ruleset %s, digest %s, %d positions, %s mapped", name, rules.digest,
                                     info.positions, size);
    loaded.evaluator = std::shared_ptr<const Evaluator>(std::move(*table));
    out.push_back(std::move(loaded));
  }
  return out;
}

}  // namespace scribe::service
