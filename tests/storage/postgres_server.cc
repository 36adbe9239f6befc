#include "tests/storage/postgres_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace scribe::testing {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

// Who runs PostgreSQL's programs: this process's user, or `postgres` when
// that is root (the server refuses to run as root).
struct Account {
  bool as_postgres = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

absl::StatusOr<Account> ServerAccount() {
  Account account;
  if (geteuid() != 0) return account;
  const passwd* pw = getpwnam("postgres");
  if (pw == nullptr) {
    return absl::FailedPreconditionError(
        "running as root, and there is no user `postgres` to run PostgreSQL as: run scripts/setup.sh "
        "(it installs postgresql-15, which makes the user)");
  }
  return Account{true, pw->pw_uid, pw->pw_gid};
}

std::string Tail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  return all.size() > 3000 ? all.substr(all.size() - 3000) : all;
}

// Starts argv[0] with stdout and stderr appended to `log`, in `cwd`, as the
// server's account. `die_with_parent`: SIGQUIT (PostgreSQL's immediate
// shutdown) when this thread's process ends, however it ends.
absl::StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, const std::string& log, const std::string& cwd,
                            const Account& account, bool die_with_parent) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out < 0) return absl::InternalError(absl::StrCat("cannot open ", log, ": ", strerror(errno)));
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(out);
    return absl::InternalError(absl::StrCat("fork: ", strerror(errno)));
  }
  if (pid == 0) {
    // Only async-signal-safe calls until exec.
    if (account.as_postgres &&
        (setgroups(0, nullptr) != 0 || setgid(account.gid) != 0 || setuid(account.uid) != 0)) {
      _exit(126);
    }
    if (die_with_parent && (prctl(PR_SET_PDEATHSIG, SIGQUIT) != 0 || getppid() != parent)) _exit(126);
    if (chdir(cwd.c_str()) != 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) _exit(126);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out);
  return pid;
}

// Waits up to `timeout` for `pid`; its exit status, or nullopt if it runs on.
std::optional<int> WaitFor(pid_t pid, milliseconds timeout) {
  const auto end = steady_clock::now() + timeout;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid || done < 0) return status;
    if (steady_clock::now() > end) return std::nullopt;
    std::this_thread::sleep_for(milliseconds(10));
  }
}

absl::Status RunToEnd(const std::vector<std::string>& argv, const std::string& log, const std::string& cwd,
                      const Account& account) {
  auto pid = Spawn(argv, log, cwd, account, false);
  if (!pid.ok()) return pid.status();
  const std::optional<int> status = WaitFor(*pid, std::chrono::minutes(2));
  if (!status) {
    kill(*pid, SIGKILL);
    waitpid(*pid, nullptr, 0);
  }
  if (!status || !WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    return absl::InternalError(absl::StrCat(argv[0], " failed; its output (", log, "):\n", Tail(log)));
  }
  return absl::OkStatus();
}

absl::Status Own(const std::string& path, const Account& account) {
  if (account.as_postgres && chown(path.c_str(), account.uid, account.gid) != 0) {
    return absl::InternalError(absl::StrCat("chown ", path, ": ", strerror(errno)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> MakeFolder(const Account& account) {
  // /tmp, not $TMPDIR: a root's TMPDIR may be closed to `postgres`.
  std::string base = account.as_postgres ? "/tmp" : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  std::string path = base + "/scribe-pg-XXXXXX";
  if (mkdtemp(path.data()) == nullptr) return absl::InternalError(absl::StrCat("mkdtemp: ", strerror(errno)));
  if (absl::Status owned = Own(path, account); !owned.ok()) {
    fs::remove_all(path);
    return owned;
  }
  return path;
}

// A data folder made by initdb, kept across runs: copying it is some 10
// times faster than initdb. Made aside and renamed into place, so a
// template that exists is whole.
absl::StatusOr<std::string> Template(const Account& account) {
  const std::string path = absl::StrCat("/tmp/scribe-pg-template-15-", geteuid());
  if (fs::exists(path + "/PG_VERSION")) return path;
  auto work = MakeFolder(account);
  if (!work.ok()) return work.status();
  absl::Status made = RunToEnd({absl::StrCat(PostgresServer::kBinDir, "/initdb"), "-D", *work + "/data", "-A",
                                "trust", "-U", "scribe", "-E", "UTF8", "--locale=C", "--no-sync"},
                               *work + "/initdb.log", *work, account);
  std::error_code ignored;
  if (made.ok() && rename((*work + "/data").c_str(), path.c_str()) != 0 && !fs::exists(path + "/PG_VERSION")) {
    made = absl::InternalError(absl::StrCat("cannot rename the new template to ", path, ": ", strerror(errno)));
  }
  fs::remove_all(*work, ignored);  // with our copy when another process won the rename
  if (!made.ok()) return made;
  return path;
}

absl::StatusOr<int> FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    if (fd >= 0) close(fd);
    return absl::InternalError(absl::StrCat("cannot find a free port: ", strerror(errno)));
  }
  close(fd);
  return ntohs(address.sin_port);
}

}  // namespace

absl::StatusOr<std::unique_ptr<PostgresServer>> PostgresServer::Start() {
  for (const char* program : {"initdb", "postgres"}) {
    const std::string path = absl::StrCat(kBinDir, "/", program);
    if (access(path.c_str(), X_OK) != 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "PostgreSQL 15 is not installed (no ", path, "): run scripts/setup.sh, which installs postgresql-15. "
          "The PostgreSQL tests need a real server and run in CI: they fail rather than skip."));
    }
  }
  auto account = ServerAccount();
  if (!account.ok()) return account.status();
  auto templ = Template(*account);
  if (!templ.ok()) return templ.status();
  auto folder = MakeFolder(*account);
  if (!folder.ok()) return folder.status();
  std::unique_ptr<PostgresServer> server(new PostgresServer());
  server->folder_ = *folder;
  absl::Status copied = RunToEnd({"/bin/cp", "-a", *templ, *folder + "/data"}, *folder + "/cp.log", *folder, {});
  if (!copied.ok()) return copied;
  // Another program may take the free port before the server does: then
  // try another.
  absl::Status started;
  for (int attempt = 0; attempt < 5; ++attempt) {
    auto port = FreePort();
    if (!port.ok()) return port.status();
    server->port_ = *port;
    started = server->Launch();
    if (started.ok() || !absl::StrContains(started.message(), "already in use")) break;
  }
  if (!started.ok()) return started;
  return server;
}

