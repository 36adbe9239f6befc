// A TCP proxy between a test's PostgreSQL client and a real server
// (postgres_server.h) that breaks the connection at a chosen moment of a
// COMMIT: before the server has it (nothing was written) or after the
// server answered it (the write is kept, but the client never hears so).
// No other test tool can time a crash that exactly: a server killed by a
// signal dies before or after, as it happens.
//
// It forwards bytes unchanged in both directions, one client connection
// at a time, on a thread of its own. Once armed, the next simple-query
// message "COMMIT" the client sends (libpq's PQexec sends it as the bytes
// 'Q', length 11, "COMMIT\0") is the moment; both sockets are then closed
// and the next connection is forwarded again, unarmed.
#ifndef SCRIBE_TESTS_STORAGE_CUT_PROXY_H_
#define SCRIBE_TESTS_STORAGE_CUT_PROXY_H_

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace scribe::testing {

class CutProxy {
 public:
  enum class Cut {
    kBeforeTheServerHasIt,    // the COMMIT is dropped
    kAfterTheServerAnswered,  // the COMMIT goes, its answer is dropped
  };
  // Listens on a free port of 127.0.0.1, forwarding to 127.0.0.1:`port`.
  static absl::StatusOr<std::unique_ptr<CutProxy>> Start(int port);
  CutProxy(const CutProxy&) = delete;
  CutProxy& operator=(const CutProxy&) = delete;
  ~CutProxy();

  int port() const { return listen_port_; }
  // `url` (a server's, "...@127.0.0.1:PORT/db") with the proxy's port.
  std::string Through(const std::string& url) const;
  // The next COMMIT is cut as `cut` says.
  void Arm(Cut cut);
  // How many COMMITs were cut so far.
  int cuts() const { return cuts_.load(); }

 private:
  CutProxy() = default;
  void Serve();

  int listen_fd_ = -1;
  int listen_port_ = 0;
  int server_port_ = 0;
  int wake_[2] = {-1, -1};  // a pipe: the destructor stops Serve
  std::atomic<int> armed_{0};  // 0, or 1 + Cut
  std::atomic<int> cuts_{0};
  std::thread thread_;
};

}  // namespace scribe::testing

#endif  // SCRIBE_TESTS_STORAGE_CUT_PROXY_H_
