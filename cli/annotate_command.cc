#include "cli/annotate_command.h"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/common.h"
#include "cli/record_commands.h"
#include "cli/record_output.h"
#include "engine/search.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "review/annotate.h"
#include "review/annotation_text.h"
#include "review/pipeline.h"

namespace scribe {
namespace {

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
                              {.referee = {.build_replay = false, .keep_positions = true}, .limits = {}});
  if (!file.report.valid()) {
    for (const v1::Finding& finding : file.report.findings()) std::cerr << FindingToText(o.file, finding) << "\n";
    std::cerr << "scribe: annotate: " << o.file << " is not a legal record; nothing written\n";
    return kExitInvalid;
  }
  // The analysis (review/pipeline.h): winning chances from --table or a
  // search of --depth, no review.
  AnalysisOptions options;
  options.review = false;
  if (o.wants_chances()) {
    options.chances = std::make_shared<const EvaluatorSource>(
        [&o](const std::shared_ptr<const Rules>& rules) { return TableOrSearch(o.table, o.depth, rules); });
  }
  const Analyzer analyzer(std::move(options));
  // Every record's evaluator made before anything is written.
  std::vector<std::shared_ptr<const Evaluator>> evaluator_of(file.records.size());
  for (size_t k = 0; k < file.records.size() && o.wants_chances(); ++k) {
    auto made = analyzer.EvaluatorFor(file.records[k].verdict.rules);
    if (!made.ok()) {
      std::cerr << "scribe: annotate: " << TerminalText(made.status().message()) << "\n";
      return kExitUsage;
    }
    evaluator_of[k] = *std::move(made);
  }
  // --graph draws the first record, from its whole annotation.
  std::optional<AnnotatedRecord> first;
  if (!o.graph.empty() && !file.records.empty()) {
    auto analysis = analyzer.Analyze(file.records.front());
    if (!analysis.ok()) return AnnotateError(analysis.status());
    if (!WriteChanceGraph(analysis->annotated, file.records.front().record, o.graph)) return kExitUsage;
    first = std::move(analysis->annotated);
  }
  if (o.format == "json") {
    // Each annotation is written as it is made, action by action, never
    // held whole (but the one --graph drew).
    JsonList json(std::cout, file.records.size());
    for (size_t k = 0; k < file.records.size() && std::cout; ++k) {
      json.Next();
      if (k == 0 && first) {
        std::cout << MessageToJson(AnnotationToProto(*first, file.records[k].record.ruleset()));
      } else if (absl::Status s = PrintAnnotationJson(file.records[k], evaluator_of[k].get()); !s.ok()) {
        return AnnotateError(s);
      }
    }
    json.Finish();
    return kExitOk;
  }
  std::vector<JudgedRecord> annotated_records;
  for (size_t k = 0; k < file.records.size(); ++k) {
    JudgedRecord& judged = file.records[k];
    absl::StatusOr<AnnotatedRecord> annotated;
    if (k == 0 && first) {
      annotated = std::move(*first);
    } else {
      auto analysis = analyzer.Analyze(judged);
      if (!analysis.ok()) return AnnotateError(analysis.status());
      annotated = std::move(analysis->annotated);
    }
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

}  // namespace

void AddAnnotateCommand(CLI::App& app, CommandRegistry& registry) {
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
}

}  // namespace scribe
