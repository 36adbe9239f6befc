// The game database's bytes (games/game_codec.h, postings.h) and keys
// (position_key.h), on random games of every preset: a stored game
// replays to the judged positions and writes back to the same records in
// every format; the same course is the same identity; damaged bytes are an
// error, never a crash; blocks of the index decode to what was encoded.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "games/game_codec.h"
#include "games/position_index.h"
#include "games/position_key.h"
#include "games/postings.h"
#include "games/varint.h"
#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "rapidcheck/gtest.h"
#include "records/formats.h"
#include "records/judged.h"
#include "records/position_string.h"
#include "records/random_game.h"
#include "tests/common/random_judged.h"
#include "tests/common/test_rules.h"

namespace scribe::games {
namespace {

std::vector<std::string> References() {
  std::vector<std::string> out;
  for (const PresetInfo& p : Presets()) out.push_back(p.id);
  out.push_back("finkel(pieces=5,capture_extra_roll=true)");
  return out;
}

JudgedRecord JudgedRandomGame(const std::string& ref, uint64_t seed, int max_actions = INT_MAX) {
  return RandomJudged(ref, seed, {}, max_actions);
}

class CodecTest : public ::testing::TestWithParam<std::string> {};

// Both forms of identity (a database keeps the one it was made with).
TEST_P(CodecTest, ReplaysToTheJudgedPositionsAndWritesTheSameRecords) {
  for (uint64_t n = 0; n < 40; ++n) {
    const uint64_t seed = n / 2 + 1;
    const int version = n % 2 == 0 ? kIdentityV2 : kIdentityV1;
    // Finished games, and games cut short (some records stop mid-game).
    const JudgedRecord judged = JudgedRandomGame(GetParam(), seed, seed % 4 == 0 ? 7 * static_cast<int>(seed) : INT_MAX);
    ASSERT_TRUE(judged.verdict.valid()) << GetParam() << " seed " << seed;
    std::vector<PlayedAction> actions;
    auto encoded = EncodeGame(judged, &actions, version);
    ASSERT_TRUE(encoded.ok()) << encoded.status();
    EXPECT_EQ(encoded->identity[0], version);
    const Rules& rules = *judged.verdict.rules;
    auto replayed = ReplayIdentity(rules, encoded->identity);
    ASSERT_TRUE(replayed.ok()) << replayed.status();
    EXPECT_EQ(replayed->positions, judged.verdict.positions) << GetParam() << " seed " << seed;
    // The actions EncodeGame hands the import are the ones the bytes replay.
    ASSERT_EQ(actions.size(), replayed->actions.size());
    for (size_t i = 0; i < actions.size(); ++i) {
      EXPECT_EQ(actions[i].roll, replayed->actions[i].roll);
      EXPECT_EQ(actions[i].moved, replayed->actions[i].moved);
      if (actions[i].moved) {
        EXPECT_EQ(actions[i].move, replayed->actions[i].move);
      }
    }
    EXPECT_EQ(replayed->winner, judged.verdict.winner);
    EXPECT_FALSE(replayed->partial);
    // Replayed up to a position: the positions up to the first ply it was
    // reached at and the action from it (when there is one), no further;
    // a position never reached: the whole game.
    const std::vector<Position>& all = replayed->positions;
    for (size_t ply : {size_t{0}, all.size() / 3, all.size() - 1}) {
      const size_t first = static_cast<size_t>(std::find(all.begin(), all.end(), all[ply]) - all.begin());
      auto part = ReplayIdentity(rules, encoded->identity, &all[ply]);
      ASSERT_TRUE(part.ok()) << part.status();
      const size_t kept = std::min(first + 2, all.size());
      EXPECT_EQ(part->positions, std::vector<Position>(all.begin(), all.begin() + kept)) << "ply " << ply;
      EXPECT_EQ(part->actions.size(), kept - 1);
      EXPECT_EQ(part->partial, kept < all.size());
    }
    Position elsewhere = all.back();
    elsewhere.to_move = Other(elsewhere.to_move);
    if (std::find(all.begin(), all.end(), elsewhere) == all.end()) {
      auto whole = ReplayIdentity(rules, encoded->identity, &elsewhere);
      ASSERT_TRUE(whole.ok());
      EXPECT_EQ(whole->positions, all);
      EXPECT_FALSE(whole->partial);
      EXPECT_EQ(whole->winner, judged.verdict.winner);
    }
    auto decoded = DecodeGame(rules, encoded->identity, encoded->extra, encoded->columns);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    for (Format f : {Format::kTsn, Format::kJson, Format::kRgn, Format::kRoyalUrJson}) {
      auto original = WriteRecords(f, std::vector<JudgedRecord>{judged});
      auto again = WriteRecords(f, std::vector<v1::GameRecord>{*decoded});
      ASSERT_EQ(original.ok(), again.ok()) << FormatName(f) << ": " << original.status() << " / " << again.status();
      if (original.ok()) {
        EXPECT_EQ(*again, *original) << FormatName(f) << " " << GetParam() << " seed " << seed;
      }
    }
  }
}

// A throw's legal moves have one `from` each, at every position of random
// games of every preset, for every throw: a record's move (from, to) is
// one of them, whose place the referee keeps for the encoder.
TEST_P(CodecTest, AThrowsLegalMovesHaveOneFromEach) {
  auto rules = MustLoad(GetParam());
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const JudgedRecord judged = JudgedRandomGame(GetParam(), seed);
    for (const Position& pos : judged.verdict.positions) {
      for (int roll = 0; roll <= kMaxRoll; ++roll) {
        MoveList legal;
        LegalMoves(*rules, pos, roll, &legal);
        for (int k = 1; k < legal.size(); ++k) ASSERT_LT(legal[k - 1].from, legal[k].from) << GetParam();
      }
    }
  }
}

TEST_P(CodecTest, TheSameCourseIsTheSameIdentityWhateverTheTags) {
  JudgedRecord a = JudgedRandomGame(GetParam(), 5);
  JudgedRecord b = a;
  (*b.record.mutable_tags())["Event"] = "elsewhere";
  b.record.mutable_actions(0)->set_comment("a comment");
  auto ea = EncodeGame(a), eb = EncodeGame(b);
  ASSERT_TRUE(ea.ok() && eb.ok());
  EXPECT_EQ(ea->identity, eb->identity);
  EXPECT_NE(ea->extra, eb->extra);
  // Another game is another identity.
  auto ec = EncodeGame(JudgedRandomGame(GetParam(), 6));
  ASSERT_TRUE(ec.ok());
  EXPECT_NE(ea->identity, ec->identity);
}

// A game from a set-up position (the start written out), and records
// without a digest: the bytes keep both as written.
TEST_P(CodecTest, SetUpPositionsAndMissingDigestsComeBackAsWritten) {
  const JudgedRecord full = JudgedRandomGame(GetParam(), 9);
  const int k = std::min(10, full.record.actions_size());
  v1::GameRecord record;
  record.set_ruleset(full.record.ruleset());
  record.set_start_position(PositionToString(*full.verdict.rules, full.verdict.positions[k]));
  // A PGN-style date (its column is made ISO, so the tag is kept as
  // written) and a name (kept as its column).
  (*record.mutable_tags())["Date"] = "2026.03.01";
  (*record.mutable_tags())["Light"] = "Ann";
  for (int i = k; i < full.record.actions_size(); ++i) *record.add_actions() = full.record.actions(i);
  RefereeOptions referee;
  referee.keep_positions = true;
  const JudgedRecord judged = Judge(record, {}, referee);
  ASSERT_TRUE(judged.verdict.valid()) << GetParam();
  auto encoded = EncodeGame(judged);
  ASSERT_TRUE(encoded.ok()) << encoded.status();
  auto decoded = DecodeGame(*judged.verdict.rules, encoded->identity, encoded->extra, encoded->columns);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->start_position(), record.start_position());
  EXPECT_EQ(encoded->columns.date, "2026-03-01");
  EXPECT_EQ(decoded->tags().at("Date"), "2026.03.01");
  EXPECT_EQ(decoded->tags().at("Light"), "Ann");
  EXPECT_TRUE(decoded->ruleset_digest().empty());
  auto original = WriteRecords(Format::kTsn, std::vector<JudgedRecord>{judged});
  auto again = WriteRecords(Format::kTsn, std::vector<v1::GameRecord>{*decoded});
  ASSERT_TRUE(original.ok() && again.ok());
  EXPECT_EQ(*again, *original);
  auto replayed = ReplayIdentity(*judged.verdict.rules, encoded->identity);
  ASSERT_TRUE(replayed.ok());
  EXPECT_EQ(replayed->positions, judged.verdict.positions);
}

