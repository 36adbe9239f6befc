// Glicko-2 ratings (games/rating.h): the paper's worked example to its
// printed digits, a period without games, ratings over monthly periods from
// results, properties of both, and the SVG graph (well-formed, with a point
// per period).
#include "games/rating.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"

#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

namespace scribe::games {
namespace {

// --- one period (the paper's steps) ------------------------------------------------

// Glickman's example: a 1500 player, RD 200, volatility 0.06, τ = 0.5, who
// beats a 1400/RD 30 player and loses to 1550/RD 100 and 1700/RD 300. The
// paper prints v = 1.7785, Δ = -0.4834, σ' = 0.05999, μ' = -0.2069,
// φ' = 0.8722, rating 1464.06, RD 151.52, rounding as it goes.
const std::vector<Glicko2Game> kPaperGames = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};

double Round(double x, int decimals) { return std::round(x * std::pow(10, decimals)) / std::pow(10, decimals); }

// Computed without rounding: μ' and φ' to the paper's digits, and the
// rating and RD made from them; v, Δ and σ' to the digits the paper's
// rounding leaves (the next test shows where its last digits come from).
TEST(Glicko2Test, ThePapersWorkedExample) {
  Glicko2Steps steps;
  const Glicko2 after = UpdateGlicko2(Glicko2{1500, 200, 0.06}, kPaperGames, 0.5, &steps);
  EXPECT_EQ(steps.mu, 0.0);
  EXPECT_EQ(Round(steps.phi, 4), 1.1513);
  EXPECT_EQ(Round(steps.mu_new, 4), -0.2069);
  EXPECT_EQ(Round(steps.phi_new, 4), 0.8722);
  // Step 8 from the printed μ' and φ', as the paper does it.
  EXPECT_EQ(Round(kGlicko2Scale * Round(steps.mu_new, 4) + 1500, 2), 1464.06);
  EXPECT_EQ(Round(kGlicko2Scale * Round(steps.phi_new, 4), 2), 151.52);
  // Unrounded, within a hundredth of the printed rating and RD.
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_EQ(Round(after.rating, 4), 1464.0507);
  EXPECT_EQ(Round(after.deviation, 4), 151.5165);
  // v, Δ: the paper's within its rounding; exact to 5 digits.
  EXPECT_NEAR(steps.v, 1.7785, 0.001);
  EXPECT_NEAR(steps.delta, -0.4834, 0.001);
  EXPECT_EQ(Round(steps.v, 5), 1.77898);
  EXPECT_EQ(Round(steps.delta, 5), -0.48393);
  // σ' = 0.0599960: the paper's 0.05999 is it cut, not rounded, to 5 decimals.
  EXPECT_EQ(std::floor(steps.sigma * 1e5) / 1e5, 0.05999);
  EXPECT_EQ(Round(steps.sigma, 7), 0.0599960);
  EXPECT_EQ(after.volatility, steps.sigma);
  EXPECT_EQ(steps.phi_star, std::sqrt(steps.phi * steps.phi + steps.sigma * steps.sigma));
  // The Illinois iteration converges in a few steps.
  EXPECT_GT(steps.iterations, 0);
  EXPECT_LT(steps.iterations, 10);
}

// The paper's own arithmetic: its g and E rounded as it prints them give
// its v and Δ, and step 5 from its v and Δ its σ' (cut to 5 decimals).
TEST(Glicko2Test, ThePapersRoundedIntermediates) {
  const double g[3] = {0.9955, 0.9531, 0.7242};
  const double e[3] = {0.639, 0.432, 0.303};
  double variance_sum = 0, score_sum = 0;
  for (int j = 0; j < 3; ++j) {
    const double phi_j = kPaperGames[j].opponent_deviation / kGlicko2Scale;
    const double mu_j = (kPaperGames[j].opponent_rating - 1500) / kGlicko2Scale;
    EXPECT_EQ(Round(Glicko2G(phi_j), 4), g[j]) << j;
    EXPECT_EQ(Round(Glicko2E(0, mu_j, phi_j), 3), e[j]) << j;
    variance_sum += g[j] * g[j] * e[j] * (1 - e[j]);
    score_sum += g[j] * (kPaperGames[j].score - e[j]);
  }
  const double v = 1 / variance_sum;
  EXPECT_EQ(Round(v, 4), 1.7785);
  EXPECT_EQ(Round(v * score_sum, 4), -0.4834);
  int iterations = 0;
  const double sigma = Glicko2Volatility(1.1513, 0.06, 1.7785, -0.4834, 0.5, &iterations);
  EXPECT_EQ(std::floor(sigma * 1e5) / 1e5, 0.05999);
  EXPECT_GT(iterations, 0);
}

TEST(Glicko2Test, NoGamesOnlyTheDeviationGrows) {
  const Glicko2 before{1600, 200, 0.06};
  Glicko2Steps steps;
  const Glicko2 after = UpdateGlicko2(before, {}, 0.5, &steps);
  EXPECT_EQ(after.rating, 1600);
  EXPECT_EQ(after.volatility, 0.06);
  // Step 6: φ' = sqrt(φ² + σ²).
  const double phi = 200 / kGlicko2Scale;
  EXPECT_DOUBLE_EQ(after.deviation, kGlicko2Scale * std::sqrt(phi * phi + 0.06 * 0.06));
  EXPECT_GT(after.deviation, 200);
  EXPECT_EQ(steps.v, 0);
  EXPECT_EQ(steps.iterations, 0);
}

TEST(Glicko2Test, IdleDeviationIsStepSixRepeatedAndCapped) {
  Glicko2 p{1500, 50, 0.06};
  for (int n = 1; n <= 12; ++n) {
    p = UpdateGlicko2(p, {});
    EXPECT_NEAR(IdleDeviation(Glicko2{1500, 50, 0.06}, n), p.deviation, 1e-9) << n;
  }
  // The figures rating.h gives: 51.1 after a month, 60 after about 10, 100
  // after about 69.
  EXPECT_NEAR(IdleDeviation(Glicko2{1500, 50, 0.06}, 1), 51.1, 0.05);
  EXPECT_LT(IdleDeviation(Glicko2{1500, 50, 0.06}, 10), 60);
  EXPECT_GT(IdleDeviation(Glicko2{1500, 50, 0.06}, 11), 60);
  EXPECT_LT(IdleDeviation(Glicko2{1500, 50, 0.06}, 68), 100);
  EXPECT_GT(IdleDeviation(Glicko2{1500, 50, 0.06}, 70), 100);
  EXPECT_EQ(IdleDeviation(Glicko2{1500, 340, 0.06}, 1000), 350);
  EXPECT_EQ(IdleDeviation(Glicko2{1500, 100, 0.06}, 0), 100);
}

TEST(Glicko2Test, GamesThatSayNothingCountAsNone) {
  // Opponents so far away that E is 0 or 1 to the last bit: v is infinite.
  const Glicko2 after = UpdateGlicko2(Glicko2{1500, 30, 0.06}, {{1e9, 30, 1}});
  EXPECT_EQ(after.rating, 1500);
  EXPECT_TRUE(std::isfinite(after.deviation));
}

// --- ratings over time ---------------------------------------------------------------

const RatingRow* Row(const std::vector<RatingRow>& rows, const std::string& player, const std::string& period) {
  for (const RatingRow& r : rows) {
    if (r.player == player && r.period == period) return &r;
  }
  return nullptr;
}

TEST(RatingHistoryTest, SymmetricResultsLeaveEqualPlayersEqual) {
  const std::vector<RatingRow> rows =
      RatingHistory({{"2026-01-03", "Ann", "Bo", 1},
                     {"2026-01-04", "Bo", "Ann", 1},
                     {"2026-01-05", "Ann", "Bo", 2},
                     {"2026-01-06", "Bo", "Ann", 2}});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].player, "Ann");
  EXPECT_EQ(rows[1].player, "Bo");
  EXPECT_DOUBLE_EQ(rows[0].rating, rows[1].rating);
  EXPECT_DOUBLE_EQ(rows[0].deviation, rows[1].deviation);
  EXPECT_DOUBLE_EQ(rows[0].volatility, rows[1].volatility);
  EXPECT_NEAR(rows[0].rating, 1500, 1e-9);
  EXPECT_LT(rows[0].deviation, 350);
  EXPECT_EQ(rows[0].games, 4);
}

