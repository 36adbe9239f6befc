#include "cli/record_commands.h"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.h"
#include "cli/record_output.h"
#include "engine/search.h"
#include "records/finding_codes.h"
#include "review/annotate.h"
#include "review/annotation_text.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "records/referee.h"

namespace scribe {
namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  std::string format = "text";
  std::string ruleset;
  std::string from;
};

int CmdValidate(const ValidateOptions& o) {
  auto io = ReaderOptions(o.ruleset);
  if (!io.ok()) return RulesetError(io.status());
  std::vector<PathEntry> files;
  bool all_read = ExpandPaths(o.files, &files);
  v1::ValidationReport report;
  bool all_valid = true;
  Progress progress(files.size());
  for (const PathEntry& entry : files) {
    // A reader that has gone away (a closed pipe) is not written to again.
    if (!std::cout) break;
    const std::string& path = entry.path;
    std::string text, error = entry.error;
    progress.Step();
    if (!error.empty() || !ReadFile(path, &text, &error)) {
      progress.Print(std::cerr, "scribe: " + TerminalText(error));
      all_read = false;
      // Said in the JSON report too, so no file goes missing from it.
      v1::FileReport* fr = report.add_files();
      fr->set_file(path);
      fr->set_valid(false);
      v1::Finding* f = fr->add_findings();
      f->set_code(std::string(codes::kFileUnreadable));
      f->set_message(error);
      continue;
    }
    v1::FileReport fr = ValidateFile(path, text, InputFormat(o.from, path, text), *io).report;
    all_valid = all_valid && fr.valid();
    if (o.format != "json") {
      if (fr.valid()) progress.Print(std::cout, TerminalText(fr.file()) + ": ok");
      for (const v1::Finding& finding : fr.findings()) progress.Print(std::cout, FindingToText(fr.file(), finding));
    }
    *report.add_files() = std::move(fr);
  }
  progress.Finish();
  if (o.format == "json") std::cout << MessageToJson(report) << "\n";
  if (!all_read) return kExitUsage;
  return all_valid ? kExitOk : kExitInvalid;
}

struct ConvertOptions {
  std::string file;
  std::string to;
  std::string from;
  std::string ruleset;
  bool tiles = false;
};

int CmdConvert(const ConvertOptions& o) {
  auto io = ReaderOptions(o.ruleset);
  if (!io.ok()) return RulesetError(io.status());
  std::string text;
  if (!ReadRecordFile(o.file, &text)) return kExitUsage;
  // Convert only what is whole and legal: a converter that passes on a
  // broken record writes a wrong one.
  const JudgedFile file = JudgeFile(o.file, text, InputFormat(o.from, o.file, text), *io);
  if (!file.report.valid()) {
    for (const v1::Finding& finding : file.report.findings()) std::cerr << FindingToText(o.file, finding) << "\n";
    std::cerr << "scribe: convert: " << o.file << " is not a legal record; nothing written\n";
    return kExitInvalid;
  }
  auto out = WriteRecords(*FormatFromName(o.to), file.records, {.tile_names = o.tiles});
  if (!out.ok()) {
    std::cerr << "scribe: convert: " << TerminalText(out.status().message()) << "\n";
    return kExitInvalid;
  }
  std::cout << *out;
  return kExitOk;
}

struct ReplayOptions {
  std::string file;
  std::string format = "text";
  std::string ruleset;
  std::string from;
  bool board = false;      // text: the board after every action
  std::string svg;         // write the SVG of one position here
  int at = -1;             // after this many actions; -1 the last
};

int CmdReplay(const ReplayOptions& o) {
  auto io = ReaderOptions(o.ruleset);
  if (!io.ok()) return RulesetError(io.status());
  std::string text;
  if (!ReadRecordFile(o.file, &text)) return kExitUsage;
  // The replay is made step by step as it is printed (ReplaySteps), never
  // held whole.
  JudgeOptions judge;
  judge.referee.build_replay = false;
  judge.referee.keep_positions = o.board || !o.svg.empty();
  const JudgedFile file = JudgeFile(o.file, text, InputFormat(o.from, o.file, text), *io, judge);
  // The findings as validate prints them, at their line and column (a file
  // that holds no record is not a replay of nothing: `no-records`).
  int exit_code = kExitOk;
  for (const v1::Finding& finding : file.report.findings()) {
    std::cerr << FindingToText(o.file, finding) << "\n";
    exit_code = kExitInvalid;
  }
  size_t replayed = 0;  // records the rules could replay
  for (const JudgedRecord& judged : file.records) replayed += judged.verdict.rules != nullptr;
  JsonList json(o.format == "json" ? replayed : 0);
  bool svg_written = false, svg_failed = false;
  for (const JudgedRecord& judged : file.records) {
    const RefereeResult& result = judged.verdict;
    if (result.rules == nullptr) continue;
    // A reader that has gone away (a closed pipe) is not written to again.
    if (!std::cout) break;
    if (o.format == "json") {
      json.Next();
      PrintReplayJson(result, judged.record);
    } else {
      PrintReplayText(result, judged.record, o.board);
    }
    // --svg draws the first record the rules could replay.
    if (!o.svg.empty() && !svg_written) {
      svg_written = true;
      svg_failed = !WriteSvg(result, judged.record, o.at, o.svg);
    }
  }
  if (o.format == "json") json.Finish();
  if (svg_failed) return kExitUsage;
  if (!o.svg.empty() && !svg_written) {
    std::cerr << "scribe: replay: no record to draw; " << o.svg << " not written\n";
    if (exit_code == kExitOk) exit_code = kExitInvalid;
  }
  return exit_code;
}

