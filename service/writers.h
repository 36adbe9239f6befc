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
  // Identities that may write, each a kind of name and its value
  // ("uri:spiffe://example.org/lobby"): the certificate's subject common
  // name (cn:), its whole subject (subject:, as "CN=lobby,O=Example"), or
  // one of its subject alternative names (dns:, uri:, email:, ip:). An
  // identity matches only a name of its kind: a certificate whose CN is
  // "spiffe://example.org/lobby" is not the URI.
  std::set<std::string> writers;
  // Every client may write (a server without client certificates, behind
  // a network the operator trusts).
  bool open = false;
};

// The list file of --db-writers: one identity a line, "kind:value";
// blank lines and lines starting with '#' are skipped, spaces around an
// identity and a leading byte-order mark dropped. INVALID_ARGUMENT naming
// the file and line for a line without a known kind or with a control
// character, and for a list with no identity; NOT_FOUND when it cannot be
// read.
absl::StatusOr<std::set<std::string>> ReadWriters(const std::string& path);

// The identities the client's certificate (verified by the server's TLS)
// proves, each "kind:value" as the list names them: none for a client
// without one, or on a plaintext connection.
std::vector<std::string> ClientIdentities(const grpc::ServerContext& context);

// OK when the policy lets this client write, else PERMISSION_DENIED
// (reason WRITE_NOT_ALLOWED) saying why: writes are off, the client sent
// no certificate, or its identities are not listed (they are named).
grpc::Status MayWrite(const WritePolicy& policy, const grpc::ServerContext& context);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_WRITERS_H_
