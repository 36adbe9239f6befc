#include "records/json_record.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <climits>
#include <cstring>
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "records/finding_codes.h"
#include "records/json_depth.h"
#include "records/json_keys.h"
#include "records/utf8.h"

namespace scribe {

namespace {

namespace pb = google::protobuf;

// The proto3 JSON mapping, for the field types records use, read straight
// from the parsed tree (protobuf's own JSON parser would need the text
// printed again and costs ten times more). Strict like protobuf's: unknown
// fields, wrong types and single values where a list belongs are refused.
bool JsonToMessage(const nlohmann::json& value, pb::Message* out, const std::string& path, std::string* error);

std::string Where(const std::string& path) { return path.empty() ? "the record" : path; }

// The numbers of the text being read that the tree cannot give back as
// written (a fraction, an exponent, more digits than an int64 holds), by
// their value: messages quote them as written (1e23, not 1e+23). Set while
// ParseJsonRecordsGeneral reads.
thread_local const std::map<double, std::string>* written_numbers = nullptr;

std::map<double, std::string> WrittenNumbers(absl::string_view text) {
  std::map<double, std::string> out;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) i += text[i] == '\\' ? 1 : 0;
      ++i;
      continue;
    }
    if (c != '-' && !absl::ascii_isdigit(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && (absl::ascii_isdigit(static_cast<unsigned char>(text[i])) ||
                               std::strchr("+-.eE", text[i]) != nullptr)) {
      ++i;
    }
    const absl::string_view token = text.substr(start, i - start);
    if (token.find_first_of(".eE") == absl::string_view::npos && token.size() <= 18) continue;
    double d;
    if (absl::SimpleAtod(token, &d)) out.emplace(d, std::string(token));
  }
  return out;
}

// A number of the tree as it was written, when it is one of those.
std::string AsWritten(double d) {
  if (written_numbers != nullptr) {
    if (auto it = written_numbers->find(d); it != written_numbers->end()) return it->second;
  }
  return absl::StrCat(d);
}

bool JsonToInt32(const nlohmann::json& v, const std::string& path, int32_t* out, std::string* error) {
  int64_t n = 0;
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    *error = absl::StrCat(path, ": ", v.get<uint64_t>(), " is out of range");
    return false;
  } else if (v.is_number_integer()) {
    n = v.get<int64_t>();
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    // Range first: casting a double outside int64 is undefined.
    if (!(d >= -2147483648.0 && d <= 2147483647.0)) {
      *error = absl::StrCat(path, ": ", AsWritten(d), " is out of range");
      return false;
    }
    if (d != static_cast<double>(static_cast<int64_t>(d))) {
      *error = absl::StrCat(path, ": expected an integer, found ", AsWritten(d));
      return false;
    }
    n = static_cast<int64_t>(d);
  } else if (v.is_string()) {
    // The JSON mapping allows an integer in a string.
    if (!absl::SimpleAtoi(v.get_ref<const std::string&>(), &n)) {
      *error = absl::StrCat(path, ": expected an integer, found \"", v.get_ref<const std::string&>(), "\"");
      return false;
    }
  } else {
    *error = absl::StrCat(path, ": expected an integer, found ", v.type_name());
    return false;
  }
  if (n < INT32_MIN || n > INT32_MAX) {
    *error = absl::StrCat(path, ": ", n, " is out of range");
    return false;
  }
  *out = static_cast<int32_t>(n);
  return true;
}

