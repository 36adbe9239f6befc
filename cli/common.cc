#include "cli/common.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "analysis/open_table.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "engine/status_macros.h"

namespace scribe {

Format InputFormat(const std::string& from, const std::string& path, absl::string_view text) {
  if (!from.empty()) return *FormatFromName(from);
  return DetectFormat(path, text);
}

// --ruleset: a ruleset file when such a file exists, else a reference. A
// reference that can only be a path (a '/' or a '.' outside overrides: no
// preset's id has either) is a file, and when it cannot be read that is
// what is said, not "unknown ruleset".
absl::StatusOr<std::shared_ptr<const Rules>> CliRuleset(const std::string& ref) {
  const bool no_overrides = ref.find('(') == std::string::npos;
  const bool path_like = no_overrides && ref.find_first_of("/.") != std::string::npos;
  if (no_overrides && (path_like || IsReadableFile(ref))) {
    std::string text, error;
    if (!ReadFile(ref, &text, &error)) return absl::InvalidArgumentError(error);
    auto rules = LoadRulesetText(text);
    if (!rules.ok()) {
      return absl::Status(rules.status().code(),
                          absl::StrCat(ref, ": ", rules.status().message()));
    }
    return rules;
  }
  return LoadRuleset(ref);
}

absl::StatusOr<RulesPolicy> ReaderOptions(const std::string& ruleset_ref) {
  RulesPolicy io;
  if (ruleset_ref.empty()) return io;
  SCRIBE_ASSIGN_OR_RETURN(io.rules, CliRuleset(ruleset_ref));
  io.ruleset = RulesetReference(*io.rules, ruleset_ref);
  io.conflict_is_finding = true;  // --ruleset is for records that name none
  return io;
}

int RulesetError(const absl::Status& status) {
  std::cerr << "scribe: ruleset: " << TerminalText(status.message(), /*keep_newlines=*/true) << "\n";
  return kExitUsage;
}

absl::StatusOr<std::shared_ptr<const Evaluator>> OpenTableFor(const std::string& path,
                                                              std::shared_ptr<const Rules> rules) {
  auto table = OpenTable(path, std::move(rules));
  if (!table.ok()) return absl::Status(table.status().code(), absl::StrCat("--table: ", table.status().message()));
  return std::shared_ptr<const Evaluator>(std::move(*table));
}

absl::StatusOr<std::shared_ptr<const Evaluator>> TableOrSearch(const std::string& table, int depth,
                                                               std::shared_ptr<const Rules> rules) {
  if (!table.empty()) return OpenTableFor(table, std::move(rules));
  return std::shared_ptr<const Evaluator>(std::make_shared<SearchEvaluator>(std::move(rules), depth));
}

}  // namespace scribe
