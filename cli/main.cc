// scribe: the command line over Scribe's engine and records library.
//
// A thin shell: it parses flags, reads files, calls the libraries and prints.
// Exit codes: 0 success (every record valid), 1 a record is not a legal game
// (or not a record at all), 2 a usage error or a file that cannot be read.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <algorithm>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "cli/common.h"
#include "cli/analysis_commands.h"
#include "cli/solve_command.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/perft.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "analysis/table.h"
#include "review/annotate.h"
#include "review/annotation_text.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "records/referee.h"
#include "review/render.h"

namespace scribe {
namespace {

int CmdRulesets() {
  for (const PresetInfo& p : Presets()) {
    auto rules = LoadRuleset(p.id);
    std::string names = p.id;
    for (const std::string& a : p.aliases) absl::StrAppend(&names, " (alias ", a, ")");
    std::cout << absl::StrFormat("%-26s %s  %s\n", names, rules.ok() ? (*rules)->digest : "?", p.title);
  }
  std::cout << absl::StrFormat("%-26s %s  %s\n", "tablet-betting", "-", "declined: no complete rules survive");
  return kExitOk;
}

int CmdRulesetShow(const std::string& ref) {
  auto rules = CliRuleset(ref);
  if (!rules.ok()) return RulesetError(rules.status());
  std::cout << "# digest: " << (*rules)->digest << "\n" << RulesetToText((*rules)->ruleset);
  return kExitOk;
}

int CmdPlay(const std::string& ref, uint64_t seed) {
  auto loaded = CliRuleset(ref);
  if (!loaded.ok()) return RulesetError(loaded.status());
  const Rules& rules = **loaded;
  Rng rng(seed);
  v1::GameRecord record;
  record.set_ruleset(rules.ruleset.id().empty() ? ref : rules.ruleset.id());
  record.set_ruleset_digest(rules.digest);
  (*record.mutable_tags())["Light"] = "random";
  (*record.mutable_tags())["Dark"] = "random";
  (*record.mutable_tags())["Seed"] = absl::StrCat(seed);
  Side first = kLight;
  if (rules.opening == v1::OPENING_THROW_OFF) {
    while (true) {
      v1::OpeningThrow* t = record.add_opening();
      t->set_light(rng.Throw(rules));
      t->set_dark(rng.Throw(rules));
      if (t->light() != t->dark()) {
        first = t->light() > t->dark() ? kLight : kDark;
        break;
      }
    }
    record.set_first_player(ToPlayer(first));
  }
  Position pos = StartPosition(rules, first);
  MoveList moves;
  constexpr int kMaxActions = 1000000;
  while (!IsOver(rules, pos)) {
    if (record.actions_size() >= kMaxActions) {
      std::cerr << "scribe: play: no winner after " << kMaxActions << " throws\n";
      return kExitInvalid;
    }
    v1::Action* a = record.add_actions();
    const int roll = rng.Throw(rules);
    a->set_roll(roll);
    LegalMoves(rules, pos, roll, &moves);
    if (moves.empty()) {
      PassTurn(&pos);
      continue;
    }
    const Move m = moves[rng.Below(moves.size())];
    a->set_from(m.from);
    a->set_to(m.to);
    ApplyMove(rules, &pos, m);
  }
  std::cout << WriteJsonRecord(record) << "\n";
  return kExitOk;
}

// The record files named on the command line: files as they are,
// directories searched for .tsn and .json files, in name order.
bool ExpandPaths(const std::vector<std::string>& paths, std::vector<std::string>* out) {
  bool ok = true;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path != "-" && std::filesystem::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const std::string ext = it->path().extension().string();
        if (ext == ".tsn" || ext == ".json" || ext == ".rgn") found.push_back(it->path().string());
      }
      if (ec) {
        std::cerr << "scribe: " << path << ": " << ec.message() << "\n";
        ok = false;
      }
      std::sort(found.begin(), found.end());
      out->insert(out->end(), found.begin(), found.end());
    } else {
      out->push_back(path);
    }
  }
  return ok;
}

// The input format: --from when given, else by name and content.
Format InputFormat(const std::string& from, const std::string& path, absl::string_view text) {
  if (!from.empty()) return *FormatFromName(from);
  return DetectFormat(path, text);
}

