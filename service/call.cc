#include "service/call.h"

#include "service/errors.h"

namespace scribe::service {

Call::Call(grpc::ServerContext* context, std::atomic<int>* in_flight, int limit, const std::atomic<bool>* stopping)
    : context_(context), in_flight_(in_flight), stopping_(stopping), start_(std::chrono::steady_clock::now()) {
  admitted_ = in_flight_->fetch_add(1) < limit;
}

Call::~Call() { in_flight_->fetch_sub(1); }

namespace {

bool PastDeadline(const grpc::ServerContext* context) {
  return context->deadline() < std::chrono::system_clock::now();
}

}  // namespace

bool Call::cancelled() const {
  if (stopping_ != nullptr && stopping_->load(std::memory_order_relaxed)) return true;
  // The deadline is read here, not left to gRPC: a server whose every
  // thread is busy may not learn of an expired call until one is free.
  return context_ != nullptr && (PastDeadline(context_) || context_->IsCancelled());
}

grpc::Status Call::Stopped() const {
  if (stopping_ != nullptr && stopping_->load()) {
    return Error(grpc::StatusCode::UNAVAILABLE, "the server is shutting down; retry the call", "SHUTTING_DOWN");
  }
  if (context_ != nullptr && PastDeadline(context_)) {
    return Error(grpc::StatusCode::DEADLINE_EXCEEDED, "the call's deadline passed", "DEADLINE_EXCEEDED");
  }
  return Cancelled("the client cancelled the call");
}

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
