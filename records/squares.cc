#include "records/squares.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/board.h"

namespace scribe {

std::string SquareText(const Rules& rules, Side side, int index, SquareStyle style) {
  if (index == rules.off) return "off";
  if (style == SquareStyle::kPathNumbers) return absl::StrCat(index);
  if (index == 0) return "@";
  const TileId tile = rules.tile[side][index];
  int visit = 0;
  for (int i = 1; i < index; ++i) visit += rules.tile[side][i] == tile;
  return absl::StrCat(TileName(tile), std::string(visit, '\''));
}

std::string MoveText(const Rules& rules, Side side, int from, int to, SquareStyle style) {
  return absl::StrCat(SquareText(rules, side, from, style), "-", SquareText(rules, side, to, style));
}

std::string DescribeMoves(const MoveList& moves) {
  std::vector<std::string> parts;
  for (const Move& m : moves) parts.push_back(absl::StrCat(m.from, "->", m.to));
  return absl::StrJoin(parts, ", ");
}

}  // namespace scribe
