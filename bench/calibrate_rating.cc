// The calibration of the review's performance rating (review/review.h,
// docs/review.md): bots of known strength play matches against perfect
// play (a solved table), and for each bot we measure
//   - its score against perfect play, as an Elo difference
//     D = 400 log10(score / (1 - score)), and
//   - its error rate: the mean loss in winning chance of its decisions
//     (moves with at least two legal moves), measured by the same table in
//     games against itself: between equals, as reviewed games mostly are
//     (against perfect play a side is soon far behind, where no move loses
//     much chance).
// Elo differences grow faster than error rates, so the rating is fitted as
// a power law through perfect play (error rate 0, rating kRatingPerfect):
// D = -scale * ER^exponent (ER in points per decision), by least squares on
// log(-D) = log(scale) + exponent * log(ER) over the bots.
//
//   build/bench/calibrate_rating --table finkel.tbl --games 4000
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "analysis/table.h"
#include "engine/bots.h"
#include "engine/evaluator.h"
#include "engine/random.h"
#include "review/review.h"

namespace scribe {
namespace {

// A bot that plays as `inner` and keeps the loss of every decision it makes.
class Measured : public Bot {
 public:
  Measured(std::unique_ptr<Bot> inner, const Evaluator& table) : inner_(std::move(inner)), table_(table) {}
  std::optional<Move> Choose(const Position& pos, int roll) override {
    std::optional<Move> m = inner_->Choose(pos, roll);
    if (!m) return m;
    const std::vector<ValuedMove> ranked = RankMovesByValue(table_, pos, roll);
    if (ranked.size() < 2) return m;
    for (const ValuedMove& v : ranked) {
      if (v.move == *m) {
        loss_ += ranked.front().value - v.value;
        accuracy_ += DecisionAccuracy(ranked.front().value - v.value);
        for (int i = 0; i < kScales; ++i) {
          by_scale_[i] += 100.0 * std::exp(-100.0 * (ranked.front().value - v.value) / kScale[i]);
        }
      }
    }
    ++decisions_;
    return m;
  }
  std::string name() const override { return inner_->name(); }
  double error_rate() const { return decisions_ > 0 ? loss_ / decisions_ : 0; }
  double accuracy() const { return decisions_ > 0 ? accuracy_ / decisions_ : 100; }
  // The accuracy the bot would have with another scale than kAccuracyScale.
  static constexpr int kScales = 4;
  static constexpr double kScale[kScales] = {2, 3, 5, 10};
  double accuracy_at(int i) const { return decisions_ > 0 ? by_scale_[i] / decisions_ : 100; }
  long decisions() const { return decisions_; }

 private:
  std::unique_ptr<Bot> inner_;
  const Evaluator& table_;
  double loss_ = 0;
  double accuracy_ = 0;
  double by_scale_[kScales] = {};
  long decisions_ = 0;
};

int Run(int argc, char** argv) {
  CLI::App app{"Fit the review's performance rating to bots' results against perfect play"};
  std::string table_path;
  int games = 2000;
  uint64_t seed = 1;
  std::vector<std::string> bots = {"random", "heuristic", "search:0", "search:1", "search:2"};
  app.add_option("--table", table_path, "the solved table (finkel)")->required();
  app.add_option("--games", games, "games per bot (half with each colour)");
  app.add_option("--seed", seed, "dice seed");
  app.add_option("--bots", bots, "the bots to measure");
  CLI11_PARSE(app, argc, argv);

  auto opened = TableEvaluator::Open(table_path);
  if (!opened.ok()) {
    std::fprintf(stderr, "%s\n", opened.status().ToString().c_str());
    return 2;
  }
  std::shared_ptr<const TableEvaluator> table = std::move(*opened);
  const std::shared_ptr<const Rules> rules = table->shared_rules();
  std::printf("| bot | games | score against perfect | Elo difference D | decisions | error rate (points) | accuracy | at scale 2, 3, 5, 10 |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  struct Point { std::string bot; double er, d; };
  std::vector<Point> points;
  for (const std::string& name : bots) {
    auto spec = ParseBotSpec(name);
    if (!spec.ok()) {
      std::fprintf(stderr, "%s\n", spec.status().ToString().c_str());
      return 2;
    }
    auto inner = MakeBot(*spec, rules, table, seed);
    auto perfect = MakeBot({BotSpec::Kind::kPerfect}, rules, table);
    if (!inner.ok() || !perfect.ok()) return 2;
    // The score against perfect play.
    Rng dice(seed);
    double score = 0;
    int played = 0;
    for (int g = 0; g < games; ++g) {
      const Side bot_side = g % 2 == 0 ? kLight : kDark;
      Bot& light = bot_side == kLight ? **inner : **perfect;
      Bot& dark = bot_side == kDark ? **inner : **perfect;
      const GameResult r = PlayGame(*rules, light, dark, (g / 2) % 2 == 0 ? kLight : kDark, dice);
      if (!r.winner) continue;
      ++played;
      score += *r.winner == bot_side ? 1.0 : 0.0;
    }
    // The error rate where reviews meet it: in games between equals (the
    // bot against itself), not against perfect play, where a side soon far
    // behind loses little chance whatever it plays.
    auto twin = MakeBot(*spec, rules, table, seed + 1);
    if (!twin.ok()) return 2;
    Measured bot(std::move(*inner), *table);
    Measured other(std::move(*twin), *table);
    for (int g = 0; g < games; ++g) PlayGame(*rules, bot, other, g % 2 == 0 ? kLight : kDark, dice);
    const double p = score / played;
    const double d = 400.0 * std::log10(p / (1.0 - p));
    const double er = 50.0 * (bot.error_rate() + other.error_rate());
    std::printf("| %s | %d | %.4f | %.0f | %ld | %.3f | %.1f%% | %.1f, %.1f, %.1f, %.1f |\n", name.c_str(), played, p,
                d, bot.decisions() + other.decisions(), er, (bot.accuracy() + other.accuracy()) / 2, bot.accuracy_at(0), bot.accuracy_at(1), bot.accuracy_at(2),
                bot.accuracy_at(3));
    std::fflush(stdout);
    points.push_back({name, er, d});
  }
  // log(-D) = log(scale) + exponent * log(ER), least squares.
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const Point& p : points) {
    if (p.er <= 0 || p.d >= 0) continue;
    const double x = std::log(p.er), y = std::log(-p.d);
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double exponent = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const double scale = std::exp((sy - exponent * sx) / n);
  std::printf("\nfit: D = -%.1f * ER^%.3f (ER in points per decision)\n", scale, exponent);
  std::printf("| bot | D measured | D fitted |\n|---|---|---|\n");
  for (const Point& p : points) {
    std::printf("| %s | %.0f | %.0f |\n", p.bot.c_str(), p.d, -scale * std::pow(p.er, exponent));
  }
  return 0;
}

}  // namespace
}  // namespace scribe

int main(int argc, char** argv) { return scribe::Run(argc, argv); }
