#include "records/position_string.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"

namespace scribe {
namespace {

char CountChar(int n) {
  if (n == 0) return '.';
  return n < 10 ? static_cast<char>('0' + n) : static_cast<char>('a' + n - 10);
}

int CharCount(char c) {
  if (c == '.') return 0;
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool ParseSmallInt(absl::string_view s, int* out) {
  if (s.empty() || s.size() > 2) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

absl::Status ParseSide(const Rules& rules, Side side, absl::string_view text, Position* pos) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ':');
  const std::string who = SideName(side);
  if (parts.size() != 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        who, "'s part \"", text, "\" is not <waiting>:<board>:<borne off>"));
  }
  int waiting = 0, off = 0;
  if (!ParseSmallInt(parts[0], &waiting) || waiting > kMaxPieces) {
    return absl::InvalidArgumentError(absl::StrCat(who, "'s waiting count \"", parts[0], "\" is not a number from 0 to ", kMaxPieces));
  }
  if (!ParseSmallInt(parts[2], &off) || off > kMaxPieces) {
    return absl::InvalidArgumentError(absl::StrCat(who, "'s borne-off count \"", parts[2], "\" is not a number from 0 to ", kMaxPieces));
  }
  const absl::string_view board = parts[1];
  if (static_cast<int>(board.size()) != rules.path_length) {
    return absl::InvalidArgumentError(absl::StrCat(who, "'s board part has ", board.size(),
                                                   " squares; the path has ", rules.path_length));
  }
  pos->count[side][0] = static_cast<uint8_t>(waiting);
  pos->count[side][rules.off] = static_cast<uint8_t>(off);
  for (int i = 1; i <= rules.path_length; ++i) {
    const int n = CharCount(board[i - 1]);
    if (n < 0) {
      return absl::InvalidArgumentError(absl::StrCat(who, "'s square ", i, ": '", std::string(1, board[i - 1]),
                                                     "' is not '.', a digit or a-f"));
    }
    pos->count[side][i] = static_cast<uint8_t>(n);
    if (n > 0) pos->occ[side] |= 1u << i;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Position> ParsePositionString(const Rules& rules, absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text.size() > 256) return absl::InvalidArgumentError("position string too long");
  const size_t space = text.find(' ');
  if (space == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        "a position string is <light>/<dark> <to-move>, e.g. \"7:..............:0/7:..............:0 L\"");
  }
  const absl::string_view sides = text.substr(0, space);
  const absl::string_view mover = absl::StripAsciiWhitespace(text.substr(space + 1));
  const size_t slash = sides.find('/');
  if (slash == absl::string_view::npos) {
    return absl::InvalidArgumentError("a position string separates light's part from dark's with '/'");
  }
  Position pos;
  SCRIBE_RETURN_IF_ERROR(ParseSide(rules, kLight, sides.substr(0, slash), &pos));
  SCRIBE_RETURN_IF_ERROR(ParseSide(rules, kDark, sides.substr(slash + 1), &pos));
  if (mover == "L") {
    pos.to_move = kLight;
  } else if (mover == "D") {
    pos.to_move = kDark;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("the side to move is \"", mover, "\"; expected L or D"));
  }
  if (std::string problem = CheckPosition(rules, pos); !problem.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("the position is impossible under ",
                                                   RulesetName(rules),
                                                   ": ", problem));
  }
  return pos;
}

std::string PositionToString(const Rules& rules, const Position& pos) {
  std::string out;
  for (Side s : {kLight, kDark}) {
    if (s == kDark) out.push_back('/');
    absl::StrAppend(&out, pos.count[s][0], ":");
    for (int i = 1; i <= rules.path_length; ++i) out.push_back(CountChar(pos.count[s][i]));
    absl::StrAppend(&out, ":", pos.count[s][rules.off]);
  }
  out.push_back(' ');
  out.push_back(pos.to_move == kLight ? 'L' : 'D');
  return out;
}

}  // namespace scribe