bool SetScalar(const nlohmann::json& v, const pb::FieldDescriptor* f, pb::Message* out, const std::string& path,
               std::string* error) {
  const pb::Reflection* r = out->GetReflection();
  const bool repeated = f->is_repeated();
  switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_STRING: {
      if (!v.is_string()) {
        *error = absl::StrCat(path, ": expected a string, found ", v.type_name());
        return false;
      }
      if (repeated) r->AddString(out, f, v.get<std::string>());
      else r->SetString(out, f, v.get<std::string>());
      return true;
    }
    case pb::FieldDescriptor::CPPTYPE_INT32: {
      int32_t n = 0;
      if (!JsonToInt32(v, path, &n, error)) return false;
      if (repeated) r->AddInt32(out, f, n);
      else r->SetInt32(out, f, n);
      return true;
    }
    case pb::FieldDescriptor::CPPTYPE_BOOL: {
      if (!v.is_boolean()) {
        *error = absl::StrCat(path, ": expected true or false, found ", v.type_name());
        return false;
      }
      if (repeated) r->AddBool(out, f, v.get<bool>());
      else r->SetBool(out, f, v.get<bool>());
      return true;
    }
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      const pb::EnumValueDescriptor* e = nullptr;
      if (v.is_string()) {
        e = f->enum_type()->FindValueByName(v.get<std::string>());
      } else if (v.is_number_integer()) {
        e = f->enum_type()->FindValueByNumber(v.get<int>());
      }
      if (e == nullptr) {
        *error = absl::StrCat(path, ": ", v.dump(), " is not a value of ", f->enum_type()->name());
        return false;
      }
      if (repeated) r->AddEnum(out, f, e);
      else r->SetEnum(out, f, e);
      return true;
    }
    case pb::FieldDescriptor::CPPTYPE_MESSAGE: {
      pb::Message* sub = repeated ? r->AddMessage(out, f) : r->MutableMessage(out, f);
      return JsonToMessage(v, sub, path, error);
    }
    default:
      *error = absl::StrCat(path, ": this field's type is not read from JSON");
      return false;
  }
}

const pb::FieldDescriptor* FindJsonField(const pb::Descriptor* desc, const std::string& key) {
  if (const pb::FieldDescriptor* f = desc->FindFieldByName(key)) return f;
  for (int i = 0; i < desc->field_count(); ++i) {
    if (desc->field(i)->json_name() == key) return desc->field(i);
  }
  return nullptr;
}

bool JsonToMessage(const nlohmann::json& value, pb::Message* out, const std::string& path, std::string* error) {
  if (!value.is_object()) {
    *error = absl::StrCat(Where(path), ": expected an object, found ", value.type_name());
    return false;
  }
  const pb::Descriptor* desc = out->GetDescriptor();
  // A field under both its names ("first_player" and "firstPlayer"): one
  // value would be dropped.
  std::map<const pb::FieldDescriptor*, std::string> seen;
  for (const auto& item : value.items()) {
    const std::string& key = item.key();
    const nlohmann::json& v = item.value();
    const pb::FieldDescriptor* f = FindJsonField(desc, key);
    const std::string where = path.empty() ? key : absl::StrCat(path, ".", key);
    if (f == nullptr) {
      *error = absl::StrCat(Where(path), ": unknown field \"", key, "\"");
      return false;
    }
    if (auto [it, added] = seen.emplace(f, key); !added) {
      *error = absl::StrCat(Where(path), ": the field ", f->name(), " is given twice (as \"", it->second,
                            "\" and \"", key, "\")");
      return false;
    }
    if (v.is_null()) continue;  // null means the field is absent
    if (f->is_map()) {
      if (!v.is_object()) {
        *error = absl::StrCat(where, ": expected an object, found ", v.type_name());
        return false;
      }
      const pb::FieldDescriptor* key_field = f->message_type()->map_key();
      const pb::FieldDescriptor* value_field = f->message_type()->map_value();
      for (const auto& entry : v.items()) {
        if (!entry.value().is_string()) {
          *error = absl::StrCat(where, ".", entry.key(), ": expected a string, found ", entry.value().type_name());
          return false;
        }
        pb::Message* m = out->GetReflection()->AddMessage(out, f);
        m->GetReflection()->SetString(m, key_field, entry.key());
        m->GetReflection()->SetString(m, value_field, entry.value().get<std::string>());
      }
      continue;
    }
    if (f->is_repeated()) {
      if (!v.is_array()) {
        *error = absl::StrCat(where, " must be an array, found ", v.type_name());
        return false;
      }
      int k = 0;
      for (const auto& element : v) {
        if (!SetScalar(element, f, out, absl::StrCat(where, "[", k++, "]"), error)) return false;
      }
      continue;
    }
    if (!SetScalar(v, f, out, where, error)) return false;
  }
  return true;
}

bool ToRecord(const nlohmann::json& value, v1::GameRecord* out, std::string* error) {
  if (!value.is_object()) {
    *error = absl::StrCat("expected a record (a JSON object), found ", value.type_name());
    return false;
  }
  if (!JsonToMessage(value, out, "", error)) {
    *error = absl::StrCat("not a record: ", *error);
    return false;
  }
  return true;
}

