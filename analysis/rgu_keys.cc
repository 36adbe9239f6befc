#include "analysis/rgu_keys.h"

#include <algorithm>
#include <map>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/board.h"
#include "engine/state_index.h"

namespace scribe {
namespace {

// RoyalUr's board index of a tile: column (lane) + 3 * row (position - 1).
int BoardIndex(TileId t) { return TileLane(t) + 3 * (TilePosition(t) - 1); }

// RoyalUr's segment length for W war tiles: all of them up to 8, else the
// fewest segments of at most 8 tiles, split evenly.
int SegmentTiles(int war) {
  if (war <= 8) return war;
  int segments = 2, tiles = 0;
  do {
    tiles = (war + segments - 1) / segments;
    ++segments;
  } while (tiles > 8);
  return tiles;
}

uint64_t Choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  uint64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

}  // namespace

absl::StatusOr<RoyalUrKeys> RoyalUrKeys::Create(const Rules& rules) {
  const auto refuse = [](absl::string_view why) {
    return absl::FailedPreconditionError(absl::StrCat("RoyalUr's table keys cannot hold these rules: ", why));
  };
  if (rules.stacking) return refuse("pieces stack");
  if (rules.revisits) return refuse("a path visits a square twice");
  if (rules.pieces < 1 || rules.pieces > 7) return refuse("RoyalUr's keys hold 1 to 7 pieces a side");
  RoyalUrKeys k;
  k.pieces_ = rules.pieces;
  k.off_ = rules.off;
  const int L = rules.path_length;
  // Board index -> the light and dark path indices on it (0: none).
  std::map<int, std::pair<int, int>> tiles;
  for (int d = 1; d <= L; ++d) {
    int& light = tiles[BoardIndex(rules.tile[kLight][d])].first;
    if (light != 0) return refuse("light's path visits a tile twice");
    light = d;
  }
  for (int d = 1; d <= L; ++d) {
    int& dark = tiles[BoardIndex(rules.tile[kDark][d])].second;
    if (dark != 0) return refuse("dark's path visits a tile twice");
    dark = d;
  }
  for (const auto& [index, entry] : tiles) {
    const auto [light, dark] = entry;
    if (light != 0 && dark != 0) {
      k.light_[light] = {false, static_cast<int>(k.war_light_index_.size())};
      k.dark_[dark] = {false, static_cast<int>(k.war_light_index_.size())};
      k.war_light_index_.push_back(light);
      k.war_dark_index_.push_back(dark);
    } else if (light != 0) {
      k.light_[light] = {true, static_cast<int>(k.light_safe_index_.size())};
      k.light_safe_index_.push_back(light);
    } else if (dark != 0) {
      k.dark_[dark] = {true, static_cast<int>(k.dark_safe_index_.size())};
      k.dark_safe_index_.push_back(dark);
    }
  }
  if (k.light_safe_index_.size() != k.dark_safe_index_.size()) {
    return refuse("the sides have different numbers of tiles of their own");
  }
  k.safe_ = static_cast<int>(k.light_safe_index_.size());
  k.war_ = static_cast<int>(k.war_light_index_.size());
  k.seg_tiles_ = SegmentTiles(k.war_);
  k.segments_ = k.war_ == 0 ? 1 : (k.war_ + k.seg_tiles_ - 1) / k.seg_tiles_;

  // Number a segment's patterns: digits 0 empty, 1 dark, 2 light, first tile
  // most significant, in lexicographic order, at most `pieces` of a colour.
  const int T = k.seg_tiles_, n = k.pieces_;
  k.compress_.assign(size_t{1} << (2 * T), -1);
  std::vector<uint8_t> digit(T, 0);
  uint64_t total = 1;
  for (int i = 0; i < T; ++i) total *= 3;
  for (uint64_t c = 0; c < total; ++c) {
    uint64_t rest = c;
    uint32_t digits = 0;
    int light = 0, dark = 0;
    for (int i = T - 1; i >= 0; --i) {  // c's base-3 digits, most significant first
      digit[i] = static_cast<uint8_t>(rest % 3);
      rest /= 3;
    }
    for (int i = 0; i < T; ++i) {
      digits = (digits << 2) | digit[i];
      light += digit[i] == 2;
      dark += digit[i] == 1;
    }
    if (light > n || dark > n) continue;
    k.compress_[digits] = static_cast<int32_t>(k.states_.size());
    k.states_.push_back({digits, light, dark});
  }
  // RoyalUr's width: the least b >= 1 with largest number <= 2^b. When the
  // largest number is exactly 2^b, it overflows into the next field and two
  // positions share a key.
  const uint64_t largest = k.states_.size() - 1;
  k.seg_bits_ = 1;
  while (largest > (uint64_t{1} << k.seg_bits_)) ++k.seg_bits_;
  if (largest >= (uint64_t{1} << k.seg_bits_)) {
    return refuse(absl::StrCat("a war segment's largest number, ", largest,
                               ", does not fit the bits RoyalUr gives it (two positions would share a key)"));
  }
  k.board_bits_ = 2 * k.safe_ + k.segments_ * k.seg_bits_;
  if (k.board_bits_ + 6 > 38) return refuse("keys longer than RoyalUr's 64 maps of 32-bit keys");

  // Scribe's positions plus those light has won (no light piece left, dark
  // not finished: k dark pieces on its L squares and w waiting, k + w >= 1).
  uint64_t won = 0;
  for (int on = 0; on <= std::min(n, L); ++on) won += Choose(L, on) * static_cast<uint64_t>(n - on + 1);
  k.won_ = won - 1;
  // The same count as ForEach gives (tests/analysis/rgu_test.cc), without
  // enumerating: RoyalUr's positions are Scribe's and the won ones.
  auto index = StateIndex::Create(rules);
  if (!index.ok()) return refuse(index.status().message());
  k.count_ = (*index)->size() + k.won_;
  // The largest key: every piece of both sides waiting.
  k.largest_key_ = (static_cast<uint64_t>(n) << (k.board_bits_ + 3)) | (static_cast<uint64_t>(n) << k.board_bits_);
  return k;
}

uint32_t RoyalUrKeys::SegmentsValue(const uint8_t* war) const {
  uint32_t value = 0;
  int tile = 0;
  for (int s = 0; s < segments_; ++s) {
    uint32_t digits = 0;
    const int kt = std::min(seg_tiles_, war_ - s * seg_tiles_);
    for (int j = 0; j < kt; ++j, ++tile) digits = (digits << 2) | war[tile];
    value = (value << seg_bits_) | static_cast<uint32_t>(compress_[digits]);
  }
  return value;
}

uint64_t RoyalUrKeys::Key(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off) const {
  uint8_t war[64] = {};
  uint64_t ls = 0, ds = 0;
  for (uint32_t b = mover_occ; b; b &= b - 1) {
    const Slot& s = light_[std::countr_zero(b)];
    if (s.safe) ls |= uint64_t{1} << s.at;
    else war[s.at] = 2;
  }
  for (uint32_t b = opp_occ; b; b &= b - 1) {
    const Slot& s = dark_[std::countr_zero(b)];
    if (s.safe) ds |= uint64_t{1} << s.at;
    else war[s.at] = 1;
  }
  const uint64_t lp = static_cast<uint64_t>(pieces_ - mover_off - std::popcount(mover_occ));
  const uint64_t dp = static_cast<uint64_t>(pieces_ - opp_off - std::popcount(opp_occ));
  return ds | (static_cast<uint64_t>(SegmentsValue(war)) << safe_) |
         (ls << (safe_ + segments_ * seg_bits_)) | (dp << board_bits_) | (lp << (board_bits_ + 3));
}

bool RoyalUrKeys::Valid(uint64_t key) const {
  if (key >> (board_bits_ + 6)) return false;
  const uint64_t safe_mask = (uint64_t{1} << safe_) - 1;
  const int ds = std::popcount(key & safe_mask);
  uint64_t war_value = (key >> safe_) & ((uint64_t{1} << (segments_ * seg_bits_)) - 1);
  const int ls = std::popcount((key >> (safe_ + segments_ * seg_bits_)) & safe_mask);
  const int dp = static_cast<int>((key >> board_bits_) & 7), lp = static_cast<int>((key >> (board_bits_ + 3)) & 7);
  int wl = 0, wd = 0;
  for (int s = segments_ - 1; s >= 0; --s) {
    const uint64_t number = war_value & ((uint64_t{1} << seg_bits_) - 1);
    war_value >>= seg_bits_;
    if (number >= states_.size()) return false;
    const SegmentState& st = states_[number];
    const int kt = std::min(seg_tiles_, war_ - s * seg_tiles_);
    if (kt < seg_tiles_ && (st.digits >> (2 * kt)) != 0) return false;
    wl += st.light;
    wd += st.dark;
  }
  if (lp + ls + wl > pieces_ || dp + ds + wd > pieces_) return false;
  return dp + ds + wd > 0;  // dark not finished
}

std::string RoyalUrKeys::Describe() const {
  return absl::StrFormat("%d safe tiles a side, %d war tiles in %d segment%s of %d bits, %d-bit keys", safe_, war_,
                         segments_, segments_ == 1 ? "" : "s", seg_bits_, key_bits());
}

}  // namespace scribe
