// RoyalUr's formats, RGN and RoyalUr JSON: every game RoyalUr-Java wrote
// (tests/data/royalur) is read, judged legal, written back as RoyalUr wrote
// it and converted through every format without loss; what the formats
// cannot say is refused; broken input gives findings with line and column.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "gtest/gtest.h"
#include "records/formats.h"
#include "records/random_game.h"
#include "records/referee.h"
#include "records/rgn.h"
#include "records/royalur.h"
#include "records/royalur_json.h"
#include "tests/common/test_data.h"

namespace scribe {
namespace {

using testing::ReadTestFile;
using testing::TestDataPath;

struct InteropFile {
  std::string name;     // "finkel-1.rgn"
  std::string ruleset;  // from the name's prefix: finkel, masters, blitz, aseb
  Format format;
};

std::vector<InteropFile> InteropFiles() {
  std::vector<InteropFile> files;
  for (const auto& entry : std::filesystem::directory_iterator(TestDataPath("royalur"))) {
    const std::string name = entry.path().filename().string();
    const std::string ext = entry.path().extension().string();
    if (ext != ".rgn" && ext != ".json") continue;
    files.push_back({name, name.substr(0, name.find('-')), ext == ".rgn" ? Format::kRgn : Format::kRoyalUrJson});
  }
  std::sort(files.begin(), files.end(), [](const InteropFile& a, const InteropFile& b) { return a.name < b.name; });
  return files;
}

std::string Read(const InteropFile& f) { return ReadTestFile("royalur/" + f.name); }

std::string Describe(const std::vector<v1::Finding>& findings) {
  std::vector<std::string> lines;
  for (const v1::Finding& f : findings) {
    lines.push_back(absl::StrCat(f.line(), ":", f.column(), ": ", f.code(), ": ", f.message()));
  }
  return absl::StrJoin(lines, "\n");
}

std::string Describe(const v1::FileReport& report) {
  return Describe(std::vector<v1::Finding>(report.findings().begin(), report.findings().end()));
}

// The moves of a record: roll, from, to of every action.
std::string Moves(const v1::GameRecord& record) {
  std::vector<std::string> out;
  for (const v1::Action& a : record.actions()) {
    out.push_back(a.has_from() ? absl::StrCat(a.roll(), ":", a.from(), "-", a.to()) : absl::StrCat(a.roll(), ":-"));
  }
  return absl::StrJoin(out, " ");
}

std::map<std::string, std::string> Tags(const v1::GameRecord& record) {
  return {record.tags().begin(), record.tags().end()};
}

// Tag lines and the rest of an RGN text.
std::pair<std::vector<std::string>, std::string> SplitRgn(const std::string& text) {
  std::vector<std::string> tags;
  size_t at = 0;
  while (at < text.size() && text[at] == '[') {
    const size_t end = text.find('\n', at);
    tags.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::sort(tags.begin(), tags.end());
  return {tags, text.substr(at)};
}

RulesPolicy IoFor(const std::string& ruleset) {
  RulesPolicy io;
  io.ruleset = ruleset;
  return io;
}

ParsedRecords MustRead(Format format, const std::string& text, const std::string& ruleset,
                       const std::string& what) {
  ParsedRecords parsed = ReadRecords(format, text, IoFor(ruleset));
  EXPECT_TRUE(parsed.findings.empty()) << what << "\n" << Describe(parsed.findings);
  EXPECT_EQ(parsed.records.size(), 1u) << what;
  return parsed;
}

void ExpectEveryFindingPlaced(const v1::FileReport& report, const std::string& what) {
  EXPECT_FALSE(report.valid()) << what;
  EXPECT_GT(report.findings_size(), 0) << what;
  for (const v1::Finding& f : report.findings()) {
    // An empty file is one finding about no place in it.
    if (f.code() == "no-records" && report.findings_size() == 1) continue;
    EXPECT_TRUE(f.has_line() && f.has_column()) << what << ": " << f.DebugString();
    EXPECT_GE(f.line(), 1) << what;
    EXPECT_GE(f.column(), 1) << what;
  }
}

// A random legal game under `ruleset`, as a record.
v1::GameRecord RandomGame(const std::string& ruleset, uint64_t seed, int max_actions = 400) {
  auto loaded = LoadRuleset(ruleset);
  EXPECT_TRUE(loaded.ok()) << ruleset << ": " << loaded.status();
  RandomGameOptions options;
  options.ruleset = ruleset;
  options.tags = {{"Light", "Ann"}, {"Dark", "Bo"}};
  options.max_actions = max_actions;
  Rng rng(seed);
  return PlayRandomGame(**loaded, rng, options).record;
}

// --- RoyalUr's own files -------------------------------------------------------

TEST(RoyalUrFilesTest, ThereAreTheFourPresetsInBothFormats) {
  std::map<std::string, int> count;
  for (const InteropFile& f : InteropFiles()) ++count[absl::StrCat(f.ruleset, FormatName(f.format))];
  EXPECT_EQ(count.size(), 8u);
  for (const auto& [key, n] : count) EXPECT_EQ(n, 12) << key;
}

TEST(RoyalUrFilesTest, EveryFileIsDetectedAndLegal) {
  for (const InteropFile& f : InteropFiles()) {
    const std::string text = Read(f);
    EXPECT_EQ(DetectFormat(f.name, text), f.format) << f.name;
    // By content too (standard input has no name).
    EXPECT_EQ(DetectFormat("-", text), f.format) << f.name;
    const v1::FileReport report = ValidateFile(f.name, text, f.format, IoFor(f.ruleset)).report;
    EXPECT_TRUE(report.valid()) << f.name << "\n" << Describe(report);
    const ParsedRecords parsed = MustRead(f.format, text, f.ruleset, f.name);
    ASSERT_EQ(parsed.records.size(), 1u);
    const RefereeResult result = Referee(parsed.records[0]);
    EXPECT_TRUE(result.valid()) << f.name;
    EXPECT_TRUE(result.winner.has_value()) << f.name << ": RoyalUr's games are played to the end";
    EXPECT_EQ(Tags(parsed.records[0]),
              (std::map<std::string, std::string>{{"Dark", "RandomAgent"}, {"Light", "RandomAgent"}}))
        << f.name;
  }
}

TEST(RoyalUrFilesTest, RgnWritesBackAsRoyalUrWroteIt) {
  int exact = 0;
  for (const InteropFile& f : InteropFiles()) {
    if (f.format != Format::kRgn) continue;
    const std::string text = Read(f);
    const ParsedRecords parsed = MustRead(Format::kRgn, text, f.ruleset, f.name);
    auto written = WriteRecords(Format::kRgn, parsed.records);
    ASSERT_TRUE(written.ok()) << f.name << ": " << written.status();
    if (*written == text) {
      ++exact;
      continue;
    }
    // RoyalUr keeps its metadata in a hash map whose order changes from run
    // to run (the aseb files have Dark first); a record's tags are a map, so
    // the writer uses one order (Light, Dark, ...). Everything else is the
    // same byte for byte.
    EXPECT_EQ(f.ruleset, "aseb") << f.name << "\n" << *written;
    EXPECT_EQ(SplitRgn(*written), SplitRgn(text)) << f.name;
  }
  EXPECT_EQ(exact, 36);  // finkel, masters, blitz
}

TEST(RoyalUrFilesTest, RoyalUrJsonWritesBackAsRoyalUrWroteIt) {
  int exact = 0;
  for (const InteropFile& f : InteropFiles()) {
    if (f.format != Format::kRoyalUrJson) continue;
    const std::string text = Read(f);
    const ParsedRecords parsed = MustRead(Format::kRoyalUrJson, text, "", f.name);
    auto written = WriteRecords(Format::kRoyalUrJson, parsed.records);
    ASSERT_TRUE(written.ok()) << f.name << ": " << written.status();
    EXPECT_EQ(nlohmann::json::parse(*written), nlohmann::json::parse(text)) << f.name;
    // Byte for byte but for the metadata's order (see above).
    if (*written == text) ++exact;
    else EXPECT_EQ(f.ruleset, "aseb") << f.name;
  }
  EXPECT_EQ(exact, 36);
}

TEST(RoyalUrFilesTest, RgnAndJsonOfTheSameGameReadTheSame) {
  for (const InteropFile& f : InteropFiles()) {
    if (f.format != Format::kRgn) continue;
    const std::string base = f.name.substr(0, f.name.size() - 4);
    const ParsedRecords rgn = MustRead(Format::kRgn, Read(f), f.ruleset, f.name);
    const ParsedRecords json =
        MustRead(Format::kRoyalUrJson, ReadTestFile("royalur/" + base + ".json"), "", base + ".json");
    ASSERT_EQ(rgn.records.size(), 1u);
    ASSERT_EQ(json.records.size(), 1u);
    EXPECT_EQ(Moves(rgn.records[0]), Moves(json.records[0])) << base;
    EXPECT_EQ(Tags(rgn.records[0]), Tags(json.records[0])) << base;
    // The same rules: the JSON's settings name the preset RGN was read with.
    EXPECT_EQ(LoadRuleset(rgn.records[0].ruleset()).value()->digest,
              LoadRuleset(json.records[0].ruleset()).value()->digest)
        << base;
    // Each written in the other format is the other file.
    auto as_json = WriteRecords(Format::kRoyalUrJson, rgn.records);
    ASSERT_TRUE(as_json.ok()) << as_json.status();
    EXPECT_EQ(nlohmann::json::parse(*as_json), nlohmann::json::parse(ReadTestFile("royalur/" + base + ".json")))
        << base;
    auto as_rgn = WriteRecords(Format::kRgn, json.records);
    ASSERT_TRUE(as_rgn.ok()) << as_rgn.status();
    EXPECT_EQ(SplitRgn(*as_rgn), SplitRgn(Read(f))) << base;
  }
}

TEST(RoyalUrFilesTest, EveryFileConvertsThroughEveryFormatWithoutLoss) {
  const Format kFormats[] = {Format::kTsn, Format::kJson, Format::kRgn, Format::kRoyalUrJson};
  for (const InteropFile& f : InteropFiles()) {
    const ParsedRecords parsed = MustRead(f.format, Read(f), f.ruleset, f.name);
    ASSERT_EQ(parsed.records.size(), 1u);
    const v1::GameRecord& original = parsed.records[0];
    for (Format to : kFormats) {
      const std::string what = absl::StrCat(f.name, " -> ", FormatName(to));
      auto written = WriteRecords(to, parsed.records);
      ASSERT_TRUE(written.ok()) << what << ": " << written.status();
      // RGN names no ruleset: its reader is told it.
      const std::string ruleset = to == Format::kRgn ? original.ruleset() : "";
      EXPECT_EQ(DetectFormat("-", *written), to) << what;
      const v1::FileReport report = ValidateFile(what, *written, to, IoFor(ruleset)).report;
      EXPECT_TRUE(report.valid()) << what << "\n" << Describe(report);
      const ParsedRecords back = MustRead(to, *written, ruleset, what);
      ASSERT_EQ(back.records.size(), 1u) << what;
      EXPECT_EQ(Moves(back.records[0]), Moves(original)) << what;
      EXPECT_EQ(Tags(back.records[0]), Tags(original)) << what;
      EXPECT_EQ(back.records[0].first_player(), original.first_player()) << what;
      // And on to RoyalUr's formats again.
      for (Format again : {Format::kRgn, Format::kRoyalUrJson}) {
        auto twice = WriteRecords(again, back.records);
        ASSERT_TRUE(twice.ok()) << what << " -> " << FormatName(again) << ": " << twice.status();
        auto direct = WriteRecords(again, parsed.records);
        ASSERT_TRUE(direct.ok());
        EXPECT_EQ(*twice, *direct) << what << " -> " << FormatName(again);
      }
    }
  }
}

// --- the mapping of RoyalUr's settings -----------------------------------------

TEST(RoyalUrSettingsTest, PresetsAndOverrides) {
  RoyalUrSettings finkel{"standard", "bell", "four_binary", 7, true, true, false};
  EXPECT_EQ(RulesetReferenceForRoyalUrSettings(finkel).value(), "finkel");
  RoyalUrSettings aseb{"aseb", "aseb", "four_binary", 5, true, true, false};
  EXPECT_EQ(RulesetReferenceForRoyalUrSettings(aseb).value(), "sawah-tablet");
  RoyalUrSettings blitz{"standard", "masters", "four_binary", 5, false, true, true};
  EXPECT_EQ(RulesetReferenceForRoyalUrSettings(blitz).value(), "blitz");
  RoyalUrSettings masters{"standard", "masters", "three_binary_0eq4", 7, false, true, false};
  EXPECT_EQ(RulesetReferenceForRoyalUrSettings(masters).value(), "masters");

  RoyalUrSettings five = finkel;
  five.start_pieces = 5;
  EXPECT_EQ(RulesetReferenceForRoyalUrSettings(five).value(), "finkel(pieces=5)");
  RoyalUrSettings odd{"standard", "bell", "three_binary_0eq4", 6, false, true, true};
  const std::string reference = RulesetReferenceForRoyalUrSettings(odd).value();
  EXPECT_TRUE(absl::StartsWith(reference, "finkel(")) << reference;
  // The reference resolves to the settings' rules, and they map back.
  auto rules = LoadRuleset(reference);
  ASSERT_TRUE(rules.ok()) << reference << ": " << rules.status();
  auto back = RoyalUrSettingsForRules(**rules);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->dice, "three_binary_0eq4");
  EXPECT_EQ(back->start_pieces, 6);
  EXPECT_FALSE(back->safe_rosettes);
  EXPECT_TRUE(back->captures_grant_rolls);

  for (const char* preset : {"finkel", "masters", "blitz", "sawah-tablet", "sawah", "sawah-marks", "finkel-blank4",
                             "murray", "skiriuk"}) {
    auto r = LoadRuleset(preset).value();
    auto settings = RoyalUrSettingsForRules(*r);
    ASSERT_TRUE(settings.ok()) << preset << ": " << settings.status();
    auto ref = RulesetReferenceForRoyalUrSettings(*settings);
    ASSERT_TRUE(ref.ok()) << preset << ": " << ref.status();
    EXPECT_EQ(LoadRuleset(*ref).value()->digest, r->digest) << preset << " -> " << *ref;
  }
}

TEST(RoyalUrSettingsTest, WhatScribeCannotPlayIsAFinding) {
  const std::string text = ReadTestFile("royalur/finkel-1.json");
  for (const auto& [key, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"dice", "five_binary"}, {"paths", "aseb"}, {"board_shape", "round"}, {"start_pieces", 40}}) {
    nlohmann::json j = nlohmann::json::parse(text);
    j["settings"][key] = value;
    const v1::FileReport report = ValidateFile("x.json", j.dump(), Format::kRoyalUrJson).report;
    ExpectEveryFindingPlaced(report, key);
    EXPECT_EQ(report.findings(0).code(), "ruleset-unsupported") << key << "\n" << Describe(report);
  }
}

// --- what the formats cannot say -----------------------------------------------

TEST(RoyalUrWriteTest, RgnRefusesRulesetsRoyalUrLacks) {
  for (const char* ruleset : {"murray", "turnover", "skiriuk", "sawah", "finkel(pieces=5)"}) {
    const v1::GameRecord record = RandomGame(ruleset, 7);
    ASSERT_TRUE(Referee(record).valid()) << ruleset;
    auto written = WriteRecords(Format::kRgn, {record});
    ASSERT_FALSE(written.ok()) << ruleset;
    EXPECT_EQ(written.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(written.status().message(), "RoyalUr knows only its presets"))
        << written.status().message();
    EXPECT_TRUE(absl::StrContains(written.status().message(), ruleset)) << written.status().message();
  }
  // The presets by digest, whatever the name says.
  for (const char* ruleset : {"finkel(pieces=7)", "aseb", "sawah-tablet", "blitz", "masters"}) {
    auto written = WriteRecords(Format::kRgn, {RandomGame(ruleset, 7)});
    EXPECT_TRUE(written.ok()) << ruleset << ": " << written.status();
  }
}

TEST(RoyalUrWriteTest, RoyalUrJsonRefusesRulesetsRoyalUrLacks) {
  for (const char* ruleset : {"turnover", "masters(safe_squares=[4])", "finkel(dice.count=2, dice.roll_for_marks=[0,1,2])",
                              "finkel(safe_shared=true)"}) {
    const v1::GameRecord record = RandomGame(ruleset, 11);
    ASSERT_TRUE(Referee(record).valid()) << ruleset;
    auto written = WriteRecords(Format::kRoyalUrJson, {record});
    ASSERT_FALSE(written.ok()) << ruleset;
    EXPECT_EQ(written.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(written.status().message(), "RoyalUr cannot express")) << written.status().message();
  }
  // Rules RoyalUr's settings do say, presets or not, round-trip.
  for (const char* ruleset : {"murray", "skiriuk", "sawah", "sawah-marks", "finkel-blank4", "finkel(pieces=3)"}) {
    const v1::GameRecord record = RandomGame(ruleset, 11);
    auto written = WriteRecords(Format::kRoyalUrJson, {record});
    ASSERT_TRUE(written.ok()) << ruleset << ": " << written.status();
    const ParsedRecords back = MustRead(Format::kRoyalUrJson, *written, "", ruleset);
    ASSERT_EQ(back.records.size(), 1u);
    EXPECT_EQ(Moves(back.records[0]), Moves(record)) << ruleset;
    EXPECT_EQ(LoadRuleset(back.records[0].ruleset()).value()->digest, LoadRuleset(ruleset).value()->digest)
        << ruleset << " read back as " << back.records[0].ruleset();
  }
}

TEST(RoyalUrWriteTest, RefusesThrowOffSetUpAndComments) {
  v1::GameRecord record = RandomGame("finkel", 3, 20);
  {
    v1::GameRecord r = record;
    v1::OpeningThrow* t = r.add_opening();
    t->set_light(3);
    t->set_dark(1);
    for (Format f : {Format::kRgn, Format::kRoyalUrJson}) {
      auto written = WriteRecords(f, {r});
      ASSERT_FALSE(written.ok()) << FormatName(f);
      EXPECT_TRUE(absl::StrContains(written.status().message(), "throw-off")) << written.status().message();
    }
  }
  {
    v1::GameRecord r = record;
    r.clear_actions();
    r.set_start_position("6:...1..........:0/7:..............:0 D");
    ASSERT_TRUE(Referee(r).valid());
    auto written = WriteRecords(Format::kRgn, {r});
    ASSERT_FALSE(written.ok());
    EXPECT_TRUE(absl::StrContains(written.status().message(), "set-up position")) << written.status().message();
    // RoyalUr JSON says it: pieces on the board in the initial state.
    auto json = WriteRecords(Format::kRoyalUrJson, {r});
    ASSERT_TRUE(json.ok()) << json.status();
    EXPECT_TRUE(absl::StrContains(*json, R"("board":{"pieces":{"A1":4}})")) << *json;
    const ParsedRecords back = MustRead(Format::kRoyalUrJson, *json, "", "set-up");
    ASSERT_EQ(back.records.size(), 1u);
    EXPECT_EQ(back.records[0].start_position(), r.start_position());
  }
  {
    v1::GameRecord r = record;
    r.mutable_actions(2)->set_comment("a fine move [%eval 0.3]");
    for (Format f : {Format::kRgn, Format::kRoyalUrJson}) {
      auto written = WriteRecords(f, {r});
      ASSERT_FALSE(written.ok()) << FormatName(f);
      EXPECT_TRUE(absl::StrContains(written.status().message(), "no comments")) << written.status().message();
      EXPECT_TRUE(absl::StrContains(written.status().message(), "action 2")) << written.status().message();
    }
  }
  {
    v1::GameRecord r = record;
    r.mutable_tags()->insert({"Bad Name", std::string("x")});
    auto written = WriteRecords(Format::kRgn, {r});
    ASSERT_FALSE(written.ok());
    EXPECT_TRUE(absl::StrContains(written.status().message(), "cannot be written in RGN")) << written.status().message();
  }
  {
    v1::GameRecord r = record;
    r.mutable_actions(0)->set_to(r.actions(0).to() + 1);  // illegal
    for (Format f : {Format::kRgn, Format::kRoyalUrJson}) {
      auto written = WriteRecords(f, {r});
      ASSERT_FALSE(written.ok()) << FormatName(f);
      EXPECT_TRUE(absl::StrContains(written.status().message(), "illegal record")) << written.status().message();
    }
  }
}

TEST(RoyalUrWriteTest, TagValuesAreQuotedAsRoyalUrQuotesThem) {
  v1::GameRecord record = RandomGame("finkel", 5, 4);
  (*record.mutable_tags())["Light"] = "Ann \"the\" Smith\\\n";
  (*record.mutable_tags())["Dark"] = "Bo.b_2-x";
  (*record.mutable_tags())["Event"] = "";
  (*record.mutable_tags())["StartTime"] = "2024-01-02T03:04:05Z";
  auto written = WriteRecords(Format::kRgn, {record});
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_TRUE(absl::StartsWith(*written,
                               "[Light \"Ann \\\"the\\\" Smith\\\\\\n\"]\n[Dark Bo.b_2-x]\n"
                               "[StartTime \"2024-01-02T03:04:05Z\"]\n[Event \"\"]\n\n1. "))
      << *written;
  const ParsedRecords back = MustRead(Format::kRgn, *written, "finkel", "tags");
  EXPECT_EQ(Tags(back.records[0]), Tags(record));
}

TEST(RoyalUrWriteTest, TimesAndEndStatesRoundTrip) {
  nlohmann::json j = nlohmann::json::parse(ReadTestFile("royalur/blitz-4.json"));
  int64_t t = 0;
  for (auto& state : j["states"]) state["time"] = (t += 750);
  j["initial_state"]["time"] = 5;
  j["states"][3]["metadata"] = {{"note", "a ] bracket"}};
  const std::string text = j.dump();
  const ParsedRecords parsed = MustRead(Format::kRoyalUrJson, text, "", "times");
  ASSERT_EQ(parsed.records.size(), 1u);
  for (Format via : {Format::kTsn, Format::kJson}) {
    auto written = WriteRecords(via, parsed.records);
    ASSERT_TRUE(written.ok());
    const ParsedRecords mid = MustRead(via, *written, "", FormatName(via));
    auto again = WriteRecords(Format::kRoyalUrJson, mid.records);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(nlohmann::json::parse(*again), j) << FormatName(via);
  }
  // RGN leaves the times out, as RoyalUr's own writer does.
  auto rgn = WriteRecords(Format::kRgn, parsed.records);
  ASSERT_TRUE(rgn.ok()) << rgn.status();
  EXPECT_EQ(SplitRgn(*rgn), SplitRgn(ReadTestFile("royalur/blitz-4.rgn")));

  // A resignation is the tag Termination.
  nlohmann::json resigned = nlohmann::json::parse(ReadTestFile("royalur/finkel-2.json"));
  resigned["states"].erase(resigned["states"].size() - 1);  // the win
  resigned["states"].erase(resigned["states"].size() - 1);  // the winning move
  resigned["states"].push_back({{"type", "resigned"}, {"time", 0}, {"player", "D"}});
  const ParsedRecords r = MustRead(Format::kRoyalUrJson, resigned.dump(), "", "resigned");
  ASSERT_EQ(r.records.size(), 1u);
  EXPECT_EQ(r.records[0].tags().at("Termination"), "dark resigned");
  auto back = WriteRecords(Format::kRoyalUrJson, r.records);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(nlohmann::json::parse(*back), resigned);
}

TEST(RoyalUrWriteTest, ManyGamesInOneFile) {
  std::vector<v1::GameRecord> records = {RandomGame("finkel", 1), RandomGame("finkel", 2, 9),
                                         RandomGame("finkel", 3)};
  records[1].mutable_tags()->clear();
  records[2].set_first_player(v1::DARK);
  records[2] = RandomGame("finkel", 3);
  for (Format f : {Format::kRgn, Format::kRoyalUrJson}) {
    auto written = WriteRecords(f, records);
    ASSERT_TRUE(written.ok()) << FormatName(f) << ": " << written.status();
    const ParsedRecords back = ReadRecords(f, *written, IoFor("finkel"));
    EXPECT_TRUE(back.findings.empty()) << Describe(back.findings);
    EXPECT_EQ(back.entries, 3);
    ASSERT_EQ(back.records.size(), 3u) << *written;
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(Moves(back.records[k]), Moves(records[k])) << FormatName(f) << " " << k;
      EXPECT_EQ(Tags(back.records[k]), Tags(records[k])) << FormatName(f) << " " << k;
    }
  }
}

