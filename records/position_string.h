// Position strings: a whole position in one line, FEN-like, relative to a
// ruleset (docs/notation.md, "Position strings"):
//
//   <light>/<dark> <to-move>      side = <waiting>:<board>:<borne off>
//
// <board> has one character per path index 1..L of that side's own path:
// '.' for no piece, '1'-'9' and 'a'-'f' (10-15) for a count. <to-move> is
// L or D. The start of finkel with light to move:
//
//   7:..............:0/7:..............:0 L
#ifndef SCRIBE_RECORDS_POSITION_STRING_H_
#define SCRIBE_RECORDS_POSITION_STRING_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "engine/rules.h"

namespace scribe {

// INVALID_ARGUMENT, saying what is wrong, for a malformed string or a
// position the rules do not allow (pieces not conserved, two own pieces on
// one square without stacking, ...).
absl::StatusOr<Position> ParsePositionString(const Rules& rules, absl::string_view text);

std::string PositionToString(const Rules& rules, const Position& pos);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_POSITION_STRING_H_
