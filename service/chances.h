// Winning chances for SuggestMoves and AnnotateRecord: the evaluator a
// checked Evaluation names (a loaded table or a search), SuggestMoves'
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
#include "scribe/v1/record.pb.h"
#include "service/call.h"
#include "service/requests.h"

namespace scribe::service {

class ScribeServiceImpl;

// FAILED_PRECONDITION (reason TABLE_NOT_LOADED): `what` needs a table of
// `rules` and none is loaded.
grpc::Status NoTable(const Rules& rules, absl::string_view what);

// The evaluator `choice` names for `rules`: the loaded table of the rules,
// or a search (polling `stop`); null when exact values are demanded and no
// table is loaded.
std::shared_ptr<const Evaluator> ChooseEvaluator(const ScribeServiceImpl& service, const EvaluationChoice& choice,
                                                 const std::shared_ptr<const Rules>& rules, StopCheck stop = {});

// The computer opponent `strength` names for `rules` (a random one seeded
// with `seed`): NoTable for the perfect one without a table of the rules, a
// BadRequest under "strength" when it cannot be made.
// A search opponent polls `stop`.
grpc::Status MakeOpponent(const ScribeServiceImpl& service, const BotSpec& strength,
                          const std::shared_ptr<const Rules>& rules, uint64_t seed, StopCheck stop,
                          std::unique_ptr<Bot>* bot);

// Adds `choice`'s winning chances to each of `annotated` (made from
// `records`, in order). Each record gets its own rules' evaluator, and the
// work a search would do is bounded by `max_search_actions` before any of
// it is done (a BadRequest past it); a call the client gave up stops
// within a few milliseconds (the search and the annotation poll it) and
// gets Call::Stopped().
grpc::Status AddChances(const ScribeServiceImpl& service, const Call& call, const EvaluationChoice& choice,
                        int max_search_actions, const std::vector<JudgedRecord>& records,
                        std::vector<AnnotatedRecord>* annotated);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_CHANCES_H_