TEST(RoyalUrWriteTest, DarkMovesFirst) {
  v1::GameRecord record;
  record.set_ruleset("finkel");
  record.set_first_player(v1::DARK);
  auto rules = LoadRuleset("finkel").value();
  Position pos = StartPosition(*rules, kDark);
  Rng rng(9);
  MoveList moves;
  for (int i = 0; i < 30; ++i) {
    const int roll = rng.Throw(*rules);
    LegalMoves(*rules, pos, roll, &moves);
    v1::Action* a = record.add_actions();
    a->set_roll(roll);
    if (moves.empty()) {
      PassTurn(&pos);
      continue;
    }
    a->set_from(moves[0].from);
    a->set_to(moves[0].to);
    ApplyMove(*rules, &pos, moves[0]);
  }
  for (Format f : {Format::kRgn, Format::kRoyalUrJson}) {
    auto written = WriteRecords(f, {record});
    ASSERT_TRUE(written.ok()) << written.status();
    if (f == Format::kRgn) {
      EXPECT_TRUE(absl::StartsWith(*written, "/ ")) << *written;
    }
    const ParsedRecords back = MustRead(f, *written, "finkel", FormatName(f));
    ASSERT_EQ(back.records.size(), 1u);
    EXPECT_EQ(back.records[0].first_player(), v1::DARK);
    EXPECT_EQ(Moves(back.records[0]), Moves(record));
    EXPECT_TRUE(ValidateFile("x", *written, f, IoFor("finkel")).report.valid());
  }
}

