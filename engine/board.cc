#include "engine/board.h"

#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace scribe {

std::optional<TileId> ParseTileName(absl::string_view name) {
  if (name.size() < 2 || name.size() > 3) return std::nullopt;
  char lane = name[0];
  if (lane >= 'a' && lane <= 'c') lane = static_cast<char>(lane - 'a' + 'A');
  if (lane < 'A' || lane > 'C') return std::nullopt;
  int position = 0;
  for (char c : name.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    position = position * 10 + (c - '0');
  }
  if (name[1] == '0' || position < 1 || position > kMaxBoardPosition) return std::nullopt;
  return MakeTile(lane - 'A', position);
}

std::string TileName(TileId t) {
  return absl::StrCat(std::string(1, static_cast<char>('A' + TileLane(t))), TilePosition(t));
}

std::string BoardName(v1::Board board) {
  switch (board) {
    case v1::BOARD_UR: return "ur";
    case v1::BOARD_EGYPTIAN: return "egyptian";
    default: return "unspecified";
  }
}

int BoardLength(v1::Board board) {
  switch (board) {
    case v1::BOARD_UR: return 8;
    case v1::BOARD_EGYPTIAN: return 12;
    default: return 0;
  }
}

bool OnBoard(v1::Board board, TileId t) {
  if (t < 0 || t >= kNumTileIds) return false;
  const int lane = TileLane(t), pos = TilePosition(t);
  switch (board) {
    case v1::BOARD_UR:
      if (lane == 1) return pos <= 8;
      return pos <= 4 || pos == 7 || pos == 8;
    case v1::BOARD_EGYPTIAN:
      if (lane == 1) return pos <= 12;
      return pos <= 4;
    default:
      return false;
  }
}

std::vector<TileId> BoardTiles(v1::Board board) {
  std::vector<TileId> tiles;
  for (TileId t = 0; t < kNumTileIds; ++t) {
    if (OnBoard(board, t)) tiles.push_back(t);
  }
  return tiles;
}

bool Adjacent(TileId a, TileId b) {
  const int dl = std::abs(TileLane(a) - TileLane(b));
  const int dp = std::abs(TilePosition(a) - TilePosition(b));
  return dl + dp == 1;
}

TileId MirrorTile(TileId t) { return MakeTile(2 - TileLane(t), TilePosition(t)); }

bool IsMarkedTile(v1::Board board, TileId t) {
  if (!OnBoard(board, t)) return false;
  const int lane = TileLane(t), pos = TilePosition(t);
  switch (board) {
    case v1::BOARD_UR:
      return (lane != 1 && (pos == 1 || pos == 7)) || (lane == 1 && pos == 4);
    case v1::BOARD_EGYPTIAN:
      return (lane != 1 && pos == 1) || (lane == 1 && (pos == 4 || pos == 8 || pos == 12));
    default:
      return false;
  }
}

}  // namespace scribe
