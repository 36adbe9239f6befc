// A record as read and judged once: the record, the referee's verdict on
// it (its rules, what each action did, the positions), and where it stood
// in its file. Readers make records; the referee judges each once
// (records/formats.h ReadLegalRecords); writers, replay and annotation are
// handed the judged record and never judge it again.
#ifndef SCRIBE_RECORDS_JUDGED_H_
#define SCRIBE_RECORDS_JUDGED_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "records/referee.h"
#include "google/protobuf/message.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// How records are read, judged and written.
struct RecordIo {
  // The ruleset reference for formats that do not name one (RGN); also the
  // one records are judged under when `rules` is unset and a record names
  // none. Every record that names no ruleset is given this one.
  std::string ruleset;
  // Judge every record under these rules (a user's ruleset file).
  std::shared_ptr<const Rules> rules;
  // With `rules`: they are for the records that name no ruleset, or one
  // that does not resolve (a user's own rules); a record that names rules
  // of its own which resolve to other rules (RoyalUr JSON's settings, a TSN
  // tag, a JSON reference) is judged by its own and gets a
  // `ruleset-conflict` finding naming both. Off: `rules` judges every
  // record, whatever it names.
  bool conflict_is_finding = false;
  // Writing TSN: squares as tile names instead of path numbers.
  bool tile_names = false;
};

struct JudgedRecord {
  // As read, with RecordIo::ruleset filled in when it names none.
  v1::GameRecord record;
  // The referee's verdict: valid() when the record is a legal game.
  RefereeResult verdict;
  // The record's entry in its file (0 for a record on its own).
  int index = 0;
};

// Fills in the record's ruleset from `io` when it names none, and judges it
// under io.rules or its own ruleset.
RefereeResult JudgeInPlace(v1::GameRecord* record, const RecordIo& io, const RefereeOptions& options = {});

// Judges one record under `io` (its ruleset filled in first).
JudgedRecord Judge(v1::GameRecord record, const RecordIo& io, const RefereeOptions& options = {});

// Judges records on their own (structured input, tests): each under its own
// ruleset, or io.rules; indices 0, 1, ...
std::vector<JudgedRecord> JudgeRecords(std::vector<v1::GameRecord> records, const RecordIo& io = {},
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
