// scribe: the command line over Scribe's engine and records library.
//
// A thin shell: it parses flags, reads files, calls the libraries and prints.
// Exit codes: 0 success (every record valid), 1 a record is not a legal game
// (or not a record at all), 2 a usage error or a file that cannot be read.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/perft.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "records/json_record.h"
#include "records/referee.h"

namespace scribe {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;

// Files larger than this are refused rather than read into memory.
constexpr std::streamoff kMaxFileBytes = 512ll * 1024 * 1024;

bool ReadFile(const std::string& path, std::string* out, std::string* error) {
  if (path == "-") {
    out->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = absl::StrCat(path, ": cannot open: ", std::strerror(errno));
    return false;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) {
    *error = absl::StrCat(path, ": cannot read (not a regular file?)");
    return false;
  }
  if (size > kMaxFileBytes) {
    *error = absl::StrCat(path, ": ", size, " bytes is more than the ", kMaxFileBytes, " allowed");
    return false;
  }
  in.seekg(0, std::ios::beg);
  out->resize(static_cast<size_t>(size));
  in.read(out->data(), size);
  if (!in) {
    *error = absl::StrCat(path, ": read failed");
    return false;
  }
  return true;
}

bool IsReadableFile(const std::string& path) {
  std::ifstream in(path);
  return static_cast<bool>(in);
}

// --ruleset: a ruleset file when such a file exists, else a reference.
absl::StatusOr<std::shared_ptr<const Rules>> CliRuleset(const std::string& ref) {
  if (ref.find('(') == std::string::npos && IsReadableFile(ref)) {
    std::string text, error;
    if (!ReadFile(ref, &text, &error)) return absl::InvalidArgumentError(error);
    auto rules = LoadRulesetText(text);
    if (!rules.ok()) {
      return absl::Status(rules.status().code(),
                          absl::StrCat(ref, ": ", rules.status().message()));
    }
    return rules;
  }
  return LoadRuleset(ref);
}

int RulesetError(const absl::Status& status) {
  std::cerr << "scribe: ruleset: " << status.message() << "\n";
  return kExitUsage;
}

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

struct LoadedFile {
  std::string path;
  std::string text;
  ParsedRecords parsed;
};

// Reads and parses each file; unreadable files are reported and make the
// command exit 2.
bool LoadFiles(const std::vector<std::string>& paths, std::vector<LoadedFile>* out) {
  bool ok = true;
  for (const std::string& path : paths) {
    LoadedFile f;
    f.path = path;
    std::string error;
    if (!ReadFile(path, &f.text, &error)) {
      std::cerr << "scribe: " << error << "\n";
      ok = false;
      continue;
    }
    f.parsed = ParseJsonRecords(f.text);
    out->push_back(std::move(f));
  }
  return ok;
}

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
                const std::string& ruleset_ref) {
  std::shared_ptr<const Rules> forced;
  if (!ruleset_ref.empty()) {
    auto r = CliRuleset(ruleset_ref);
    if (!r.ok()) return RulesetError(r.status());
    forced = *r;
  }
  std::vector<LoadedFile> files;
  const bool all_read = LoadFiles(paths, &files);
  v1::ValidationReport report;
  bool all_valid = true;
  for (const LoadedFile& f : files) {
    v1::FileReport* fr = report.add_files();
    fr->set_file(f.path);
    for (const v1::Finding& finding : f.parsed.findings) *fr->add_findings() = finding;
    const bool many = f.parsed.records.size() > 1 || !f.parsed.findings.empty();
    for (size_t k = 0; k < f.parsed.records.size(); ++k) {
      RefereeResult result = Referee(f.parsed.records[k], forced);
      for (v1::Finding& finding : result.findings) {
        if (many || f.parsed.record_indices[k] != 0) finding.set_record_index(f.parsed.record_indices[k]);
        *fr->add_findings() = std::move(finding);
      }
    }
    fr->set_valid(fr->findings_size() == 0);
    all_valid = all_valid && fr->valid();
  }
  if (format == "json") {
    std::cout << MessageToJson(report) << "\n";
  } else {
    for (const v1::FileReport& fr : report.files()) {
      if (fr.valid()) std::cout << fr.file() << ": ok\n";
      for (const v1::Finding& finding : fr.findings()) std::cout << FindingToText(fr.file(), finding) << "\n";
    }
  }
  if (!all_read) return kExitUsage;
  return all_valid ? kExitOk : kExitInvalid;
}

