#include "service/records_io.h"

#include <utility>

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

}  // namespace

v1::FileReport Validate(const Input& input, int* entries) {
  if (!input.structured) return ValidateText("", input.text, input.format, input.io, entries);
  if (entries != nullptr) *entries = 1;
  return ReportOf(Judge(input.record, input.io, {.build_replay = false}));
}

bool LegalRecords(const Input& input, const std::string& field, const RefereeOptions& referee,
                  std::vector<JudgedRecord>* records, std::vector<FieldViolation>* violations) {
  v1::FileReport report;
  if (input.structured) {
    records->push_back(Judge(input.record, input.io, referee));
    report = ReportOf(records->back());
  } else {
    JudgedFile file = ReadLegalRecords("", input.text, input.format, input.io, referee);
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
