// The service's only calls into the records library for a record input:
// judging it (ValidateRecord, ValidateRecords) and reading its judged
// records when they must be legal (AnnotateRecord, ReplayRecord,
// ConvertRecord). Handlers read record input through these two functions
// and nothing else; each record is read once and judged once.
#ifndef SCRIBE_SERVICE_RECORDS_IO_H_
#define SCRIBE_SERVICE_RECORDS_IO_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "records/judged.h"
#include "scribe/v1/record.pb.h"
#include "service/errors.h"
#include "service/limits.h"
#include "service/requests.h"

namespace scribe::service {

// The two helpers fail with a status whose code says why: INVALID_ARGUMENT
// when the input is at fault, with the `violations` to answer it with (a
// BadRequest), or CANCELLED when the judging was stopped (the call's stop
// check), with none; a handler answers it with Refused (service/errors.h).

// A record input's report and how many records (games) it holds.
struct Validated {
  v1::FileReport report;
  int entries = 0;
};

// The findings of a structured record or of a text, as a file report.
// INVALID_ARGUMENT with a violation under `field` (".text",
// ".record.actions") when the input holds more than `limits` allow:
// counted as it is read, before anything past the limit is judged.
absl::StatusOr<Validated> Validate(const Input& input, const std::string& field, const CallLimits& limits,
                                   std::vector<FieldViolation>* violations);

// The judged records of an input that must be legal, each with its ruleset
// filled in and what `referee` asks kept (the replay, the positions).
// INVALID_ARGUMENT with violations under `field` naming every finding
// otherwise, naming each record with a field that is not UTF-8, or naming
// the limit the input passes (checked before any record past it is
// judged).
absl::StatusOr<std::vector<JudgedRecord>> LegalRecords(const Input& input, const std::string& field,
                                                       const RefereeOptions& referee, const CallLimits& limits,
                                                       std::vector<FieldViolation>* violations);

// Every record of an input judged, legal or not, with the input's report
// (ImportGames stores the legal ones and lists the others); the same
// limits and errors as LegalRecords, but an illegal record is not one.
struct JudgedInput {
  v1::FileReport report;
  // The records the reader could read (the report names those it could
  // not), and how many the input holds.
  std::vector<JudgedRecord> records;
  int entries = 0;
};
absl::StatusOr<JudgedInput> JudgeAll(const Input& input, const std::string& field, const RefereeOptions& referee,
                                     const CallLimits& limits, std::vector<FieldViolation>* violations);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_RECORDS_IO_H_