std::string MoveText(const Rules& rules, Side side, int from, int to) {
  auto square = [&](int i) -> std::string {
    if (i == 0) return "waiting";
    if (i == rules.off) return "off";
    return absl::StrCat(rules.TileNameAt(side, i), "(", i, ")");
  };
  return absl::StrCat(square(from), " -> ", square(to));
}

void PrintReplayText(const RefereeResult& result, const v1::GameRecord& record) {
  const Rules& rules = *result.rules;
  std::cout << "ruleset " << result.replay.ruleset() << " (digest " << rules.digest << ")\n";
  for (const auto& [key, value] : record.tags()) std::cout << "  " << key << ": " << value << "\n";
  std::cout << SideName(result.replay.first_player() == v1::DARK ? kDark : kLight) << " moves first\n";
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
  }
  const Position& pos = result.final_position;
  for (Side s : {kLight, kDark}) {
    std::cout << absl::StrFormat("%-5s: %d waiting, %d on the board, %d borne off\n", SideName(s),
                                 pos.count[s][0],
                                 rules.pieces - pos.count[s][0] - pos.count[s][rules.off],
                                 pos.count[s][rules.off]);
  }
  if (result.winner) std::cout << "winner: " << SideName(*result.winner) << "\n";
  else std::cout << "unfinished: " << SideName(pos.to_move) << " to throw\n";
}

int CmdReplay(const std::string& path, const std::string& format, const std::string& ruleset_ref) {
  std::shared_ptr<const Rules> forced;
  if (!ruleset_ref.empty()) {
    auto r = CliRuleset(ruleset_ref);
    if (!r.ok()) return RulesetError(r.status());
    forced = *r;
  }
  std::vector<LoadedFile> files;
  if (!LoadFiles({path}, &files)) return kExitUsage;
  const LoadedFile& f = files[0];
  int exit_code = kExitOk;
  for (const v1::Finding& finding : f.parsed.findings) {
    std::cerr << FindingToText(f.path, finding) << "\n";
    exit_code = kExitInvalid;
  }
  std::vector<std::string> json;
  for (size_t k = 0; k < f.parsed.records.size(); ++k) {
    RefereeResult result = Referee(f.parsed.records[k], forced);
    if (result.rules == nullptr) {
      for (v1::Finding& finding : result.findings) std::cerr << FindingToText(f.path, finding) << "\n";
      exit_code = kExitInvalid;
      continue;
    }
    if (format == "json") json.push_back(MessageToJson(result.replay));
    else PrintReplayText(result, f.parsed.records[k]);
    for (v1::Finding& finding : result.findings) {
      std::cerr << FindingToText(f.path, finding) << "\n";
      exit_code = kExitInvalid;
    }
  }
  if (format == "json") {
    if (json.size() == 1) std::cout << json[0] << "\n";
    else std::cout << "[" << absl::StrJoin(json, ",\n") << "]\n";
  }
  return exit_code;
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

  auto* validate = app.add_subcommand("validate", "Check that records are legal games");
  std::vector<std::string> validate_files;
  std::string validate_format = "text", validate_ruleset;
  validate->add_option("FILE", validate_files, "record files")->required();
  validate->add_option("--format", validate_format, "text or json")->check(CLI::IsMember({"text", "json"}));
  validate->add_option("--ruleset", validate_ruleset, "use this ruleset (reference or file)");

  auto* perft = app.add_subcommand("perft", "Count the leaves of the game tree N throws deep");
  std::string perft_ref;
  int depth = 1;
  perft->add_option("--ruleset", perft_ref, "ruleset reference or file")->required();
  perft->add_option("--depth", depth, "throws deep")->required()->check(CLI::Range(0, 12));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (app.got_subcommand("rulesets")) return CmdRulesets();
  if (ruleset_cmd->parsed()) return CmdRulesetShow(show_ref);
  if (play->parsed()) return CmdPlay(play_ref, seed);
  if (replay->parsed()) return CmdReplay(replay_file, replay_format, replay_ruleset);
  if (validate->parsed()) return CmdValidate(validate_files, validate_format, validate_ruleset);
  if (perft->parsed()) return CmdPerft(perft_ref, depth);
  return kExitUsage;
}

}  // namespace
}  // namespace scribe

int main(int argc, char** argv) { return scribe::Main(argc, argv); }
