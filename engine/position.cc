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

void LegalMoves(const Rules& rules, const Position& pos, int roll, MoveList* out) {
  out->clear();
  if (roll <= 0 || roll > kMaxRoll || IsOver(rules, pos)) return;
  const Side me = pos.to_move;
  const Side opp = Other(me);
  uint32_t sources = pos.occ[me];
  if (pos.count[me][0] > 0 && ((rules.entry_roll_mask >> roll) & 1u)) sources |= 1u;
  // Destinations as index bits; the shift drops anything past index 31.
  uint32_t dest = static_cast<uint32_t>(static_cast<uint64_t>(sources) << roll);
  dest &= rules.bear_off_stack ? rules.board_mask : (rules.board_mask | (1u << rules.off));
  // An opponent on a safe square that both colours may not share blocks.
  if (!rules.safe_shared) {
    const uint32_t opp_here = MapOccupancy(rules.opp_to_mine[me], pos.occ[opp]);
    dest &= ~(opp_here & rules.safe_mask);
  }
  if (!rules.stacking) {
    if (!rules.revisits) {
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
  while (dest) {
    const int d = std::countr_zero(dest);
    dest &= dest - 1;
    out->push_back(Move{static_cast<uint8_t>(d - roll), static_cast<uint8_t>(d)});
  }
  if (rules.bear_off_stack && roll == rules.bear_off_roll &&
      ((pos.occ[me] >> rules.path_length) & 1u)) {
    out->push_back(Move{static_cast<uint8_t>(rules.path_length), static_cast<uint8_t>(rules.off)});
  }
}

namespace {

// Whether side `me` may put a piece on index d without moving it there by a
// throw (auto-placement): never onto a capture, nor onto its own piece
// without stacking.
bool CanPlaceWithoutCapture(const Rules& rules, const Position& pos, Side me, int d) {
  if (!rules.stacking && (pos.occ[me] & rules.own_overlap[me][d])) return false;
  const uint32_t opp = pos.occ[Other(me)] & rules.opp_overlap[me][d];
  return opp == 0 || (rules.IsSafe(d) && rules.safe_shared);
}

}  // namespace

MoveResult ApplyMove(const Rules& rules, Position* pos, Move move) {
  MoveResult result;
  const Side me = pos->to_move;
  const Side opp = Other(me);
  const int from = move.from, to = move.to;
  uint8_t(&mine)[kIndexSlots] = pos->count[me];
  assert(mine[from] > 0);
  // Bearing off a stack from the last square takes every piece there.
  const uint8_t n = (rules.bear_off_stack && to == rules.off) ? mine[from] : 1;
  mine[from] = static_cast<uint8_t>(mine[from] - n);
  if (from != 0 && mine[from] == 0) pos->occ[me] &= ~(1u << from);
  if (to == rules.off) {
    mine[to] = static_cast<uint8_t>(mine[to] + n);
    result.bore_off = true;
  } else {
    const uint32_t hit = pos->occ[opp] & rules.opp_overlap[me][to];
    if (hit && !rules.IsSafe(to)) {
      uint8_t(&theirs)[kIndexSlots] = pos->count[opp];
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
    mine[to] = static_cast<uint8_t>(mine[to] + 1);
    pos->occ[me] |= 1u << to;
    result.rosette = rules.GivesExtraRoll(to);
    if (((rules.auto_place_mask >> to) & 1u) && mine[0] > 0 &&
        CanPlaceWithoutCapture(rules, *pos, me, rules.auto_place_to)) {
      --mine[0];
      ++mine[rules.auto_place_to];
      pos->occ[me] |= 1u << rules.auto_place_to;
      result.placed = true;
    }
  }
  result.extra_roll = result.rosette || (result.captured > 0 && rules.capture_extra_roll);
  if (mine[rules.off] == rules.pieces) {
    result.won = true;
    result.extra_roll = false;
  } else if (!result.extra_roll) {
    pos->to_move = opp;
  }
  return result;
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
