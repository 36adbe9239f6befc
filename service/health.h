// scribed's grpc.health.v1.Health service: Check and Watch for the server
// as a whole (the service name ""; any other name is unknown). gRPC's
// default health service keeps a Watch open until the server's grace
// period runs out, so one watcher held up every shutdown; this one ends
// each Watch (after it has sent NOT_SERVING) when the server stops.
//
// Check is asynchronous, on a completion queue and a thread of its own:
// it answers when every thread of the server is taken (a load balancer's
// or the kubelet's probe under overload). Watch is synchronous, as the
// server's other methods are, and holds one of the server's threads while
// it is open. (A callback service beside synchronous ones, as this was,
// made gRPC 1.51 stop answering every call for up to 100 ms about once a
// second: docs/BENCHMARKS.md, "The game database over gRPC". A queue the
// server does not count as frequently polled keeps it from that mode.)
#ifndef SCRIBE_SERVICE_HEALTH_H_
#define SCRIBE_SERVICE_HEALTH_H_

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/server_builder.h"

namespace scribe::service {

class HealthService final
    : public grpc::health::v1::Health::WithAsyncMethod_Check<grpc::health::v1::Health::Service> {
 public:
  // Before the server is built: the queue of the Check calls.
  void AddQueue(grpc::ServerBuilder& builder);
  // Once it is built: the thread that answers them.
  void StartChecks();
  // Once the server has shut down: the queue drained, the thread joined.
  void StopChecks();

  using Request = grpc::health::v1::HealthCheckRequest;
  using Response = grpc::health::v1::HealthCheckResponse;

  // SERVING or NOT_SERVING; every open Watch hears of a change.
  void SetServing(bool serving);
  // NOT_SERVING for good: every open Watch is sent it and then ends with
  // UNAVAILABLE, and a Watch that starts later gets the same at once.
  void Shutdown();

  grpc::Status Watch(grpc::ServerContext* context, const Request* request,
                     grpc::ServerWriter<Response>* writer) override;

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  Response::ServingStatus status_ = Response::NOT_SERVING;
  int64_t version_ = 0;  // counts the changes
  bool shut_down_ = false;

  struct CheckCall;
  void RequestOne();
  // The answer to a Check of `request`.
  grpc::Status Answer(const Request& request, Response* response);
  std::unique_ptr<grpc::ServerCompletionQueue> queue_;
  std::thread checks_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_HEALTH_H_