// --- broken input ----------------------------------------------------------------

v1::FileReport ValidateRgn(const std::string& text, const std::string& ruleset = "finkel") {
  return ValidateFile("x.rgn", text, Format::kRgn, IoFor(ruleset)).report;
}

v1::FileReport ValidateRoyalUrJson(const std::string& text) {
  return ValidateFile("x.json", text, Format::kRoyalUrJson).report;
}

void ExpectFinding(const v1::FileReport& report, const std::string& code, int line, int column,
                   const std::string& what) {
  ExpectEveryFindingPlaced(report, what);
  ASSERT_GT(report.findings_size(), 0) << what;
  const v1::Finding& f = report.findings(0);
  EXPECT_EQ(f.code(), code) << what << "\n" << Describe(report);
  EXPECT_EQ(f.line(), line) << what << "\n" << Describe(report);
  EXPECT_EQ(f.column(), column) << what << "\n" << Describe(report);
}

TEST(RgnReadTest, FindingsWithLineAndColumn) {
  const std::string head = "[Light RandomAgent]\n[Dark RandomAgent]\n\n1. A@A4 / C@C2\n";
  ExpectFinding(ValidateRgn(head + "2. A@A9 / C@C3\n"), "rgn-move", 5, 6, "a tile off the path");
  ExpectFinding(ValidateRgn(head + "2. A@D2 / C@C3\n"), "rgn-syntax", 5, 6, "not a lane");
  ExpectFinding(ValidateRgn(head + "2. A@B13 / C@C3\n"), "rgn-move", 5, 6, "not a tile");
  ExpectFinding(ValidateRgn(head + "2. C@C3 / A@A2\n"), "rgn-move", 5, 4, "a move for the wrong side");
  ExpectFinding(ValidateRgn(head + "2. C2C1 *\n"), "rgn-move", 5, 4, "a dark move in light's turn");
  ExpectFinding(ValidateRgn(head + "2. A@A2\n3. A@A1\n"), "wrong-side", 6, 4, "a light turn where dark moves");
  ExpectFinding(ValidateRgn(head + "2. A@A1 / C@C3\n"), "missing-extra-throw", 5, 11,
                "a rosette's extra throw given to dark");
  ExpectFinding(ValidateRgn(head + "2. A@A2 C@C3\n"), "rgn-move", 5, 9, "a dark move without '/'");
  ExpectFinding(ValidateRgn(head + "2. A@A2 2 --\n"), "turn-passed", 5, 9, "a dark throw without '/'");
  ExpectFinding(ValidateRgn(head + "2. A4A3 / C2C1 *\n3. A@A2 / C@C3\n"), "missing-extra-throw", 6, 4,
                "dark's rosette throw given to light");
  ExpectFinding(ValidateRgn(head + "3. A@A2 / C@C3\n"), "turn-number", 5, 4, "turn numbers");
  ExpectFinding(ValidateRgn(head + "2. A@A2x / C@C3\n"), "marker-capture", 5, 4, "x without a capture");
  ExpectFinding(ValidateRgn(head + "2. A@A2 * / C@C3\n"), "marker-rosette", 5, 4, "* off a rosette");
  ExpectFinding(ValidateRgn(head + "2. A@A2# / C@C3\n"), "marker-end", 5, 4, "# before the end");
  ExpectFinding(ValidateRgn(head + "2. A@A4 / C@C3\n"), "move-illegal", 5, 4, "onto its own piece");
  ExpectFinding(ValidateRgn(head + "2. A4B2 / C@C3\n"), "roll-impossible", 5, 4, "a throw of 5");
  ExpectFinding(ValidateRgn(head + "2. A3A4 / C@C3\n"), "rgn-move", 5, 4, "backwards");
  ExpectFinding(ValidateRgn(head + "2. 7 -- / C@C3\n"), "roll-impossible", 5, 4, "a pass of 7");
  ExpectFinding(ValidateRgn(head + "2. 3 / C@C3\n"), "rgn-syntax", 5, 6, "a throw without --");
  ExpectFinding(ValidateRgn(head + "2. / C@C3\n"), "rgn-syntax", 5, 1, "an empty turn");
  ExpectFinding(ValidateRgn(head + "2. A@A2 / C@C3 %\n"), "rgn-syntax", 5, 16, "garbage");
  ExpectFinding(ValidateRgn("[Light RandomAgent\n\n1. A@A4\n"), "rgn-syntax", 1, 19, "an open tag");
  ExpectFinding(ValidateRgn("[Light \"Random\n\n1. A@A4\n"), "rgn-syntax", 1, 1, "an open quote");
  ExpectFinding(ValidateRgn("[Light A]\n[Light B]\n\n1. A@A4\n"), "rgn-syntax", 2, 1, "a tag twice");
  ExpectFinding(ValidateRgn("A@A4 / C@C2\n"), "rgn-syntax", 1, 1, "no turn number");
  ExpectFinding(ValidateRgn(head, ""), "ruleset-missing", 1, 1, "no ruleset");
  ExpectFinding(ValidateRgn(head, "nosuch"), "ruleset-unknown", 1, 1, "an unknown ruleset");
  EXPECT_TRUE(absl::StrContains(ValidateRgn(head, "").findings(0).message(), "--ruleset"));
  // A game that stops part way is legal so far.
  EXPECT_TRUE(ValidateRgn(head + "2. A4A3 / C2C1 *").valid()) << Describe(ValidateRgn(head + "2. A4A3 / C2C1 *"));
  // Windows line ends.
  EXPECT_TRUE(ValidateRgn("[Light X]\r\n\r\n1. A@A4 / C@C2\r\n2. A@A2 / C@C3\r\n").valid());
}

