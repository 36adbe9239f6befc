// RoyalUr JSON (notation_version 2): the machine format of the RoyalUr
// project (RoyalUr-Java's JsonNotation; docs/royalur.md).
//
//   {"notation_version":2,
//    "metadata":{"Light":"Ann","Dark":"Bo"},
//    "settings":{"board_shape":"standard","paths":"bell","dice":"four_binary",
//                "start_pieces":7,"safe_rosettes":true,"rosettes_grant_rolls":true,
//                "captures_grant_rolls":false},
//    "initial_state":{"board":{"pieces":{}},"players":{"L":{"pieces":7,"score":0},
//                     "D":{"pieces":7,"score":0}},"type":"wait4roll","time":0,"turn":"L"},
//    "states":[{"type":"move","time":0,"turn":"L","roll":{"value":1},"move":{"dest":1}},
//              {"type":"roll","time":0,"turn":"D","roll":{"value":0},"moves":[]},
//              ...
//              {"type":"win","time":0,"winner":"L"}]}
//
// How it maps to a GameRecord:
//  - settings: the ruleset, a preset when one has the same digest
//    ("sawah-tablet" for RoyalUr's Aseb), else a preset with overrides
//    ("finkel(pieces=5)"); settings Scribe cannot play are a finding.
//  - metadata: the tags (the key may be absent).
//  - initial_state: who moves first; a set-up board becomes start_position.
//  - a "move" state: an action; a piece is +/-(path index), light positive,
//    src absent when a piece enters, dest absent when it bears off;
//    "captured" must be there exactly when the move captures. A "roll"
//    state: a throw with no move. "win": checked against the replay.
//    "resigned" and "abandoned": the tag Termination ("light resigned",
//    "abandoned (timeout)", ...). "wait4roll": nothing.
//  - a state's time, when not 0, and its metadata: annotations in the
//    action's comment ([%time 1200], [%metadata {...}], records/royalur.h).
// A file holds one game (or, as Scribe writes many, an array of games).
#ifndef SCRIBE_RECORDS_ROYALUR_JSON_H_
#define SCRIBE_RECORDS_ROYALUR_JSON_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "records/judged.h"
#include "records/parsed.h"
#include "records/referee.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// Whether a JSON text is RoyalUr's: its object (or the objects of its
// array) has the key "notation_version".
bool LooksLikeRoyalUrJson(absl::string_view text);

// Reads every game of a RoyalUr JSON text; never throws. A game that does
// not read (a missing key, a value of the wrong type, settings Scribe
// cannot play, ...) gets a finding with line and column and is skipped.
// The result's `sources` say where each state was written.
ParsedRecords ReadRoyalUrJson(absl::string_view text);

// Writes records as RoyalUr writes them (one game: one object; more: an
// array of them). INVALID_ARGUMENT (nothing written) for a record RoyalUr
// cannot express: an illegal one, rules RoyalUr's settings cannot say, an
// opening throw-off, comments.
absl::StatusOr<std::string> WriteRoyalUrJson(const std::vector<JudgedRecord>& records);
// The same for records not yet judged: each is judged under its own ruleset.
absl::StatusOr<std::string> WriteRoyalUrJson(const std::vector<v1::GameRecord>& records);

// The checks the states allow beyond the referee's: each state's "turn",
// "captured" exactly on a capture, the win state. Findings carry line and
// column.
std::vector<v1::Finding> CheckRoyalUrJsonForm(const RecordSource& source, const RefereeResult& result,
                                              const v1::GameRecord& record, const LineIndex& lines,
                                              int record_index);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_ROYALUR_JSON_H_