struct AnnotateOptions {
  std::string file;
  std::string format = "tsn";
  bool tiles = false;
  std::string ruleset;
  std::string from;
  // Winning chances (docs/annotation.md, "Winning chances"): exact, from a
  // solved `table` file (Scribe's or RoyalUr's .rgu), or estimated by a search `depth` throws deep when
  // it is 0 or more; `graph` is an SVG file for light's chance over the
  // first record.
  std::string table;
  int depth = -1;
  std::string graph;
  bool wants_chances() const { return !table.empty() || depth >= 0; }
};

// The exit code of an annotation that failed (a table of other rules is a
// usage error).
int AnnotateError(const absl::Status& s) {
  std::cerr << "scribe: annotate: " << TerminalText(s.message()) << "\n";
  return s.code() == absl::StatusCode::kFailedPrecondition ? kExitUsage : kExitInvalid;
}

// A record's whole annotation, with winning chances when `evaluator` is set.
absl::StatusOr<AnnotatedRecord> WholeAnnotation(const JudgedRecord& judged, const Evaluator* evaluator) {
  auto annotated = AnnotateRecord(judged);
  if (annotated.ok() && evaluator != nullptr) {
    if (absl::Status s = AddWinningChances(judged.record, *evaluator, &*annotated); !s.ok()) return s;
  }
  return annotated;
}

int CmdAnnotate(const AnnotateOptions& o) {
  if (!o.graph.empty() && !o.wants_chances()) {
    std::cerr << "scribe: annotate: --graph needs winning chances: --table FILE or --depth N\n";
    return kExitUsage;
  }
  auto io = ReaderOptions(o.ruleset);
  if (!io.ok()) return RulesetError(io.status());
  std::string text;
  if (!ReadRecordFile(o.file, &text)) return kExitUsage;
  // Annotate only what is whole and legal, as convert does; the positions
  // kept by the referee are the ones annotated.
  JudgedFile file = JudgeFile(o.file, text, InputFormat(o.from, o.file, text), *io,
                              {.referee = {.build_replay = false, .keep_positions = true}});
  if (!file.report.valid()) {
    for (const v1::Finding& finding : file.report.findings()) std::cerr << FindingToText(o.file, finding) << "\n";
    std::cerr << "scribe: annotate: " << o.file << " is not a legal record; nothing written\n";
    return kExitInvalid;
  }
  // One evaluator for the records of a file that share their rules, all
  // made before anything is written.
  std::vector<std::shared_ptr<const Evaluator>> evaluators;
  std::vector<const Evaluator*> evaluator_of(file.records.size(), nullptr);
  for (size_t k = 0; k < file.records.size() && o.wants_chances(); ++k) {
    const std::shared_ptr<const Rules>& rules = file.records[k].verdict.rules;
    if (evaluators.empty() || evaluators.back()->rules().digest != rules->digest) {
      auto made = TableOrSearch(o.table, o.depth, rules);
      if (!made.ok()) {
        std::cerr << "scribe: annotate: " << TerminalText(made.status().message()) << "\n";
        return kExitUsage;
      }
      evaluators.push_back(std::move(*made));
    }
    evaluator_of[k] = evaluators.back().get();
  }
  // --graph draws the first record, from its whole annotation.
  std::optional<AnnotatedRecord> first;
  if (!o.graph.empty() && !file.records.empty()) {
    auto annotated = WholeAnnotation(file.records.front(), evaluator_of.front());
    if (!annotated.ok()) return AnnotateError(annotated.status());
    if (!WriteChanceGraph(*annotated, file.records.front().record, o.graph)) return kExitUsage;
    first = std::move(*annotated);
  }
  if (o.format == "json") {
    // Each annotation is written as it is made, never held whole (but
    // the one --graph drew).
    JsonList json(file.records.size());
    for (size_t k = 0; k < file.records.size() && std::cout; ++k) {
      json.Next();
      if (k == 0 && first) {
        std::cout << MessageToJson(AnnotationToProto(*first, file.records[k].record.ruleset()));
      } else if (absl::Status s = PrintAnnotationJson(file.records[k], evaluator_of[k]); !s.ok()) {
        return AnnotateError(s);
      }
    }
    json.Finish();
    return kExitOk;
  }
  std::vector<JudgedRecord> annotated_records;
  for (size_t k = 0; k < file.records.size(); ++k) {
    JudgedRecord& judged = file.records[k];
    absl::StatusOr<AnnotatedRecord> annotated =
        k == 0 && first ? absl::StatusOr<AnnotatedRecord>(std::move(*first)) : WholeAnnotation(judged, evaluator_of[k]);
    if (!annotated.ok()) return AnnotateError(annotated.status());
    // The annotations change comments only: the verdict stands.
    const SquareStyle style = o.tiles ? SquareStyle::kTiles : SquareStyle::kPathNumbers;
    annotated_records.push_back(
        {WithAnnotations(judged.record, *annotated, style), std::move(judged.verdict), judged.index});
  }
  auto out = WriteRecords(Format::kTsn, annotated_records, {.tile_names = o.tiles});
  if (!out.ok()) {
    std::cerr << "scribe: annotate: " << TerminalText(out.status().message()) << "\n";
    return kExitInvalid;
  }
  std::cout << *out;
  return kExitOk;
}

