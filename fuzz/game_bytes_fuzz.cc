// Fuzzes the game database's byte formats (games/game_codec.h, postings.h):
// what a database file altered by hand or damaged on disk hands the
// decoders.
//
// The first byte picks the decoder and the preset, the rest is its input.
// Properties, for any input of at most 64 KiB:
//  - ReplayIdentity, DecodeGame and DecodePostings never crash: they accept
//    or refuse with DATA_LOSS;
//  - an accepted identity replays to positions that conserve each side's
//    pieces, and the record DecodeGame makes of it (with an extra that
//    says its start, as import writes) is a legal game whose identity,
//    encoded again, replays to the same positions;
//  - accepted postings sorted and without a (key, game) twice encode and
//    decode back to themselves.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "games/game_codec.h"
#include "games/postings.h"
#include "games/varint.h"
#include "records/judged.h"
#include "records/position_string.h"

namespace scribe::fuzz {
namespace {

void CheckConserved(const Rules& rules, const std::vector<Position>& positions) {
  for (const Position& p : positions) {
    for (int side = 0; side < 2; ++side) {
      int total = 0;
      for (int i = 0; i <= rules.off; ++i) total += p.count[side][i];
      if (total != rules.pieces) Fail("pieces conserved", absl::StrCat("side ", side, " has ", total));
    }
  }
}

void FuzzIdentity(const Rules& rules, absl::string_view bytes) {
  auto replayed = games::ReplayIdentity(rules, bytes);
  if (!replayed.ok()) {
    if (replayed.status().code() != absl::StatusCode::kDataLoss) Fail("refused as DATA_LOSS", replayed.status().ToString());
    return;
  }
  CheckConserved(rules, replayed->positions);
  // An extra that agrees with the course: version, reference, no digest,
  // the first player (LIGHT 1 or DARK 2, written plus one), the start
  // written when it is not the rules' own, no comment, no column tags, no
  // tags, no comments.
  const Position& start = replayed->positions[0];
  const std::string written =
      start == StartPosition(rules, start.to_move) ? "" : PositionToString(rules, start);
  std::string extra;
  extra.push_back(1);
  games::PutString(&extra, rules.ruleset.id());
  extra.push_back(0);
  extra.push_back(static_cast<char>(start.to_move == kLight ? 2 : 3));
  games::PutString(&extra, written);
  extra.append("\0\0\0\0", 4);
  auto record = games::DecodeGame(rules, bytes, extra, games::TagColumns{});
  if (!record.ok()) Fail("an identity that replays decodes", record.status().ToString());
  RefereeOptions referee;
  referee.keep_positions = true;
  const JudgedRecord judged = Judge(*record, {}, referee);
  if (!judged.verdict.valid()) Fail("a replayed identity is a legal game", judged.verdict.findings[0].message());
  auto again = games::EncodeGame(judged);
  if (!again.ok()) Fail("a legal game encodes", again.status().ToString());
  auto replayed_again = games::ReplayIdentity(rules, again->identity);
  if (!replayed_again.ok() || replayed_again->positions != replayed->positions) {
    Fail("encoded again, the same positions", "");
  }
}

void FuzzPostings(absl::string_view bytes) {
  std::vector<games::Posting> postings;
  absl::Status s = games::DecodePostings(bytes, &postings);
  if (!s.ok()) {
    if (s.code() != absl::StatusCode::kDataLoss) Fail("refused as DATA_LOSS", s.ToString());
    return;
  }
  std::sort(postings.begin(), postings.end());
  postings.erase(std::unique(postings.begin(), postings.end(),
                             [](const games::Posting& a, const games::Posting& b) {
                               return a.key == b.key && a.game == b.game;
                             }),
                 postings.end());
  for (const games::Posting& p : postings) {
    if (p.game < 0) return;  // deltas that wrapped: not a block an import writes
  }
  const std::string block = games::EncodePostings(postings.data(), postings.data() + postings.size());
  std::vector<games::Posting> back;
  if (!games::DecodePostings(block, &back).ok() || back != postings) Fail("postings round trip", Shown(block));
}

}  // namespace
}  // namespace scribe::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace scribe::fuzz;
  if (size < 1 || size > kMaxInput) return kRejectInput;
  SilenceProtobufLogs();
  const absl::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const uint8_t pick = data[0];
  if (pick & 0x80) {
    FuzzPostings(bytes);
    return 0;
  }
  const std::vector<std::string>& presets = PresetNames();
  auto rules = MustLoad(presets[pick % presets.size()]);
  FuzzIdentity(*rules, bytes);
  return 0;
}
