// A request's bytes parsed by the service itself rather than by gRPC.
//
// gRPC's own parse of a proto3 message fails on a string field whose bytes
// are not UTF-8 (a player's name from a client that sends bytes as they
// come), and then answers a unary call INTERNAL with no message, and ends a
// client stream at that message as if the client had closed it. Parsed
// here, such a request is a BadRequest naming each such field, and a
// stream goes on past it (service/parsing_service.h).
#ifndef SCRIBE_SERVICE_REQUEST_PARSING_H_
#define SCRIBE_SERVICE_REQUEST_PARSING_H_

#include <string>
#include <vector>

#include "google/protobuf/message.h"
#include "grpcpp/support/byte_buffer.h"
#include "service/errors.h"

namespace scribe::service {

// Parses `bytes` into `message` (cleared first). True when they parse.
// Otherwise false with the violations: each string field (at any depth,
// repeated ones by index: "filter.players[2]") whose bytes are not UTF-8
// is one, and `message` holds the request without those fields (so that a
// stream's answer can still carry its id); bytes that are not a message of
// that type at all are one violation of the field "" and `message` is
// left empty.
bool ParseRequest(const std::string& bytes, google::protobuf::Message* message,
                  std::vector<FieldViolation>* violations);

// A received gRPC message's bytes, in one string (none when it holds
// none); false when they cannot be read.
bool BufferBytes(const grpc::ByteBuffer& buffer, std::string* bytes);

// The same for a received gRPC message.
bool ParseRequest(const grpc::ByteBuffer& buffer, google::protobuf::Message* message,
                  std::vector<FieldViolation>* violations);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_REQUEST_PARSING_H_
