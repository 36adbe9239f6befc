#include "records/formats.h"

#include <algorithm>
#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "records/finding_codes.h"
#include "records/json_record.h"
#include "records/referee.h"
#include "records/rgn.h"
#include "records/royalur_json.h"
#include "records/tsn.h"
#include "records/utf8.h"

namespace scribe {

namespace {

// What a reader hands over for each record it reads: the record (reused
// for the next one when not moved out), where its parts were written (null
// for formats without positions) and its entry in the file.
using EachRecord = absl::FunctionRef<void(v1::GameRecord& record, const RecordSource* source, int index)>;

// One format: its name, its reader and writer, and the checks of its
// written form (none for formats that do not say where things were written).
struct FormatSpec {
  Format format;
  absl::string_view name;
  // Reads the whole text: every record kept (ReadRecords).
  ParsedRecords (*read)(absl::string_view text, const RulesPolicy& policy);
  // Reads the text a record at a time for judging (JudgeFile,
  // ValidateFile): each record read is handed to `each` in file order; the
  // result holds the findings and the count of entries, not the records.
  //
  // Every format is judged through here, in the same order: read a record,
  // judge it, check its written form. Only TSN's reader hands over each
  // game as it reads it (ReadTsnEach), so validating a TSN file of any
  // length holds one game at a time; the other readers parse their whole
  // text first (JSON is one document) and then hand over their records one
  // by one (ReadWholeThenEach).
  ParsedRecords (*read_each)(absl::string_view text, const RulesPolicy& policy, EachRecord each);
  absl::StatusOr<std::string> (*write)(const std::vector<JudgedRecord>& records, const WriteOptions& options);
  std::vector<v1::Finding> (*check_form)(const RecordSource& source, const RefereeResult& verdict,
                                         const v1::GameRecord& record, const LineIndex& lines, int record_index);
};

// read_each for the formats read whole.
template <ParsedRecords (*Read)(absl::string_view, const RulesPolicy&)>
ParsedRecords ReadWholeThenEach(absl::string_view text, const RulesPolicy& policy, EachRecord each) {
  ParsedRecords parsed = Read(text, policy);
  for (size_t k = 0; k < parsed.records.size(); ++k) {
    each(parsed.records[k], parsed.sources.empty() ? nullptr : &parsed.sources[k], parsed.record_indices[k]);
  }
  parsed.records.clear();
  parsed.record_indices.clear();
  parsed.sources.clear();
  return parsed;
}

ParsedRecords ReadTsnWhole(absl::string_view text, const RulesPolicy& policy) { return ReadTsn(text, policy); }
ParsedRecords ReadTsnGames(absl::string_view text, const RulesPolicy& policy, EachRecord each) {
  return ReadTsnEach(
      text, [&](v1::GameRecord& record, RecordSource& source, int index) { each(record, &source, index); }, policy);
}
ParsedRecords ReadJson(absl::string_view text, const RulesPolicy&) { return ParseJsonRecords(text); }
ParsedRecords ReadRgnText(absl::string_view text, const RulesPolicy& policy) { return ReadRgn(text, policy); }
ParsedRecords ReadRoyalUrJsonText(absl::string_view text, const RulesPolicy&) { return ReadRoyalUrJson(text); }

absl::StatusOr<std::string> WriteJsonRecords(const std::vector<JudgedRecord>& records, const WriteOptions&) {
  for (size_t k = 0; k < records.size(); ++k) {
    if (absl::Status s = RequireUtf8(records[k].record, "JSON"); !s.ok()) return InRecord(s, k, records.size());
  }
  if (records.size() == 1) return WriteJsonRecord(records[0].record) + "\n";
  std::string out = "[";
  for (size_t k = 0; k < records.size(); ++k) {
    absl::StrAppend(&out, k == 0 ? "" : ",\n", WriteJsonRecord(records[k].record));
  }
  return out + "]\n";
}

// The registry: every format Scribe reads and writes, in FormatNames order.
const FormatSpec kFormats[] = {
    {Format::kTsn, "tsn", ReadTsnWhole, ReadTsnGames,
     [](const std::vector<JudgedRecord>& records, const WriteOptions& options) {
       TsnWriteOptions tsn;
       tsn.squares = options.tile_names ? SquareStyle::kTiles : SquareStyle::kPathNumbers;
       return WriteTsn(records, tsn);
     },
     CheckTsnForm},
    {Format::kJson, "json", ReadJson, ReadWholeThenEach<ReadJson>, WriteJsonRecords, nullptr},
    {Format::kRgn, "rgn", ReadRgnText, ReadWholeThenEach<ReadRgnText>,
     [](const std::vector<JudgedRecord>& records, const WriteOptions&) { return WriteRgn(records); }, CheckRgnForm},
    {Format::kRoyalUrJson, "royalur-json", ReadRoyalUrJsonText, ReadWholeThenEach<ReadRoyalUrJsonText>,
     [](const std::vector<JudgedRecord>& records, const WriteOptions&) { return WriteRoyalUrJson(records); },
     CheckRoyalUrJsonForm},
};

const FormatSpec& Spec(Format format) {
  for (const FormatSpec& spec : kFormats) {
    if (spec.format == format) return spec;
  }
  return kFormats[0];  // every Format is in the table
}

}  // namespace

std::optional<Format> FormatFromName(absl::string_view name) {
  for (const FormatSpec& spec : kFormats) {
    if (spec.name == name) return spec.format;
  }
  return std::nullopt;
}

std::string FormatName(Format format) { return std::string(Spec(format).name); }

std::vector<std::string> FormatNames() {
  std::vector<std::string> out;
  for (const FormatSpec& spec : kFormats) out.emplace_back(spec.name);
  return out;
}

namespace {

// The text without the UTF-8 byte order mark (EF BB BF) it may start with,
// as some editors save text: every format reads such a file as if it had
// none. Detection, ReadRecords and JudgeFile take the text through here.
absl::string_view WithoutByteOrderMark(absl::string_view text) {
  return absl::StartsWith(text, "\xEF\xBB\xBF") ? text.substr(3) : text;
}

// Text that is not JSON: RGN when its first turn is written RoyalUr's way
// ("1. A@A4", "1. 2 --", "/ C@C2"), else TSN ("1. L 3:0-3").
Format DetectTextFormat(absl::string_view text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == absl::string_view::npos) end = text.size();
    absl::string_view line = absl::StripLeadingAsciiWhitespace(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line[0] == '[' || line[0] == '{') continue;
    if (line[0] == '/') return Format::kRgn;
    size_t i = 0;
    while (i < line.size() && absl::ascii_isdigit(static_cast<unsigned char>(line[i]))) ++i;
    if (i == 0 || i >= line.size() || line[i] != '.') return Format::kTsn;
    line = absl::StripLeadingAsciiWhitespace(line.substr(i + 1));
    // An RGN action: a tile or lane@ ("A4B1", "A@A4"), or "<throw> --".
    if (line.size() >= 2 && line[0] >= 'A' && line[0] <= 'C' &&
        (line[1] == '@' || absl::ascii_isdigit(static_cast<unsigned char>(line[1])))) {
      return Format::kRgn;
    }
    size_t j = 0;
    while (j < line.size() && absl::ascii_isdigit(static_cast<unsigned char>(line[j]))) ++j;
    if (j > 0 && absl::StartsWith(line.substr(j), " --")) return Format::kRgn;
    return Format::kTsn;
  }
  return Format::kTsn;
}

}  // namespace

