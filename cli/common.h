// What every scribe command shares: exit codes, reading files (and finding
// the record files a command is given), and the --ruleset argument.
#ifndef SCRIBE_CLI_COMMON_H_
#define SCRIBE_CLI_COMMON_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "records/formats.h"

namespace scribe {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUsage = 2;

// Reads a whole file ("-": standard input); false with `error` set when it
// cannot (missing, a directory, more than 512 MiB, a read error).
bool ReadFile(const std::string& path, std::string* out, std::string* error);

// ReadFile for a command's one record file: when it cannot be read, prints
// "scribe: <why>" and returns false.
bool ReadRecordFile(const std::string& path, std::string* text);

bool IsReadableFile(const std::string& path);

// The record files named on the command line: files as they are,
// directories searched for .tsn, .json and .rgn files, in name order. False
// (with a message) when a directory cannot be searched.
bool ExpandPaths(const std::vector<std::string>& paths, std::vector<std::string>* out);

// The input format of a record file: --from when given, else by name and
// content.
Format InputFormat(const std::string& from, const std::string& path, absl::string_view text);

// --ruleset: a ruleset file when such a file exists, else a reference.
absl::StatusOr<std::shared_ptr<const Rules>> CliRuleset(const std::string& ref);

// The reader options of the record commands from their --ruleset and
// --tiles flags: with a ruleset, every record is judged under it, and
// formats that name no ruleset (RGN) take its id (or, when it has none, the
// reference as typed). An empty `ruleset_ref` sets no rules. Fails as
// CliRuleset does.
absl::StatusOr<RecordIo> ReaderOptions(const std::string& ruleset_ref, bool tile_names);

// Prints "scribe: ruleset: <message>" and returns kExitUsage.
int RulesetError(const absl::Status& status);

}  // namespace scribe

#endif  // SCRIBE_CLI_COMMON_H_
