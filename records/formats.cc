#include "records/formats.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "records/json_record.h"
#include "records/referee.h"
#include "records/tsn.h"

namespace scribe {

std::optional<Format> FormatFromName(absl::string_view name) {
  if (name == "tsn") return Format::kTsn;
  if (name == "json") return Format::kJson;
  return std::nullopt;
}

std::string FormatName(Format format) {
  switch (format) {
    case Format::kTsn: return "tsn";
    case Format::kJson: return "json";
  }
  return "?";
}

std::vector<std::string> FormatNames() { return {"tsn", "json"}; }

Format DetectFormat(absl::string_view file_name, absl::string_view text) {
  if (absl::EndsWithIgnoreCase(file_name, ".tsn")) return Format::kTsn;
  if (absl::EndsWithIgnoreCase(file_name, ".json")) return Format::kJson;
  // By content: JSON opens with '{' or with '[' then '{' or ']'; TSN with a
  // tag, '[' then a letter.
  size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip();
  if (i < text.size() && text[i] == '{') return Format::kJson;
  if (i < text.size() && text[i] == '[') {
    ++i;
    skip();
    if (i < text.size() && (text[i] == '{' || text[i] == ']')) return Format::kJson;
  }
  return Format::kTsn;
}

ParsedRecords ReadRecords(Format format, absl::string_view text, const RecordIo&) {
  switch (format) {
    case Format::kTsn: return ReadTsn(text);
    case Format::kJson: return ParseJsonRecords(text);
  }
  return {};
}

absl::StatusOr<std::string> WriteRecords(Format format, const std::vector<v1::GameRecord>& records,
                                         const RecordIo& io) {
  switch (format) {
    case Format::kTsn: {
      TsnWriteOptions options;
      options.squares = io.tile_names ? SquareStyle::kTiles : SquareStyle::kPathNumbers;
      return WriteTsn(records, options);
    }
    case Format::kJson: {
      if (records.size() == 1) return WriteJsonRecord(records[0]) + "\n";
      std::string out = "[";
      for (size_t k = 0; k < records.size(); ++k) {
        absl::StrAppend(&out, k == 0 ? "" : ",\n", WriteJsonRecord(records[k]));
      }
      return out + "]\n";
    }
  }
  return absl::InternalError("unknown format");
}

v1::FileReport ValidateText(absl::string_view file_name, absl::string_view text, Format format,
                            const RecordIo& io) {
  v1::FileReport report;
  report.set_file(std::string(file_name));
  ParsedRecords parsed = ReadRecords(format, text, io);
  std::vector<v1::Finding> findings = std::move(parsed.findings);
  std::unique_ptr<LineIndex> lines;
  if (!parsed.sources.empty()) lines = std::make_unique<LineIndex>(text);
  RefereeOptions options;
  options.build_replay = false;
  const bool many = parsed.entries > 1;
  for (size_t k = 0; k < parsed.records.size(); ++k) {
    v1::GameRecord& record = parsed.records[k];
    if (record.ruleset().empty() && !io.ruleset.empty()) record.set_ruleset(io.ruleset);
    const int index = parsed.record_indices[k];
    RefereeResult result = Referee(record, io.rules, options);
    std::vector<v1::Finding> record_findings;
    if (!parsed.sources.empty()) {
      record_findings = CheckTsnForm(parsed.sources[k], result, record, *lines, index);
    }
    // The written form's structural findings are the root cause when they
    // come before (or at) the referee's first illegal action.
    for (v1::Finding& f : result.findings) {
      if (f.has_action_index() && lines != nullptr && f.action_index() < static_cast<int>(parsed.sources[k].actions.size())) {
        int line, column;
        lines->Locate(parsed.sources[k].actions[f.action_index()].offset, &line, &column);
        f.set_line(line);
        f.set_column(column);
      } else if (!f.has_action_index() && lines != nullptr) {
        int line, column;
        lines->Locate(parsed.sources[k].offset, &line, &column);
        f.set_line(line);
        f.set_column(column);
      }
      const bool superseded = std::any_of(record_findings.begin(), record_findings.end(), [&](const v1::Finding& g) {
        return g.has_action_index() && f.has_action_index() && g.action_index() <= f.action_index() &&
               (g.code() == "wrong-side" || g.code() == "turn-passed" || g.code() == "missing-extra-throw" ||
                g.code() == "turn-split");
      });
      if (!superseded) record_findings.push_back(std::move(f));
    }
    std::stable_sort(record_findings.begin(), record_findings.end(), [](const v1::Finding& a, const v1::Finding& b) {
      const int ia = a.has_action_index() ? a.action_index() : -1;
      const int ib = b.has_action_index() ? b.action_index() : -1;
      return ia < ib;
    });
    for (v1::Finding& f : record_findings) {
      if (many || index != 0) f.set_record_index(index);
      findings.push_back(std::move(f));
    }
  }
  std::stable_sort(findings.begin(), findings.end(), [](const v1::Finding& a, const v1::Finding& b) {
    return a.record_index() < b.record_index();
  });
  for (v1::Finding& f : findings) {
    if (!many) f.clear_record_index();
    *report.add_findings() = std::move(f);
  }
  report.set_valid(report.findings_size() == 0);
  return report;
}

}  // namespace scribe
