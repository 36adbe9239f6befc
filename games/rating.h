// Player ratings over time, from results: Glicko-2 (Mark E. Glickman,
// "Example of the Glicko-2 system", Boston University, 2013), the method
// lichess rates its players by.
//
// Why Glicko-2 and not Elo. Elo gives a player one number and moves it by a
// fixed K times the surprise of each result: it cannot say how sure it is.
// A newcomer's first games then move them as slowly as a regular's, and a
// player back after a year is trusted as if they had never left. Glicko
// gives every rating a deviation (RD), how sure the rating is: rating ± 2 RD
// is about a 95% interval for the player's strength (1500 with RD 350, a
// newcomer, says "somewhere from 800 to 2200"; 1500 with RD 50 says "1400 to
// 1600"). Results move an unsure rating a lot and a sure one little; a
// result against an opponent whose rating is unsure counts for less; each
// rated period makes a player's rating surer, and time away makes it less
// sure again. Glicko-2 adds the volatility (σ), how erratic the player's
// results are: it grows when results surprise period after period, so that
// a player who really got better is followed faster. Lichess uses Glicko-2,
// so its figures read the way our users know from there; they are on Elo's
// familiar scale (1500 the start, 400 points between 10:1 odds).
//
// The figures. A new player starts at rating 1500, RD 350, volatility 0.06
// (the paper's). The system constant τ, how fast volatility may change, is
// 0.5 (the paper suggests 0.3 to 1.2; smaller for games with improbable
// results). Lichess tunes these on its own games: τ 0.75, a newcomer's RD
// 500 (also its cap), volatility 0.09 (capped at 0.1), periods of about 4.66
// days counted in fractions, each game rated when it ends. We keep the
// paper's figures and whole periods: we have no body of Ur results to tune
// on, and the paper's example is then a test of the code. The Glicko-2 scale is the rating scale
// divided by 173.7178 (= 400 / ln 10) about 1500: μ = (r - 1500) / 173.7178,
// φ = RD / 173.7178. The volatility iteration (the paper's step 5, the
// Illinois algorithm) stops when its bracket is narrower than ε = 0.000001.
// The paper's worked example (a 1500 player with RD 200 and volatility 0.06
// who beats a 1400/RD 30 player and loses to 1550/RD 100 and 1700/RD 300)
// prints v = 1.7785, Δ = -0.4834, σ' = 0.05999, μ' = -0.2069, φ' = 0.8722:
// rating 1464.06, RD 151.52. The paper rounds as it goes (g to 4 decimals,
// E to 3, then each result): computed without rounding, the same example
// gives v = 1.77898, Δ = -0.48393, σ' = 0.0599960, μ' = -0.20694, φ' =
// 0.87220, rating 1464.0507, RD 151.5165. μ' and φ' agree with the printed
// digits, and so do the rating and RD made from them; from the paper's own
// rounded g and E, v and Δ come out as printed, and step 5 from the
// printed v and Δ gives σ' = 0.0599960, which the paper cuts to 0.05999
// (tests/games/rating_test.cc checks all of this).
// Step 5 (b) reads "if f(C) f(B) ≤ 0", as later printings of the paper
// have it: with the "< 0" of some printings, an f(C) of exactly 0 never
// ends.
//
// Rating periods. The paper treats the games of a rating period as played
// at once: every player's ratings at the start of the period, the period's
// results, then everyone's new ratings together, each computed from the
// others' ratings before the period (so the order of games within a period
// does not matter, up to rounding). It works best with "at least 10-15
// games per player in a rating period". Our period is the calendar month
// of the game's Date ("2026-03" of "2026-03-14"): long enough for a
// player's games of a month to count together, short enough for a rating
// over a year to have a dozen points. A player who sits out a month has only
// their RD grow, by the paper's step 6, φ' = sqrt(φ² + σ²), once per
// calendar month missed (months nobody played count too): with σ = 0.06,
// about 10.4 rating points added in quadrature a month, so RD 50 becomes
// 51.1 after one idle month, 60 after about 10 months, 100 after about 69.
// The growth is applied when the player plays again (their next point shows
// it), not written as points of its own: the work is one step per game, not
// one per player per month. Lichess grows RD with the time since a player's
// last game in the same way. RD never goes above 350, a newcomer's (a
// player gone for good is a newcomer again, no less known), as Glicko-1
// caps it (lichess caps at its newcomer's 500); the paper's steps have no
// cap.
//
// What is not rated. A game without a Date (or with one that does not begin
// "YYYY-MM" with a month 01..12) has no period: it is left out and counted
// (RatingSkips::undated), as is a game with a side without a name (all the
// nameless players are not one player), a game a player played against
// themself, an unfinished one, and one dated before the month being rated
// (results must come in date order). Ur has no draws: a result is 1 or 0
// (UpdateGlicko2 takes 0.5 too).
//
// These ratings come from results only. The review's performance rating
// (review/: an Elo-style figure from the mean loss of a player's moves in
// one game) is another thing: how well the moves were played, luck aside.
// Ur's dice make results noisy, so ratings from results spread less, and
// need more games to settle, than in chess.
//
// Nothing here knows SQL or files; the database (games/store.h) keeps the
// rows made here (RatingRow).
#ifndef SCRIBE_GAMES_RATING_H_
#define SCRIBE_GAMES_RATING_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "games/store.h"

