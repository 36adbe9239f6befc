// scribed's grpc.health.v1.Health service: Check and Watch for the server
// as a whole (the service name ""; any other name is unknown). gRPC's
// default health service keeps a Watch open until the server's grace
// period runs out, so one watcher held up every shutdown; this one ends
// each Watch (after it has sent NOT_SERVING) when the server stops.
#ifndef SCRIBE_SERVICE_HEALTH_H_
#define SCRIBE_SERVICE_HEALTH_H_

#include <mutex>
#include <set>

#include "grpc/health/v1/health.grpc.pb.h"

namespace scribe::service {

class HealthService final : public grpc::health::v1::Health::CallbackService {
 public:
  using Request = grpc::health::v1::HealthCheckRequest;
  using Response = grpc::health::v1::HealthCheckResponse;

  // SERVING or NOT_SERVING; every open Watch hears of a change.
  void SetServing(bool serving);
  // NOT_SERVING for good: every open Watch is sent it and then ends with
  // UNAVAILABLE, and a Watch that starts later gets the same at once.
  void Shutdown();

  grpc::ServerUnaryReactor* Check(grpc::CallbackServerContext* context, const Request* request,
                                  Response* response) override;
  grpc::ServerWriteReactor<Response>* Watch(grpc::CallbackServerContext* context, const Request* request) override;

 private:
  class Watcher;

  std::mutex mu_;
  Response::ServingStatus status_ = Response::NOT_SERVING;
  bool shut_down_ = false;
  std::set<Watcher*> watchers_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_HEALTH_H_
