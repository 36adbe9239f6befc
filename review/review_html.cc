#include "review/review_html.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "review/render.h"
#include "review/review_page_assets.h"
#include "review/review_text.h"

namespace scribe {

std::string Html(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string InlineSvg(absl::string_view svg) {
  const size_t at = svg.find("<svg");
  return std::string(at == absl::string_view::npos ? svg : svg.substr(at));
}

std::string PageHead(absl::string_view title, absl::string_view body_class) {
  return absl::StrCat("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
                      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n",
                      "<title>", Html(title), "</title>\n<style>", kReviewPageCss, "</style>\n",
                      "</head>\n<body", body_class.empty() ? "" : absl::StrCat(" class=\"", body_class, "\""),
                      ">\n");
}

namespace {

// A value as JSON (nlohmann's writer) that is safe inside <script>: the
// characters that could end the element or start markup ("<", ">", "&")
// and the line separators U+2028 and U+2029 written as \u escapes (they
// only occur inside strings in JSON text).
std::string ScriptJson(const nlohmann::json& value) {
  const std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<' || c == '>' || c == '&') {
      absl::StrAppendFormat(&out, "\\u%04x", static_cast<int>(c));
    } else if (text.compare(i, 3, "\xe2\x80\xa8") == 0 || text.compare(i, 3, "\xe2\x80\xa9") == 0) {
      out += text[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

// An SVG document without what comes before its <svg> element (the XML
// declaration), so that it can stand inside HTML.
// Every ply's board, compactly: the boards' distinct lines once, and each
// board as runs [first line, count] into them (a board shares most of its
// lines with the others: the frame, the tiles, the rosettes).
std::string BoardData(const Rules& rules, const std::vector<Position>& positions) {
  std::map<std::string, int> ids;
  std::vector<const std::string*> lines;
  std::vector<std::vector<int>> plies;
  for (const Position& pos : positions) {
    std::vector<int> runs;
    for (absl::string_view line : absl::StrSplit(InlineSvg(SvgBoard(rules, pos)), '\n')) {
      auto [it, added] = ids.emplace(std::string(line), static_cast<int>(lines.size()));
      if (added) lines.push_back(&it->first);
      const int id = it->second;
      if (!runs.empty() && runs[runs.size() - 2] + runs.back() == id) {
        ++runs.back();
      } else {
        runs.push_back(id);
        runs.push_back(1);
      }
    }
    plies.push_back(std::move(runs));
  }
  nlohmann::json data = {{"lines", nlohmann::json::array()}, {"plies", plies}};
  for (const std::string* line : lines) data["lines"].push_back(*line);
  return ScriptJson(data);
}

std::string MoveWords(const Rules& rules, Side side, const Move& m, SquareStyle style) {
  return MoveText(rules, side, m.from, m.to, style);
}

// What the board of ply k shows, said in words (the caption beside it).
std::vector<std::string> PlyCaptions(const AnnotatedRecord& a, const std::vector<double>& light, SquareStyle style) {
  const Rules& rules = *a.rules;
  std::vector<std::string> out;
  out.push_back(absl::StrCat("The start. Light's chance ", Percent(light[0]), "."));
  for (const ActionAnnotation& an : a.actions) {
    const ActionValues& v = *an.values;
    std::string s = absl::StrCat("Action ", an.index + 1, ": ", SideName(an.player), " threw ", an.roll, " and ");
    if (!an.move) {
      absl::StrAppend(&s, "passed.");
    } else {
      absl::StrAppend(&s, "played ", MoveWords(rules, an.player, *an.move, style),
                      an.did.empty() ? "" : absl::StrCat(" (", absl::StrJoin(an.did, ", "), ")"), ".");
      if (v.best) {
        absl::StrAppendFormat(&s, " Best: %s; this move lost %.1f points%s.",
                              MoveWords(rules, an.player, *v.best, style), 100.0 * v.loss,
                              v.mark.empty() ? "" : absl::StrCat(" (", v.mark, ")"));
      } else if (an.alternatives > 1) {
        absl::StrAppend(&s, " The best move.");
      }
    }
    absl::StrAppend(&s, " Light's chance ", Percent(light[an.index]), " \u2192 ", Percent(light[an.index + 1]),
                    "; luck of the throw ", SignedPoints(v.luck), ".");
    out.push_back(std::move(s));
  }
  // What comes next, so that a position shown for its decision (a key move)
  // says which throw is to be played.
  for (const ActionAnnotation& an : a.actions) {
    absl::StrAppend(&out[an.index], " Next: ", SideName(an.player), " throws ", an.roll, " (action ", an.index + 1,
                    ").");
  }
  return out;
}

std::string MarkClass(absl::string_view mark) {
  if (mark == kMarkBlunder) return "blunder";
  if (mark == kMarkMistake) return "mistake";
  if (mark == kMarkDoubtful) return "doubtful";
  return "";
}

std::string PlayersTable(const GameReview& r) {
  std::string out = "<table class=\"players\"><thead><tr><th></th>";
  for (Side s : {kLight, kDark}) {
    absl::StrAppend(&out, "<th class=\"", SideName(s), "\">", Html(PlayerLabel(r.players[s])), "</th>");
  }
  absl::StrAppend(&out, "</tr></thead><tbody>");
  const auto row = [&](absl::string_view label, auto cell) {
    absl::StrAppend(&out, "<tr><th>", label, "</th>");
    for (Side s : {kLight, kDark}) absl::StrAppend(&out, "<td>", cell(r.players[s]), "</td>");
    absl::StrAppend(&out, "</tr>");
  };
  row("Accuracy", [](const PlayerReview& p) { return absl::StrFormat("<b>%.1f%%</b>", p.accuracy); });
  row("Error rate <small>(points per decision)</small>",
      [](const PlayerReview& p) { return absl::StrFormat("%.2f", 100.0 * p.error_rate); });
  row("Decisions <small>(forced)</small>",
      [](const PlayerReview& p) { return absl::StrFormat("%d (%d)", p.decisions, p.forced); });
  row("?! / ? / ??",
      [](const PlayerReview& p) { return absl::StrFormat("%d / %d / %d", p.doubtful, p.mistakes, p.blunders); });
  row("Performance rating", [](const PlayerReview& p) { return absl::StrFormat("%.0f", p.rating); });
  row("Luck <small>(points)</small>", [](const PlayerReview& p) { return SignedPoints(p.luck); });
  row("Result", [&](const PlayerReview& p) {
    return r.winner ? std::string(*r.winner == p.side ? "won" : "lost") : Percent(p.result) + " (unfinished)";
  });
  row("Luck-adjusted result", [](const PlayerReview& p) { return Percent(p.luck_adjusted_result); });
  absl::StrAppend(&out, "</tbody></table>");
  return out;
}

std::string CountsTable(const GameReview& r) {
  std::string out = "<table class=\"counts\"><thead><tr><th></th><th>light</th><th>dark</th></tr></thead><tbody>";
  const auto row = [&](absl::string_view label, auto cell) {
    absl::StrAppend(&out, "<tr><th>", label, "</th><td>", cell(r.players[kLight].counts), "</td><td>",
                    cell(r.players[kDark].counts), "</td></tr>");
  };
  row("Turns", [](const GameCounts& c) { return c.turns; });
  row("Throws", [](const GameCounts& c) { return c.throws; });
  row("Passes", [](const GameCounts& c) { return c.passes; });
  row("Captures made", [](const GameCounts& c) { return c.captures_made; });
  row("Captures suffered", [](const GameCounts& c) { return c.captures_suffered; });
  row("Rosette landings", [](const GameCounts& c) { return c.rosette_landings; });
  row("Borne off", [](const GameCounts& c) { return c.borne_off; });
  const size_t values = r.players[kLight].counts.throws_by_value.size();
  for (size_t i = 0; i < values; ++i) {
    row(absl::StrCat("Throws of ", r.players[kLight].counts.throws_by_value[i].roll,
                     " <small>(expected)</small>"),
        [&](const GameCounts& c) {
          return absl::StrFormat("%d <small>(%.1f)</small>", c.throws_by_value[i].count, c.throws_by_value[i].expected);
        });
  }
  absl::StrAppend(&out, "</tbody></table>");
  return out;
}

}  // namespace

absl::StatusOr<std::string> ReviewPage(const v1::GameRecord& record, const AnnotatedRecord& annotated,
                                       const GameReview& review, const PageOptions& options) {
  if (!annotated.values || annotated.rules == nullptr) {
    return absl::InvalidArgumentError("a review page needs winning chances");
  }
  const Rules& rules = *annotated.rules;
  const std::vector<double> light = LightChances(annotated);
  // The graph about as wide as the page's column, whatever the game's length.
  ChanceGraphOptions graph_options;
  graph_options.ply_width = std::clamp(720 / std::max<int>(1, annotated.actions.size()), 2, 12);
  graph_options.plot_height = 200;
  absl::StatusOr<std::string> graph = SvgChanceGraph(annotated, graph_options);
  if (!graph.ok()) return graph.status();
  const int n = static_cast<int>(annotated.actions.size());
  const std::string title =
      absl::StrCat(PlayerLabel(review.players[kLight]), " against ", PlayerLabel(review.players[kDark]));
  const std::string kind = review.exact ? "exact" : "estimate";

  std::string out = PageHead(absl::StrCat(title, " \u2014 Scribe review"));
  out += "<header>\n";
  if (!options.index_link.empty()) {
    absl::StrAppend(&out, "<p class=\"back\"><a href=\"", Html(options.index_link), "\">\u2190 all games</a></p>\n");
  }
  absl::StrAppend(&out, "<h1>", Html(title), "</h1>\n<p class=\"meta\">", Html(review.ruleset), " \u00b7 ", n,
                  " actions \u00b7 ",
                  review.winner ? absl::StrCat(SideName(*review.winner), " won") : std::string("unfinished"));
  for (const char* tag : {"Event", "Date"}) {
    const auto it = record.tags().find(tag);
    if (it != record.tags().end()) absl::StrAppend(&out, " \u00b7 ", Html(it->second));
  }
  if (!options.source.empty()) absl::StrAppend(&out, " \u00b7 <code>", Html(options.source), "</code>");
  absl::StrAppend(&out, "</p>\n<p class=\"basis ", kind, "\">Chances from ", Html(review.evaluator), ": <b>",
                  review.exact ? "exact</b> (a solved table)" : "estimates</b> (a search, not a solved table)",
                  "</p>\n</header>\n");

  absl::StrAppend(&out, "<main id=\"review\" data-plies=\"", n, "\">\n<section class=\"play\">\n",
                  "<div id=\"board\" data-ply=\"0\">", InlineSvg(SvgBoard(rules, annotated.positions.front())),
                  "</div>\n<div class=\"controls\">",
                  "<button id=\"first\" title=\"the start (Home)\">|\u25c0</button>",
                  "<button id=\"prev\" title=\"back (\u2190)\">\u25c0</button>",
                  "<span id=\"ply-label\">start</span>",
                  "<button id=\"next\" title=\"forward (\u2192)\">\u25b6</button>",
                  "<button id=\"last\" title=\"the end (End)\">\u25b6|</button>",
                  "</div>\n<p id=\"caption\" aria-live=\"polite\"></p>\n",
                  "<div id=\"graph\" title=\"click to show that position\">", InlineSvg(*graph), "</div>\n",
                  "</section>\n<section class=\"facts\">\n<h2>Players <small>(", kind, ")</small></h2>\n",
                  PlayersTable(review), "\n");

  absl::StrAppend(&out, "<h2>Key moves <small>(", kind,
                  ")</small> <button id=\"next-key\">next key move</button></h2>\n<ol id=\"key-moves\">");
  if (review.key_moves.empty()) absl::StrAppend(&out, "<li class=\"none\">none: every decision was the best move</li>");
  for (const KeyMove& k : review.key_moves) {
    absl::StrAppendFormat(&out,
                          "<li data-ply=\"%d\" class=\"%s\"><b>Action %d</b>: %s threw %d, played %s, best <b>%s</b>, "
                          "lost %.1f points %s</li>",
                          k.index, MarkClass(k.mark), k.index + 1, SideName(k.player), k.roll,
                          MoveWords(rules, k.player, k.played, options.style),
                          MoveWords(rules, k.player, k.best, options.style), 100.0 * k.loss, Html(k.mark));
  }
  absl::StrAppend(&out, "</ol>\n<h2>Turning points <small>(", kind, ")</small></h2>\n<ol id=\"turning-points\">");
  if (review.turning_points.empty()) absl::StrAppend(&out, "<li class=\"none\">none</li>");
  for (const TurningPoint& t : review.turning_points) {
    absl::StrAppendFormat(&out, "<li data-ply=\"%d\"><b>Action %d</b>: %s threw %d, light %s \u2192 %s, by the %s</li>",
                          t.index + 1, t.index + 1, SideName(t.player), t.roll, Percent(t.light_before),
                          Percent(t.light_after), t.by_dice ? "dice" : "move");
  }
  absl::StrAppend(&out, "</ol>\n<h2>Moves</h2>\n<ol id=\"moves\">");
  for (const ActionAnnotation& an : annotated.actions) {
    const ActionValues& v = *an.values;
    absl::StrAppend(&out, "<li data-ply=\"", an.index + 1, "\" class=\"", SideName(an.player), " ",
                    MarkClass(v.mark), "\"><span class=\"who\">", an.player == kLight ? "L" : "D", "</span> ",
                    an.roll, " ",
                    an.move ? MoveWords(rules, an.player, *an.move, options.style) : std::string("pass"));
    if (!v.mark.empty()) absl::StrAppend(&out, " <b class=\"mark\">", Html(v.mark), "</b>");
    if (v.best) {
      absl::StrAppendFormat(&out, " <span class=\"best\">best %s, \u2212%.1f</span>",
                            MoveWords(rules, an.player, *v.best, options.style), 100.0 * v.loss);
    }
    absl::StrAppend(&out, "</li>");
  }
  absl::StrAppend(&out, "</ol>\n<h2>Counts <small>(exact)</small></h2>\n", CountsTable(review),
                  "\n</section>\n</main>\n<footer>Written by Scribe. Formulas: docs/review.md.</footer>\n");

  const std::string captions = ScriptJson(PlyCaptions(annotated, light, options.style));
  absl::StrAppend(&out, "<script>\nconst BOARDS = ", BoardData(rules, annotated.positions), ";\nconst CAPTIONS = ",
                  captions, ";\n", kReviewPageScript, "</script>\n</body>\n</html>\n");
  return out;
}

std::string CollectionPage(const CollectionReview& c) {
  std::string out = PageHead(absl::StrCat("Scribe review of ", c.games.size(), " games"), "index");
  absl::StrAppend(&out, "<header>\n<h1>", c.games.size(),
                  c.games.size() == 1 ? " game" : " games", "</h1>\n<p class=\"basis ",
                  c.exact ? "exact" : "estimate", "\">Chances from ", Html(c.evaluator), ": <b>",
                  c.exact ? "exact" : "estimates", "</b>. Click a column to sort.</p>\n</header>\n<main>\n");
  absl::StrAppend(&out,
                  "<h2>Players</h2>\n<div class=\"scroll\"><table class=\"sortable\" id=\"players\"><thead><tr>"
                  "<th>player</th><th data-type=\"n\">games</th><th data-type=\"n\">wins</th>"
                  "<th data-type=\"n\">accuracy</th><th data-type=\"n\">error rate</th><th data-type=\"n\">rating</th>"
                  "<th data-type=\"n\">luck</th><th data-type=\"n\">luck-adjusted wins</th></tr></thead><tbody>\n");
  for (const CollectionPlayer& p : c.players) {
    absl::StrAppendFormat(&out,
                          "<tr><td>%s</td><td>%d</td><td>%d</td><td>%.1f%%</td><td>%.2f</td><td>%.0f</td>"
                          "<td>%s</td><td>%.2f</td></tr>\n",
                          Html(p.name), p.games, p.wins, p.accuracy(), 100.0 * p.error_rate(), p.rating(),
                          SignedPoints(p.luck), p.luck_adjusted_wins);
  }
  absl::StrAppend(&out,
                  "</tbody></table></div>\n<h2>Games</h2>\n<div class=\"scroll\"><table class=\"sortable\" "
                  "id=\"games\"><thead><tr><th>game</th><th>event</th><th>date</th><th>light</th><th>dark</th>"
                  "<th>result</th><th data-type=\"n\">actions</th><th data-type=\"n\">accuracy L</th>"
                  "<th data-type=\"n\">accuracy D</th><th data-type=\"n\">luck L</th></tr></thead><tbody>\n");
  for (const CollectionGame& g : c.games) {
    const GameReview& r = g.review;
    const std::string name =
        g.page.empty() ? Html(g.source) : absl::StrCat("<a href=\"", Html(g.page), "\">", Html(g.source), "</a>");
    absl::StrAppendFormat(&out,
                          "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td>"
                          "<td>%.1f%%</td><td>%.1f%%</td><td>%s</td></tr>\n",
                          name, Html(g.event), Html(g.date), Html(CollectionName(r.players[kLight])),
                          Html(CollectionName(r.players[kDark])),
                          r.winner ? (*r.winner == kLight ? "1-0" : "0-1") : "*", r.actions,
                          r.players[kLight].accuracy, r.players[kDark].accuracy, SignedPoints(r.players[kLight].luck));
  }
  absl::StrAppend(&out, "</tbody></table></div>\n</main>\n<script>\n", kIndexPageScript,
                  "</script>\n</body>\n</html>\n");
  return out;
}

}  // namespace scribe
