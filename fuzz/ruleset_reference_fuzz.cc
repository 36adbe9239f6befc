// Fuzzes ruleset references (engine/ruleset.h, LoadRuleset): a preset id
// or alias with optional overrides, e.g. "finkel(pieces=5, safe_squares=[4])".
//
// Properties, for any input of at most 64 KiB (ruleset_check.h):
//  - LoadRuleset never crashes;
//  - an accepted ruleset passes CheckRuleset, carries its own digest, and
//    RulesetToText of it reads back (as a ruleset text) to the same digest
//    (a fixed-point text);
//  - a refused one lists at least one problem.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/ruleset.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/ruleset_check.h"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  scribe::fuzz::SilenceProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace scribe;
  using namespace scribe::fuzz;
  if (size > kMaxInput) return kRejectInput;
  const absl::string_view reference(reinterpret_cast<const char*>(data), size);
  std::vector<FieldProblem> problems;
  const auto loaded = LoadRuleset(reference, &problems);
  CheckLoadedRuleset(loaded, problems, reference);
  return 0;
}
