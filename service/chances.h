// Winning chances for SuggestMoves and AnnotateRecord: the evaluators a
// checked Evaluation names (loaded tables or a search), SuggestMoves'
// opponent, and FAILED_PRECONDITION when exact values (or the perfect
// opponent) are asked of rules without a loaded table.
#ifndef SCRIBE_SERVICE_CHANCES_H_
#define SCRIBE_SERVICE_CHANCES_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/bots.h"
#include "engine/evaluator.h"
#include "engine/ruleset.h"
#include "grpcpp/support/status.h"
#include "records/judged.h"
#include "review/annotate.h"
#include "review/pipeline.h"
#include "scribe/v1/record.pb.h"
#include "service/call.h"
#include "service/requests.h"

namespace scribe::service {

class ScribeServiceImpl;

// FAILED_PRECONDITION (reason TABLE_NOT_LOADED): `what` needs a table of
// `rules` and none is loaded.
grpc::Status NoTable(const Rules& rules, absl::string_view what);

// Where `choice`'s winning chances come from (review/pipeline.h): the
// loaded table of a record's rules, or a search polling `stop`, or (exact
// values demanded) the tables alone.
std::shared_ptr<const EvaluatorSource> ChanceSource(const ScribeServiceImpl& service, const EvaluationChoice& choice,
                                                    StopCheck stop = {});

// The computer opponent `strength` names for `rules` (a random one seeded
// with `seed`): NoTable for the perfect one without a table of the rules, a
// BadRequest under "strength" when it cannot be made.
// A search opponent polls `stop`.
grpc::Status MakeOpponent(const ScribeServiceImpl& service, const BotSpec& strength,
                          const std::shared_ptr<const Rules>& rules, uint64_t seed, StopCheck stop,
                          std::unique_ptr<Bot>* bot);

// Checks, before any work, that every one of `records` has an evaluator
// (NoTable when exact values are demanded of rules without a table), and
// bounds the work a search would do by `max_search_actions` (a BadRequest
// past it).
grpc::Status CheckSearchBudget(const Analyzer& analyzer, const std::vector<JudgedRecord>& records,
                               int max_search_actions);

// A record's analysis that failed (not stopped): a BadRequest under "input"
// for a record the annotation refuses, else the status as it is.
grpc::Status AnalysisError(const absl::Status& status);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_CHANCES_H_