// A progress bar on standard error, when it is a terminal and the run is
// long enough to want one.
class Progress {
 public:
  explicit Progress(size_t total) : total_(total), enabled_(total >= 20 && isatty(STDERR_FILENO)) {}
  ~Progress() {
    if (enabled_ && drawn_) std::cerr << "\r\033[K" << std::flush;
  }
  void Step() {
    ++done_;
    if (!enabled_) return;
    const int width = 40;
    const int filled = static_cast<int>(width * done_ / total_);
    if (filled == last_ && done_ != total_) return;
    last_ = filled;
    drawn_ = true;
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, ' ') << "] " << done_ << "/"
              << total_ << " files" << std::flush;
  }

 private:
  size_t total_, done_ = 0;
  bool enabled_, drawn_ = false;
  int last_ = -1;
};

std::string FindingToText(const std::string& file, const v1::Finding& f) {
  std::string where = file;
  if (f.has_line()) absl::StrAppend(&where, ":", f.line(), ":", f.column());
  std::string context;
  if (f.has_record_index()) absl::StrAppend(&context, "record ", f.record_index());
  if (f.has_action_index()) {
    absl::StrAppend(&context, context.empty() ? "" : ", ", "action ", f.action_index());
  }
  return absl::StrCat(where, ": error[", f.code(), "]: ", f.message(),
                      context.empty() ? "" : absl::StrCat(" (", context, ")"));
}

int CmdValidate(const std::vector<std::string>& paths, const std::string& format,
                const std::string& ruleset_ref, const std::string& from) {
  RecordIo io;
  if (!ruleset_ref.empty()) {
    auto r = CliRuleset(ruleset_ref);
    if (!r.ok()) return RulesetError(r.status());
    io.rules = *r;
    // Formats that name no ruleset (RGN) take this one's name.
    io.ruleset = (*r)->ruleset.id().empty() ? ruleset_ref : (*r)->ruleset.id();
  }
  std::vector<std::string> files;
  bool all_read = ExpandPaths(paths, &files);
  v1::ValidationReport report;
  bool all_valid = true;
  Progress progress(files.size());
  for (const std::string& path : files) {
    std::string text, error;
    progress.Step();
    if (!ReadFile(path, &text, &error)) {
      std::cerr << "scribe: " << error << "\n";
      all_read = false;
      // Said in the JSON report too, so no file goes missing from it.
      v1::FileReport* fr = report.add_files();
      fr->set_file(path);
      fr->set_valid(false);
      v1::Finding* f = fr->add_findings();
      f->set_code("file-unreadable");
      f->set_message(error);
      continue;
    }
    v1::FileReport fr = ValidateText(path, text, InputFormat(from, path, text), io);
    all_valid = all_valid && fr.valid();
    if (format != "json") {
      if (fr.valid()) std::cout << fr.file() << ": ok\n";
      for (const v1::Finding& finding : fr.findings()) std::cout << FindingToText(fr.file(), finding) << "\n";
    }
    *report.add_files() = std::move(fr);
  }
  if (format == "json") std::cout << MessageToJson(report) << "\n";
  if (!all_read) return kExitUsage;
  return all_valid ? kExitOk : kExitInvalid;
}

int CmdConvert(const std::string& path, const std::string& to, const std::string& from,
               const std::string& ruleset_ref, bool tiles) {
  RecordIo io;
  io.tile_names = tiles;
  if (!ruleset_ref.empty()) {
    auto r = CliRuleset(ruleset_ref);
    if (!r.ok()) return RulesetError(r.status());
    io.rules = *r;
    io.ruleset = (*r)->ruleset.id().empty() ? ruleset_ref : (*r)->ruleset.id();
  }
  std::string text, error;
  if (!ReadFile(path, &text, &error)) {
    std::cerr << "scribe: " << error << "\n";
    return kExitUsage;
  }
  // Convert only what is whole and legal: a converter that passes on a
  // broken record writes a wrong one.
  const JudgedFile file = ReadLegalRecords(path, text, InputFormat(from, path, text), io);
  if (!file.report.valid()) {
    for (const v1::Finding& finding : file.report.findings()) std::cerr << FindingToText(path, finding) << "\n";
    std::cerr << "scribe: convert: " << path << " is not a legal record; nothing written\n";
    return kExitInvalid;
  }
  auto out = WriteRecords(*FormatFromName(to), file.records, io);
  if (!out.ok()) {
    std::cerr << "scribe: convert: " << out.status().message() << "\n";
    return kExitInvalid;
  }
  std::cout << *out;
  return kExitOk;
}

