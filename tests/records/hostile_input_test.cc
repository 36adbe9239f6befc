// Hostile and careless inputs to every reader and writer of records
// (tests/data/hostile/): text is never changed silently (bytes that are not
// UTF-8 are a finding at their line and column, and every writer refuses
// them), and a JSON key given twice is a finding, in our JSON (both
// readers) and RoyalUr's.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "records/finding_codes.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "records/judged.h"
#include "tests/common/test_data.h"

namespace scribe {
namespace {

using testing::ReadTestFile;

struct Where {
  std::string code;
  int line = 0;
  int column = 0;
};

std::string Describe(const v1::FileReport& report) {
  std::string out;
  for (const v1::Finding& f : report.findings()) out += f.ShortDebugString() + "\n";
  return out;
}

// The report of a file read and judged as `format`, under `ruleset` for
// formats that name none.
v1::FileReport Judge(const std::string& text, Format format, const std::string& ruleset = "") {
  RulesPolicy io;
  io.ruleset = ruleset;
  return ValidateFile("input", text, format, io).report;
}

void ExpectOnlyFinding(const v1::FileReport& report, const Where& want, const std::string& text) {
  ASSERT_EQ(report.findings_size(), 1) << Describe(report) << "input: " << text;
  const v1::Finding& f = report.findings(0);
  EXPECT_EQ(f.code(), want.code) << f.ShortDebugString();
  EXPECT_EQ(f.line(), want.line) << f.ShortDebugString();
  EXPECT_EQ(f.column(), want.column) << f.ShortDebugString();
  EXPECT_FALSE(report.valid());
}

// A legal record no written form would refuse, but for its text.
v1::GameRecord LegalRecord() {
  v1::GameRecord record;
  record.set_ruleset("finkel");
  record.add_actions()->set_roll(0);
  (*record.mutable_tags())["Light"] = "Ann";
  return record;
}

// --- text that is not UTF-8 -----------------------------------------------

TEST(HostileInputTest, TsnTagOrCommentNotUtf8IsAFindingAtTheByte) {
  const std::string tag = ReadTestFile("hostile/latin1-tag.tsn");
  ASSERT_FALSE(tag.empty());
  ExpectOnlyFinding(Judge(tag, Format::kTsn), {"text-not-utf8", 2, 12}, tag);
  const std::string comment = ReadTestFile("hostile/latin1-comment.tsn");
  ExpectOnlyFinding(Judge(comment, Format::kTsn), {"text-not-utf8", 3, 14}, comment);
  // A sequence cut short before the closing quote, and a stray
  // continuation byte in the record's comment.
  ExpectOnlyFinding(Judge("[Ruleset \"finkel\"]\n[Event \"Caf\xc3\"]\n\n1. L 0:-\n", Format::kTsn),
                    {"text-not-utf8", 2, 12}, "truncated");
  ExpectOnlyFinding(Judge("[Ruleset \"finkel\"]\n{ok \x80}\n1. L 0:-\n", Format::kTsn), {"text-not-utf8", 2, 5},
                    "continuation");
  // Only the game that holds it is skipped.
  const v1::FileReport two = Judge(tag + "\n[Ruleset \"finkel\"]\n\n1. L 0:-\n", Format::kTsn);
  ASSERT_EQ(two.findings_size(), 1) << Describe(two);
  EXPECT_EQ(two.findings(0).record_index(), 0);
}

TEST(HostileInputTest, RgnTagNotUtf8IsAFindingAtTheByte) {
  const std::string text = ReadTestFile("hostile/latin1-tag.rgn");
  ASSERT_FALSE(text.empty());
  ExpectOnlyFinding(Judge(text, Format::kRgn, "finkel"), {"text-not-utf8", 1, 12}, text);
  // In a plain (unquoted) value and in a name.
  ExpectOnlyFinding(Judge("[Light Caf\xe9]\n\n1. 0 --\n", Format::kRgn, "finkel"), {"text-not-utf8", 1, 11}, "plain");
  ExpectOnlyFinding(Judge("[Li\xffght Ann]\n\n1. 0 --\n", Format::kRgn, "finkel"), {"text-not-utf8", 1, 4}, "name");
}

TEST(HostileInputTest, JsonNotUtf8IsAFindingAtTheByteInBothReaders) {
  const std::string text = ReadTestFile("hostile/latin1-tag.json");
  ASSERT_FALSE(text.empty());
  const int column = static_cast<int>(text.find('\xe9')) + 1;
  ExpectOnlyFinding(Judge(text, Format::kJson), {"text-not-utf8", 1, column}, text);
  ParsedRecords fast;
  EXPECT_FALSE(ParseJsonRecordsFast(text, &fast));
  const ParsedRecords general = ParseJsonRecordsGeneral(text);
  ASSERT_EQ(general.findings.size(), 1u);
  EXPECT_EQ(general.findings[0].code(), "text-not-utf8");
  EXPECT_TRUE(general.records.empty());
}

TEST(HostileInputTest, RoyalUrJsonNotUtf8IsAFindingAtTheByte) {
  const std::string text = ReadTestFile("hostile/royalur-latin1-metadata.json");
  ASSERT_FALSE(text.empty());
  const int column = static_cast<int>(text.find('\xe9')) + 1;
  ExpectOnlyFinding(Judge(text, Format::kRoyalUrJson), {"text-not-utf8", 1, column}, text);
}

TEST(HostileInputTest, Utf8TextIsCarriedExactlyThroughEveryFormat) {
  v1::GameRecord record = LegalRecord();
  (*record.mutable_tags())["Event"] = "Caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x8e\xb2";
  for (const std::string& name : FormatNames()) {
    const Format format = *FormatFromName(name);
    auto text = WriteRecords(format, std::vector<v1::GameRecord>{record});
    ASSERT_TRUE(text.ok()) << name << ": " << text.status();
    RulesPolicy io;
    io.ruleset = "finkel";
    const JudgedFile back = JudgeFile("back", *text, format, io);
    ASSERT_EQ(back.records.size(), 1u) << name << ": " << Describe(back.report) << *text;
    EXPECT_EQ(back.records[0].record.tags().at("Event"), record.tags().at("Event")) << name;
  }
}

TEST(HostileInputTest, EveryWriterRefusesTextThatIsNotUtf8AndNamesTheField) {
  v1::GameRecord tag = LegalRecord();
  (*tag.mutable_tags())["Event"] = "Caf\xe9";
  v1::GameRecord comment = LegalRecord();
  comment.mutable_actions(0)->set_comment("Caf\xe9");
  for (const std::string& name : FormatNames()) {
    const Format format = *FormatFromName(name);
    auto refused = WriteRecords(format, std::vector<v1::GameRecord>{tag});
    ASSERT_FALSE(refused.ok()) << name << " wrote: " << *refused;
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << name;
    EXPECT_TRUE(absl::StrContains(refused.status().message(), "tags[\"Event\"] is not UTF-8 text"))
        << name << ": " << refused.status();
    // The second of two records: named as such.
    auto second = WriteRecords(format, std::vector<v1::GameRecord>{LegalRecord(), tag});
    ASSERT_FALSE(second.ok()) << name;
    EXPECT_TRUE(absl::StartsWith(second.status().message(), "record 1: ")) << name << ": " << second.status();
  }
  // Formats that carry comments name the action's.
  for (const Format format : {Format::kTsn, Format::kJson}) {
    auto refused = WriteRecords(format, std::vector<v1::GameRecord>{comment});
    ASSERT_FALSE(refused.ok()) << FormatName(format);
    EXPECT_TRUE(absl::StrContains(refused.status().message(), "actions[0].comment is not UTF-8 text"))
        << refused.status();
  }
}

// --- keys given twice in JSON ------------------------------------------------

TEST(HostileInputTest, JsonKeyTwiceIsAFindingAtTheSecondKey) {
  struct Case {
    std::string file;
    std::string key;  // as written the second time
  };
  const Case cases[] = {
      {"hostile/duplicate-actions.json", "\"actions\""},
      {"hostile/duplicate-roll.json", "\"roll\""},
      {"hostile/duplicate-opening.json", "\"light\""},
      {"hostile/duplicate-escaped.json", "\"\\u0072uleset\""},
  };
  for (const Case& c : cases) {
    const std::string text = ReadTestFile(c.file);
    ASSERT_FALSE(text.empty()) << c.file;
    ExpectOnlyFinding(Judge(text, Format::kJson),
                      {"json-duplicate-key", 1, static_cast<int>(text.rfind(c.key)) + 1}, c.file);
    // Neither reader reads it: the fast one gives up, the general one
    // reports it.
    ParsedRecords fast;
    EXPECT_FALSE(ParseJsonRecordsFast(text, &fast)) << c.file;
    const ParsedRecords general = ParseJsonRecordsGeneral(text);
    EXPECT_TRUE(general.records.empty()) << c.file;
    ASSERT_EQ(general.findings.size(), 1u) << c.file;
    EXPECT_EQ(general.findings[0].code(), "json-duplicate-key") << c.file;
  }
}

TEST(HostileInputTest, JsonKeyTwiceSkipsOnlyItsEntry) {
  const std::string text = ReadTestFile("hostile/duplicate-tag.json");
  ASSERT_FALSE(text.empty());
  const v1::FileReport report = Judge(text, Format::kJson);
  ASSERT_EQ(report.findings_size(), 1) << Describe(report);
  EXPECT_EQ(report.findings(0).code(), "json-duplicate-key");
  EXPECT_EQ(report.findings(0).record_index(), 1);
  EXPECT_EQ(report.findings(0).line(), 2);
  EXPECT_EQ(report.findings(0).column(), static_cast<int>(text.rfind("\"Light\"") - text.find('\n')));
  EXPECT_TRUE(absl::StrContains(report.findings(0).message(), "\"Light\"")) << report.findings(0).message();
  const ParsedRecords parsed = ParseJsonRecords(text);
  ASSERT_EQ(parsed.records.size(), 1u);
  EXPECT_EQ(parsed.record_indices[0], 0);
}

TEST(HostileInputTest, OneFieldUnderBothItsNamesIsRefused) {
  const std::string text = ReadTestFile("hostile/field-under-two-names.json");
  ASSERT_FALSE(text.empty());
  const v1::FileReport report = Judge(text, Format::kJson);
  ASSERT_EQ(report.findings_size(), 1) << Describe(report);
  EXPECT_EQ(report.findings(0).code(), "not-a-record");
  EXPECT_TRUE(absl::StrContains(report.findings(0).message(), "first_player is given twice"))
      << report.findings(0).message();
  ParsedRecords fast;
  EXPECT_FALSE(ParseJsonRecordsFast(text, &fast));
}

TEST(HostileInputTest, TheSameKeyInTwoObjectsIsNoDuplicate) {
  for (const std::string text : {
           R"([{"ruleset":"finkel","actions":[]},{"ruleset":"finkel","actions":[]}])",
           R"({"ruleset":"finkel","actions":[{"roll":0},{"roll":0}]})",
           R"({"ruleset":"finkel","tags":{"ruleset":"x"},"actions":[{"roll":0,"comment":"\"roll\":1"}]})",
       }) {
    const v1::FileReport report = Judge(text, Format::kJson);
    EXPECT_TRUE(report.valid()) << Describe(report) << text;
  }
}

