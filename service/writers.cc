#include "service/writers.h"

#include <fstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "grpc/grpc_security_constants.h"
#include "grpcpp/security/auth_context.h"
#include "service/errors.h"

namespace scribe::service {

absl::StatusOr<std::set<std::string>> ReadWriters(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read the writers' list ", path));
  std::set<std::string> writers;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string identity(absl::StripAsciiWhitespace(line));
    if (identity.empty() || identity[0] == '#') continue;
    for (unsigned char c : identity) {
      if (c < 0x20 || c == 0x7f) {
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", number, ": an identity with a control character"));
      }
    }
    writers.insert(identity);
  }
  if (in.bad()) return absl::NotFoundError(absl::StrCat("cannot read the writers' list ", path));
  if (writers.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " lists no identity: write one a line (a client certificate's CN or SAN)"));
  }
  return writers;
}

std::vector<std::string> ClientIdentities(const grpc::ServerContext& context) {
  std::vector<std::string> identities;
  const std::shared_ptr<const grpc::AuthContext> auth = context.auth_context();
  if (auth == nullptr || !auth->IsPeerAuthenticated()) return identities;
  for (const char* property :
       {GRPC_X509_CN_PROPERTY_NAME, GRPC_X509_SUBJECT_PROPERTY_NAME, GRPC_X509_SAN_PROPERTY_NAME}) {
    for (const grpc::string_ref& value : auth->FindPropertyValues(property)) {
      identities.emplace_back(value.data(), value.size());
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
