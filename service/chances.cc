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

std::shared_ptr<const EvaluatorSource> ChanceSource(const ScribeServiceImpl& service, const EvaluationChoice& choice,
                                                    StopCheck stop) {
  return EvaluatorSource::TablesElseSearch(
      choice.mode == v1::EVALUATION_MODE_SEARCH ? nullptr : service.tables(),
      choice.mode == v1::EVALUATION_MODE_EXACT ? std::nullopt : std::optional<int>(choice.depth), std::move(stop));
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

grpc::Status CheckSearchBudget(const Analyzer& analyzer, const std::vector<JudgedRecord>& records,
                               int max_search_actions) {
  int64_t searched = 0;
  for (const JudgedRecord& record : records) {
    auto evaluator = analyzer.EvaluatorFor(record.verdict.rules);
    if (!evaluator.ok()) return NoTable(*record.verdict.rules, "exact values");
    if (!(*evaluator)->exact()) searched += record.record.actions_size();
  }
  if (searched > max_search_actions) {
    return BadRequest({{"winning_chances",
                        absl::StrCat(searched, " actions are more than the ", max_search_actions,
                                     " this server annotates with a search's winning chances in one call; send fewer "
                                     "records, or ask for exact values of rules it has a table of")}});
  }
  return grpc::Status::OK;
}

grpc::Status AnalysisError(const absl::Status& status) {
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    return BadRequest({{"input", std::string(status.message())}});
  }
  return FromAbsl(status);
}

}  // namespace scribe::service
