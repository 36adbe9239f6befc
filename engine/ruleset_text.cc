// RulesetToText: a resolved ruleset written as protobuf text format, every
// field in declaration order (what `scribe ruleset show` prints and
// LoadRulesetText reads back).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/ruleset.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace scribe {

namespace pb = ::google::protobuf;

namespace {

// A string as a text-format literal: quotes, backslashes and control
// characters escaped, UTF-8 kept readable.
std::string Quote(absl::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20 || u == 0x7f) {
      absl::StrAppend(&out, "\\", (u >> 6) & 7, (u >> 3) & 7, u & 7);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

void AppendFieldText(const pb::Message& m, const pb::FieldDescriptor* f, const std::string& indent,
                     std::string* out) {
  const pb::Reflection* r = m.GetReflection();
  if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
    absl::StrAppend(out, indent, f->name(), " {\n");
    const pb::Message& sub = r->GetMessage(m, f);
    for (int i = 0; i < sub.GetDescriptor()->field_count(); ++i) {
      AppendFieldText(sub, sub.GetDescriptor()->field(i), indent + "  ", out);
    }
    absl::StrAppend(out, indent, "}\n");
    return;
  }
  if (f->is_repeated()) {
    std::vector<std::string> items;
    for (int k = 0; k < r->FieldSize(m, f); ++k) {
      if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING) {
        items.push_back(Quote(r->GetRepeatedString(m, f, k)));
      } else {
        items.push_back(absl::StrCat(r->GetRepeatedInt32(m, f, k)));
      }
    }
    absl::StrAppend(out, indent, f->name(), ": [", absl::StrJoin(items, ", "), "]\n");
    return;
  }
  std::string value;
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_STRING:
      value = Quote(r->GetString(m, f));
      break;
    case pb::FieldDescriptor::CPPTYPE_INT32:
      value = absl::StrCat(r->GetInt32(m, f));
      break;
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      value = r->GetBool(m, f) ? "true" : "false";
      break;
    case pb::FieldDescriptor::CPPTYPE_ENUM:
      value = r->GetEnum(m, f)->name();
      break;
    default:
      break;
  }
  absl::StrAppend(out, indent, f->name(), ": ", value, "\n");
}

}  // namespace

std::string RulesetToText(const v1::Ruleset& resolved) {
  std::string out;
  const pb::Descriptor* d = resolved.GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const pb::FieldDescriptor* f = d->field(i);
    if (f->name() == "base") continue;
    AppendFieldText(resolved, f, "", &out);
  }
  return out;
}

}  // namespace scribe
