// A perfect ranking of the positions of a ruleset, from the side to move's
// point of view: every position maps to a number in [0, size()) and back,
// with no gaps for positions the square-sharing rules exclude, so a solved
// table stores one value per position and no keys (docs/analysis.md).
//
// A position is seen as (mover, opponent): the side to move's pieces in its
// own path indices, and the other side's in theirs. Rules that treat both
// sides alike (every preset) give a colour-swapped position the same rank,
// so one table serves both colours.
//
// Squares split three ways: the mover's private squares (no opponent path
// crosses them), the shared squares, and the opponent's private squares. The
// ranks are laid out by layers (pieces borne off by the mover, by the
// opponent; a layer's positions never lead to a layer with fewer pieces
// off), then within a layer by groups (pieces of each side on shared
// squares), then by the shared pattern (colex ranks), then by each side's
// private squares (ranked by size, then colex). A layer's size is
//   sum over x, y of C(s, x) C(s-x, y) A_m(n_m - x) A_o(n_o - y)
// where s is the number of shared squares, n the pieces not borne off, and
// A(k) the subsets of a side's private squares with at most k elements.
// finkel: 137,870,097 positions.
//
// Supported: rules without stacking, where no side's path visits a square
// twice, no square holds both colours, and both sides' tables agree (see
// Create). Everything else is refused with the reason.
#ifndef SCRIBE_ENGINE_STATE_INDEX_H_
#define SCRIBE_ENGINE_STATE_INDEX_H_

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/position.h"
#include "engine/rules.h"

namespace scribe {

class StateIndex {
 public:
  // The index for `rules`, or FAILED_PRECONDITION saying why the rules
  // cannot be ranked this way.
  static absl::StatusOr<std::unique_ptr<StateIndex>> Create(const Rules& rules);

  // Every position of the ruleset with neither side finished.
  uint64_t size() const { return size_; }
  int pieces() const { return pieces_; }
  int shared_squares() const { return shared_; }
  int private_squares() const { return private_; }

  // The ranks of layer (mover_off, opponent_off), both in 0..pieces-1, are
  // [LayerBegin, LayerBegin + LayerSize).
  uint64_t LayerBegin(int mover_off, int opponent_off) const {
    return layer_begin_[mover_off * pieces_ + opponent_off];
  }
  uint64_t LayerSize(int mover_off, int opponent_off) const {
    return layer_begin_[mover_off * pieces_ + opponent_off + 1] -
           layer_begin_[mover_off * pieces_ + opponent_off];
  }

  // The rank of a position whose game is not over, seen from its side to
  // move (pos.to_move is the mover).
  uint64_t Rank(const Position& pos) const {
    const Side me = pos.to_move;
    return Rank(pos.occ[me], pos.count[me][off_], pos.occ[Other(me)], pos.count[Other(me)][off_]);
  }

  // The same from occupancy bits (path indices 1..L) and borne-off counts.
  uint64_t Rank(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off) const {
    return RankParts(MoverParts(mover_occ), mover_off, OpponentParts(opp_occ), opp_off);
  }

  // A side's occupancy split into shared-slot bits and private-slot bits,
  // as the mover or as the opponent sees it (the two differ where the paths
  // number a shared square differently). A move changes a Parts by the
  // bits of the indices it leaves and enters (MoverBits, OpponentBits), so
  // the solver ranks successors without mapping whole occupancies again.
  struct Parts {
    uint32_t shared = 0;
    uint32_t priv = 0;
    Parts operator^(const Parts& o) const { return {shared ^ o.shared, priv ^ o.priv}; }
  };
  Parts MoverParts(uint32_t occ) const { return {Map(mover_shared_, occ), Map(mover_private_, occ)}; }
  Parts OpponentParts(uint32_t occ) const { return {Map(opp_shared_, occ), Map(opp_private_, occ)}; }
  // The parts of one path index (0 and L+1: none).
  const Parts& MoverBits(int index) const { return mover_bits_[index]; }
  const Parts& OpponentBits(int index) const { return opp_bits_[index]; }

