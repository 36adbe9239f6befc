// The engine's hot value types: sides, moves and fixed-capacity move lists.
//
// Path indices count along the mover's own path: 0 is "waiting off the
// board", 1..L the squares, L+1 "borne off". L is at most kMaxPathLength, so
// every index fits in 5 bits and a side's occupied squares fit in a uint32_t
// (bit i set = at least one piece on path index i).
#ifndef SCRIBE_ENGINE_TYPES_H_
#define SCRIBE_ENGINE_TYPES_H_

#include <array>
#include <cassert>
#include <cstdint>

namespace scribe {

inline constexpr int kMaxPathLength = 30;   // L
inline constexpr int kMaxIndex = kMaxPathLength + 1;  // L+1, borne off
inline constexpr int kIndexSlots = 32;      // 0..31
inline constexpr int kMaxPieces = 15;
inline constexpr int kMaxDice = 8;
inline constexpr int kMaxRoll = 15;

enum Side : uint8_t { kLight = 0, kDark = 1 };
inline constexpr Side Other(Side s) { return static_cast<Side>(s ^ 1); }
inline constexpr const char* SideName(Side s) { return s == kLight ? "light" : "dark"; }

// A move of one piece (or, bearing off a stack, of every piece on `from`)
// from path index `from` to path index `to` along the mover's path.
struct Move {
  uint8_t from = 0;
  uint8_t to = 0;
  friend bool operator==(Move a, Move b) { return a.from == b.from && a.to == b.to; }
  friend bool operator!=(Move a, Move b) { return !(a == b); }
  friend bool operator<(Move a, Move b) {
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  }
};

// Legal moves for one throw live on the stack: at most one per source index
// (the waiting pieces count as source 0), so kIndexSlots is always enough.
class MoveList {
 public:
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](int i) const {
    assert(i >= 0 && i < size_);
    return moves_[i];
  }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  void clear() { size_ = 0; }
  void push_back(Move m) {
    assert(size_ < kIndexSlots);
    moves_[size_++] = m;
  }

 private:
  std::array<Move, kIndexSlots> moves_;
  int size_ = 0;
};

}  // namespace scribe

#endif  // SCRIBE_ENGINE_TYPES_H_
