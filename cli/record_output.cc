#include "cli/record_output.h"

#include <unistd.h>

#include <sys/stat.h>

#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/common.h"
#include "engine/position.h"
#include "records/json_record.h"
#include "review/annotation_text.h"
#include "review/render.h"

namespace scribe {

namespace {

// Standard output and standard error are the same terminal.
bool SameTerminal() {
  struct stat out, err;
  return isatty(STDOUT_FILENO) && ::fstat(STDOUT_FILENO, &out) == 0 && ::fstat(STDERR_FILENO, &err) == 0 &&
         out.st_rdev == err.st_rdev;
}

}  // namespace

Progress::Progress(size_t total) : total_(total), enabled_(total >= 20 && isatty(STDERR_FILENO)) {
  if (enabled_) stdout_on_bar_ = SameTerminal();
}

Progress::~Progress() { Finish(); }

void Progress::Step() {
  ++done_;
  if (!enabled_) return;
  const int width = 40;
  const int filled = static_cast<int>(width * done_ / total_);
  if (filled == last_ && done_ != total_) return;
  last_ = filled;
  Draw();
}

void Progress::Draw() {
  const int width = 40;
  drawn_ = true;
  std::cerr << "\r[" << std::string(last_, '#') << std::string(width - last_, ' ') << "] " << done_ << "/"
            << total_ << " files" << std::flush;
}

void Progress::Clear() {
  if (!drawn_) return;
  std::cerr << "\r\033[K" << std::flush;
  drawn_ = false;
}

void Progress::Print(std::ostream& out, const std::string& line) {
  const bool on_bar = drawn_ && (&out == &std::cerr || stdout_on_bar_);
  if (on_bar) Clear();
  out << line << "\n";
  if (on_bar) {
    out.flush();
    Draw();
  }
}

void Progress::Finish() {
  Clear();
  enabled_ = false;
}

std::string FindingToText(const std::string& file, const v1::Finding& f) {
  std::string where = file;
  if (f.has_line()) absl::StrAppend(&where, ":", f.line(), ":", f.column());
  std::string context;
  if (f.has_record_index()) absl::StrAppend(&context, "record ", f.record_index());
  if (f.has_action_index()) {
    absl::StrAppend(&context, context.empty() ? "" : ", ", "action ", f.action_index());
  }
  // The file name and the message may quote the input: made safe to print.
  return TerminalText(absl::StrCat(where, ": error[", f.code(), "]: ", f.message(),
                                   context.empty() ? "" : absl::StrCat(" (", context, ")")));
}

void PrintReplayJson(const RefereeResult& verdict, const v1::GameRecord& record) {
  // The verdict's replay holds the fields around the steps.
  JsonMessageStream json(std::cout, v1::Replay::descriptor()->FindFieldByName("actions"));
  json.Begin(verdict.replay);
  ReplaySteps steps(record, verdict);
  v1::ReplayStep step;
  while (std::cout && steps.Next(&step)) json.Add(step);
  json.End(verdict.replay);
}

absl::Status PrintAnnotationJson(const JudgedRecord& judged, const Evaluator* evaluator) {
  auto steps = AnnotationSteps::Start(judged, evaluator);
  if (!steps.ok()) return steps.status();
  JsonMessageStream json(std::cout, v1::Annotation::descriptor()->FindFieldByName("actions"));
  json.Begin((*steps)->Head());
  v1::AnnotatedAction action;
  while (std::cout && (*steps)->Next(&action)) json.Add(action);
  json.End((*steps)->Tail());
  return absl::OkStatus();
}

namespace {

std::string MoveText(const Rules& rules, Side side, int from, int to) {
  auto square = [&](int i) -> std::string {
    if (i == 0) return "waiting";
    if (i == rules.off) return "off";
    return absl::StrCat(rules.TileNameAt(side, i), "(", i, ")");
  };
  return absl::StrCat(square(from), " -> ", square(to));
}

}  // namespace

void PrintReplayText(const RefereeResult& result, const v1::GameRecord& record, bool board) {
  const Rules& rules = *result.rules;
  static const std::vector<Position> kNone;
  const std::vector<Position>& positions = board ? result.positions : kNone;
  std::cout << "ruleset " << TerminalText(result.replay.ruleset()) << " (digest " << rules.digest << ")\n";
  const std::map<std::string, std::string> tags(record.tags().begin(), record.tags().end());
  for (const auto& [key, value] : tags) std::cout << "  " << TerminalText(key) << ": " << TerminalText(value) << "\n";
  std::cout << SideName(result.replay.first_player() == v1::DARK ? kDark : kLight) << " moves first\n";
  if (!positions.empty()) std::cout << TextBoard(rules, positions[0]);
  ReplaySteps steps(record, result);
  // Made step by step, as printed; a reader that has gone away (a closed
  // pipe) stops it.
  for (v1::ReplayStep step; std::cout && steps.Next(&step);) {
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
  return WriteOutputFile("replay", path, SvgBoard(rules, pos, options));
}

bool WriteChanceGraph(const AnnotatedRecord& annotated, const v1::GameRecord& record, const std::string& path) {
  ChanceGraphOptions options;
  const auto tag = [&](const std::string& key) {
    auto it = record.tags().find(key);
    return it == record.tags().end() ? std::string() : it->second;
  };
  // The evaluator's name says whether its values are exact or an estimate.
  if (!tag("Light").empty() && !tag("Dark").empty() && annotated.values) {
    options.caption = absl::StrCat("light's winning chance (", tag("Light"), " against ", tag("Dark"),
                                   ") \xE2\x80\x94 ", annotated.values->evaluator);
  }
  auto svg = SvgChanceGraph(annotated, options);
  if (!svg.ok()) {
    std::cerr << "scribe: annotate: " << TerminalText(svg.status().message()) << "\n";
    return false;
  }
  return WriteOutputFile("annotate", path, *svg);
}

}  // namespace scribe
