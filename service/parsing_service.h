// A gRPC service whose methods receive their requests' bytes and parse
// them here (service/request_parsing.h), so that a request gRPC's parse
// would refuse without a word (a string field that is not UTF-8) is a
// BadRequest naming the field, and a stream goes on past such a message.
//
// The services derive from ParsingService rather than from the generated
// v1::*::Service, and register each method of their proto service with
// Unary, ClientStream or BidiStream; the method names are the generated
// ones, so clients see no difference. MissingMethods() says which methods
// of the proto service were not registered (a test asks it).
#ifndef SCRIBE_SERVICE_PARSING_SERVICE_H_
#define SCRIBE_SERVICE_PARSING_SERVICE_H_

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/impl/rpc_service_method.h"
#include "grpcpp/impl/service_type.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/method_handler.h"
#include "grpcpp/support/sync_stream.h"
#include "service/call.h"
#include "service/errors.h"
#include "service/request_parsing.h"

namespace scribe::service {

// What a stream's Read got.
enum class Received { kMessage, kEnd, kUnparsable };

// A stream's requests of type Req, parsed one by one.
template <typename Req>
class RequestReader {
 public:
  explicit RequestReader(grpc::internal::ReaderInterface<grpc::ByteBuffer>* raw) : raw_(raw) {}

  // The next request into `request`. kUnparsable: `violations` says why,
  // and `request` holds what could be read of it; the stream goes on.
  Received Read(Req* request, std::vector<FieldViolation>* violations) {
    grpc::ByteBuffer bytes;
    if (!raw_->Read(&bytes)) return Received::kEnd;
    return ParseRequest(bytes, request, violations) ? Received::kMessage : Received::kUnparsable;
  }

 private:
  grpc::internal::ReaderInterface<grpc::ByteBuffer>* raw_;
};

// A bidirectional stream: requests read as RequestReader reads them,
// responses written as they are.
template <typename Resp, typename Req>
class RequestStream : public RequestReader<Req> {
 public:
  explicit RequestStream(grpc::ServerReaderWriter<Resp, grpc::ByteBuffer>* raw)
      : RequestReader<Req>(raw), raw_(raw) {}
  bool Write(const Resp& response) { return raw_->Write(response); }

 private:
  grpc::ServerReaderWriter<Resp, grpc::ByteBuffer>* raw_;
};

class ParsingService : public grpc::Service {
 public:
  // `service`: the proto service's full name, e.g. "scribe.v1.ScribeService".
  // `gate` counts the requests refused here in the metrics, as the
  // handlers' own refusals are.
  ParsingService(std::string service, Gate* gate) : service_(std::move(service)), gate_(gate) {}

  // The methods of the proto service that were not registered (none, once
  // the constructor of the derived service has run).
  std::vector<std::string> MissingMethods() const;

 protected:
  // The server's admission, shutdown and metrics, as given.
  Gate& gate() const { return *gate_; }

  // impl->method(context, request, response) for each request that parses.
  template <typename Impl, typename Req, typename Resp>
  void Unary(const char* name, Impl* impl,
             grpc::Status (Impl::*method)(grpc::ServerContext*, const Req*, Resp*)) {
    Gate* gate = gate_;
    AddMethod(new grpc::internal::RpcServiceMethod(
        FullName(name, grpc::internal::RpcMethod::NORMAL_RPC), grpc::internal::RpcMethod::NORMAL_RPC,
        new grpc::internal::RpcMethodHandler<ParsingService, grpc::ByteBuffer, Resp>(
            [impl, method, gate, name](ParsingService*, grpc::ServerContext* context, const grpc::ByteBuffer* bytes,
                                       Resp* response) {
              Req request;
              std::vector<FieldViolation> violations;
              if (!ParseRequest(*bytes, &request, &violations)) {
                return gate->Serve(name, context, [&](Call&) { return BadRequest(violations); });
              }
              return (impl->*method)(context, &request, response);
            },
            this)));
  }

  // impl->method(context, reader, response), the requests read from reader.
  template <typename Impl, typename Req, typename Resp>
  void ClientStream(const char* name, Impl* impl,
                    grpc::Status (Impl::*method)(grpc::ServerContext*, RequestReader<Req>*, Resp*)) {
    AddMethod(new grpc::internal::RpcServiceMethod(
        FullName(name, grpc::internal::RpcMethod::CLIENT_STREAMING), grpc::internal::RpcMethod::CLIENT_STREAMING,
        new grpc::internal::ClientStreamingHandler<ParsingService, grpc::ByteBuffer, Resp>(
            [impl, method](ParsingService*, grpc::ServerContext* context, grpc::ServerReader<grpc::ByteBuffer>* raw,
                           Resp* response) {
              RequestReader<Req> reader(raw);
              return (impl->*method)(context, &reader, response);
            },
            this)));
  }

  // impl->method(context, stream).
  template <typename Impl, typename Req, typename Resp>
  void BidiStream(const char* name, Impl* impl,
                  grpc::Status (Impl::*method)(grpc::ServerContext*, RequestStream<Resp, Req>*)) {
    AddMethod(new grpc::internal::RpcServiceMethod(
        FullName(name, grpc::internal::RpcMethod::BIDI_STREAMING), grpc::internal::RpcMethod::BIDI_STREAMING,
        new grpc::internal::BidiStreamingHandler<ParsingService, grpc::ByteBuffer, Resp>(
            [impl, method](ParsingService*, grpc::ServerContext* context,
                           grpc::ServerReaderWriter<Resp, grpc::ByteBuffer>* raw) {
              RequestStream<Resp, Req> stream(raw);
              return (impl->*method)(context, &stream);
            },
            this)));
  }

 private:
  // "/<service>/<name>", kept for the server's life (gRPC keeps the pointer).
  const char* FullName(const char* name, grpc::internal::RpcMethod::RpcType type) {
    registered_.emplace_back(name, type);
    return names_.emplace_back(absl::StrCat("/", service_, "/", name)).c_str();
  }

  const std::string service_;
  Gate* gate_;
  std::deque<std::string> names_;
  std::vector<std::pair<std::string, grpc::internal::RpcMethod::RpcType>> registered_;
};

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_PARSING_SERVICE_H_
