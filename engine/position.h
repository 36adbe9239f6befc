// Positions, legal moves for a throw, and applying a move.
//
// A Position is a small value (72 bytes): for each side a bit per occupied
// path index and a count per index (0 waiting, 1..L on the board, L+1 borne
// off), and the side to move. Whose throw it is follows from the rules: a
// move that earns another throw keeps the turn, anything else passes it.
//
// Contracts (checked by the property tests):
//  - LegalMoves is sorted by `from`, has no duplicates, and is empty only for
//    a throw of 0, a throw with no legal move, or a finished game.
//  - ApplyMove takes a move from LegalMoves for the same position and throw.
//  - Pieces are conserved: count[s][0] + ... + count[s][L+1] == pieces.
#ifndef SCRIBE_ENGINE_POSITION_H_
#define SCRIBE_ENGINE_POSITION_H_

#include <cstdint>
#include <optional>
#include <string>

#include "engine/rules.h"
#include "engine/types.h"

namespace scribe {

struct Position {
  // occ[s] bit i (1..L): side s has at least one piece on path index i.
  uint32_t occ[2] = {0, 0};
  // count[s][i]: side s's pieces on path index i (0..L+1).
  uint8_t count[2][kIndexSlots] = {};
  Side to_move = kLight;

  int waiting(Side s) const { return count[s][0]; }
  friend bool operator==(const Position& a, const Position& b);
  friend bool operator!=(const Position& a, const Position& b) { return !(a == b); }
};

// What a move did.
struct MoveResult {
  int captured = 0;         // opponent pieces sent back to waiting
  bool extra_roll = false;  // the mover throws again
  bool placed = false;      // a waiting piece was placed (auto-placement)
  bool rosette = false;     // landed on a square that gives another throw
  bool bore_off = false;
  bool won = false;         // the mover has borne off every piece
};

// Everything waiting, `first` to move.
Position StartPosition(const Rules& rules, Side first = kLight);

// The side that has borne off every piece, if any.
std::optional<Side> Winner(const Rules& rules, const Position& pos);
inline bool IsOver(const Rules& rules, const Position& pos) {
  return pos.count[kLight][rules.off] == rules.pieces ||
         pos.count[kDark][rules.off] == rules.pieces;
}

// The legal moves of the side to move for `roll`.
void LegalMoves(const Rules& rules, const Position& pos, int roll, MoveList* out);

// Applies a legal move; passes the turn unless it earned another throw.
MoveResult ApplyMove(const Rules& rules, Position* pos, Move move);

// A throw with no move (0, or nothing legal): the turn passes.
inline void PassTurn(Position* pos) { pos->to_move = Other(pos->to_move); }

// The checks a position must pass to be reachable in principle: conserved
// pieces, no doubled own pieces without stacking, no two colours on one
// square unless it is safe and shared, at most one winner. Returns an empty
// string when the position is consistent, else what is wrong.
std::string CheckPosition(const Rules& rules, const Position& pos);

// Path index of a piece's destination for a throw, or -1 when the throw
// cannot carry it to a square or exactly off (ignores other pieces).
int Destination(const Rules& rules, int from, int roll);

}  // namespace scribe

#endif  // SCRIBE_ENGINE_POSITION_H_
