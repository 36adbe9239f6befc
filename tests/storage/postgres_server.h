// A real PostgreSQL 15 server for tests, in a temporary folder of its own:
// started on a free port of 127.0.0.1 (and a Unix socket in the folder),
// trusting the user `scribe`, durable writes off (fsync=off: a test's data
// need not survive a power cut). PostgreSQL refuses to run as root, so when
// the test runs as root the server runs as the user `postgres`.
//
// Starting is cheap after the first time on a machine: initdb runs once
// into a template folder (/tmp/scribe-pg-template-...), and each server
// starts from a copy of it. The server runs as a child of the test with a
// parent-death signal, so a crashed test leaves no server behind.
//
// When PostgreSQL's binaries are missing, Start and Shared fail with a
// message saying to run scripts/setup.sh: a test must fail then, not skip.
#ifndef SCRIBE_TESTS_STORAGE_POSTGRES_SERVER_H_
#define SCRIBE_TESTS_STORAGE_POSTGRES_SERVER_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace scribe::testing {

class PostgresServer {
 public:
  // Where Debian's postgresql-15 puts initdb and postgres.
  static constexpr const char* kBinDir = "/usr/lib/postgresql/15/bin";

  // A new server of its own (for a test that stops it).
  static absl::StatusOr<std::unique_ptr<PostgresServer>> Start();
  // The server of this test program: started on first use, stopped at exit.
  static absl::StatusOr<PostgresServer*> Shared();

  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;
  // Stops the server (immediately) and removes its folder.
  ~PostgresServer();

  int port() const { return port_; }
  // "postgresql://scribe@127.0.0.1:PORT/postgres".
  std::string Url() const { return UrlOf("postgres"); }
  std::string UrlOf(const std::string& database) const;
  // A new empty database (t1, t2, ...): its URL.
  absl::StatusOr<std::string> NewDatabase();

  // Stops the server at once, as a crash would (pg_ctl stop -m immediate):
  // clients' connections break. Its data stays for Restart.
  absl::Status Kill();
  // Starts the stopped server again, on the same port.
  absl::Status Restart();

  // Runs `sql` (one or more statements) on the database at `url`: the
  // rows of the last statement's result, as text ("" for NULL).
  static absl::StatusOr<std::vector<std::vector<std::string>>> Query(const std::string& url, const std::string& sql);

 private:
  PostgresServer() = default;
  absl::Status Launch();

  std::string folder_;  // the server's temporary folder: data/, log, socket
  int port_ = 0;
  pid_t pid_ = 0;  // the postmaster, while it runs
  int databases_ = 0;
};

}  // namespace scribe::testing

#endif  // SCRIBE_TESTS_STORAGE_POSTGRES_SERVER_H_