// The fast reader: records in their plain form, the form WriteJsonRecord
// and every other writer of ours gives, read in one pass over the text
// straight into the messages. It gives up (returns false) at the first
// thing that is not plain, and the general reader (nlohmann's DOM, then the
// tree as above) reads the text again from the start and says exactly what
// is wrong, as before: so what it accepts must be what the general reader
// reads to the same records without a finding. Plain: JSON whitespace,
// objects whose keys are known fields (each field once), strings of
// printable ASCII without escapes, integers written -?(0|[1-9][0-9]{0,8}),
// true and false, enum values by name or number, one record or a non-empty
// array of records. Anything else (null, escapes, UTF-8, floats, an
// integer in a string, an unknown or repeated key, any error) goes to the
// general reader.
class FastJsonReader {
 public:
  explicit FastJsonReader(absl::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  bool ReadFile(ParsedRecords* out) {
    SkipSpace();
    if (p_ == end_) return false;
    if (*p_ == '[') {
      // An empty array holds no records: a finding.
      if (!ReadArray(/*empty_ok=*/false, [&] {
            out->records.emplace_back();
            return ReadMessage(&out->records.back());
          })) {
        return false;
      }
    } else {
      out->records.emplace_back();
      if (!ReadMessage(&out->records.back())) return false;
    }
    SkipSpace();
    if (p_ != end_) return false;
    out->entries = static_cast<int>(out->records.size());
    out->record_indices.resize(out->records.size());
    for (size_t k = 0; k < out->records.size(); ++k) out->record_indices[k] = static_cast<int>(k);
    return true;
  }

 private:
  // The fields of one message by proto name and by JSON name, in
  // FindJsonField's order (names first); built once for every message type
  // a record holds.
  struct FieldTable {
    std::vector<std::pair<std::string, const pb::FieldDescriptor*>> keys;
  };
  static const FieldTable& TableFor(const pb::Descriptor* desc) {
    static const auto* const tables = [] {
      auto* out = new std::map<const pb::Descriptor*, FieldTable>;
      std::vector<const pb::Descriptor*> todo = {v1::GameRecord::descriptor()};
      while (!todo.empty()) {
        const pb::Descriptor* d = todo.back();
        todo.pop_back();
        if (out->count(d)) continue;
        FieldTable& table = (*out)[d];
        for (int i = 0; i < d->field_count(); ++i) table.keys.emplace_back(d->field(i)->name(), d->field(i));
        for (int i = 0; i < d->field_count(); ++i) {
          table.keys.emplace_back(d->field(i)->json_name(), d->field(i));
          if (d->field(i)->message_type() != nullptr && !d->field(i)->is_map()) {
            todo.push_back(d->field(i)->message_type());
          }
        }
      }
      return out;
    }();
    return tables->at(desc);
  }

  void SkipSpace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  // A string of printable ASCII without escapes.
  bool ReadString(absl::string_view* out) {
    if (p_ == end_ || *p_ != '"') return false;
    const char* start = ++p_;
    while (p_ != end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        *out = absl::string_view(start, static_cast<size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (c < 0x20 || c >= 0x80 || c == '\\') return false;
      ++p_;
    }
    return false;
  }

  // An integer of at most nine digits, so that it fits an int32.
  bool ReadInt(int32_t* out) {
    bool negative = false;
    if (p_ != end_ && *p_ == '-') {
      negative = true;
      ++p_;
    }
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    int32_t n = 0;
    int digits = 0;
    if (*p_ == '0') {
      ++p_;
      digits = 1;
    } else {
      while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
        if (++digits > 9) return false;
        n = n * 10 + (*p_ - '0');
        ++p_;
      }
    }
    // A fraction or an exponent: not plain.
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || (*p_ >= '0' && *p_ <= '9'))) return false;
    *out = negative ? -n : n;
    return true;
  }

  bool ReadLiteral(absl::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || absl::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  // `[` item (`,` item)* `]`, or `[]` when empty_ok; read_item reads one
  // item at the cursor.
  template <typename ReadItem>
  bool ReadArray(bool empty_ok, ReadItem read_item) {
    if (p_ == end_ || *p_ != '[') return false;
    ++p_;
    SkipSpace();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return empty_ok;
    }
    for (;;) {
      if (!read_item()) return false;
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == ']') break;
      if (*p_ != ',') return false;
      ++p_;
      SkipSpace();
    }
    ++p_;
    return true;
  }

  // `{` key `:` value (`,` key `:` value)* `}` or `{}`; read_member(key)
  // reads the value at the cursor.
  template <typename ReadMember>
  bool ReadObject(ReadMember read_member) {
    if (p_ == end_ || *p_ != '{') return false;
    ++p_;
    SkipSpace();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    for (;;) {
      absl::string_view key;
      if (!ReadString(&key)) return false;
      SkipSpace();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      SkipSpace();
      if (!read_member(key)) return false;
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == '}') break;
      if (*p_ != ',') return false;
      ++p_;
      SkipSpace();
    }
    ++p_;
    return true;
  }

  // One value of field f (an element, for a repeated field).
  bool ReadScalar(const pb::FieldDescriptor* f, pb::Message* out) {
    const pb::Reflection* r = out->GetReflection();
    const bool repeated = f->is_repeated();
    if (p_ == end_) return false;
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_STRING: {
        absl::string_view s;
        if (!ReadString(&s)) return false;
        if (repeated) r->AddString(out, f, std::string(s));
        else r->SetString(out, f, std::string(s));
        return true;
      }
      case pb::FieldDescriptor::CPPTYPE_INT32: {
        int32_t n = 0;
        if (!ReadInt(&n)) return false;
        if (repeated) r->AddInt32(out, f, n);
        else r->SetInt32(out, f, n);
        return true;
      }
      case pb::FieldDescriptor::CPPTYPE_BOOL: {
        bool b;
        if (ReadLiteral("true")) b = true;
        else if (ReadLiteral("false")) b = false;
        else return false;
        if (repeated) r->AddBool(out, f, b);
        else r->SetBool(out, f, b);
        return true;
      }
      case pb::FieldDescriptor::CPPTYPE_ENUM: {
        const pb::EnumValueDescriptor* e = nullptr;
        if (*p_ == '"') {
          absl::string_view name;
          if (!ReadString(&name)) return false;
          e = f->enum_type()->FindValueByName(std::string(name));
        } else {
          int32_t n = 0;
          if (!ReadInt(&n)) return false;
          e = f->enum_type()->FindValueByNumber(n);
        }
        if (e == nullptr) return false;
        if (repeated) r->AddEnum(out, f, e);
        else r->SetEnum(out, f, e);
        return true;
      }
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        return ReadMessage(repeated ? r->AddMessage(out, f) : r->MutableMessage(out, f));
      default:
        return false;
    }
  }

  // A map of strings to strings, its entries added sorted by key as the
  // general reader adds them (its objects are sorted maps).
  bool ReadStringMap(const pb::FieldDescriptor* f, pb::Message* out) {
    std::vector<std::pair<absl::string_view, absl::string_view>> entries;
    const bool read = ReadObject([&](absl::string_view key) {
      absl::string_view value;
      if (!ReadString(&value)) return false;
      for (const auto& e : entries) {
        if (e.first == key) return false;
      }
      entries.emplace_back(key, value);
      return true;
    });
    if (!read) return false;
    std::sort(entries.begin(), entries.end());
    const pb::FieldDescriptor* key_field = f->message_type()->map_key();
    const pb::FieldDescriptor* value_field = f->message_type()->map_value();
    for (const auto& [key, value] : entries) {
      pb::Message* m = out->GetReflection()->AddMessage(out, f);
      m->GetReflection()->SetString(m, key_field, std::string(key));
      m->GetReflection()->SetString(m, value_field, std::string(value));
    }
    return true;
  }

  // An action, most of a record, without reflection: the keys of
  // v1::Action (its JSON names are its field names), each once; anything
  // else is left to the general reader.
  bool ReadAction(v1::Action* action) {
    unsigned seen = 0;
    return ReadObject([&](absl::string_view key) {
      unsigned bit;
      if (key == "roll") bit = 1;
      else if (key == "from") bit = 2;
      else if (key == "to") bit = 4;
      else if (key == "comment") bit = 8;
      else return false;
      if (seen & bit) return false;
      seen |= bit;
      if (bit == 8) {
        absl::string_view comment;
        if (!ReadString(&comment)) return false;
        action->set_comment(std::string(comment));
        return true;
      }
      int32_t n = 0;
      if (!ReadInt(&n)) return false;
      if (bit == 1) action->set_roll(n);
      else if (bit == 2) action->set_from(n);
      else action->set_to(n);
      return true;
    });
  }

  bool ReadMessage(pb::Message* out) {
    static const pb::FieldDescriptor* const kActions =
        v1::GameRecord::descriptor()->FindFieldByNumber(v1::GameRecord::kActionsFieldNumber);
    const FieldTable& table = TableFor(out->GetDescriptor());
    uint64_t seen = 0;
    return ReadObject([&](absl::string_view key) {
      const pb::FieldDescriptor* f = nullptr;
      for (const auto& [name, field] : table.keys) {
        if (name == key) {
          f = field;
          break;
        }
      }
      if (f == nullptr || f->index() >= 64 || (seen >> f->index()) & 1) return false;
      seen |= uint64_t{1} << f->index();
      if (f->is_map()) {
        return f->message_type()->map_key()->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING &&
               f->message_type()->map_value()->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING &&
               ReadStringMap(f, out);
      }
      if (f == kActions) {
        auto* record = static_cast<v1::GameRecord*>(out);
        return ReadArray(/*empty_ok=*/true, [&] { return ReadAction(record->add_actions()); });
      }
      if (f->is_repeated()) return ReadArray(/*empty_ok=*/true, [&] { return ReadScalar(f, out); });
      return ReadScalar(f, out);
    });
  }

  const char* p_;
  const char* end_;
};

}  // namespace

