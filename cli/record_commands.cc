#include "cli/record_commands.h"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/annotate_command.h"
#include "cli/common.h"
#include "cli/record_output.h"
#include "records/finding_codes.h"
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
  JsonList json(std::cout, o.format == "json" ? replayed : 0);
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

}  // namespace

// --from, as every record command has it.
void AddFromOption(CLI::App* cmd, std::string& from) {
  cmd->add_option("--from", from, "input format (default: by file name and content)")
      ->check(CLI::IsMember(FormatNames()));
}

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

  AddAnnotateCommand(app, registry);

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
