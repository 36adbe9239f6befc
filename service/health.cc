#include "service/health.h"

#include <chrono>

namespace scribe::service {

namespace {

// gRPC's default health service refuses longer names; so does this one.
constexpr size_t kMaxServiceName = 200;

// How often a Watch with nothing to say looks whether its client is gone.
constexpr std::chrono::milliseconds kWatchPoll{250};

}  // namespace

void HealthService::SetServing(bool serving) {
  std::lock_guard<std::mutex> lock(mu_);
  if (shut_down_) return;
  const Response::ServingStatus status = serving ? Response::SERVING : Response::NOT_SERVING;
  if (status == status_) return;
  status_ = status;
  ++version_;
  changed_.notify_all();
}

void HealthService::Shutdown() {
  std::lock_guard<std::mutex> lock(mu_);
  shut_down_ = true;
  status_ = Response::NOT_SERVING;
  ++version_;
  changed_.notify_all();
}

grpc::Status HealthService::Answer(const Request& request, Response* response) {
  if (request.service().size() > kMaxServiceName) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "could not parse request");
  }
  if (!request.service().empty()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "service name unknown");
  std::lock_guard<std::mutex> lock(mu_);
  response->set_status(status_);
  return grpc::Status::OK;
}

// One Check call: asked for, then answered; its tag is itself.
struct HealthService::CheckCall {
  grpc::ServerContext context;
  Request request;
  grpc::ServerAsyncResponseWriter<Response> writer{&context};
  bool answered = false;
};

void HealthService::AddQueue(grpc::ServerBuilder& builder) {
  // Not frequently polled: the server's synchronous queues poll its
  // connections themselves (see the header).
  queue_ = builder.AddCompletionQueue(/*is_frequently_polled=*/false);
}

void HealthService::RequestOne() {
  auto* call = new CheckCall;
  RequestCheck(&call->context, &call->request, &call->writer, queue_.get(), queue_.get(), call);
}

void HealthService::StartChecks() {
  RequestOne();
  checks_ = std::thread([this] {
    void* tag = nullptr;
    bool ok = false;
    while (queue_->Next(&tag, &ok)) {
      auto* call = static_cast<CheckCall*>(tag);
      if (call->answered || !ok) {  // answered, or the server is shutting down
        delete call;
        continue;
      }
      RequestOne();  // the next Check
      Response response;
      const grpc::Status status = Answer(call->request, &response);
      call->answered = true;
      if (status.ok()) {
        call->writer.Finish(response, status, call);
      } else {
        call->writer.FinishWithError(status, call);
      }
    }
  });
}

void HealthService::StopChecks() {
  if (queue_ == nullptr) return;
  queue_->Shutdown();
  if (checks_.joinable()) checks_.join();
}

grpc::Status HealthService::Watch(grpc::ServerContext* context, const Request* request,
                                  grpc::ServerWriter<Response>* writer) {
  if (request->service().size() > kMaxServiceName) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "could not parse request");
  }
  // Another name is unknown, said once; the watch stays open (as the
  // protocol has it) until the client leaves or the server stops.
  const bool known = request->service().empty();
  int64_t sent = -1;  // the version last sent
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    // Sent: the first status, each change for the server's own name, and
    // NOT_SERVING at shutdown for any name (which ends the watch).
    if (sent != version_ && (known || sent < 0 || shut_down_)) {
      Response response;
      response.set_status(shut_down_ ? Response::NOT_SERVING : known ? status_ : Response::SERVICE_UNKNOWN);
      sent = version_;
      const bool shut_down = shut_down_;
      lock.unlock();
      const bool written = writer->Write(response);
      if (shut_down) return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down");
      if (!written) return grpc::Status(grpc::StatusCode::CANCELLED, "the watcher went away");
      lock.lock();
      continue;
    }
    if (context->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "the watcher went away");
    changed_.wait_for(lock, kWatchPoll);
  }
}

}  // namespace scribe::service
