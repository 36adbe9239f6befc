#include "service/chances.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "service/errors.h"
#include "service/service.h"

namespace scribe::service {

namespace {

// The ErrorInfo reason of FAILED_PRECONDITION for exact values (or the
// perfect opponent) without a loaded table.
constexpr char kTableNotLoaded[] = "TABLE_NOT_LOADED";

std::string RulesName(const Rules& rules) {
  return absl::StrCat(rules.ruleset.id().empty() ? "" : "ruleset ", RulesetName(rules), " (digest ", rules.digest, ")");
}

}  // namespace

grpc::Status NoTable(const Rules& rules, absl::string_view what) {
  return Error(grpc::StatusCode::FAILED_PRECONDITION,
               absl::StrCat(what, " need a solved table of ", RulesName(rules),
                            ", and this server has none loaded; ask for a search's estimate instead"),
               kTableNotLoaded);
}

std::shared_ptr<const Evaluator> ChooseEvaluator(const ScribeServiceImpl& service, const EvaluationChoice& choice,
                                                 const std::shared_ptr<const Rules>& rules, StopCheck stop) {
  if (choice.mode != v1::EVALUATION_MODE_SEARCH) {
    if (std::shared_ptr<const Evaluator> table = service.TableFor(rules->digest)) return table;
    if (choice.mode == v1::EVALUATION_MODE_EXACT) return nullptr;
  }
  return std::make_shared<const SearchEvaluator>(rules, choice.depth, LeafParameters{}, std::move(stop));
}

grpc::Status MakeOpponent(const ScribeServiceImpl& service, const BotSpec& strength,
                          const std::shared_ptr<const Rules>& rules, uint64_t seed, StopCheck stop,
                          std::unique_ptr<Bot>* bot) {
  const std::shared_ptr<const Evaluator> table = service.TableFor(rules->digest);
  if (strength.kind == BotSpec::Kind::kPerfect && table == nullptr) {
    return NoTable(*rules, "the perfect opponent's moves");
  }
  auto made = MakeBot(strength, rules, table, seed, std::move(stop));
  if (!made.ok()) return BadRequest({{"strength", std::string(made.status().message())}});
  *bot = *std::move(made);
  return grpc::Status::OK;
}

grpc::Status AddChances(const ScribeServiceImpl& service, const Call& call, const EvaluationChoice& choice,
                        int max_search_actions, const std::vector<JudgedRecord>& records,
                        std::vector<AnnotatedRecord>* annotated) {
  std::vector<std::shared_ptr<const Evaluator>> evaluators;
  int64_t searched = 0;
  for (const AnnotatedRecord& a : *annotated) {
    evaluators.push_back(ChooseEvaluator(service, choice, a.rules, call.stop()));
    if (evaluators.back() == nullptr) return NoTable(*a.rules, "exact values");
    if (!evaluators.back()->exact()) searched += static_cast<int64_t>(a.actions.size());
  }
  if (searched > max_search_actions) {
    return BadRequest({{"winning_chances",
                        absl::StrCat(searched, " actions are more than the ", max_search_actions,
                                     " this server annotates with a search's winning chances in one call; send fewer "
                                     "records, or ask for exact values of rules it has a table of")}});
  }
  for (size_t k = 0; k < records.size(); ++k) {
    // A search is long: a client that gave up stops it between records.
    const absl::Status added = AddWinningChances(records[k].record, *evaluators[k], &(*annotated)[k], {}, call.stop());
    if (call.cancelled()) return call.Stopped();
    if (!added.ok()) return FromAbsl(added);
  }
  return grpc::Status::OK;
}

}  // namespace scribe::service
