#include "cli/match_command.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "cli/common.h"
#include "engine/bots.h"
#include "engine/evaluator.h"
#include "engine/ruleset.h"
#include "nlohmann/json.hpp"
#include "records/formats.h"
#include "records/referee.h"
#include "records/utf8.h"

namespace scribe {
namespace {

struct MatchCliOptions {
  std::string ruleset;
  std::string light;
  std::string dark;
  int games = 100;
  uint64_t seed = 1;
  std::string table;
  std::string format = "text";
  // --records: the games as TSN, with these tags.
  std::string records;
  std::optional<std::string> light_name, dark_name;  // default: the bots' strengths
  std::string event = "scribe match";
  std::string date;  // the first game's; empty: no Date tag
  int games_per_day = 1;
};

int Usage(absl::string_view message) {
  std::cerr << "scribe: match: " << TerminalText(message) << "\n";
  return kExitUsage;
}

// What every record of the match carries.
struct RecordTags {
  std::string ruleset;  // the reference records name
  std::string light, dark, event;
  std::optional<absl::CivilDay> first_day;
  int games_per_day = 1;
};

// A "YYYY-MM-DD" that is a day of the calendar, years 1000 to 9999.
std::optional<absl::CivilDay> ParseDay(const std::string& text) {
  absl::CivilDay day;
  if (text.size() != 10 || !absl::ParseCivilTime(text, &day) || absl::FormatCivilTime(day) != text) {
    return std::nullopt;
  }
  return day;
}

// The record of game `index`: the throw-off (when one was thrown), who
// threw first, every throw and move, and the tags.
v1::GameRecord MatchRecord(const Rules& rules, const RecordTags& tags, int index, const GameResult& result,
                           const GameLog& log) {
  v1::GameRecord record;
  record.set_ruleset(tags.ruleset);
  record.set_ruleset_digest(rules.digest);
  auto& t = *record.mutable_tags();
  t["Event"] = tags.event;
  if (tags.first_day) t["Date"] = absl::FormatCivilTime(*tags.first_day + index / tags.games_per_day);
  t["Light"] = tags.light;
  t["Dark"] = tags.dark;
  t["Result"] = result.winner ? SideName(*result.winner) : "*";
  for (const GameLog::Round& round : log.throw_off) {
    v1::OpeningThrow* o = record.add_opening();
    o->set_light(round.light);
    o->set_dark(round.dark);
  }
  record.set_first_player(ToPlayer(result.first));
  for (const GameLog::Throw& thrown : log.throws) {
    v1::Action* a = record.add_actions();
    a->set_roll(thrown.roll);
    if (thrown.move) {
      a->set_from(thrown.move->from);
      a->set_to(thrown.move->to);
    }
  }
  return record;
}

// The records file, written a game at a time (a match of any length in
// the memory of one game). The first failure is kept, with errno's why.
class RecordsFile {
 public:
  explicit RecordsFile(const std::string& path) : path_(path), out_(path, std::ios::binary) { Check(); }
  bool ok() const { return error_.empty(); }
  void Write(const std::string& text) {
    if (!ok()) return;
    if (written_++ > 0) out_ << "\n";  // one empty line between games
    out_ << text;
    Check();
  }
  // Closes the file; false (with a message) when anything failed.
  bool Close() {
    if (ok()) out_.flush();
    Check();
    out_.close();
    Check();
    if (ok()) return true;
    std::cerr << "scribe: match: cannot write " << TerminalText(path_) << ": " << error_ << "\n";
    return false;
  }

