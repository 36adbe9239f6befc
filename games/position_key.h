// Position keys: the number a position is found by in the position index
// and the explorer.
//
// For rules the state index ranks (engine/state_index.h: every preset but
// skiriuk, murray and turnover), a position with the game not over has the
// key rank * 2 + side to move (the rank is from the mover's point of view,
// so the side is added): collision-free, and the rank joins a solved table
// directly. Every other position (a finished game, or rules the index does
// not rank) has a hash key: FNV-1a 64 of the side to move and both sides'
// counts per path index 0..L+1 (one byte each), with the top bit set. Ranks
// never have the top bit set, so the two kinds never meet. A hash key can
// collide: every game found by one is replayed to check that it passes
// through the position (games/library.h), so a search never returns a
// wrong game.
//
// Buckets group keys into blocks of the index (games/postings.h): a rank
// key's bucket is key >> shift, with the shift that makes about 2^15
// buckets of the ruleset's ranks; a hash key's bucket is 2^40 + its top 16
// bits but the first.
#ifndef SCRIBE_GAMES_POSITION_KEY_H_
#define SCRIBE_GAMES_POSITION_KEY_H_

#include <cstdint>
#include <memory>

#include "engine/position.h"
#include "engine/rules.h"
#include "engine/state_index.h"

namespace scribe::games {

class PositionKeys {
 public:
  explicit PositionKeys(const Rules& rules);
  uint64_t Key(const Position& pos) const;
  int64_t Bucket(uint64_t key) const;
  static bool IsHash(uint64_t key) { return (key >> 63) != 0; }
  bool ranked() const { return index_ != nullptr; }
  const Rules& rules() const { return rules_; }

 private:
  const Rules& rules_;
  std::unique_ptr<StateIndex> index_;
  int shift_ = 0;
};

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_POSITION_KEY_H_
