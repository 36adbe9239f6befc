#include "engine/state_index.h"

#include <algorithm>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace scribe {
namespace {

// Squares per side the tables cover: colex and subset-rank tables have 2^n
// entries.
constexpr int kMaxTableBits = 22;

absl::Status Unindexable(absl::string_view why) {
  return absl::FailedPreconditionError(absl::StrCat("cannot index this ruleset's positions: ", why));
}

}  // namespace

// What the index needs of the rules, short of the counts of squares.
absl::Status StateIndex::CheckIndexable(const Rules& rules) {
  if (rules.stacking) return Unindexable("pieces stack (a square holds any number of pieces)");
  if (rules.revisits) return Unindexable("a path visits a square twice");
  if (rules.pieces < 1 || rules.pieces >= kMaxGroup) return Unindexable("unsupported number of pieces");
  const int L = rules.path_length;
  for (int s = 0; s < 2; ++s) {
    for (int d = 1; d <= L; ++d) {
      if (std::popcount(rules.opp_overlap[s][d]) > 1) {
        return Unindexable("an opponent's path visits one of the mover's squares twice");
      }
    }
  }
  for (int d = 1; d <= L; ++d) {
    if (rules.opp_overlap[0][d] != rules.opp_overlap[1][d] ||
        rules.own_overlap[0][d] != rules.own_overlap[1][d]) {
      return Unindexable("the two sides' paths are not mirror images (one table cannot serve both colours)");
    }
    if (rules.opp_overlap[0][d] && rules.IsSafe(d) && rules.safe_shared) {
      return Unindexable("a safe square may hold both colours at once");
    }
  }
  return absl::OkStatus();
}

// Slots: the mover's (light's) shared indices in path order are shared
// slots 0..s-1; its private ones are private slots 0..p-1. The opponent
// (dark) index on the same square takes the same shared slot.
struct StateIndex::Slots {
  int light_slot[kIndexSlots], dark_slot[kIndexSlots];
  bool light_shared[kIndexSlots] = {}, dark_shared[kIndexSlots] = {};
  int s = 0, p_light = 0, p_dark = 0;
};

StateIndex::Slots StateIndex::AssignSlots(const Rules& rules) {
  const int L = rules.path_length;
  Slots slots;
  int shared_slot_of_light[kIndexSlots];
  for (int d = 1; d <= L; ++d) {
    if (rules.opp_overlap[kLight][d]) {
      slots.light_shared[d] = true;
      slots.light_slot[d] = slots.s;
      shared_slot_of_light[d] = slots.s++;
    } else {
      slots.light_slot[d] = slots.p_light++;
    }
  }
  for (int j = 1; j <= L; ++j) {
    const uint32_t mine = rules.opp_overlap[kDark][j];  // light indices on dark's j
    if (mine) {
      slots.dark_shared[j] = true;
      slots.dark_slot[j] = shared_slot_of_light[std::countr_zero(mine)];
    } else {
      slots.dark_slot[j] = slots.p_dark++;
    }
  }
  return slots;
}

// The byte maps from index bits to slot bits and the tables back.
void StateIndex::MapSlots(const Rules& rules, const Slots& slots) {
  const int L = rules.path_length;
  const int s = slots.s, p = slots.p_light;
  std::memset(mover_shared_, 0, sizeof(mover_shared_));
  std::memset(mover_private_, 0, sizeof(mover_private_));
  std::memset(opp_shared_, 0, sizeof(opp_shared_));
  std::memset(opp_private_, 0, sizeof(opp_private_));
  mover_shared_expand_.assign(size_t{1} << s, 0);
  opp_shared_expand_.assign(size_t{1} << s, 0);
  private_expand_mover_.assign(size_t{1} << p, 0);
  private_expand_opp_.assign(size_t{1} << p, 0);
  for (int d = 1; d <= L; ++d) {
    for (int b = 0; b < 256; ++b) {
      if (!((b >> (d % 8)) & 1)) continue;
      if (slots.light_shared[d]) mover_shared_[d / 8][b] |= 1u << slots.light_slot[d];
      else mover_private_[d / 8][b] |= 1u << slots.light_slot[d];
      if (slots.dark_shared[d]) opp_shared_[d / 8][b] |= 1u << slots.dark_slot[d];
      else opp_private_[d / 8][b] |= 1u << slots.dark_slot[d];
    }
  }
  for (int d = 1; d <= L; ++d) {
    mover_bits_[d] = MoverParts(1u << d);
    opp_bits_[d] = OpponentParts(1u << d);
  }
  for (uint32_t m = 0; m < (1u << s); ++m) {
    for (int d = 1; d <= L; ++d) {
      if (slots.light_shared[d] && ((m >> slots.light_slot[d]) & 1u)) mover_shared_expand_[m] |= 1u << d;
      if (slots.dark_shared[d] && ((m >> slots.dark_slot[d]) & 1u)) opp_shared_expand_[m] |= 1u << d;
    }
  }
  for (uint32_t m = 0; m < (1u << p); ++m) {
    for (int d = 1; d <= L; ++d) {
      if (!slots.light_shared[d] && ((m >> slots.light_slot[d]) & 1u)) private_expand_mover_[m] |= 1u << d;
      if (!slots.dark_shared[d] && ((m >> slots.dark_slot[d]) & 1u)) private_expand_opp_[m] |= 1u << d;
    }
  }
}

