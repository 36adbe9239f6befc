// Reading the files a command is given: a whole file of any kind, and
// the record files named on the command line, folders walked.
#ifndef SCRIBE_CLI_INPUT_FILES_H_
#define SCRIBE_CLI_INPUT_FILES_H_

#include <cstdint>
#include <string>
#include <vector>

namespace scribe {

// Files larger than this are refused rather than read into memory.
inline constexpr int64_t kMaxFileBytes = int64_t{512} * 1024 * 1024;

// Reads a whole file ("-": standard input) of any kind: a regular file, a
// pipe, /dev/stdin, a process substitution; false with `error` set when it
// cannot (missing, a directory, more than 512 MiB, a read error). A file of
// unknown size (a pipe, /dev/zero) is read in chunks and refused when it
// goes past the limit.
bool ReadFile(const std::string& path, std::string* out, std::string* error);

// True when a file of `bytes` is within kMaxFileBytes; else false with
// `error` saying so.
bool WithinFileLimit(const std::string& path, int64_t bytes, std::string* error);

// ReadFile of a file already open (`path` names it in messages).
bool ReadOpenFile(int fd, const std::string& path, std::string* out, std::string* error);

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

}  // namespace scribe

#endif  // SCRIBE_CLI_INPUT_FILES_H_
