// An annotation written out: as [%key value] keys in each action's comment
// (so the annotated record is still a legal record in any format), and as
// scribe.v1.Annotation for JSON and the service (docs/annotation.md).
#ifndef SCRIBE_REVIEW_ANNOTATION_TEXT_H_
#define SCRIBE_REVIEW_ANNOTATION_TEXT_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "records/squares.h"
#include "review/annotate.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// The annotation keys of one action, as written in a comment:
// "[%did entered,rosette] [%alts 3] [%rank 2/3] [%best 0-4] [%score 2.5]
// [%race 82-90]", then, with winning chances, "[%wc 51.857] [%wt 60.250]
// [%wca 48.020] [%bestv 9-11 60.250] [%loss 12.230] [%mark ??]
// [%luck +8.393]" (percent). Moves are written as TSN writes them in
// `style`.
std::string AnnotationText(const Rules& rules, const ActionAnnotation& action, SquareStyle style);

// The keys of a record's own comment (before the first action) when it is
// annotated with winning chances: "[%values exact] [%evaluator table finkel
// 13f33ad0] [%sum-light moves=12 decisions=8 loss=13.402 doubtful=1
// mistakes=0 blunders=1 luck=-5.200] [%sum-dark ...]". Empty without.
std::string RecordAnnotationText(const AnnotatedRecord& annotated);

// The comment without the annotation keys this file writes (did, alts,
// rank, best, score, race, wc, wt, wca, bestv, loss, mark, luck, values,
// evaluator, sum-light, sum-dark); other text and other [%key] annotations
// stay.
std::string StripAnnotations(absl::string_view comment);

// The [%key value] annotations of a comment, by key (the last one wins).
std::map<std::string, std::string> ReadAnnotations(absl::string_view comment);

// The record with each action's comment carrying its annotations (old
// annotation keys replaced, the rest of the comment kept), and the record's
// comment carrying RecordAnnotationText (old record keys removed).
v1::GameRecord WithAnnotations(const v1::GameRecord& record, const AnnotatedRecord& annotated,
                               SquareStyle style = SquareStyle::kPathNumbers);

// As scribe.v1.Annotation; `ruleset` is the record's ruleset reference.
// With winning chances: every action's value fields, the evaluator, its
// exactness, the thresholds, the summaries and light's chance per ply.
v1::Annotation AnnotationToProto(const AnnotatedRecord& annotated, const std::string& ruleset);

// AnnotationToProto of a judged record's annotation (AnnotateRecord, with
// AddWinningChances when `evaluator` is given), made action by action for a
// writer that streams it (records/json_record.h JsonMessageStream): Head()
// holds the fields before the actions, Next() gives each action in turn,
// and Tail(), once every action is given, the fields after them. Only
// light's chance per action is kept (with an evaluator), never the whole
// annotation. `judged` and `evaluator` must outlive it. Start fails as
// AnnotateRecord and AddWinningChances do.
class AnnotationSteps {
 public:
  static absl::StatusOr<std::unique_ptr<AnnotationSteps>> Start(const JudgedRecord& judged,
                                                                const Evaluator* evaluator = nullptr,
                                                                const MarkThresholds& thresholds = {},
                                                                const EvaluationWeights& weights = {});
  v1::Annotation Head() const;
  bool Next(v1::AnnotatedAction* action);
  v1::Annotation Tail() const;

 private:
  AnnotationSteps(const JudgedRecord& judged, const Evaluator* evaluator, const MarkThresholds& thresholds,
                  const EvaluationWeights& weights);
  const JudgedRecord& judged_;
  const Evaluator* evaluator_;
  MarkThresholds thresholds_;
  EvaluationWeights weights_;
  int next_ = 0;
  std::optional<ValuesSummary> values_;
  std::vector<double> light_chances_;
};

}  // namespace scribe

#endif  // SCRIBE_REVIEW_ANNOTATION_TEXT_H_