 private:
  void Check() {
    if (ok() && !out_) error_ = std::strerror(errno != 0 ? errno : EIO);
  }
  std::string path_;
  std::ofstream out_;
  std::string error_;
  int written_ = 0;
};

// The names, event and dates of --records, checked; a message when not.
absl::StatusOr<RecordTags> RecordOptions(const MatchCliOptions& o, const Rules& rules, const Bot& light,
                                         const Bot& dark) {
  RecordTags tags;
  tags.ruleset = RulesetReference(rules, o.ruleset);
  tags.light = o.light_name.value_or(light.name());
  tags.dark = o.dark_name.value_or(dark.name());
  tags.event = o.event;
  for (const auto& [flag, text] : {std::pair<const char*, const std::string&>{"--light-name", tags.light},
                                   {"--dark-name", tags.dark},
                                   {"--event", tags.event}}) {
    if (text.empty()) return absl::InvalidArgumentError(absl::StrCat(flag, ": cannot be empty"));
    if (!IsValidUtf8(text)) return absl::InvalidArgumentError(absl::StrCat(flag, ": is not UTF-8 text"));
  }
  tags.games_per_day = o.games_per_day;
  if (!o.date.empty()) {
    tags.first_day = ParseDay(o.date);
    if (!tags.first_day) {
      return absl::InvalidArgumentError(
          absl::StrCat("--date ", o.date, ": not a day of the calendar as YYYY-MM-DD (e.g. 2026-03-01)"));
    }
    const absl::CivilDay last = *tags.first_day + (o.games - 1) / o.games_per_day;
    if (last.year() > 9999) {
      return absl::InvalidArgumentError(absl::StrCat("--date ", o.date, ": the last game would be after 9999-12-31"));
    }
  }
  return tags;
}

void PrintJson(const MatchResult& r, const MatchCliOptions& o, const Rules& rules, const std::string& name,
               const Bot& light, const Bot& dark) {
  nlohmann::ordered_json out;
  out["ruleset"] = name;
  out["digest"] = rules.digest;
  out["games"] = r.games;
  out["seed"] = o.seed;
  out["opening"] = rules.opening == v1::OPENING_THROW_OFF ? "throw-off" : "alternate";
  nlohmann::ordered_json sides = nlohmann::ordered_json::array();
  for (Side s : {kLight, kDark}) {
    const Interval ci = WilsonInterval(r.wins[s], r.games);
    nlohmann::ordered_json j;
    j["side"] = SideName(s);
    j["bot"] = (s == kLight ? light : dark).name();
    j["wins"] = r.wins[s];
    j["win_rate"] = r.games > 0 ? static_cast<double>(r.wins[s]) / r.games : 0.0;
    j["ci95_low"] = ci.low;
    j["ci95_high"] = ci.high;
    j["first"] = r.first[s];
    sides.push_back(std::move(j));
  }
  out["sides"] = std::move(sides);
  out["unfinished"] = r.unfinished;
  out["mean_throws"] = r.MeanThrows();
  out["mean_moves"] = r.games > 0 ? static_cast<double>(r.moves) / r.games : 0.0;
  std::cout << out.dump(2) << "\n";
}

void PrintText(const MatchResult& r, const MatchCliOptions& o, const Rules& rules, const std::string& name,
               const Bot& light, const Bot& dark) {
  const std::string who_starts = rules.opening == v1::OPENING_THROW_OFF
                                     ? "a throw-off decides who starts each game"
                                     : "light starts the odd games, dark the even ones";
  std::cout << absl::StrFormat("%s, %d games, seed %d (%s)\n", TerminalText(name), r.games, o.seed, who_starts);
  for (Side s : {kLight, kDark}) {
    const Interval ci = WilsonInterval(r.wins[s], r.games);
    const double rate = r.games > 0 ? static_cast<double>(r.wins[s]) / r.games : 0.0;
    std::cout << absl::StrFormat("%-5s %-10s %6d wins  %7.2f%%  95%% CI [%.2f%%, %.2f%%]  (started %d)\n", SideName(s),
                                 TerminalText((s == kLight ? light : dark).name()), r.wins[s], 100 * rate, 100 * ci.low,
                                 100 * ci.high, r.first[s]);
  }
  if (r.unfinished > 0) std::cout << r.unfinished << " games stopped unfinished\n";
  std::cout << absl::StrFormat("average game length: %.1f throws (%.1f moves)\n", r.MeanThrows(),
                               r.games > 0 ? static_cast<double>(r.moves) / r.games : 0.0);
}

int CmdMatch(const MatchCliOptions& o) {
  auto loaded = CliRuleset(o.ruleset);
  if (!loaded.ok()) return RulesetError(loaded.status());
  const std::shared_ptr<const Rules> rules = *loaded;
  auto light_spec = ParseBotSpec(o.light);
  if (!light_spec.ok()) return Usage(absl::StrCat("--light: ", light_spec.status().message()));
  auto dark_spec = ParseBotSpec(o.dark);
  if (!dark_spec.ok()) return Usage(absl::StrCat("--dark: ", dark_spec.status().message()));
  std::shared_ptr<const Evaluator> table;
  const bool wants_table =
      light_spec->kind == BotSpec::Kind::kPerfect || dark_spec->kind == BotSpec::Kind::kPerfect;
  if (wants_table && o.table.empty()) {
    return Usage("the perfect bot plays by a solved table: give one with --table FILE");
  }
  if (!o.table.empty()) {
    auto opened = OpenTableFor(o.table, rules);
    if (!opened.ok()) return Usage(opened.status().message());
    table = *opened;
  }
  // Each bot its own generator (a random bot's choices), apart from the
  // dice's: the same seed plays the same match.
  auto light = MakeBot(*light_spec, rules, table, o.seed ^ 0x6c69676874ULL);
  if (!light.ok()) return Usage(absl::StrCat("--light: ", light.status().message()));
  auto dark = MakeBot(*dark_spec, rules, table, o.seed ^ 0x6461726bULL);
  if (!dark.ok()) return Usage(absl::StrCat("--dark: ", dark.status().message()));

  MatchOptions options;
  options.games = o.games;
  options.seed = o.seed;
  std::unique_ptr<RecordsFile> file;
  bool record_failed = false;
  if (!o.records.empty()) {
    auto tags = RecordOptions(o, *rules, **light, **dark);
    if (!tags.ok()) return Usage(tags.status().message());
    // Opened before the first game: a file that cannot be written is said
    // at once, not after the match.
    file = std::make_unique<RecordsFile>(o.records);
    if (!file->ok()) {
      file->Close();
      return kExitUsage;
    }
    options.on_game = [&, tags = *tags](int index, const GameResult& result, const GameLog& log) {
      if (record_failed || !file->ok()) return;
      const v1::GameRecord record = MatchRecord(*rules, tags, index, result, log);
      auto text = WriteRecords(Format::kTsn, std::vector<v1::GameRecord>{record});
      if (!text.ok()) {
        std::cerr << "scribe: match: game " << index + 1 << ": " << TerminalText(text.status().message()) << "\n";
        record_failed = true;
        return;
      }
      file->Write(*text);
    };
  }
  const MatchResult r = PlayMatch(*rules, **light, **dark, options);
  if (file != nullptr && !file->Close()) return kExitUsage;
  if (record_failed) return kExitInvalid;
  const std::string name = RulesetReference(*rules, o.ruleset);
  if (o.format == "json") {
    PrintJson(r, o, *rules, name, **light, **dark);
  } else {
    PrintText(r, o, *rules, name, **light, **dark);
  }
  return kExitOk;
}

}  // namespace

void AddMatchCommand(CLI::App& app, CommandRegistry& registry) {
  auto [match, m] = registry.Add(app, "match", "Play games between two computer opponents; win rates", CmdMatch);
  match->add_option("--ruleset", m.ruleset, "ruleset reference or file")->required();
  match->add_option("--light", m.light, "light's bot: perfect, search:N, heuristic or random")->required();
  match->add_option("--dark", m.dark, "dark's bot: perfect, search:N, heuristic or random")->required();
  match->add_option("--games", m.games, "games to play")->required()->check(CLI::Range(1, 100000000));
  match->add_option("--seed", m.seed, "random seed (same seed, same match)")->check(SeedNumber());
  match->add_option("--table", m.table, "the solved table the perfect bot plays by");
  match->add_option("--format", m.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  auto* records = match->add_option("--records", m.records, "write the games to this file as TSN records");
  match->add_option("--light-name", m.light_name, "with --records: light's player (default: light's bot)")
      ->needs(records);
  match->add_option("--dark-name", m.dark_name, "with --records: dark's player (default: dark's bot)")
      ->needs(records);
  match->add_option("--event", m.event, "with --records: the Event tag (default \"scribe match\")")->needs(records);
  auto* date = match->add_option("--date", m.date, "with --records: the first game's date, YYYY-MM-DD; one day "
                                                   "a game after it (default: no Date tag)")
                   ->needs(records);
  match->add_option("--games-per-day", m.games_per_day, "with --date: games a day (default 1)")
      ->check(CLI::Range(1, 100000000))
      ->needs(date);
}

}  // namespace scribe
