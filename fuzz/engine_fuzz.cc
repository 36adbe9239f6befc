// Fuzzes the rules engine (engine/position.h) through whole games.
//
// The bytes choose a ruleset: a preset, optionally with overrides that keep
// it playable (pieces, capture_extra_roll, safe_shared, stacking, a subset
// of safe squares closed over the tiles both paths share, extra-roll
// squares, other dice with entry throws and the bear-off throw to match,
// auto-placement, phases, the stack bear-off), and who moves first. Then
// every throw (one of the dice's outcomes) and every choice among the legal
// moves, while bytes last; after that the game goes on with throws and
// choices from a generator seeded by the input, so that games finish.
//
// After every step (engine_checks.h): the legal moves are sorted and
// unique, each bears off only by the exact count or the stack rule, and
// the list equals the rules as documented; the move keeps every piece,
// leaves CheckPosition clean, captures nothing on a safe square and agrees
// with the rules as documented; a pass passes the turn; and a finished game
// has the winner's pieces all off, the loser's not, and no move left.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/rules.h"
#include "engine/ruleset.h"
#include "fuzz/engine_checks.h"
#include "fuzz/fuzz_util.h"

namespace scribe::fuzz {
namespace {

// Throws in one game, at most (a random game of any preset ends far sooner).
constexpr int kMaxSteps = 20000;

std::string IndexList(uint32_t mask) {
  std::vector<int> items;
  for (int i = 1; i < 32; ++i) {
    if ((mask >> i) & 1u) items.push_back(i);
  }
  return absl::StrCat("[", absl::StrJoin(items, ","), "]");
}

// Adds to `mask` every index of either path on a tile (and phase) that an
// index in it reaches, so that a tile is safe from every index or none.
uint32_t CloseOverSquares(const Rules& base, uint32_t mask) {
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 1; i <= base.path_length; ++i) {
      if (!((mask >> i) & 1u)) continue;
      for (int s = 0; s < 2; ++s) {
        const uint32_t more = (base.own_overlap[s][i] | base.opp_overlap[s][i]) & ~mask;
        if (more) {
          mask |= more;
          changed = true;
        }
      }
    }
  }
  return mask;
}

