// RGN, "Royal Game Notation": the text notation of the RoyalUr project
// (RoyalUr-Java's writer; docs/royalur.md).
//
//   [Light RandomAgent]
//   [Dark "Ann Smith"]
//
//   1. A@A4 / C@C2
//   2. A4A3 / C2C1 * C1B2
//   3. A3B1 / C3C1 * C1B1x
//   ...
//   70. B8A+#
//
// Tags (RoyalUr's metadata) quote their value unless it is a plain word. A
// light turn starts "N.", a dark one "/", and holds every throw of that
// player until the turn passes. A move is two tiles of the mover's path
// (A@ enters, A+ bears off); the throw follows from it and is not written.
// "x" marks a capture, " *" landing on a rosette, "#" the end of the game;
// "<throw> --" is a throw with no move. RGN names no ruleset: the reader is
// told it. Many games in one file, separated by a blank line.
#ifndef SCRIBE_RECORDS_RGN_H_
#define SCRIBE_RECORDS_RGN_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "records/judged.h"
#include "records/parsed.h"
#include "records/record_rules.h"
#include "records/referee.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// Reads every game of an RGN text under the rules RulesFor
// (records/record_rules.h) gives a record that names none under `policy`:
// policy.rules when given (a user's ruleset file), else policy.ruleset
// resolved; every record names policy.ruleset (the rules' id when it is
// empty). Without either, every game gets a "ruleset-missing" finding. A game with a syntax error or a move its
// tiles cannot say gets a finding and is skipped. The result's `sources`
// say where each action was written.
ParsedRecords ReadRgn(absl::string_view text, const RulesPolicy& policy);

// Writes records as RoyalUr writes RGN, games separated by a blank line.
// INVALID_ARGUMENT (nothing written) for a record RGN cannot express: an
// illegal one, a ruleset other than RoyalUr's presets (by digest), a
// throw-off or set-up position, comments, or a tag RGN cannot write.
absl::StatusOr<std::string> WriteRgn(const std::vector<JudgedRecord>& records);
// The same for records not yet judged: each is judged under its own ruleset.
absl::StatusOr<std::string> WriteRgn(const std::vector<v1::GameRecord>& records);

// The checks only the written form allows: the side of each turn ("N." or
// "/"), turn numbers, throws earned staying in their turn, the x, * and #
// markers. Findings carry line and column.
std::vector<v1::Finding> CheckRgnForm(const RecordSource& source, const RefereeResult& result,
                                      const v1::GameRecord& record, const LineIndex& lines,
                                      int record_index);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_RGN_H_