INSTANTIATE_TEST_SUITE_P(Presets, CodecTest, ::testing::ValuesIn(References()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(CodecTest, IllegalOrUnkeptRecordsAreRefused) {
  JudgedRecord judged = JudgedRandomGame("finkel", 3);
  JudgedRecord no_positions = judged;
  no_positions.verdict.positions.clear();
  EXPECT_EQ(EncodeGame(no_positions).status().code(), absl::StatusCode::kInvalidArgument);
  judged.record.mutable_actions(0)->set_roll(3 - judged.record.actions(0).roll() + 1);
  RefereeOptions referee;
  referee.keep_positions = true;
  EXPECT_FALSE(EncodeGame(Judge(judged.record, {}, referee)).ok());
}

// Version 2 takes about 4 bits an action where version 1 took a byte.
TEST(CodecTest, Version2IsAboutHalfTheBytes) {
  size_t v1 = 0, v2 = 0, actions = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const JudgedRecord judged = JudgedRandomGame("finkel", seed);
    actions += judged.record.actions_size();
    v1 += EncodeGame(judged, nullptr, kIdentityV1).value().identity.size();
    v2 += EncodeGame(judged, nullptr, kIdentityV2).value().identity.size();
  }
  EXPECT_GE(v1, actions);
  EXPECT_LT(v2 * 8, actions * 5) << "under 5 bits an action";
}

RC_GTEST_PROP(CodecProperties, DamagedBytesAreAnErrorNeverACrash,
              (uint64_t seed, size_t at, uint8_t value, bool version1, bool cut)) {
  const JudgedRecord judged = JudgedRandomGame("finkel", seed % 1000);
  auto encoded = EncodeGame(judged, nullptr, version1 ? kIdentityV1 : kIdentityV2);
  RC_ASSERT(encoded.ok());
  std::string identity = encoded->identity;
  if (cut) {
    identity.resize(at % identity.size());
  } else {
    identity[at % identity.size()] = static_cast<char>(value);
  }
  auto replayed = ReplayIdentity(*judged.verdict.rules, identity);
  RC_ASSERT(replayed.ok() || replayed.status().code() == absl::StatusCode::kDataLoss);
  std::string extra = encoded->extra;
  extra.resize(at % extra.size());
  auto decoded = DecodeGame(*judged.verdict.rules, encoded->identity, extra, encoded->columns);
  RC_ASSERT(decoded.status().code() == absl::StatusCode::kDataLoss);
}

TEST(PositionKeysTest, RanksAreDistinctPerPositionAndSideAndFinishedGamesHash) {
  auto rules = MustLoad("finkel");
  PositionKeys keys(*rules);
  ASSERT_TRUE(keys.ranked());
  std::map<uint64_t, Position> seen;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const JudgedRecord judged = JudgedRandomGame("finkel", seed);
    for (const Position& p : judged.verdict.positions) {
      const uint64_t key = keys.Key(p);
      EXPECT_EQ(PositionKeys::IsHash(key), IsOver(*rules, p));
      if (!PositionKeys::IsHash(key)) {
        EXPECT_EQ(key & 1, static_cast<uint64_t>(p.to_move));
      }
      auto [it, added] = seen.emplace(key, p);
      EXPECT_TRUE(added || it->second == p) << "two positions with key " << key;
    }
  }
  // The same board with the other side to move is another key.
  Position start = StartPosition(*rules, kLight);
  Position dark = StartPosition(*rules, kDark);
  EXPECT_NE(keys.Key(start), keys.Key(dark));
  // Rules the index does not rank hash every position.
  auto skiriuk = MustLoad("skiriuk");
  PositionKeys hashed(*skiriuk);
  EXPECT_FALSE(hashed.ranked());
  EXPECT_TRUE(PositionKeys::IsHash(hashed.Key(StartPosition(*skiriuk, kLight))));
}

