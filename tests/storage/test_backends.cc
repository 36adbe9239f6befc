#include "tests/storage/test_backends.h"

#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "tests/storage/postgres_server.h"

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

// A new empty database on this test program's PostgreSQL server (started
// on first use). When the server cannot start, a URL nothing answers, so
// the test fails saying it cannot reach the server (and this says why).
std::string NewPostgresDatabase() {
  auto server = testing::PostgresServer::Shared();
  if (!server.ok()) {
    std::cerr << "no PostgreSQL server for the tests: " << server.status() << "\n";
    return "postgresql://scribe@127.0.0.1:1/no-server";
  }
  auto url = (*server)->NewDatabase();
  if (!url.ok()) {
    std::cerr << "no new PostgreSQL database: " << url.status() << "\n";
    return "postgresql://scribe@127.0.0.1:1/no-database";
  }
  return *url;
}

}  // namespace

std::vector<TestBackend> TestBackends() {
  return {
      {"sqlite", NewSqliteFile},
      {"postgres", NewPostgresDatabase},
  };
}

}  // namespace scribe::storage
