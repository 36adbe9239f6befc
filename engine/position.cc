#include "engine/position.h"

#include <bit>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace scribe {

bool operator==(const Position& a, const Position& b) {
  return a.to_move == b.to_move && a.occ[0] == b.occ[0] && a.occ[1] == b.occ[1] &&
         std::memcmp(a.count, b.count, sizeof(a.count)) == 0;
}

Position StartPosition(const Rules& rules, Side first) {
  Position pos;
  pos.count[kLight][0] = static_cast<uint8_t>(rules.pieces);
  pos.count[kDark][0] = static_cast<uint8_t>(rules.pieces);
  pos.to_move = first;
  return pos;
}

std::optional<Side> Winner(const Rules& rules, const Position& pos) {
  if (pos.count[kLight][rules.off] == rules.pieces) return kLight;
  if (pos.count[kDark][rules.off] == rules.pieces) return kDark;
  return std::nullopt;
}

int Destination(const Rules& rules, int from, int roll) {
  if (roll <= 0) return -1;
  if (rules.bear_off_stack) {
    if (from == rules.path_length) return roll == rules.bear_off_roll ? rules.off : -1;
    return from + roll <= rules.path_length ? from + roll : -1;
  }
  return from + roll <= rules.off ? from + roll : -1;
}

std::string CheckPosition(const Rules& rules, const Position& pos) {
  for (int s = 0; s < 2; ++s) {
    int total = 0;
    uint32_t occ = 0;
    for (int i = 0; i <= rules.off; ++i) {
      total += pos.count[s][i];
      if (i >= 1 && i <= rules.path_length && pos.count[s][i] > 0) occ |= 1u << i;
    }
    for (int i = rules.off + 1; i < kIndexSlots; ++i) {
      if (pos.count[s][i] != 0) return absl::StrCat(SideName(Side(s)), " has pieces past the end of the path");
    }
    if (total != rules.pieces) {
      return absl::StrCat(SideName(Side(s)), " has ", total, " pieces, the rules say ", rules.pieces);
    }
    if (occ != pos.occ[s]) return "occupancy bits disagree with the counts";
    if (!rules.stacking) {
      for (int i = 1; i <= rules.path_length; ++i) {
        if (pos.count[s][i] > 1) {
          return absl::StrCat(SideName(Side(s)), " has ", int(pos.count[s][i]),
                              " pieces on index ", i, " without stacking");
        }
        if (pos.count[s][i] && (pos.occ[s] & rules.own_overlap[s][i] & ~(1u << i))) {
          return absl::StrCat(SideName(Side(s)), " has two pieces on tile ",
                              rules.TileNameAt(Side(s), i));
        }
      }
    }
  }
  for (int i = 1; i <= rules.path_length; ++i) {
    if (!pos.count[kLight][i]) continue;
    const uint32_t both = pos.occ[kDark] & rules.opp_overlap[kLight][i];
    if (both && !(rules.IsSafe(i) && rules.safe_shared)) {
      return absl::StrCat("both colours stand on tile ", rules.TileNameAt(kLight, i));
    }
  }
  if (pos.count[kLight][rules.off] == rules.pieces && pos.count[kDark][rules.off] == rules.pieces) {
    return "both sides have borne off every piece";
  }
  return "";
}

}  // namespace scribe