TEST(RgnReadTest, ManyGamesFindingsNameTheGame) {
  const std::string good = "[Light A]\n\n1. A@A4 / C@C2\n";
  const std::string bad = "[Light B]\n\n1. A@A4 / C@C2\n2. A@A9\n";
  const v1::FileReport report = ValidateRgn(good + "\n" + bad + "\n" + good);
  ExpectEveryFindingPlaced(report, "three games");
  ASSERT_EQ(report.findings_size(), 1) << Describe(report);
  EXPECT_EQ(report.findings(0).record_index(), 1);
  EXPECT_EQ(report.findings(0).line(), 8);
  const ParsedRecords parsed = ReadRgn(good + "\n" + bad + "\n" + good, IoFor("finkel"));
  EXPECT_EQ(parsed.entries, 3);
  EXPECT_EQ(parsed.records.size(), 2u);
  // Without a ruleset, every game says so.
  const ParsedRecords none = ReadRgn(good + "\n" + bad + "\n" + good, IoFor(""));
  ASSERT_EQ(none.findings.size(), 3u);
  for (const v1::Finding& f : none.findings) EXPECT_EQ(f.code(), "ruleset-missing");
}

TEST(RgnReadTest, EveryTruncationAndGarbageGivesPlacedFindingsNeverACrash) {
  for (const char* name : {"finkel-1.rgn", "masters-10.rgn", "aseb-3.rgn"}) {
    const std::string text = ReadTestFile(std::string("royalur/") + name);
    const std::string ruleset = std::string(name).substr(0, std::string(name).find('-'));
    for (size_t n = 0; n <= text.size(); ++n) {
      const v1::FileReport report = ValidateRgn(text.substr(0, n), ruleset);
      if (report.valid()) continue;
      ExpectEveryFindingPlaced(report, absl::StrCat(name, " cut at ", n));
    }
  }
  Rng rng(1);
  const std::string alphabet = "ABC@+x*#-/. 0123456789\n[]\"\\\r\t";
  const std::string text = ReadTestFile("royalur/blitz-3.rgn");
  for (int round = 0; round < 3000; ++round) {
    std::string garbled = text;
    const int edits = 1 + rng.Below(4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng.Below(static_cast<int>(garbled.size()));
      const int kind = rng.Below(3);
      const char c = round % 5 == 0 ? static_cast<char>(rng.Below(256)) : alphabet[rng.Below(alphabet.size())];
      if (kind == 0) garbled[at] = c;
      else if (kind == 1) garbled.insert(at, 1, c);
      else garbled.erase(at, 1);
    }
    const v1::FileReport report = ValidateRgn(garbled, "blitz");
    if (!report.valid()) ExpectEveryFindingPlaced(report, absl::StrCat("garbled ", round));
    if (report.valid()) {
      // What reads as legal writes back.
      const ParsedRecords parsed = ReadRgn(garbled, IoFor("blitz"));
      EXPECT_TRUE(WriteRecords(Format::kRgn, parsed.records).ok()) << garbled;
    }
  }
  for (int round = 0; round < 200; ++round) {
    std::string bytes(static_cast<size_t>(rng.Below(300)), '\0');
    for (char& c : bytes) c = static_cast<char>(rng.Below(256));
    const v1::FileReport report = ValidateRgn(bytes);
    if (!report.valid()) ExpectEveryFindingPlaced(report, "random bytes");
  }
}

