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

#include <bit>
#include <cassert>
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

// The shape of a ruleset, as the move code sees it. The move functions take
// it as a template argument: GeneralShape (the default) reads every rule
// flag from the Rules; PlainShape fixes the flags of a plain ruleset
// (Rules::plain: no stacking, no tile visited twice, no bearing off a stack,
// no auto-placement, and every shared square numbered alike by both sides:
// finkel, finkel-blank4, the sawah presets, aseb; not masters or blitz,
// whose sides reach the far lane's squares at different indices) as
// constants, so their tests drop out of the generated code. Callers that
// loop (playouts, perft, search) pick the shape once with WithShape. For a
// plain ruleset the two give the same moves and results
// (tests/engine/properties_test.cc checks it at every ply).
struct GeneralShape {
  static constexpr bool kPlain = false;
  static bool stacking(const Rules& r) { return r.stacking; }
  static bool revisits(const Rules& r) { return r.revisits; }
  static bool bear_off_stack(const Rules& r) { return r.bear_off_stack; }
  static bool auto_place(const Rules& r) { return r.auto_place_mask != 0; }
  static bool opp_is_identity(const Rules& r) { return r.opp_is_identity; }
};
struct PlainShape {
  static constexpr bool kPlain = true;
  static constexpr bool stacking(const Rules&) { return false; }
  static constexpr bool revisits(const Rules&) { return false; }
  static constexpr bool bear_off_stack(const Rules&) { return false; }
  static constexpr bool auto_place(const Rules&) { return false; }
  static constexpr bool opp_is_identity(const Rules&) { return true; }
};

// Calls f(PlainShape{}) for a plain ruleset, f(GeneralShape{}) otherwise.
template <class F>
decltype(auto) WithShape(const Rules& rules, F&& f) {
  if (rules.plain) return f(PlainShape{});
  return f(GeneralShape{});
}

// Everything waiting, `first` to move.
Position StartPosition(const Rules& rules, Side first = kLight);

// The side that has borne off every piece, if any.
std::optional<Side> Winner(const Rules& rules, const Position& pos);
inline bool IsOver(const Rules& rules, const Position& pos) {
  return pos.count[kLight][rules.off] == rules.pieces ||
         pos.count[kDark][rules.off] == rules.pieces;
}

// The legal moves of the side to move for `roll` (defined below: inline,
// it is the hot path of every search and playout).
template <class Shape = GeneralShape>
void LegalMoves(const Rules& rules, const Position& pos, int roll, MoveList* out);

// The same moves as a set, for checking a given move without listing them
// (the referee): bit d of `to` says the piece on d - roll may move to d;
// `stack_off` says the stack on the last square may bear off (bear-off-stack
// rules only).
struct LegalSet {
  uint32_t to = 0;
  bool stack_off = false;
  bool empty() const { return to == 0 && !stack_off; }
};
template <class Shape = GeneralShape>
LegalSet LegalDestinations(const Rules& rules, const Position& pos, int roll);
// The same set for a game known to go on and a throw the dice can give
// (0..kMaxRoll), without testing either: a loop that stops when ApplyMove
// reports a win (the random playouts) would otherwise test for the end of
// the game twice at every throw.
template <class Shape = GeneralShape>
LegalSet LegalDestinationsInPlay(const Rules& rules, const Position& pos, int roll);

// How many moves `legal` holds: LegalMoves' size for the same throw.
inline int LegalCount(const LegalSet& legal) { return std::popcount(legal.to) + (legal.stack_off ? 1 : 0); }

// Move k (0 <= k < LegalCount) of `legal`, the set for `roll`, in LegalMoves'
// order, without listing the moves: random playouts and the random bot pick
// a move this way (no branch on how many moves there are).
template <class Shape = GeneralShape>
Move NthLegalMove(const Rules& rules, const LegalSet& legal, int roll, int k);

// Whether `move` is among the moves of `legal`, the set for `roll`.
inline bool IsLegalMove(const Rules& rules, const LegalSet& legal, int roll, Move move) {
  if (move.to < kIndexSlots && ((legal.to >> move.to) & 1u) && move.from + roll == move.to) return true;
  return legal.stack_off && move.from == rules.path_length && move.to == rules.off;
}

// The place of `move` among the moves of `legal` (the set for `roll`) in
// LegalMoves' order, NthLegalMove's inverse; -1 when it is not among
// them. The referee keeps it for every move (the game codec's digits).
inline int LegalMoveIndex(const Rules& rules, const LegalSet& legal, int roll, Move move) {
  if (move.to < kIndexSlots && ((legal.to >> move.to) & 1u) && move.from + roll == move.to) {
    return std::popcount(legal.to & ((uint32_t{1} << move.to) - 1));
  }
  if (legal.stack_off && move.from == rules.path_length && move.to == rules.off) return std::popcount(legal.to);
  return -1;
}