  uint64_t RankParts(Parts mover, int mover_off, Parts opp, int opp_off) const {
    const uint32_t ms = mover.shared, os = opp.shared;
    const int x = std::popcount(ms), y = std::popcount(os);
    const int nm = pieces_ - mover_off, no = pieces_ - opp_off;
    const int layer = mover_off * pieces_ + opp_off;
    const uint64_t am = subsets_upto_[nm - x], ao = subsets_upto_[no - y];
    const uint64_t pattern = static_cast<uint64_t>(colex_[ms]) * Choose(shared_ - x, y) + OpponentColex(ms, os);
    return layer_begin_[layer] + group_begin_[(layer * (kMaxGroup) + x) * kMaxGroup + y] +
           (pattern * am + subset_rank_[mover.priv]) * ao + subset_rank_[opp.priv];
  }

  // Ranks of positions that share the mover's parts and both borne-off
  // counts and differ only in the opponent's (the solver's successors of
  // one position by the moves that pass the turn and capture nothing):
  // the mover's share of RankParts is done once, and the opponent's shared
  // slots go through the mover's row of the compression table.
  class FixedMover {
   public:
    FixedMover(const StateIndex& index, Parts mover, int mover_off, int opp_off)
        : index_(index), ms_(mover.shared) {
      const int x = std::popcount(ms_);
      const int layer = mover_off * index.pieces_ + opp_off;
      no_ = index.pieces_ - opp_off;
      free_slots_ = index.shared_ - x;
      colex_ms_ = index.colex_[ms_];
      am_ = index.subsets_upto_[index.pieces_ - mover_off - x];
      mover_priv_rank_ = index.subset_rank_[mover.priv];
      base_ = index.layer_begin_[layer];
      groups_ = &index.group_begin_[(layer * kMaxGroup + x) * kMaxGroup];
      if (!index.opp_colex_.empty()) opp_colex_row_ = &index.opp_colex_[index.ternary_[ms_]];
    }
    // RankParts(mover, mover_off, opp, opp_off).
    uint64_t Rank(Parts opp) const {
      const int y = std::popcount(opp.shared);
      const uint64_t ao = index_.subsets_upto_[no_ - y];
      const uint32_t low = opp_colex_row_ != nullptr ? opp_colex_row_[2 * index_.ternary_[opp.shared]]
                                                     : index_.colex_[CompressShared(ms_, opp.shared)];
      const uint64_t pattern = static_cast<uint64_t>(colex_ms_) * index_.Choose(free_slots_, y) + low;
      return base_ + groups_[y] + (pattern * am_ + mover_priv_rank_) * ao + index_.subset_rank_[opp.priv];
    }

   private:
    const StateIndex& index_;
    uint32_t ms_;
    int no_ = 0, free_slots_ = 0;
    uint32_t colex_ms_ = 0;
    uint64_t am_ = 0, mover_priv_rank_ = 0, base_ = 0;
    const uint64_t* groups_ = nullptr;
    const uint16_t* opp_colex_row_ = nullptr;  // opp_colex_ from ms_'s entry, when there is one
  };

  // The opponent's shared slots `os` compressed into the slots the mover's
  // `ms` leaves free (the bits of os not in ms, packed down: a parallel bit
  // extract), bit by bit.
  static uint32_t CompressShared(uint32_t ms, uint32_t os) {
    uint32_t compressed = 0;
    for (uint32_t b = os; b; b &= b - 1) {
      const int j = std::countr_zero(b);
      compressed |= 1u << (j - std::popcount(ms & ((1u << j) - 1)));
    }
    return compressed;
  }
  // Whether OpponentColex comes from a table (at most kTableSharedBits
  // shared squares: every preset the index ranks; 3^12 entries, 1 MiB).
  static constexpr int kTableSharedBits = 12;
  bool has_opp_colex_table() const { return !opp_colex_.empty(); }

  // The position of a rank: the mover is light and to move.
  Position Unrank(uint64_t rank) const;

  // Calls f(rank, mover_occ, opponent_occ) for every position of layer
  // (mover_off, opponent_off), in rank order.
  template <typename F>
  void ForEachInLayer(int mover_off, int opp_off, F&& f) const;

  // Fills `pos` (mover light, to move) from occupancies and borne-off counts.
  void FillPosition(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off, Position* pos) const;

 private:
  static constexpr int kMaxGroup = 16;  // pieces 0..15 on shared squares
  using ByteMap = uint32_t[4][256];
  static uint32_t Map(const ByteMap& m, uint32_t occ) {
    return m[0][occ & 0xff] | m[1][(occ >> 8) & 0xff] | m[2][(occ >> 16) & 0xff] | m[3][occ >> 24];
  }
  uint64_t Choose(int n, int k) const { return choose_[n][k]; }

