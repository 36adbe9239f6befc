// RoyalUr's solved tables (.rgu): the two tables RoyalUr's own trainer wrote
// (tests/data/royalur-lut/) read and checked against Scribe's own solve of the
// same rules; the key encoding against the keys RoyalUr wrote; damaged files
// refused with the reason; export then import giving the same table.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/open_table.h"
#include "analysis/rgu.h"
#include "analysis/rgu_keys.h"
#include "analysis/table.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "engine/solver.h"
#include "engine/state_index.h"
#include "gtest/gtest.h"

namespace scribe {
namespace {

const std::string kLutDir = std::string(SCRIBE_TEST_DATA_DIR) + "/royalur-lut/";

// The rules of REF. Rules that fail to load end the test that asked (an
// exception gtest reports as the test's failure), never a test that goes on
// without them.
std::shared_ptr<const Rules> Load(const std::string& ref) {
  auto rules = LoadRuleset(ref);
  if (!rules.ok()) throw std::runtime_error(ref + ": " + std::string(rules.status().message()));
  return *rules;
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string Temp(const std::string& name) {
  return ::testing::TempDir() + "/rgu_test_" + std::to_string(::getpid()) + "_" + name;
}

uint32_t Be32(const std::string& s, size_t at) {
  return (uint32_t{static_cast<unsigned char>(s[at])} << 24) | (uint32_t{static_cast<unsigned char>(s[at + 1])} << 16) |
         (uint32_t{static_cast<unsigned char>(s[at + 2])} << 8) | static_cast<unsigned char>(s[at + 3]);
}

void PutBe32(std::string* s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*s)[at + i] = static_cast<char>(v >> (24 - 8 * i));
}

// Where an .rgu's map count is: after the magic, version, length, metadata.
size_t MapsAt(const std::string& file) { return 8 + Be32(file, 4); }

// The keys of a one-map .rgu, as written.
std::vector<uint32_t> FileKeys(const std::string& file) {
  const size_t at = MapsAt(file);
  EXPECT_EQ(Be32(file, at), 1u);
  const uint32_t n = Be32(file, at + 4);
  std::vector<uint32_t> keys(n);
  for (uint32_t i = 0; i < n; ++i) keys[i] = Be32(file, at + 8 + 4ull * i);
  return keys;
}

Solution SolveOrDie(const Rules& rules, const StateIndex& index, double tolerance = 1e-7) {
  SolveOptions options;
  options.tolerance = tolerance;
  auto solution = Solve(rules, index, options);
  EXPECT_TRUE(solution.ok()) << solution.status();
  return *solution;
}

struct Case {
  const char* file;
  const char* ruleset;
  uint64_t entries;
  double start_percent;  // the README's
};
const Case kCases[] = {{"finkel-2p.rgu", "finkel(pieces=2)", 12990, 51.85728},
                       {"blitz-2p.rgu", "blitz(pieces=2)", 20468, 50.50275}};

// ---------------------------------------------------------------------------
// The keys.

TEST(RoyalUrKeysTest, KeysAreExactlyTheOnesRoyalUrWrote) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.file);
    auto rules = Load(c.ruleset);
    auto keys = RoyalUrKeys::Create(*rules);
    ASSERT_TRUE(keys.ok()) << keys.status();
    std::vector<uint32_t> ours;
    keys->ForEach([&](uint64_t key, uint32_t, int, uint32_t, int) { ours.push_back(static_cast<uint32_t>(key)); });
    const std::vector<uint32_t> theirs = FileKeys(Read(kLutDir + c.file));
    EXPECT_EQ(theirs.size(), c.entries);
    EXPECT_EQ(ours.size(), keys->count());
    EXPECT_EQ(ours, theirs);
  }
}

TEST(RoyalUrKeysTest, KeyOfEachPositionIsTheOneEnumerated) {
  for (const char* ref : {"finkel(pieces=3)", "blitz(pieces=2)", "masters(pieces=2)", "masters(pieces=3)",
                          "sawah-tablet(pieces=2)"}) {
    SCOPED_TRACE(ref);
    auto rules = Load(ref);
    auto keys = RoyalUrKeys::Create(*rules);
    ASSERT_TRUE(keys.ok()) << keys.status();
    uint64_t last = 0, n = 0;
    bool ascending = true;
    keys->ForEach([&](uint64_t key, uint32_t mo, int moff, uint32_t oo, int ooff) {
      if (n++ > 0 && key <= last) ascending = false;
      last = key;
      ASSERT_EQ(keys->Key(mo, moff, oo, ooff), key);
      ASSERT_TRUE(keys->Valid(key));
    });
    EXPECT_TRUE(ascending);
    EXPECT_EQ(n, keys->count());
    EXPECT_EQ(static_cast<int>(last >> 32) + 1, keys->maps());
    EXPECT_FALSE(keys->Valid(last + 1));
  }
}