// Applies a legal move; passes the turn unless it earned another throw. A
// winning move leaves the winner as the side to move (the game is over;
// nothing moves any more).
template <class Shape = GeneralShape>
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

// ---------------------------------------------------------------------------
// Implementation of the hot functions.

namespace position_internal {

// The destinations of the legal moves for `roll` as index bits (bit d: the
// piece on d - roll may move to d), for a throw of 1..kMaxRoll in a game
// that goes on; bearing a stack off the last square is apart.
template <class Shape>
inline uint32_t LegalDestinationBits(const Rules& rules, const Position& pos, int roll) {
  const Side me = pos.to_move;
  const Side opp = Other(me);
  // (Computed, not branched on, here and in ApplyMove wherever the outcome
  // is a coin toss in play: a waiting piece and a throw that enters, a
  // piece leaving its square, another throw. A capture stays a branch:
  // without it the apply costs more than the mispredictions it saves. So
  // does the throw of 0 in LegalDestinations: masking its bits instead
  // measured slower.)
  const uint32_t sources =
      pos.occ[me] | (static_cast<uint32_t>(pos.count[me][0] > 0) & (rules.entry_roll_mask >> roll));
  // Destinations as index bits; the shift drops anything past index 31.
  uint32_t dest = static_cast<uint32_t>(static_cast<uint64_t>(sources) << roll);
  dest &= rules.move_mask;
  // An opponent on a safe square that both colours may not share blocks.
  if (Shape::opp_is_identity(rules)) {
    dest &= ~(pos.occ[opp] & rules.safe_blockers[me]);
  } else if (!rules.safe_shared) {
    dest &= ~(MapOccupancy(rules.opp_to_mine[me], pos.occ[opp]) & rules.safe_mask);
  }
  if (!Shape::stacking(rules)) {
    if (!Shape::revisits(rules)) {
      dest &= ~pos.occ[me];
    } else {
      // A tile on the path twice: the moving piece leaves its own square.
      uint32_t candidates = dest;
      while (candidates) {
        const int d = std::countr_zero(candidates);
        candidates &= candidates - 1;
        const uint32_t others = pos.occ[me] & ~(1u << (d - roll));
        if (others & rules.own_overlap[me][d]) dest &= ~(1u << d);
      }
    }
  }
  return dest;
}

// Whether the stack on the last square may bear off with `roll`.
template <class Shape>
inline bool StackBearsOff(const Rules& rules, const Position& pos, int roll) {
  return Shape::bear_off_stack(rules) && roll == rules.bear_off_roll &&
         ((pos.occ[pos.to_move] >> rules.path_length) & 1u);
}

}  // namespace position_internal

template <class Shape>
inline void LegalMoves(const Rules& rules, const Position& pos, int roll, MoveList* out) {
  out->clear();
  if (roll <= 0 || roll > kMaxRoll || IsOver(rules, pos)) return;
  uint32_t dest = position_internal::LegalDestinationBits<Shape>(rules, pos, roll);
  while (dest) {
    const int d = std::countr_zero(dest);
    dest &= dest - 1;
    out->push_back(Move{static_cast<uint8_t>(d - roll), static_cast<uint8_t>(d)});
  }
  if (position_internal::StackBearsOff<Shape>(rules, pos, roll)) {
    out->push_back(Move{static_cast<uint8_t>(rules.path_length), static_cast<uint8_t>(rules.off)});
  }
}

template <class Shape>
inline LegalSet LegalDestinationsInPlay(const Rules& rules, const Position& pos, int roll) {
  assert(roll >= 0 && roll <= kMaxRoll && !IsOver(rules, pos));
  LegalSet legal;
  if (roll == 0) return legal;
  legal.to = position_internal::LegalDestinationBits<Shape>(rules, pos, roll);
  legal.stack_off = position_internal::StackBearsOff<Shape>(rules, pos, roll);
  return legal;
}

template <class Shape>
inline LegalSet LegalDestinations(const Rules& rules, const Position& pos, int roll) {
  if (roll <= 0 || roll > kMaxRoll || IsOver(rules, pos)) return LegalSet{};
  return LegalDestinationsInPlay<Shape>(rules, pos, roll);
}

namespace position_internal {

// kNthBitInByte[b][k]: the position of the k-th set bit of byte b (0 when b
// has no such bit).
struct NthBitTable {
  uint8_t at[256][8] = {};
  constexpr NthBitTable() {
    for (int b = 0; b < 256; ++b) {
      int k = 0;
      for (int i = 0; i < 8; ++i) {
        if ((b >> i) & 1) at[b][k++] = static_cast<uint8_t>(i);
      }
    }
  }
};
inline constexpr NthBitTable kNthBitInByte{};

// The index of the k-th set bit of x (k < popcount(x)), by bytes: the
// byte holding it is found by comparisons, not a loop.
inline int NthSetBit(uint32_t x, int k) {
  const int c1 = std::popcount(x & 0xffu);
  if (x <= 0xffffu) {
    // Destinations in 16 bits: one comparison finds the byte. Paths of up
    // to 14 squares (bearing off included) take it at every throw, so the
    // branch is predicted; longer ones while their destinations are low.
    // (c1 & -high, not high ? c1 : 0, which compiles to a branch that is
    // a coin toss.)
    const int high = k >= c1;
    return 8 * high + kNthBitInByte.at[(x >> (8 * high)) & 0xffu][k - (c1 & -high)];
  }
  const int c2 = c1 + std::popcount(x & 0xff00u);
  const int c3 = c2 + std::popcount(x & 0xff0000u);
  const int byte = (k >= c1) + (k >= c2) + (k >= c3);
  const int before[4] = {0, c1, c2, c3};
  return 8 * byte + kNthBitInByte.at[(x >> (8 * byte)) & 0xffu][k - before[byte]];
}

}  // namespace position_internal