void StateIndex::RankSharedMasks() {
  const int s = shared_;
  // Colex ranks of shared masks; masks by size in ascending order.
  colex_.assign(size_t{1} << s, 0);
  masks_by_size_shared_.assign(s + 1, {});
  for (uint32_t m = 0; m < (1u << s); ++m) {
    auto& list = masks_by_size_shared_[std::popcount(m)];
    colex_[m] = static_cast<uint32_t>(list.size());
    list.push_back(m);
  }
  // The opponent's compressed shared slots' colex rank by table, for up to
  // 12 shared squares: 3^s entries, one per pair of disjoint masks (ranks
  // below C(12, 6) = 924 fit 16 bits).
  ternary_.clear();
  opp_colex_.clear();
  if (s <= kTableSharedBits) {
    ternary_.assign(size_t{1} << s, 0);
    uint32_t power = 1;
    for (int i = 0; i < s; ++i, power *= 3) {
      for (uint32_t m = 0; m < (1u << s); ++m) {
        if ((m >> i) & 1u) ternary_[m] += power;
      }
    }
    opp_colex_.assign(power, 0);  // 3^s
    const uint32_t all = (1u << s) - 1;
    for (uint32_t ms = 0; ms <= all; ++ms) {
      // Every os within the slots ms leaves free (no square holds both
      // colours), the empty one included.
      const uint32_t free = all & ~ms;
      for (uint32_t os = free;; os = (os - 1) & free) {
        opp_colex_[ternary_[ms] + 2 * ternary_[os]] = static_cast<uint16_t>(colex_[CompressShared(ms, os)]);
        if (os == 0) break;
      }
    }
  }
}

void StateIndex::RankPrivateSubsets(int pieces) {
  const int p = private_;
  // Private subsets by size, then colex.
  subset_rank_.assign(size_t{1} << p, 0);
  private_by_rank_.clear();
  for (int k = 0; k <= p; ++k) {
    for (uint32_t m = 0; m < (1u << p); ++m) {
      if (std::popcount(m) != k) continue;
      subset_rank_[m] = static_cast<uint32_t>(private_by_rank_.size());
      private_by_rank_.push_back(m);
    }
  }
  subsets_upto_.assign(pieces + 1, 0);
  for (int k = 0; k <= pieces; ++k) {
    uint64_t total = 0;
    for (int c = 0; c <= std::min(k, p); ++c) total += choose_[p][c];
    subsets_upto_[k] = total;
  }
}

// Where each layer (both borne-off counts) begins, and in a layer each
// group (how many of each side's pieces are on shared squares); the size.
void StateIndex::PlaceLayers(int pieces) {
  const int s = shared_;
  const int n = pieces;
  layer_begin_.assign(static_cast<size_t>(n) * n + 1, 0);
  group_begin_.assign(static_cast<size_t>(n) * n * kMaxGroup * kMaxGroup, 0);
  uint64_t total = 0;
  for (int mo = 0; mo < n; ++mo) {
    for (int oo = 0; oo < n; ++oo) {
      const int layer = mo * n + oo;
      layer_begin_[layer] = total;
      const int nm = n - mo, no = n - oo;
      uint64_t in_layer = 0;
      for (int gx = 0; gx <= std::min(s, nm); ++gx) {
        for (int gy = 0; gy <= std::min(s - gx, no); ++gy) {
          group_begin_[(layer * kMaxGroup + gx) * kMaxGroup + gy] = in_layer;
          in_layer += choose_[s][gx] * choose_[s - gx][gy] * subsets_upto_[nm - gx] *
                      subsets_upto_[no - gy];
        }
      }
      total += in_layer;
    }
  }
  layer_begin_[static_cast<size_t>(n) * n] = total;
  size_ = total;
}

