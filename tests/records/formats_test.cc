// Every record format behind one interface (records/formats.h): names,
// detection by file name and by content, reading and writing per format,
// and the validation of a whole file.
#include "records/formats.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/ruleset.h"
#include "gtest/gtest.h"
#include "records/json_record.h"
#include "records/random_game.h"
#include "records/referee.h"
#include "records/tsn.h"

namespace scribe {
namespace {

constexpr Format kAll[] = {Format::kTsn, Format::kJson, Format::kRgn, Format::kRoyalUrJson};

std::string Codes(const v1::FileReport& report) {
  std::string out;
  for (const v1::Finding& f : report.findings()) absl::StrAppend(&out, f.ShortDebugString(), "\n");
  return out;
}

// A random finished finkel game, which every format can hold (no throw-off,
// light first, no comments), with the roster.
v1::GameRecord FinkelGame(uint64_t seed) {
  auto rules = LoadRuleset("finkel");
  EXPECT_TRUE(rules.ok());
  Rng rng(seed);
  RandomGameOptions options;
  options.ruleset = "finkel";
  options.tags = {{"Light", "Ann"}, {"Dark", "Bo"}};
  RandomGameResult game = PlayRandomGame(**rules, rng, options);
  EXPECT_TRUE(game.over);
  return game.record;
}

std::vector<std::string> Moves(const v1::GameRecord& record) {
  std::vector<std::string> out;
  for (const v1::Action& a : record.actions()) out.push_back(a.ShortDebugString());
  return out;
}

TEST(FormatNamesTest, NamesRoundTrip) {
  EXPECT_EQ(FormatNames(), (std::vector<std::string>{"tsn", "json", "rgn", "royalur-json"}));
  for (Format f : kAll) {
    EXPECT_EQ(FormatFromName(FormatName(f)), f) << FormatName(f);
  }
  for (const std::string& name : FormatNames()) EXPECT_EQ(FormatName(*FormatFromName(name)), name);
  for (const char* bad : {"", "TSN", "Json", "royalur_json", "royalur", "pgn", " tsn"}) {
    EXPECT_EQ(FormatFromName(bad), std::nullopt) << bad;
  }
}

TEST(DetectFormatTest, ByExtension) {
  // The extension wins over the content, in any case.
  EXPECT_EQ(DetectFormat("game.tsn", "{\"ruleset\": \"finkel\"}"), Format::kTsn);
  EXPECT_EQ(DetectFormat("GAME.TSN", ""), Format::kTsn);
  EXPECT_EQ(DetectFormat("dir/game.rgn", "{}"), Format::kRgn);
  EXPECT_EQ(DetectFormat("game.Rgn", "[Ruleset \"finkel\"]"), Format::kRgn);
  EXPECT_EQ(DetectFormat("game.json", "[Ruleset \"finkel\"]"), Format::kJson);
  EXPECT_EQ(DetectFormat("game.json", "{\"ruleset\": \"finkel\"}"), Format::kJson);
  EXPECT_EQ(DetectFormat("game.JSON", "{\"notation_version\": 2, \"moves\": []}"), Format::kRoyalUrJson);
  // Not an extension: by content.
  EXPECT_EQ(DetectFormat("game.tsn.txt", "{}"), Format::kJson);
  EXPECT_EQ(DetectFormat("json", "1. L 2:0-2"), Format::kTsn);
}

TEST(DetectFormatTest, ByContent) {
  EXPECT_EQ(DetectFormat("-", "{\"ruleset\": \"finkel\"}"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "  \n\t{}"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "[{\"ruleset\": \"finkel\"}, {}]"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "[ \n ]"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", " [\n  {}]"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "{\"notation_version\": 2}"), Format::kRoyalUrJson);
  EXPECT_EQ(DetectFormat("-", "[{\"notation_version\": 2}, {\"notation_version\": 2}]"), Format::kRoyalUrJson);
  // "notation_version" only counts as a key of a game object, not inside a
  // value or deeper.
  EXPECT_EQ(DetectFormat("-", "{\"tags\": {\"notation_version\": \"2\"}}"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "{\"comment\": \"notation_version\"}"), Format::kJson);
  // '[' then a letter is a TSN tag, not a JSON array.
  EXPECT_EQ(DetectFormat("-", "[TSN \"1\"]\n[Ruleset \"finkel\"]\n\n1. L 2:0-2\n"), Format::kTsn);
  EXPECT_EQ(DetectFormat("-", "[Ruleset \"finkel\"]\n"), Format::kTsn);
  EXPECT_EQ(DetectFormat("-", "1. L 3:0-3 D 2:0-2\n"), Format::kTsn);
  // RGN: RoyalUr's moves after the turn number, or a '/' line.
  EXPECT_EQ(DetectFormat("-", "[Light \"Ann\"]\n\n1. A@A4 C@C2\n"), Format::kRgn);
  EXPECT_EQ(DetectFormat("-", "1. A4B1\n"), Format::kRgn);
  EXPECT_EQ(DetectFormat("-", "1. 2 -- / C@C2\n"), Format::kRgn);
  EXPECT_EQ(DetectFormat("-", "/ C@C2\n"), Format::kRgn);
  // Nothing to tell by: TSN.
  EXPECT_EQ(DetectFormat("-", ""), Format::kTsn);
  EXPECT_EQ(DetectFormat("-", "hello"), Format::kTsn);
}

// What each format writes, DetectFormat names and ReadRecords reads back
// to the same game.
TEST(ReadWriteRecordsTest, EveryFormatWritesAndReadsItsOwn) {
  const std::vector<v1::GameRecord> games = {FinkelGame(1), FinkelGame(2), FinkelGame(3)};
  RulesPolicy io;
  io.ruleset = "finkel";
  for (Format format : kAll) {
    SCOPED_TRACE(FormatName(format));
    for (size_t n : {size_t{1}, games.size()}) {
      const std::vector<v1::GameRecord> some(games.begin(), games.begin() + n);
      const absl::StatusOr<std::string> text = WriteRecords(format, some);
      ASSERT_TRUE(text.ok()) << text.status();
      EXPECT_EQ(DetectFormat("-", *text), format) << text->substr(0, 200);
      const ParsedRecords parsed = ReadRecords(format, *text, io);
      EXPECT_TRUE(parsed.findings.empty()) << parsed.findings.size() << " findings, first: "
                                           << (parsed.findings.empty() ? "" : parsed.findings[0].message());
      ASSERT_EQ(parsed.records.size(), n);
      EXPECT_EQ(parsed.entries, static_cast<int>(n));
      for (size_t k = 0; k < n; ++k) EXPECT_EQ(Moves(parsed.records[k]), Moves(some[k])) << k;
      const v1::FileReport report = ValidateFile("-", *text, format, io).report;
      EXPECT_TRUE(report.valid()) << Codes(report);
    }
  }
}

TEST(ReadWriteRecordsTest, DispatchIsPerFormat) {
  const v1::GameRecord game = FinkelGame(4);
  // JSON is WriteJsonRecord's line, and an array of lines for more.
  EXPECT_EQ(*WriteRecords(Format::kJson, {game}), WriteJsonRecord(game) + "\n");
  EXPECT_EQ(*WriteRecords(Format::kJson, {game, game}),
            absl::StrCat("[", WriteJsonRecord(game), ",\n", WriteJsonRecord(game), "]\n"));
  // TSN as WriteTsn writes it, path numbers unless tile names are asked for.
  EXPECT_EQ(*WriteRecords(Format::kTsn, {game}), *WriteTsn({game}, TsnWriteOptions()));
  WriteOptions tiles;
  tiles.tile_names = true;
  TsnWriteOptions tile_options;
  tile_options.squares = SquareStyle::kTiles;
  EXPECT_EQ(*WriteRecords(Format::kTsn, {game}, tiles), *WriteTsn({game}, tile_options));
  EXPECT_NE(*WriteRecords(Format::kTsn, {game}, tiles), *WriteRecords(Format::kTsn, {game}));
  // Each reader is the format's own: JSON read as TSN is not a record.
  const std::string json = *WriteRecords(Format::kJson, {game});
  EXPECT_EQ(ReadRecords(Format::kJson, json).records.size(), 1u);
  EXPECT_TRUE(ReadRecords(Format::kTsn, json).records.empty() || !ReadRecords(Format::kTsn, json).findings.empty());
  EXPECT_FALSE(ReadRecords(Format::kRoyalUrJson, json).findings.empty());
}

// JudgeEach reads the next game where the callee left the record: into the
// record itself when it took nothing, into a spare it gave back (a game
// held from earlier, with tags, comments and actions of its own), or into
// an empty one when it took the record. Each way every record comes out
// as JudgeFile reads it, nothing of another game left in it.
TEST(JudgeEachTest, TheNextGameIsReadCleanWhateverTheCalleeLeft) {
  std::vector<v1::GameRecord> games;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    v1::GameRecord g = FinkelGame(seed);
    if (seed % 2 == 1) (*g.mutable_tags())["Event"] = absl::StrCat("round ", seed);
    games.push_back(std::move(g));
  }
  v1::GameRecord stranger = FinkelGame(9);
  (*stranger.mutable_tags())["Site"] = "elsewhere";
  stranger.set_comment("a comment of another game");
  stranger.mutable_actions(0)->set_comment("and of its first action");
  RulesPolicy policy;
  policy.ruleset = "finkel";  // (RGN names none)
  for (Format format : kAll) {
    absl::StatusOr<std::string> text = WriteRecords(format, games);
    ASSERT_TRUE(text.ok()) << FormatName(format) << ": " << text.status();
    const JudgedFile whole = JudgeFile("games", *text, format, policy);
    ASSERT_EQ(whole.records.size(), games.size()) << FormatName(format) << Codes(whole.report);
    for (int way = 0; way < 3; ++way) {
      std::vector<v1::GameRecord> seen;
      const JudgedFile file = JudgeEach("games", *text, format, policy, {}, [&](JudgedRecord&& judged, bool legal) {
        EXPECT_TRUE(legal) << FormatName(format) << " record " << judged.index;
        seen.push_back(judged.record);
        if (way == 1) judged.record = stranger;                              // a spare given back
        if (way == 2) v1::GameRecord taken = std::move(judged.record);  // taken
      });
      EXPECT_TRUE(file.report.valid()) << FormatName(format) << Codes(file.report);
      ASSERT_EQ(seen.size(), games.size()) << FormatName(format) << " way " << way;
      for (size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(seen[i].ShortDebugString(), whole.records[i].record.ShortDebugString())
            << FormatName(format) << " way " << way << " record " << i;
      }
    }
  }
}

TEST(ValidateFileTest, AValidFile) {
  const std::string text = *WriteRecords(Format::kTsn, {FinkelGame(5)});
  const JudgedFile file = ValidateFile("game.tsn", text, Format::kTsn);
  const v1::FileReport& report = file.report;
  const int entries = file.entries;
  EXPECT_TRUE(report.valid()) << Codes(report);
  EXPECT_EQ(report.findings_size(), 0);
  EXPECT_EQ(report.file(), "game.tsn");
  EXPECT_EQ(entries, 1);
}

TEST(ValidateFileTest, AnEmptyFileHoldsNoRecords) {
  for (Format format : {Format::kTsn, Format::kRgn}) {
    const JudgedFile file = ValidateFile("empty", "", format);
    const v1::FileReport& report = file.report;
    const int entries = file.entries;
    EXPECT_FALSE(report.valid()) << FormatName(format);
    ASSERT_EQ(report.findings_size(), 1) << Codes(report);
    EXPECT_EQ(report.findings(0).code(), "no-records");
    EXPECT_FALSE(report.findings(0).has_record_index());
    EXPECT_EQ(entries, 0);
  }
  // An empty JSON array: the same code, from the reader.
  const v1::FileReport array = ValidateFile("empty.json", "[]", Format::kJson).report;
  EXPECT_FALSE(array.valid());
  ASSERT_EQ(array.findings_size(), 1) << Codes(array);
  EXPECT_EQ(array.findings(0).code(), "no-records");
}

TEST(ValidateFileTest, OneBadRecordAmongSeveral) {
  std::vector<v1::GameRecord> games = {FinkelGame(6), FinkelGame(7), FinkelGame(8), FinkelGame(9)};
  // Game 2 throws a 7, which no finkel throw is (the text writers refuse
  // to write it: JSON holds it).
  games[2].mutable_actions(3)->set_roll(7);
  EXPECT_FALSE(WriteRecords(Format::kTsn, games).ok());
  for (Format format : {Format::kJson}) {
    SCOPED_TRACE(FormatName(format));
    const absl::StatusOr<std::string> text = WriteRecords(format, games);
    ASSERT_TRUE(text.ok()) << text.status();
    const JudgedFile file = ValidateFile("games", *text, format);
    const v1::FileReport& report = file.report;
    const int entries = file.entries;
    EXPECT_FALSE(report.valid());
    EXPECT_EQ(entries, 4);
    ASSERT_GT(report.findings_size(), 0);
    for (const v1::Finding& f : report.findings()) {
      EXPECT_TRUE(f.has_record_index()) << f.ShortDebugString();
      EXPECT_EQ(f.record_index(), 2) << f.ShortDebugString();
    }
    // The same game alone: its findings name no record.
    const v1::FileReport alone = ValidateFile("game", *WriteRecords(format, {games[2]}), format).report;
    EXPECT_FALSE(alone.valid());
    ASSERT_GT(alone.findings_size(), 0);
    for (const v1::Finding& f : alone.findings()) EXPECT_FALSE(f.has_record_index()) << f.ShortDebugString();
  }
}

TEST(ValidateFileTest, EntriesCountEveryRecordReadOrNot) {
  const std::string good = WriteJsonRecord(FinkelGame(10));
  const std::string text = absl::StrCat("[", good, ", 3, ", good, ", {\"nope\": 1}]");
  const JudgedFile file = ValidateFile("x.json", text, Format::kJson);
  const v1::FileReport& report = file.report;
  const int entries = file.entries;
  EXPECT_EQ(entries, 4);
  EXPECT_FALSE(report.valid());
  std::vector<int> indices;
  for (const v1::Finding& f : report.findings()) indices.push_back(f.record_index());
  EXPECT_EQ(indices, (std::vector<int>{1, 3})) << Codes(report);
  // Judged keeping the records, the report is the same.
  const v1::FileReport again = JudgeFile("x.json", text, Format::kJson).report;
  EXPECT_EQ(again.ShortDebugString(), report.ShortDebugString());
}

}  // namespace
}  // namespace scribe
