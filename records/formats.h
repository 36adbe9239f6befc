// Every record format Scribe reads and writes, behind one interface:
// detection, reading, writing, and validation of a whole file.
#ifndef SCRIBE_RECORDS_FORMATS_H_
#define SCRIBE_RECORDS_FORMATS_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
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

struct RecordIo {
  // The ruleset reference for formats that do not name one (RGN); also the
  // one records are judged under when `rules` is unset and a record names
  // none.
  std::string ruleset;
  // Judge every record under these rules (a user's ruleset file).
  std::shared_ptr<const Rules> rules;
  // Writing TSN: squares as tile names instead of path numbers.
  bool tile_names = false;
};

ParsedRecords ReadRecords(Format format, absl::string_view text, const RecordIo& io = {});
absl::StatusOr<std::string> WriteRecords(Format format, const std::vector<v1::GameRecord>& records,
                                         const RecordIo& io = {});

// Reads and judges every record of a file: format errors, broken rules and
// (for text formats) the written form, each with line and column where the
// format has them, the root cause of each record only. `entries`, when
// given, is set to how many records (games) the file holds, read or not.
v1::FileReport ValidateText(absl::string_view file_name, absl::string_view text, Format format,
                            const RecordIo& io = {}, int* entries = nullptr);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_FORMATS_H_
