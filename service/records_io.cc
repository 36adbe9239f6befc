#include "service/records_io.h"

#include <utility>

#include "records/formats.h"
#include "records/referee.h"

namespace scribe::service {

v1::FileReport Validate(const Input& input, int* entries) {
  if (!input.structured) return ValidateText("", input.text, input.format, input.io, entries);
  if (entries != nullptr) *entries = 1;
  v1::FileReport report;
  RefereeOptions options;
  options.build_replay = false;
  v1::GameRecord record = input.record;
  if (record.ruleset().empty() && !input.io.ruleset.empty()) record.set_ruleset(input.io.ruleset);
  RefereeResult result = Referee(record, input.io.rules, options);
  for (v1::Finding& f : result.findings) *report.add_findings() = std::move(f);
  report.set_valid(report.findings_size() == 0);
  return report;
}

bool LegalRecords(const Input& input, const std::string& field, std::vector<v1::GameRecord>* records,
                  std::vector<FieldViolation>* violations) {
  const v1::FileReport report = Validate(input);
  if (!report.valid()) {
    AddFindings(report, field, violations);
    return false;
  }
  if (input.structured) {
    records->push_back(input.record);
    if (records->back().ruleset().empty()) records->back().set_ruleset(input.io.ruleset);
  } else {
    ParsedRecords parsed = ReadRecords(input.format, input.text, input.io);
    for (v1::GameRecord& r : parsed.records) {
      if (r.ruleset().empty()) r.set_ruleset(input.io.ruleset);
      records->push_back(std::move(r));
    }
  }
  return CheckUtf8(input, field, *records, violations);
}

}  // namespace scribe::service
