#include "service/errors.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "records/utf8.h"

namespace scribe::service {

namespace {

constexpr char kDomain[] = "scribe.v1";

// The violations' text ("field: description; ...") a BadRequest may send.
// gRPC percent-encodes the message and the details repeat it, base64
// encoded beside the violations: about 4 bytes on the wire for each byte
// here, so this keeps the trailers near 7 KB at most.
constexpr size_t kMessageBudget = 1700;

grpc::Status WithDetails(grpc::StatusCode code, const std::string& message,
                         const google::rpc::Status& details) {
  return grpc::Status(code, message, details.SerializeAsString());
}

// The start of the UTF-8 sequence that holds text[i] (or i itself when
// that is at the end).
size_t CharStart(const std::string& text, size_t i) {
  while (i > 0 && i < text.size() && (static_cast<unsigned char>(text[i]) & 0xc0) == 0x80) --i;
  return i;
}

// Bytes on the wire for `text` in a grpc-message (percent-encoded).
size_t WireBytes(const std::string& text) {
  size_t n = 0;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    n += (c < 0x20 || c > 0x7e || c == '%') ? 3 : 1;
  }
  return n;
}

}  // namespace

std::string Shorten(const std::string& raw, size_t limit) {
  std::string text = ValidUtf8(raw);
  if (text.size() <= limit) return text;
  const std::string mark = absl::StrCat(" ... (", text.size(), " bytes) ... ");
  const size_t keep = limit > mark.size() + 2 ? limit - mark.size() : 2;
  const size_t head = CharStart(text, keep * 2 / 3);
  const size_t tail = CharStart(text, text.size() - (keep - keep * 2 / 3));
  return absl::StrCat(text.substr(0, head), mark, text.substr(tail));
}

std::vector<FieldViolation> CapViolations(const std::vector<FieldViolation>& violations) {
  std::vector<FieldViolation> out;
  size_t used = 0;
  for (const FieldViolation& v : violations) {
    FieldViolation s{Shorten(v.field, kMaxFieldBytes), Shorten(v.description, kMaxDescriptionBytes)};
    const size_t cost = WireBytes(s.field) + WireBytes(s.description) + 4;
    // The first violation always goes, whatever its size (it is cut to a
    // few hundred bytes).
    if (!out.empty() && (out.size() == kMaxViolations || used + cost > kMessageBudget)) break;
    used += cost;
    out.push_back(std::move(s));
  }
  if (out.size() < violations.size()) {
    // Named by the field of the first one left out (a violation always
    // names its field).
    const size_t more = violations.size() - out.size();
    out.push_back({Shorten(violations[out.size()].field, kMaxFieldBytes),
                   absl::StrCat("and ", more, " more problem", more == 1 ? "" : "s")});
  }
  return out;
}

grpc::Status BadRequest(const std::vector<FieldViolation>& violations) {
  google::rpc::Status status;
  status.set_code(grpc::StatusCode::INVALID_ARGUMENT);
  google::rpc::BadRequest bad;
  std::vector<std::string> parts;
  for (const FieldViolation& v : CapViolations(violations)) {
    auto* fv = bad.add_field_violations();
    fv->set_field(v.field);
    fv->set_description(v.description);
    parts.push_back(v.field.empty() ? v.description : absl::StrCat(v.field, ": ", v.description));
  }
  const std::string message = absl::StrJoin(parts, "; ");
  status.set_message(message);
  status.add_details()->PackFrom(bad);
  return WithDetails(grpc::StatusCode::INVALID_ARGUMENT, message, status);
}

grpc::Status Error(grpc::StatusCode code, const std::string& raw_message, const std::string& reason) {
  const std::string message = Shorten(raw_message, kMaxMessageBytes);
  google::rpc::Status status;
  status.set_code(code);
  status.set_message(message);
  google::rpc::ErrorInfo info;
  info.set_reason(Shorten(reason, kMaxFieldBytes));
  info.set_domain(kDomain);
  status.add_details()->PackFrom(info);
  return WithDetails(code, message, status);
}

grpc::Status FromAbsl(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return Error(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()),
               absl::StatusCodeToString(status.code()));
}

}  // namespace scribe::service