std::string MoveText(const Rules& rules, Side side, int from, int to) {
  auto square = [&](int i) -> std::string {
    if (i == 0) return "waiting";
    if (i == rules.off) return "off";
    return absl::StrCat(rules.TileNameAt(side, i), "(", i, ")");
  };
  return absl::StrCat(square(from), " -> ", square(to));
}

// With `board`, the text board of the start and of the position after every
// action (records/render.h) follows each line.
void PrintReplayText(const RefereeResult& result, const v1::GameRecord& record, bool board = false) {
  const Rules& rules = *result.rules;
  static const std::vector<Position> kNone;
  const std::vector<Position>& positions = board ? result.positions : kNone;
  std::cout << "ruleset " << result.replay.ruleset() << " (digest " << rules.digest << ")\n";
  const std::map<std::string, std::string> tags(record.tags().begin(), record.tags().end());
  for (const auto& [key, value] : tags) std::cout << "  " << key << ": " << value << "\n";
  std::cout << SideName(result.replay.first_player() == v1::DARK ? kDark : kLight) << " moves first\n";
  if (!positions.empty()) std::cout << TextBoard(rules, positions[0]);
  for (const v1::ReplayStep& step : result.replay.actions()) {
    const Side side = step.player() == v1::DARK ? kDark : kLight;
    std::string line = absl::StrFormat("%4d  %-5s throws %d: ", step.index(), SideName(side), step.roll());
    if (!step.has_move()) {
      absl::StrAppend(&line, step.roll() == 0 ? "no move (a throw of 0)" : "no legal move, passes");
    } else {
      absl::StrAppend(&line, MoveText(rules, side, step.move().from(), step.move().to()));
      if (step.move().from() == 0) absl::StrAppend(&line, ", enters");
      if (step.captured() > 0) absl::StrAppend(&line, ", captures ", step.captured());
      if (step.move().to() == rules.off) absl::StrAppend(&line, ", bears off");
      if (step.placed()) absl::StrAppend(&line, ", places a waiting piece");
      if (step.extra_roll()) absl::StrAppend(&line, ", throws again");
      if (step.legal_size() == 1) absl::StrAppend(&line, " (forced)");
      else absl::StrAppend(&line, " (", step.legal_size(), " choices)");
    }
    std::cout << line << "\n";
    const size_t after = static_cast<size_t>(step.index()) + 1;
    if (after < positions.size()) std::cout << TextBoard(rules, positions[after]);
  }
  const Position& pos = result.final_position;
  for (Side s : {kLight, kDark}) {
    std::cout << absl::StrFormat("%-5s: %d waiting, %d on the board, %d borne off\n", SideName(s),
                                 pos.count[s][0],
                                 rules.pieces - pos.count[s][0] - pos.count[s][rules.off],
                                 pos.count[s][rules.off]);
  }
  if (!result.valid()) std::cout << "stopped: the record breaks the rules here\n";
  else if (result.winner) std::cout << "winner: " << SideName(*result.winner) << "\n";
  else std::cout << "unfinished: " << SideName(pos.to_move) << " to throw\n";
}

struct ReplayOptions {
  std::string format = "text";
  std::string ruleset;
  std::string from;
  bool board = false;      // text: the board after every action
  std::string svg;         // write the SVG of one position here
  int at = -1;             // after this many actions; -1 the last
};

