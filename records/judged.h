// A record as read and judged once: the record, the referee's verdict on
// it (its rules, what each action did, the positions), and where it stood
// in its file. Readers make records; the referee judges each once
// (records/formats.h JudgeFile); writers, replay and annotation are
// handed the judged record and never judge it again.
#ifndef SCRIBE_RECORDS_JUDGED_H_
#define SCRIBE_RECORDS_JUDGED_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "records/record_rules.h"
#include "records/referee.h"
#include "google/protobuf/message.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

struct JudgedRecord {
  // As read, with RulesPolicy::ruleset filled in when it names none.
  v1::GameRecord record;
  // The referee's verdict: valid() when the record is a legal game.
  RefereeResult verdict;
  // The record's entry in its file (0 for a record on its own).
  int index = 0;
};

// Judges one record on its own (a structured record, not a file's text):
// names policy.ruleset in it when it names none, decides its rules
// (RulesFor, records/record_rules.h) and referees it. A file's records are
// judged by JudgeFile and ValidateFile (records/formats.h), which judge
// each one the same way.
JudgedRecord Judge(v1::GameRecord record, const RulesPolicy& policy = {}, const RefereeOptions& options = {});

// Judge for several records on their own (the writers' overloads for
// records not yet judged, tests): each judged alone, indices 0, 1, ...
std::vector<JudgedRecord> JudgeRecords(std::vector<v1::GameRecord> records, const RulesPolicy& policy = {},
                                       const RefereeOptions& options = {});

// For writers: OK when the record is a legal game, else INVALID_ARGUMENT
// "cannot write an illegal record as <format>: action N: <why>".
absl::Status RequireLegal(const JudgedRecord& judged, absl::string_view format_name);

// For writers: OK when every string of the record (tags, comments, names)
// is UTF-8, else INVALID_ARGUMENT naming the first field that is not
// ("cannot write the record as <format>: tags["Event"] is not UTF-8
// text"): a writer never drops or changes bytes.
absl::Status RequireUtf8(const v1::GameRecord& record, absl::string_view format_name);

// The path of the first string field of `message` that is not UTF-8
// ("tags[\"Event\"]", "actions[3].comment"); empty when there is none.
// RequireUtf8's check, for callers that word their own error (the service).
std::string FirstNonUtf8Path(const google::protobuf::Message& message);

// A writer's error about record k of n: "record k: " before the message
// when there are several.
absl::Status InRecord(const absl::Status& status, size_t k, size_t n);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_JUDGED_H_
