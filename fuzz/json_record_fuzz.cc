// Fuzzes the JSON record reader (records/json_record.h).
//
// Properties, for any input of at most 64 KiB:
//  - the reader never crashes or throws, and its account is consistent (one
//    record index per record, increasing and below `entries`);
//  - every record it reads, legal or not, writes with WriteJsonRecord and
//    reads back to the same record (MessageDifferencer) without a finding,
//    and the written JSON is a fixed point (the same bytes written again);
//  - all the records of the input written as one file (WriteRecords) read
//    back as the same list;
//  - what the fast reader (ParseJsonRecordsFast) reads, the general reader
//    reads to the same records without a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_util.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "records/parsed.h"
#include "scribe/v1/record.pb.h"

namespace scribe::fuzz {
namespace {

std::string DescribeFindings(const ParsedRecords& parsed) {
  std::string out;
  for (const v1::Finding& f : parsed.findings) absl::StrAppend(&out, f.ShortDebugString(), "\n");
  return out;
}

void CheckReaderAccount(const ParsedRecords& parsed) {
  FUZZ_CHECK(parsed.record_indices.size() == parsed.records.size(), "record_indices has ",
             parsed.record_indices.size(), " entries for ", parsed.records.size(), " records");
  FUZZ_CHECK(static_cast<int>(parsed.records.size()) <= parsed.entries, parsed.records.size(),
             " records read out of ", parsed.entries, " entries");
  int previous = -1;
  for (int index : parsed.record_indices) {
    FUZZ_CHECK(index > previous && index < parsed.entries, "entry index ", index, " after ",
               previous, " of ", parsed.entries);
    previous = index;
  }
  for (const v1::Finding& f : parsed.findings) {
    FUZZ_CHECK(!f.code().empty(), "finding without a code: ", f.ShortDebugString());
  }
}

}  // namespace
}  // namespace scribe::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  scribe::fuzz::SilenceProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace scribe;
  using namespace scribe::fuzz;
  if (size > kMaxInput) return kRejectInput;
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  const ParsedRecords parsed = ParseJsonRecords(text);
  CheckReaderAccount(parsed);

  // The fast reader reads only what the general reader reads the same way.
  ParsedRecords fast;
  if (ParseJsonRecordsFast(text, &fast)) {
    const ParsedRecords general = ParseJsonRecordsGeneral(text);
    FUZZ_CHECK(general.findings.empty() && general.records.size() == fast.records.size() &&
                   general.entries == fast.entries && general.record_indices == fast.record_indices,
               "the fast reader read ", fast.records.size(), " records of ", fast.entries,
               " entries, the general one ", general.records.size(), " of ", general.entries,
               ", findings:\n", DescribeFindings(general), "input: ", Shown(text));
    for (size_t k = 0; k < fast.records.size(); ++k) {
      std::string diff;
      FUZZ_CHECK(SameMessage(general.records[k], fast.records[k], &diff), "record ", k,
                 " differs between the general and the fast reader:\n", diff, "input: ", Shown(text));
    }
  }

  for (const v1::GameRecord& record : parsed.records) {
    const std::string json = WriteJsonRecord(record);
    const ParsedRecords back = ParseJsonRecords(json);
    FUZZ_CHECK(back.findings.empty() && back.records.size() == 1,
               "the written record reads back to ", back.records.size(), " records, findings:\n",
               DescribeFindings(back), "json: ", Shown(json), "\ninput: ", Shown(text));
    std::string diff;
    FUZZ_CHECK(SameMessage(record, back.records[0], &diff), "the record changed through JSON:\n",
               diff, "read: ", record.ShortDebugString(),
               "\nback: ", back.records[0].ShortDebugString(), "\njson: ", Shown(json),
               "\ninput: ", Shown(text));
    const std::string again = WriteJsonRecord(back.records[0]);
    FUZZ_CHECK(again == json, "the written JSON is not a fixed point:\nfirst:  ", Shown(json),
               "\nsecond: ", Shown(again), "\ninput: ", Shown(text));
  }

  if (parsed.records.empty()) return 0;
  const absl::StatusOr<std::string> file = WriteRecords(Format::kJson, parsed.records);
  FUZZ_CHECK(file.ok(), "WriteRecords refused: ", file.status().message());
  const ParsedRecords back = ParseJsonRecords(*file);
  FUZZ_CHECK(back.findings.empty() && back.records.size() == parsed.records.size(),
             "the written file reads back to ", back.records.size(), " of ", parsed.records.size(),
             " records, findings:\n", DescribeFindings(back), "file: ", Shown(*file),
             "\ninput: ", Shown(text));
  for (size_t k = 0; k < parsed.records.size(); ++k) {
    std::string diff;
    FUZZ_CHECK(SameMessage(parsed.records[k], back.records[k], &diff), "record ", k,
               " changed through a JSON file:\n", diff, "file: ", Shown(*file),
               "\ninput: ", Shown(text));
  }
  return 0;
}
