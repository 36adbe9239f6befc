// Every record format Scribe reads and writes, behind one interface:
// detection, reading, writing, and the one path from a file's text to its
// judged records: parsed once, each record refereed once.
//
// Three doors read a file's text; they differ in what they do with the
// records read:
//   ReadRecords   judges none: the records as written (tests, fuzzing,
//                 tools that want the text's records untouched).
//   JudgeFile     judges every record and keeps every one with its
//                 verdict (convert, replay, annotate, review, the
//                 service's answers that carry records).
//   ValidateFile  judges every record and keeps none: the report alone,
//                 in memory bounded by one game for TSN (validate, the
//                 service's ValidateRecord).
// A record that is not a file's text (a structured record) is judged by
// Judge (records/judged.h). Which rules judge a record is decided by
// RulesFor (records/record_rules.h) under the caller's RulesPolicy; writing
// takes WriteOptions.
#ifndef SCRIBE_RECORDS_FORMATS_H_
#define SCRIBE_RECORDS_FORMATS_H_

#include <cstdint>
#include <functional>
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
// want the records as written). `policy` serves the readers that need
// rules to read (TSN's squares, RGN, which names no ruleset).
ParsedRecords ReadRecords(Format format, absl::string_view text, const RulesPolicy& policy = {});

// How records are written.
struct WriteOptions {
  // TSN: squares as tile names instead of path numbers.
  bool tile_names = false;
};

// Writes judged records (each must be legal; nothing is judged again).
absl::StatusOr<std::string> WriteRecords(Format format, const std::vector<JudgedRecord>& records,
                                         const WriteOptions& options = {});
// The same for records not yet judged: each is judged under its own ruleset.
absl::StatusOr<std::string> WriteRecords(Format format, const std::vector<v1::GameRecord>& records,
                                         const WriteOptions& options = {});

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
  // JudgeFile: every record the reader could read, in file order, with its
  // verdict (whose findings are the referee's own, unlocated). ValidateFile:
  // empty.
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

// Reads `text` in `format`, judges every record under `policy`, checks the
// written form (TSN, RGN and RoyalUr JSON turns, markers, results), and
// keeps every record read with its verdict, legal or not: a caller that
// passes records on (convert, annotate) checks report.valid() first.
JudgedFile JudgeFile(absl::string_view file_name, absl::string_view text, Format format,
                     const RulesPolicy& policy = {}, const JudgeOptions& options = {});

// The same judging, keeping no record: the report (and the counts), in
// memory bounded by one game for TSN, however long the file. Judges
// nothing past `limits` (JudgedFile::over_limit, stopped).
JudgedFile ValidateFile(absl::string_view file_name, absl::string_view text, Format format,
                        const RulesPolicy& policy = {}, const JudgeLimits& limits = {});

// A judged record handed over as it is judged, and whether it is legal
// (no finding names it: neither the referee nor the check of its written
// form). What the callee leaves in `record.record` (the record itself
// when it took nothing, or a spare record it gives back) is where a text
// reader reads the next game, reusing its storage.
using EachJudged = std::function<void(JudgedRecord&& record, bool legal)>;

// The same judging, handing each record to `each` as it is judged and
// keeping none (the game database's import): memory bounded by one game
// for TSN, as ValidateFile. The report is ValidateFile's.
JudgedFile JudgeEach(absl::string_view file_name, absl::string_view text, Format format, const RulesPolicy& policy,
                     const JudgeOptions& options, const EachJudged& each);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_FORMATS_H_
