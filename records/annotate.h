// Annotation of game records: for every action, what it did, how many moves
// the throw allowed, the race standing after it, and where the heuristic
// evaluation (engine/evaluate.h) ranks the move played among the legal ones.
//
// Written two ways (docs/annotation.md):
//  - into the record, as machine-readable annotations in each action's
//    comment, so that the annotated record is still a legal record in any
//    format (TSN shows them in braces):
//      1. L 4:0-4* {[%did entered,rosette,extra-throw] [%alts 1] [%rank 1/1]
//         [%score 8] [%race 101-105]}
//  - as scribe.v1.Annotation (proto/scribe/v1/record.proto), for JSON.
#ifndef SCRIBE_RECORDS_ANNOTATE_H_
#define SCRIBE_RECORDS_ANNOTATE_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/evaluate.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "records/tsn.h"
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
};

struct AnnotatedRecord {
  std::shared_ptr<const Rules> rules;
  Side first_player = kLight;
  RaceStanding start_race;
  std::vector<ActionAnnotation> actions;
  std::optional<Side> winner;
};

// Annotates every action of a legal record (finished or not), under its
// own ruleset or `rules` when given. INVALID_ARGUMENT, saying which rule
// the record breaks and where, when it is not a legal game.
absl::StatusOr<AnnotatedRecord> AnnotateRecord(const v1::GameRecord& record,
                                               std::shared_ptr<const Rules> rules = nullptr,
                                               const EvaluationWeights& weights = {});

// The annotation keys of one action, as written in a comment:
// "[%did entered,rosette] [%alts 3] [%rank 2/3] [%best 0-4] [%score 2.5]
// [%race 82-90]". Moves are written as TSN writes them in `style`.
std::string AnnotationText(const Rules& rules, const ActionAnnotation& action, SquareStyle style);

// The comment without the annotation keys this file writes (did, alts,
// rank, best, score, race); other text and other [%key] annotations stay.
std::string StripAnnotations(absl::string_view comment);

// The [%key value] annotations of a comment, by key (the last one wins).
std::map<std::string, std::string> ReadAnnotations(absl::string_view comment);

// The record with each action's comment carrying its annotations (old
// annotation keys replaced, the rest of the comment kept).
v1::GameRecord WithAnnotations(const v1::GameRecord& record, const AnnotatedRecord& annotated,
                               SquareStyle style = SquareStyle::kPathNumbers);

// As scribe.v1.Annotation; `ruleset` is the record's ruleset reference.
v1::Annotation AnnotationToProto(const AnnotatedRecord& annotated, const std::string& ruleset);

// The positions of a record: the start, then the position after each of
// its first `actions` actions (all of them when negative), stopping early at
// the first action the rules do not allow. Empty when the start itself is
// not one (a bad start position or throw-off).
std::vector<Position> RecordPositions(const Rules& rules, const v1::GameRecord& record, int actions = -1);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_ANNOTATE_H_
