#include "records/record_rules.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "engine/ruleset.h"
#include "records/finding_codes.h"
#include "records/parsed.h"

namespace scribe {

RecordRules RulesFor(const v1::GameRecord& record, const RulesPolicy& policy, absl::string_view missing) {
  RecordRules out;
  const std::string& named = RulesetNamed(record, policy);
  if (policy.rules != nullptr) {
    if (policy.conflict_is_finding && named != policy.ruleset) {
      auto own = LoadRuleset(named);
      if (own.ok() && (*own)->digest != policy.rules->digest) {
        out.conflict = MakeFinding(codes::kRulesetConflict,
                               absl::StrCat("the record's ruleset \"", named, "\" (digest ", (*own)->digest,
                                            ") is not the ruleset given, \"", policy.ruleset, "\" (digest ",
                                            policy.rules->digest, "); judged by the record's own"));
        out.rules = *std::move(own);
        return out;
      }
    }
    out.rules = policy.rules;
    return out;
  }
  if (named.empty()) {
    out.problem = MakeFinding(codes::kRulesetMissing, std::string(missing));
    return out;
  }
  auto loaded = LoadRuleset(named);
  if (!loaded.ok()) {
    const bool unknown = loaded.status().code() == absl::StatusCode::kNotFound;
    // One finding, one line: the problems joined.
    out.problem = MakeFinding(unknown ? codes::kRulesetUnknown : codes::kRulesetInvalid,
                              absl::StrReplaceAll(loaded.status().message(), {{"\n", "; "}}));
    out.load_error = loaded.status();
    return out;
  }
  out.rules = *std::move(loaded);
  return out;
}

}  // namespace scribe