// --from, as every record command has it.
void AddFromOption(CLI::App* cmd, std::string& from) {
  cmd->add_option("--from", from, "input format (default: by file name and content)")
      ->check(CLI::IsMember(FormatNames()));
}

}  // namespace

void AddRecordCommands(CLI::App& app, CommandRegistry& registry) {
  auto [replay, r] = registry.Add(app, "replay", "Replay a record, throw by throw", CmdReplay);
  replay->add_option("FILE", r.file, "record file (- for standard input)")->required();
  replay->add_option("--format", r.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  replay->add_option("--ruleset", r.ruleset, "use this ruleset (reference or file)");
  AddFromOption(replay, r.from);
  replay->add_flag("--board", r.board, "text: print the board after every action");
  replay->add_option("--svg", r.svg, "write an SVG picture of the position to this file");
  replay->add_option("--at", r.at,
                     "with --svg: the position after this many actions (0: the start; default: the last)")
      ->check(CLI::NonNegativeNumber)
      ->needs(replay->get_option("--svg"));

  auto [annotate, a] =
      registry.Add(app, "annotate", "Annotate a record: what each move did and how it ranks", CmdAnnotate);
  annotate->add_option("FILE", a.file, "record file (- for standard input)")->required();
  annotate->add_option("--format", a.format, "tsn (the record with annotations) or json")
      ->check(CLI::IsMember({"tsn", "json"}));
  annotate->add_flag("--tiles", a.tiles, "TSN: write squares as tile names (A4) instead of path numbers");
  annotate->add_option("--ruleset", a.ruleset, "use this ruleset (reference or file)");
  AddFromOption(annotate, a.from);
  auto* table =
      annotate->add_option("--table", a.table, "exact winning chances from this solved table (scribe solve)");
  annotate->add_option("--depth", a.depth, "winning chances estimated by a search this many throws deep")
      ->check(CLI::Range(0, kMaxSearchDepth))
      ->excludes(table);
  annotate->add_option("--graph", a.graph,
                       "with winning chances: an SVG graph of light's chance over the (first) record");

  auto [validate, v] = registry.Add(app, "validate", "Check that records are legal games", CmdValidate);
  validate->add_option("FILE", v.files, "record files or directories")->required();
  validate->add_option("--format", v.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  validate->add_option("--ruleset", v.ruleset, "use this ruleset (reference or file)");
  AddFromOption(validate, v.from);

  auto [convert, c] = registry.Add(app, "convert", "Convert records to another format", CmdConvert);
  convert->add_option("FILE", c.file, "record file (- for standard input)")->required();
  convert->add_option("--to", c.to, "output format")->required()->check(CLI::IsMember(FormatNames()));
  AddFromOption(convert, c.from);
  convert->add_option("--ruleset", c.ruleset, "the ruleset, for formats that do not name one");
  convert->add_flag("--tiles", c.tiles, "TSN: write squares as tile names (A4) instead of path numbers");
}

}  // namespace scribe