TEST(RoyalUrJsonReadTest, FindingsWithLineAndColumn) {
  const std::string text = ReadTestFile("royalur/finkel-1.json");
  const nlohmann::json original = nlohmann::json::parse(text);
  // Pretty-printed, so that line numbers mean something.
  auto pretty = [](const nlohmann::json& j) { return j.dump(1); };
  auto line_of = [](const std::string& s, const std::string& needle, int nth) {
    size_t at = 0;
    for (int k = 0; k <= nth; ++k) at = s.find(needle, k == 0 ? 0 : at + 1);
    return static_cast<int>(std::count(s.begin(), s.begin() + static_cast<long>(at), '\n')) + 1;
  };
  {
    // A state for the wrong side: turn and pieces both dark's.
    nlohmann::json j = original;
    j["states"][2]["turn"] = "D";
    j["states"][2]["move"]["dest"] = -3;
    const std::string s = pretty(j);
    const v1::FileReport report = ValidateRoyalUrJson(s);
    ExpectEveryFindingPlaced(report, "wrong side");
    EXPECT_EQ(report.findings(0).code(), "turn-passed") << Describe(report);
    EXPECT_EQ(report.findings(0).action_index(), 2);
    EXPECT_EQ(report.findings(0).line(), line_of(s, "\"move\":", 2) - 1) << Describe(report);
  }
  {
    nlohmann::json j = original;
    j["states"][0]["move"]["dest"] = -1;  // a dark piece on light's turn
    const v1::FileReport report = ValidateRoyalUrJson(pretty(j));
    ExpectEveryFindingPlaced(report, "sign");
    EXPECT_EQ(report.findings(0).code(), "royalur-json") << Describe(report);
    EXPECT_TRUE(absl::StrContains(report.findings(0).message(), "states[0].move.dest")) << Describe(report);
  }
  {
    nlohmann::json j = original;
    j["states"][2]["move"]["dest"] = 4;  // a throw of 3 moving 4
    const std::string s = pretty(j);
    const v1::FileReport report = ValidateRoyalUrJson(s);
    ExpectEveryFindingPlaced(report, "illegal");
    EXPECT_EQ(report.findings(0).code(), "move-roll-mismatch") << Describe(report);
    EXPECT_EQ(report.findings(0).line(), line_of(s, "\"move\":", 2) - 1) << Describe(report);
  }
  for (const auto& [what, edit, code] : std::vector<std::tuple<std::string, std::function<void(nlohmann::json&)>,
                                                               std::string>>{
           {"no captured", [](nlohmann::json& j) { j["states"][9]["move"].erase("captured"); }, "marker-capture"},
           {"wrong captured", [](nlohmann::json& j) { j["states"][9]["move"]["captured"] = -5; }, "marker-capture"},
           {"captured nothing", [](nlohmann::json& j) { j["states"][8]["move"]["captured"] = 4; }, "marker-capture"},
           {"wrong winner", [](nlohmann::json& j) { j["states"].back()["winner"] = "D"; }, "marker-end"},
           {"no win state", [](nlohmann::json& j) { j["states"].erase(j["states"].size() - 1); }, "marker-end"},
           {"early win", [](nlohmann::json& j) { j["states"][5] = {{"type", "win"}, {"winner", "L"}}; }, "royalur-json"},
           {"unknown state", [](nlohmann::json& j) { j["states"][5]["type"] = "jump"; }, "royalur-json"},
           {"a throw of 20", [](nlohmann::json& j) { j["states"][5]["roll"]["value"] = 20; }, "royalur-json"},
           {"no settings", [](nlohmann::json& j) { j.erase("settings"); }, "royalur-json"},
           {"metadata not strings", [](nlohmann::json& j) { j["metadata"]["Light"] = 3; }, "royalur-json"},
           {"version 3", [](nlohmann::json& j) { j["notation_version"] = 3; }, "royalur-json"},
           {"a pending throw", [](nlohmann::json& j) {
              j["states"].erase(j["states"].size() - 1);
              j["states"].back() = {{"type", "wait4move"}, {"turn", "L"}, {"roll", {{"value", 3}}}, {"moves", {}}};
            }, "royalur-unsupported"},
           {"a broken set-up", [](nlohmann::json& j) { j["initial_state"]["board"]["pieces"]["A4"] = -1; },
            "royalur-json"},
       }) {
    nlohmann::json j = original;
    edit(j);
    const v1::FileReport report = ValidateRoyalUrJson(pretty(j));
    ExpectEveryFindingPlaced(report, what);
    EXPECT_EQ(report.findings(0).code(), code) << what << "\n" << Describe(report);
  }
  // The metadata key may be missing (RoyalUr leaves it out when empty).
  nlohmann::json no_metadata = original;
  no_metadata.erase("metadata");
  EXPECT_TRUE(ValidateRoyalUrJson(no_metadata.dump()).valid());
  ExpectFinding(ValidateRoyalUrJson("{\"notation_version\":2,\n  \"settings\": [1,2"), "json-syntax", 2, 19, "cut");
  ExpectFinding(ValidateRoyalUrJson("[]"), "no-records", 1, 1, "empty array");
  ExpectFinding(ValidateRoyalUrJson("7"), "royalur-json", 1, 1, "a number");
  ExpectFinding(ValidateRoyalUrJson(std::string("{\"a\":1}\0", 8)), "json-syntax", 1, 8, "a NUL");
  ExpectFinding(ValidateRoyalUrJson("{\"notation_version\":2,\"metadata\":" + std::string(200, '[') +
                                    std::string(200, ']') + "}"),
                "royalur-json", 1, 65, "deep");
}

