// What an error's details carry (google.rpc.Status in the status's
// details, service/errors.h), read back by the service's tests.
#ifndef SCRIBE_TESTS_SERVICE_STATUS_DETAILS_H_
#define SCRIBE_TESTS_SERVICE_STATUS_DETAILS_H_

#include <string>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/support/status.h"

namespace scribe::service {

// The BadRequest in a status' details, empty when there is none.
inline google::rpc::BadRequest BadRequestOf(const grpc::Status& status) {
  google::rpc::Status rpc;
  google::rpc::BadRequest bad;
  if (!rpc.ParseFromString(status.error_details())) return bad;
  for (const auto& any : rpc.details()) {
    if (any.Is<google::rpc::BadRequest>()) any.UnpackTo(&bad);
  }
  return bad;
}

// The ErrorInfo reason in a status' details, empty when there is none.
inline std::string ReasonOf(const grpc::Status& status) {
  google::rpc::Status rpc;
  google::rpc::ErrorInfo info;
  if (!rpc.ParseFromString(status.error_details())) return "";
  for (const auto& any : rpc.details()) {
    if (any.Is<google::rpc::ErrorInfo>()) any.UnpackTo(&info);
  }
  return info.reason();
}

}  // namespace scribe::service

#endif  // SCRIBE_TESTS_SERVICE_STATUS_DETAILS_H_
