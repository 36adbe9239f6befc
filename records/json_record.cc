#include "records/json_record.h"

#include <nlohmann/json.hpp>

#include <map>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"

namespace scribe {

void LineColumn(absl::string_view text, size_t offset, int* line, int* column) {
  *line = 1;
  *column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++*line;
      *column = 1;
    } else {
      ++*column;
    }
  }
}

namespace {

v1::Finding MakeFinding(absl::string_view code, std::string message) {
  v1::Finding f;
  f.set_code(std::string(code));
  f.set_message(std::move(message));
  return f;
}

// Records nest a few levels deep; anything deeper is refused before a
// recursive parser or printer could exhaust the stack.
constexpr int kMaxJsonDepth = 32;

// The depth of the deepest nesting of [ and { outside strings, and where it
// passes the limit.
int JsonDepth(absl::string_view text, size_t* deep_at) {
  int depth = 0, max_depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        max_depth = depth;
        if (depth == kMaxJsonDepth + 1) *deep_at = i;
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

// Protobuf's JSON parser takes a single value where a list belongs; the
// record's shape does not, so check it first: a repeated field is an array,
// a message field an object.
bool CheckShape(const google::protobuf::Descriptor* desc, const nlohmann::json& value, const std::string& path,
                std::string* error) {
  if (!value.is_object()) return true;  // protobuf says what is wrong
  for (const auto& item : value.items()) {
    const google::protobuf::FieldDescriptor* f = desc->FindFieldByName(item.key());
    for (int i = 0; f == nullptr && i < desc->field_count(); ++i) {
      if (desc->field(i)->json_name() == item.key()) f = desc->field(i);
    }
    if (f == nullptr || item.value().is_null()) continue;
    const std::string where = path.empty() ? item.key() : absl::StrCat(path, ".", item.key());
    if (f->is_repeated() && !f->is_map()) {
      if (!item.value().is_array()) {
        *error = absl::StrCat(where, " must be an array, found ", item.value().type_name());
        return false;
      }
      if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) {
        int k = 0;
        for (const auto& element : item.value()) {
          if (!CheckShape(f->message_type(), element, absl::StrCat(where, "[", k++, "]"), error)) return false;
        }
      }
    } else if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE && !f->is_map()) {
      if (!CheckShape(f->message_type(), item.value(), where, error)) return false;
    }
  }
  return true;
}

// Converts one JSON value to a record through the protobuf JSON parser, so
// that exactly the documented mapping is accepted.
bool ToRecord(const nlohmann::json& value, v1::GameRecord* out, std::string* error) {
  if (!value.is_object()) {
    *error = absl::StrCat("expected a record (a JSON object), found ", value.type_name());
    return false;
  }
  if (!CheckShape(v1::GameRecord::descriptor(), value, "", error)) {
    *error = absl::StrCat("not a record: ", *error);
    return false;
  }
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(value.dump(), out, options);
  if (!status.ok()) {
    *error = absl::StrCat("not a record: ", status.message().as_string());
    return false;
  }
  return true;
}

}  // namespace

ParsedRecords ParseJsonRecords(absl::string_view text) {
  ParsedRecords out;
  if (const size_t nul = text.find('\0'); nul != absl::string_view::npos) {
    v1::Finding f = MakeFinding("json-syntax", "not valid JSON: a NUL byte (is this a binary file?)");
    int line, column;
    LineColumn(text, nul, &line, &column);
    f.set_line(line);
    f.set_column(column);
    out.findings.push_back(std::move(f));
    out.entries = 1;
    return out;
  }
  size_t deep_at = 0;
  if (JsonDepth(text, &deep_at) > kMaxJsonDepth) {
    v1::Finding f = MakeFinding("not-a-record", absl::StrCat("not a record: nested more than ", kMaxJsonDepth,
                                                            " levels deep"));
    int line, column;
    LineColumn(text, deep_at, &line, &column);
    f.set_line(line);
    f.set_column(column);
    out.findings.push_back(std::move(f));
    out.entries = 1;
    return out;
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    v1::Finding f = MakeFinding("json-syntax", e.what());
    int line, column;
    LineColumn(text, e.byte > 0 ? e.byte - 1 : 0, &line, &column);
    f.set_line(line);
    f.set_column(column);
    // nlohmann's own text names the byte; say it as line and column.
    const std::string what = e.what();
    const auto colon = what.find("parse error");
    f.set_message(absl::StrCat("not valid JSON: ", colon == std::string::npos ? what : what.substr(colon)));
    out.findings.push_back(std::move(f));
    out.entries = 1;
    return out;
  }
  std::vector<const nlohmann::json*> entries;
  if (doc.is_array()) {
    for (const auto& e : doc) entries.push_back(&e);
    if (entries.empty()) {
      out.findings.push_back(MakeFinding("no-records", "the file holds an empty array: no records"));
    }
  } else {
    entries.push_back(&doc);
  }
  out.entries = static_cast<int>(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    v1::GameRecord record;
    std::string error;
    if (ToRecord(*entries[i], &record, &error)) {
      out.records.push_back(std::move(record));
      out.record_indices.push_back(static_cast<int>(i));
    } else {
      v1::Finding f = MakeFinding("not-a-record", error);
      f.set_record_index(static_cast<int>(i));
      out.findings.push_back(std::move(f));
    }
  }
  return out;
}

namespace {

// Protobuf prints map entries in hash order, which changes from run to run:
// sort them, so that the same record always gives the same bytes.
void SortMapFields(const google::protobuf::Descriptor* desc, nlohmann::ordered_json* j) {
  if (!j->is_object()) return;
  for (int i = 0; i < desc->field_count(); ++i) {
    const google::protobuf::FieldDescriptor* f = desc->field(i);
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    auto it = j->find(f->name());
    if (it == j->end()) continue;
    if (f->is_map()) {
      std::map<std::string, nlohmann::ordered_json> sorted;
      for (auto& item : it->items()) sorted.emplace(item.key(), std::move(item.value()));
      nlohmann::ordered_json entries = nlohmann::ordered_json::object();
      for (auto& [key, value] : sorted) entries[key] = std::move(value);
      *it = std::move(entries);
    } else if (f->is_repeated()) {
      for (auto& element : *it) SortMapFields(f->message_type(), &element);
    } else {
      SortMapFields(f->message_type(), &*it);
    }
  }
}

}  // namespace

std::string MessageToJson(const google::protobuf::Message& message, bool pretty) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  // Re-printed through nlohmann: map entries sorted, and "<", ">" and "&"
  // written as themselves (protobuf escapes them for HTML).
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(out);
  SortMapFields(message.GetDescriptor(), &j);
  return j.dump(pretty ? 2 : -1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string WriteJsonRecord(const v1::GameRecord& record) { return MessageToJson(record); }

}  // namespace scribe
