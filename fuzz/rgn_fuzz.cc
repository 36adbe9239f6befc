// Fuzzes the RGN reader (records/rgn.h) through records/formats.h.
//
// RGN names no ruleset: the first byte chooses the one the reader is told
// (RoyalUr's presets: finkel, masters, blitz, aseb; and a preset RGN cannot
// write, to exercise the refusals); the rest is the text.
//
// Properties, for any input of at most 64 KiB (round_trip.h):
//  - ReadRecords never crashes and its account is consistent;
//  - every record it reads that the referee judges legal writes with
//    WriteRecords, reads back to the same record (MessageDifferencer)
//    without a finding, and the written text is a fixed point that
//    validates; the legal records written together read back the same.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/round_trip.h"
#include "records/formats.h"
#include "records/parsed.h"
#include "scribe/v1/record.pb.h"

namespace scribe::fuzz {
namespace {

const std::vector<std::string>& RgnRulesets() {
  static const std::vector<std::string>* rulesets =
      new std::vector<std::string>{"finkel", "masters", "blitz", "aseb", "sawah-tablet", "murray"};
  return *rulesets;
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
  if (size < 1 || size > kMaxInput) return kRejectInput;
  RulesPolicy io;
  io.ruleset = RgnRulesets()[data[0] % RgnRulesets().size()];
  const absl::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const ParsedRecords parsed = ReadRecords(Format::kRgn, text, io);
  CheckReaderAccount(parsed);
  // Murray is not one of RoyalUr's presets: RGN cannot write it.
  if (io.ruleset == "murray") return 0;
  CheckRoundTrips(Format::kRgn, io, parsed, text,
                  [](const v1::Finding& f) { return f.code() == "result-mismatch"; });
  return 0;
}
