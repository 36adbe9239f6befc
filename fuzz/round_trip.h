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
// `format` (WriteRecords), reads back (ReadRecords, same `policy`) to the same
// record without a finding, and the written text is a fixed point.
// Validating the written text finds nothing but what `tolerated` allows
// (findings about a record's own content, such as a Result tag).
//
// Several records: legal records that stood next to each other in the
// input (a run of consecutive entries) must write together, since the input
// itself wrote them so; all the legal records together may be refused (a
// format may be unable to put some games next to each other), but when
// written they must read back as the same list.
template <typename Tolerated>
void CheckRoundTrips(Format format, const RulesPolicy& policy, const ParsedRecords& parsed,
                     absl::string_view input, Tolerated tolerated) {
  RefereeOptions options;
  options.build_replay = false;
  // Maximal runs of legal records from consecutive entries of the input.
  std::vector<std::vector<v1::GameRecord>> runs;
  std::vector<v1::GameRecord> legal;
  int previous_entry = -2;
  for (size_t k = 0; k < parsed.records.size(); ++k) {
    if (!Referee(parsed.records[k], policy.rules, options).valid()) {
      previous_entry = -2;
      continue;
    }
    const int entry = parsed.record_indices[k];
    if (runs.empty() || entry != previous_entry + 1) runs.emplace_back();
    runs.back().push_back(parsed.records[k]);
    legal.push_back(parsed.records[k]);
    previous_entry = entry;
  }
  auto check = [&](const std::vector<v1::GameRecord>& records, bool must_write) {
    const absl::StatusOr<std::string> written = WriteRecords(format, records);
    if (!written.ok() && !must_write) return;
    FUZZ_CHECK(written.ok(), FormatName(format), ": WriteRecords refused ", records.size(),
               " legal record(s) its reader read", records.size() > 1 ? " one after another" : "",
               ": ", written.status().message(), "\ninput: ", Shown(input));
    const ParsedRecords back = ReadRecords(format, *written, policy);
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
    const absl::StatusOr<std::string> again = WriteRecords(format, back.records);
    FUZZ_CHECK(again.ok() && *again == *written, FormatName(format),
               ": the written text is not a fixed point:\nfirst:  ", Shown(*written),
               "\nsecond: ", again.ok() ? Shown(*again) : std::string(again.status().message()),
               "\ninput: ", Shown(input));
    const v1::FileReport report = ValidateFile("written", *written, format, policy).report;
    for (const v1::Finding& f : report.findings()) {
      FUZZ_CHECK(tolerated(f), FormatName(format),
                 ": the written text does not validate: ", f.ShortDebugString(),
                 "\ntext: ", Shown(*written), "\ninput: ", Shown(input));
    }
  };
  for (const v1::GameRecord& record : legal) check({record}, /*must_write=*/true);
  for (const std::vector<v1::GameRecord>& run : runs) {
    if (run.size() > 1 && run.size() < legal.size()) check(run, /*must_write=*/true);
  }
  if (legal.size() > 1) check(legal, /*must_write=*/runs.size() == 1);
}

}  // namespace scribe::fuzz

#endif  // SCRIBE_FUZZ_ROUND_TRIP_H_
