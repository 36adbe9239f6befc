#include "tests/storage/test_backends.h"

#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <system_error>

namespace scribe::storage {
namespace {

// A folder of this test program's own, removed when it ends.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "scribe-store-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) abort();
    path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A path where no file is yet: the SQLite backend makes it.
std::string NewSqliteFile() {
  static TempFolder folder;
  static std::atomic<int> count{0};
  return (folder.path() / ("games-" + std::to_string(++count) + ".db")).string();
}

}  // namespace

std::vector<TestBackend> TestBackends() {
  return {
      {"sqlite", NewSqliteFile},
  };
}

}  // namespace scribe::storage
