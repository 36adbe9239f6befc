// The keys of RoyalUr's solved tables (.rgu, analysis/rgu.h): the number
// RoyalUr-Java's SimpleGameStateEncoding gives a position with light to
// move, here computed from Scribe's rules and positions (docs/analysis.md,
// "RoyalUr's tables").
//
// RoyalUr names a board tile by its column x (lane A, B, C) and row y (the
// tile's position), and orders tiles row by row (index x + 3y). Tiles on
// light's path only are light's safe tiles, on dark's only dark's, on both
// the war tiles. A key, from its low bits up:
//   dark's safe tiles   one bit each, in tile order          S bits
//   the war tiles       in segments of T tiles (T = W when W <= 8, else
//                       the W tiles split evenly into segments of <= 8);
//                       a segment's occupants (empty, dark, light, first
//                       tile most significant) are numbered in that order
//                       among those with at most `pieces` of each colour;
//                       the first segment in the highest bits      B bits each
//   light's safe tiles  one bit each                         S bits
//   dark's waiting pieces                                    3 bits
//   light's waiting pieces                                   3 bits
// Keys cover every position with light to move and dark not finished: those
// Scribe's index ranks (engine/state_index.h) and those where light has
// borne off every piece (RoyalUr stores these at 100%).
#ifndef SCRIBE_ANALYSIS_RGU_KEYS_H_
#define SCRIBE_ANALYSIS_RGU_KEYS_H_

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/position.h"
#include "engine/rules.h"

namespace scribe {

class RoyalUrKeys {
 public:
  // The encoding for `rules`, or FAILED_PRECONDITION saying why RoyalUr's
  // encoding cannot hold their positions.
  static absl::StatusOr<RoyalUrKeys> Create(const Rules& rules);

  // The key of a position seen from its side to move, which plays as
  // RoyalUr's light: occupancies in path indices, borne-off counts.
  uint64_t Key(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off) const;
  uint64_t Key(const Position& pos) const {
    const Side me = pos.to_move;
    return Key(pos.occ[me], pos.count[me][off_], pos.occ[Other(me)], pos.count[Other(me)][off_]);
  }

  // Whether `key` is the key of a position (decodes to one).
  bool Valid(uint64_t key) const;

  // Calls f(key, mover_occ, mover_off, opp_occ, opp_off) for every key, in
  // ascending order; mover_off == pieces for the positions light has won.
  template <typename F>
  void ForEach(F&& f) const;

  // How many keys there are: Scribe's positions plus the won ones.
  uint64_t count() const { return count_; }
  uint64_t won_positions() const { return won_; }
  int key_bits() const { return board_bits_ + 6; }
  // RoyalUr's maps: one per value of a key's upper 32 bits, up to the
  // largest key's.
  int maps() const { return static_cast<int>(largest_key_ >> 32) + 1; }
  // "6 safe tiles a side, 8 war tiles in 1 segment of 10 bits, 25-bit keys"
  std::string Describe() const;

 private:
  RoyalUrKeys() = default;
  struct Slot {  // where a path index's piece goes in the key
    bool safe = false;
    int at = 0;  // bit of the safe field, or war tile number
  };
  struct SegmentState {
    uint32_t digits = 0;  // 2 bits a tile, first tile highest
    int light = 0, dark = 0;
  };
  uint32_t SegmentsValue(const uint8_t* war) const;

  int pieces_ = 0;
  int off_ = 0;
  int safe_ = 0;      // S
  int war_ = 0;       // W
  int seg_tiles_ = 0; // T
  int segments_ = 1;
  int seg_bits_ = 1;  // B
  int board_bits_ = 0;
  uint64_t count_ = 0, won_ = 0, largest_key_ = 0;
  Slot light_[kIndexSlots] = {}, dark_[kIndexSlots] = {};
  // The path index on each safe bit and war tile (0: none).
  std::vector<int> light_safe_index_, dark_safe_index_, war_light_index_, war_dark_index_;
  std::vector<int32_t> compress_;           // 4^T digit patterns -> number, -1 if none
  std::vector<SegmentState> states_;        // number -> pattern
};

template <typename F>
void RoyalUrKeys::ForEach(F&& f) const {
  const int n = pieces_, S = safe_, W = war_;
  const uint32_t safe_masks = 1u << S;
  const int war_bits = segments_ * seg_bits_;
  const int nstates = static_cast<int>(states_.size());
  std::vector<int> seg(segments_, 0);
  for (int lp = 0; lp <= n; ++lp) {
    for (int dp = 0; dp <= n; ++dp) {
      for (uint32_t ls = 0; ls < safe_masks; ++ls) {
        const int l_safe = std::popcount(ls);
        if (lp + l_safe > n) continue;
        std::fill(seg.begin(), seg.end(), 0);
        while (true) {
          // The war tiles of this combination of segment numbers.
          int wl = 0, wd = 0;
          uint32_t mover_war = 0, opp_war = 0;
          uint64_t war_value = 0;
          int tile = 0;
          bool valid = true;
          for (int s = 0; s < segments_; ++s) {
            const SegmentState& st = states_[seg[s]];
            wl += st.light;
            wd += st.dark;
            war_value = (war_value << seg_bits_) | static_cast<uint64_t>(seg[s]);
            const int k = std::min(seg_tiles_, W - s * seg_tiles_);
            // A short last segment: its patterns have k tiles, not T.
            if (k < seg_tiles_ && (st.digits >> (2 * k)) != 0) valid = false;
            for (int j = 0; j < k; ++j, ++tile) {
              const uint32_t d = (st.digits >> (2 * (k - 1 - j))) & 3u;
              if (d == 2) mover_war |= 1u << war_light_index_[tile];
              if (d == 1) opp_war |= 1u << war_dark_index_[tile];
            }
          }
          const bool fits = valid && lp + l_safe + wl <= n && dp + wd <= n;
          if (fits) {
            uint32_t mover_occ = mover_war;
            for (uint32_t b = ls; b; b &= b - 1) mover_occ |= 1u << light_safe_index_[std::countr_zero(b)];
            const int mover_off = n - lp - l_safe - wl;
            for (uint32_t ds = 0; ds < safe_masks; ++ds) {
              const int d_safe = std::popcount(ds);
              if (dp + wd + d_safe > n) continue;
              const int opp_off = n - dp - wd - d_safe;
              if (opp_off == n) continue;  // dark has won: no key
              uint32_t opp_occ = opp_war;
              for (uint32_t b = ds; b; b &= b - 1) opp_occ |= 1u << dark_safe_index_[std::countr_zero(b)];
              const uint64_t key = static_cast<uint64_t>(ds) | (war_value << S) |
                                   (static_cast<uint64_t>(ls) << (S + war_bits)) |
                                   (static_cast<uint64_t>(dp) << board_bits_) |
                                   (static_cast<uint64_t>(lp) << (board_bits_ + 3));
              f(key, mover_occ, mover_off, opp_occ, opp_off);
            }
          }
          // Next combination, the last segment fastest.
          int s = segments_ - 1;
          while (s >= 0 && ++seg[s] == nstates) seg[s--] = 0;
          if (s < 0) break;
        }
      }
    }
  }
}

}  // namespace scribe

#endif  // SCRIBE_ANALYSIS_RGU_KEYS_H_