TEST(RatingHistoryTest, TheWinnerRisesAndTheLoserFalls) {
  const std::vector<RatingRow> rows = RatingHistory({{"2026-02-01", "Ann", "Bo", 1}});
  ASSERT_EQ(rows.size(), 2u);
  const RatingRow* ann = Row(rows, "Ann", "2026-02");
  const RatingRow* bo = Row(rows, "Bo", "2026-02");
  ASSERT_NE(ann, nullptr);
  ASSERT_NE(bo, nullptr);
  EXPECT_GT(ann->rating, 1500);
  EXPECT_LT(bo->rating, 1500);
  // Equal players, one game: the same distance up and down.
  EXPECT_NEAR(ann->rating - 1500, 1500 - bo->rating, 1e-9);
  // It is the paper's update of each against the other's start.
  const Glicko2 expected = UpdateGlicko2(Glicko2{}, {{1500, 350, 1}});
  EXPECT_DOUBLE_EQ(ann->rating, expected.rating);
  EXPECT_DOUBLE_EQ(ann->deviation, expected.deviation);
  EXPECT_DOUBLE_EQ(ann->volatility, expected.volatility);
}

TEST(RatingHistoryTest, MonthlyPeriodsFromPrePeriodRatings) {
  const std::vector<ResultRow> results = {
      {"2026-01-05", "Ann", "Bo", 1}, {"2026-01-20", "Ann", "Cy", 1}, {"2026-01-31", "Cy", "Bo", 2},
      {"2026-03-01", "Bo", "Ann", 1},  // February idle
      {"2026-03", "Cy", "Ann", 2},     // a month alone is a date too
  };
  const std::vector<RatingRow> rows = RatingHistory(results);
  std::vector<std::string> order;
  for (const RatingRow& r : rows) order.push_back(absl::StrCat(r.player, " ", r.period, " ", r.games));
  EXPECT_EQ(order, (std::vector<std::string>{"Ann 2026-01 2", "Ann 2026-03 2", "Bo 2026-01 2", "Bo 2026-03 1",
                                             "Cy 2026-01 2", "Cy 2026-03 1"}));
  // January: each from the others' starting ratings, at once.
  const Glicko2 ann_jan = UpdateGlicko2(Glicko2{}, {{1500, 350, 1}, {1500, 350, 1}});
  const Glicko2 bo_jan = UpdateGlicko2(Glicko2{}, {{1500, 350, 0}, {1500, 350, 1}});
  EXPECT_DOUBLE_EQ(Row(rows, "Ann", "2026-01")->rating, ann_jan.rating);
  EXPECT_DOUBLE_EQ(Row(rows, "Bo", "2026-01")->rating, bo_jan.rating);
  // March: February's idle month grows each deviation first.
  Glicko2 ann_pre = ann_jan, bo_pre = bo_jan;
  ann_pre.deviation = IdleDeviation(ann_jan, 1);
  bo_pre.deviation = IdleDeviation(bo_jan, 1);
  const Glicko2 cy_jan = UpdateGlicko2(Glicko2{}, {{1500, 350, 0}, {1500, 350, 0}});
  Glicko2 cy_pre = cy_jan;
  cy_pre.deviation = IdleDeviation(cy_jan, 1);
  const Glicko2 ann_mar = UpdateGlicko2(
      ann_pre, {{bo_pre.rating, bo_pre.deviation, 0}, {cy_pre.rating, cy_pre.deviation, 1}});
  EXPECT_NEAR(Row(rows, "Ann", "2026-03")->rating, ann_mar.rating, 1e-9);
  EXPECT_NEAR(Row(rows, "Ann", "2026-03")->deviation, ann_mar.deviation, 1e-9);
  EXPECT_NEAR(Row(rows, "Ann", "2026-03")->volatility, ann_mar.volatility, 1e-12);
}

