// Board geometry of the Game of Twenty Squares: which tiles exist, their
// names, adjacency and the marked (rosette) tiles.
//
// Tiles are named as RoyalUr names them: a lane letter (A = light's own lane,
// B = the shared middle lane, C = dark's own lane) then the position along
// the board, from 1 at the far end of the large block.
//
//   The Ur board (BM 120834)          The Egyptian "3 x 4 + 8" board
//    pos: 1 2 3 4 5 6 7 8              pos: 1 2 3 4 5 6 7 8 9 10 11 12
//      A: * . . .     * s                A: * . . .
//      B: . . . * . . . .                B: . . . * . . . * . .  .  *
//      C: * . . .     * s                C: * . . .
#ifndef SCRIBE_ENGINE_BOARD_H_
#define SCRIBE_ENGINE_BOARD_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "scribe/v1/ruleset.pb.h"

namespace scribe {

inline constexpr int kMaxBoardPosition = 12;
inline constexpr int kNumTileIds = 3 * kMaxBoardPosition;

// A tile id is lane * kMaxBoardPosition + (position - 1), lane 0..2 = A..C.
using TileId = int;

inline int TileLane(TileId t) { return t / kMaxBoardPosition; }
inline int TilePosition(TileId t) { return t % kMaxBoardPosition + 1; }
inline TileId MakeTile(int lane, int position) {
  return lane * kMaxBoardPosition + position - 1;
}

// "A4" -> tile; nullopt unless it is a lane letter A-C and a position 1-12
// (whether the tile exists on a given board is OnBoard's question).
std::optional<TileId> ParseTileName(absl::string_view name);
std::string TileName(TileId t);

// The board's own name ("ur", "egyptian").
std::string BoardName(v1::Board board);
// Number of positions along the board (8 for Ur, 12 for Egyptian).
int BoardLength(v1::Board board);
bool OnBoard(v1::Board board, TileId t);
// Every tile of the board, in lane-then-position order.
std::vector<TileId> BoardTiles(v1::Board board);
// Tiles that share an edge.
bool Adjacent(TileId a, TileId b);
// The tile in the mirror-image position (lanes A and C swapped).
TileId MirrorTile(TileId t);
// The board's marked squares (rosettes): drawn as such, not rules by
// themselves (the ruleset says which path indices are safe or give a throw).
bool IsMarkedTile(v1::Board board, TileId t);

}  // namespace scribe

#endif  // SCRIBE_ENGINE_BOARD_H_
