// Scribe's JSON record (records/json_record.h): reading one record and
// arrays, findings for what is not JSON or not a record, the fast and
// general readers agreeing, writing and reading back, MessageToJson.
#include "records/json_record.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "engine/ruleset.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "records/random_game.h"

namespace scribe {
namespace {

using ::google::protobuf::util::MessageDifferencer;

std::string Codes(const std::vector<v1::Finding>& findings) {
  std::string out;
  for (const v1::Finding& f : findings) absl::StrAppend(&out, f.code(), ": ", f.message(), "\n");
  return out;
}

// Random legal games of every preset with tags and comments, as records.
std::vector<v1::GameRecord> SomeGames() {
  std::vector<v1::GameRecord> out;
  uint64_t seed = 1;
  for (const PresetInfo& p : Presets()) {
    auto rules = LoadRuleset(p.id);
    EXPECT_TRUE(rules.ok()) << p.id;
    if (!rules.ok()) continue;
    Rng rng(seed++);
    RandomGameOptions options;
    options.ruleset = p.id;
    options.tags = {{"Event", "club night"}, {"Light", "Ann"}, {"Dark", "Bo"}};
    options.throw_off = true;
    options.first_player = RandomGameOptions::FirstPlayer::kAlways;
    options.max_actions = 60;
    out.push_back(RandomGame(**rules, rng, options));
  }
  return out;
}

void ExpectSameRecords(const ParsedRecords& a, const ParsedRecords& b, const std::string& what) {
  ASSERT_EQ(a.records.size(), b.records.size()) << what;
  EXPECT_EQ(a.record_indices, b.record_indices) << what;
  EXPECT_EQ(a.entries, b.entries) << what;
  for (size_t k = 0; k < a.records.size(); ++k) {
    EXPECT_TRUE(MessageDifferencer::Equals(a.records[k], b.records[k]))
        << what << "\n" << a.records[k].ShortDebugString() << "\n" << b.records[k].ShortDebugString();
  }
}

TEST(JsonRecordTest, OneRecordIsOneEntry) {
  const ParsedRecords parsed =
      ParseJsonRecords(R"j({"ruleset": "blitz", "first_player": "LIGHT", "actions": [{"roll": 1, "from": 0, "to": 1}]})j");
  ASSERT_TRUE(parsed.findings.empty()) << Codes(parsed.findings);
  ASSERT_EQ(parsed.records.size(), 1u);
  EXPECT_EQ(parsed.entries, 1);
  EXPECT_EQ(parsed.record_indices, std::vector<int>{0});
  EXPECT_EQ(parsed.records[0].ruleset(), "blitz");
  EXPECT_EQ(parsed.records[0].first_player(), v1::LIGHT);
  ASSERT_EQ(parsed.records[0].actions_size(), 1);
  EXPECT_EQ(parsed.records[0].actions(0).to(), 1);
}

TEST(JsonRecordTest, ArraysOfOneAndOfMany) {
  const ParsedRecords one = ParseJsonRecords(R"j([{"ruleset": "finkel"}])j");
  ASSERT_TRUE(one.findings.empty()) << Codes(one.findings);
  ASSERT_EQ(one.records.size(), 1u);
  EXPECT_EQ(one.entries, 1);
  const ParsedRecords many = ParseJsonRecords("[\n {\"ruleset\": \"a\"},\n {\"ruleset\": \"b\"},\n {}\n]\n");
  ASSERT_TRUE(many.findings.empty()) << Codes(many.findings);
  ASSERT_EQ(many.records.size(), 3u);
  EXPECT_EQ(many.entries, 3);
  EXPECT_EQ(many.record_indices, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(many.records[1].ruleset(), "b");
  EXPECT_TRUE(many.records[2].ruleset().empty());
}

TEST(JsonRecordTest, BadJsonIsOneFindingWithLineAndColumn) {
  // The second record lacks the comma before it: line 3, column 3.
  const std::string text = "[\n  {\"ruleset\": \"finkel\"}\n  {\"ruleset\": \"blitz\"}\n]\n";
  const ParsedRecords parsed = ParseJsonRecords(text);
  EXPECT_TRUE(parsed.records.empty());
  ASSERT_EQ(parsed.findings.size(), 1u) << Codes(parsed.findings);
  const v1::Finding& f = parsed.findings[0];
  EXPECT_EQ(f.code(), "json-syntax");
  EXPECT_TRUE(absl::StartsWith(f.message(), "not valid JSON: ")) << f.message();
  ASSERT_TRUE(f.has_line() && f.has_column()) << f.ShortDebugString();
  EXPECT_EQ(f.line(), 3) << f.message();
  EXPECT_EQ(f.column(), 3) << f.message();
  EXPECT_FALSE(f.has_record_index());
  EXPECT_EQ(parsed.entries, 1);

  // A NUL byte: placed where it is.
  static constexpr char kNul[] = "{\"ruleset\":\n \"a\0\"}";
  const ParsedRecords nul = ParseJsonRecords(std::string(kNul, sizeof(kNul) - 1));
  ASSERT_EQ(nul.findings.size(), 1u) << Codes(nul.findings);
  EXPECT_EQ(nul.findings[0].code(), "json-syntax");
  EXPECT_EQ(nul.findings[0].line(), 2);
  EXPECT_EQ(nul.findings[0].column(), 4);
}

TEST(JsonRecordTest, ABadRecordInAnArrayKeepsTheOthers) {
  const ParsedRecords parsed = ParseJsonRecords(
      R"j([{"ruleset": "finkel"}, {"ruleset": 5}, {"ruleset": "blitz"}, {"actions": [{"roll": "x"}]}, {}])j");
  ASSERT_EQ(parsed.records.size(), 3u) << Codes(parsed.findings);
  EXPECT_EQ(parsed.record_indices, (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(parsed.entries, 5);
  EXPECT_EQ(parsed.records[0].ruleset(), "finkel");
  EXPECT_EQ(parsed.records[1].ruleset(), "blitz");
  ASSERT_EQ(parsed.findings.size(), 2u) << Codes(parsed.findings);
  EXPECT_EQ(parsed.findings[0].code(), "not-a-record");
  EXPECT_EQ(parsed.findings[0].record_index(), 1);
  EXPECT_TRUE(absl::StrContains(parsed.findings[0].message(), "ruleset")) << parsed.findings[0].message();
  EXPECT_EQ(parsed.findings[1].code(), "not-a-record");
  EXPECT_EQ(parsed.findings[1].record_index(), 3);
}

// What WriteJsonRecord writes is plain: the fast reader reads it, to the
// same records as the general reader. The same records written otherwise
// (pretty, escapes, UTF-8) are not plain: the fast reader gives up and
// ParseJsonRecords reads them as the general reader does.
TEST(JsonRecordTest, FastAndGeneralReadersAgree) {
  const std::vector<v1::GameRecord> games = SomeGames();
  ASSERT_GT(games.size(), 3u);
  std::string array = "[";
  for (size_t k = 0; k < games.size(); ++k) absl::StrAppend(&array, k ? ",\n" : "", WriteJsonRecord(games[k]));
  array += "]";
  std::vector<std::string> plain = {array};
  for (const v1::GameRecord& g : games) plain.push_back(WriteJsonRecord(g));
  for (const std::string& text : plain) {
    ParsedRecords fast;
    ASSERT_TRUE(ParseJsonRecordsFast(text, &fast)) << text.substr(0, 200);
    const ParsedRecords general = ParseJsonRecordsGeneral(text);
    EXPECT_TRUE(general.findings.empty()) << Codes(general.findings);
    ExpectSameRecords(fast, general, text.substr(0, 200));
  }
  for (const v1::GameRecord& g : games) {
    const std::string text = WriteJsonRecord(g);
    const std::vector<std::string> not_plain = {
        MessageToJson(g, /*pretty=*/true) + "\n",  // whitespace is plain, but check the pretty form reads too
        absl::StrReplaceAll(text, {{"\"Ann\"", "\"\\u0041nn\""}}),
        absl::StrReplaceAll(text, {{"\"Bo\"", "\"B\xc3\xb6\""}}),
        absl::StrReplaceAll(text, {{"\"roll\":", "\"roll\": 0 + "}}),  // not JSON at all
        absl::StrReplaceAll(text, {{"\"ruleset\":", "\"comment\": null, \"ruleset\":"}}),
    };
    for (size_t i = 0; i < not_plain.size(); ++i) {
      const std::string& t = not_plain[i];
      ParsedRecords fast;
      const bool fast_read = ParseJsonRecordsFast(t, &fast);
      const ParsedRecords general = ParseJsonRecordsGeneral(t);
      const ParsedRecords both = ParseJsonRecords(t);
      if (i == 0) {
        // Pretty output is still plain (JSON whitespace): both readers, same records.
        ASSERT_TRUE(fast_read);
        ExpectSameRecords(fast, general, t);
      } else {
        EXPECT_FALSE(fast_read) << t;
      }
      EXPECT_EQ(Codes(both.findings), Codes(general.findings)) << t;
      ExpectSameRecords(both, general, t);
    }
    // The escape and UTF-8 cases still read, to the right values.
    const ParsedRecords escaped = ParseJsonRecords(absl::StrReplaceAll(text, {{"\"Ann\"", "\"\\u0041nn\""}}));
    ASSERT_EQ(escaped.records.size(), 1u) << Codes(escaped.findings);
    EXPECT_TRUE(MessageDifferencer::Equals(escaped.records[0], g));
    const ParsedRecords utf8 = ParseJsonRecords(absl::StrReplaceAll(text, {{"\"Bo\"", "\"B\xc3\xb6\""}}));
    ASSERT_EQ(utf8.records.size(), 1u) << Codes(utf8.findings);
    EXPECT_EQ(utf8.records[0].tags().at("Dark"), "B\xc3\xb6");
  }
}

TEST(JsonRecordTest, WriteThenReadIsTheSameRecordAndTheSameBytes) {
  std::vector<v1::GameRecord> games = SomeGames();
  ASSERT_FALSE(games.empty());
  games[0].set_comment("quotes \" and \\ backslashes,\nlines, \xc3\xa9 and <html> & more");
  games[0].mutable_actions(0)->set_comment("[%eval 0.5]");
  (*games[0].mutable_tags())["Empty"] = "";
  for (const v1::GameRecord& g : games) {
    const std::string text = WriteJsonRecord(g);
    EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    const ParsedRecords parsed = ParseJsonRecords(text);
    ASSERT_TRUE(parsed.findings.empty()) << Codes(parsed.findings);
    ASSERT_EQ(parsed.records.size(), 1u);
    EXPECT_TRUE(MessageDifferencer::Equals(parsed.records[0], g))
        << g.ShortDebugString() << "\n" << parsed.records[0].ShortDebugString();
    EXPECT_EQ(WriteJsonRecord(parsed.records[0]), text);
  }
  // HTML characters are written as themselves, map keys sorted.
  const std::string first = WriteJsonRecord(games[0]);
  EXPECT_TRUE(absl::StrContains(first, "<html> & more")) << first;
  EXPECT_LT(first.find("\"Dark\""), first.find("\"Empty\""));
  EXPECT_LT(first.find("\"Empty\""), first.find("\"Event\""));
  EXPECT_LT(first.find("\"Event\""), first.find("\"Light\""));
}

TEST(JsonRecordTest, MessageToJsonWritesPresentZeros) {
  v1::Action pass;
  pass.set_roll(0);
  EXPECT_EQ(MessageToJson(pass), R"({"roll":0})");
  v1::Action enter;
  enter.set_roll(2);
  enter.set_from(0);
  enter.set_to(2);
  EXPECT_EQ(MessageToJson(enter), R"({"roll":2,"from":0,"to":2})");
  EXPECT_EQ(MessageToJson(v1::Action()), "{}");
  v1::OpeningThrow t;
  t.set_light(0);
  t.set_dark(0);
  EXPECT_EQ(MessageToJson(t), R"({"light":0,"dark":0})");
  v1::Finding f;
  f.set_code("x");
  f.set_line(0);
  f.set_record_index(0);
  const std::string text = MessageToJson(f);
  EXPECT_TRUE(absl::StrContains(text, "\"line\":0")) << text;
  EXPECT_TRUE(absl::StrContains(text, "\"record_index\":0")) << text;
  EXPECT_FALSE(absl::StrContains(text, "column")) << text;
  EXPECT_FALSE(absl::StrContains(text, "recordIndex")) << "proto field names: " << text;
  // Pretty: the same JSON over several lines.
  const std::string pretty = MessageToJson(enter, /*pretty=*/true);
  EXPECT_NE(pretty.find('\n'), std::string::npos);
  EXPECT_EQ(absl::StrReplaceAll(pretty, {{"\n", ""}, {" ", ""}}), MessageToJson(enter));
}

}  // namespace
}  // namespace scribe
