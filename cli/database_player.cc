// scribe db player: a player's totals and rating over time
// (docs/database.md).
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/common.h"
#include "cli/database_commands.h"
#include "games/query.h"
#include "games/rating.h"
#include "nlohmann/json.hpp"

namespace scribe {
namespace {

struct PlayerOptions {
  std::string db = kDefaultDatabase;
  std::string name, format = "text", svg;
};

int CmdPlayer(const PlayerOptions& o) {
  auto store = OpenExisting("player", o.db);
  if (store == nullptr) return kExitUsage;
  auto page = games::Player(*store, o.name);
  if (!page.ok()) return DatabaseError("player", page.status());
  const games::PlayerTotals& t = page->totals;
  if (t.games == 0) {
    return DatabaseError("player", absl::NotFoundError(absl::StrCat("no game of a player named \"", o.name,
                                                                    "\" (names are matched exactly)")));
  }
  if (!o.svg.empty() && !WriteOutputFile("db player", o.svg, games::RatingSvg(page->ratings, o.name))) {
    return kExitUsage;
  }
  if (o.format == "json") {
    nlohmann::ordered_json out = {{"player", o.name}, {"games", t.games}, {"wins", t.wins}, {"losses", t.losses},
                                  {"unfinished", t.unfinished}, {"as_light", t.as_light}, {"reviewed", t.reviewed}};
    if (t.reviewed > 0) {
      out["accuracy"] = t.accuracy;
      out["error_rate"] = t.error_rate;
      out["performance"] = t.performance;
    }
    out["first_date"] = t.first_date;
    out["last_date"] = t.last_date;
    out["ratings"] = nlohmann::ordered_json::array();
    for (const games::RatingRow& r : page->ratings) {
      out["ratings"].push_back({{"period", r.period}, {"rating", r.rating}, {"deviation", r.deviation},
                                {"volatility", r.volatility}, {"games", r.games}});
    }
    std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::cout << TerminalText(o.name) << ": " << t.games << " games, " << t.wins << " won, " << t.losses << " lost, "
              << t.unfinished << " unfinished (" << t.as_light << " as light)";
    if (!t.first_date.empty()) std::cout << ", " << t.first_date << " to " << t.last_date;
    std::cout << "\n";
    if (t.reviewed > 0) {
      std::cout << absl::StrFormat("reviewed %d: accuracy %.1f, error rate %.4f, performance %.0f\n", t.reviewed,
                                   t.accuracy, t.error_rate, t.performance);
    }
    if (!page->ratings.empty()) std::cout << absl::StrFormat("%-8s  %7s  %5s  %5s\n", "period", "rating", "RD", "games");
    for (const games::RatingRow& r : page->ratings) {
      std::cout << absl::StrFormat("%-8s  %7.0f  %5.0f  %5d\n", r.period, r.rating, r.deviation, r.games);
    }
  }
  return kExitOk;
}

}  // namespace

void AddPlayerCommand(CLI::App& db, CommandRegistry& registry) {
  auto [player, p] = registry.Add(db, "player", "A player's games, results, accuracy and rating over time", CmdPlayer);
  player->add_option("NAME", p.name, "the player's name as the records write it")->required();
  player->add_option("--db", p.db, "a SQLite file or a postgresql:// URL");
  player->add_option("--format", p.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  player->add_option("--svg", p.svg, "write the rating over time as an SVG graph");
}

}  // namespace scribe
