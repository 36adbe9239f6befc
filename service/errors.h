// The one place where Scribe's errors become gRPC statuses: the canonical
// code, a message, and a google.rpc.Status in the details trailer carrying
// a google.rpc.BadRequest with the field violations.
//
// Errors have a size: descriptions and messages quote the request, and
// gRPC drops a status whose trailers outgrow its limit (the client then
// gets no status and the connection stops serving). So every text is cut
// here to a few hundred bytes (its head and tail kept, the cut marked with
// the text's length), at most kMaxViolations are listed (then one "and N
// more"), and the message with its details stays under kMaxErrorBytes.
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

// The largest violation list: more are summed up as "and N more".
inline constexpr size_t kMaxViolations = 20;
// Longest field path and description; a longer one keeps its head and
// tail around "... (N bytes) ...".
inline constexpr size_t kMaxFieldBytes = 100;
inline constexpr size_t kMaxDescriptionBytes = 400;
// Longest message of a status that is not a BadRequest.
inline constexpr size_t kMaxMessageBytes = 1000;
// A status's message and serialized details together stay under this.
inline constexpr size_t kMaxErrorBytes = 8192;

// `text` made UTF-8 and, past `limit` bytes, cut in the middle: its head
// and tail around "... (N bytes) ...", N the length of the whole.
std::string Shorten(const std::string& text, size_t limit);

// The violations as they are sent: each made UTF-8 and shortened, the
// first ones that fit the budget of a status (at most kMaxViolations),
// then {the first left out's field, "and N more problems"} for the rest.
std::vector<FieldViolation> CapViolations(const std::vector<FieldViolation>& violations);

// INVALID_ARGUMENT listing the violations (capped by CapViolations).
grpc::Status BadRequest(const std::vector<FieldViolation>& violations);

// Any other canonical code, with a message (and an ErrorInfo reason).
grpc::Status Error(grpc::StatusCode code, const std::string& message, const std::string& reason);

// An absl::Status from the libraries, as the same canonical code.
grpc::Status FromAbsl(const absl::Status& status);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_ERRORS_H_
