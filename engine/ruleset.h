// Rulesets: the shipped presets, references with overrides, users' ruleset
// texts, the checks a ruleset must pass, and its digest.
//
// A reference is a preset id or alias with optional overrides:
//   finkel
//   aseb
//   finkel(pieces=5, capture_extra_roll=true, safe_squares=[4,14])
//   sawah(dice.count=3, dice.roll_for_marks=[4,1,2,3])
// A ruleset text is protobuf text format of scribe.v1.Ruleset, optionally
// starting from `base: "<reference>"`; the fields it writes replace the
// base's. Nothing here reads files: callers pass the text.
//
// Every failure lists every problem found, each with the field path it is
// about (e.g. "path[3]", "dice.roll_for_marks[0]"); nothing half-loads.
#ifndef SCRIBE_ENGINE_RULESET_H_
#define SCRIBE_ENGINE_RULESET_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "scribe/v1/ruleset.pb.h"

namespace scribe {

struct FieldProblem {
  std::string field;    // field path, e.g. "path[3]"; "" for the whole text
  std::string message;  // what is wrong and what was expected
};

struct PresetInfo {
  std::string id;
  std::vector<std::string> aliases;
  std::string title;
  std::string source;
};

// The shipped presets, in the order docs/rulesets.md lists them.
const std::vector<PresetInfo>& Presets();

// Names that are recognised but deliberately not playable, with the reason
// (e.g. "tablet-betting": no complete rules survive).
const char* DeclinedRulesetReason(absl::string_view name);

// Resolves a reference (preset id or alias, optional overrides). NOT_FOUND
// for an unknown preset id, INVALID_ARGUMENT for anything else wrong. Results
// are cached: resolving the same reference again is cheap and thread-safe.
absl::StatusOr<std::shared_ptr<const Rules>> LoadRuleset(
    absl::string_view reference, std::vector<FieldProblem>* problems = nullptr);

// Resolves a ruleset given as protobuf text format (a user's ruleset file,
// or one sent inline in a request).
absl::StatusOr<std::shared_ptr<const Rules>> LoadRulesetText(
    absl::string_view text, std::vector<FieldProblem>* problems = nullptr);

// The same, stopping at the resolved proto (every field explicit).
absl::StatusOr<v1::Ruleset> ResolveReference(absl::string_view reference,
                                             std::vector<FieldProblem>* problems = nullptr);
absl::StatusOr<v1::Ruleset> ResolveText(absl::string_view text,
                                        std::vector<FieldProblem>* problems = nullptr);

// Every problem of a resolved ruleset (defaults filled in); empty when the
// rules are playable.
std::vector<FieldProblem> CheckRuleset(const v1::Ruleset& resolved);

// The canonical form: the rules alone (id, title, source and base cleared),
// index lists sorted. Two rulesets with the same canonical form play the
// same game.
v1::Ruleset CanonicalRuleset(const v1::Ruleset& resolved);

// First 16 hex digits of the SHA-256 of the canonical form's deterministic
// wire-format serialization.
std::string RulesetDigest(const v1::Ruleset& resolved);

// The resolved ruleset as protobuf text format (what `scribe ruleset show`
// prints); LoadRulesetText reads it back to the same rules.
std::string RulesetToText(const v1::Ruleset& resolved);

// How rules are named to a person: their id ("finkel",
// "finkel(pieces=2)", a ruleset file's id), or "custom rules" for rules
// of one's own that carry none.
std::string RulesetName(const Rules& rules);

// How a record refers to rules: their id, or `reference` (what the user
// typed, a ruleset file's path) when they carry none.
std::string RulesetReference(const Rules& rules, absl::string_view reference);

}  // namespace scribe

#endif  // SCRIBE_ENGINE_RULESET_H_