// Writes the SVG of the record's position after `at` actions (-1: all of
// them that are legal). False, with a message, when there is no such
// position or the file cannot be written.
bool WriteSvg(const RefereeResult& verdict, const v1::GameRecord& record, int at, const std::string& path) {
  const Rules& rules = *verdict.rules;
  const int judged = static_cast<int>(verdict.outcomes.size());
  if (at > record.actions_size()) {
    std::cerr << "scribe: replay: --at " << at << ": the record has " << record.actions_size() << " actions\n";
    return false;
  }
  if (at > judged) {
    std::cerr << "scribe: replay: --at " << at << ": only the first " << judged
              << " actions are legal; there is no position after " << at << "\n";
    return false;
  }
  std::vector<Position> positions = verdict.positions;
  if (at >= 0 && positions.size() > static_cast<size_t>(at) + 1) positions.resize(at + 1);
  if (positions.empty()) {
    std::cerr << "scribe: replay: the record has no start position to draw\n";
    return false;
  }
  const int n = static_cast<int>(positions.size()) - 1;
  SvgOptions options;
  const std::string name = record.ruleset().empty() ? rules.ruleset.id() : record.ruleset();
  const Position& pos = positions.back();
  const std::string status = Winner(rules, pos) ? absl::StrCat(SideName(*Winner(rules, pos)), " has won")
                                                : absl::StrCat(SideName(pos.to_move), " to throw");
  options.caption = n == 0 ? absl::StrCat(name, " \xE2\x80\x94 the start, ", status)
                           : absl::StrCat(name, " \xE2\x80\x94 after ", n, n == 1 ? " action, " : " actions, ", status);
  std::ofstream out(path, std::ios::binary);
  out << SvgBoard(rules, pos, options);
  out.close();
  if (!out) {
    std::cerr << "scribe: replay: cannot write " << path << ": " << std::strerror(errno) << "\n";
    return false;
  }
  return true;
}

int CmdReplay(const std::string& path, const ReplayOptions& opts) {
  std::shared_ptr<const Rules> forced;
  if (!opts.ruleset.empty()) {
    auto r = CliRuleset(opts.ruleset);
    if (!r.ok()) return RulesetError(r.status());
    forced = *r;
  }
  std::string text, error;
  if (!ReadFile(path, &text, &error)) {
    std::cerr << "scribe: " << error << "\n";
    return kExitUsage;
  }
  RecordIo io;
  io.rules = forced;
  if (forced != nullptr) io.ruleset = forced->ruleset.id().empty() ? opts.ruleset : forced->ruleset.id();
  JudgeOptions judge;
  judge.referee.build_replay = true;
  judge.referee.keep_positions = opts.board || !opts.svg.empty();
  const JudgedFile file = JudgeFile(path, text, InputFormat(opts.from, path, text), io, judge);
  int exit_code = kExitOk;
  for (const v1::Finding& finding : file.read_findings) {
    std::cerr << FindingToText(path, finding) << "\n";
    exit_code = kExitInvalid;
  }
  std::vector<std::string> json;
  bool svg_written = false, svg_failed = false;
  for (const JudgedRecord& judged : file.records) {
    const RefereeResult& result = judged.verdict;
    if (result.rules == nullptr) {
      for (const v1::Finding& finding : result.findings) std::cerr << FindingToText(path, finding) << "\n";
      exit_code = kExitInvalid;
      continue;
    }
    if (opts.format == "json") json.push_back(MessageToJson(result.replay));
    else PrintReplayText(result, judged.record, opts.board);
    for (const v1::Finding& finding : result.findings) {
      std::cerr << FindingToText(path, finding) << "\n";
      exit_code = kExitInvalid;
    }
    // --svg draws the first record the rules could replay.
    if (!opts.svg.empty() && !svg_written) {
      svg_written = true;
      svg_failed = !WriteSvg(result, judged.record, opts.at, opts.svg);
    }
  }
  if (opts.format == "json") {
    if (json.size() == 1) std::cout << json[0] << "\n";
    else std::cout << "[" << absl::StrJoin(json, ",\n") << "]\n";
  }
  if (svg_failed) return kExitUsage;
  if (!opts.svg.empty() && !svg_written) {
    std::cerr << "scribe: replay: no record to draw; " << opts.svg << " not written\n";
    if (exit_code == kExitOk) exit_code = kExitInvalid;
  }
  return exit_code;
}

