// scribe db search, explore and player (docs/database.md): the questions
// asked of a game database, printed as tables, JSON or records.
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/common.h"
#include "cli/database_commands.h"
#include "engine/ruleset.h"
#include "games/query.h"
#include "games/rules_cache.h"
#include "nlohmann/json.hpp"
#include "records/formats.h"
#include "records/position_string.h"

namespace scribe {
namespace {

// A position: --position (a position string) in --ruleset (or the one
// ruleset the database holds), or the position after --after actions of
// the first record of --record.
struct PositionOptions {
  std::string position, record, ruleset;
  int after = 0;
};

void AddPositionOptions(CLI::App* app, PositionOptions& p, bool start_default) {
  app->add_option("--position", p.position, "a position string (docs/notation.md)");
  app->add_option("--record", p.record, "the position after --after actions of this record's first game");
  app->add_option("--after", p.after, "actions of --record (default 0: its start)")->check(CLI::NonNegativeNumber);
  if (start_default) app->add_option("--ruleset", p.ruleset, "the ruleset of --position (default: the database's only one)");
}

absl::StatusOr<games::PositionTarget> Target(games::Store& store, games::RulesCache& cache,
                                             const PositionOptions& p) {
  games::PositionTarget target;
  if (!p.record.empty()) {
    std::string text, error;
    if (!ReadFile(p.record, &text, &error)) return absl::InvalidArgumentError(error);
    JudgeOptions options;
    options.referee.keep_positions = true;
    JudgedFile file = JudgeFile(p.record, text, DetectFormat(p.record, text), {}, options);
    if (file.records.empty() || !file.records[0].verdict.valid()) {
      return absl::InvalidArgumentError(absl::StrCat(p.record, ": its first record is not a legal game"));
    }
    const JudgedRecord& first = file.records[0];
    if (static_cast<size_t>(p.after) >= first.verdict.positions.size()) {
      return absl::InvalidArgumentError(absl::StrCat("--after ", p.after, ": ", p.record, "'s first game has ",
                                                     first.verdict.positions.size() - 1, " actions"));
    }
    auto known = cache.ByDigest(first.verdict.rules->digest);
    if (!known.ok()) return known.status();
    target.rules = *known;
    target.position = first.verdict.positions[p.after];
    return target;
  }
  auto known = RulesOf(store, cache, p.ruleset);
  if (!known.ok()) return known.status();
  target.rules = *known;
  if (p.position.empty()) {
    target.position = StartPosition(*target.rules->rules);
    return target;
  }
  auto pos = ParsePositionString(*target.rules->rules, p.position);
  if (!pos.ok()) return absl::InvalidArgumentError(absl::StrCat("--position: ", pos.status().message()));
  target.position = *pos;
  return target;
}

const char* ResultName(int result) { return result == 1 ? "light" : result == 2 ? "dark" : "*"; }

struct SearchOptions {
  std::string db = kDefaultDatabase;
  GameFilters filters;
  PositionOptions position;
  int page = 1, per_page = 50;
  std::string format = "table", records;
};

int CmdSearch(const SearchOptions& o) {
  auto store = OpenExisting("search", o.db);
  if (store == nullptr) return kExitUsage;
  games::SearchQuery query;
  absl::Status s = MakeQuery(*store, o.filters, &query.games);
  if (!s.ok()) return DatabaseError("search", s);
  games::RulesCache cache(*store);
  if (!o.position.position.empty() || !o.position.record.empty()) {
    PositionOptions p = o.position;
    p.ruleset = o.filters.ruleset;
    auto target = Target(*store, cache, p);
    if (!target.ok()) return DatabaseError("search", target.status());
    query.position = *target;
  }
  query.offset = static_cast<int64_t>(o.page - 1) * o.per_page;
  query.limit = o.per_page;
  auto result = games::Search(*store, query);
  if (!result.ok()) return DatabaseError("search", result.status());
  if (!o.records.empty()) {
    std::vector<int64_t> ids;
    for (const games::SearchHit& h : result->hits) ids.push_back(h.game.id);
    auto records = games::Records(*store, cache, ids);
    if (!records.ok()) return DatabaseError("search", records.status());
    auto text = WriteRecords(*FormatFromName(o.records), *records);
    if (!text.ok()) return DatabaseError("search", text.status());
    std::cout << *text;
    return kExitOk;
  }
  if (o.format == "json") {
    nlohmann::ordered_json out = {{"total", result->total}, {"page", o.page}, {"per_page", o.per_page}};
    out["games"] = nlohmann::ordered_json::array();
    for (const games::SearchHit& h : result->hits) {
      nlohmann::ordered_json g = {{"id", h.game.id},       {"date", h.game.date},   {"light", h.game.light},
                                  {"dark", h.game.dark},   {"event", h.game.event}, {"result", ResultName(h.game.result)},
                                  {"plies", h.game.plies}};
      if (h.ply.has_value()) g["ply"] = *h.ply;
      out["games"].push_back(std::move(g));
    }
    std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return kExitOk;
  }
  std::cout << result->total << (result->total == 1 ? " game" : " games");
  if (result->total > 0) {
    std::cout << "; page " << o.page << ": " << (query.offset + (result->hits.empty() ? 0 : 1)) << "-"
              << query.offset + static_cast<int64_t>(result->hits.size());
  }
  std::cout << "\n";
  if (result->hits.empty()) return kExitOk;
  std::cout << absl::StrFormat("%8s  %-10s  %-16s  %-16s  %-6s  %5s", "id", "date", "light", "dark", "result", "plies");
  if (query.position.has_value()) std::cout << absl::StrFormat("  %4s", "ply");
  std::cout << "  event\n";
  for (const games::SearchHit& h : result->hits) {
    std::cout << absl::StrFormat("%8d  %-10s  %-16s  %-16s  %-6s  %5d", h.game.id, TerminalText(h.game.date),
                                 TerminalText(h.game.light), TerminalText(h.game.dark), ResultName(h.game.result),
                                 h.game.plies);
    if (h.ply.has_value()) std::cout << absl::StrFormat("  %4d", *h.ply);
    std::cout << "  " << TerminalText(h.game.event) << "\n";
  }
  return kExitOk;
}

struct ExploreOptions {
  std::string db = kDefaultDatabase;
  PositionOptions position;
  std::string table, format = "text";
};

std::string MoveText(const games::ExploredMove& m) {
  if (m.roll < 0) return "(ended)";
  if (m.from < 0) return "pass";
  return absl::StrCat(m.from, "-", m.to);
}

int CmdExplore(const ExploreOptions& o) {
  auto store = OpenExisting("explore", o.db);
  if (store == nullptr) return kExitUsage;
  games::RulesCache cache(*store);
  auto target = Target(*store, cache, o.position);
  if (!target.ok()) return DatabaseError("explore", target.status());
  std::shared_ptr<const Evaluator> evaluator;
  if (!o.table.empty()) {
    auto opened = OpenTableFor(o.table, target->rules->rules);
    if (!opened.ok()) return DatabaseError("explore", opened.status());
    evaluator = *opened;
  }
  auto explored = games::Explore(*store, *target, evaluator.get());
  if (!explored.ok()) return DatabaseError("explore", explored.status());
  const Rules& rules = *target->rules->rules;
  const std::string position = PositionToString(rules, target->position);
  if (o.format == "json") {
    nlohmann::ordered_json out = {{"ruleset", RulesetName(rules)}, {"position", position},
                                  {"games", explored->games}, {"from_aggregates", explored->from_aggregates}};
    out["moves"] = nlohmann::ordered_json::array();
    for (const games::ExploredMove& m : explored->moves) {
      nlohmann::ordered_json j = {{"roll", m.roll}, {"move", MoveText(m)}, {"games", m.games},
                                  {"light_wins", m.light_wins}, {"dark_wins", m.dark_wins}};
      if (m.from >= 0) {
        j["from"] = m.from;
        j["to"] = m.to;
      }
      if (m.accuracy.has_value()) j["accuracy"] = *m.accuracy;
      if (m.chance.has_value()) j["chance"] = *m.chance;
      out["moves"].push_back(std::move(j));
    }
    std::cout << out.dump() << "\n";
    return kExitOk;
  }
  std::cout << RulesetName(rules) << " " << position << ": " << explored->games
            << (explored->games == 1 ? " game" : " games") << "\n";
  if (explored->moves.empty()) return kExitOk;
  std::cout << absl::StrFormat("%5s  %-8s  %7s  %6s  %6s  %8s", "throw", "move", "games", "light", "dark", "accuracy");
  if (evaluator != nullptr) std::cout << "  chance";
  std::cout << "\n";
  for (const games::ExploredMove& m : explored->moves) {
    const double n = static_cast<double>(std::max<int64_t>(m.games, 1));
    std::cout << absl::StrFormat("%5s  %-8s  %7d  %5.1f%%  %5.1f%%  %8s", m.roll < 0 ? "-" : std::to_string(m.roll),
                                 MoveText(m), m.games, 100 * m.light_wins / n, 100 * m.dark_wins / n,
                                 m.accuracy.has_value() ? absl::StrFormat("%.1f", *m.accuracy) : "-");
    if (m.chance.has_value()) std::cout << absl::StrFormat("  %.4f", *m.chance);
    std::cout << "\n";
  }
  return kExitOk;
}

}  // namespace

void AddDatabaseQueries(CLI::App& db, CommandRegistry& registry) {
  auto [search, s] = registry.Add(db, "search", "Find stored games by player, tags, date, result or position", CmdSearch);
  search->add_option("--db", s.db, "a SQLite file or a postgresql:// URL");
  AddFilterOptions(search, s.filters);
  AddPositionOptions(search, s.position, false);
  search->add_option("--page", s.page, "page number, from 1")->check(CLI::PositiveNumber);
  search->add_option("--per-page", s.per_page, "games per page")->check(CLI::Range(1, 10000));
  search->add_option("--format", s.format, "table or json")->check(CLI::IsMember({"table", "json"}));
  search->add_option("--records", s.records, "print the page's games as records in this format")
      ->check(CLI::IsMember(FormatNames()));
  auto [explore, e] = registry.Add(db, "explore", "The moves played from a position, with their results", CmdExplore);
  explore->add_option("--db", e.db, "a SQLite file or a postgresql:// URL");
  AddPositionOptions(explore, e.position, true);
  explore->add_option("--table", e.table, "a solved table: each move's exact winning chance");
  explore->add_option("--format", e.format, "text or json")->check(CLI::IsMember({"text", "json"}));
}

}  // namespace scribe