absl::StatusOr<std::unique_ptr<StateIndex>> StateIndex::Create(const Rules& rules) {
  if (absl::Status ok = CheckIndexable(rules); !ok.ok()) return ok;

  auto index = std::unique_ptr<StateIndex>(new StateIndex());
  StateIndex& x = *index;
  x.pieces_ = rules.pieces;
  x.off_ = rules.off;
  for (int n = 0; n <= 32; ++n) {
    x.choose_[n][0] = 1;
    for (int k = 1; k <= n; ++k) x.choose_[n][k] = x.choose_[n - 1][k - 1] + (k <= n - 1 ? x.choose_[n - 1][k] : 0);
  }

  const Slots slots = AssignSlots(rules);
  if (slots.p_light != slots.p_dark) return Unindexable("the sides have different numbers of private squares");
  if (slots.s > kMaxTableBits || slots.p_light > kMaxTableBits) return Unindexable("too many squares");
  x.shared_ = slots.s;
  x.private_ = slots.p_light;
  x.MapSlots(rules, slots);
  x.RankSharedMasks();
  x.RankPrivateSubsets(rules.pieces);
  x.PlaceLayers(rules.pieces);
  return index;
}

void StateIndex::FillPosition(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off,
                              Position* pos) const {
  *pos = Position();
  pos->to_move = kLight;
  pos->occ[kLight] = mover_occ;
  pos->occ[kDark] = opp_occ;
  for (uint32_t b = mover_occ; b; b &= b - 1) pos->count[kLight][std::countr_zero(b)] = 1;
  for (uint32_t b = opp_occ; b; b &= b - 1) pos->count[kDark][std::countr_zero(b)] = 1;
  pos->count[kLight][off_] = static_cast<uint8_t>(mover_off);
  pos->count[kDark][off_] = static_cast<uint8_t>(opp_off);
  pos->count[kLight][0] = static_cast<uint8_t>(pieces_ - mover_off - std::popcount(mover_occ));
  pos->count[kDark][0] = static_cast<uint8_t>(pieces_ - opp_off - std::popcount(opp_occ));
}

Position StateIndex::Unrank(uint64_t rank) const {
  // Find the layer, then walk the groups and blocks arithmetically.
  const int n = pieces_;
  int layer = static_cast<int>(std::upper_bound(layer_begin_.begin(), layer_begin_.end(), rank) -
                               layer_begin_.begin()) - 1;
  const int mo = layer / n, oo = layer % n;
  uint64_t r = rank - layer_begin_[layer];
  const int nm = n - mo, no = n - oo;
  int gx = 0, gy = 0;
  uint64_t group_size = 0;
  for (int a = 0; a <= std::min(shared_, nm); ++a) {
    for (int b = 0; b <= std::min(shared_ - a, no); ++b) {
      const uint64_t begin = group_begin_[(layer * kMaxGroup + a) * kMaxGroup + b];
      const uint64_t size =
          choose_[shared_][a] * choose_[shared_ - a][b] * subsets_upto_[nm - a] * subsets_upto_[no - b];
      if (r >= begin && r < begin + size) {
        gx = a;
        gy = b;
        group_size = size;
        r -= begin;
      }
    }
  }
  (void)group_size;
  const uint64_t am = subsets_upto_[nm - gx], ao = subsets_upto_[no - gy];
  const uint64_t block = am * ao;
  const uint64_t pattern = r / block;
  const uint64_t inner = r % block;
  const uint64_t per_ms = choose_[shared_ - gx][gy];
  const uint32_t ms = masks_by_size_shared_[gx][pattern / per_ms];
  const uint32_t oc = masks_by_size_shared_[gy][pattern % per_ms];
  uint32_t os = 0, freebits = ~ms & ((1u << shared_) - 1);
  for (int j = 0; freebits; ++j, freebits &= freebits - 1) {
    if ((oc >> j) & 1u) os |= freebits & (~freebits + 1);
  }
  const uint32_t mover_occ = mover_shared_expand_[ms] | private_expand_mover_[private_by_rank_[inner / ao]];
  const uint32_t opp_occ = opp_shared_expand_[os] | private_expand_opp_[private_by_rank_[inner % ao]];
  Position pos;
  FillPosition(mover_occ, mo, opp_occ, oo, &pos);
  return pos;
}

}  // namespace scribe
