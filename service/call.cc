#include "service/call.h"

#include "service/errors.h"

namespace scribe::service {

Call::Call(grpc::ServerContext* context, std::atomic<int>* in_flight, int limit)
    : context_(context), in_flight_(in_flight), start_(std::chrono::steady_clock::now()) {
  admitted_ = in_flight_->fetch_add(1) < limit;
}

Call::~Call() { in_flight_->fetch_sub(1); }

int64_t Call::micros() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_).count();
}

grpc::Status Overloaded() {
  return Error(grpc::StatusCode::RESOURCE_EXHAUSTED,
               "the server is at its limit of concurrent calls; retry with backoff", "OVERLOADED");
}

grpc::Status Cancelled(const std::string& message) {
  return Error(grpc::StatusCode::CANCELLED, message, "CANCELLED");
}

}  // namespace scribe::service