TEST(RoyalUrJsonReadTest, EveryTruncationAndGarbageGivesPlacedFindingsNeverACrash) {
  const std::string text = ReadTestFile("royalur/masters-4.json");
  for (size_t n = 0; n < text.size(); n += 3) {
    const v1::FileReport report = ValidateRoyalUrJson(text.substr(0, n));
    ExpectEveryFindingPlaced(report, absl::StrCat("cut at ", n));
  }
  Rng rng(2);
  const std::string alphabet = "{}[]\":,-0123456789 \nLDtrufalsenl\\";
  for (int round = 0; round < 3000; ++round) {
    std::string garbled = text;
    const int edits = 1 + rng.Below(3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng.Below(static_cast<int>(garbled.size()));
      const char c = round % 5 == 0 ? static_cast<char>(rng.Below(256)) : alphabet[rng.Below(alphabet.size())];
      const int kind = rng.Below(3);
      if (kind == 0) garbled[at] = c;
      else if (kind == 1) garbled.insert(at, 1, c);
      else garbled.erase(at, 1);
    }
    const v1::FileReport report = ValidateRoyalUrJson(garbled);
    if (!report.valid()) {
      ExpectEveryFindingPlaced(report, absl::StrCat("garbled ", round));
    } else {
      const ParsedRecords parsed = ReadRoyalUrJson(garbled);
      EXPECT_TRUE(WriteRecords(Format::kRoyalUrJson, parsed.records).ok()) << garbled;
    }
  }
  // Values of every type where the game has its parts.
  const nlohmann::json original = nlohmann::json::parse(text);
  const std::vector<nlohmann::json> values = {nullptr, true, 3, -7, 2.5, "x", nlohmann::json::array(),
                                              nlohmann::json::object(), {{"value", 2}}, {1, 2}};
  const std::vector<std::vector<std::string>> paths = {
      {"notation_version"}, {"metadata"}, {"settings"}, {"settings", "start_pieces"}, {"initial_state"},
      {"initial_state", "board"}, {"initial_state", "players"}, {"initial_state", "players", "L"},
      {"initial_state", "turn"}, {"initial_state", "time"}, {"states"}};
  for (const auto& path : paths) {
    for (const nlohmann::json& v : values) {
      nlohmann::json j = original;
      nlohmann::json* at = &j;
      for (const std::string& key : path) at = &(*at)[key];
      *at = v;
      const v1::FileReport report = ValidateRoyalUrJson(j.dump());
      if (!report.valid()) ExpectEveryFindingPlaced(report, absl::StrCat(absl::StrJoin(path, "."), " = ", v.dump()));
    }
  }
  for (size_t k : {0, 5, 40}) {
    for (const char* key : {"type", "turn", "roll", "move", "time", "metadata"}) {
      for (const nlohmann::json& v : values) {
        nlohmann::json j = original;
        j["states"][k][key] = v;
        const v1::FileReport report = ValidateRoyalUrJson(j.dump());
        if (!report.valid()) ExpectEveryFindingPlaced(report, absl::StrCat("states[", k, "].", key));
      }
    }
  }
}

