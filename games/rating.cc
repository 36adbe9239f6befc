#include "games/rating.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"

namespace scribe::games {
namespace {

// Step 5's tolerance, the paper's ε.
constexpr double kEpsilon = 0.000001;
// Bounds on the step 5 loops, which end long before for any τ > 0 (two
// iterations in the paper's example): a guard, not a tolerance.
constexpr int kMaxIterations = 1000;

}  // namespace

double Glicko2G(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi)); }

double Glicko2E(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-Glicko2G(phi_j) * (mu - mu_j)));
}

// Step 5, as the paper gives it.
double Glicko2Volatility(double phi, double sigma, double v, double delta, double tau, int* iterations) {
  const double a = std::log(sigma * sigma);
  const double phi2 = phi * phi, delta2 = delta * delta;
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi2 + v + ex;
    return ex * (delta2 - phi2 - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
  };
  double A = a, B = 0;
  if (delta2 > phi2 + v) {
    B = std::log(delta2 - phi2 - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0 && k < kMaxIterations) ++k;
    B = a - k * tau;
  }
  double fA = f(A), fB = f(B);
  int n = 0;
  while (std::abs(B - A) > kEpsilon && n < kMaxIterations) {
    ++n;
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    // The 2022 revision's ≤: with "<", an f(C) of exactly 0 never ends.
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA = fA / 2;
    }
    B = C;
    fB = fC;
  }
  if (iterations != nullptr) *iterations = n;
  return std::exp(A / 2);
}

namespace {

// A player's period, summed as its games come: Σ g(φj)² E (1 - E) (step
// 3's sum) and Σ g(φj) (sj - E) (step 4's and 7's).
struct PeriodSums {
  double variance_sum = 0;
  double score_sum = 0;
  int64_t games = 0;

  void Add(double mu, double mu_j, double phi_j, double score) {
    const double g = Glicko2G(phi_j);
    const double e = Glicko2E(mu, mu_j, phi_j);
    variance_sum += g * g * e * (1 - e);
    score_sum += g * (score - e);
    ++games;
  }
};

// Steps 2 to 8 from a period's sums.
Glicko2 UpdateFromSums(const Glicko2& player, const PeriodSums& sums, double tau, Glicko2Steps* steps) {
  Glicko2Steps s;
  s.mu = (player.rating - 1500) / kGlicko2Scale;
  s.phi = player.deviation / kGlicko2Scale;
  const double v = 1.0 / sums.variance_sum;
  const double delta = v * sums.score_sum;
  Glicko2 out = player;
  if (sums.games == 0 || !std::isfinite(v) || !std::isfinite(delta * delta)) {
    // No games (or none that say anything): step 6 alone.
    s.sigma = player.volatility;
    s.phi_star = std::sqrt(s.phi * s.phi + s.sigma * s.sigma);
    s.mu_new = s.mu;
    s.phi_new = s.phi_star;
  } else {
    s.v = v;
    s.delta = delta;
    s.sigma = Glicko2Volatility(s.phi, player.volatility, v, delta, tau, &s.iterations);
    s.phi_star = std::sqrt(s.phi * s.phi + s.sigma * s.sigma);
    s.phi_new = 1.0 / std::sqrt(1.0 / (s.phi_star * s.phi_star) + 1.0 / v);
    s.mu_new = s.mu + s.phi_new * s.phi_new * sums.score_sum;
    out.volatility = s.sigma;
  }
  // Step 8.
  out.rating = kGlicko2Scale * s.mu_new + 1500;
  out.deviation = kGlicko2Scale * s.phi_new;
  if (steps != nullptr) *steps = s;
  return out;
}

// The month of a date as a number (year * 12 + month - 1); -1 when the
// date does not begin "YYYY-MM" (followed by nothing or "-").
int64_t MonthOf(absl::string_view date) {
  if (date.size() < 7 || (date.size() > 7 && date[7] != '-') || date[4] != '-') return -1;
  int64_t year = 0;
  for (int i = 0; i < 4; ++i) {
    if (date[i] < '0' || date[i] > '9') return -1;
    year = year * 10 + (date[i] - '0');
  }
  if (date[5] < '0' || date[5] > '9' || date[6] < '0' || date[6] > '9') return -1;
  const int month = (date[5] - '0') * 10 + (date[6] - '0');
  if (month < 1 || month > 12) return -1;
  return year * 12 + month - 1;
}

std::string PeriodName(int64_t month) { return absl::StrFormat("%04d-%02d", month / 12, month % 12 + 1); }

}  // namespace

Glicko2 UpdateGlicko2(const Glicko2& player, const std::vector<Glicko2Game>& games, double tau, Glicko2Steps* steps) {
  const double mu = (player.rating - 1500) / kGlicko2Scale;
  PeriodSums sums;
  for (const Glicko2Game& game : games) {
    sums.Add(mu, (game.opponent_rating - 1500) / kGlicko2Scale, game.opponent_deviation / kGlicko2Scale, game.score);
  }
  return UpdateFromSums(player, sums, tau, steps);
}

