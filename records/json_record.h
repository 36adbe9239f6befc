// Scribe's JSON record: the protobuf JSON mapping of scribe.v1.GameRecord
// with the proto field names (docs/json-record.md). A file holds one record
// or a JSON array of records.
#ifndef SCRIBE_RECORDS_JSON_RECORD_H_
#define SCRIBE_RECORDS_JSON_RECORD_H_

#include <memory>
#include <ostream>
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

// One message written as MessageToJson prints it, byte for byte, with one
// repeated message field written element by element as they are made: a
// message too large to hold whole (the replay of a million actions) is
// never built, nor its text. Begin(head) writes "{" and the fields of
// `head` numbered below the streamed field; Add(element) each element; End
// (tail) the fields of `tail` numbered above it and "}". Nothing is written
// once `out` has failed (a closed pipe).
class JsonMessageStream {
 public:
  JsonMessageStream(std::ostream& out, const google::protobuf::FieldDescriptor* field);
  void Begin(const google::protobuf::Message& head);
  void Add(const google::protobuf::Message& element);
  void End(const google::protobuf::Message& tail);

 private:
  // The fields of `message` numbered below (or above) the streamed field.
  void Fields(const google::protobuf::Message& message, bool below);
  google::protobuf::Message* NewBatch() const;
  void Flush();
  static constexpr int kBatch = 1024;  // elements printed at once
  std::ostream& out_;
  const google::protobuf::FieldDescriptor* field_;
  bool any_field_ = false;
  bool any_element_ = false;
  std::unique_ptr<google::protobuf::Message> batch_;
  int batched_ = 0;
};

// JSON texts (messages, each written whole or by a JsonMessageStream)
// printed one after another as they are made: one as it is, none or more
// than one as an array ("[", ",\n" between, "]"), then a line end. Next()
// before each text, Finish() after the last.
class JsonList {
 public:
  JsonList(std::ostream& out, size_t count) : out_(out), count_(count) {}
  void Next();
  void Finish();

 private:
  std::ostream& out_;
  size_t count_, printed_ = 0;
};

}  // namespace scribe

#endif  // SCRIBE_RECORDS_JSON_RECORD_H_
