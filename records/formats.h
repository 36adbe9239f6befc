// Every record format Scribe reads and writes, behind one interface:
// detection, reading, writing, and the one path from a file's text to its
// judged records (JudgeFile): parsed once, each record refereed once.
#ifndef SCRIBE_RECORDS_FORMATS_H_
#define SCRIBE_RECORDS_FORMATS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "engine/stop.h"
#include "records/judged.h"
#include "records/parsed.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

enum class Format {
  kTsn,          // Scribe's text notation (docs/notation.md)
  kJson,         // Scribe's JSON record (docs/json-record.md)
  kRgn,          // RoyalUr's text notation (records/rgn.h)
  kRoyalUrJson,  // RoyalUr's JSON, notation_version 2 (records/royalur_json.h)
};

// "tsn", "json", "rgn", "royalur-json".
std::optional<Format> FormatFromName(absl::string_view name);
std::string FormatName(Format format);
std::vector<std::string> FormatNames();

// By the file name's extension (.tsn, .rgn; .json is RoyalUr's when the
// content has "notation_version"), else by the content.
Format DetectFormat(absl::string_view file_name, absl::string_view text);

// Reads the records of a text, judging none (tests, fuzzing, tools that
// want the records as written). Everything else reads through JudgeFile.
ParsedRecords ReadRecords(Format format, absl::string_view text, const RecordIo& io = {});

// Writes judged records (each must be legal; nothing is judged again).
absl::StatusOr<std::string> WriteRecords(Format format, const std::vector<JudgedRecord>& records,
                                         const RecordIo& io = {});
// The same for records not yet judged: each is judged under its own ruleset.
absl::StatusOr<std::string> WriteRecords(Format format, const std::vector<v1::GameRecord>& records,
                                         const RecordIo& io = {});

// How much of a file is judged, for callers that bound their work before
// doing it (the service): counted over the records as they are read, before
// each is judged. 0: no limit.
struct JudgeLimits {
  int64_t max_actions = 0;  // summed over the file's records
  int64_t max_records = 0;
  // Polled before each record is judged (engine/stop.h): once it says stop,
  // nothing more is judged and JudgedFile::stopped is set.
  StopCheck stop;
};

struct JudgeOptions {
  // Keep the judged records. Validation alone keeps none: TSN is then read
  // and judged one game at a time.
  bool keep_records = true;
  // What the referee builds for each record (the replay, the positions).
  RefereeOptions referee = {.build_replay = false, .keep_positions = false};
  JudgeLimits limits;
};

// A file read once and each of its records judged once.
struct JudgedFile {
  // Every finding, located (line and column where the format has them) and
  // ordered by record, the root cause of each record only: what `scribe
  // validate` prints. valid() when every record is a legal game.
  v1::FileReport report;
  // With keep_records: every record the reader could read, in file order,
  // with its verdict (whose findings are the referee's own, unlocated).
  std::vector<JudgedRecord> records;
  // The reader's findings: the entries it could not read.
  std::vector<v1::Finding> read_findings;
  // How many records (games) the file holds, read or not.
  int entries = 0;
  // The records read and their actions, counted whether judged or not.
  int64_t records_read = 0;
  int64_t actions_read = 0;
  // True when the file holds more than JudgeOptions::limits allows: no
  // record is judged once a limit is passed, `records` is emptied, and the
  // report is not a verdict on the file (nothing says it is valid).
  bool over_limit = false;
  // True when JudgeLimits::stop said stop: as over_limit, nothing is usable.
  bool stopped = false;
};

// Reads `text` in `format`, judges every record under `io`, and checks the
// written form (TSN, RGN and RoyalUr JSON turns, markers, results).
JudgedFile JudgeFile(absl::string_view file_name, absl::string_view text, Format format, const RecordIo& io = {},
                     const JudgeOptions& options = {});

// JudgeFile for callers that need every record legal (convert, annotate,
// the service's replay): when the report is not valid, `records` is
// emptied, so no illegal record is passed on by mistake.
JudgedFile ReadLegalRecords(absl::string_view file_name, absl::string_view text, Format format,
                            const RecordIo& io = {}, const RefereeOptions& referee = {.build_replay = false},
                            const JudgeLimits& limits = {});

// JudgeFile's report alone (nothing kept). `entries`, when given, is set to
// how many records (games) the file holds, read or not.
v1::FileReport ValidateText(absl::string_view file_name, absl::string_view text, Format format,
                            const RecordIo& io = {}, int* entries = nullptr);
// The same, judging nothing past `limits` (JudgedFile::over_limit).
JudgedFile ValidateFile(absl::string_view file_name, absl::string_view text, Format format, const RecordIo& io,
                        const JudgeLimits& limits);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_FORMATS_H_
