#include "cli/analysis_commands.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/common.h"
#include "cli/match_command.h"
#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "engine/status_macros.h"
#include "nlohmann/json.hpp"
#include "records/position_string.h"
#include "records/squares.h"

namespace scribe {
namespace {

struct SuggestOptions {
  std::string ruleset;
  std::string position;  // empty: the start, light to move
  int roll = 0;
  std::string table;
  int depth = 2;
  std::string format = "text";
  bool tiles = false;
};

int Usage(absl::string_view command, absl::string_view message) {
  std::cerr << "scribe: " << command << ": " << TerminalText(message) << "\n";
  return kExitUsage;
}

// A move as TSN writes it, with its markers: x (xN) captures, * another
// throw, + a waiting piece placed, # the game won.
std::string MoveText(const Rules& rules, const Position& pos, Move move, bool tiles) {
  Position after = pos;
  const MoveResult r = ApplyMove(rules, &after, move);
  std::string out =
      MoveText(rules, pos.to_move, move.from, move.to, tiles ? SquareStyle::kTiles : SquareStyle::kPathNumbers);
  if (r.captured > 0) {
    out.push_back('x');
    if (r.captured > 1) absl::StrAppend(&out, r.captured);
  }
  if (r.extra_roll) out.push_back('*');
  if (r.placed) out.push_back('+');
  if (r.won) out.push_back('#');
  return out;
}

std::string Percent(double chance) { return absl::StrFormat("%.3f%%", 100 * chance); }

std::string Rolls(const Rules& rules) {
  std::vector<int> rolls;
  for (const RollOutcome& o : rules.outcomes) rolls.push_back(o.roll);
  return absl::StrJoin(rolls, ", ");
}

int CmdSuggest(const SuggestOptions& o) {
  auto loaded = CliRuleset(o.ruleset);
  if (!loaded.ok()) return RulesetError(loaded.status());
  const std::shared_ptr<const Rules> rules = *loaded;
  Position pos = StartPosition(*rules, kLight);
  if (!o.position.empty()) {
    auto parsed = ParsePositionString(*rules, o.position);
    if (!parsed.ok()) return Usage("suggest", absl::StrCat("--position: ", parsed.status().message()));
    pos = *parsed;
  }
  if (const auto winner = Winner(*rules, pos)) {
    return Usage("suggest", absl::StrCat("--position: the game is over (", SideName(*winner),
                                         " has borne off every piece); there is nothing to suggest"));
  }
  if (!rules->CanRoll(o.roll)) {
    return Usage("suggest", absl::StrCat("--roll ", o.roll, ": the dice of ", RulesetReference(*rules, o.ruleset),
                                         " cannot throw it (they throw ", Rolls(*rules), ")"));
  }
  const int depth = o.table.empty() ? o.depth : -1;
  auto made = TableOrSearch(o.table, o.depth, rules);
  if (!made.ok()) return Usage("suggest", made.status().message());
  const std::shared_ptr<const Evaluator> evaluator = *made;
  const std::vector<ValuedMove> ranked = RankMovesByValue(*evaluator, pos, o.roll);
  const Side me = pos.to_move;
  const std::string name = RulesetReference(*rules, o.ruleset);

  if (o.format == "json") {
    nlohmann::ordered_json out;
    out["ruleset"] = name;
    out["digest"] = rules->digest;
    out["position"] = PositionToString(*rules, pos);
    out["to_move"] = SideName(me);
    out["roll"] = o.roll;
    out["exact"] = evaluator->exact();
    out["evaluator"] = evaluator->name();
    if (depth >= 0) out["depth"] = depth;
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    int rank = 0;
    for (const ValuedMove& m : ranked) {
      Position after = pos;
      const MoveResult r = ApplyMove(*rules, &after, m.move);
      nlohmann::ordered_json j;
      j["rank"] = ++rank;
      j["move"] = MoveText(*rules, pos, m.move, o.tiles);
      j["from"] = m.move.from;
      j["to"] = m.move.to;
      j["chance"] = m.value;
      j["captured"] = r.captured;
      j["extra_throw"] = r.extra_roll;
      j["placed"] = r.placed;
      j["won"] = r.won;
      j["position_after"] = PositionToString(*rules, after);
      moves.push_back(std::move(j));
    }
    out["moves"] = std::move(moves);
    if (ranked.empty()) out["pass_chance"] = ValueAfterPass(*evaluator, pos);
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }

  std::cout << TerminalText(name) << "  " << PositionToString(*rules, pos) << "\n";
  std::cout << SideName(me) << " throws " << o.roll << ": ";
  if (ranked.empty()) {
    std::cout << (o.roll == 0 ? "no move (a throw of 0)" : "no legal move") << ", " << SideName(me) << " passes\n";
  } else {
    std::cout << ranked.size() << (ranked.size() == 1 ? " legal move (forced)\n" : " legal moves, best first\n");
  }
  // The evaluator's name says whether its values are exact or an estimate.
  std::cout << SideName(me) << "'s winning chances: " << TerminalText(evaluator->name()) << "\n";
  if (ranked.empty()) {
    std::cout << "  pass  " << Percent(ValueAfterPass(*evaluator, pos)) << "\n";
    return kExitOk;
  }
  std::vector<std::string> texts;
  size_t width = 4;
  for (const ValuedMove& m : ranked) {
    texts.push_back(MoveText(*rules, pos, m.move, o.tiles));
    width = std::max(width, texts.back().size());
  }
  for (size_t i = 0; i < ranked.size(); ++i) {
    std::cout << absl::StrFormat("%3d. %-*s  %8s\n", i + 1, static_cast<int>(width), texts[i],
                                 Percent(ranked[i].value));
  }
  return kExitOk;
}

}  // namespace

void AddAnalysisCommands(CLI::App& app, CommandRegistry& registry) {
  auto [suggest, s] =
      registry.Add(app, "suggest", "The legal moves of a throw, ranked by winning chance", CmdSuggest);
  suggest->add_option("--ruleset", s.ruleset, "ruleset reference or file")->required();
  suggest->add_option("--position", s.position,
                      "position string, e.g. \"7:..............:0/7:..............:0 L\" (default: the "
                      "start, light to move)");
  suggest->add_option("--roll", s.roll, "the throw")->required();
  auto* table = suggest->add_option("--table", s.table, "exact chances from this solved table");
  suggest->add_option("--depth", s.depth, "without a table: search this many throws deep (default 2)")
      ->check(CLI::Range(0, kMaxSearchDepth))
      ->excludes(table);
  suggest->add_option("--format", s.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  suggest->add_flag("--tiles", s.tiles, "squares as tile names (A4) instead of path numbers");

  AddMatchCommand(app, registry);
}

}  // namespace scribe
