// Fuzzes the position string reader (records/position_string.h).
//
// The first byte chooses the ruleset (every preset, and a few presets with
// overrides that allow what no preset does: stacking on a path without
// phases, shared safe squares, one piece); the rest is the string.
//
// Properties, for any input of at most 64 KiB:
//  - ParsePositionString never crashes; what it accepts is consistent
//    (CheckPosition == "");
//  - PositionToString of it reads back to the same position, and is a fixed
//    point (the same string written again);
//  - from an accepted position, every legal move for every throw of the
//    dice keeps the engine's invariants (engine_checks.h): the move lists
//    and the moves agree with the rules as documented.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "fuzz/engine_checks.h"
#include "fuzz/fuzz_util.h"
#include "records/position_string.h"

namespace scribe::fuzz {
namespace {

struct Choice {
  std::shared_ptr<const Rules> rules;
  std::unique_ptr<PlainRules> plain;
};

const std::vector<Choice>& Choices() {
  static const std::vector<Choice>* choices = [] {
    std::vector<std::string> references = PresetNames();
    references.push_back("finkel(stacking=true, pieces=15)");
    references.push_back("finkel(pieces=3, safe_shared=true, capture_extra_roll=true)");
    references.push_back("sawah(pieces=1, safe_squares=[])");
    references.push_back("murray(stacking=true, safe_shared=true)");
    references.push_back(
        "masters(auto_place_squares=[4, 8], auto_place_to=2, entry_rolls=[2, 4], "
        "bear_off=BEAR_OFF_STACK_FROM_LAST, bear_off_roll=1)");
    auto* out = new std::vector<Choice>;
    for (const std::string& reference : references) {
      std::shared_ptr<const Rules> rules = MustLoad(reference);
      auto plain = std::make_unique<PlainRules>(rules->ruleset);
      out->push_back({std::move(rules), std::move(plain)});
    }
    return out;
  }();
  return *choices;
}

}  // namespace
}  // namespace scribe::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  scribe::fuzz::SilenceProtobufLogs();
  scribe::fuzz::Choices();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace scribe;
  using namespace scribe::fuzz;
  if (size < 1 || size > kMaxInput) return kRejectInput;
  const std::vector<fuzz::Choice>& choices = Choices();
  const fuzz::Choice& chosen = choices[data[0] % choices.size()];
  const Rules& rules = *chosen.rules;
  const absl::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  const absl::StatusOr<Position> pos = ParsePositionString(rules, text);
  if (!pos.ok()) {
    FUZZ_CHECK(!pos.status().message().empty(), "a refusal without a reason");
    return 0;
  }
  const std::string problem = CheckPosition(rules, *pos);
  FUZZ_CHECK(problem.empty(), "an accepted position fails CheckPosition: ", problem,
             "\nruleset: ", rules.ruleset.id(), "\ninput: ", Shown(text));
  const std::string written = PositionToString(rules, *pos);
  const absl::StatusOr<Position> back = ParsePositionString(rules, written);
  FUZZ_CHECK(back.ok(), "PositionToString's \"", written,
             "\" does not read back: ", back.status().message(), "\nruleset: ", rules.ruleset.id(),
             "\ninput: ", Shown(text));
  FUZZ_CHECK(*back == *pos, "\"", written, "\" reads back to another position: \"",
             PositionToString(rules, *back), "\"\nruleset: ", rules.ruleset.id(),
             "\ninput: ", Shown(text));
  FUZZ_CHECK(PositionToString(rules, *back) == written, "PositionToString is not a fixed point");

  // Every throw, every legal move, from the accepted position.
  for (const RollOutcome& o : rules.outcomes) {
    const MoveList moves = CheckedLegalMoves(rules, *chosen.plain, *pos, o.roll);
    for (const Move& m : moves) {
      Position next = *pos;
      CheckedApply(rules, *chosen.plain, &next, m, o.roll);
    }
  }
  return 0;
}