namespace scribe::games {

// Rating points per unit of the Glicko-2 scale: 400 / ln(10), as the paper
// rounds it.
inline constexpr double kGlicko2Scale = 173.7178;

// A player's rating, rating deviation and volatility (on the rating scale;
// the volatility is on the Glicko-2 scale, as the paper gives it).
struct Glicko2 {
  double rating = 1500, deviation = 350, volatility = 0.06;
};

// One game of a rating period, as the player being rated saw it.
struct Glicko2Game {
  double opponent_rating = 1500;
  double opponent_deviation = 350;
  double score = 0;  // 1 won, 0 lost, 0.5 drawn
};

// The paper's quantities along the way, on the Glicko-2 scale.
struct Glicko2Steps {
  double mu = 0, phi = 0;  // step 2
  double v = 0;            // step 3 (0 without games: there is no estimate)
  double delta = 0;        // step 4
  double sigma = 0;        // step 5: σ'
  double phi_star = 0;     // step 6: the pre-period deviation grown
  double mu_new = 0;       // step 7: μ'
  double phi_new = 0;      // step 7: φ'
  int iterations = 0;      // step 5's Illinois iterations
};

// The paper's g(φ) and E(μ, μj, φj) (step 3), and step 5: the new
// volatility σ' from φ, σ, v and Δ (all on the Glicko-2 scale), by the
// Illinois algorithm to ε = 0.000001; `iterations`, when given, gets how
// many it took.
double Glicko2G(double phi);
double Glicko2E(double mu, double mu_j, double phi_j);
double Glicko2Volatility(double phi, double sigma, double v, double delta, double tau = 0.5,
                         int* iterations = nullptr);

// One player's ratings after one rating period with these games, against
// the opponents' ratings before the period: the paper's steps 1 to 8. With
// no games, only the deviation grows (step 6): the rating and volatility
// stay. `tau` > 0 is the system constant. Games that carry no information
// (opponents so far away, or so unsure, that the variance v is not finite)
// count as none. `steps`, when given, gets the intermediate values.
Glicko2 UpdateGlicko2(const Glicko2& player, const std::vector<Glicko2Game>& games, double tau = 0.5,
                      Glicko2Steps* steps = nullptr);

// The deviation after `periods` rating periods without games (step 6 that
// many times: sqrt(φ² + periods σ²)), at most `max_deviation`.
double IdleDeviation(const Glicko2& player, int64_t periods, double max_deviation = 350);

struct RatingOptions {
  Glicko2 start;  // a new player's ratings
  double tau = 0.5;
  double max_deviation = 350;
};

// One finished game, as Store::ScanResults gives it.
struct ResultRow {
  std::string date;  // "2026-03-14"; "" without
  std::string light, dark;
  int result = 0;  // 1 light won, 2 dark won
};

// The games left out, by why.
struct RatingSkips {
  int64_t undated = 0;        // no date, or not "YYYY-MM..."
  int64_t unnamed = 0;        // a side without a name, or the same name on both
  int64_t unfinished = 0;     // a result other than 1 or 2
  int64_t out_of_order = 0;   // dated before the month being rated
  int64_t total() const { return undated + unnamed + unfinished + out_of_order; }
};

// Ratings from results in date order, a game at a time (Store::ScanResults
// hands them over one by one). Memory grows with the players (and the rows
// made), not with the games; each game is O(1) work, each finished period
// O(its players).
class RatingHistoryBuilder {
 public:
  explicit RatingHistoryBuilder(const RatingOptions& options = {});
  ~RatingHistoryBuilder();
  RatingHistoryBuilder(const RatingHistoryBuilder&) = delete;
  RatingHistoryBuilder& operator=(const RatingHistoryBuilder&) = delete;

  // One game; false when it is left out (counted in skipped()).
  bool Add(absl::string_view date, absl::string_view light, absl::string_view dark, int result);
  const RatingSkips& skipped() const;
  // Rates the last period and hands over every row: one per player per
  // month they played in, ordered by player (byte order), then period. The
  // builder is empty afterwards (a new history may begin).
  std::vector<RatingRow> Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The same over a list of results; `skipped`, when given, gets the games
// left out.
std::vector<RatingRow> RatingHistory(const std::vector<ResultRow>& results, const RatingOptions& options = {},
                                     RatingSkips* skipped = nullptr);

// An SVG picture of `player`'s rating over time from their rows among
// `rows` (other players' rows are ignored): the rating as a line with a
// point per period (its title says the figures), a band of rating ± 2 RD,
// months on the x axis (by the calendar: idle months take their room),
// rating ticks on the y axis. Without rows for the player, a picture that
// says "no rated games". The name is escaped for XML (and bytes that XML
// cannot hold replaced by U+FFFD).
std::string RatingSvg(const std::vector<RatingRow>& rows, const std::string& player);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_RATING_H_
