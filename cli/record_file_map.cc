#include "cli/record_file_map.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "cli/input_files.h"

namespace scribe {
namespace {

// The open mapping, for the SIGBUS handler: a read past the end of a file
// cut short while mapped faults; the handler puts a page of zeros there and
// the read goes on (the reader refuses the zeros as it refuses any wrong
// byte). A fault anywhere else is not ours: the default action, as before.
std::atomic<uintptr_t> g_begin{0}, g_end{0};
std::atomic<bool> g_shrank{false};
uintptr_t g_page = 4096;  // set before the handler is installed

void OnBusError(int sig, siginfo_t* info, void*) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(info->si_addr);
  if (at >= g_begin.load() && at < g_end.load()) {
    void* fixed = ::mmap(reinterpret_cast<void*>(at & ~(g_page - 1)), g_page, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (fixed != MAP_FAILED) {
      g_shrank.store(true);
      return;
    }
  }
  ::signal(sig, SIG_DFL);  // the fault happens again, with the default action
}

void CatchBusErrors() {
  static const bool installed = [] {
    g_page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction action = {};
    action.sa_sigaction = OnBusError;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    return ::sigaction(SIGBUS, &action, nullptr) == 0;
  }();
  (void)installed;
}

}  // namespace

RecordFileMap::~RecordFileMap() { Close(); }

void RecordFileMap::Close() {
  if (map_ != nullptr) {
    g_begin.store(0);
    g_end.store(0);
    ::munmap(map_, bytes_);
    map_ = nullptr;
  }
  copy_.clear();
  text_ = {};
}

bool RecordFileMap::Open(const std::string& path, std::string* error) {
  Close();
  g_shrank.store(false);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ReadFile(path, &copy_, error);  // says why, as every command does
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
    // A pipe is read from the descriptor open now: opened again, its
    // writer may be gone.
    const bool ok = ReadOpenFile(fd, path, &copy_, error);
    ::close(fd);
    text_ = copy_;
    return ok;
  }
  if (!WithinFileLimit(path, st.st_size, error)) {
    ::close(fd);
    return false;
  }
  bytes_ = static_cast<size_t>(st.st_size);
  void* map = ::mmap(nullptr, bytes_, PROT_READ, MAP_PRIVATE, fd, 0);
  const int saved = errno;
  ::close(fd);
  if (map == MAP_FAILED) {
    *error = absl::StrCat(path, ": cannot map: ", std::strerror(saved));
    return false;
  }
  map_ = map;
  (void)::madvise(map_, bytes_, MADV_SEQUENTIAL);
  CatchBusErrors();
  g_begin.store(reinterpret_cast<uintptr_t>(map_));
  g_end.store(reinterpret_cast<uintptr_t>(map_) + bytes_);
  text_ = absl::string_view(static_cast<const char*>(map_), bytes_);
  return true;
}

void RecordFileMap::Release() {
  if (map_ != nullptr) (void)::madvise(map_, bytes_, MADV_DONTNEED);
}

bool RecordFileMap::Shrank() const { return map_ != nullptr && g_shrank.load(); }

}  // namespace scribe