TEST(RatingHistoryTest, TheOrderWithinAMonthDoesNotMatter) {
  const std::vector<ResultRow> forward = {{"2026-05-01", "Ann", "Bo", 1}, {"2026-05-02", "Bo", "Cy", 1},
                                          {"2026-05-03", "Cy", "Ann", 1}, {"2026-05-04", "Ann", "Cy", 1}};
  std::vector<ResultRow> backward(forward.rbegin(), forward.rend());
  const std::vector<RatingRow> a = RatingHistory(forward), b = RatingHistory(backward);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].player, b[i].player);
    EXPECT_NEAR(a[i].rating, b[i].rating, 1e-9);
    EXPECT_NEAR(a[i].deviation, b[i].deviation, 1e-9);
  }
}

TEST(RatingHistoryTest, GamesThatCannotBeRatedAreCounted) {
  RatingSkips skipped;
  const std::vector<RatingRow> rows = RatingHistory(
      {
          {"", "Ann", "Bo", 1},            // no date
          {"2026.03.01", "Ann", "Bo", 1},  // not ISO
          {"2026-13-01", "Ann", "Bo", 1},  // no such month
          {"2026-04-01", "", "Bo", 1},     // light without a name
          {"2026-04-01", "Ann", "Ann", 1}, // against themself
          {"2026-04-01", "Ann", "Bo", 0},  // unfinished
          {"2026-04-02", "Ann", "Bo", 2},  // rated
          {"2026-03-30", "Ann", "Bo", 1},  // before April
      },
      {}, &skipped);
  EXPECT_EQ(skipped.undated, 3);
  EXPECT_EQ(skipped.unnamed, 2);
  EXPECT_EQ(skipped.unfinished, 1);
  EXPECT_EQ(skipped.out_of_order, 1);
  EXPECT_EQ(skipped.total(), 7);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].games, 1);
  EXPECT_LT(Row(rows, "Ann", "2026-04")->rating, 1500);
}

