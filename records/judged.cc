#include "records/judged.h"

#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "records/finding_codes.h"
#include "records/utf8.h"

namespace scribe {

JudgedRecord Judge(v1::GameRecord record, const RulesPolicy& policy, const RefereeOptions& options) {
  JudgedRecord out;
  if (record.ruleset().empty() && !policy.ruleset.empty()) record.set_ruleset(policy.ruleset);
  RecordRules rules = RulesFor(record, policy);
  if (rules.rules == nullptr) {
    out.verdict.findings.push_back(std::move(rules.problem));
  } else {
    out.verdict = Referee(record, std::move(rules.rules), options);
    if (rules.conflict) out.verdict.findings.insert(out.verdict.findings.begin(), *std::move(rules.conflict));
  }
  out.record = std::move(record);
  return out;
}

std::vector<JudgedRecord> JudgeRecords(std::vector<v1::GameRecord> records, const RulesPolicy& policy,
                                       const RefereeOptions& options) {
  std::vector<JudgedRecord> out;
  out.reserve(records.size());
  for (size_t k = 0; k < records.size(); ++k) {
    out.push_back(Judge(std::move(records[k]), policy, options));
    out.back().index = static_cast<int>(k);
  }
  return out;
}

absl::Status RequireLegal(const JudgedRecord& judged, absl::string_view format_name) {
  if (judged.verdict.valid()) return absl::OkStatus();
  const v1::Finding& f = judged.verdict.findings.front();
  return absl::InvalidArgumentError(
      absl::StrCat("cannot write an illegal record as ", format_name, ": ",
                   f.has_action_index() ? absl::StrCat("action ", f.action_index(), ": ") : "", f.message()));
}

std::string FirstNonUtf8Path(const google::protobuf::Message& message) {
  namespace pb = google::protobuf;
  const pb::Reflection* r = message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(message, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    const int n = f->is_repeated() ? r->FieldSize(message, f) : 1;
    for (int i = 0; i < n; ++i) {
      std::string scratch;
      if (f->type() == pb::FieldDescriptor::TYPE_STRING) {
        const std::string& value = f->is_repeated() ? r->GetRepeatedStringReference(message, f, i, &scratch)
                                                    : r->GetStringReference(message, f, &scratch);
        if (!IsValidUtf8(value)) return f->is_repeated() ? absl::StrCat(f->name(), "[", i, "]") : f->name();
        continue;
      }
      if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
      const pb::Message& sub = f->is_repeated() ? r->GetRepeatedMessage(message, f, i) : r->GetMessage(message, f);
      if (f->is_map()) {
        // A map of strings: named by its key ("tags[\"Event\"]"), or as a
        // key when the key itself is not UTF-8.
        const pb::FieldDescriptor* key = sub.GetDescriptor()->map_key();
        const std::string k = sub.GetReflection()->GetString(sub, key);
        if (!IsValidUtf8(k)) return absl::StrCat("a key of ", f->name(), " (\"", absl::CHexEscape(k), "\")");
        const std::string inner = FirstNonUtf8Path(sub);
        if (!inner.empty()) return absl::StrCat(f->name(), "[\"", absl::CHexEscape(k), "\"]");
        continue;
      }
      const std::string inner = FirstNonUtf8Path(sub);
      if (!inner.empty()) {
        return absl::StrCat(f->is_repeated() ? absl::StrCat(f->name(), "[", i, "]") : f->name(), ".", inner);
      }
    }
  }
  return "";
}


absl::Status RequireUtf8(const v1::GameRecord& record, absl::string_view format_name) {
  const std::string where = FirstNonUtf8Path(record);
  if (where.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("cannot write the record as ", format_name, ": ", where,
                                                 " is not UTF-8 text (a record's text is UTF-8 in every format)"));
}

absl::Status InRecord(const absl::Status& status, size_t k, size_t n) {
  if (status.ok() || n <= 1) return status;
  return absl::Status(status.code(), absl::StrCat("record ", k, ": ", status.message()));
}

}  // namespace scribe
