// Every finding code Scribe reports, as named constants. The codes are
// stable (programs match on them); docs/validation.md lists each one with
// its meaning, and tests/records/finding_codes_test.cc checks that the two
// agree.
#ifndef SCRIBE_RECORDS_FINDING_CODES_H_
#define SCRIBE_RECORDS_FINDING_CODES_H_

#include "absl/strings/string_view.h"

namespace scribe::codes {

// A file as a whole.
inline constexpr absl::string_view kFileUnreadable = "file-unreadable";
inline constexpr absl::string_view kJsonSyntax = "json-syntax";
inline constexpr absl::string_view kNoRecords = "no-records";
// A record that cannot be read.
inline constexpr absl::string_view kNotARecord = "not-a-record";
inline constexpr absl::string_view kTextNotUtf8 = "text-not-utf8";
inline constexpr absl::string_view kJsonDuplicateKey = "json-duplicate-key";
inline constexpr absl::string_view kTsnSyntax = "tsn-syntax";
inline constexpr absl::string_view kRgnSyntax = "rgn-syntax";
inline constexpr absl::string_view kRgnMove = "rgn-move";
inline constexpr absl::string_view kRoyalUrJson = "royalur-json";
inline constexpr absl::string_view kRoyalUrUnsupported = "royalur-unsupported";
inline constexpr absl::string_view kRulesetUnsupported = "ruleset-unsupported";
// A record's ruleset and start.
inline constexpr absl::string_view kRulesetMissing = "ruleset-missing";
inline constexpr absl::string_view kRulesetUnknown = "ruleset-unknown";
inline constexpr absl::string_view kRulesetInvalid = "ruleset-invalid";
inline constexpr absl::string_view kRulesetDigestMismatch = "ruleset-digest-mismatch";
inline constexpr absl::string_view kRulesetConflict = "ruleset-conflict";
inline constexpr absl::string_view kStartPositionInvalid = "start-position-invalid";
inline constexpr absl::string_view kStartPositionConflict = "start-position-conflict";
inline constexpr absl::string_view kOpeningAfterDecided = "opening-after-decided";
inline constexpr absl::string_view kOpeningIncomplete = "opening-incomplete";
inline constexpr absl::string_view kOpeningImpossibleRoll = "opening-impossible-roll";
inline constexpr absl::string_view kOpeningUndecided = "opening-undecided";
inline constexpr absl::string_view kFirstPlayerInvalid = "first-player-invalid";
inline constexpr absl::string_view kOpeningFirstPlayerMismatch = "opening-first-player-mismatch";
// An action the rules do not allow.
inline constexpr absl::string_view kActionAfterEnd = "action-after-end";
inline constexpr absl::string_view kRollMissing = "roll-missing";
inline constexpr absl::string_view kRollImpossible = "roll-impossible";
inline constexpr absl::string_view kMoveIncomplete = "move-incomplete";
inline constexpr absl::string_view kPassWithLegalMove = "pass-with-legal-move";
inline constexpr absl::string_view kMoveRollMismatch = "move-roll-mismatch";
inline constexpr absl::string_view kMoveIllegal = "move-illegal";
// The written form of a text record (TSN, RGN, RoyalUr JSON).
inline constexpr absl::string_view kWrongSide = "wrong-side";
inline constexpr absl::string_view kTurnPassed = "turn-passed";
inline constexpr absl::string_view kMissingExtraThrow = "missing-extra-throw";
inline constexpr absl::string_view kTurnSplit = "turn-split";
inline constexpr absl::string_view kTurnNumber = "turn-number";
inline constexpr absl::string_view kMarkerCapture = "marker-capture";
inline constexpr absl::string_view kMarkerExtra = "marker-extra";
inline constexpr absl::string_view kMarkerPlaced = "marker-placed";
inline constexpr absl::string_view kMarkerEnd = "marker-end";
inline constexpr absl::string_view kMarkerRosette = "marker-rosette";
inline constexpr absl::string_view kResultMismatch = "result-mismatch";
// The service's stream: an entry whose request itself is unusable.
inline constexpr absl::string_view kBadRequest = "bad-request";

inline constexpr absl::string_view kAll[] = {
    kFileUnreadable, kJsonSyntax, kNoRecords, kNotARecord, kTextNotUtf8, kJsonDuplicateKey, kTsnSyntax, kRgnSyntax, kRgnMove, kRoyalUrJson,
    kRoyalUrUnsupported, kRulesetUnsupported, kRulesetMissing, kRulesetUnknown, kRulesetInvalid,
    kRulesetDigestMismatch, kRulesetConflict, kStartPositionInvalid, kStartPositionConflict, kOpeningAfterDecided,
    kOpeningIncomplete, kOpeningImpossibleRoll, kOpeningUndecided, kFirstPlayerInvalid,
    kOpeningFirstPlayerMismatch, kActionAfterEnd, kRollMissing, kRollImpossible, kMoveIncomplete,
    kPassWithLegalMove, kMoveRollMismatch, kMoveIllegal, kWrongSide, kTurnPassed, kMissingExtraThrow,
    kTurnSplit, kTurnNumber, kMarkerCapture, kMarkerExtra, kMarkerPlaced, kMarkerEnd, kMarkerRosette,
    kResultMismatch, kBadRequest};

}  // namespace scribe::codes

#endif  // SCRIBE_RECORDS_FINDING_CODES_H_