TEST(RatingHistoryTest, TheBuilderStreamsAndStartsAgainAfterFinish) {
  RatingHistoryBuilder builder;
  EXPECT_TRUE(builder.Add("2026-01-01", "Ann", "Bo", 1));
  EXPECT_FALSE(builder.Add("", "Ann", "Bo", 1));
  EXPECT_EQ(builder.skipped().undated, 1);
  EXPECT_EQ(builder.Finish().size(), 2u);
  EXPECT_EQ(builder.skipped().total(), 0);
  EXPECT_TRUE(builder.Finish().empty());
  EXPECT_TRUE(RatingHistory({}).empty());
}

TEST(RatingHistoryTest, TheDeviationNeverPassesTheCap) {
  // A newcomer who meets newcomers far away: φ' could end above φ.
  RatingOptions options;
  options.max_deviation = 350;
  std::vector<ResultRow> results;
  for (int m = 1; m <= 9; ++m) results.push_back({absl::StrFormat("2020-%02d-01", m), "Ann", "Bo", 1});
  results.push_back({"2030-01-01", "Ann", "Cy", 1});  // ten idle years
  for (const RatingRow& r : RatingHistory(results, options)) EXPECT_LE(r.deviation, 350) << r.player << r.period;
}

// --- properties ------------------------------------------------------------------------

const std::vector<std::string> kNames = {"Ann", "Bo", "Cy", "Di", "Ed"};

