// A file mapped read-only into memory, for the tables (ours and RoyalUr's):
// opened, checked to be a regular file of at least a given size, mapped,
// and unmapped when the MappedFile goes.
#ifndef SCRIBE_ANALYSIS_MAPPED_FILE_H_
#define SCRIBE_ANALYSIS_MAPPED_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace scribe {

class MappedFile {
 public:
  // NOT_FOUND when `path` does not exist, UNAVAILABLE when it cannot be
  // opened or mapped (both messages start with the path); INVALID_ARGUMENT,
  // with a message for the caller to put after its own words, when it is
  // not a regular file or is shorter than `min_bytes` (`min_what` names
  // what those bytes hold: "N bytes, shorter than <min_what> (truncated?)").
  static absl::StatusOr<MappedFile> Open(const std::string& path, uint64_t min_bytes,
                                         absl::string_view min_what);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept { *this = std::move(other); }
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const unsigned char* data() const { return data_; }
  uint64_t size() const { return size_; }

 private:
  const unsigned char* data_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace scribe

#endif  // SCRIBE_ANALYSIS_MAPPED_FILE_H_
