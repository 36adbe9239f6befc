#include "service/health.h"

#include <optional>

namespace scribe::service {

namespace {

// gRPC's default health service refuses longer names; so does this one.
constexpr size_t kMaxServiceName = 200;

}  // namespace

// One open Watch. Every member is guarded by the service's mutex; gRPC
// never runs a reaction inline from StartWrite or Finish, so they are
// called with it held.
class HealthService::Watcher final : public grpc::ServerWriteReactor<Response> {
 public:
  // Registers itself and sends the current status (or, after Shutdown,
  // NOT_SERVING and the end).
  Watcher(HealthService* service, const Request& request) : service_(service) {
    std::lock_guard<std::mutex> lock(service_->mu_);
    if (request.service().size() > kMaxServiceName) {
      Finish(grpc::Status(grpc::StatusCode::INTERNAL, "could not parse request"));
      finished_ = true;
      return;
    }
    known_ = request.service().empty();
    service_->watchers_.insert(this);
    if (service_->shut_down_) {
      End();
    } else {
      Send(known_ ? service_->status_ : Response::SERVICE_UNKNOWN);
    }
  }

  // A new status for the server as a whole.
  void Send(Response::ServingStatus status) {
    if (finished_ || !known_) return;
    if (write_pending_) {
      pending_ = status;
      return;
    }
    response_.set_status(status);
    write_pending_ = true;
    StartWrite(&response_);
  }

  // The server stops: NOT_SERVING, then the end of the call.
  void End() {
    if (finished_) return;
    closing_ = true;
    if (write_pending_) {
      pending_ = Response::NOT_SERVING;
      return;
    }
    response_.set_status(Response::NOT_SERVING);
    write_pending_ = true;
    finished_ = true;
    StartWriteAndFinish(&response_, grpc::WriteOptions(),
                        grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down"));
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard<std::mutex> lock(service_->mu_);
    write_pending_ = false;
    if (!ok) {
      if (!finished_) Finish(grpc::Status(grpc::StatusCode::CANCELLED, "the watcher went away"));
      finished_ = true;
      return;
    }
    if (!pending_) return;
    const Response::ServingStatus next = *pending_;
    pending_.reset();
    if (closing_) {
      End();
    } else {
      Send(next);
    }
  }

  void OnCancel() override {
    std::lock_guard<std::mutex> lock(service_->mu_);
    if (!finished_) Finish(grpc::Status(grpc::StatusCode::CANCELLED, "the watcher went away"));
    finished_ = true;
  }

  void OnDone() override {
    {
      std::lock_guard<std::mutex> lock(service_->mu_);
      service_->watchers_.erase(this);
    }
    delete this;
  }

 private:
  HealthService* service_;
  Response response_;
  std::optional<Response::ServingStatus> pending_;
  bool known_ = false;
  bool write_pending_ = false;
  bool closing_ = false;
  bool finished_ = false;
};

void HealthService::SetServing(bool serving) {
  std::lock_guard<std::mutex> lock(mu_);
  if (shut_down_) return;
  status_ = serving ? Response::SERVING : Response::NOT_SERVING;
  for (Watcher* w : watchers_) w->Send(status_);
}

void HealthService::Shutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  shut_down_ = true;
  status_ = Response::NOT_SERVING;
  for (Watcher* w : watchers_) w->End();
}

grpc::ServerUnaryReactor* HealthService::Check(grpc::CallbackServerContext* context, const Request* request,
                                               Response* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (request->service().size() > kMaxServiceName) {
    reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "could not parse request"));
  } else if (!request->service().empty()) {
    reactor->Finish(grpc::Status(grpc::StatusCode::NOT_FOUND, "service name unknown"));
  } else {
    {
      std::lock_guard<std::mutex> lock(mu_);
      response->set_status(status_);
    }
    reactor->Finish(grpc::Status::OK);
  }
  return reactor;
}

grpc::ServerWriteReactor<HealthService::Response>* HealthService::Watch(grpc::CallbackServerContext*,
                                                                        const Request* request) {
  return new Watcher(this, *request);
}

}  // namespace scribe::service
