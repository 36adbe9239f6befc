#include "service/errors.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "records/utf8.h"

namespace scribe::service {

namespace {

constexpr char kDomain[] = "scribe.v1";

grpc::Status WithDetails(grpc::StatusCode code, const std::string& message,
                         const google::rpc::Status& details) {
  return grpc::Status(code, message, details.SerializeAsString());
}

}  // namespace

grpc::Status BadRequest(const std::vector<FieldViolation>& violations) {
  google::rpc::Status status;
  status.set_code(grpc::StatusCode::INVALID_ARGUMENT);
  google::rpc::BadRequest bad;
  std::vector<std::string> parts;
  for (const FieldViolation& v : violations) {
    // Descriptions quote the request's bytes: the details must parse.
    const std::string field = ValidUtf8(v.field);
    const std::string description = ValidUtf8(v.description);
    auto* fv = bad.add_field_violations();
    fv->set_field(field);
    fv->set_description(description);
    parts.push_back(field.empty() ? description : absl::StrCat(field, ": ", description));
  }
  const std::string message = absl::StrJoin(parts, "; ");
  status.set_message(message);
  status.add_details()->PackFrom(bad);
  return WithDetails(grpc::StatusCode::INVALID_ARGUMENT, message, status);
}

grpc::Status Error(grpc::StatusCode code, const std::string& raw_message, const std::string& reason) {
  const std::string message = ValidUtf8(raw_message);
  google::rpc::Status status;
  status.set_code(code);
  status.set_message(message);
  google::rpc::ErrorInfo info;
  info.set_reason(reason);
  info.set_domain(kDomain);
  status.add_details()->PackFrom(info);
  return WithDetails(code, message, status);
}

grpc::Status FromAbsl(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return Error(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()),
               absl::StatusCodeToString(status.code()));
}

}  // namespace scribe::service