// docs/analysis.md: 263,121 positions in Scribe's index for finkel with 3
// pieces, 263,712 keys in RoyalUr's: the 591 positions light has won.
TEST(RoyalUrKeysTest, CountsDifferByTheWonPositions) {
  auto rules = Load("finkel(pieces=3)");
  auto index = StateIndex::Create(*rules);
  ASSERT_TRUE(index.ok());
  auto keys = RoyalUrKeys::Create(*rules);
  ASSERT_TRUE(keys.ok());
  EXPECT_EQ((*index)->size(), 263121u);
  EXPECT_EQ(keys->count(), 263712u);
  EXPECT_EQ(keys->won_positions(), 591u);
  uint64_t won = 0;
  keys->ForEach([&](uint64_t, uint32_t mo, int moff, uint32_t, int) { won += moff == rules->pieces && mo == 0; });
  EXPECT_EQ(won, 591u);
}

TEST(RoyalUrKeysTest, RulesRoyalUrCannotKeyAreRefused) {
  for (const char* ref : {"turnover", "murray", "finkel(pieces=8)"}) {
    auto rules = LoadRuleset(ref);
    ASSERT_TRUE(rules.ok()) << ref << ": " << rules.status();
    auto keys = RoyalUrKeys::Create(**rules);
    EXPECT_EQ(keys.status().code(), absl::StatusCode::kFailedPrecondition) << ref;
  }
}

// ---------------------------------------------------------------------------
// RoyalUr's tables against Scribe's solve.

TEST(RguTableTest, AgreesWithScribesSolveWithinOneStep) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.file);
    auto rules = Load(c.ruleset);
    auto table = RguTable::Open(kLutDir + c.file, rules);
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_EQ((*table)->info().entries, c.entries);
    EXPECT_EQ((*table)->info().source, TableSource::kRoyalUr);
    auto index = StateIndex::Create(*rules);
    ASSERT_TRUE(index.ok());
    const Solution solution = SolveOrDie(*rules, **index);
    int worst = 0;
    uint64_t compared = 0;
    for (int mo = 0; mo < rules->pieces; ++mo) {
      for (int oo = 0; oo < rules->pieces; ++oo) {
        (*index)->ForEachInLayer(mo, oo, [&](uint64_t rank, uint32_t m, uint32_t o) {
          const int ours = static_cast<int>(std::lround(solution.values[rank] * 65535.0));
          const int theirs = (*table)->Stored(m, mo, o, oo);
          worst = std::max(worst, std::abs(ours - theirs));
          ++compared;
        });
      }
    }
    EXPECT_EQ(compared, (*index)->size());
    EXPECT_LE(worst, 1) << "largest difference in percent16 steps";
    // The README's start value: light's chance, light to move.
    const Position start = StartPosition(*rules, kLight);
    EXPECT_NEAR(100 * (*table)->Value(start), c.start_percent, 0.5 * 100 / 65535.0);
    EXPECT_NEAR(100 * solution.values[(*index)->Rank(start)], c.start_percent, 100 / 65535.0);
  }
}

TEST(RguTableTest, BothColoursReadTheSameEntry) {
  auto rules = Load("finkel(pieces=2)");
  auto table = OpenTable(kLutDir + "finkel-2p.rgu");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->rules().digest, rules->digest);
  Position light = StartPosition(*rules, kLight), dark = StartPosition(*rules, kDark);
  EXPECT_EQ((*table)->Value(light), (*table)->Value(dark));
}

TEST(RguTableTest, ATableForOtherRulesIsRefusedNamingBoth) {
  auto blitz = Load("blitz(pieces=2)");
  auto finkel = Load("finkel(pieces=2)");
  auto table = OpenTable(kLutDir + "finkel-2p.rgu", blitz);
  ASSERT_EQ(table.status().code(), absl::StatusCode::kFailedPrecondition) << table.status();
  const std::string message(table.status().message());
  EXPECT_NE(message.find(finkel->digest), std::string::npos) << message;
  EXPECT_NE(message.find(blitz->digest), std::string::npos) << message;
  EXPECT_NE(message.find("finkel(pieces=2)"), std::string::npos) << message;
  EXPECT_NE(message.find("blitz(pieces=2)"), std::string::npos) << message;
}

// `scribe table info`'s preset line.
TEST(RguTableTest, MatchingPresetIsThePresetOfTheSameRules) {
  EXPECT_EQ(MatchingPreset(*Load("finkel")), "finkel");
  EXPECT_EQ(MatchingPreset(*Load("aseb")), "sawah-tablet");            // an alias
  EXPECT_EQ(MatchingPreset(*Load("blitz(pieces=5)")), "blitz");        // an override that changes nothing
  EXPECT_EQ(MatchingPreset(*Load("finkel(pieces=2)")), std::nullopt);  // RoyalUr's 2-piece table's rules
  auto table = OpenTable(kLutDir + "blitz-2p.rgu");
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(MatchingPreset((*table)->rules()), std::nullopt);
}

