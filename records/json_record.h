// Scribe's JSON record: the protobuf JSON mapping of scribe.v1.GameRecord
// with the proto field names (docs/json-record.md). A file holds one record
// or a JSON array of records.
#ifndef SCRIBE_RECORDS_JSON_RECORD_H_
#define SCRIBE_RECORDS_JSON_RECORD_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"
#include "records/parsed.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// Reads one record or an array of records. A file that is not JSON at all
// gives one finding (with line and column) and no records; one bad record
// in an array does not lose the others.
ParsedRecords ParseJsonRecords(absl::string_view text);

// The two readers ParseJsonRecords tries, for tests and fuzzing. The fast
// one reads records in their plain form (printable ASCII strings without
// escapes, integers as plain numbers, no null, each key once) and returns
// false at anything else, which the general one then reads from the start
// and reports on. Whatever the fast one reads, the general one reads to the
// same records.
bool ParseJsonRecordsFast(absl::string_view text, ParsedRecords* out);
ParsedRecords ParseJsonRecordsGeneral(absl::string_view text);

// One record, as the JSON mapping (one line, no trailing newline).
std::string WriteJsonRecord(const v1::GameRecord& record);

// Any message of ours as JSON with proto field names; every present field
// is written, even when it is 0.
std::string MessageToJson(const google::protobuf::Message& message, bool pretty = false);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_JSON_RECORD_H_