// The import's sort: by key, equal keys in the order given (what
// std::stable_sort does), for ranks (high bytes shared: passes skipped),
// hashes (every byte varies) and both mixed (as a batch's postings are:
// a game's last position is a hash; the two kinds are sorted apart),
// reusing its scratch.
RC_GTEST_PROP(PostingsProperties, SortByKeyIsAStableSortByKey, ()) {
  std::vector<KeyedGame> scratch;
  for (int round = 0; round < 3; ++round) {
    // Which keys are hashes: none, all, or `share` of each six (fewer or
    // more than the ranks).
    const int kind = *rc::gen::inRange(0, 3);
    const size_t share = *rc::gen::inRange<size_t>(1, 6);
    // Ranks of `width` bits from bit `shift`: varying in one byte to
    // three (passes odd or even: the two kinds' sorts may end in
    // different buffers).
    const int width = *rc::gen::inRange(1, 17);
    const int shift = *rc::gen::inRange(0, 41);
    const auto keys = *rc::gen::container<std::vector<uint64_t>>(rc::gen::inRange<uint64_t>(0, 300));
    std::vector<KeyedGame> postings;
    for (size_t i = 0; i < keys.size(); ++i) {
      const bool hashed = kind == 1 || (kind == 2 && i % 6 < share);
      const uint64_t key = hashed ? (keys[i] * 0x9e3779b97f4a7c15ull) | (uint64_t{1} << 63) : (keys[i] & ((uint64_t{1} << width) - 1)) << shift;
      postings.push_back(KeyedGame{key, static_cast<int64_t>(i)});
    }
    std::vector<KeyedGame> expected = postings;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const KeyedGame& a, const KeyedGame& b) { return a.key < b.key; });
    SortByKey(&postings, &scratch);
    RC_ASSERT(postings.size() == expected.size());
    for (size_t i = 0; i < postings.size(); ++i) {
      RC_ASSERT(postings[i].key == expected[i].key);
      RC_ASSERT(postings[i].tagged == expected[i].tagged);
    }
  }
}

