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
#include "service/limits.h"
#include "service/requests.h"

namespace scribe::service {

// The findings of a structured record or of a text, as a file report;
// `entries` (when given) is set to how many records the input holds. False
// with a violation under `field` (".text", ".record.actions") when the input
// holds more than `limits` allow: counted as it is read, before anything
// past the limit is judged. False with no violation when the judging was
// stopped (CallLimits' stop check).
bool Validate(const Input& input, const std::string& field, const CallLimits& limits, v1::FileReport* report,
              int* entries, std::vector<FieldViolation>* violations);

// The judged records of an input that must be legal, each with its ruleset
// filled in and what `referee` asks kept (the replay, the positions): false
// with violations under `field` naming every finding otherwise, naming
// each record with a field that is not UTF-8, or naming the limit the
// input passes (checked before any record past it is judged); false with
// no violation when the judging was stopped.
bool LegalRecords(const Input& input, const std::string& field, const RefereeOptions& referee,
                  const CallLimits& limits, std::vector<JudgedRecord>* records,
                  std::vector<FieldViolation>* violations);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_RECORDS_IO_H_
