// The service's only calls into the records library for a record input:
// judging it (ValidateRecord, ValidateRecords) and reading its judged
// records when they must be legal (AnnotateRecord, ReplayRecord,
// ConvertRecord). Handlers read record input through these two functions
// and nothing else; each record is read once and judged once.
#ifndef SCRIBE_SERVICE_RECORDS_IO_H_
#define SCRIBE_SERVICE_RECORDS_IO_H_

#include <string>
#include <vector>

#include "records/judged.h"
#include "scribe/v1/record.pb.h"
#include "service/errors.h"
#include "service/requests.h"

namespace scribe::service {

// The findings of a structured record or of a text, as a file report;
// `entries` (when given) is set to how many records the input holds.
v1::FileReport Validate(const Input& input, int* entries = nullptr);

// The judged records of an input that must be legal, each with its ruleset
// filled in and what `referee` asks kept (the replay, the positions): false
// with violations under `field` naming every finding otherwise, or naming
// each record with a field that is not UTF-8.
bool LegalRecords(const Input& input, const std::string& field, const RefereeOptions& referee,
                  std::vector<JudgedRecord>* records, std::vector<FieldViolation>* violations);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_RECORDS_IO_H_