// The import's set of one game's keys: what std::set says, game after
// game (emptied between them), through its growth, for ranks and hashes.
RC_GTEST_PROP(PostingsProperties, KeySetIsASet, ()) {
  KeySet set;
  const int games = *rc::gen::inRange(1, 5);
  for (int g = 0; g < games; ++g) {
    set.Clear();
    std::set<uint64_t> expected;
    const bool hashed = *rc::gen::arbitrary<bool>();
    const auto keys = *rc::gen::container<std::vector<uint64_t>>(rc::gen::inRange<uint64_t>(0, 2000));
    for (uint64_t k : keys) {
      const uint64_t key = hashed ? (k * 0xff51afd7ed558ccdull) | (uint64_t{1} << 63) : k;
      RC_ASSERT(set.Insert(key) == expected.insert(key).second);
    }
  }
}

// A run's level: a level every kLevelFactor times kLevelBytes, no
// overflow at the largest size.
TEST(LevelMerging, ARunsLevelGrowsWithItsBytes) {
  EXPECT_EQ(RunLevel(0), 0);
  EXPECT_EQ(RunLevel(kLevelBytes - 1), 0);
  EXPECT_EQ(RunLevel(kLevelBytes), 1);
  EXPECT_EQ(RunLevel(kLevelBytes * kLevelFactor - 1), 1);
  EXPECT_EQ(RunLevel(kLevelBytes * kLevelFactor), 2);
  EXPECT_GT(RunLevel(INT64_MAX), 10);
}

