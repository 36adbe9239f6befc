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

}  // namespace

absl::StatusOr<std::unique_ptr<StateIndex>> StateIndex::Create(const Rules& rules) {
  const auto refuse = [](absl::string_view why) {
    return absl::FailedPreconditionError(absl::StrCat("cannot index this ruleset's positions: ", why));
  };
  if (rules.stacking) return refuse("pieces stack (a square holds any number of pieces)");
  if (rules.revisits) return refuse("a path visits a square twice");
  if (rules.pieces < 1 || rules.pieces >= kMaxGroup) return refuse("unsupported number of pieces");
  const int L = rules.path_length;
  for (int s = 0; s < 2; ++s) {
    for (int d = 1; d <= L; ++d) {
      if (std::popcount(rules.opp_overlap[s][d]) > 1) {
        return refuse("an opponent's path visits one of the mover's squares twice");
      }
    }
  }
  for (int d = 1; d <= L; ++d) {
    if (rules.opp_overlap[0][d] != rules.opp_overlap[1][d] ||
        rules.own_overlap[0][d] != rules.own_overlap[1][d]) {
      return refuse("the two sides' paths are not mirror images (one table cannot serve both colours)");
    }
    if (rules.opp_overlap[0][d] && rules.IsSafe(d) && rules.safe_shared) {
      return refuse("a safe square may hold both colours at once");
    }
  }

  auto index = std::unique_ptr<StateIndex>(new StateIndex());
  StateIndex& x = *index;
  x.pieces_ = rules.pieces;
  x.off_ = rules.off;
  for (int n = 0; n <= 32; ++n) {
    x.choose_[n][0] = 1;
    for (int k = 1; k <= n; ++k) x.choose_[n][k] = x.choose_[n - 1][k - 1] + (k <= n - 1 ? x.choose_[n - 1][k] : 0);
  }

  // Slots: the mover's (light's) shared indices in path order are shared
  // slots 0..s-1; its private ones are private slots 0..p-1. The opponent
  // (dark) index on the same square takes the same shared slot.
  int light_slot[kIndexSlots], dark_slot[kIndexSlots];
  bool light_shared[kIndexSlots] = {}, dark_shared[kIndexSlots] = {};
  int s = 0, p_light = 0, p_dark = 0;
  int shared_slot_of_light[kIndexSlots];
  for (int d = 1; d <= L; ++d) {
    if (rules.opp_overlap[kLight][d]) {
      light_shared[d] = true;
      light_slot[d] = s;
      shared_slot_of_light[d] = s++;
    } else {
      light_slot[d] = p_light++;
    }
  }
  for (int j = 1; j <= L; ++j) {
    const uint32_t mine = rules.opp_overlap[kDark][j];  // light indices on dark's j
    if (mine) {
      dark_shared[j] = true;
      dark_slot[j] = shared_slot_of_light[std::countr_zero(mine)];
    } else {
      dark_slot[j] = p_dark++;
    }
  }
  if (p_light != p_dark) return refuse("the sides have different numbers of private squares");
  if (s > kMaxTableBits || p_light > kMaxTableBits) return refuse("too many squares");
  x.shared_ = s;
  x.private_ = p_light;
  const int p = p_light;

  std::memset(x.mover_shared_, 0, sizeof(x.mover_shared_));
  std::memset(x.mover_private_, 0, sizeof(x.mover_private_));
  std::memset(x.opp_shared_, 0, sizeof(x.opp_shared_));
  std::memset(x.opp_private_, 0, sizeof(x.opp_private_));
  x.mover_shared_expand_.assign(size_t{1} << s, 0);
  x.opp_shared_expand_.assign(size_t{1} << s, 0);
  x.private_expand_mover_.assign(size_t{1} << p, 0);
  x.private_expand_opp_.assign(size_t{1} << p, 0);
  for (int d = 1; d <= L; ++d) {
    for (int b = 0; b < 256; ++b) {
      if (!((b >> (d % 8)) & 1)) continue;
      if (light_shared[d]) x.mover_shared_[d / 8][b] |= 1u << light_slot[d];
      else x.mover_private_[d / 8][b] |= 1u << light_slot[d];
      if (dark_shared[d]) x.opp_shared_[d / 8][b] |= 1u << dark_slot[d];
      else x.opp_private_[d / 8][b] |= 1u << dark_slot[d];
    }
  }
  for (int d = 1; d <= L; ++d) {
    x.mover_bits_[d] = x.MoverParts(1u << d);
    x.opp_bits_[d] = x.OpponentParts(1u << d);
  }
  for (uint32_t m = 0; m < (1u << s); ++m) {
    for (int d = 1; d <= L; ++d) {
      if (light_shared[d] && ((m >> light_slot[d]) & 1u)) x.mover_shared_expand_[m] |= 1u << d;
      if (dark_shared[d] && ((m >> dark_slot[d]) & 1u)) x.opp_shared_expand_[m] |= 1u << d;
    }
  }
  for (uint32_t m = 0; m < (1u << p); ++m) {
    for (int d = 1; d <= L; ++d) {
      if (!light_shared[d] && ((m >> light_slot[d]) & 1u)) x.private_expand_mover_[m] |= 1u << d;
      if (!dark_shared[d] && ((m >> dark_slot[d]) & 1u)) x.private_expand_opp_[m] |= 1u << d;
    }
  }

  // Colex ranks of shared masks; masks by size in ascending order.
  x.colex_.assign(size_t{1} << s, 0);
  x.masks_by_size_shared_.assign(s + 1, {});
  for (uint32_t m = 0; m < (1u << s); ++m) {
    auto& list = x.masks_by_size_shared_[std::popcount(m)];
    x.colex_[m] = static_cast<uint32_t>(list.size());
    list.push_back(m);
  }
  // The opponent's compressed shared slots' colex rank by table, for up to
  // 12 shared squares: 3^s entries, one per pair of disjoint masks (ranks
  // below C(12, 6) = 924 fit 16 bits).
  x.ternary_.clear();
  x.opp_colex_.clear();
  if (s <= kTableSharedBits) {
    x.ternary_.assign(size_t{1} << s, 0);
    uint32_t power = 1;
    for (int i = 0; i < s; ++i, power *= 3) {
      for (uint32_t m = 0; m < (1u << s); ++m) {
        if ((m >> i) & 1u) x.ternary_[m] += power;
      }
    }
    x.opp_colex_.assign(power, 0);  // 3^s
    const uint32_t all = (1u << s) - 1;
    for (uint32_t ms = 0; ms <= all; ++ms) {
      // Every os within the slots ms leaves free (no square holds both
      // colours), the empty one included.
      const uint32_t free = all & ~ms;
      for (uint32_t os = free;; os = (os - 1) & free) {
        x.opp_colex_[x.ternary_[ms] + 2 * x.ternary_[os]] = static_cast<uint16_t>(x.colex_[CompressShared(ms, os)]);
        if (os == 0) break;
      }
    }
  }

  // Private subsets by size, then colex.
  x.subset_rank_.assign(size_t{1} << p, 0);
  x.private_by_rank_.clear();
  for (int k = 0; k <= p; ++k) {
    for (uint32_t m = 0; m < (1u << p); ++m) {
      if (std::popcount(m) != k) continue;
      x.subset_rank_[m] = static_cast<uint32_t>(x.private_by_rank_.size());
      x.private_by_rank_.push_back(m);
    }
  }
  x.subsets_upto_.assign(rules.pieces + 1, 0);
  for (int k = 0; k <= rules.pieces; ++k) {
    uint64_t total = 0;
    for (int c = 0; c <= std::min(k, p); ++c) total += x.choose_[p][c];
    x.subsets_upto_[k] = total;
  }

  const int n = rules.pieces;
  x.layer_begin_.assign(static_cast<size_t>(n) * n + 1, 0);
  x.group_begin_.assign(static_cast<size_t>(n) * n * kMaxGroup * kMaxGroup, 0);
  uint64_t total = 0;
  for (int mo = 0; mo < n; ++mo) {
    for (int oo = 0; oo < n; ++oo) {
      const int layer = mo * n + oo;
      x.layer_begin_[layer] = total;
      const int nm = n - mo, no = n - oo;
      uint64_t in_layer = 0;
      for (int gx = 0; gx <= std::min(s, nm); ++gx) {
        for (int gy = 0; gy <= std::min(s - gx, no); ++gy) {
          x.group_begin_[(layer * kMaxGroup + gx) * kMaxGroup + gy] = in_layer;
          in_layer += x.choose_[s][gx] * x.choose_[s - gx][gy] * x.subsets_upto_[nm - gx] *
                      x.subsets_upto_[no - gy];
        }
      }
      total += in_layer;
    }
  }
  x.layer_begin_[static_cast<size_t>(n) * n] = total;
  x.size_ = total;
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