// A ruleset reference from the bytes: a preset and overrides that should
// keep it playable.
std::string ChooseReference(FuzzedDataProvider* in) {
  const std::vector<std::string>& presets = PresetNames();
  const std::string& preset = presets[in->ConsumeIntegralInRange<size_t>(0, presets.size() - 1)];
  const uint16_t flags = in->ConsumeIntegral<uint16_t>();
  if (flags == 0) return preset;
  const std::shared_ptr<const Rules> base = MustLoad(preset);
  const int length = base->path_length;
  const uint32_t board = base->board_mask;
  std::vector<std::string> overrides;
  if (flags & 1) overrides.push_back(absl::StrCat("pieces=", in->ConsumeIntegralInRange(1, 15)));
  if (flags & 2) overrides.push_back(absl::StrCat("capture_extra_roll=", in->ConsumeBool()));
  if (flags & 4) overrides.push_back(absl::StrCat("safe_shared=", in->ConsumeBool()));
  if (flags & 8) overrides.push_back(absl::StrCat("stacking=", in->ConsumeBool()));
  const bool phases = flags & 0x200;
  if (flags & 16) {
    uint32_t safe = in->ConsumeIntegral<uint32_t>() & board;
    // With new phases the base's squares are not the new ones: the subset
    // is taken as it is (and may be refused).
    if (!phases) safe = CloseOverSquares(*base, safe);
    overrides.push_back(absl::StrCat("safe_squares=", IndexList(safe)));
  }
  if (flags & 32) {
    overrides.push_back(
        absl::StrCat("extra_roll_squares=", IndexList(in->ConsumeIntegral<uint32_t>() & board)));
  }
  // The dice: 1 to 5 binary dice, throws 0 to 6 (every preset's path is
  // longer than 6); at least one throw is not 0.
  uint32_t rolls = base->possible_rolls;
  if (flags & 64) {
    const int count = in->ConsumeIntegralInRange(1, 5);
    std::vector<int> marks;
    rolls = 0;
    for (int k = 0; k <= count; ++k) {
      marks.push_back(in->ConsumeIntegralInRange(0, 6));
      rolls |= 1u << marks.back();
    }
    if ((rolls & ~1u) == 0) {
      marks.back() = 1 + count % 6;
      rolls |= 1u << marks.back();
    }
    overrides.push_back(absl::StrCat("dice.count=", count));
    overrides.push_back(absl::StrCat("dice.roll_for_marks=[", absl::StrJoin(marks, ","), "]"));
  }
  const uint32_t moving = rolls & ~1u;
  // Entry throws: a subset of the non-zero throws ([] = all of them).
  if ((flags & 128) || ((flags & 64) && base->ruleset.entry_rolls_size() > 0)) {
    const uint32_t entry = (flags & 128) ? in->ConsumeIntegral<uint16_t>() & moving : 0;
    overrides.push_back(absl::StrCat("entry_rolls=", IndexList(entry)));
  }
  if (flags & 256) {
    overrides.push_back(
        absl::StrCat("auto_place_squares=", IndexList(in->ConsumeIntegral<uint32_t>() & board)));
    overrides.push_back(absl::StrCat("auto_place_to=", in->ConsumeIntegralInRange(1, length)));
  }
  if (phases) {
    overrides.push_back(
        absl::StrCat("phase_starts=", IndexList(in->ConsumeIntegral<uint32_t>() & board & ~2u)));
  }
  // The bear-off: either rule; the stack rule with a throw the dice give.
  const bool stack = (flags & 0x400) ? in->ConsumeBool() : base->bear_off_stack;
  if ((flags & 0x400) || ((flags & 64) && stack)) {
    if (stack) {
      std::vector<int> choices;
      for (int r = 1; r <= kMaxRoll; ++r) {
        if ((moving >> r) & 1u) choices.push_back(r);
      }
      const int roll = choices[in->ConsumeIntegralInRange<size_t>(0, choices.size() - 1)];
      overrides.push_back("bear_off=BEAR_OFF_STACK_FROM_LAST");
      overrides.push_back(absl::StrCat("bear_off_roll=", roll));
    } else {
      overrides.push_back("bear_off=BEAR_OFF_EXACT");
      overrides.push_back("bear_off_roll=0");
    }
  }
  if (overrides.empty()) return preset;
  return absl::StrCat(preset, "(", absl::StrJoin(overrides, ", "), ")");
}

}  // namespace
}  // namespace scribe::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  scribe::fuzz::SilenceProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace scribe;
  using namespace scribe::fuzz;
  if (size > kMaxInput) return kRejectInput;
  FuzzedDataProvider in(data, size);
  const std::string reference = ChooseReference(&in);
  const auto loaded = LoadRuleset(reference);
  // Overrides over phases may contradict the safe squares: not the
  // engine's business.
  if (!loaded.ok()) return kRejectInput;
  const Rules& rules = **loaded;
  const PlainRules plain(rules.ruleset);
  CheckDiceTables(rules, plain);

  Position pos = StartPosition(rules, in.ConsumeBool() ? kDark : kLight);
  FUZZ_CHECK(CheckPosition(rules, pos).empty(), "the start fails CheckPosition under ", reference);
  Rng rng(
      std::hash<std::string_view>()(std::string_view(reinterpret_cast<const char*>(data), size)));
  for (int step = 0; step < kMaxSteps && !IsOver(rules, pos); ++step) {
    const bool from_bytes = in.remaining_bytes() > 0;
    const int roll =
        from_bytes
            ? rules.outcomes[in.ConsumeIntegralInRange<size_t>(0, rules.outcomes.size() - 1)].roll
            : rng.Throw(rules);
    FUZZ_CHECK(rules.CanRoll(roll), "the dice gave ", roll, " under ", reference);
    const MoveList moves = CheckedLegalMoves(rules, plain, pos, roll);
    if (moves.empty()) {
      const Side mover = pos.to_move;
      PassTurn(&pos);
      FUZZ_CHECK(pos.to_move == Other(mover), "a pass did not pass the turn");
      continue;
    }
    const int n = moves.size();
    const int choice =
        in.remaining_bytes() > 0 ? in.ConsumeIntegralInRange(0, n - 1) : rng.Below(n);
    CheckedApply(rules, plain, &pos, moves[choice], roll);
  }
  if (IsOver(rules, pos)) CheckFinished(rules, pos);
  return 0;
}
