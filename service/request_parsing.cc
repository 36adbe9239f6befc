#include "service/request_parsing.h"

#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/unknown_field_set.h"
#include "grpcpp/support/proto_buffer_reader.h"
#include "records/utf8.h"

namespace scribe::service {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::UnknownField;
using google::protobuf::UnknownFieldSet;

// Messages nest at most this deep here (protobuf's own parse stops at 100).
constexpr int kMaxDepth = 100;

// Removes from `fields` (a message of `type`, as wire fields) every string
// field whose bytes are not UTF-8, at any depth, naming each under `path`.
// False when a nested message's bytes are not wire format.
bool DropNonUtf8(const Descriptor& type, const std::string& path, int depth, UnknownFieldSet* fields,
                 std::vector<FieldViolation>* violations) {
  if (depth > kMaxDepth) return false;
  std::map<int, int> seen;  // occurrences so far of each field number
  for (int i = 0; i < fields->field_count();) {
    UnknownField* field = fields->mutable_field(i);
    const FieldDescriptor* descriptor = type.FindFieldByNumber(field->number());
    if (descriptor == nullptr || field->type() != UnknownField::TYPE_LENGTH_DELIMITED) {
      ++i;
      continue;
    }
    const int index = seen[field->number()]++;
    const std::string at = absl::StrCat(path, path.empty() ? "" : ".", descriptor->name(),
                                        descriptor->is_repeated() ? absl::StrCat("[", index, "]") : "");
    if (descriptor->type() == FieldDescriptor::TYPE_STRING && !IsValidUtf8(field->length_delimited())) {
      violations->push_back({at, "holds bytes that are not UTF-8 text (a string field must be UTF-8)"});
      fields->DeleteSubrange(i, 1);
      continue;
    }
    if (descriptor->type() == FieldDescriptor::TYPE_MESSAGE) {
      UnknownFieldSet inner;
      if (!inner.ParseFromString(field->length_delimited())) return false;
      const size_t before = violations->size();
      if (!DropNonUtf8(*descriptor->message_type(), at, depth + 1, &inner, violations)) return false;
      if (violations->size() != before && !inner.SerializeToString(field->mutable_length_delimited())) return false;
    }
    ++i;
  }
  return true;
}

// What is wrong with `bytes`, which do not parse as `message`'s type:
// false always, `message` set as ParseRequest says.
bool Unparsable(const std::string& bytes, google::protobuf::Message* message,
                std::vector<FieldViolation>* violations) {
  message->Clear();
  const std::string type = message->GetDescriptor()->full_name();
  UnknownFieldSet fields;
  std::vector<FieldViolation> found;
  std::string cleaned;
  if (fields.ParseFromString(bytes) && DropNonUtf8(*message->GetDescriptor(), "", 0, &fields, &found) &&
      !found.empty() && fields.SerializeToString(&cleaned) && message->ParseFromString(cleaned)) {
    for (FieldViolation& v : found) violations->push_back(std::move(v));
    return false;
  }
  message->Clear();
  violations->push_back({"", absl::StrCat("the request's ", bytes.size(), " bytes are not a ", type,
                                          " message in protobuf's binary format")});
  return false;
}

}  // namespace

bool ParseRequest(const std::string& bytes, google::protobuf::Message* message,
                  std::vector<FieldViolation>* violations) {
  message->Clear();
  if (message->ParseFromString(bytes)) return true;
  return Unparsable(bytes, message, violations);
}

bool BufferBytes(const grpc::ByteBuffer& buffer, std::string* bytes) {
  bytes->clear();
  if (!buffer.Valid()) return true;
  std::vector<grpc::Slice> slices;
  if (!buffer.Dump(&slices).ok()) return false;
  bytes->reserve(buffer.Length());
  for (const grpc::Slice& s : slices) bytes->append(reinterpret_cast<const char*>(s.begin()), s.size());
  return true;
}

bool ParseRequest(const grpc::ByteBuffer& buffer, google::protobuf::Message* message,
                  std::vector<FieldViolation>* violations) {
  message->Clear();
  if (!buffer.Valid()) return ParseRequest(std::string(), message, violations);
  {
    // The reader reads the slices in place (it takes a pointer, but leaves
    // the buffer as it was).
    grpc::ProtoBufferReader reader(const_cast<grpc::ByteBuffer*>(&buffer));
    if (reader.status().ok() && message->ParseFromZeroCopyStream(&reader)) return true;
  }
  // The slow way, for a request that does not parse: its bytes at once.
  std::string bytes;
  if (!BufferBytes(buffer, &bytes)) {
    message->Clear();
    violations->push_back({"", "the request's bytes could not be read"});
    return false;
  }
  return Unparsable(bytes, message, violations);
}

}  // namespace scribe::service
