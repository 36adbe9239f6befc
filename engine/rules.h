// A frozen, resolved ruleset with the lookup tables the move generator uses.
//
// Rules are built once from a resolved and checked scribe.v1.Ruleset (see
// ruleset.h, which is the only way to get one) and never change; positions
// hold no pointer to them, the engine's functions take them by reference.
// Everything here is indexed by side and by the mover's path index.
#ifndef SCRIBE_ENGINE_RULES_H_
#define SCRIBE_ENGINE_RULES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/board.h"
#include "engine/types.h"
#include "scribe/v1/ruleset.pb.h"

namespace scribe {

// One value the dice can give, with its exact chance: weight / 2^dice_count.
struct RollOutcome {
  int roll;
  int weight;
};

struct Rules {
  // The resolved ruleset these rules were concluded from (every field
  // explicit, dark_path filled in, no base).
  v1::Ruleset ruleset;
  // Stable digest of the rules' canonical form (see ruleset.h).
  std::string digest;

  int path_length = 0;  // L
  int off = 0;          // L+1, the "borne off" index
  int pieces = 0;

  // Dice.
  int dice_count = 0;
  int roll_for_marks[kMaxDice + 1] = {};
  std::vector<RollOutcome> outcomes;  // distinct rolls, ascending
  int max_roll = 0;
  uint32_t possible_rolls = 0;        // bit r set: the dice can give r
  // The throw for each pattern of dice_count random bits (1 = a mark up):
  // a table instead of a popcount, for the playout loop.
  uint8_t roll_for_bits[1u << kMaxDice] = {};

  // Per side and path index 1..L: the tile and the "square" (tile and
  // phase); two pieces interact only on the same square.
  TileId tile[2][kIndexSlots] = {};
  int square[2][kIndexSlots] = {};
  int phase[kIndexSlots] = {};

  uint32_t board_mask = 0;       // bits 1..L
  uint32_t move_mask = 0;        // where a throw may carry a piece: the board, and
                                 // off (L+1) unless only a stack bears off
  uint32_t safe_mask = 0;        // mover's indices where no capture happens
  uint32_t extra_mask = 0;       // mover's indices that give another throw
  uint32_t entry_roll_mask = 0;  // bit r: throw r may bring a piece on
  uint32_t auto_place_mask = 0;  // landing here places a waiting piece
  int auto_place_to = 0;
  bool stacking = false;
  bool safe_shared = false;
  bool capture_extra_roll = false;
  bool bear_off_stack = false;   // BEAR_OFF_STACK_FROM_LAST
  int bear_off_roll = 0;
  v1::Opening opening = v1::OPENING_AGREED;

  // Some tile is on a side's path twice (same phase): own blocking then goes
  // through square tables instead of plain index bits.
  bool revisits = false;
  // opp_overlap[s][d]: the opponent's indices on the same square as s's
  // index d. own_overlap[s][d]: s's own indices on that square (d included).
  uint32_t opp_overlap[2][kIndexSlots] = {};
  uint32_t own_overlap[2][kIndexSlots] = {};
  // capture_overlap[s][d]: opp_overlap[s][d], or nothing where d is safe:
  // the opponent's pieces a move of s to d captures.
  uint32_t capture_overlap[2][kIndexSlots] = {};
  // Byte-wise maps from a side's occupancy bits to the squares they cover,
  // in the mover's index space: opp_to_mine[s][k][b] is the union of
  // own indices of s sharing a square with opponent index 8k+i, for the bits
  // i of b. own_to_mine likewise for s's own pieces.
  uint32_t opp_to_mine[2][4][256] = {};
  uint32_t own_to_mine[2][4][256] = {};
  // When every opponent index maps to the mover's same index or to none
  // (finkel, sawah: the shared lane has the same numbers for both), the map
  // is a mask: opp_identity[s] = opponent indices that share a square.
  bool opp_is_identity = false;
  uint32_t opp_identity[2] = {0, 0};
  // With opp_is_identity: safe_blockers[s] = the indices where an opponent
  // piece blocks s (safe squares both sides reach, unless they may share).
  uint32_t safe_blockers[2] = {0, 0};
  // No stacking, no revisits, no bearing off a stack, no auto-placement,
  // and opp_is_identity: the move code's PlainShape applies (position.h).
  bool plain = false;

  bool IsSafe(int index) const { return (safe_mask >> index) & 1u; }
  bool GivesExtraRoll(int index) const { return (extra_mask >> index) & 1u; }
  bool CanRoll(int roll) const {
    return roll >= 0 && roll <= kMaxRoll && ((possible_rolls >> roll) & 1u);
  }
  // Tile name of side s's path index i (1..L).
  std::string TileNameAt(Side s, int index) const { return TileName(tile[s][index]); }

  // Builds the tables from a resolved ruleset that passed CheckRuleset.
  explicit Rules(const v1::Ruleset& resolved, std::string digest);
};

inline uint32_t MapOccupancy(const uint32_t (&table)[4][256], uint32_t occ) {
  return table[0][occ & 0xff] | table[1][(occ >> 8) & 0xff] |
         table[2][(occ >> 16) & 0xff] | table[3][occ >> 24];
}

}  // namespace scribe

#endif  // SCRIBE_ENGINE_RULES_H_
