#include "service/records_io.h"

#include <utility>

#include "absl/strings/str_cat.h"
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

}  // namespace

bool Validate(const Input& input, const std::string& field, const CallLimits& limits, v1::FileReport* report,
              int* entries, std::vector<FieldViolation>* violations) {
  if (input.structured) {
    if (!CheckLimits(limits, SizeField(input, field), 1, input.record.actions_size(), violations)) return false;
    if (entries != nullptr) *entries = 1;
    *report = ReportOf(Judge(input.record, input.io, {.build_replay = false}));
    return true;
  }
  JudgedFile file = ValidateFile("", input.text, input.format, input.io, limits.judge);
  if (file.stopped) return false;
  if (!CheckLimits(limits, SizeField(input, field), file.records_read, file.actions_read, violations)) return false;
  if (entries != nullptr) *entries = file.entries;
  *report = std::move(file.report);
  return true;
}

bool LegalRecords(const Input& input, const std::string& field, const RefereeOptions& referee,
                  const CallLimits& limits, std::vector<JudgedRecord>* records,
                  std::vector<FieldViolation>* violations) {
  v1::FileReport report;
  if (input.structured) {
    if (!CheckLimits(limits, SizeField(input, field), 1, input.record.actions_size(), violations)) return false;
    records->push_back(Judge(input.record, input.io, referee));
    report = ReportOf(records->back());
  } else {
    JudgedFile file = JudgeFile("", input.text, input.format, input.io, {.referee = referee, .limits = limits.judge});
    if (file.stopped) return false;
    if (!CheckLimits(limits, SizeField(input, field), file.records_read, file.actions_read, violations)) {
      return false;
    }
    report = std::move(file.report);
    *records = std::move(file.records);
  }
  if (!report.valid()) {
    records->clear();
    AddFindings(report, field, violations);
    return false;
  }
  return CheckUtf8(input, field, *records, violations);
}

}  // namespace scribe::service
