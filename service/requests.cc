#include "service/requests.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "records/judged.h"
#include "records/position_string.h"
#include "records/referee.h"
#include "records/squares.h"
#include "records/utf8.h"

namespace scribe::service {

namespace {

constexpr int kDefaultPageSize = 50;
constexpr int kMaxPageSize = 1000;

}  // namespace

std::optional<Format> ToFormat(v1::RecordFormat f) {
  switch (f) {
    case v1::RECORD_FORMAT_TSN: return FormatFromName("tsn");
    case v1::RECORD_FORMAT_JSON: return FormatFromName("json");
    case v1::RECORD_FORMAT_RGN: return FormatFromName("rgn");
    case v1::RECORD_FORMAT_ROYALUR_JSON: return FormatFromName("royalur-json");
    default: return std::nullopt;
  }
}

std::shared_ptr<const Rules> ResolveSelector(const v1::RulesetSelector& selector, const std::string& field,
                                             bool required, std::vector<FieldViolation>* violations) {
  std::vector<FieldProblem> problems;
  absl::StatusOr<std::shared_ptr<const Rules>> rules;
  std::string where;
  switch (selector.kind_case()) {
    case v1::RulesetSelector::kReference:
      where = absl::StrCat(field, ".reference");
      rules = LoadRuleset(selector.reference(), &problems);
      break;
    case v1::RulesetSelector::kText:
      where = absl::StrCat(field, ".text");
      rules = LoadRulesetText(selector.text(), &problems);
      break;
    default:
      if (required) violations->push_back({field, "a ruleset is required: a reference such as \"finkel\" or a text"});
      return nullptr;
  }
  if (rules.ok()) return *rules;
  if (problems.empty()) violations->push_back({where, std::string(rules.status().message())});
  for (const FieldProblem& p : problems) {
    violations->push_back({where, p.field.empty() ? p.message : absl::StrCat(p.field, ": ", p.message)});
  }
  return nullptr;
}

bool ReadInput(const v1::RecordInput& in, const std::string& field, const ServiceOptions& options, Input* out,
               std::vector<FieldViolation>* violations) {
  const size_t before = violations->size();
  if (in.has_ruleset()) {
    out->io.rules = ResolveSelector(in.ruleset(), absl::StrCat(field, ".ruleset"), false, violations);
    if (out->io.rules) {
      // Records that name no ruleset are given the rules' id ("custom" for
      // a text without one).
      out->io.ruleset = RulesetReference(*out->io.rules, "custom");
    }
  }
  switch (in.kind_case()) {
    case v1::RecordInput::kText:
      if (static_cast<int64_t>(in.text().size()) > options.max_record_bytes) {
        violations->push_back({absl::StrCat(field, ".text"),
                               absl::StrCat(in.text().size(), " bytes is more than the ", options.max_record_bytes,
                                            " this server accepts in one call (--max-record-bytes)")});
        break;
      }
      out->text = in.text();
      if (in.format() == v1::RECORD_FORMAT_UNSPECIFIED) {
        out->format = DetectFormat("", out->text);
      } else if (auto f = ToFormat(in.format())) {
        out->format = *f;
      } else {
        violations->push_back({absl::StrCat(field, ".format"), "this server does not read that format"});
      }
      break;
    case v1::RecordInput::kRecord:
      out->structured = true;
      out->record = in.record();
      break;
    default:
      violations->push_back({field, "a record is required: text, or a structured record"});
  }
  return violations->size() == before;
}

void AddFindings(const v1::FileReport& report, const std::string& field, std::vector<FieldViolation>* violations) {
  for (const v1::Finding& f : report.findings()) {
    std::string where;
    if (f.has_line()) where = absl::StrCat("line ", f.line(), ":", f.column(), ": ");
    if (f.has_action_index()) absl::StrAppend(&where, "action ", f.action_index(), ": ");
    violations->push_back({field, absl::StrCat(where, "[", f.code(), "] ", f.message())});
  }
}

bool CheckUtf8(const Input& input, const std::string& field, const std::vector<JudgedRecord>& records,
               std::vector<FieldViolation>* violations) {
  const size_t before = violations->size();
  for (size_t k = 0; k < records.size(); ++k) {
    const std::string where = FirstNonUtf8Path(records[k].record);
    if (!where.empty()) {
      violations->push_back({absl::StrCat(field, input.structured ? ".record" : ".text"),
                             absl::StrCat(records.size() > 1 ? absl::StrCat("record ", k, ": ") : std::string(),
                                          where, " is not UTF-8 text (send the record as UTF-8)")});
    }
  }
  return violations->size() == before;
}

bool RefereeInputs(const v1::RulesetSelector& selector, const std::string& position, int roll,
                   std::shared_ptr<const Rules>* rules, Position* pos, std::vector<FieldViolation>* violations) {
  // Every problem is listed, in the order ruleset, position, roll.
  const size_t before = violations->size();
  *rules = ResolveSelector(selector, "ruleset", true, violations);
  if (*rules == nullptr) {
    // The position and the dice are the rules': without them only a throw
    // no dice give can be told.
    if (roll < 0) violations->push_back({"roll", absl::StrCat(roll, " is not a throw: no dice give less than 0")});
    return false;
  }
  if (position.empty()) {
    *pos = StartPosition(**rules);
  } else {
    auto parsed = ParsePositionString(**rules, position);
    if (parsed.ok()) {
      *pos = *parsed;
    } else {
      violations->push_back({"position", std::string(parsed.status().message())});
    }
  }
  if (!(*rules)->CanRoll(roll)) {
    std::vector<std::string> rolls;
    for (const RollOutcome& o : (*rules)->outcomes) rolls.push_back(absl::StrCat(o.roll));
    violations->push_back({"roll", absl::StrCat(roll, " is not a throw these dice can give (",
                                                absl::StrJoin(rolls, ", "), ")")});
  }
  return violations->size() == before;
}

std::optional<Move> CheckMove(const v1::Move& mv, int roll, const MoveList& legal,
                              std::vector<FieldViolation>* violations) {
  std::optional<Move> chosen;
  for (const Move& m : legal) {
    if (m.from == mv.from() && m.to == mv.to() && mv.has_from() && mv.has_to()) chosen = m;
  }
  if (!chosen) {
    violations->push_back(
        {"move", absl::StrCat(mv.from(), "->", mv.to(), " is not legal for a throw of ", roll, ": ",
                              legal.empty() ? std::string("no move is; send no move to pass")
                                            : absl::StrCat("expected one of ", DescribeMoves(legal)))});
  }
  return chosen;
}

EvaluationChoice CheckEvaluation(const v1::Evaluation& evaluation, const std::string& field,
                                 const ServiceOptions& options, std::vector<FieldViolation>* violations) {
  EvaluationChoice choice;
  choice.mode = evaluation.mode();
  if (!v1::EvaluationMode_IsValid(evaluation.mode())) {
    violations->push_back({absl::StrCat(field, ".mode"),
                           absl::StrCat(evaluation.mode(), " is not an evaluation mode (EVALUATION_MODE_UNSPECIFIED, "
                                                           "EVALUATION_MODE_EXACT, EVALUATION_MODE_SEARCH)")});
  }
  choice.depth = std::min(kDefaultSearchDepth, options.max_search_depth);
  if (evaluation.has_depth()) {
    if (evaluation.depth() < 0 || evaluation.depth() > options.max_search_depth) {
      violations->push_back({absl::StrCat(field, ".depth"),
                             absl::StrCat(evaluation.depth(), " is not a depth this server searches (0 to ",
                                          options.max_search_depth, " throws)")});
    } else {
      choice.depth = evaluation.depth();
    }
  }
  return choice;
}

std::optional<BotSpec> CheckStrength(const std::string& strength, const ServiceOptions& options,
                                     std::vector<FieldViolation>* violations) {
  if (strength.empty()) return std::nullopt;
  auto spec = ParseBotSpec(strength);
  if (!spec.ok()) {
    // The parser knows the deepest search there is, not this server's.
    std::string description(spec.status().message());
    if (options.max_search_depth < kMaxSearchDepth) {
      absl::StrAppend(&description, " (this server searches up to search:", options.max_search_depth, ")");
    }
    violations->push_back({"strength", description});
    return std::nullopt;
  }
  if (spec->kind == BotSpec::Kind::kSearch && spec->depth > options.max_search_depth) {
    violations->push_back({"strength", absl::StrCat(strength, " searches deeper than this server does (",
                                                    "search:0 to search:", options.max_search_depth, ")")});
    return std::nullopt;
  }
  return *spec;
}

Page CheckPage(int page_size, const std::string& page_token, int total, std::vector<FieldViolation>* violations) {
  const size_t before = violations->size();
  if (page_size < 0) violations->push_back({"page_size", "must not be negative"});
  int start = 0;
  if (!page_token.empty() && (!absl::SimpleAtoi(page_token, &start) || start < 0 || start > total)) {
    violations->push_back({"page_token", "not a token this server gave"});
  }
  if (violations->size() != before) return {};
  const int size = page_size == 0 ? kDefaultPageSize : std::min(page_size, kMaxPageSize);
  return {start, std::min(start + size, total)};
}

}  // namespace scribe::service
