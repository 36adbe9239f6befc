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

// Converts one JSON value to a record through the protobuf JSON parser, so
// that exactly the documented mapping is accepted.
bool ToRecord(const nlohmann::json& value, v1::GameRecord* out, std::string* error) {
  if (!value.is_object()) {
    *error = absl::StrCat("expected a record (a JSON object), found ", value.type_name());
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
