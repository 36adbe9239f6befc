#include "service/writers.h"

#include <cstring>
#include <fstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "grpc/grpc_security_constants.h"
#include "grpcpp/security/auth_context.h"
#include "service/errors.h"

namespace scribe::service {

namespace {

// The kinds of name a list may give, and the property of gRPC's auth
// context that holds the client certificate's names of that kind.
struct NameKind {
  const char* prefix;
  const char* property;
};
constexpr NameKind kKinds[] = {
    {"cn:", GRPC_X509_CN_PROPERTY_NAME},     {"subject:", GRPC_X509_SUBJECT_PROPERTY_NAME},
    {"dns:", GRPC_PEER_DNS_PROPERTY_NAME},   {"uri:", GRPC_PEER_URI_PROPERTY_NAME},
    {"email:", GRPC_PEER_EMAIL_PROPERTY_NAME}, {"ip:", GRPC_PEER_IP_PROPERTY_NAME},
};

bool HasKnownKind(const std::string& identity) {
  for (const NameKind& kind : kKinds) {
    if (absl::StartsWith(identity, kind.prefix) && identity.size() > strlen(kind.prefix)) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::set<std::string>> ReadWriters(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read the writers' list ", path));
  std::set<std::string> writers;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (number == 1 && absl::StartsWith(line, "\xEF\xBB\xBF")) line.erase(0, 3);  // a byte-order mark
    const std::string identity(absl::StripAsciiWhitespace(line));
    if (identity.empty() || identity[0] == '#') continue;
    for (unsigned char c : identity) {
      if (c < 0x20 || c == 0x7f) {
        return absl::InvalidArgumentError(absl::StrCat(path, ":", number, ": an identity with a control character"));
      }
    }
    if (!HasKnownKind(identity)) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", number,
          ": say which name of the client certificate this is: cn:, subject:, dns:, uri:, email: or ip: before it "
          "(\"uri:spiffe://example.org/lobby\")"));
    }
    writers.insert(identity);
  }
  if (in.bad()) return absl::NotFoundError(absl::StrCat("cannot read the writers' list ", path));
  if (writers.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " lists no identity: write one a line (\"cn:lobby\", \"uri:spiffe://example.org/lobby\")"));
  }
  return writers;
}

std::vector<std::string> ClientIdentities(const grpc::ServerContext& context) {
  std::vector<std::string> identities;
  const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  if (auth == nullptr || !auth->IsPeerAuthenticated()) return identities;
  for (const NameKind& kind : kKinds) {
    for (const grpc::string_ref& value : auth->FindPropertyValues(kind.property)) {
      identities.push_back(absl::StrCat(kind.prefix, absl::string_view(value.data(), value.size())));
    }
  }
  return identities;
}

grpc::Status MayWrite(const WritePolicy& policy, const grpc::ServerContext& context) {
  if (policy.open) return grpc::Status::OK;
  if (policy.writers.empty()) {
    return Error(grpc::StatusCode::PERMISSION_DENIED,
                 "writes are off on this server: its operator lists the clients that may write (--db-writers, "
                 "with TLS client certificates) or lets every client write (--db-open-writes)",
                 "WRITE_NOT_ALLOWED");
  }
  const std::vector<std::string> identities = ClientIdentities(context);
  if (identities.empty()) {
    return Error(grpc::StatusCode::PERMISSION_DENIED,
                 "writing needs a client certificate whose identity the server's operator listed; this client "
                 "sent none",
                 "WRITE_NOT_ALLOWED");
  }
  for (const std::string& identity : identities) {
    if (policy.writers.count(identity) > 0) return grpc::Status::OK;
  }
  return Error(grpc::StatusCode::PERMISSION_DENIED,
               absl::StrCat("this client (", absl::StrJoin(identities, ", "),
                            ") is not among the identities the server's operator lets write"),
               "WRITE_NOT_ALLOWED");
}

}  // namespace scribe::service
