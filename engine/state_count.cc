#include "engine/state_count.h"

#include <algorithm>
#include <map>

#include "absl/status/status.h"

namespace scribe {
namespace {

// A polynomial in x (the mover's pieces) and y (the opponent's), both
// truncated at the number of pieces.
class Poly {
 public:
  explicit Poly(int n) : n_(n), c_((n + 1) * (n + 1), 0) {}
  uint64_t& at(int x, int y) { return c_[x * (n_ + 1) + y]; }
  uint64_t at(int x, int y) const { return c_[x * (n_ + 1) + y]; }
  // this * other, false on overflow.
  bool Multiply(const Poly& other) {
    Poly r(n_);
    for (int a = 0; a <= n_; ++a) {
      for (int b = 0; b <= n_; ++b) {
        if (at(a, b) == 0) continue;
        for (int c = 0; a + c <= n_; ++c) {
          for (int d = 0; b + d <= n_; ++d) {
            uint64_t term;
            if (__builtin_mul_overflow(at(a, b), other.at(c, d), &term) ||
                __builtin_add_overflow(r.at(a + c, b + d), term, &r.at(a + c, b + d))) {
              return false;
            }
          }
        }
      }
    }
    *this = std::move(r);
    return true;
  }

 private:
  int n_;
  std::vector<uint64_t> c_;
};

// The ways to put k identical pieces on `indices` path indices: one at most
// without stacking, C(k + indices - 1, k) with it.
uint64_t Ways(int k, int indices, bool stacking) {
  if (k == 0) return 1;
  if (indices == 0) return 0;
  if (!stacking) return k == 1 ? indices : 0;
  uint64_t w = 1;  // C(k + indices - 1, k), exactly, step by step
  for (int i = 1; i <= k; ++i) w = w * (indices - 1 + i) / i;
  return w;
}

}  // namespace

absl::StatusOr<PositionCount> CountPositions(const Rules& rules) {
  const int n = rules.pieces;
  const auto overflow = [] { return absl::OutOfRangeError("more than 2^64 positions"); };
  // Each square: how many of each side's path indices are on it, and
  // whether both colours may stand on it together.
  struct Square {
    int indices[2] = {0, 0};
    bool shared_ok = false;
  };
  std::map<int, Square> squares;
  for (int s = 0; s < 2; ++s) {
    for (int i = 1; i <= rules.path_length; ++i) {
      Square& q = squares[rules.square[s][i]];
      ++q.indices[s];
      if (rules.safe_shared && rules.IsSafe(i)) q.shared_ok = true;
    }
  }
  Poly board(n);
  board.at(0, 0) = 1;
  for (const auto& [id, q] : squares) {
    Poly f(n);
    for (int x = 0; x <= n; ++x) {
      for (int y = 0; y <= n; ++y) {
        if (x > 0 && y > 0 && !q.shared_ok) continue;
        uint64_t w;
        if (__builtin_mul_overflow(Ways(x, q.indices[kLight], rules.stacking),
                                   Ways(y, q.indices[kDark], rules.stacking), &w)) {
          return overflow();
        }
        f.at(x, y) = w;
      }
    }
    if (!board.Multiply(f)) return overflow();
  }
  // Layer (a, b): x of the mover's pieces on the board and n - a - x
  // waiting, likewise y for the opponent.
  PositionCount count;
  count.layers.assign(static_cast<size_t>(n) * n, 0);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      uint64_t& layer = count.layers[a * n + b];
      for (int x = 0; x <= n - a; ++x) {
        for (int y = 0; y <= n - b; ++y) {
          if (__builtin_add_overflow(layer, board.at(x, y), &layer)) return overflow();
        }
      }
      if (__builtin_add_overflow(count.positions, layer, &count.positions)) return overflow();
    }
  }
  for (int a = 0; a < n; ++a) {
    for (int b = a; b < n; ++b) {
      const uint64_t pair = count.layers[a * n + b] + (a == b ? 0 : count.layers[b * n + a]);
      if (pair > count.pair_positions) {
        count.pair_positions = pair;
        count.pair_mover_off = a;
        count.pair_opponent_off = b;
      }
    }
  }
  return count;
}

}  // namespace scribe
