// Writing a command's output: standard output checked, output files, and
// text from a record made safe for a terminal.
#ifndef SCRIBE_CLI_OUTPUT_H_
#define SCRIBE_CLI_OUTPUT_H_

#include <memory>
#include <streambuf>
#include <string>

#include "absl/strings/string_view.h"

namespace scribe {

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

}  // namespace scribe

#endif  // SCRIBE_CLI_OUTPUT_H_