template <class Shape>
inline Move NthLegalMove(const Rules& rules, const LegalSet& legal, int roll, int k) {
  assert(k >= 0 && k < LegalCount(legal));
  if (Shape::bear_off_stack(rules) && k == std::popcount(legal.to)) {
    return Move{static_cast<uint8_t>(rules.path_length), static_cast<uint8_t>(rules.off)};
  }
  const int d = position_internal::NthSetBit(legal.to, k);
  return Move{static_cast<uint8_t>(d - roll), static_cast<uint8_t>(d)};
}

namespace position_internal {

// Whether side `me` may put a piece on index d without moving it there by a
// throw (auto-placement): never onto a capture, nor onto its own piece
// without stacking.
template <class Shape>
inline bool CanPlaceWithoutCapture(const Rules& rules, const Position& pos, Side me, int d) {
  if (!Shape::stacking(rules) && (pos.occ[me] & rules.own_overlap[me][d])) return false;
  const uint32_t opp = pos.occ[Other(me)] & rules.opp_overlap[me][d];
  return opp == 0 || (rules.IsSafe(d) && rules.safe_shared);
}

}  // namespace position_internal

template <class Shape>
inline MoveResult ApplyMove(const Rules& rules, Position* pos, Move move) {
  MoveResult result;
  const Side me = pos->to_move;
  const Side opp = Other(me);
  const int from = move.from, to = move.to;
  uint8_t(&mine)[kIndexSlots] = pos->count[me];
  assert(mine[from] > 0);
  if (to == rules.off) {
    // Bearing off a stack from the last square takes every piece there.
    const uint8_t n = Shape::bear_off_stack(rules) ? mine[from] : 1;
    mine[from] = static_cast<uint8_t>(mine[from] - n);
    if (mine[from] == 0) pos->occ[me] &= ~(1u << from);
    mine[to] = static_cast<uint8_t>(mine[to] + n);
    result.bore_off = true;
    if (mine[to] == rules.pieces) {
      result.won = true;
      return result;
    }
    pos->to_move = opp;
    return result;
  }
  // Bit 0 of occ is never set, so clearing it for an entering piece is
  // harmless. Without stacking or a tile visited twice a piece on the board
  // is alone on its index, so its bit goes without waiting for the count.
  --mine[from];
  if constexpr (Shape::kPlain) {
    pos->occ[me] &= ~(1u << from);
  } else {
    pos->occ[me] &= ~(static_cast<uint32_t>(mine[from] == 0) << from);
  }
  const uint32_t hit = pos->occ[opp] & rules.capture_overlap[me][to];
  uint8_t(&theirs)[kIndexSlots] = pos->count[opp];
  if (!Shape::stacking(rules)) {
    if (hit) {
      // At most one opponent piece stands on a square.
      result.captured = 1;
      ++theirs[0];
      theirs[std::countr_zero(hit)] = 0;
      pos->occ[opp] &= ~hit;
    }
  } else if (hit) {
    uint32_t h = hit;
    while (h) {
      const int j = std::countr_zero(h);
      h &= h - 1;
      result.captured += theirs[j];
      theirs[0] = static_cast<uint8_t>(theirs[0] + theirs[j]);
      theirs[j] = 0;
    }
    pos->occ[opp] &= ~hit;
  }
  ++mine[to];
  pos->occ[me] |= 1u << to;
  result.rosette = rules.GivesExtraRoll(to);
  if (Shape::auto_place(rules) && ((rules.auto_place_mask >> to) & 1u) && mine[0] > 0 &&
      position_internal::CanPlaceWithoutCapture<Shape>(rules, *pos, me, rules.auto_place_to)) {
    --mine[0];
    ++mine[rules.auto_place_to];
    pos->occ[me] |= 1u << rules.auto_place_to;
    result.placed = true;
  }
  result.extra_roll = result.rosette | ((result.captured > 0) & rules.capture_extra_roll);
  pos->to_move = static_cast<Side>(static_cast<int>(opp) ^ static_cast<int>(result.extra_roll));
  return result;
}

}  // namespace scribe

#endif  // SCRIBE_ENGINE_POSITION_H_