// ---------------------------------------------------------------------------
// Damaged files: refused with the reason, never misread.

struct Damage {
  const char* name;
  std::string bytes;
  const char* reason;
};

std::vector<Damage> Damaged() {
  const std::string good = Read(kLutDir + "finkel-2p.rgu");
  const size_t maps = MapsAt(good);
  const size_t keys = maps + 8, values = keys + 4 * 12990;
  std::vector<Damage> out;
  out.push_back({"empty", "", "shorter than the magic"});
  out.push_back({"magic only", good.substr(0, 3), "shorter than the magic"});
  out.push_back({"cut in the metadata", good.substr(0, 100), "metadata (265 bytes) runs past the end"});
  out.push_back({"cut in the map sizes", good.substr(0, maps + 6), "map sizes run past the end"});
  out.push_back({"cut in the keys", good.substr(0, keys + 1000), "truncated?"});
  out.push_back({"cut in the values", good.substr(0, good.size() - 1), "truncated?"});
  out.push_back({"a byte too many", good + "x", "1 bytes after the values"});
  std::string s = good;
  s[0] = 'X';
  out.push_back({"bad magic", s, "wrong magic"});
  s = good;
  s[3] = 1;
  out.push_back({"version 1", s, "format version 1, this build reads 0"});
  s = good;
  s[8] = '[';
  out.push_back({"bad JSON", s, "metadata is not JSON"});
  s = good;
  PutBe32(&s, 4, 2);
  out.push_back({"metadata length wrong", s, "metadata is not JSON"});
  s = good;
  s.replace(s.find("percent16"), 9, "percent08");
  out.push_back({"other value type", s, "value_type \"percent08\""});
  s = good;
  s.replace(s.find("\"bell\""), 6, "\"bull\"");
  out.push_back({"unknown paths", s, "paths \"bull\""});
  s = good;
  s.replace(s.find("\"start_pieces\":2"), 16, "\"start_pieces\":9");
  out.push_back({"too many pieces", s, "start_pieces 9"});
  s = good;
  s.replace(s.find("game_settings"), 13, "game_sextings");
  out.push_back({"no settings", s, "no game_settings"});
  s = good;
  {  // two keys swapped
    const std::string a = s.substr(keys + 40, 4), b = s.substr(keys + 44, 4);
    s.replace(keys + 40, 4, b);
    s.replace(keys + 44, 4, a);
  }
  out.push_back({"unsorted keys", s, "keys not in ascending order at entry 11"});
  s = good;
  PutBe32(&s, keys, 0);  // the position where both sides have won
  out.push_back({"a key that is no position", s, "key 0x00000000 (entry 0) is no position"});
  s = good;
  // One entry fewer: the last key and value gone, the count lowered.
  s.erase(values + 2 * 12989, 2);
  s.erase(keys + 4 * 12989, 4);
  PutBe32(&s, maps + 4, 12989);
  out.push_back({"an entry missing", s, "holds 12989 entries; finkel(pieces=2) has 12990"});
  s = good;
  PutBe32(&s, maps, 2);
  out.push_back({"two maps", s, ""});
  // Metadata nested past any real one is refused as the parser meets it;
  // nesting within the limit is parsed (and then is no object).
  const auto with_metadata = [&](const std::string& meta) {
    std::string t = good.substr(0, 8) + meta + good.substr(maps);
    PutBe32(&t, 4, static_cast<uint32_t>(meta.size()));
    return t;
  };
  out.push_back({"metadata nested 100 deep", with_metadata(std::string(100, '[') + std::string(100, ']')),
                 "metadata nests deeper than 64 levels"});
  out.push_back({"metadata nested 60 deep", with_metadata(std::string(60, '[') + std::string(60, ']')),
                 "metadata is not a JSON object"});
  return out;
}

TEST(RguTableTest, DamagedFilesAreRefusedWithTheReason) {
  for (const Damage& d : Damaged()) {
    SCOPED_TRACE(d.name);
    const std::string path = Temp("damaged.rgu");
    Write(path, d.bytes);
    auto table = RguTable::Open(path);
    ASSERT_FALSE(table.ok());
    EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument) << table.status();
    EXPECT_NE(table.status().message().find(d.reason), std::string::npos) << table.status();
    EXPECT_NE(table.status().message().find("not a usable RoyalUr table"), std::string::npos) << table.status();
    std::remove(path.c_str());
  }
}

