#include "service/records_io.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/stop.h"
#include "records/formats.h"

namespace scribe::service {
namespace {

// A structured record's findings, as a file report.
v1::FileReport ReportOf(const JudgedRecord& judged) {
  v1::FileReport report;
  for (const v1::Finding& f : judged.verdict.findings) *report.add_findings() = f;
  report.set_valid(report.findings_size() == 0);
  return report;
}

// Where an input's size is named: its text, or its structured actions.
std::string SizeField(const Input& input, const std::string& field) {
  return absl::StrCat(field, input.structured ? ".record.actions" : ".text");
}

// The input is at fault: the violations say how.
absl::Status InputRefused() { return absl::InvalidArgumentError("the input is refused: see the violations"); }

}  // namespace

absl::StatusOr<Validated> Validate(const Input& input, const std::string& field, const CallLimits& limits,
                                   std::vector<FieldViolation>* violations) {
  if (input.structured) {
    if (!CheckLimits(limits, SizeField(input, field), 1, input.record.actions_size(), violations)) {
      return InputRefused();
    }
    return Validated{.report = ReportOf(Judge(input.record, input.io, {.build_replay = false})), .entries = 1};
  }
  JudgedFile file = ValidateFile("", input.text, input.format, input.io, limits.judge);
  if (file.stopped) return Stopped();
  if (!CheckLimits(limits, SizeField(input, field), file.records_read, file.actions_read, violations)) {
    return InputRefused();
  }
  return Validated{.report = std::move(file.report), .entries = file.entries};
}

absl::StatusOr<JudgedInput> JudgeAll(const Input& input, const std::string& field, const RefereeOptions& referee,
                                     const CallLimits& limits, std::vector<FieldViolation>* violations) {
  JudgedInput judged;
  if (input.structured) {
    if (!CheckLimits(limits, SizeField(input, field), 1, input.record.actions_size(), violations)) {
      return InputRefused();
    }
    judged.records.push_back(Judge(input.record, input.io, referee));
    judged.report = ReportOf(judged.records.back());
    judged.entries = 1;
    return judged;
  }
  JudgedFile file = JudgeFile("", input.text, input.format, input.io, {.referee = referee, .limits = limits.judge});
  if (file.stopped) return Stopped();
  if (!CheckLimits(limits, SizeField(input, field), file.records_read, file.actions_read, violations)) {
    return InputRefused();
  }
  judged.report = std::move(file.report);
  judged.records = std::move(file.records);
  judged.entries = file.entries;
  return judged;
}

absl::StatusOr<std::vector<JudgedRecord>> LegalRecords(const Input& input, const std::string& field,
                                                       const RefereeOptions& referee, const CallLimits& limits,
                                                       std::vector<FieldViolation>* violations) {
  std::vector<JudgedRecord> records;
  v1::FileReport report;
  if (input.structured) {
    if (!CheckLimits(limits, SizeField(input, field), 1, input.record.actions_size(), violations)) {
      return InputRefused();
    }
    records.push_back(Judge(input.record, input.io, referee));
    report = ReportOf(records.back());
  } else {
    JudgedFile file = JudgeFile("", input.text, input.format, input.io, {.referee = referee, .limits = limits.judge});
    if (file.stopped) return Stopped();
    if (!CheckLimits(limits, SizeField(input, field), file.records_read, file.actions_read, violations)) {
      return InputRefused();
    }
    report = std::move(file.report);
    records = std::move(file.records);
  }
  if (!report.valid()) {
    AddFindings(report, field, violations);
    return InputRefused();
  }
  if (!CheckUtf8(input, field, records, violations)) return InputRefused();
  return records;
}

}  // namespace scribe::service
