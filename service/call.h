// One RPC as ScribeServiceImpl::Serve runs it: its slot under the server's
// limit of concurrent calls, its start (for the latency metric), and
// whether the client still waits for it. Handlers' bodies get the Call and
// ask it, between steps of long work, whether to stop.
#ifndef SCRIBE_SERVICE_CALL_H_
#define SCRIBE_SERVICE_CALL_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"

namespace scribe::service {

class Call {
 public:
  // Takes a slot of `in_flight`; the call is admitted when fewer than
  // `limit` were taken before. `context` may be null (in-process callers).
  Call(grpc::ServerContext* context, std::atomic<int>* in_flight, int limit);
  ~Call();  // gives the slot back, admitted or not
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  bool admitted() const { return admitted_; }
  // True once the client cancelled the call or its deadline passed.
  bool cancelled() const { return context_ != nullptr && context_->IsCancelled(); }
  // Microseconds since the call arrived.
  int64_t micros() const;

 private:
  grpc::ServerContext* context_;
  std::atomic<int>* in_flight_;
  std::chrono::steady_clock::time_point start_;
  bool admitted_;
};

// RESOURCE_EXHAUSTED (reason OVERLOADED) for a call refused at admission.
grpc::Status Overloaded();

// CANCELLED (reason CANCELLED): the client gave up; `message` says how.
grpc::Status Cancelled(const std::string& message);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_CALL_H_
