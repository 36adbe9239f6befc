// scribe db pages: the game database as web pages (docs/database.md,
// "Pages"): an index, the explorer from the start a few plies deep, each
// player's page, and the review page of each game a player's page lists,
// all self-contained and linked to each other (games/pages.h,
// review/review_html.h).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/common.h"
#include "cli/database_commands.h"
#include "cli/output.h"
#include "games/pages.h"
#include "games/query.h"
#include "records/judged.h"
#include "records/position_string.h"
#include "review/pipeline.h"
#include "review/review_html.h"

namespace scribe {
namespace {

struct PagesOptions {
  std::string db = kDefaultDatabase, out, ruleset, table;
  int depth = 1;       // the reviews' search, without --table
  int plies = 2;       // explorer pages this many plies from the start
  int positions = 300;  // at most this many explorer pages
  int players = 20;    // the players with the most games (without --player)
  std::vector<std::string> names;
  int games = 20;  // each player's latest games listed (and reviewed)
};

// A file name for a player: letters, digits, '-' and '_' kept, any other
// byte as _XX; a name taken by another player gets -2, -3, ...
std::string PlayerFile(const std::string& name, std::set<std::string>* taken) {
  std::string base;
  for (unsigned char c : name) {
    if (std::isalnum(c) || c == '-' || c == '_') {
      base += static_cast<char>(c);
    } else {
      absl::StrAppend(&base, "_", absl::Hex(c, absl::kZeroPad2));
    }
  }
  if (base.empty()) base = "_";
  std::string file = base + ".html";
  for (int k = 2; !taken->insert(file).second; ++k) file = absl::StrCat(base, "-", k, ".html");
  return file;
}

// The players with the most finished games, most first.
absl::StatusOr<std::vector<std::string>> TopPlayers(games::Store& store, int n) {
  std::map<std::string, int64_t> games;
  absl::Status s = store.ScanResults([&](const std::string&, const std::string& light, const std::string& dark, int) {
    if (!light.empty()) ++games[light];
    if (!dark.empty()) ++games[dark];
    return true;
  });
  if (!s.ok()) return s;
  std::vector<std::pair<int64_t, std::string>> ranked;
  for (const auto& [name, count] : games) ranked.emplace_back(-count, name);
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> names;
  for (size_t i = 0; i < ranked.size() && static_cast<int>(i) < n; ++i) names.push_back(ranked[i].second);
  return names;
}

// The explorer's pages, breadth first from the start through the moves
// played, up to o.plies plies and o.positions pages: explorer/pK.html.
absl::Status WriteExplorer(games::Store& store, const games::KnownRules& known, const Evaluator* evaluator,
                           const PagesOptions& o) {
  const Rules& rules = *known.rules;
  std::map<std::string, std::string> page_of;  // position string -> file
  struct Todo {
    Position position;
    int ply;
    std::string file;
  };
  std::queue<Todo> todo;
  const Position start = StartPosition(rules);
  page_of[PositionToString(rules, start)] = "p0.html";
  todo.push({start, 0, "p0.html"});
  while (!todo.empty()) {
    const auto [pos, ply, file] = todo.front();
    todo.pop();
    games::ExplorerPageInput in;
    in.rules = &rules;
    in.position = pos;
    auto explored = games::Explore(store, games::PositionTarget{&known, pos}, evaluator);
    if (!explored.ok()) return explored.status();
    in.explored = *std::move(explored);
    for (const games::ExploredMove& m : in.explored.moves) {
      std::string next;
      const std::optional<Position> after = ply < o.plies ? games::PositionAfter(rules, pos, m) : std::nullopt;
      if (after.has_value()) {
        const std::string key = PositionToString(rules, *after);
        auto it = page_of.find(key);
        if (it == page_of.end() && static_cast<int>(page_of.size()) < o.positions) {
          it = page_of.emplace(key, absl::StrCat("p", page_of.size(), ".html")).first;
          todo.push({*after, ply + 1, it->second});
        }
        if (it != page_of.end()) next = it->second;
      }
      in.next.push_back(next);
    }
    in.index_link = "../index.html";
    if (file != "p0.html") in.start_link = "p0.html";
    if (!WriteOutputFile("db pages", absl::StrCat(o.out, "/explorer/", file), games::ExplorerHtml(in))) {
      return absl::UnavailableError("cannot write the explorer's pages");
    }
  }
  return absl::OkStatus();
}

// Each game's review page, games/ID.html, over the machine's cores.
absl::Status WriteReviews(games::Store& store, games::RulesCache& cache, const std::vector<int64_t>& ids,
                          const PagesOptions& o) {
  auto records = games::Records(store, cache, ids);
  if (!records.ok()) return records.status();
  AnalysisOptions options;
  options.chances = std::make_shared<const EvaluatorSource>(
      [&o](const std::shared_ptr<const Rules>& rules) { return TableOrSearch(o.table, o.depth, rules); });
  options.score_moves = false;  // (a review page shows values, not the heuristic's scores)
  const Analyzer analyzer(options);
  std::vector<absl::Status> failed(records->size());
  std::vector<std::thread> threads;
  const size_t n = static_cast<size_t>(DefaultAnalysisThreads());
  for (size_t t = 0; t < n; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < records->size(); i += n) {
        const JudgedRecord judged = Judge((*records)[i], {}, {.build_replay = false, .keep_positions = true});
        auto analysis = analyzer.Analyze(judged);
        if (!analysis.ok() || !analysis->review.has_value()) {
          failed[i] = analysis.ok() ? absl::InternalError("no review") : analysis.status();
          continue;
        }
        auto page = ReviewPage(judged.record, analysis->annotated, *analysis->review,
                               PageOptions{.index_link = "../index.html", .source = absl::StrCat("game ", ids[i])});
        if (!page.ok() || !WriteOutputFile("db pages", absl::StrCat(o.out, "/games/", ids[i], ".html"), *page)) {
          failed[i] = page.ok() ? absl::UnavailableError("cannot write a review page") : page.status();
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const absl::Status& s : failed) {
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

int CmdPages(const PagesOptions& o) {
  auto store = OpenExisting("pages", o.db);
  if (store == nullptr) return kExitUsage;
  games::RulesCache cache(*store);
  auto known = RulesOf(*store, cache, o.ruleset);
  if (!known.ok()) return DatabaseError("pages", known.status());
  std::error_code error;
  for (const char* sub : {"explorer", "players", "games"}) {
    std::filesystem::create_directories(std::filesystem::path(o.out) / sub, error);
    if (error) {
      return DatabaseError("pages", absl::UnavailableError(absl::StrCat("cannot make ", o.out, "/", sub, ": ",
                                                                        error.message())));
    }
  }
  std::shared_ptr<const Evaluator> evaluator;
  if (!o.table.empty()) {
    auto opened = OpenTableFor(o.table, (*known)->rules);
    if (!opened.ok()) return DatabaseError("pages", opened.status());
    evaluator = *opened;
  }
  absl::Status s = WriteExplorer(*store, **known, evaluator.get(), o);
  if (!s.ok()) return DatabaseError("pages", s);
  auto names = o.names.empty() ? TopPlayers(*store, o.players) : absl::StatusOr<std::vector<std::string>>(o.names);
  if (!names.ok()) return DatabaseError("pages", names.status());
  std::set<std::string> taken;
  std::set<int64_t> reviewed;
  std::vector<games::IndexEntry> index;
  for (const std::string& name : *names) {
    games::PlayerPageInput in;
    in.name = name;
    auto page = games::Player(*store, name);
    if (!page.ok()) return DatabaseError("pages", page.status());
    if (page->totals.games == 0) {
      std::cerr << "scribe: db pages: no game of a player named \"" << TerminalText(name) << "\"; no page\n";
      continue;
    }
    in.page = *std::move(page);
    games::SearchQuery query;
    query.games.player = name;
    query.games.order = games::GameQuery::Order::kDate;
    query.games.descending = true;
    query.limit = o.games;
    auto found = games::Search(*store, query);
    if (!found.ok()) return DatabaseError("pages", found.status());
    for (games::SearchHit& hit : found->hits) {
      in.links.push_back(absl::StrCat("../games/", hit.game.id, ".html"));
      reviewed.insert(hit.game.id);
      in.games.push_back(std::move(hit.game));
    }
    in.index_link = "../index.html";
    const std::string file = PlayerFile(name, &taken);
    if (!WriteOutputFile("db pages", absl::StrCat(o.out, "/players/", file), games::PlayerHtml(in))) return kExitUsage;
    index.push_back(games::IndexEntry{name, absl::StrCat("players/", file), in.page.totals.games});
  }
  s = WriteReviews(*store, cache, std::vector<int64_t>(reviewed.begin(), reviewed.end()), o);
  if (!s.ok()) return DatabaseError("pages", s);
  auto total = store->CountGames({});
  if (!total.ok()) return DatabaseError("pages", total.status());
  if (!WriteOutputFile("db pages", o.out + "/index.html", games::PagesIndexHtml(*total, "explorer/p0.html", index))) {
    return kExitUsage;
  }
  std::cout << "wrote " << o.out << "/index.html: " << index.size() << " players, " << reviewed.size()
            << " games reviewed\n";
  return kExitOk;
}

}  // namespace

void AddPagesCommand(CLI::App& db, CommandRegistry& registry) {
  auto [pages, p] = registry.Add(db, "pages", "The database as web pages: explorer, players, their games", CmdPages);
  pages->add_option("--db", p.db, "a SQLite file or a postgresql:// URL");
  pages->add_option("--out", p.out, "the folder to write the pages into (made when missing)")->required();
  pages->add_option("--ruleset", p.ruleset, "the explorer's ruleset (default: the database's only one)");
  pages->add_option("--table", p.table, "a solved table: exact chances in the explorer and the reviews");
  pages->add_option("--depth", p.depth, "without --table, the reviews' search depth")->check(CLI::Range(0, 3));
  pages->add_option("--plies", p.plies, "explorer pages this many plies from the start")->check(CLI::Range(0, 20));
  pages->add_option("--positions", p.positions, "at most this many explorer pages")->check(CLI::Range(1, 100000));
  pages->add_option("--players", p.players, "pages for the players with the most games")->check(CLI::Range(0, 10000));
  pages->add_option("--player", p.names, "a page for this player (repeat; instead of --players)");
  pages->add_option("--games", p.games, "each player's latest games listed and reviewed")->check(CLI::Range(0, 1000));
}

}  // namespace scribe
