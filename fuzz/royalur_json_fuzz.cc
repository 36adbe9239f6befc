// Fuzzes the RoyalUr JSON reader (records/royalur_json.h) through
// records/formats.h.
//
// Properties, for any input of at most 64 KiB (round_trip.h):
//  - ReadRecords never crashes or throws and its account is consistent;
//  - every record it reads that the referee judges legal writes with
//    WriteRecords, reads back to the same record (MessageDifferencer)
//    without a finding, and the written JSON is a fixed point that
//    validates; the legal records written together read back the same.
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "fuzz/fuzz_util.h"
#include "fuzz/round_trip.h"
#include "records/formats.h"
#include "records/parsed.h"
#include "scribe/v1/record.pb.h"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  scribe::fuzz::SilenceProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace scribe;
  using namespace scribe::fuzz;
  if (size > kMaxInput) return kRejectInput;
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  const RulesPolicy io;
  const ParsedRecords parsed = ReadRecords(Format::kRoyalUrJson, text, io);
  CheckReaderAccount(parsed);
  CheckRoundTrips(Format::kRoyalUrJson, io, parsed, text, [](const v1::Finding&) { return false; });
  return 0;
}
