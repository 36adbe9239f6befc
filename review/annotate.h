// Annotation of game records: for every action, what it did, how many moves
// the throw allowed, the race standing after it, and where the heuristic
// evaluation (engine/evaluate.h) ranks the move played among the legal ones.
//
// The annotation is computed here from a judged record (records/judged.h:
// the referee's verdict with its positions), never by judging again; it is
// written (review/annotation_text.h) two ways (docs/annotation.md):
//  - into the record, as machine-readable annotations in each action's
//    comment, so that the annotated record is still a legal record in any
//    format (TSN shows them in braces):
//      1. L 4:0-4* {[%did entered,rosette,extra-throw] [%alts 1] [%rank 1/1]
//         [%score 8] [%race 101-105]}
//  - as scribe.v1.Annotation (proto/scribe/v1/record.proto), for JSON.
//
// With an Evaluator (engine/evaluator.h: an exact solved table or a search
// estimate), AnnotateWithValues adds winning chances to every action: the
// mover's chance before the throw, the value of the throw, the chance after
// the move played, the best move by value, the loss, an error mark and the
// luck of the throw, with a summary per player and the evaluator's name and
// exactness (docs/annotation.md, "Winning chances").
#ifndef SCRIBE_REVIEW_ANNOTATE_H_
#define SCRIBE_REVIEW_ANNOTATE_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/evaluate.h"
#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/stop.h"
#include "records/judged.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// What one action did, in the order they are written. "captured" and
// "bore-off" carry a count after a colon when it is more than one
// ("captured:2", "bore-off:3"), as TSN writes x2.
inline constexpr absl::string_view kDidEntered = "entered";
inline constexpr absl::string_view kDidCaptured = "captured";
inline constexpr absl::string_view kDidRosette = "rosette";
inline constexpr absl::string_view kDidExtraThrow = "extra-throw";
inline constexpr absl::string_view kDidPlaced = "placed";
inline constexpr absl::string_view kDidBoreOff = "bore-off";
inline constexpr absl::string_view kDidWon = "won";
inline constexpr absl::string_view kDidForced = "forced";
inline constexpr absl::string_view kDidPass = "pass";

// Error marks, in the spirit of GNU Backgammon's: by the winning chance a
// move loses against the best move (docs/annotation.md, "Winning chances").
inline constexpr absl::string_view kMarkDoubtful = "?!";
inline constexpr absl::string_view kMarkMistake = "?";
inline constexpr absl::string_view kMarkBlunder = "??";

// A move is marked when its loss (a chance in [0, 1]) reaches a threshold:
// 2 points of winning chance "?!", 5 points "?", 10 points "??".
struct MarkThresholds {
  double doubtful = 0.02;
  double mistake = 0.05;
  double blunder = 0.10;
};

// "", "?!", "?" or "??" for a loss.
std::string MarkForLoss(double loss, const MarkThresholds& thresholds = {});

// The winning chances of one action, all for the side that threw (the
// mover), in [0, 1].
struct ActionValues {
  // The mover's chance before the throw: the evaluator's Value of the
  // position when it is exact; for an estimate, ExpectedValueOverThrows
  // (the average of `throw_value` over the dice), so that luck averages to
  // zero exactly.
  double before = 0;
  // What the throw is worth: ValueOfThrow (the best move's value, or the
  // pass value when the throw has no move).
  double throw_value = 0;
  // After the move played (ValueAfterMove), or after the pass.
  double after = 0;
  // The best move by value, when it is worth more than the move played
  // (equal values: the first in LegalMoves order); its value is
  // `throw_value`.
  std::optional<Move> best;
  // throw_value - after: >= 0, 0 for the best move and on a pass.
  double loss = 0;
  std::string mark;  // MarkForLoss(loss): "", "?!", "?", "??"
  // throw_value - before: how much better (or worse) this throw is than
  // the average throw.
  double luck = 0;
};

// One side's game, from the winning chances.
struct PlayerSummary {
  int throws = 0;     // actions (moves and passes)
  int moves = 0;      // actions that moved a piece
  int decisions = 0;  // moves with at least two legal moves to choose from
  double total_loss = 0;
  int doubtful = 0;
  int mistakes = 0;
  int blunders = 0;
  double total_luck = 0;
};

// What the winning chances of a record come from, and each side's summary.
struct ValuesSummary {
  std::string evaluator;  // Evaluator::name()
  bool exact = false;     // Evaluator::exact(): a solved table, not an estimate
  MarkThresholds thresholds;
  PlayerSummary players[2];  // by Side: light, dark
  // Light's chance in the position after the last action (1 or 0 when the
  // game is over), computed as `before` is.
  double end_light = 0;
};

