#include "games/pages.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/ruleset.h"
#include "games/rating.h"
#include "records/position_string.h"
#include "review/render.h"
#include "review/review_html.h"

namespace scribe::games {
namespace {

std::string Percent(int64_t part, int64_t whole) {
  return whole == 0 ? "-" : absl::StrFormat("%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string MoveText(const ExploredMove& m) {
  if (m.roll < 0) return "(ended)";
  if (m.from < 0) return "pass";
  return absl::StrCat(m.from, "\u2013", m.to);
}

const char* ResultWord(const GameRow& g, const std::string& player) {
  if (g.result == 0) return "unfinished";
  const bool light = g.light == player;
  return (g.result == 1) == light ? "won" : "lost";
}

std::string Back(const std::string& index_link) {
  return index_link.empty() ? ""
                            : absl::StrCat("<p class=\"back\"><a href=\"", Html(index_link), "\">\u2190 index</a></p>\n");
}

}  // namespace

std::string ExplorerHtml(const ExplorerPageInput& in) {
  const Rules& rules = *in.rules;
  const std::string position = PositionToString(rules, in.position);
  std::string out = PageHead(absl::StrCat(RulesetName(rules), " ", position, " \u2014 Scribe explorer"));
  absl::StrAppend(&out, "<header>\n", Back(in.index_link), "<h1>Explorer</h1>\n<p class=\"meta\">",
                  Html(RulesetName(rules)), " \u00b7 <code>", Html(position), "</code> \u00b7 ", in.explored.games,
                  in.explored.games == 1 ? " game" : " games", "</p>\n");
  if (!in.start_link.empty()) {
    absl::StrAppend(&out, "<p class=\"back\"><a href=\"", Html(in.start_link), "\">the start</a></p>\n");
  }
  absl::StrAppend(&out, "</header>\n<main id=\"explorer\" data-position=\"", Html(position), "\" data-games=\"",
                  in.explored.games, "\">\n<section>", InlineSvg(SvgBoard(rules, in.position)), "</section>\n",
                  "<section>\n<h2>Moves played <small>by throw, most played first</small></h2>\n",
                  "<table id=\"played\"><thead><tr><th>throw</th><th>move</th><th>games</th><th>light won</th>",
                  "<th>dark won</th><th>accuracy</th><th>chance</th><th>next</th></tr></thead>\n<tbody>\n");
  for (size_t i = 0; i < in.explored.moves.size(); ++i) {
    const ExploredMove& m = in.explored.moves[i];
    absl::StrAppend(&out, "<tr data-roll=\"", m.roll, "\" data-from=\"", m.from, "\" data-to=\"", m.to,
                    "\" data-games=\"", m.games, "\" data-light-wins=\"", m.light_wins, "\" data-dark-wins=\"",
                    m.dark_wins, "\"");
    if (m.accuracy.has_value()) absl::StrAppend(&out, " data-accuracy=\"", absl::StrFormat("%.6f", *m.accuracy), "\"");
    if (m.chance.has_value()) absl::StrAppend(&out, " data-chance=\"", absl::StrFormat("%.6f", *m.chance), "\"");
    absl::StrAppend(&out, "><td>", m.roll < 0 ? "-" : absl::StrCat(m.roll), "</td><td>", MoveText(m), "</td><td>",
                    m.games, "</td><td>", Percent(m.light_wins, m.games), "</td><td>", Percent(m.dark_wins, m.games),
                    "</td><td>", m.accuracy.has_value() ? absl::StrFormat("%.1f", *m.accuracy) : "-", "</td><td>",
                    m.chance.has_value() ? absl::StrFormat("%.1f%%", 100 * *m.chance) : "-", "</td><td>");
    const std::string& next = i < in.next.size() ? in.next[i] : "";
    if (!next.empty()) absl::StrAppend(&out, "<a href=\"", Html(next), "\">\u2192</a>");
    out += "</td></tr>\n";
  }
  out += "</tbody></table>\n</section>\n</main>\n</body>\n</html>\n";
  return out;
}

std::string PlayerHtml(const PlayerPageInput& in) {
  const PlayerTotals& t = in.page.totals;
  std::string out = PageHead(absl::StrCat(in.name, " \u2014 Scribe player"));
  absl::StrAppend(&out, "<header>\n", Back(in.index_link), "<h1>", Html(in.name), "</h1>\n<p class=\"meta\">",
                  t.games, t.games == 1 ? " game" : " games", " \u00b7 ", t.wins, " won \u00b7 ", t.losses,
                  " lost \u00b7 ", t.unfinished, " unfinished");
  if (!t.first_date.empty()) absl::StrAppend(&out, " \u00b7 ", Html(t.first_date), " to ", Html(t.last_date));
  absl::StrAppend(&out, "</p>\n</header>\n<main id=\"player\" data-name=\"", Html(in.name), "\" data-games=\"",
                  t.games, "\" data-wins=\"", t.wins, "\" data-losses=\"", t.losses, "\" data-unfinished=\"",
                  t.unfinished, "\">\n<section>\n");
  if (t.reviewed > 0) {
    absl::StrAppend(&out, "<p>Reviewed games: ", t.reviewed, " \u00b7 accuracy ", absl::StrFormat("%.1f", t.accuracy),
                    " \u00b7 error rate ", absl::StrFormat("%.4f", t.error_rate), " \u00b7 performance ",
                    absl::StrFormat("%.0f", t.performance), "</p>\n");
  }
  absl::StrAppend(&out, "<h2>Rating over time <small>Glicko-2, by month</small></h2>\n",
                  InlineSvg(RatingSvg(in.page.ratings, in.name)),
                  "\n<table id=\"ratings\"><thead><tr><th>month</th><th>rating</th><th>deviation</th><th>games</th>",
                  "</tr></thead>\n<tbody>\n");
  for (const RatingRow& r : in.page.ratings) {
    absl::StrAppend(&out, "<tr data-period=\"", Html(r.period), "\" data-rating=\"", absl::StrFormat("%.6f", r.rating),
                    "\"><td>", Html(r.period), "</td><td>", absl::StrFormat("%.0f", r.rating), "</td><td>",
                    absl::StrFormat("%.0f", r.deviation), "</td><td>", r.games, "</td></tr>\n");
  }
  absl::StrAppend(&out, "</tbody></table>\n</section>\n<section>\n<h2>Latest games</h2>\n",
                  "<table id=\"games\"><thead><tr><th>date</th><th>colour</th><th>opponent</th><th>result</th>",
                  "<th>plies</th><th>accuracy</th><th>game</th></tr></thead>\n<tbody>\n");
  for (size_t i = 0; i < in.games.size(); ++i) {
    const GameRow& g = in.games[i];
    const bool light = g.light == in.name;
    const auto& figures = g.figures[light ? 0 : 1];
    absl::StrAppend(&out, "<tr data-id=\"", g.id, "\"><td>", Html(g.date), "</td><td>", light ? "light" : "dark",
                    "</td><td>", Html(light ? g.dark : g.light), "</td><td>", ResultWord(g, in.name), "</td><td>",
                    g.plies, "</td><td>", figures.has_value() ? absl::StrFormat("%.1f", figures->accuracy) : "-",
                    "</td><td>");
    const std::string& link = i < in.links.size() ? in.links[i] : "";
    if (!link.empty()) absl::StrAppend(&out, "<a href=\"", Html(link), "\">review</a>");
    out += "</td></tr>\n";
  }
  out += "</tbody></table>\n</section>\n</main>\n</body>\n</html>\n";
  return out;
}

std::string PagesIndexHtml(int64_t games, const std::string& explorer_link, const std::vector<IndexEntry>& players) {
  std::string out = PageHead("Scribe game database");
  absl::StrAppend(&out, "<header>\n<h1>Game database</h1>\n<p class=\"meta\">", games, games == 1 ? " game" : " games",
                  "</p>\n</header>\n<main id=\"index\">\n<p><a href=\"", Html(explorer_link),
                  "\">Explorer: the moves played from the start</a></p>\n<h2>Players</h2>\n",
                  "<table id=\"players\"><thead><tr><th>player</th><th>games</th></tr></thead>\n<tbody>\n");
  for (const IndexEntry& p : players) {
    absl::StrAppend(&out, "<tr><td><a href=\"", Html(p.link), "\">", Html(p.name), "</a></td><td>", p.games,
                    "</td></tr>\n");
  }
  out += "</tbody></table>\n</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace scribe::games
