// One RPC as ScribeServiceImpl::Serve runs it: its slot under the server's
// limit of concurrent calls, its start (for the latency metric), and
// whether the client still waits for it. Handlers' bodies get the Call and
// hand its stop() down into long work (engine/stop.h), which polls it.
#ifndef SCRIBE_SERVICE_CALL_H_
#define SCRIBE_SERVICE_CALL_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "engine/stop.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/status.h"
#include "service/metrics.h"

namespace scribe::service {

class Call {
 public:
  // Takes a slot of `in_flight`; the call is admitted when fewer than
  // `limit` were taken before. `context` may be null (in-process callers);
  // `stopping` (may be null) is the server's: set once calls must end.
  Call(grpc::ServerContext* context, std::atomic<int>* in_flight, int limit,
       const std::atomic<bool>* stopping = nullptr);
  ~Call();  // gives the slot back, admitted or not
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  bool admitted() const { return admitted_; }
  // True once the client cancelled the call, its deadline passed, or the
  // server is stopping. Cheap enough to poll every millisecond.
  bool cancelled() const;
  // cancelled(), for the libraries' long loops; valid while the Call lives.
  StopCheck stop() const {
    return [this] { return cancelled(); };
  }
  // The status of a call that stopped because cancelled(): UNAVAILABLE when
  // the server is stopping (retry elsewhere), DEADLINE_EXCEEDED past the
  // deadline, else CANCELLED.
  grpc::Status Stopped() const;
  // Microseconds since the call arrived.
  int64_t micros() const;

 private:
  grpc::ServerContext* context_;
  std::atomic<int>* in_flight_;
  const std::atomic<bool>* stopping_;
  std::chrono::steady_clock::time_point start_;
  bool admitted_;
};

// RESOURCE_EXHAUSTED (reason OVERLOADED) for a call refused at admission.
grpc::Status Overloaded();

// What every call of a server shares, whichever of its services it is
// for: the limit of calls at once (the record calls and the database's
// count against one limit), the stop at shutdown, and the metrics.
class Gate {
 public:
  Gate(int limit, Metrics* metrics) : limit_(limit), metrics_(metrics) {}

  // Runs one call of `method`: refuses it at once with RESOURCE_EXHAUSTED
  // when the server is at its limit, else runs `body(Call&)`, which returns
  // the call's status (OK, a BadRequest or an Error); records the outcome
  // in the metrics once either way.
  template <typename Body>
  grpc::Status Serve(const char* method, grpc::ServerContext* context, Body body) {
    Call call(context, &in_flight_, limit_, &stopping_);
    grpc::Status status;
    if (call.admitted()) {
      status = body(call);
    } else {
      metrics_->RecordShed(method);
      status = Overloaded();
    }
    metrics_->Record(method, status.error_code(), call.micros());
    return status;
  }

  int in_flight() const { return in_flight_.load(); }
  // Ends the calls in flight: their work stops within milliseconds and they
  // answer UNAVAILABLE.
  void Stop() { stopping_.store(true); }

 private:
  const int limit_;
  Metrics* metrics_;
  std::atomic<int> in_flight_{0};
  std::atomic<bool> stopping_{false};
};

// CANCELLED (reason CANCELLED): the client gave up; `message` says how.
grpc::Status Cancelled(const std::string& message);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_CALL_H_
