// What every scribe command shares: exit codes, reading files, and the
// --ruleset argument.
#ifndef SCRIBE_CLI_COMMON_H_
#define SCRIBE_CLI_COMMON_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/rules.h"

namespace scribe {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUsage = 2;

// Reads a whole file ("-": standard input); false with `error` set when it
// cannot (missing, a directory, more than 512 MiB, a read error).
bool ReadFile(const std::string& path, std::string* out, std::string* error);

bool IsReadableFile(const std::string& path);

// --ruleset: a ruleset file when such a file exists, else a reference.
absl::StatusOr<std::shared_ptr<const Rules>> CliRuleset(const std::string& ref);

// Prints "scribe: ruleset: <message>" and returns kExitUsage.
int RulesetError(const absl::Status& status);

}  // namespace scribe

#endif  // SCRIBE_CLI_COMMON_H_