  // The colex rank of the opponent's shared slots `os` compressed into the
  // slots the mover's `ms` leaves free: for up to kTableSharedBits shared
  // squares one load from a table of every disjoint pair, indexed in base 3
  // (digit 1: the mover's slot, 2: the opponent's), else compressed bit by
  // bit.
  uint32_t OpponentColex(uint32_t ms, uint32_t os) const {
    if (!opp_colex_.empty()) return opp_colex_[ternary_[ms] + 2 * ternary_[os]];
    return colex_[CompressShared(ms, os)];
  }

  StateIndex() = default;

  // The steps of Create: the rules it can rank, the slot each path index
  // takes, the maps between index bits and slot bits, the ranks of shared
  // masks and of private subsets, and where each layer and group begins.
  struct Slots;
  static absl::Status CheckIndexable(const Rules& rules);
  static Slots AssignSlots(const Rules& rules);
  void MapSlots(const Rules& rules, const Slots& slots);
  void RankSharedMasks();
  void RankPrivateSubsets(int pieces);
  void PlaceLayers(int pieces);

  int pieces_ = 0;
  int off_ = 0;
  int shared_ = 0;   // s
  int private_ = 0;  // private squares per side
  uint64_t size_ = 0;
  uint64_t choose_[33][33] = {};
  // Index bits -> compressed bits, per byte of the occupancy.
  ByteMap mover_shared_ = {}, mover_private_ = {}, opp_shared_ = {}, opp_private_ = {};
  Parts mover_bits_[kIndexSlots] = {}, opp_bits_[kIndexSlots] = {};
  // Compressed bits -> index bits.
  std::vector<uint32_t> mover_shared_expand_, opp_shared_expand_, private_expand_mover_, private_expand_opp_;
  std::vector<uint32_t> colex_;        // rank of a mask among masks of its popcount (2^s)
  std::vector<uint32_t> ternary_;      // mask -> its bits as base-3 digits (s <= kTableSharedBits only)
  std::vector<uint16_t> opp_colex_;    // [ternary_[ms] + 2 ternary_[os]]: colex_[CompressShared(ms, os)]
  std::vector<uint32_t> subset_rank_;  // by size, then colex (2^private)
  std::vector<uint64_t> subsets_upto_; // A(k): subsets of private squares with <= k elements
  std::vector<std::vector<uint32_t>> masks_by_size_shared_;  // k -> masks of s bits, ascending
  std::vector<uint32_t> private_by_rank_;                    // subset rank -> mask
  std::vector<uint64_t> layer_begin_;   // pieces^2 + 1
  std::vector<uint64_t> group_begin_;   // per layer, x, y: offset in the layer
};

template <typename F>
void StateIndex::ForEachInLayer(int mover_off, int opp_off, F&& f) const {
  const int nm = pieces_ - mover_off, no = pieces_ - opp_off;
  uint64_t rank = LayerBegin(mover_off, opp_off);
  for (int x = 0; x <= std::min(shared_, nm); ++x) {
    for (int y = 0; y <= std::min(shared_ - x, no); ++y) {
      const uint64_t am = subsets_upto_[nm - x], ao = subsets_upto_[no - y];
      for (uint32_t ms : masks_by_size_shared_[x]) {
        const uint32_t free = ~ms & ((1u << shared_) - 1);
        const uint32_t mover_shared = mover_shared_expand_[ms];
        for (uint32_t oc : masks_by_size_shared_[y]) {
          if (oc >> (shared_ - x)) break;  // masks ascend: the rest are wider
          // Deposit the compressed slots into the free ones.
          uint32_t os = 0, freebits = free;
          for (int j = 0; freebits; ++j, freebits &= freebits - 1) {
            if ((oc >> j) & 1u) os |= freebits & (~freebits + 1);
          }
          const uint32_t opp_shared = opp_shared_expand_[os];
          for (uint64_t i = 0; i < am; ++i) {
            const uint32_t mover_occ = mover_shared | private_expand_mover_[private_by_rank_[i]];
            for (uint64_t k = 0; k < ao; ++k) {
              f(rank++, mover_occ, opp_shared | private_expand_opp_[private_by_rank_[k]]);
            }
          }
        }
      }
    }
  }
}

}  // namespace scribe

#endif  // SCRIBE_ENGINE_STATE_INDEX_H_
