// The round-trip property through records/formats.h, shared by the fuzz
// targets of formats read and written only through ReadRecords and
// WriteRecords (rgn_fuzz.cc, royalur_json_fuzz.cc).
#ifndef SCRIBE_FUZZ_ROUND_TRIP_H_
#define SCRIBE_FUZZ_ROUND_TRIP_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_util.h"
#include "records/formats.h"
#include "records/parsed.h"
#include "records/referee.h"
#include "scribe/v1/record.pb.h"

namespace scribe::fuzz {

inline std::string FindingsText(const std::vector<v1::Finding>& findings) {
  std::string out;
  for (const v1::Finding& f : findings) absl::StrAppend(&out, f.ShortDebugString(), "\n");
  return out;
}

// The reader's account is consistent: one record index per record,
// increasing and below `entries`; for text formats one source per record
// and one action source per action.
inline void CheckReaderAccount(const ParsedRecords& parsed) {
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
  FUZZ_CHECK(parsed.sources.empty() || parsed.sources.size() == parsed.records.size(),
             "sources has ", parsed.sources.size(), " entries for ", parsed.records.size(),
             " records");
  for (size_t k = 0; k < parsed.sources.size(); ++k) {
    FUZZ_CHECK(
        static_cast<int>(parsed.sources[k].actions.size()) == parsed.records[k].actions_size(),
        "record ", k, " has ", parsed.records[k].actions_size(), " actions but ",
        parsed.sources[k].actions.size(), " action sources");
  }
  for (const v1::Finding& f : parsed.findings) {
    FUZZ_CHECK(!f.code().empty(), "finding without a code: ", f.ShortDebugString());
  }
}

// Every record of `parsed` that the referee judges legal writes in
// `format` (WriteRecords), reads back (ReadRecords, same `io`) to the same
// record without a finding, and the written text is a fixed point; the
// legal records written together read back as the same list. Validating
// the written text finds nothing but what `tolerated` allows (findings
// about a record's own content, such as a Result tag).
template <typename Tolerated>
void CheckRoundTrips(Format format, const RecordIo& io, const ParsedRecords& parsed,
                     absl::string_view input, Tolerated tolerated) {
  RefereeOptions options;
  options.build_replay = false;
  std::vector<v1::GameRecord> legal;
  for (const v1::GameRecord& record : parsed.records) {
    if (Referee(record, io.rules, options).valid()) legal.push_back(record);
  }
  auto check = [&](const std::vector<v1::GameRecord>& records) {
    const absl::StatusOr<std::string> written = WriteRecords(format, records, io);
    FUZZ_CHECK(written.ok(), FormatName(format), ": WriteRecords refused ", records.size(),
               " legal record(s) its reader read: ", written.status().message(),
               "\ninput: ", Shown(input));
    const ParsedRecords back = ReadRecords(format, *written, io);
    FUZZ_CHECK(back.findings.empty() && back.records.size() == records.size(), FormatName(format),
               ": the written text reads back to ", back.records.size(), " of ", records.size(),
               " records, findings:\n", FindingsText(back.findings), "text: ", Shown(*written),
               "\ninput: ", Shown(input));
    for (size_t k = 0; k < records.size(); ++k) {
      std::string diff;
      FUZZ_CHECK(SameMessage(records[k], back.records[k], &diff), FormatName(format), ": record ",
                 k, " changed through writing and reading:\n", diff,
                 "read: ", records[k].ShortDebugString(),
                 "\nback: ", back.records[k].ShortDebugString(), "\ntext: ", Shown(*written),
                 "\ninput: ", Shown(input));
    }
    const absl::StatusOr<std::string> again = WriteRecords(format, back.records, io);
    FUZZ_CHECK(again.ok() && *again == *written, FormatName(format),
               ": the written text is not a fixed point:\nfirst:  ", Shown(*written),
               "\nsecond: ", again.ok() ? Shown(*again) : std::string(again.status().message()),
               "\ninput: ", Shown(input));
    const v1::FileReport report = ValidateText("written", *written, format, io);
    for (const v1::Finding& f : report.findings()) {
      FUZZ_CHECK(tolerated(f), FormatName(format),
                 ": the written text does not validate: ", f.ShortDebugString(),
                 "\ntext: ", Shown(*written), "\ninput: ", Shown(input));
    }
  };
  for (const v1::GameRecord& record : legal) check({record});
  if (legal.size() > 1) check(legal);
}

}  // namespace scribe::fuzz

#endif  // SCRIBE_FUZZ_ROUND_TRIP_H_