TEST(RguTableTest, AMissingFileIsNotFound) {
  EXPECT_EQ(RguTable::Open(Temp("missing.rgu")).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(OpenTable(Temp("missing.rgu")).status().code(), absl::StatusCode::kNotFound);
}

TEST(RguTableTest, FormatIsChosenByMagicNotName) {
  const std::string rgu_named_tbl = Temp("really-rgu.tbl");
  Write(rgu_named_tbl, Read(kLutDir + "finkel-2p.rgu"));
  auto table = OpenTable(rgu_named_tbl);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ((*table)->info().source, TableSource::kRoyalUr);
  std::remove(rgu_named_tbl.c_str());
  const std::string junk = Temp("junk.rgu");
  Write(junk, std::string(100, 'x'));  // longer than either header
  auto bad = OpenTable(junk);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("neither a Scribe table"), std::string::npos) << bad.status();
  std::remove(junk.c_str());
}

// ---------------------------------------------------------------------------
// Export and import.

TEST(RguExportTest, ExportThenImportGivesTheSameTableByteForByte) {
  // masters(pieces=3) has 34-bit keys: two maps. (Solved coarsely: only the
  // round trip matters here.)
  struct Export {
    const char* ref;
    uint32_t maps;
  };
  for (const auto [ref, maps] : {Export{"finkel(pieces=2)", 1}, Export{"blitz(pieces=2)", 1},
                                 Export{"masters(pieces=2)", 1}, Export{"masters(pieces=3)", 2}}) {
    SCOPED_TRACE(ref);
    auto rules = Load(ref);
    auto index = StateIndex::Create(*rules);
    ASSERT_TRUE(index.ok());
    const std::string tbl = Temp("solved.tbl"), rgu = Temp("exported.rgu"), back = Temp("imported.tbl");
    ASSERT_TRUE(WriteTable(tbl, *rules, SolveOrDie(*rules, **index, maps > 1 ? 1e-3 : 1e-7)).ok());
    auto solved = OpenTable(tbl, rules);
    ASSERT_TRUE(solved.ok()) << solved.status();
    ASSERT_TRUE(WriteRgu(rgu, **solved).ok());
    auto exported = RguTable::Open(rgu, rules);
    ASSERT_TRUE(exported.ok()) << exported.status();
    EXPECT_EQ(Be32(Read(rgu), MapsAt(Read(rgu))), maps);
    EXPECT_EQ((*exported)->info().source, TableSource::kSolved);
    // Value-identical: every position's stored value.
    for (uint64_t r = 0; r < (*index)->size(); ++r) {
      const Position p = (*index)->Unrank(r);
      ASSERT_EQ((*exported)->Value(p), (*solved)->Value(p)) << "rank " << r;
    }
    ASSERT_TRUE(WriteAsScribeTable(**exported, back).ok());
    EXPECT_EQ(Read(back), Read(tbl)) << "the imported table differs from the one exported";
    for (const std::string& f : {tbl, rgu, back}) std::remove(f.c_str());
  }
}

TEST(RguExportTest, RoyalUrsTableImportedAndExportedKeepsEveryKeyAndValue) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.file);
    const std::string original = Read(kLutDir + c.file);
    auto table = OpenTable(kLutDir + c.file);
    ASSERT_TRUE(table.ok()) << table.status();
    const std::string tbl = Temp("imported.tbl"), rgu = Temp("again.rgu");
    ASSERT_TRUE(WriteAsScribeTable(**table, tbl).ok());
    auto imported = OpenTable(tbl);
    ASSERT_TRUE(imported.ok()) << imported.status();
    EXPECT_EQ((*imported)->info().source, TableSource::kRoyalUr);
    EXPECT_NEAR((*imported)->info().tolerance, 9.918212890625E-7, 1e-18);
    ASSERT_TRUE(WriteRgu(rgu, **imported).ok());
    const std::string again = Read(rgu);
    // The maps (counts, keys, values) byte for byte; the metadata gains
    // Scribe's own keys.
    EXPECT_EQ(again.substr(MapsAt(again)), original.substr(MapsAt(original)));
    for (const std::string& f : {tbl, rgu}) std::remove(f.c_str());
  }
}

TEST(RguExportTest, RulesRoyalUrCannotPlayAreRefused) {
  auto rules = Load("finkel(pieces=2,safe_squares=[4])");
  auto index = StateIndex::Create(*rules);
  ASSERT_TRUE(index.ok());
  const std::string tbl = Temp("odd.tbl");
  ASSERT_TRUE(WriteTable(tbl, *rules, SolveOrDie(*rules, **index)).ok());
  auto table = OpenTable(tbl);
  ASSERT_TRUE(table.ok());
  auto status = WriteRgu(Temp("odd.rgu"), **table);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_NE(status.message().find("RoyalUr cannot express"), std::string::npos) << status;
  std::remove(tbl.c_str());
}

}  // namespace
}  // namespace scribe
