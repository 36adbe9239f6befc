// A record file read in place for a long read (the database import): the
// file is mapped, not copied, and the pages read so far can be given back,
// so the memory it costs does not grow with its size.
#ifndef SCRIBE_CLI_RECORD_FILE_MAP_H_
#define SCRIBE_CLI_RECORD_FILE_MAP_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace scribe {

class RecordFileMap {
 public:
  RecordFileMap() = default;
  RecordFileMap(const RecordFileMap&) = delete;
  RecordFileMap& operator=(const RecordFileMap&) = delete;
  ~RecordFileMap();

  // Maps a regular file; anything else (a pipe, /dev/stdin) is read whole
  // (ReadFile). False with `error` set as ReadFile sets it (missing, a
  // directory, more than ReadFile's limit). One RecordFileMap is open at a
  // time in a process.
  bool Open(const std::string& path, std::string* error);
  absl::string_view text() const { return text_; }
  // Gives the pages of the mapping back to the system: this process no
  // longer counts them, and a page touched again is read again (from the
  // page cache). The text is unchanged.
  void Release();
  // True when the file was cut short while mapped: the bytes past its new
  // end read as zeros (the reader finds them wrong), where reading them
  // would otherwise have killed the process (SIGBUS).
  bool Shrank() const;

 private:
  void Close();
  std::string copy_;  // a file that is not mapped
  void* map_ = nullptr;
  size_t bytes_ = 0;
  absl::string_view text_;
};

}  // namespace scribe

#endif  // SCRIBE_CLI_RECORD_FILE_MAP_H_