TEST(LevelMerging, TheNewestRunsOfALevelMergeWhenThereAreEnough) {
  const int64_t small = kLevelBytes / 2, big = kLevelBytes * 3;
  // Too few runs; then kLevelFanIn of a level: all of them.
  EXPECT_EQ(LevelMergeStart(std::vector<int64_t>(kLevelFanIn - 1, small)), kLevelFanIn - 1);
  EXPECT_EQ(LevelMergeStart(std::vector<int64_t>(kLevelFanIn, small)), 0u);
  // A bigger run before them stays; a smaller one among them is taken.
  std::vector<int64_t> runs = {big};
  for (size_t i = 0; i < kLevelFanIn; ++i) runs.push_back(i == 3 ? 1 : small);
  EXPECT_EQ(LevelMergeStart(runs), 1u);
  // The newest run's level decides: a small run after bigger ones merges
  // nothing until there are enough of its level.
  runs = std::vector<int64_t>(kLevelFanIn - 1, big);
  runs.push_back(small);
  EXPECT_EQ(LevelMergeStart(runs), runs.size());
  // A newest big run takes the small ones before it too.
  runs = std::vector<int64_t>(kLevelFanIn - 1, small);
  runs.push_back(big);
  EXPECT_EQ(LevelMergeStart(runs), 0u);
}

// An import's runs under the policy: batches go in, merges take at least
// kLevelFanIn runs and keep every byte (a merge's bytes here are the sum:
// no two runs share a key), and the runs left are few. An import's
// batches are of one size (but its last): fewer than kLevelFanIn runs of
// each level are left. Batches of any sizes: fewer than kLevelFanIn runs
// of a level between two bigger ones, so fewer than kLevelFanIn times
// (levels + 1) in all.
RC_GTEST_PROP(LevelMerging, RunsStayFewAndMergesAreWide, ()) {
  const bool same = *rc::gen::arbitrary<bool>();
  const int64_t size = *rc::gen::inRange<int64_t>(1, kLevelBytes * 3);
  auto batches = *rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(1, kLevelBytes * 3));
  if (same) std::fill(batches.begin(), batches.end(), size);
  std::vector<int64_t> runs;
  int64_t total = 0;
  for (int64_t b : batches) {
    runs.push_back(b);
    total += b;
    for (size_t from; (from = LevelMergeStart(runs)) < runs.size();) {
      RC_ASSERT(runs.size() - from >= kLevelFanIn);
      int64_t merged = 0;
      for (size_t i = from; i < runs.size(); ++i) merged += runs[i];
      runs.resize(from);
      runs.push_back(merged);
    }
    int64_t sum = 0;
    int top = 0;
    std::map<int, int> per_level;
    for (int64_t r : runs) {
      sum += r;
      ++per_level[RunLevel(r)];
      top = std::max(top, RunLevel(r));
    }
    RC_ASSERT(sum == total);
    RC_ASSERT(runs.size() < kLevelFanIn * static_cast<size_t>(top + 2));
    if (same) {
      for (const auto& [level, count] : per_level) RC_ASSERT(count < static_cast<int>(kLevelFanIn));
    }
  }
}