// Results among kNames over increasing months.
std::vector<ResultRow> GenResults() {
  const int n = *rc::gen::inRange(0, 120);
  std::vector<ResultRow> results;
  int month = 0;
  for (int i = 0; i < n; ++i) {
    month += *rc::gen::weightedElement<int>({{6, 0}, {3, 1}, {1, 7}});
    const int l = *rc::gen::inRange(0, 5);
    const int d = (l + *rc::gen::inRange(1, 5)) % 5;
    results.push_back({absl::StrFormat("%04d-%02d-01", 2000 + month / 12, month % 12 + 1), kNames[l], kNames[d],
                       *rc::gen::inRange(1, 3)});
  }
  return results;
}

RC_GTEST_PROP(RatingProperties, RatingsStayFiniteAndDeviationsInRange, ()) {
  const std::vector<ResultRow> results = GenResults();
  RatingSkips skipped;
  const std::vector<RatingRow> rows = RatingHistory(results, {}, &skipped);
  RC_ASSERT(skipped.total() == 0);
  int64_t games = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const RatingRow& r = rows[i];
    RC_ASSERT(std::isfinite(r.rating));
    RC_ASSERT(r.deviation > 0);
    RC_ASSERT(r.deviation <= 350);
    RC_ASSERT(std::isfinite(r.volatility) && r.volatility > 0);
    RC_ASSERT(r.games > 0);
    games += r.games;
    // Ordered by player, then period, each pair once.
    if (i > 0) {
      RC_ASSERT(rows[i - 1].player < r.player || (rows[i - 1].player == r.player && rows[i - 1].period < r.period));
    }
  }
  RC_ASSERT(games == 2 * static_cast<int64_t>(results.size()));
}

RC_GTEST_PROP(RatingProperties, SwappingSidesChangesNothing, ()) {
  const std::vector<ResultRow> results = GenResults();
  std::vector<ResultRow> swapped = results;
  for (ResultRow& r : swapped) {
    std::swap(r.light, r.dark);
    r.result = 3 - r.result;
  }
  const std::vector<RatingRow> a = RatingHistory(results), b = RatingHistory(swapped);
  RC_ASSERT(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    RC_ASSERT(a[i].player == b[i].player && a[i].period == b[i].period);
    RC_ASSERT(std::abs(a[i].rating - b[i].rating) < 1e-6);
  }
}

RC_GTEST_PROP(RatingProperties, MoreWinsAgainstTheSameOpponentsNeverRateLower, ()) {
  const Glicko2 player{*rc::gen::inRange(500, 2500) * 1.0, *rc::gen::inRange(30, 351) * 1.0,
                       *rc::gen::inRange(1, 200) / 1000.0};
  const int n = *rc::gen::inRange(1, 25);
  std::vector<Glicko2Game> games;
  for (int i = 0; i < n; ++i) {
    games.push_back(
        {*rc::gen::inRange(500, 2500) * 1.0, *rc::gen::inRange(30, 351) * 1.0, *rc::gen::inRange(0, 2) * 1.0});
  }
  const int flip = *rc::gen::inRange(0, n);
  games[flip].score = 0;
  std::vector<Glicko2Game> better = games;
  better[flip].score = 1;
  const double tau = *rc::gen::element(0.3, 0.5, 1.2);
  const Glicko2 a = UpdateGlicko2(player, games, tau), b = UpdateGlicko2(player, better, tau);
  RC_ASSERT(b.rating >= a.rating - 1e-9);
  RC_ASSERT(std::isfinite(a.rating) && std::isfinite(b.rating));
}

RC_GTEST_PROP(RatingProperties, AWinInsteadOfALossNeverRatesLowerInItsMonth, ()) {
  std::vector<ResultRow> results = GenResults();
  RC_PRE(!results.empty());
  const size_t k = *rc::gen::inRange<size_t>(0, results.size());
  ResultRow& game = results[k];
  const std::string winner = game.result == 1 ? game.dark : game.light;  // the loser, made the winner
  const std::string period = game.date.substr(0, 7);
  const std::vector<RatingRow> before = RatingHistory(results);
  game.result = 3 - game.result;
  const std::vector<RatingRow> after = RatingHistory(results);
  RC_ASSERT(Row(after, winner, period)->rating >= Row(before, winner, period)->rating - 1e-9);
}

