// The one place where Scribe's errors become gRPC statuses: the canonical
// code, a message, and a google.rpc.Status in the details trailer carrying
// a google.rpc.BadRequest with every field violation.
#ifndef SCRIBE_SERVICE_ERRORS_H_
#define SCRIBE_SERVICE_ERRORS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace scribe::service {

struct FieldViolation {
  std::string field;
  std::string description;
};

// INVALID_ARGUMENT listing every violation.
grpc::Status BadRequest(const std::vector<FieldViolation>& violations);

// Any other canonical code, with a message (and an ErrorInfo reason).
grpc::Status Error(grpc::StatusCode code, const std::string& message, const std::string& reason);

// An absl::Status from the libraries, as the same canonical code.
grpc::Status FromAbsl(const absl::Status& status);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_ERRORS_H_