bool ParseJsonRecordsFast(absl::string_view text, ParsedRecords* out) {
  *out = ParsedRecords();
  FastJsonReader reader(text);
  return reader.ReadFile(out);
}

ParsedRecords ParseJsonRecords(absl::string_view text) {
  ParsedRecords out;
  if (ParseJsonRecordsFast(text, &out)) return out;
  return ParseJsonRecordsGeneral(text);
}

ParsedRecords ParseJsonRecordsGeneral(absl::string_view text) {
  ParsedRecords out;
  if (const size_t nul = text.find('\0'); nul != absl::string_view::npos) {
    out.findings.push_back(MakeFinding(codes::kJsonSyntax, "not valid JSON: a NUL byte (is this a binary file?)",
                                       LineIndex(text), nul, -1));
    out.entries = 1;
    return out;
  }
  if (const size_t bad = FirstNonUtf8Byte(text); bad != absl::string_view::npos) {
    out.findings.push_back(
        MakeFinding(codes::kTextNotUtf8, NotUtf8Message(text, bad, "the JSON file"), LineIndex(text), bad, -1));
    out.entries = 1;
    return out;
  }
  size_t deep_at = 0;
  if (JsonDepth(text, &deep_at) > kMaxJsonDepth) {
    out.findings.push_back(MakeFinding(codes::kNotARecord,
                                       absl::StrCat("not a record: nested more than ", kMaxJsonDepth, " levels deep"),
                                       LineIndex(text), deep_at, -1));
    out.entries = 1;
    return out;
  }
  // Numbers as written, for the messages of this read.
  const std::map<double, std::string> numbers = WrittenNumbers(text);
  written_numbers = &numbers;
  struct Reset {
    ~Reset() { written_numbers = nullptr; }
  } reset;
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    v1::Finding f = MakeFinding(codes::kJsonSyntax, e.what(), LineIndex(text), e.byte > 0 ? e.byte - 1 : 0, -1);
    // nlohmann's own text names the byte; say it as line and column.
    const std::string what = e.what();
    const auto colon = what.find("parse error");
    f.set_message(absl::StrCat("not valid JSON: ", colon == std::string::npos ? what : what.substr(colon)));
    out.findings.push_back(std::move(f));
    out.entries = 1;
    return out;
  } catch (const nlohmann::json::exception& e) {
    // Anything else the parser refuses (a number beyond a double, 1e999).
    const std::string what = e.what();
    const auto bracket = what.find("] ");
    out.findings.push_back(MakeFinding(
        codes::kJsonSyntax, absl::StrCat("not valid JSON: ", bracket == std::string::npos ? what : what.substr(bracket + 2))));
    out.entries = 1;
    return out;
  }
  std::vector<const nlohmann::json*> entries;
  if (doc.is_array()) {
    for (const auto& e : doc) entries.push_back(&e);
    if (entries.empty()) {
      out.findings.push_back(MakeFinding(codes::kNoRecords, "the file holds an empty array: no records"));
    }
  } else {
    entries.push_back(&doc);
  }
  out.entries = static_cast<int>(entries.size());
  // An entry with a key twice is not read: the parser kept one value only.
  std::vector<JsonDuplicateKey> duplicates = FindJsonDuplicateKeys(text);
  auto duplicate = duplicates.begin();
  std::optional<LineIndex> lines;
  for (size_t i = 0; i < entries.size(); ++i) {
    v1::GameRecord record;
    std::string error;
    if (duplicate != duplicates.end() && duplicate->entry == static_cast<int>(i)) {
      if (!lines) lines.emplace(text);
      out.findings.push_back(MakeFinding(codes::kJsonDuplicateKey, DuplicateKeyMessage(duplicate->key), *lines,
                                         duplicate->offset, static_cast<int>(i)));
      ++duplicate;
      continue;
    }
    if (ToRecord(*entries[i], &record, &error)) {
      out.records.push_back(std::move(record));
      out.record_indices.push_back(static_cast<int>(i));
    } else {
      v1::Finding f = MakeFinding(codes::kNotARecord, error);
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

JsonMessageStream::JsonMessageStream(std::ostream& out, const google::protobuf::FieldDescriptor* field)
    : out_(out), field_(field) {}

void JsonMessageStream::Fields(const google::protobuf::Message& message, bool below) {
  const google::protobuf::Reflection* reflection = message.GetReflection();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);  // by field number, as protobuf prints them
  for (const google::protobuf::FieldDescriptor* f : fields) {
    if (f == field_ || (f->number() < field_->number()) != below) continue;
    // The field alone, printed as in the whole message: "key":value.
    std::unique_ptr<google::protobuf::Message> alone(message.New());
    alone->CopyFrom(message);
    for (const google::protobuf::FieldDescriptor* other : fields) {
      if (other != f) alone->GetReflection()->ClearField(alone.get(), other);
    }
    const std::string json = MessageToJson(*alone);
    if (!out_) return;
    if (any_field_) out_ << ',';
    out_.write(json.data() + 1, static_cast<std::streamsize>(json.size() - 2));
    any_field_ = true;
  }
}

void JsonMessageStream::Begin(const google::protobuf::Message& head) {
  out_ << '{';
  Fields(head, /*below=*/true);
}

void JsonMessageStream::Add(const google::protobuf::Message& element) {
  if (!out_) return;
  // Elements are printed in batches: one message of the parent's type that
  // holds only them, printed as "{"name":[e1,e2,...]}".
  if (batch_ == nullptr) batch_.reset(NewBatch());
  batch_->GetReflection()->AddMessage(batch_.get(), field_)->CopyFrom(element);
  if (++batched_ == kBatch) Flush();
}

google::protobuf::Message* JsonMessageStream::NewBatch() const {
  return google::protobuf::MessageFactory::generated_factory()
      ->GetPrototype(field_->containing_type())
      ->New();
}

void JsonMessageStream::Flush() {
  if (batched_ == 0) return;
  const std::string json = MessageToJson(*batch_);
  batch_->Clear();
  batched_ = 0;
  if (!out_) return;
  // "{"name":[" and "]}" off: the elements, comma-separated.
  const size_t open = field_->name().size() + 5;
  if (!any_element_) {
    if (any_field_) out_ << ',';
    out_.write(json.data() + 1, static_cast<std::streamsize>(open - 1));
    any_field_ = any_element_ = true;
  } else {
    out_ << ',';
  }
  out_.write(json.data() + open, static_cast<std::streamsize>(json.size() - open - 2));
}

void JsonMessageStream::End(const google::protobuf::Message& tail) {
  Flush();
  if (any_element_) out_ << ']';
  Fields(tail, /*below=*/false);
  out_ << '}';
}

void JsonList::Next() {
  if (count_ != 1) out_ << (printed_ == 0 ? "[" : ",\n");
  ++printed_;
}

void JsonList::Finish() {
  if (count_ != 1) out_ << (printed_ == 0 ? "[" : "") << "]";
  out_ << "\n";
}

}  // namespace scribe