TEST(HostileInputTest, RoyalUrJsonKeyTwiceIsAFindingAtTheSecondKey) {
  const std::string base = ReadTestFile("hostile/royalur-game.json");
  ASSERT_FALSE(base.empty());
  ASSERT_TRUE(Judge(base, Format::kRoyalUrJson).valid()) << Describe(Judge(base, Format::kRoyalUrJson));
  for (const char* file : {"hostile/royalur-duplicate-metadata.json", "hostile/royalur-duplicate-settings.json",
                                  "hostile/royalur-duplicate-state.json", "hostile/royalur-duplicate-game.json"}) {
    const std::string text = ReadTestFile(file);
    ASSERT_FALSE(text.empty()) << file;
    const v1::FileReport report = Judge(text, Format::kRoyalUrJson);
    ASSERT_EQ(report.findings_size(), 1) << file << ": " << Describe(report);
    EXPECT_EQ(report.findings(0).code(), "json-duplicate-key") << file;
    EXPECT_EQ(report.findings(0).line(), 1) << file;
  }
  // At the second key exactly.
  const std::string metadata = ReadTestFile("hostile/royalur-duplicate-metadata.json");
  const v1::FileReport report = Judge(metadata, Format::kRoyalUrJson);
  ASSERT_EQ(report.findings_size(), 1);
  EXPECT_EQ(report.findings(0).column(), static_cast<int>(metadata.rfind("\"Light\"")) + 1);
}

}  // namespace
}  // namespace scribe