// Winning chances for `scribe annotate` (docs/annotation.md, "Winning
// chances"): exact, from a solved `table` file, or estimated by a search
// `depth` throws deep when it is 0 or more; `graph` is an SVG file for
// light's chance over the first record.
struct AnnotateValueOptions {
  std::string table;
  int depth = -1;
  std::string graph;
  bool wanted() const { return !table.empty() || depth >= 0; }
};

// The evaluator for a record's rules: a table for other rules is refused
// (FAILED_PRECONDITION, naming both digests).
absl::StatusOr<std::unique_ptr<Evaluator>> AnnotateEvaluator(const AnnotateValueOptions& options,
                                                             std::shared_ptr<const Rules> rules) {
  if (!options.table.empty()) {
    auto table = TableEvaluator::Open(options.table, std::move(rules));
    if (!table.ok()) {
      return absl::Status(table.status().code(),
                          absl::StrCat("--table: ", table.status().message()));
    }
    return std::unique_ptr<Evaluator>(std::move(*table));
  }
  return std::unique_ptr<Evaluator>(std::make_unique<SearchEvaluator>(std::move(rules), options.depth));
}

bool WriteChanceGraph(const AnnotatedRecord& annotated, const v1::GameRecord& record, const std::string& path) {
  ChanceGraphOptions options;
  const auto tag = [&](const std::string& key) {
    auto it = record.tags().find(key);
    return it == record.tags().end() ? std::string() : it->second;
  };
  if (!tag("Light").empty() && !tag("Dark").empty() && annotated.values) {
    options.caption = absl::StrCat("light's winning chance (", tag("Light"), " against ", tag("Dark"),
                                   ") \xE2\x80\x94 ", annotated.values->evaluator, " (",
                                   annotated.values->exact ? "exact" : "estimate", ")");
  }
  auto svg = SvgChanceGraph(annotated, options);
  if (!svg.ok()) {
    std::cerr << "scribe: annotate: " << svg.status().message() << "\n";
    return false;
  }
  std::ofstream out(path, std::ios::binary);
  out << *svg;
  out.close();
  if (!out) {
    std::cerr << "scribe: annotate: cannot write " << path << ": " << std::strerror(errno) << "\n";
    return false;
  }
  return true;
}

int CmdAnnotate(const std::string& path, const std::string& format, bool tiles, const std::string& ruleset_ref,
                const std::string& from, const AnnotateValueOptions& values) {
  if (!values.graph.empty() && !values.wanted()) {
    std::cerr << "scribe: annotate: --graph needs winning chances: --table FILE or --depth N\n";
    return kExitUsage;
  }
  std::shared_ptr<const Rules> forced;
  if (!ruleset_ref.empty()) {
    auto r = CliRuleset(ruleset_ref);
    if (!r.ok()) return RulesetError(r.status());
    forced = *r;
  }
  std::string text, error;
  if (!ReadFile(path, &text, &error)) {
    std::cerr << "scribe: " << error << "\n";
    return kExitUsage;
  }
  const Format in = InputFormat(from, path, text);
  RecordIo io;
  io.tile_names = tiles;
  io.rules = forced;
  if (forced != nullptr) io.ruleset = forced->ruleset.id().empty() ? ruleset_ref : forced->ruleset.id();
  // Annotate only what is whole and legal, as convert does.
  JudgedFile file = ReadLegalRecords(path, text, in, io, {.build_replay = false, .keep_positions = true});
  if (!file.report.valid()) {
    for (const v1::Finding& finding : file.report.findings()) std::cerr << FindingToText(path, finding) << "\n";
    std::cerr << "scribe: annotate: " << path << " is not a legal record; nothing written\n";
    return kExitInvalid;
  }
  std::vector<JudgedRecord> annotated_records;
  std::vector<std::string> json;
  std::unique_ptr<Evaluator> evaluator;
  for (JudgedRecord& judged : file.records) {
    const v1::GameRecord& record = judged.record;
    auto annotated = AnnotateRecord(judged);
    if (!annotated.ok()) {
      std::cerr << "scribe: annotate: " << annotated.status().message() << "\n";
      return kExitInvalid;
    }
    if (values.wanted()) {
      // One evaluator for the records of a file that share their rules.
      if (evaluator == nullptr || evaluator->rules().digest != annotated->rules->digest) {
        auto made = AnnotateEvaluator(values, annotated->rules);
        if (!made.ok()) {
          std::cerr << "scribe: annotate: " << made.status().message() << "\n";
          return kExitUsage;
        }
        evaluator = std::move(*made);
      }
      if (absl::Status s = AddWinningChances(record, *evaluator, &*annotated); !s.ok()) {
        std::cerr << "scribe: annotate: " << s.message() << "\n";
        return s.code() == absl::StatusCode::kFailedPrecondition ? kExitUsage : kExitInvalid;
      }
      // --graph draws the first record.
      if (!values.graph.empty() && &judged == &file.records.front() &&
          !WriteChanceGraph(*annotated, record, values.graph)) {
        return kExitUsage;
      }
    }
    if (format == "json") {
      json.push_back(MessageToJson(AnnotationToProto(*annotated, record.ruleset())));
    } else {
      // The annotations change comments only: the verdict stands.
      annotated_records.push_back({WithAnnotations(record, *annotated, tiles ? SquareStyle::kTiles : SquareStyle::kPathNumbers),
                                   std::move(judged.verdict), judged.index});
    }
  }
  if (format == "json") {
    if (json.size() == 1) std::cout << json[0] << "\n";
    else std::cout << "[" << absl::StrJoin(json, ",\n") << "]\n";
    return kExitOk;
  }
  auto out = WriteRecords(Format::kTsn, annotated_records, io);
  if (!out.ok()) {
    std::cerr << "scribe: annotate: " << out.status().message() << "\n";
    return kExitInvalid;
  }
  std::cout << *out;
  return kExitOk;
}