// Blocks of successive runs merge into the block of all their postings:
// runs whose games follow each other's (an import's batches: entries
// copied) and runs whose games interleave (sorted), of ranks and hashes.
RC_GTEST_PROP(PostingsProperties, MergedBlocksHoldEveryPostingOnce, ()) {
  const bool hashed = *rc::gen::arbitrary<bool>();
  const bool interleaved = *rc::gen::arbitrary<bool>();
  const int runs = *rc::gen::inRange(1, 6);
  std::vector<std::vector<Posting>> blocks(runs);
  std::vector<Posting> all;
  std::set<std::pair<uint64_t, int64_t>> seen;
  int64_t game = 0;
  for (int r = 0; r < runs; ++r) {
    const auto entries = *rc::gen::container<std::vector<std::tuple<uint64_t, int, bool>>>(
        rc::gen::tuple(rc::gen::inRange<uint64_t>(0, 40), rc::gen::inRange(1, 300), rc::gen::arbitrary<bool>()));
    for (const auto& [k, step, shallow] : entries) {
      const uint64_t key = hashed ? (k * 0x9e3779b97f4a7c15ull) | (uint64_t{1} << 63) : k;
      const int64_t g = interleaved ? step * 7 + r : (game += step);
      if (!seen.insert({key, g}).second) continue;
      blocks[r].push_back(Posting{key, g, shallow});
      all.push_back(Posting{key, g, shallow});
    }
    std::sort(blocks[r].begin(), blocks[r].end());
  }
  std::sort(all.begin(), all.end());
  std::vector<std::string> encoded;
  for (const auto& b : blocks) encoded.push_back(EncodePostings(b.data(), b.data() + b.size()));
  const absl::StatusOr<std::string> merged =
      MergeBlocks(std::vector<absl::string_view>(encoded.begin(), encoded.end()));
  RC_ASSERT(merged.ok());
  RC_ASSERT(*merged == EncodePostings(all.data(), all.data() + all.size()));
  // A damaged block is DATA_LOSS, not a silently shorter merge.
  if (!encoded[0].empty()) {
    encoded[0].back() = static_cast<char>(0x80);
    const absl::StatusOr<std::string> damaged =
        MergeBlocks(std::vector<absl::string_view>(encoded.begin(), encoded.end()));
    RC_ASSERT(!damaged.ok());
    RC_ASSERT(damaged.status().code() == absl::StatusCode::kDataLoss);
  }
}

// Keys taken out of blocks (a merge keeping keys apart): the block (one,
// TakeKeys; several, MergeBlocks) holds every posting of the other keys,
// and the ones taken are exactly those of the keys taken, each once.
RC_GTEST_PROP(PostingsProperties, TakenKeysLeaveTheBlockWithEveryOtherPosting, ()) {
  // A block's keys are ranks or hashes, not both (position_key.h).
  const uint64_t hashed = *rc::gen::arbitrary<bool>() ? uint64_t{1} << 63 : 0;
  const int runs = *rc::gen::inRange(1, 5);
  std::vector<std::vector<Posting>> blocks(runs);
  std::vector<Posting> all;
  std::set<std::pair<uint64_t, int64_t>> seen;
  for (int r = 0; r < runs; ++r) {
    const auto entries = *rc::gen::container<std::vector<std::pair<uint64_t, int64_t>>>(
        rc::gen::pair(rc::gen::inRange<uint64_t>(0, 30), rc::gen::inRange<int64_t>(0, 500)));
    for (const auto& [k, g] : entries) {
      const uint64_t key = k | hashed;
      if (!seen.insert({key, g}).second) continue;
      blocks[r].push_back(Posting{key, g, g % 2 == 0});
      all.push_back(blocks[r].back());
    }
    std::sort(blocks[r].begin(), blocks[r].end());
  }
  std::vector<uint64_t> take = *rc::gen::container<std::vector<uint64_t>>(rc::gen::inRange<uint64_t>(0, 32));
  for (uint64_t& k : take) k |= hashed;
  std::sort(take.begin(), take.end());
  take.erase(std::unique(take.begin(), take.end()), take.end());
  std::vector<Posting> kept, taken_expected;
  for (const Posting& p : all) {
    (std::binary_search(take.begin(), take.end(), p.key) ? taken_expected : kept).push_back(p);
  }
  std::sort(kept.begin(), kept.end());
  std::sort(taken_expected.begin(), taken_expected.end());
  std::vector<std::string> encoded;
  for (const auto& b : blocks) encoded.push_back(EncodePostings(b.data(), b.data() + b.size()));
  std::vector<Posting> taken;
  std::string block;
  if (runs == 1) {
    block = encoded[0];
    RC_ASSERT(TakeKeys(&block, take, &taken).ok());
    if (taken.empty()) RC_ASSERT(block == encoded[0]);  // left as it was
  } else {
    absl::StatusOr<std::string> merged =
        MergeBlocks(std::vector<absl::string_view>(encoded.begin(), encoded.end()), &take, &taken);
    RC_ASSERT(merged.ok());
    block = *merged;
  }
  RC_ASSERT(block == EncodePostings(kept.data(), kept.data() + kept.size()));
  std::sort(taken.begin(), taken.end());
  RC_ASSERT(taken == taken_expected);
}