TEST(RoyalUrDetectTest, ByNameAndByContent) {
  const std::string rgn = ReadTestFile("royalur/finkel-1.rgn");
  const std::string royalur = ReadTestFile("royalur/finkel-1.json");
  const std::string scribe_json = R"({"ruleset":"finkel","tags":{"notation_version":"2"},"actions":[]})";
  EXPECT_EQ(DetectFormat("a.rgn", rgn), Format::kRgn);
  EXPECT_EQ(DetectFormat("a.RGN", ""), Format::kRgn);
  EXPECT_EQ(DetectFormat("a.json", royalur), Format::kRoyalUrJson);
  EXPECT_EQ(DetectFormat("a.json", scribe_json), Format::kJson);
  EXPECT_EQ(DetectFormat("-", scribe_json), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "[" + royalur + "]"), Format::kRoyalUrJson);
  EXPECT_EQ(DetectFormat("-", "1. 2 -- / C@C2\n"), Format::kRgn);
  EXPECT_EQ(DetectFormat("-", "[TSN \"1\"]\n[Ruleset \"finkel\"]\n\n1. L 3:0-3\n"), Format::kTsn);
  EXPECT_EQ(DetectFormat("-", "hello"), Format::kTsn);
  EXPECT_EQ(FormatFromName("rgn"), Format::kRgn);
  EXPECT_EQ(FormatFromName("royalur-json"), Format::kRoyalUrJson);
  const std::vector<std::string> names = FormatNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "rgn"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "royalur-json"), names.end());
}

}  // namespace
}  // namespace scribe