Format DetectFormat(absl::string_view file_name, absl::string_view text) {
  text = WithoutByteOrderMark(text);
  if (absl::EndsWithIgnoreCase(file_name, ".tsn")) return Format::kTsn;
  if (absl::EndsWithIgnoreCase(file_name, ".rgn")) return Format::kRgn;
  if (absl::EndsWithIgnoreCase(file_name, ".json")) {
    return LooksLikeRoyalUrJson(text) ? Format::kRoyalUrJson : Format::kJson;
  }
  // By content: JSON opens with '{' or with '[' then '{' or ']'; TSN with a
  // tag, '[' then a letter.
  size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip();
  const Format json = LooksLikeRoyalUrJson(text) ? Format::kRoyalUrJson : Format::kJson;
  if (i < text.size() && text[i] == '{') return json;
  if (i < text.size() && text[i] == '[') {
    ++i;
    skip();
    if (i < text.size() && (text[i] == '{' || text[i] == ']')) return json;
  }
  return DetectTextFormat(text);
}

ParsedRecords ReadRecords(Format format, absl::string_view text, const RulesPolicy& policy) {
  return Spec(format).read(WithoutByteOrderMark(text), policy);
}

absl::StatusOr<std::string> WriteRecords(Format format, const std::vector<JudgedRecord>& records,
                                         const WriteOptions& options) {
  return Spec(format).write(records, options);
}

