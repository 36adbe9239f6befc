// The property both ruleset fuzz targets check (ruleset_text_fuzz.cc,
// ruleset_reference_fuzz.cc).
#ifndef SCRIBE_FUZZ_RULESET_CHECK_H_
#define SCRIBE_FUZZ_RULESET_CHECK_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "engine/ruleset.h"
#include "fuzz/fuzz_util.h"

namespace scribe::fuzz {

inline std::string ProblemsText(const std::vector<FieldProblem>& problems) {
  std::string out;
  for (const FieldProblem& p : problems) absl::StrAppend(&out, p.field, ": ", p.message, "\n");
  return out;
}

// `loaded` is what LoadRuleset or LoadRulesetText made of `input`, with
// its problems. An accepted ruleset is playable, its digest is the digest
// of its ruleset, and RulesetToText of it reads back (as a ruleset text) to
// the same digest, with a fixed-point text; a refused one says at least one
// problem.
inline void CheckLoadedRuleset(const absl::StatusOr<std::shared_ptr<const Rules>>& loaded,
                               const std::vector<FieldProblem>& problems, absl::string_view input) {
  if (!loaded.ok()) {
    FUZZ_CHECK(!problems.empty(), "refused (", loaded.status().ToString(),
               ") without a problem\ninput: ", Shown(input));
    FUZZ_CHECK(!loaded.status().message().empty(),
               "refused without a message\ninput: ", Shown(input));
    return;
  }
  const Rules& rules = **loaded;
  const std::vector<FieldProblem> found = CheckRuleset(rules.ruleset);
  FUZZ_CHECK(found.empty(), "an accepted ruleset fails CheckRuleset:\n", ProblemsText(found),
             "input: ", Shown(input));
  FUZZ_CHECK(rules.digest == RulesetDigest(rules.ruleset), "the digest ", rules.digest,
             " is not RulesetDigest of the ruleset, ", RulesetDigest(rules.ruleset));
  const std::string text = RulesetToText(rules.ruleset);
  std::vector<FieldProblem> again_problems;
  const auto again = LoadRulesetText(text, &again_problems);
  FUZZ_CHECK(again.ok(), "RulesetToText does not read back: ", again.status().message(), "\n",
             ProblemsText(again_problems), "text:\n", text, "input: ", Shown(input));
  FUZZ_CHECK((*again)->digest == rules.digest, "RulesetToText reads back to digest ",
             (*again)->digest, ", not ", rules.digest, "\ntext:\n", text, "input: ", Shown(input));
  const std::string text_again = RulesetToText((*again)->ruleset);
  FUZZ_CHECK(text_again == text, "RulesetToText is not a fixed point:\nfirst:\n", text, "second:\n",
             text_again, "input: ", Shown(input));
}

}  // namespace scribe::fuzz

#endif  // SCRIBE_FUZZ_RULESET_CHECK_H_