// A block's head counts its first key's games as the whole block does, and
// for a block of one key (a key's own block) always tells.
RC_GTEST_PROP(PostingsProperties, AHeadCountsTheFirstKeyAsTheBlockDoes, ()) {
  const bool one_key = *rc::gen::arbitrary<bool>();
  const uint64_t base = *rc::gen::inRange<uint64_t>(0, uint64_t{1} << 62);
  auto entries = *rc::gen::nonEmpty(rc::gen::container<std::vector<std::pair<uint64_t, int64_t>>>(
      rc::gen::pair(rc::gen::inRange<uint64_t>(0, one_key ? 1 : 5), rc::gen::inRange<int64_t>(1, 5000000))));
  std::vector<Posting> postings;
  std::set<std::pair<uint64_t, int64_t>> seen;
  for (const auto& [k, g] : entries) {
    if (seen.insert({base + k, g}).second) postings.push_back(Posting{base + k, g, g % 3 == 0});
  }
  std::sort(postings.begin(), postings.end());
  const std::string block = EncodePostings(postings.data(), postings.data() + postings.size());
  const std::string head = block.substr(0, kHeadBytes);
  for (uint64_t key = base == 0 ? 0 : base - 1; key <= base + 5; ++key) {
    const std::optional<uint64_t> n = CountFromHead(head, key);
    if (key == postings.front().key || key < postings.front().key) {
      RC_ASSERT(n.has_value());
    }
    if (n.has_value()) RC_ASSERT(*n == CountPostings(block, key).value());
  }
  RC_ASSERT(!CountFromHead(head.substr(0, 1), postings.front().key).has_value() || block.size() == 1);
}

// Skipping varints (a block's other keys' entries) ends where decoding them
// one by one ends, and fails where decoding fails: the bytes run out, or a
// varint is longer than 10 bytes. Bytes mostly with the top bit set, so
// long and overlong varints come up.
RC_GTEST_PROP(PostingsProperties, SkippedVarintsEndWhereDecodedOnesDo, ()) {
  const auto bytes = *rc::gen::container<std::vector<int>>(rc::gen::oneOf(
      rc::gen::inRange<int>(0x80, 0x100), rc::gen::inRange<int>(0x80, 0x100), rc::gen::inRange<int>(0, 0x100)));
  std::string text;
  for (int b : bytes) text.push_back(static_cast<char>(b));
  const uint64_t n = *rc::gen::inRange<uint64_t>(0, text.size() + 3);
  ByteReader decoded(text), skipped(text);
  bool decoded_ok = true;
  for (uint64_t i = 0; i < n && decoded_ok; ++i) {
    uint64_t v;
    decoded_ok = decoded.Varint(&v);
  }
  const bool skipped_ok = skipped.SkipVarints(n);
  RC_ASSERT(skipped_ok == decoded_ok);
  if (decoded_ok) RC_ASSERT(skipped.pos() == decoded.pos());
}