absl::StatusOr<std::string> WriteRecords(Format format, const std::vector<v1::GameRecord>& records,
                                         const WriteOptions& options) {
  // Judged as each writer judged them before: under their own rulesets.
  return WriteRecords(format, JudgeRecords(records), options);
}

namespace {

// Line starts of no text: for checks whose findings get placed later.
const LineIndex& NoLines() {
  static const LineIndex* const kNoLines = new LineIndex(absl::string_view());
  return *kNoLines;
}

// The written form's findings of one judged record (text formats only),
// checked without line starts first and again with them only when there is
// a finding to place: `lines` is built then, once per file (a valid file
// never needs it).
std::vector<v1::Finding> FormFindings(Format format, absl::string_view text, const RecordSource& source,
                                      const v1::GameRecord& record, const RefereeResult& verdict, int index,
                                      std::optional<LineIndex>* lines) {
  const auto check = Spec(format).check_form;
  if (check == nullptr) return {};
  std::vector<v1::Finding> out = check(source, verdict, record, *lines ? **lines : NoLines(), index);
  if (!out.empty() && !*lines) {
    lines->emplace(text);
    out = check(source, verdict, record, **lines, index);
  }
  return out;
}

// A TSN structure finding (the turn a throw is written in) explains the
// referee's finding at or after its action: the referee's is the cascade.
bool IsTurnStructure(const v1::Finding& f) {
  return f.code() == codes::kWrongSide || f.code() == codes::kTurnPassed || f.code() == codes::kMissingExtraThrow ||
         f.code() == codes::kTurnSplit || f.code() == codes::kTurnNumber;
}

// The findings of one judged record, located and ordered, the root cause
// only: the written form's and the referee's.
std::vector<v1::Finding> RecordFindings(Format format, absl::string_view text, const RecordSource* source,
                                        const v1::GameRecord& record, const RefereeResult& verdict, int index,
                                        std::optional<LineIndex>* lines) {
  std::vector<v1::Finding> out;
  if (source != nullptr) {
    out = FormFindings(format, text, *source, record, verdict, index, lines);
    if (!verdict.findings.empty() && !*lines) lines->emplace(text);
  }
  for (v1::Finding f : verdict.findings) {
    if (source != nullptr) {
      const bool on_action = f.has_action_index() && f.action_index() < static_cast<int>(source->actions.size());
      if (on_action || !f.has_action_index()) {
        // A wrong digest is where the digest was written, when it was.
        const bool at_digest = f.code() == codes::kRulesetDigestMismatch && source->has_digest;
        int line, column;
        (*lines)->Locate(on_action   ? source->actions[f.action_index()].offset
                         : at_digest ? source->digest_offset
                                     : source->offset,
                         &line, &column);
        f.set_line(line);
        f.set_column(column);
      }
    }
    const bool superseded = std::any_of(out.begin(), out.end(), [&](const v1::Finding& g) {
      return g.has_action_index() && f.has_action_index() && g.action_index() <= f.action_index() &&
             IsTurnStructure(g);
    });
    if (!superseded) out.push_back(std::move(f));
  }
  std::stable_sort(out.begin(), out.end(), [](const v1::Finding& a, const v1::Finding& b) {
    const int ia = a.has_action_index() ? a.action_index() : -1;
    const int ib = b.has_action_index() ? b.action_index() : -1;
    return ia < ib;
  });
  // Every finding names its record; a file of one record drops the index
  // below.
  for (v1::Finding& f : out) f.set_record_index(index);
  return out;
}

// JudgeFile and ValidateFile: the one path from a text to its judged
// records, keeping them or not.
// `each`, when given, is handed every judged record as it is judged,
// with whether it is legal (no finding names it); none is kept.
JudgedFile JudgeText(absl::string_view file_name, absl::string_view text, Format format, const RulesPolicy& policy,
                     const JudgeOptions& options, bool keep_records, const EachJudged* each = nullptr) {
  // Lines and columns are counted from after the mark.
  text = WithoutByteOrderMark(text);
  JudgedFile file;
  std::optional<LineIndex> lines;
  std::vector<v1::Finding> judged;
  // Judges one record as it is read; `source` says where its parts were
  // written (text formats), null for formats without positions. A record
  // not kept goes back where it lay (TSN reuses its storage for the next
  // game).
  auto judge = [&](v1::GameRecord& record, const RecordSource* source, int index) {
    // Counted before the work: once past a limit, nothing more is judged.
    ++file.records_read;
    file.actions_read += record.actions_size();
    const JudgeLimits& limits = options.limits;
    if ((limits.max_records > 0 && file.records_read > limits.max_records) ||
        (limits.max_actions > 0 && file.actions_read > limits.max_actions)) {
      file.over_limit = true;
    }
    if (!file.over_limit && !file.stopped && StopRequested(limits.stop)) file.stopped = true;
    if (file.over_limit || file.stopped) return;
    JudgedRecord record_judged = Judge(std::move(record), policy, options.referee);
    const size_t found_before = judged.size();
    for (v1::Finding& f :
         RecordFindings(format, text, source, record_judged.record, record_judged.verdict, index, &lines)) {
      judged.push_back(std::move(f));
    }
    if (each != nullptr) {
      record_judged.index = index;
      (*each)(std::move(record_judged), judged.size() == found_before);
      // What `each` left in the record (nothing, or a spare it gave back)
      // is where the next game is read.
      record = std::move(record_judged.record);
    } else if (keep_records) {
      record_judged.index = index;
      file.records.push_back(std::move(record_judged));
    } else {
      record = std::move(record_judged.record);
    }
  };
  ParsedRecords parsed = Spec(format).read_each(text, policy, judge);
  file.entries = parsed.entries;
  file.read_findings = parsed.findings;
  v1::FileReport& report = file.report;
  report.set_file(std::string(file_name));
  std::vector<v1::Finding> findings = std::move(parsed.findings);
  if (parsed.entries == 0 && findings.empty()) {
    // An empty file is not a record: saying "valid" would drop it silently.
    v1::Finding f;
    f.set_code(std::string(codes::kNoRecords));
    f.set_message("the input holds no record");
    findings.push_back(std::move(f));
  }
  for (v1::Finding& f : judged) findings.push_back(std::move(f));
  std::stable_sort(findings.begin(), findings.end(), [](const v1::Finding& a, const v1::Finding& b) {
    return a.record_index() < b.record_index();
  });
  const bool many = parsed.entries > 1;
  for (v1::Finding& f : findings) {
    if (!many) f.clear_record_index();
    // Messages may quote the text's bytes; Finding.message is a proto3
    // string, which a parser refuses unless it is UTF-8.
    if (!IsValidUtf8(f.message())) f.set_message(ValidUtf8(f.message()));
    *report.add_findings() = std::move(f);
  }
  report.set_valid(report.findings_size() == 0 && !file.over_limit && !file.stopped);
  if (file.over_limit || file.stopped) file.records.clear();
  return file;
}

}  // namespace

JudgedFile JudgeFile(absl::string_view file_name, absl::string_view text, Format format, const RulesPolicy& policy,
                     const JudgeOptions& options) {
  return JudgeText(file_name, text, format, policy, options, /*keep_records=*/true);
}

JudgedFile ValidateFile(absl::string_view file_name, absl::string_view text, Format format,
                        const RulesPolicy& policy, const JudgeLimits& limits) {
  JudgeOptions options;
  options.limits = limits;
  return JudgeText(file_name, text, format, policy, options, /*keep_records=*/false);
}

JudgedFile JudgeEach(absl::string_view file_name, absl::string_view text, Format format, const RulesPolicy& policy,
                     const JudgeOptions& options, const EachJudged& each) {
  return JudgeText(file_name, text, format, policy, options, /*keep_records=*/false, &each);
}

}  // namespace scribe