int CmdPerft(const std::string& ref, int depth) {
  auto rules = CliRuleset(ref);
  if (!rules.ok()) return RulesetError(rules.status());
  std::cout << Perft(**rules, StartPosition(**rules), depth) << "\n";
  return kExitOk;
}

int Main(int argc, char** argv) {
  CLI::App app{"scribe: rules referee and game records for the Royal Game of Ur family"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "scribe 0.1.0");

  app.add_subcommand("rulesets", "List the built-in rulesets with their digests");

  auto* ruleset_cmd = app.add_subcommand("ruleset", "Inspect a ruleset");
  ruleset_cmd->require_subcommand(1);
  auto* show = ruleset_cmd->add_subcommand("show", "Print a resolved ruleset (every parameter)");
  std::string show_ref;
  show->add_option("REF", show_ref, "preset, preset(key=value,...) or a ruleset file")->required();

  auto* play = app.add_subcommand("play", "Play a random legal game; print it as a JSON record");
  std::string play_ref;
  uint64_t seed = 1;
  play->add_option("--ruleset", play_ref, "ruleset reference or file")->required();
  play->add_option("--seed", seed, "random seed (same seed, same game)");

  auto* replay = app.add_subcommand("replay", "Replay a record, throw by throw");
  std::string replay_file, replay_format = "text", replay_ruleset;
  replay->add_option("FILE", replay_file, "record file (- for standard input)")->required();
  replay->add_option("--format", replay_format, "text or json")->check(CLI::IsMember({"text", "json"}));
  replay->add_option("--ruleset", replay_ruleset, "use this ruleset (reference or file)");
  std::string replay_from;
  replay->add_option("--from", replay_from, "input format (default: by file name and content)")
      ->check(CLI::IsMember(FormatNames()));
  bool replay_board = false;
  std::string replay_svg;
  int replay_at = -1;
  replay->add_flag("--board", replay_board, "text: print the board after every action");
  replay->add_option("--svg", replay_svg, "write an SVG picture of the position to this file");
  auto* replay_at_opt = replay->add_option("--at", replay_at,
                                           "with --svg: the position after this many actions (0: the start; "
                                           "default: the last)")
                            ->check(CLI::NonNegativeNumber);
  replay_at_opt->needs(replay->get_option("--svg"));

  auto* annotate = app.add_subcommand("annotate", "Annotate a record: what each move did and how it ranks");
  std::string annotate_file, annotate_format = "tsn", annotate_ruleset, annotate_from;
  bool annotate_tiles = false;
  annotate->add_option("FILE", annotate_file, "record file (- for standard input)")->required();
  annotate->add_option("--format", annotate_format, "tsn (the record with annotations) or json")
      ->check(CLI::IsMember({"tsn", "json"}));
  annotate->add_flag("--tiles", annotate_tiles, "TSN: write squares as tile names (A4) instead of path numbers");
  annotate->add_option("--ruleset", annotate_ruleset, "use this ruleset (reference or file)");
  annotate->add_option("--from", annotate_from, "input format (default: by file name and content)")
      ->check(CLI::IsMember(FormatNames()));
  AnnotateValueOptions annotate_values;
  auto* annotate_table = annotate->add_option("--table", annotate_values.table,
                                              "exact winning chances from this solved table (scribe solve)");
  annotate->add_option("--depth", annotate_values.depth,
                       "winning chances estimated by a search this many throws deep")
      ->check(CLI::Range(0, kMaxSearchDepth))
      ->excludes(annotate_table);
  annotate->add_option("--graph", annotate_values.graph,
                       "with winning chances: an SVG graph of light's chance over the (first) record");

  auto* validate = app.add_subcommand("validate", "Check that records are legal games");
  std::vector<std::string> validate_files;
  std::string validate_format = "text", validate_ruleset;
  validate->add_option("FILE", validate_files, "record files or directories")->required();
  validate->add_option("--format", validate_format, "text or json")->check(CLI::IsMember({"text", "json"}));
  validate->add_option("--ruleset", validate_ruleset, "use this ruleset (reference or file)");
  std::string validate_from;
  validate->add_option("--from", validate_from, "input format (default: by file name and content)")
      ->check(CLI::IsMember(FormatNames()));

  auto* convert = app.add_subcommand("convert", "Convert records to another format");
  std::string convert_file, convert_to, convert_from, convert_ruleset;
  bool convert_tiles = false;
  convert->add_option("FILE", convert_file, "record file (- for standard input)")->required();
  convert->add_option("--to", convert_to, "output format")->required()->check(CLI::IsMember(FormatNames()));
  convert->add_option("--from", convert_from, "input format (default: by file name and content)")
      ->check(CLI::IsMember(FormatNames()));
  convert->add_option("--ruleset", convert_ruleset, "the ruleset, for formats that do not name one");
  convert->add_flag("--tiles", convert_tiles, "TSN: write squares as tile names (A4) instead of path numbers");

  auto* perft = app.add_subcommand("perft", "Count the leaves of the game tree N throws deep");
  std::string perft_ref;
  int depth = 1;
  perft->add_option("--ruleset", perft_ref, "ruleset reference or file")->required();
  perft->add_option("--depth", depth, "throws deep")->required()->check(CLI::Range(0, 12));

  AddSolveCommands(app);
  AddAnalysisCommands(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (const int code = RunSolveCommands(); code >= 0) return code;
  if (const int code = RunAnalysisCommands(); code >= 0) return code;
  if (app.got_subcommand("rulesets")) return CmdRulesets();
  if (ruleset_cmd->parsed()) return CmdRulesetShow(show_ref);
  if (play->parsed()) return CmdPlay(play_ref, seed);
  if (replay->parsed()) {
    ReplayOptions options;
    options.format = replay_format;
    options.ruleset = replay_ruleset;
    options.from = replay_from;
    options.board = replay_board;
    options.svg = replay_svg;
    options.at = replay_at;
    return CmdReplay(replay_file, options);
  }
  if (annotate->parsed()) {
    return CmdAnnotate(annotate_file, annotate_format, annotate_tiles, annotate_ruleset, annotate_from,
                       annotate_values);
  }
  if (validate->parsed()) return CmdValidate(validate_files, validate_format, validate_ruleset, validate_from);
  if (convert->parsed()) return CmdConvert(convert_file, convert_to, convert_from, convert_ruleset, convert_tiles);
  if (perft->parsed()) return CmdPerft(perft_ref, depth);
  return kExitUsage;
}

}  // namespace
}  // namespace scribe

int main(int argc, char** argv) { return scribe::Main(argc, argv); }
