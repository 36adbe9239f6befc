#include "cli/input_files.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "cli/output.h"

namespace scribe {

namespace {

// A large file's buffer is filled page by page, and on a virtual machine
// each page's first touch is costly: the kernel is asked to back it with
// 2 MiB pages where it can (transparent huge pages; a hint, no error).
void AskForHugePages(std::string* out) {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(out->data()) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(out->data()) + out->capacity()) & ~(kHuge - 1);
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// Reads `fd` to its end into `out`, in chunks: no more than kMaxFileBytes.
bool ReadAll(int fd, const std::string& path, std::string* out, std::string* error) {
  struct stat st;
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (regular && !WithinFileLimit(path, st.st_size, error)) return false;
  constexpr size_t kChunk = 1 << 16;
  // Room for the whole file and the one read that finds its end: without
  // the chunk the last resize would double the buffer (twice the file's
  // bytes, and a copy of them).
  if (regular) {
    out->reserve(static_cast<size_t>(st.st_size) + kChunk);
    AskForHugePages(out);
  }
  out->clear();
  for (;;) {
    const size_t at = out->size();
    out->resize(at + kChunk);
    const ssize_t n = ::read(fd, out->data() + at, kChunk);
    if (n < 0 && errno == EINTR) {
      out->resize(at);
      continue;
    }
    if (n < 0) {
      const int saved = errno;
      out->clear();
      *error = absl::StrCat(path, ": read failed: ", std::strerror(saved));
      return false;
    }
    out->resize(at + static_cast<size_t>(n));
    if (n == 0) return true;
    if (out->size() > static_cast<size_t>(kMaxFileBytes)) {
      out->clear();
      out->shrink_to_fit();
      *error = absl::StrCat(path, ": more than the ", kMaxFileBytes, " bytes allowed");
      return false;
    }
  }
}

}  // namespace

bool WithinFileLimit(const std::string& path, int64_t bytes, std::string* error) {
  if (bytes <= kMaxFileBytes) return true;
  *error = absl::StrCat(path, ": ", bytes, " bytes is more than the ", kMaxFileBytes, " allowed");
  return false;
}

bool ReadOpenFile(int fd, const std::string& path, std::string* out, std::string* error) {
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    *error = absl::StrCat(path, ": is a directory");
    return false;
  }
  return ReadAll(fd, path, out, error);
}

bool ReadFile(const std::string& path, std::string* out, std::string* error) {
  if (path == "-") return ReadAll(STDIN_FILENO, path, out, error);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = absl::StrCat(path, ": cannot open: ", std::strerror(errno));
    return false;
  }
  const bool ok = ReadOpenFile(fd, path, out, error);
  ::close(fd);
  return ok;
}

bool ReadRecordFile(const std::string& path, std::string* text) {
  std::string error;
  if (ReadFile(path, text, &error)) return true;
  std::cerr << "scribe: " << TerminalText(error) << "\n";
  return false;
}

bool IsReadableFile(const std::string& path) {
  std::ifstream in(path);
  return static_cast<bool>(in);
}

namespace {

// A folder walk takes the files whose name says they hold records.
bool IsRecordName(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".tsn" || ext == ".json" || ext == ".rgn";
}

const char* FileKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Why a symbolic link found by a walk leads nowhere (or "" when it leads
// to a file or a folder); *target_mode is what it leads to.
std::string BrokenLink(const std::string& path, mode_t* target_mode) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    *target_mode = st.st_mode;
    return "";
  }
  const int saved = errno;
  if (saved == ELOOP) return absl::StrCat(path, ": a loop of symbolic links: ", std::strerror(saved));
  std::error_code ec;
  const std::string target = std::filesystem::read_symlink(path, ec).string();
  if (saved == ENOENT) return absl::StrCat(path, ": a dangling symbolic link (to ", target, ", which does not exist)");
  return absl::StrCat(path, ": a symbolic link (to ", target, ") that cannot be followed: ", std::strerror(saved));
}

// Adds the record files under `dir` to *out, and every entry the walk
// cannot take (a folder it cannot read, a record file's name on something
// that is no file) with why; goes on past each.
void Walk(const std::string& dir, std::vector<PathEntry>* out) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) {
    out->push_back({dir, absl::StrCat(dir, ": cannot read the folder: ", ec.message())});
    return;
  }
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string path = it->path().string();
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) {
      out->push_back({path, absl::StrCat(path, ": cannot open: ", std::strerror(errno))});
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      Walk(path, out);
      continue;
    }
    if (!IsRecordName(it->path())) continue;
    mode_t mode = st.st_mode;
    if (S_ISLNK(mode)) {
      const std::string broken = BrokenLink(path, &mode);
      if (!broken.empty()) {
        out->push_back({path, broken});
        continue;
      }
      if (S_ISDIR(mode)) continue;  // links to folders are not followed (no loops)
    }
    if (!S_ISREG(mode)) {
      out->push_back({path, absl::StrCat(path, ": ", FileKind(mode), ", not a record file; a folder's walk reads "
                                               "regular files only")});
      continue;
    }
    out->push_back({path, ""});
  }
  if (ec) out->push_back({dir, absl::StrCat(dir, ": reading the folder failed: ", ec.message())});
}

}  // namespace

bool ExpandPaths(const std::vector<std::string>& paths, std::vector<PathEntry>* out) {
  bool ok = true;
  for (const std::string& path : paths) {
    struct stat st;
    if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::vector<PathEntry> found;
      Walk(path, &found);
      std::sort(found.begin(), found.end(),
                [](const PathEntry& a, const PathEntry& b) { return a.path < b.path; });
      for (const PathEntry& entry : found) ok = ok && entry.error.empty();
      out->insert(out->end(), found.begin(), found.end());
    } else {
      out->push_back({path, ""});
    }
  }
  return ok;
}

}  // namespace scribe
