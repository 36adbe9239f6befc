// What every scribe command shares: exit codes, the input format of a
// record file, the --ruleset argument and the evaluator of --table or
// --depth; and, through the two headers below, reading the files a
// command is given (cli/input_files.h) and writing its output
// (cli/output.h).
#ifndef SCRIBE_CLI_COMMON_H_
#define SCRIBE_CLI_COMMON_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "cli/input_files.h"
#include "cli/output.h"
#include "engine/evaluator.h"
#include "engine/rules.h"
#include "records/formats.h"

namespace scribe {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUsage = 2;

// The input format of a record file: --from when given, else by name and
// content.
Format InputFormat(const std::string& from, const std::string& path, absl::string_view text);

// --ruleset: a ruleset file when such a file exists, else a reference.
absl::StatusOr<std::shared_ptr<const Rules>> CliRuleset(const std::string& ref);

// The rules policy of the record commands from their --ruleset flag: with a
// ruleset, every record that names none (or one that does not resolve) is
// judged under it, a record whose own rules differ is judged by its own
// with a ruleset-conflict finding, and formats that name no ruleset (RGN)
// take its id (or, when it has none, the reference as typed). An empty
// `ruleset_ref` sets no rules. Fails as CliRuleset does.
absl::StatusOr<RulesPolicy> ReaderOptions(const std::string& ruleset_ref);

// Prints "scribe: ruleset: <message>" and returns kExitUsage.
int RulesetError(const absl::Status& status);

// The solved table of --table (Scribe's or RoyalUr's .rgu, told apart by
// their magic) for `rules`: a table of other rules is FAILED_PRECONDITION
// naming both; every message starts "--table: ".
absl::StatusOr<std::shared_ptr<const Evaluator>> OpenTableFor(const std::string& path,
                                                              std::shared_ptr<const Rules> rules);

// What --table FILE or --depth N ask for: the table when `table` is not
// empty (as OpenTableFor), else a search of `depth` plies.
absl::StatusOr<std::shared_ptr<const Evaluator>> TableOrSearch(const std::string& table, int depth,
                                                               std::shared_ptr<const Rules> rules);

}  // namespace scribe

#endif  // SCRIBE_CLI_COMMON_H_
