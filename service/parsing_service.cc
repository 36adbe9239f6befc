#include "service/parsing_service.h"

#include "google/protobuf/descriptor.pb.h"

namespace scribe::service {

std::vector<std::string> ParsingService::MissingMethods() const {
  using grpc::internal::RpcMethod;
  std::vector<std::string> missing;
  const google::protobuf::ServiceDescriptor* service =
      google::protobuf::DescriptorPool::generated_pool()->FindServiceByName(service_);
  if (service == nullptr) return {absl::StrCat("the service ", service_, " itself")};
  for (int i = 0; i < service->method_count(); ++i) {
    const google::protobuf::MethodDescriptor& m = *service->method(i);
    const RpcMethod::RpcType type = m.client_streaming()
                                        ? (m.server_streaming() ? RpcMethod::BIDI_STREAMING : RpcMethod::CLIENT_STREAMING)
                                        : (m.server_streaming() ? RpcMethod::SERVER_STREAMING : RpcMethod::NORMAL_RPC);
    bool found = false;
    for (const auto& [name, registered] : registered_) found = found || (name == m.name() && registered == type);
    if (!found) missing.push_back(m.name());
  }
  return missing;
}

}  // namespace scribe::service
