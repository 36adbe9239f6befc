// What every scribe command shares: exit codes, reading files (and finding
// the record files a command is given), writing outputs and checking that
// they were written, text from a record made safe for a terminal, and the
// --ruleset argument.
#ifndef SCRIBE_CLI_COMMON_H_
#define SCRIBE_CLI_COMMON_H_

#include <memory>
#include <streambuf>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/evaluator.h"
#include "engine/rules.h"
#include "records/formats.h"

namespace scribe {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUsage = 2;

// Reads a whole file ("-": standard input) of any kind: a regular file, a
// pipe, /dev/stdin, a process substitution; false with `error` set when it
// cannot (missing, a directory, more than 512 MiB, a read error). A file of
// unknown size (a pipe, /dev/zero) is read in chunks and refused when it
// goes past the limit.
bool ReadFile(const std::string& path, std::string* out, std::string* error);

// ReadFile for a command's one record file: when it cannot be read, prints
// "scribe: <why>" and returns false.
bool ReadRecordFile(const std::string& path, std::string* text);

bool IsReadableFile(const std::string& path);

// One of the files named on the command line or found in a folder: a
// file to read, or an entry a folder's walk found but cannot take, with
// why (`error`, which starts with its path).
struct PathEntry {
  std::string path;
  std::string error;
};

// The record files named on the command line: files as they are, folders
// searched with their subfolders for .tsn, .json and .rgn files, in name
// order. Each entry the walk cannot take is in *out with its own error (a
// subfolder it cannot read, a dangling symbolic link or a loop of them,
// a FIFO or device with a record file's name), and the walk goes on past
// it; then the result is false. Links to folders are not followed.
bool ExpandPaths(const std::vector<std::string>& paths, std::vector<PathEntry>* out);

// The input format of a record file: --from when given, else by name and
// content.
Format InputFormat(const std::string& from, const std::string& path, absl::string_view text);

// Standard output, checked: while one lives, std::cout writes to file
// descriptor 1 through a buffer that keeps the first write error (line by
// line on a terminal, as stdio does). main makes one; its destructor
// flushes and puts std::cout back.
class CheckedStandardOutput {
 public:
  CheckedStandardOutput();
  ~CheckedStandardOutput();
  CheckedStandardOutput(const CheckedStandardOutput&) = delete;
  CheckedStandardOutput& operator=(const CheckedStandardOutput&) = delete;

 private:
  std::unique_ptr<std::streambuf> buffer_;
  std::streambuf* previous_;
};

// Flushes standard output and checks that everything written to it got
// there; when it did not (a full disk, /dev/full), prints "scribe:
// <command>: cannot write standard output: <why>" and returns false. A
// closed pipe (EPIPE, when SIGPIPE is ignored; else SIGPIPE ends the
// process) returns false without a message: the reader stopped reading on
// purpose. Commands stop writing once std::cout has failed. The registry
// calls it after every command.
bool CheckStandardOutput(const std::string& command);

// Writes `contents` to the file `path` and closes it; when that fails,
// prints "scribe: <command>: cannot write <path>: <why>" and returns false.
bool WriteOutputFile(const std::string& command, const std::string& path, absl::string_view contents);

// Text that came from a record or a file (a tag, a comment, a name, a
// finding's message quoting the input), made safe to print on a terminal:
// control bytes (0x00-0x1f, 0x7f, and C1 controls, 0x80-0x9f as raw bytes
// or U+0080-U+009F in UTF-8) are written as visible escapes (\x1b,
// \u009b), so no record can move the cursor, retitle or clear the screen.
// A backslash is written as two (\\), so that an escape made here can be
// told from the same characters typed in the text.
// With `keep_newlines`, '\n' stays (output of several lines).
std::string TerminalText(absl::string_view text, bool keep_newlines = false);

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