struct ActionAnnotation {
  int index = 0;
  Side player = kLight;
  int roll = 0;
  std::optional<Move> move;  // absent on a pass
  std::vector<std::string> did;
  int captured = 0;
  int alternatives = 0;  // legal moves for the throw
  // 1 + the number of legal moves the evaluation scores higher: 1 for the
  // best move and for any move scored as high; 0 on a pass.
  int rank = 0;
  double score = 0;      // the evaluation of the move played
  // The evaluation's best move (the first of RankMoves), when it scores
  // higher than the move played.
  std::optional<Move> best;
  double best_score = 0;
  RaceStanding race;     // after the action
  // Winning chances, when annotated with an evaluator.
  std::optional<ActionValues> values;
};

struct AnnotatedRecord {
  std::shared_ptr<const Rules> rules;
  // The start, then the position after each action (the verdict's).
  std::vector<Position> positions;
  Side first_player = kLight;
  RaceStanding start_race;
  std::vector<ActionAnnotation> actions;
  std::optional<Side> winner;
  // When annotated with an evaluator.
  std::optional<ValuesSummary> values;
};

// Annotates every action of a judged record, which must be legal (finished
// or not) and judged with RefereeOptions::keep_positions. INVALID_ARGUMENT,
// saying which rule the record breaks and where, when it is not a legal
// game. Polls `stop` (engine/stop.h) as it goes: CANCELLED once it says
// stop. Without `score_moves` the heuristic's judgement of each move
// (ActionAnnotation::rank, score, best, best_score) is left out (0, none):
// it is most of an annotation's work, and a review's figures (values,
// marks, accuracy) do not use it.
absl::StatusOr<AnnotatedRecord> AnnotateRecord(const JudgedRecord& judged, const EvaluationWeights& weights = {},
                                               const StopCheck& stop = {}, bool score_moves = true);

// The same for a record not yet judged: judged first (under `rules` when
// given, else its own ruleset).
absl::StatusOr<AnnotatedRecord> AnnotateRecord(const v1::GameRecord& record,
                                               std::shared_ptr<const Rules> rules = nullptr,
                                               const EvaluationWeights& weights = {});

// AnnotateRecord in parts, for callers that annotate a long record action
// by action without holding the annotation whole (review/annotation_text.h
// AnnotationSteps). CheckAnnotatable fails as AnnotateRecord does;
// AnnotateAction is AnnotateRecord's annotation of action i of a record
// that passed it.
absl::Status CheckAnnotatable(const JudgedRecord& judged);
ActionAnnotation AnnotateAction(const JudgedRecord& judged, int i, const EvaluationWeights& weights = {},
                                bool score_moves = true);

// AddWinningChances in parts: CheckEvaluator fails (FAILED_PRECONDITION,
// naming both) when the evaluator answers for other rules; ValueAction is
// the winning chances of an action from the position before it, counted
// into its mover's summary `player`; EndLightChance is
// ValuesSummary::end_light for the position after the last action.
absl::Status CheckEvaluator(const Evaluator& evaluator, const Rules& rules);
ActionValues ValueAction(const Evaluator& evaluator, const Position& pos, const ActionAnnotation& action,
                         const MarkThresholds& thresholds, PlayerSummary* player);
double EndLightChance(const Evaluator& evaluator, const Position& end);
// The value of the move played among a throw's moves ranked by value
// (RankMovesByValue, not empty); its loss is the first's value less this.
double PlayedValue(const std::vector<ValuedMove>& ranked, const Move& played);

// AnnotateRecord, then winning chances from `evaluator` for every action.
// The record is annotated under `rules` when given, else its own ruleset;
// FAILED_PRECONDITION, naming both, when the evaluator answers for other
// rules (another digest).
absl::StatusOr<AnnotatedRecord> AnnotateWithValues(const v1::GameRecord& record, const Evaluator& evaluator,
                                                   std::shared_ptr<const Rules> rules = nullptr,
                                                   const MarkThresholds& thresholds = {},
                                                   const EvaluationWeights& weights = {});

// Adds winning chances to an annotation of `record` (AnnotateRecord's
// result for it): fills every action's `values` and the record's, from
// the annotation's positions. Polls `stop` before every action (an
// evaluator that searches polls it within: engine/search.h): CANCELLED
// once it says stop, the annotation's values then left unset.
absl::Status AddWinningChances(const v1::GameRecord& record, const Evaluator& evaluator,
                               AnnotatedRecord* annotated, const MarkThresholds& thresholds = {},
                               const StopCheck& stop = {});

// Light's chance in the position after each of the first k actions, k = 0
// .. actions.size() (one point per ply, the start included): from each
// action's `before` and the summary's `end_light`. Empty without values.
std::vector<double> LightChances(const AnnotatedRecord& annotated);

}  // namespace scribe

#endif  // SCRIBE_REVIEW_ANNOTATE_H_
