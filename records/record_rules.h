// Which rules judge a record: the one answer, for every reader and the
// referee.
//
// A record names its ruleset (a TSN Ruleset tag, a JSON "ruleset", RoyalUr
// JSON's settings) or names none (RGN never does). The caller may give a
// ruleset of its own (`scribe --ruleset`, a request's ruleset). RulesFor
// decides, from the record's name and the caller's policy, which rules the
// record is read and judged under, or why none: every reader that needs the
// rules to read (TSN's tile names, RGN's lanes, RoyalUr's settings), the
// judge (records/judged.h) and the referee ask it, and nothing else resolves
// a record's ruleset.
#ifndef SCRIBE_RECORDS_RECORD_RULES_H_
#define SCRIBE_RECORDS_RECORD_RULES_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// What the caller says about the rules of the records it reads.
struct RulesPolicy {
  // The ruleset reference of records that name none: every record that
  // names none is given it (RGN's only source of one).
  std::string ruleset;
  // Rules given by the caller (a user's ruleset file, `--ruleset`, a
  // request's): every record is judged under them, unless
  // conflict_is_finding says otherwise.
  std::shared_ptr<const Rules> rules;
  // With `rules`: they are for the records that name no ruleset, or one
  // that does not resolve (a user's own rules); a record that names rules
  // of its own which resolve to other rules (RoyalUr JSON's settings, a TSN
  // tag, a JSON reference) is judged by its own and gets a
  // `ruleset-conflict` finding naming both. Off: `rules` judges every
  // record, whatever it names.
  bool conflict_is_finding = false;
};

// The answer: the rules, or why there are none.
struct RecordRules {
  // The rules the record is judged under; null when none resolve.
  std::shared_ptr<const Rules> rules;
  // When `rules` is null: the finding that says why, unlocated (a reader
  // places it where the ruleset was, or was not, written):
  // `ruleset-missing` (no name, none given), `ruleset-unknown` (no such
  // preset) or `ruleset-invalid` (overrides or a ruleset that do not make
  // a game).
  v1::Finding problem;
  // LoadRuleset's own error behind an unknown or invalid ruleset (for a
  // reader that words the problem its own way); OK otherwise.
  absl::Status load_error;
  // When `rules` are the record's own and not the policy's
  // (conflict_is_finding): the `ruleset-conflict` finding, naming both.
  std::optional<v1::Finding> conflict;
};

// The message of a `ruleset-missing` finding about a record that names no
// ruleset when the caller gives none; readers of text formats word it their
// own way (TSN: the Ruleset tag; RGN: --ruleset).
inline constexpr absl::string_view kNoRulesetNamed = "the record names no ruleset (e.g. \"ruleset\": \"finkel\")";

// The rules `record` is judged under. A record that names no ruleset stands
// for policy.ruleset; with policy.rules those rules, unless the record's own
// resolve to other rules and policy.conflict_is_finding (then its own and a
// conflict); otherwise the named ruleset, resolved (LoadRuleset, cached).
// `missing` is the message of the ruleset-missing finding.
RecordRules RulesFor(const v1::GameRecord& record, const RulesPolicy& policy,
                     absl::string_view missing = kNoRulesetNamed);

// The ruleset reference a record stands for: its own, or policy.ruleset
// when it names none. Readers and the judge write it into the record.
inline const std::string& RulesetNamed(const v1::GameRecord& record, const RulesPolicy& policy) {
  return record.ruleset().empty() ? policy.ruleset : record.ruleset();
}

}  // namespace scribe

#endif  // SCRIBE_RECORDS_RECORD_RULES_H_
