#include "records/judged.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace scribe {

RefereeResult JudgeInPlace(v1::GameRecord* record, const RecordIo& io, const RefereeOptions& options) {
  if (record->ruleset().empty() && !io.ruleset.empty()) record->set_ruleset(io.ruleset);
  return Referee(*record, io.rules, options);
}

JudgedRecord Judge(v1::GameRecord record, const RecordIo& io, const RefereeOptions& options) {
  JudgedRecord out;
  out.verdict = JudgeInPlace(&record, io, options);
  out.record = std::move(record);
  return out;
}

std::vector<JudgedRecord> JudgeRecords(std::vector<v1::GameRecord> records, const RecordIo& io,
                                       const RefereeOptions& options) {
  std::vector<JudgedRecord> out;
  out.reserve(records.size());
  for (size_t k = 0; k < records.size(); ++k) {
    out.push_back(Judge(std::move(records[k]), io, options));
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

absl::Status InRecord(const absl::Status& status, size_t k, size_t n) {
  if (status.ok() || n <= 1) return status;
  return absl::Status(status.code(), absl::StrCat("record ", k, ": ", status.message()));
}

}  // namespace scribe