RC_GTEST_PROP(PostingsProperties, BlocksDecodeToWhatWasEncoded, ()) {
  const bool hashed = *rc::gen::arbitrary<bool>();
  auto entries = *rc::gen::container<std::vector<std::tuple<uint64_t, int64_t, bool>>>(
      rc::gen::tuple(rc::gen::inRange<uint64_t>(0, 200), rc::gen::inRange<int64_t>(1, 5000000),
                     rc::gen::arbitrary<bool>()));
  std::vector<Posting> postings;
  std::set<std::pair<uint64_t, int64_t>> seen;
  for (const auto& [k, g, s] : entries) {
    const uint64_t key = hashed ? (k * 0x9e3779b97f4a7c15ull) | (uint64_t{1} << 63) : k;
    if (seen.insert({key, g}).second) postings.push_back(Posting{key, g, s});
  }
  std::sort(postings.begin(), postings.end());
  const std::string block = EncodePostings(postings.data(), postings.data() + postings.size());
  std::vector<Posting> back;
  RC_ASSERT(DecodePostings(block, &back).ok());
  RC_ASSERT(back == postings);
  if (!postings.empty()) {
    const uint64_t key = postings[*rc::gen::inRange<size_t>(0, postings.size())].key;
    std::vector<PostedGame> found;
    std::vector<std::pair<int64_t, bool>> got, expected;
    RC_ASSERT(FindPostings(block, key, &found).ok());
    for (const PostedGame& g : found) got.emplace_back(g.game, g.shallow);
    for (const Posting& p : postings) {
      if (p.key == key) expected.emplace_back(p.game, p.shallow);
    }
    RC_ASSERT(got == expected);
    // Counted without decoding, and the first games alone.
    const absl::StatusOr<uint64_t> count = CountPostings(block, key);
    RC_ASSERT(count.ok() && *count == expected.size());
    std::vector<PostedGame> first;
    RC_ASSERT(FindPostings(block, key, &first, 1).ok());
    RC_ASSERT(first.size() == 1u && first[0].game == expected[0].first);
    // A cut block is damaged, not misread silently as fewer postings: a
    // cut in the middle of a group fails.
    std::vector<Posting> cut;
    const absl::Status s = DecodePostings(absl::string_view(block).substr(0, block.size() - 1), &cut);
    RC_ASSERT(!s.ok() || cut.size() < postings.size());
  }
}

// A block too big for the encoder's kept buffer (over 1 MiB of room: a
// key's own block from a million games) is written in a buffer of its
// own; the small blocks before and after it, in the kept one, are not
// disturbed by it.
TEST(PostingsTest, BlocksBigAndSmallInTurnDecodeToWhatWasEncoded) {
  auto block_of = [](uint64_t key, int64_t games) {
    std::vector<Posting> postings;
    for (int64_t g = 1; g <= games; ++g) postings.push_back(Posting{key + static_cast<uint64_t>(g % 3), 7 * g, g % 2 == 0});
    std::sort(postings.begin(), postings.end());
    return postings;
  };
  for (const int64_t games : {5, 40000, 3, 100000, 1}) {
    const std::vector<Posting> postings = block_of(static_cast<uint64_t>(games), games);
    const std::string block = EncodePostings(postings.data(), postings.data() + postings.size());
    std::vector<Posting> back;
    ASSERT_TRUE(DecodePostings(block, &back).ok()) << games;
    EXPECT_EQ(back, postings) << games;
    EXPECT_LT(block.size(), postings.size() * 4) << games;
  }
}

}  // namespace
}  // namespace scribe::games
