#include "review/review_text.h"

#include <cmath>
#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine/ruleset.h"
#include "review/render.h"

namespace scribe {

std::string Percent(double chance, int decimals) { return absl::StrFormat("%.*f%%", decimals, 100.0 * chance); }

std::string SignedPoints(double chance) {
  const double points = 100.0 * chance;
  // No "-0.0": a value that rounds to zero is written "0.0".
  if (std::abs(points) < 0.05) return "0.0";
  return absl::StrFormat("%+.1f", points);
}

std::string PlayerLabel(const PlayerReview& p) {
  const std::string side = p.side == kLight ? "light" : "dark";
  return p.name.empty() ? side : absl::StrCat(p.name, " (", side, ")");
}

namespace {

// One row of the players' table: a label and each side's cell.
void Row(std::string* out, absl::string_view label, const GameReview& r,
         const std::function<std::string(const PlayerReview&)>& cell) {
  absl::StrAppendFormat(out, "  %-28s %14s %14s\n", label, cell(r.players[kLight]), cell(r.players[kDark]));
}

std::string ResultWord(const GameReview& r, const PlayerReview& p) {
  if (!r.winner) return absl::StrCat(Percent(p.result), " (unfinished)");
  return *r.winner == p.side ? "won" : "lost";
}

}  // namespace

std::string ReviewText(const GameReview& r, const Rules& rules, SquareStyle style) {
  std::string out;
  const PlayerReview& light = r.players[kLight];
  const PlayerReview& dark = r.players[kDark];
  absl::StrAppend(&out, "Review: ", PlayerLabel(light), " against ", PlayerLabel(dark), ", ",
                  r.ruleset.empty() ? RulesetName(rules) : r.ruleset, ", ", r.actions, " actions, ",
                  r.winner ? absl::StrCat(SideName(*r.winner), " won") : "unfinished", "\n");
  absl::StrAppend(&out, "Chances from ", r.evaluator,
                  r.exact ? ": exact, from a solved table\n"
                          : ": estimates, not a solved table; every figure from chances is an estimate\n");
  absl::StrAppend(&out, "Light's chance at the start ", Percent(r.start_light), "\n\n");

  const std::string kind = r.exact ? "exact" : "estimate";
  absl::StrAppendFormat(&out, "  %-28s %14s %14s\n", absl::StrCat("Players (", kind, ")"), "light", "dark");
  Row(&out, "", r, [](const PlayerReview& p) { return p.name.substr(0, 14); });
  Row(&out, "Accuracy", r, [](const PlayerReview& p) { return absl::StrFormat("%.1f%%", p.accuracy); });
  Row(&out, "Error rate (points/decision)", r,
      [](const PlayerReview& p) { return absl::StrFormat("%.2f", 100.0 * p.error_rate); });
  Row(&out, "Decisions (forced moves)", r,
      [](const PlayerReview& p) { return absl::StrFormat("%d (%d)", p.decisions, p.forced); });
  Row(&out, "Doubtful ?! / mistakes ? / ??", r,
      [](const PlayerReview& p) { return absl::StrFormat("%d / %d / %d", p.doubtful, p.mistakes, p.blunders); });
  Row(&out, "Performance rating", r, [](const PlayerReview& p) { return absl::StrFormat("%.0f", p.rating); });
  Row(&out, "Luck (points)", r, [](const PlayerReview& p) { return SignedPoints(p.luck); });
  Row(&out, "Result", r, [&](const PlayerReview& p) { return ResultWord(r, p); });
  Row(&out, "Luck-adjusted result", r, [](const PlayerReview& p) { return Percent(p.luck_adjusted_result); });

  absl::StrAppend(&out, "\nKey moves (", kind, ")\n");
  if (r.key_moves.empty()) absl::StrAppend(&out, "  none: every decision was the best move\n");
  int n = 0;
  for (const KeyMove& k : r.key_moves) {
    absl::StrAppendFormat(&out, "  %d. action %d, %s threw %d: played %s, best %s, lost %.1f points%s\n", ++n,
                          k.index + 1, SideName(k.player), k.roll,
                          MoveText(rules, k.player, k.played.from, k.played.to, style),
                          MoveText(rules, k.player, k.best.from, k.best.to, style), 100.0 * k.loss,
                          k.mark.empty() ? "" : absl::StrCat(" (", k.mark, ")"));
    absl::StrAppendFormat(&out, "     %s's chance: %s before the throw, %s after the best move, %s after the move played\n",
                          SideName(k.player), Percent(k.chance_before), Percent(k.best_value),
                          Percent(k.played_value));
    for (absl::string_view line : absl::StrSplit(TextBoard(rules, k.position), '\n', absl::SkipEmpty())) {
      absl::StrAppend(&out, "     ", line, "\n");
    }
  }

  absl::StrAppend(&out, "\nTurning points (", kind, ")\n");
  if (r.turning_points.empty()) absl::StrAppend(&out, "  none\n");
  n = 0;
  for (const TurningPoint& t : r.turning_points) {
    absl::StrAppendFormat(&out, "  %d. action %d, %s threw %d: light %s -> %s (%s), by the %s (luck %s, loss %.1f)\n",
                          ++n, t.index + 1, SideName(t.player), t.roll, Percent(t.light_before),
                          Percent(t.light_after), SignedPoints(t.light_after - t.light_before),
                          t.by_dice ? "dice" : "move", SignedPoints(t.luck), 100.0 * t.loss);
  }

  absl::StrAppendFormat(&out, "\n  %-28s %14s %14s\n", "Counts (exact)", "light", "dark");
  const auto count = [&](absl::string_view label, const std::function<int(const GameCounts&)>& f) {
    Row(&out, label, r, [&](const PlayerReview& p) { return absl::StrCat(f(p.counts)); });
  };
  count("Turns", [](const GameCounts& c) { return c.turns; });
  count("Throws", [](const GameCounts& c) { return c.throws; });
  count("Moves", [](const GameCounts& c) { return c.moves; });
  count("Passes", [](const GameCounts& c) { return c.passes; });
  count("Captures made", [](const GameCounts& c) { return c.captures_made; });
  count("Captures suffered", [](const GameCounts& c) { return c.captures_suffered; });
  count("Rosette landings", [](const GameCounts& c) { return c.rosette_landings; });
  count("Borne off", [](const GameCounts& c) { return c.borne_off; });
  const size_t values = light.counts.throws_by_value.size();
  for (size_t i = 0; i < values; ++i) {
    Row(&out, absl::StrCat("Throws of ", light.counts.throws_by_value[i].roll, " (expected)"), r,
        [&](const PlayerReview& p) {
          const ThrowCount& t = p.counts.throws_by_value[i];
          return absl::StrFormat("%d (%.1f)", t.count, t.expected);
        });
  }
  return out;
}

std::string CollectionText(const CollectionReview& c) {
  std::string out;
  absl::StrAppend(&out, c.games.size(), c.games.size() == 1 ? " game" : " games", " reviewed; chances from ",
                  c.evaluator, c.exact ? " (exact)" : " (ESTIMATES)", "\n\n");
  absl::StrAppendFormat(&out, "  %-32s %-16s %-16s %8s %7s %7s\n", "game", "light", "dark", "result", "acc L",
                        "acc D");
  for (const CollectionGame& g : c.games) {
    const GameReview& r = g.review;
    absl::StrAppendFormat(&out, "  %-32s %-16s %-16s %8s %6.1f%% %6.1f%%\n", g.source,
                          CollectionName(r.players[kLight]).substr(0, 16),
                          CollectionName(r.players[kDark]).substr(0, 16),
                          r.winner ? (*r.winner == kLight ? "1-0" : "0-1") : "*", r.players[kLight].accuracy,
                          r.players[kDark].accuracy);
  }
  absl::StrAppendFormat(&out, "\n  %-24s %6s %6s %9s %8s %7s %8s %11s\n", "player", "games", "wins", "accuracy",
                        "err rate", "rating", "luck", "luck-adj w");
  for (const CollectionPlayer& p : c.players) {
    absl::StrAppendFormat(&out, "  %-24s %6d %6d %8.1f%% %8.2f %7.0f %8s %11.2f\n", p.name.substr(0, 24), p.games,
                          p.wins, p.accuracy(), 100.0 * p.error_rate(), p.rating(), SignedPoints(p.luck),
                          p.luck_adjusted_wins);
  }
  return out;
}

}  // namespace scribe
