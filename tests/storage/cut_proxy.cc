#include "tests/storage/cut_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace scribe::testing {
namespace {

// PQexec(conn, "COMMIT") on the wire: 'Q', int32 length 11, "COMMIT\0".
const std::string& CommitMessage() {
  static const auto* message = new std::string("Q\0\0\0\x0b" "COMMIT\0", 12);
  return *message;
}

bool SendAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

int ConnectTo(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

absl::StatusOr<std::unique_ptr<CutProxy>> CutProxy::Start(int port) {
  std::unique_ptr<CutProxy> proxy(new CutProxy());
  proxy->server_port_ = port;
  proxy->listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = 0;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (proxy->listen_fd_ < 0 || bind(proxy->listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      listen(proxy->listen_fd_, 16) != 0 ||
      getsockname(proxy->listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0 ||
      pipe2(proxy->wake_, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("the cut proxy cannot listen: ", strerror(errno)));
  }
  proxy->listen_port_ = ntohs(address.sin_port);
  proxy->thread_ = std::thread([p = proxy.get()] { p->Serve(); });
  return proxy;
}

CutProxy::~CutProxy() {
  if (thread_.joinable()) {
    (void)!write(wake_[1], "x", 1);
    thread_.join();
  }
  for (int fd : {listen_fd_, wake_[0], wake_[1]}) {
    if (fd >= 0) close(fd);
  }
}

std::string CutProxy::Through(const std::string& url) const {
  return absl::StrReplaceAll(
      url, {{absl::StrCat("127.0.0.1:", server_port_, "/"), absl::StrCat("127.0.0.1:", listen_port_, "/")}});
}

void CutProxy::Arm(Cut cut) { armed_.store(1 + static_cast<int>(cut)); }

void CutProxy::Serve() {
  struct Pair {
    int client, server;
    std::string tail;  // the client's last bytes, for a COMMIT split between reads
  };
  std::vector<Pair> pairs;
  const auto end = [](Pair& p) {
    close(p.client);
    close(p.server);
    p.client = p.server = -1;
  };
  std::vector<char> buffer(1 << 16);
  for (;;) {
    std::vector<pollfd> fds{{wake_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}};
    for (const Pair& p : pairs) {
      fds.push_back({p.client, POLLIN, 0});
      fds.push_back({p.server, POLLIN, 0});
    }
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents != 0) break;
    for (size_t i = 0; i < pairs.size(); ++i) {
      Pair& p = pairs[i];
      for (int side = 0; side < 2 && p.client >= 0; ++side) {
        if (fds[2 + 2 * i + side].revents == 0) continue;
        const int from = side == 0 ? p.client : p.server;
        const int to = side == 0 ? p.server : p.client;
        const ssize_t n = read(from, buffer.data(), buffer.size());
        if (n <= 0) {
          end(p);
          break;
        }
        const std::string_view chunk(buffer.data(), static_cast<size_t>(n));
        const int armed = armed_.load();
        if (side == 0 && armed != 0) {
          const std::string seen = p.tail + std::string(chunk);
          const size_t at = seen.find(CommitMessage());
          p.tail = seen.substr(seen.size() > CommitMessage().size() ? seen.size() - CommitMessage().size() : 0);
          if (at != std::string::npos) {
            armed_.store(0);
            ++cuts_;
            if (armed - 1 == static_cast<int>(Cut::kBeforeTheServerHasIt)) {
              // What came before the COMMIT in this read goes; the COMMIT
              // does not (whole: a part already sent is not a message).
              const size_t chunk_start = seen.size() - chunk.size();
              (void)SendAll(to, chunk.data(), at > chunk_start ? at - chunk_start : 0);
            } else {
              (void)SendAll(to, chunk.data(), chunk.size());
              pollfd answer{p.server, POLLIN, 0};
              if (poll(&answer, 1, 10000) == 1) (void)!read(p.server, buffer.data(), buffer.size());
            }
            end(p);
            break;
          }
        }
        if (!SendAll(to, chunk.data(), chunk.size())) {
          end(p);
          break;
        }
      }
    }
    std::erase_if(pairs, [](const Pair& p) { return p.client < 0; });
    if (fds[1].revents != 0) {
      const int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      const int server = ConnectTo(server_port_);
      if (server < 0) {
        close(client);
        continue;
      }
      pairs.push_back(Pair{client, server, ""});
    }
  }
  for (Pair& p : pairs) {
    if (p.client >= 0) end(p);
  }
}

}  // namespace scribe::testing
