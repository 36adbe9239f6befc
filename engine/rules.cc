#include "engine/rules.h"

#include <algorithm>
#include <bit>
#include <map>
#include <utility>

namespace scribe {
namespace {

uint32_t IndexMask(const google::protobuf::RepeatedField<int32_t>& indices) {
  uint32_t mask = 0;
  for (int i : indices) mask |= 1u << i;
  return mask;
}

}  // namespace

Rules::Rules(const v1::Ruleset& resolved, std::string digest_in)
    : ruleset(resolved), digest(std::move(digest_in)) {
  path_length = resolved.path_size();
  off = path_length + 1;
  pieces = resolved.pieces();

  dice_count = resolved.dice().count();
  std::map<int, int> weights;
  for (int k = 0; k <= dice_count; ++k) {
    roll_for_marks[k] = resolved.dice().roll_for_marks(k);
    // C(n, k) ways for k marks out of n dice.
    int ways = 1;
    for (int j = 0; j < k; ++j) ways = ways * (dice_count - j) / (j + 1);
    weights[roll_for_marks[k]] += ways;
  }
  for (uint32_t bits = 0; bits < (1u << dice_count); ++bits) {
    roll_for_bits[bits] = static_cast<uint8_t>(roll_for_marks[std::popcount(bits)]);
  }
  for (const auto& [roll, weight] : weights) {
    outcomes.push_back({roll, weight});
    possible_rolls |= 1u << roll;
    max_roll = std::max(max_roll, roll);
  }

  for (int i = 1; i <= path_length; ++i) board_mask |= 1u << i;
  safe_mask = IndexMask(resolved.safe_squares());
  extra_mask = IndexMask(resolved.extra_roll_squares());
  auto_place_mask = IndexMask(resolved.auto_place_squares());
  auto_place_to = resolved.auto_place_to();
  if (resolved.entry_rolls_size() == 0) {
    entry_roll_mask = possible_rolls & ~1u;
  } else {
    entry_roll_mask = IndexMask(resolved.entry_rolls());
  }
  stacking = resolved.stacking();
  safe_shared = resolved.safe_shared();
  capture_extra_roll = resolved.capture_extra_roll();
  bear_off_stack = resolved.bear_off() == v1::BEAR_OFF_STACK_FROM_LAST;
  bear_off_roll = resolved.bear_off_roll();
  opening = resolved.opening();

  const int num_phases = resolved.phase_starts_size() + 1;
  for (int i = 1; i <= path_length; ++i) {
    int p = 0;
    for (int start : resolved.phase_starts()) p += (i >= start) ? 1 : 0;
    phase[i] = p;
  }
  for (int i = 1; i <= path_length; ++i) {
    tile[kLight][i] = *ParseTileName(resolved.path(i - 1));
    tile[kDark][i] = *ParseTileName(resolved.dark_path(i - 1));
    for (int s = 0; s < 2; ++s) square[s][i] = tile[s][i] * num_phases + phase[i];
  }
  for (int s = 0; s < 2; ++s) {
    const int o = 1 - s;
    for (int d = 1; d <= path_length; ++d) {
      for (int j = 1; j <= path_length; ++j) {
        if (square[o][j] == square[s][d]) opp_overlap[s][d] |= 1u << j;
        if (square[s][j] == square[s][d]) {
          own_overlap[s][d] |= 1u << j;
          if (j != d) revisits = true;
        }
      }
    }
  }
  opp_is_identity = true;
  for (int s = 0; s < 2; ++s) {
    for (int j = 1; j <= path_length; ++j) {
      const uint32_t m = opp_overlap[1 - s][j];  // s's indices on opponent index j's square
      if (m == (1u << j)) opp_identity[s] |= m;
      else if (m != 0) opp_is_identity = false;
    }
  }
  for (int s = 0; s < 2; ++s) {
    for (int d = 1; d <= path_length; ++d) capture_overlap[s][d] = IsSafe(d) ? 0u : opp_overlap[s][d];
    safe_blockers[s] = safe_shared ? 0u : (opp_identity[s] & safe_mask);
  }
  move_mask = bear_off_stack ? board_mask : (board_mask | (1u << off));
  plain = !stacking && !revisits && !bear_off_stack && auto_place_mask == 0 && opp_is_identity;
  // Second pass: the maps need both sides' overlaps.
  for (int s = 0; s < 2; ++s) {
    const int o = 1 - s;
    for (int k = 0; k < 4; ++k) {
      for (int b = 0; b < 256; ++b) {
        uint32_t opp_map = 0, own_map = 0;
        for (int bit = 0; bit < 8; ++bit) {
          if (!((b >> bit) & 1)) continue;
          const int j = 8 * k + bit;
          if (j < 1 || j > path_length) continue;
          opp_map |= opp_overlap[o][j];  // s's indices on opponent index j's square
          own_map |= own_overlap[s][j];
        }
        opp_to_mine[s][k][b] = opp_map;
        own_to_mine[s][k][b] = own_map;
      }
    }
  }
}

}  // namespace scribe