// --- the graph -------------------------------------------------------------------------

// Whether xmllint finds `svg` well-formed (callers skip without xmllint).
bool WellFormed(const std::string& svg, const std::string& name) {
  const std::string path = absl::StrCat(testing::TempDir(), "/rating_", name, ".svg");
  std::ofstream(path, std::ios::binary) << svg;
  const bool ok = std::system(absl::StrCat("xmllint --noout '", path, "'").c_str()) == 0;
  std::remove(path.c_str());
  return ok;
}

bool HaveXmllint() { return std::system("command -v xmllint > /dev/null 2>&1") == 0; }

std::vector<RatingRow> Season() {
  return RatingHistory({{"2026-01-05", "<Ann & \"Bo\">\x01", "Cy", 1},
                        {"2026-01-06", "<Ann & \"Bo\">\x01", "Cy", 1},
                        {"2026-02-01", "Cy", "<Ann & \"Bo\">\x01", 1},
                        {"2026-04-01", "<Ann & \"Bo\">\x01", "Cy", 1},
                        {"2026-04-02", "Di", "Cy", 1}});
}

TEST(RatingSvgTest, APointPerPeriodWithItsFigures) {
  const std::vector<RatingRow> rows = Season();
  const std::string name = "<Ann & \"Bo\">\x01";
  const std::string svg = RatingSvg(rows, name);
  int points = 0;
  for (size_t at = 0; (at = svg.find("<circle class=\"point\"", at)) != std::string::npos; ++at) ++points;
  EXPECT_EQ(points, 3);
  for (const RatingRow& r : rows) {
    if (r.player != name) continue;
    EXPECT_TRUE(absl::StrContains(svg, absl::StrFormat("<title>%s: %.0f \xC2\xB1 %.0f (RD %.0f), %d game", r.period,
                                                       r.rating, 2 * r.deviation, r.deviation, r.games)))
        << r.period;
  }
  EXPECT_TRUE(absl::StrContains(svg, "<polyline class=\"rating\""));
  EXPECT_TRUE(absl::StrContains(svg, "<polygon class=\"band\""));
  // The name escaped, the control character replaced.
  EXPECT_TRUE(absl::StrContains(svg, "Rating of &lt;Ann &amp; &quot;Bo&quot;&gt;\xEF\xBF\xBD"));
  EXPECT_FALSE(absl::StrContains(svg, "\x01"));
  // Months by the calendar: the idle March too.
  for (const char* month : {"2026-01", "2026-02", "2026-03", "2026-04"}) {
    EXPECT_TRUE(absl::StrContains(svg, absl::StrCat(">", month, "</text>"))) << month;
  }
}

TEST(RatingSvgTest, IsWellFormedXml) {
  if (!HaveXmllint()) GTEST_SKIP() << "xmllint is not installed (Debian: libxml2-utils)";
  const std::vector<RatingRow> rows = Season();
  EXPECT_TRUE(WellFormed(RatingSvg(rows, "<Ann & \"Bo\">\x01"), "ann"));
  EXPECT_TRUE(WellFormed(RatingSvg(rows, "Di"), "one_point"));
  EXPECT_TRUE(WellFormed(RatingSvg({}, "Nobody"), "empty"));
  EXPECT_TRUE(WellFormed(RatingSvg(rows, std::string("bad \xff utf-8 \xEF\xBF\xBF")), "bad_utf8"));
}

TEST(RatingSvgTest, NoRatedGamesSaysSo) {
  for (const std::string& svg : {RatingSvg({}, "Ann"), RatingSvg(Season(), "Nobody")}) {
    EXPECT_TRUE(absl::StrContains(svg, "no rated games"));
    EXPECT_TRUE(absl::StrContains(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    EXPECT_TRUE(absl::EndsWith(svg, "</svg>\n"));
    EXPECT_FALSE(absl::StrContains(svg, "<circle"));
  }
}

}  // namespace
}  // namespace scribe::games
