#include "games/position_key.h"

#include <bit>

#include "games/game_codec.h"

namespace scribe::games {

PositionKeys::PositionKeys(const Rules& rules) : rules_(rules) {
  absl::StatusOr<std::unique_ptr<StateIndex>> index = StateIndex::Create(rules);
  if (index.ok()) {
    index_ = std::move(*index);
    const int bits = std::bit_width(index_->size() * 2);
    shift_ = bits > 15 ? bits - 15 : 0;
  }
}

uint64_t PositionKeys::Key(const Position& pos) const {
  if (index_ != nullptr && !IsOver(rules_, pos)) return index_->Rank(pos) * 2 + pos.to_move;
  char bytes[1 + 2 * kIndexSlots];
  int n = 0;
  bytes[n++] = static_cast<char>(pos.to_move);
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i <= rules_.off; ++i) bytes[n++] = static_cast<char>(pos.count[side][i]);
  }
  return Fnv1a64(absl::string_view(bytes, n)) | (uint64_t{1} << 63);
}

int64_t PositionKeys::Bucket(uint64_t key) const {
  if (IsHash(key)) return (int64_t{1} << 40) + static_cast<int64_t>((key >> 47) & 0xffff);
  return static_cast<int64_t>(key >> shift_);
}

}  // namespace scribe::games
