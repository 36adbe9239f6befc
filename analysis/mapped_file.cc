#include "analysis/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace scribe {

absl::StatusOr<MappedFile> MappedFile::Open(const std::string& path, uint64_t min_bytes,
                                            absl::string_view min_what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT) return absl::NotFoundError(absl::StrCat(path, ": no such file"));
    return absl::UnavailableError(absl::StrCat(path, ": cannot open: ", std::strerror(e)));
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError("not a regular file");
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size < min_bytes || size == 0) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat(size, " bytes, shorter than ", min_what, " (truncated?)"));
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  const int e = errno;
  ::close(fd);
  if (map == MAP_FAILED) return absl::UnavailableError(absl::StrCat(path, ": cannot map: ", std::strerror(e)));
  MappedFile file;
  file.data_ = static_cast<const unsigned char*>(map);
  file.size_ = size;
  return file;
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
}

}  // namespace scribe