absl::StatusOr<PostgresServer*> PostgresServer::Shared() {
  // Destroyed at exit, which stops the server.
  static absl::StatusOr<std::unique_ptr<PostgresServer>> server = Start();
  if (!server.ok()) return server.status();
  return server->get();
}

absl::Status PostgresServer::Launch() {
  auto account = ServerAccount();
  if (!account.ok()) return account.status();
  const std::string log = folder_ + "/log";
  auto pid = Spawn({absl::StrCat(kBinDir, "/postgres"), "-D", folder_ + "/data", "-k", folder_, "-p",
                    absl::StrCat(port_), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c",
                    "full_page_writes=off"},
                   log, folder_, *account, true);
  if (!pid.ok()) return pid.status();
  pid_ = *pid;
  const std::string ping = absl::StrCat("host=127.0.0.1 port=", port_, " user=scribe dbname=postgres");
  const auto end = steady_clock::now() + std::chrono::seconds(60);
  while (PQping(ping.c_str()) != PQPING_OK) {
    int status = 0;
    const bool exited = waitpid(pid_, &status, WNOHANG) == pid_;
    if (exited || steady_clock::now() > end) {
      if (!exited) (void)Kill();
      pid_ = 0;
      return absl::InternalError(absl::StrCat("the PostgreSQL server did not start on port ", port_,
                                              "; its log (", log, "):\n", Tail(log)));
    }
    std::this_thread::sleep_for(milliseconds(20));
  }
  return absl::OkStatus();
}

PostgresServer::~PostgresServer() {
  if (pid_ > 0) (void)Kill();
  std::error_code ignored;
  if (!folder_.empty()) fs::remove_all(folder_, ignored);
}

std::string PostgresServer::UrlOf(const std::string& database) const {
  return absl::StrCat("postgresql://scribe@127.0.0.1:", port_, "/", database);
}

absl::StatusOr<std::string> PostgresServer::NewDatabase() {
  const std::string name = absl::StrCat("t", ++databases_);
  auto made = Query(Url(), absl::StrCat("CREATE DATABASE ", name));
  if (!made.ok()) return made.status();
  return UrlOf(name);
}

absl::Status PostgresServer::Kill() {
  if (pid_ <= 0) return absl::FailedPreconditionError("the server is not running");
  // SIGQUIT is what pg_ctl stop -m immediate sends the postmaster.
  kill(pid_, SIGQUIT);
  if (!WaitFor(pid_, std::chrono::seconds(20))) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_ = 0;
  return absl::OkStatus();
}

absl::Status PostgresServer::Restart() {
  if (pid_ > 0) return absl::FailedPreconditionError("the server is running");
  return Launch();
}

absl::StatusOr<std::vector<std::vector<std::string>>> PostgresServer::Query(const std::string& url,
                                                                            const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  std::unique_ptr<PGconn, void (*)(PGconn*)> closer(conn, PQfinish);
  if (PQstatus(conn) != CONNECTION_OK) {
    return absl::UnavailableError(absl::StrCat("cannot connect to ", url, ": ", PQerrorMessage(conn)));
  }
  std::unique_ptr<PGresult, void (*)(PGresult*)> result(PQexec(conn, sql.c_str()), PQclear);
  const ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    return absl::InternalError(absl::StrCat(sql, ": ", PQresultErrorMessage(result.get())));
  }
  std::vector<std::vector<std::string>> rows(PQntuples(result.get()));
  for (int i = 0; i < PQntuples(result.get()); ++i) {
    for (int j = 0; j < PQnfields(result.get()); ++j) rows[i].push_back(PQgetvalue(result.get(), i, j));
  }
  return rows;
}

}  // namespace scribe::testing
