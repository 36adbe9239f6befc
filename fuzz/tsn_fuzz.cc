// Fuzzes the TSN reader (records/tsn.h).
//
// Properties, for any input of at most 64 KiB:
//  - the reader never crashes and its account is consistent: one record
//    index and one source per record, record indices increasing and below
//    `entries`, one action source per action, every finding placed at a
//    line and column;
//  - every record it reads that the referee judges a legal game writes in
//    canonical TSN, with path numbers and with tile names, and reads back
//    to the same record (MessageDifferencer) without a finding;
//  - the canonical text is a fixed point: writing what it reads back gives
//    the same bytes, and validating it finds nothing (no form finding such
//    as a marker or a turn split; a Result tag that contradicts the moves
//    is the record's own content and may stay);
//  - the legal records of one file written together read back as the same
//    list.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/fuzz_util.h"
#include "records/formats.h"
#include "records/parsed.h"
#include "records/referee.h"
#include "records/tsn.h"
#include "scribe/v1/record.pb.h"

namespace scribe::fuzz {
namespace {

const char* StyleName(SquareStyle style) {
  return style == SquareStyle::kTiles ? "tile names" : "path numbers";
}

void CheckReaderAccount(absl::string_view text, const ParsedRecords& parsed) {
  FUZZ_CHECK(parsed.record_indices.size() == parsed.records.size(), "record_indices has ",
             parsed.record_indices.size(), " entries for ", parsed.records.size(), " records");
  FUZZ_CHECK(parsed.sources.size() == parsed.records.size(), "sources has ", parsed.sources.size(),
             " entries for ", parsed.records.size(), " records");
  FUZZ_CHECK(static_cast<int>(parsed.records.size()) <= parsed.entries, parsed.records.size(),
             " records read out of ", parsed.entries, " entries");
  int previous = -1;
  for (size_t k = 0; k < parsed.records.size(); ++k) {
    const int index = parsed.record_indices[k];
    FUZZ_CHECK(index > previous && index < parsed.entries, "record ", k, " has entry index ", index,
               " after ", previous, " of ", parsed.entries);
    previous = index;
    const RecordSource& source = parsed.sources[k];
    FUZZ_CHECK(static_cast<int>(source.actions.size()) == parsed.records[k].actions_size(),
               "record ", k, " has ", parsed.records[k].actions_size(), " actions but ",
               source.actions.size(), " action sources");
    FUZZ_CHECK(source.offset <= text.size(), "record ", k, " starts at byte ", source.offset,
               " of ", text.size());
    for (const ActionSource& a : source.actions) {
      FUZZ_CHECK(a.offset >= source.offset && a.offset < text.size(), "an action of record ", k,
                 " is at byte ", a.offset, "; the record starts at ", source.offset);
    }
  }
  for (const v1::Finding& f : parsed.findings) {
    FUZZ_CHECK(
        !f.code().empty() && f.has_line() && f.has_column() && f.line() >= 1 && f.column() >= 1,
        "finding without a code or a place: ", f.ShortDebugString());
  }
}

// Writes `records` in `style`, reads the text back and checks that it is
// the same records and a fixed point.
void CheckRoundTrip(const std::vector<v1::GameRecord>& records, SquareStyle style,
                    absl::string_view input) {
  TsnWriteOptions options;
  options.squares = style;
  const absl::StatusOr<std::string> written = WriteTsn(records, options);
  FUZZ_CHECK(written.ok(), "WriteTsn (", StyleName(style), ") refused ", records.size(),
             " legal record(s): ", written.status().message(), "\ninput: ", Shown(input));
  const ParsedRecords back = ReadTsn(*written);
  std::string findings;
  for (const v1::Finding& f : back.findings) absl::StrAppend(&findings, f.ShortDebugString(), "\n");
  FUZZ_CHECK(back.findings.empty() && back.records.size() == records.size(), "the canonical text (",
             StyleName(style), ") reads back to ", back.records.size(), " of ", records.size(),
             " records, findings:\n", findings, "text: ", Shown(*written),
             "\ninput: ", Shown(input));
  for (size_t k = 0; k < records.size(); ++k) {
    std::string diff;
    FUZZ_CHECK(SameMessage(records[k], back.records[k], &diff), "record ", k,
               " changed through TSN (", StyleName(style), "):\n", diff,
               "read: ", records[k].ShortDebugString(),
               "\nback: ", back.records[k].ShortDebugString(), "\ntext: ", Shown(*written),
               "\ninput: ", Shown(input));
  }
  const absl::StatusOr<std::string> again = WriteTsn(back.records, options);
  FUZZ_CHECK(again.ok() && *again == *written, "the canonical text (", StyleName(style),
             ") is not a fixed point:\nfirst:  ", Shown(*written),
             "\nsecond: ", again.ok() ? Shown(*again) : std::string(again.status().message()),
             "\ninput: ", Shown(input));
  // The Result tag is the record's own content (a legal game may carry a
  // wrong one); every other finding would be the writer's doing.
  const v1::FileReport report = ValidateFile("canonical.tsn", *written, Format::kTsn).report;
  for (const v1::Finding& f : report.findings()) {
    FUZZ_CHECK(f.code() == "result-mismatch", "the canonical text (", StyleName(style),
               ") does not validate: ", f.ShortDebugString(), "\ntext: ", Shown(*written),
               "\ninput: ", Shown(input));
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
  const ParsedRecords parsed = ReadTsn(text);
  CheckReaderAccount(text, parsed);

  RefereeOptions options;
  options.build_replay = false;
  std::vector<v1::GameRecord> legal;
  for (const v1::GameRecord& record : parsed.records) {
    if (!Referee(record, nullptr, options).valid()) continue;
    for (SquareStyle style : {SquareStyle::kPathNumbers, SquareStyle::kTiles}) {
      CheckRoundTrip({record}, style, text);
    }
    legal.push_back(record);
  }
  if (legal.size() > 1) CheckRoundTrip(legal, SquareStyle::kPathNumbers, text);
  return 0;
}
