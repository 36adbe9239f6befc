// Who may write to the game database (ImportGames): the operator's list
// of client identities, checked against the client's verified TLS
// certificate; or every client, when the operator says so. Reads are open
// to every client that may connect.
#ifndef SCRIBE_SERVICE_WRITERS_H_
#define SCRIBE_SERVICE_WRITERS_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"

namespace scribe::service {

struct WritePolicy {
  // Identities that may write, each matched exactly against the client
  // certificate's subject common name, its whole subject ("CN=...,O=..."),
  // and each of its subject alternative names (DNS, URI, e-mail, IP).
  std::set<std::string> writers;
  // Every client may write (a server without client certificates, behind
  // a network the operator trusts).
  bool open = false;
};

// The list file of --db-writers: one identity a line; blank lines and
// lines starting with '#' are skipped, spaces around an identity dropped.
// INVALID_ARGUMENT naming the file and line for a line with a control
// character, NOT_FOUND when it cannot be read, and for a list with no
// identity.
absl::StatusOr<std::set<std::string>> ReadWriters(const std::string& path);

// The identities the client's certificate (verified by the server's TLS)
// proves: none for a client without one, or on a plaintext connection.
std::vector<std::string> ClientIdentities(const grpc::ServerContext& context);

// OK when the policy lets this client write, else PERMISSION_DENIED
// (reason WRITE_NOT_ALLOWED) saying why: writes are off, the client sent
// no certificate, or its identities are not listed (they are named).
grpc::Status MayWrite(const WritePolicy& policy, const grpc::ServerContext& context);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_WRITERS_H_
