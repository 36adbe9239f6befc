// The review of a game, for the players: how well each side played
// (accuracy, error rate, a performance rating), how lucky each was (luck
// and the luck-adjusted result), the key moves (the decisions that cost
// most) and the turning points (the biggest swings, by skill or by dice),
// and plain counts (turns, captures, rosette landings, passes, throws of
// each value against their expected counts).
//
// A review is computed from a record annotated with winning chances
// (review/annotate.h, AddWinningChances): every figure comes from the
// evaluator's chances, so every figure is exact when they come from a solved
// table and an estimate when they come from a search (GameReview::exact).
// The counts are counted, exact either way. The formulas are written out,
// with a worked example, in docs/review.md.
#ifndef SCRIBE_REVIEW_REVIEW_H_
#define SCRIBE_REVIEW_REVIEW_H_

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/position.h"
#include "engine/types.h"
#include "review/annotate.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// The accuracy of one decision, in percent, from its loss (a chance in
// [0, 1]): 100 * exp(-loss_points / kAccuracyScale), loss_points = 100 *
// loss. 100 for the best move; 1 point lost gives 71.7, 2 give 51.3, 5
// give 18.9, 10 give 3.6 (docs/review.md: the scale puts random play near
// 62% and the bots that think near 90% on finkel).
inline constexpr double kAccuracyScale = 3.0;
double DecisionAccuracy(double loss);

// The performance rating of an error rate (mean loss per decision, a
// chance): kRatingPerfect - kRatingScale * error_rate_points ^
// kRatingExponent, never below kRatingFloor. Fitted on finkel (the full
// table) to the results of the bots of engine/bots.h against perfect play
// and their error rates in games between equals
// (bench/calibrate_rating.cc, docs/review.md): random play is near 970,
// the heuristic bot near 1800.
inline constexpr double kRatingPerfect = 2000.0;
inline constexpr double kRatingScale = 444.7;
inline constexpr double kRatingExponent = 0.846;
inline constexpr double kRatingFloor = 0.0;
double PerformanceRating(double error_rate);

// How often a throw came, against how often the dice give it.
struct ThrowCount {
  int roll = 0;
  int count = 0;
  double expected = 0;  // throws * the roll's chance
};

// One side's counts (not from the chances: exact whatever the evaluator).
struct GameCounts {
  int turns = 0;     // turns begun (an extra throw continues a turn)
  int throws = 0;    // actions: moves and passes
  int moves = 0;
  int passes = 0;
  int captures_made = 0;
  int captures_suffered = 0;
  int rosette_landings = 0;  // moves ending on a tile that gives another throw
  int borne_off = 0;
  std::vector<ThrowCount> throws_by_value;  // every value the dice can give
};

struct PlayerReview {
  Side side = kLight;
  std::string name;  // the record's Light or Dark tag; empty without
  int decisions = 0;  // moves with at least two legal moves
  int forced = 0;     // moves with one legal move (not judged)
  // Mean DecisionAccuracy over the decisions; 100 with no decision.
  double accuracy = 100;
  // Mean loss per decision (a chance); 0 with no decision.
  double error_rate = 0;
  double total_loss = 0;
  int doubtful = 0;
  int mistakes = 0;
  int blunders = 0;
  double rating = kRatingPerfect;  // PerformanceRating(error_rate)
  // The sum of each throw's luck (its value against the average throw).
  double luck = 0;
  // The result: 1 won, 0 lost; an unfinished game: the side's chance at
  // the end.
  double result = 0;
  // result - (own luck - the opponent's luck), as GNU Backgammon has it:
  // the result with the dice's part taken out. With exact chances it equals
  // the start chance - own total loss + the opponent's total loss. One
  // game's can fall outside [0, 1]; over many games it estimates the share
  // of games the side would win with average dice.
  double luck_adjusted_result = 0;
  GameCounts counts;
};

// A decision that cost most.
struct KeyMove {
  int index = 0;  // the action; the position before it is positions[index]
  Side player = kLight;
  int roll = 0;
  Position position;  // before the move
  Move played;
  Move best;
  double loss = 0;
  std::string mark;
  double chance_before = 0;  // the mover's, before the throw
  double best_value = 0;     // the mover's chance after the best move
  double played_value = 0;   // after the move played
};

// One of the biggest swings of light's chance from one action.
struct TurningPoint {
  int index = 0;
  Side player = kLight;
  int roll = 0;
  double light_before = 0;  // light's chance before the throw
  double light_after = 0;   // after the action: before + the mover's luck - loss
  double luck = 0;          // the mover's luck of the throw
  double loss = 0;          // the mover's loss by the move
  // True when the dice made the swing (|luck| > loss), false when the
  // move did.
  bool by_dice = true;
};

struct ReviewOptions {
  int key_moves = 5;       // at most this many key moves (loss > 0 only)
  int turning_points = 3;  // at most this many turning points
};

struct GameReview {
  std::string evaluator;
  bool exact = false;
  std::string ruleset;  // the record's ruleset reference
  double start_light = 0;  // light's chance at the start
  double end_light = 0;
  std::optional<Side> winner;
  int actions = 0;
  PlayerReview players[2];  // by Side
  std::vector<KeyMove> key_moves;          // costliest first
  std::vector<TurningPoint> turning_points;  // biggest swing first
};

// The review of `record`, annotated with winning chances in `annotated`.
// INVALID_ARGUMENT when the annotation has no winning chances or is not
// of this record.
absl::StatusOr<GameReview> ReviewGame(const v1::GameRecord& record, const AnnotatedRecord& annotated,
                                      const ReviewOptions& options = {});

// A player's figures of a review alone: ReviewGame's PlayerReview::
// decisions, accuracy, error_rate and rating, to the last bit.
struct PlayerFigures {
  int decisions = 0;
  double accuracy = 100;
  double error_rate = 0;
  double rating = kRatingPerfect;
};

// Both players' figures (by Side) of a judged legal record (judged with
// RefereeOptions::keep_positions) from `evaluator`, for a caller that keeps
// nothing else of a review (the database's import): only the decisions
// are valued, each as AddWinningChances values it, with no annotation, no
// chance before each throw, no pass or forced move looked up and no key
// moves. INVALID_ARGUMENT for a record that is not a legal game,
// FAILED_PRECONDITION for an evaluator of other rules, CANCELLED once
// `stop` says stop.
absl::StatusOr<std::array<PlayerFigures, 2>> PlayersFigures(const JudgedRecord& judged, const Evaluator& evaluator,
                                                            const StopCheck& stop = {});

// As scribe.v1.Review (proto/scribe/v1/record.proto); moves and positions
// in path numbers and position strings.
v1::Review ReviewToProto(const GameReview& review, const Rules& rules);

}  // namespace scribe

#endif  // SCRIBE_REVIEW_REVIEW_H_