double IdleDeviation(const Glicko2& player, int64_t periods, double max_deviation) {
  if (periods <= 0) return std::min(player.deviation, max_deviation);
  const double phi = player.deviation / kGlicko2Scale;
  const double grown =
      kGlicko2Scale * std::sqrt(phi * phi + static_cast<double>(periods) * player.volatility * player.volatility);
  return std::min(grown, max_deviation);
}

// --- RatingHistoryBuilder ----------------------------------------------------------

struct RatingHistoryBuilder::State {
  struct Player {
    std::string name;
    Glicko2 ratings;
    int64_t last_month = -1;  // the last month rated; -1 none yet
    bool active = false;      // plays in the current month
    PeriodSums sums;          // the current month's
    std::vector<RatingRow> rows;
  };

  RatingOptions options;
  RatingSkips skipped;
  absl::flat_hash_map<std::string, int> index;
  std::vector<Player> players;
  std::vector<int> active;  // the players of the current month
  int64_t month = -1;       // the current month; -1 none yet

  // The player's index, added when new; made active in the current month
  // with the months missed since their last applied (step 6 for each).
  int Enter(absl::string_view name) {
    auto it = index.find(name);
    if (it == index.end()) {
      it = index.emplace(std::string(name), static_cast<int>(players.size())).first;
      Player player;
      player.name = std::string(name);
      player.ratings = options.start;
      players.push_back(std::move(player));
    }
    Player& p = players[it->second];
    if (!p.active) {
      p.active = true;
      p.sums = {};
      if (p.last_month >= 0) {
        p.ratings.deviation = IdleDeviation(p.ratings, month - p.last_month - 1, options.max_deviation);
      }
      active.push_back(it->second);
    }
    return it->second;
  }

  // Rates the current month: every active player at once, from the sums
  // gathered against the others' ratings before it.
  void Close() {
    for (int i : active) {
      Player& p = players[i];
      p.ratings = UpdateFromSums(p.ratings, p.sums, options.tau, nullptr);
      p.ratings.deviation = std::min(p.ratings.deviation, options.max_deviation);
      p.last_month = month;
      p.active = false;
      p.rows.push_back(RatingRow{.player = p.name,
                                 .period = PeriodName(month),
                                 .rating = p.ratings.rating,
                                 .deviation = p.ratings.deviation,
                                 .volatility = p.ratings.volatility,
                                 .games = p.sums.games});
    }
    active.clear();
  }
};

RatingHistoryBuilder::RatingHistoryBuilder(const RatingOptions& options) : state_(std::make_unique<State>()) {
  state_->options = options;
}

RatingHistoryBuilder::~RatingHistoryBuilder() = default;

const RatingSkips& RatingHistoryBuilder::skipped() const { return state_->skipped; }

bool RatingHistoryBuilder::Add(absl::string_view date, absl::string_view light, absl::string_view dark, int result) {
  State& s = *state_;
  if (result != 1 && result != 2) {
    ++s.skipped.unfinished;
    return false;
  }
  if (light.empty() || dark.empty() || light == dark) {
    ++s.skipped.unnamed;
    return false;
  }
  const int64_t month = MonthOf(date);
  if (month < 0) {
    ++s.skipped.undated;
    return false;
  }
  if (month < s.month) {
    ++s.skipped.out_of_order;
    return false;
  }
  if (month > s.month) {
    s.Close();
    s.month = month;
  }
  const int l = s.Enter(light);
  const int d = s.Enter(dark);
  State::Player& pl = s.players[l];
  State::Player& pd = s.players[d];
  const double mu_l = (pl.ratings.rating - 1500) / kGlicko2Scale, phi_l = pl.ratings.deviation / kGlicko2Scale;
  const double mu_d = (pd.ratings.rating - 1500) / kGlicko2Scale, phi_d = pd.ratings.deviation / kGlicko2Scale;
  pl.sums.Add(mu_l, mu_d, phi_d, result == 1 ? 1.0 : 0.0);
  pd.sums.Add(mu_d, mu_l, phi_l, result == 2 ? 1.0 : 0.0);
  return true;
}

std::vector<RatingRow> RatingHistoryBuilder::Finish() {
  State& s = *state_;
  s.Close();
  std::vector<int> order(s.players.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return s.players[a].name < s.players[b].name; });
  size_t total = 0;
  for (const State::Player& p : s.players) total += p.rows.size();
  std::vector<RatingRow> rows;
  rows.reserve(total);
  for (int i : order) {
    for (RatingRow& row : s.players[i].rows) rows.push_back(std::move(row));
  }
  const RatingOptions options = s.options;
  state_ = std::make_unique<State>();
  state_->options = options;
  return rows;
}

std::vector<RatingRow> RatingHistory(const std::vector<ResultRow>& results, const RatingOptions& options,
                                     RatingSkips* skipped) {
  RatingHistoryBuilder builder(options);
  for (const ResultRow& r : results) builder.Add(r.date, r.light, r.dark, r.result);
  if (skipped != nullptr) *skipped = builder.skipped();
  return builder.Finish();
}

}  // namespace scribe::games
