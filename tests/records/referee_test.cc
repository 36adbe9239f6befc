// Records: reading JSON record files, writing them back, and the referee's
// judgement of legal games and of every kind of broken record.
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "records/json_record.h"
#include "records/random_game.h"
#include "records/referee.h"
#include "records/squares.h"
#include "tests/common/test_data.h"
#include "tests/common/test_rules.h"

namespace scribe {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using nlohmann::json;

// Parses text that must hold exactly one well-formed record.
v1::GameRecord Record(const std::string& text) {
  ParsedRecords parsed = ParseJsonRecords(text);
  EXPECT_TRUE(parsed.findings.empty()) << text << "\n" << parsed.findings[0].DebugString();
  EXPECT_EQ(parsed.records.size(), 1u) << text;
  return parsed.records.empty() ? v1::GameRecord() : parsed.records[0];
}

std::string Codes(const std::vector<v1::Finding>& findings) {
  std::string out;
  for (const v1::Finding& f : findings) absl::StrAppend(&out, f.ShortDebugString(), "\n");
  return out;
}

// Judges a record expected to break exactly one rule; returns that finding.
v1::Finding OnlyFinding(const v1::GameRecord& record, const std::string& code) {
  RefereeResult result = Referee(record);
  EXPECT_FALSE(result.valid()) << record.ShortDebugString();
  EXPECT_EQ(result.findings.size(), 1u) << "judging stops at the first error:\n"
                                        << Codes(result.findings);
  if (result.findings.empty()) return v1::Finding();
  EXPECT_EQ(result.findings[0].code(), code) << result.findings[0].ShortDebugString();
  return result.findings[0];
}

void ExpectMentions(const v1::Finding& f, const std::vector<std::string>& fragments) {
  for (const std::string& s : fragments) {
    EXPECT_TRUE(absl::StrContains(f.message(), s))
        << f.code() << ": \"" << f.message() << "\" does not mention \"" << s << "\"";
  }
}

// A random legal game, played to the end: every throw from `rng`, every
// move chosen at random among the legal ones.
v1::GameRecord RandomGame(const Rules& rules, const std::string& reference, uint64_t seed,
                          Side first, Side* winner) {
  Rng rng(seed);
  RandomGameOptions options;
  options.ruleset = reference;
  options.first = first;
  options.throw_off = true;
  options.first_player = RandomGameOptions::FirstPlayer::kWithoutThrowOff;
  options.max_actions = 100000;
  const RandomGameResult game = PlayRandomGame(rules, rng, options);
  EXPECT_TRUE(game.over);
  *winner = Winner(rules, game.end).value_or(kLight);
  return game.record;
}

v1::Action Act(int roll, std::optional<int> from = std::nullopt,
               std::optional<int> to = std::nullopt) {
  v1::Action a;
  a.set_roll(roll);
  if (from) a.set_from(*from);
  if (to) a.set_to(*to);
  return a;
}

// --- ParseJsonRecords ------------------------------------------------------

TEST(ParseJsonRecordsTest, OneRecord) {
  ParsedRecords parsed = ParseJsonRecords(R"j({
    "ruleset": "finkel",
    "ruleset_digest": "13f33ad027a00895",
    "tags": {"Event": "test", "Light": "Ann"},
    "first_player": "DARK",
    "opening": [{"light": 1, "dark": 3}],
    "actions": [{"roll": 2, "from": 0, "to": 2}, {"roll": 0}]
  })j");
  ASSERT_TRUE(parsed.findings.empty()) << Codes(parsed.findings);
  ASSERT_EQ(parsed.records.size(), 1u);
  EXPECT_EQ(parsed.record_indices, std::vector<int>{0});
  const v1::GameRecord& r = parsed.records[0];
  EXPECT_EQ(r.ruleset(), "finkel");
  EXPECT_EQ(r.ruleset_digest(), "13f33ad027a00895");
  EXPECT_EQ(r.tags().at("Event"), "test");
  EXPECT_EQ(r.tags().at("Light"), "Ann");
  EXPECT_EQ(r.first_player(), v1::DARK);
  ASSERT_EQ(r.opening_size(), 1);
  EXPECT_EQ(r.opening(0).light(), 1);
  EXPECT_EQ(r.opening(0).dark(), 3);
  ASSERT_EQ(r.actions_size(), 2);
  EXPECT_EQ(r.actions(0).roll(), 2);
  EXPECT_TRUE(r.actions(0).has_from()) << "\"from\": 0 is a piece entering, not absent";
  EXPECT_EQ(r.actions(0).from(), 0);
  EXPECT_EQ(r.actions(0).to(), 2);
  EXPECT_TRUE(r.actions(1).has_roll()) << "\"roll\": 0 is a throw of nothing, not absent";
  EXPECT_EQ(r.actions(1).roll(), 0);
  EXPECT_FALSE(r.actions(1).has_from());
  EXPECT_FALSE(r.actions(1).has_to());
}

TEST(ParseJsonRecordsTest, ArrayOfRecords) {
  ParsedRecords parsed = ParseJsonRecords(
      R"j([{"ruleset": "finkel"}, {"ruleset": "blitz", "actions": [{"roll": 1, "from": 0, "to": 1}]},
          {"ruleset": "aseb"}])j");
  ASSERT_TRUE(parsed.findings.empty()) << Codes(parsed.findings);
  ASSERT_EQ(parsed.records.size(), 3u);
  EXPECT_EQ(parsed.record_indices, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parsed.records[0].ruleset(), "finkel");
  EXPECT_EQ(parsed.records[1].ruleset(), "blitz");
  EXPECT_EQ(parsed.records[1].actions_size(), 1);
  EXPECT_EQ(parsed.records[2].ruleset(), "aseb");
}

TEST(ParseJsonRecordsTest, EmptyArrayHasNoRecords) {
  ParsedRecords parsed = ParseJsonRecords("[]");
  EXPECT_TRUE(parsed.records.empty());
  EXPECT_TRUE(parsed.record_indices.empty());
  ASSERT_EQ(parsed.findings.size(), 1u) << Codes(parsed.findings);
  EXPECT_EQ(parsed.findings[0].code(), "no-records");
  EXPECT_FALSE(parsed.findings[0].has_record_index());
  ParsedRecords spaced = ParseJsonRecords("\n  [ ]\n");
  EXPECT_TRUE(spaced.records.empty());
  ASSERT_EQ(spaced.findings.size(), 1u);
  EXPECT_EQ(spaced.findings[0].code(), "no-records");
}

TEST(ParseJsonRecordsTest, SyntaxErrorWithLineAndColumn) {
  // The stray comma is line 3, column 15.
  const std::string text =
      "{\n"
      "  \"ruleset\": \"finkel\",\n"
      "  \"actions\": [,]\n"
      "}\n";
  ParsedRecords parsed = ParseJsonRecords(text);
  EXPECT_TRUE(parsed.records.empty());
  ASSERT_EQ(parsed.findings.size(), 1u) << Codes(parsed.findings);
  const v1::Finding& f = parsed.findings[0];
  EXPECT_EQ(f.code(), "json-syntax");
  ASSERT_TRUE(f.has_line());
  ASSERT_TRUE(f.has_column());
  EXPECT_EQ(f.line(), 3) << f.message();
  EXPECT_EQ(f.column(), 15) << f.message();
  EXPECT_FALSE(f.message().empty());
  EXPECT_FALSE(f.has_action_index());
}

TEST(ParseJsonRecordsTest, SyntaxErrorOnALaterLine) {
  // A bad literal: the "x" at line 5, column 13 is where reading stops.
  const std::string text =
      "[\n"
      "  {\"ruleset\": \"finkel\"},\n"
      "  {\n"
      "    \"ruleset\": \"finkel\",\n"
      "    \"tags\": x\n"
      "  }\n"
      "]\n";
  ParsedRecords parsed = ParseJsonRecords(text);
  EXPECT_TRUE(parsed.records.empty()) << "a file that is not JSON gives no records";
  ASSERT_EQ(parsed.findings.size(), 1u);
  const v1::Finding& f = parsed.findings[0];
  EXPECT_EQ(f.code(), "json-syntax");
  EXPECT_EQ(f.line(), 5) << f.message();
  EXPECT_EQ(f.column(), 13) << f.message();
}

TEST(ParseJsonRecordsTest, SyntaxErrorAtFirstByteAndAtEnd) {
  ParsedRecords bad = ParseJsonRecords("?");
  ASSERT_EQ(bad.findings.size(), 1u);
  EXPECT_EQ(bad.findings[0].code(), "json-syntax");
  EXPECT_EQ(bad.findings[0].line(), 1);
  EXPECT_EQ(bad.findings[0].column(), 1);

  ParsedRecords cut = ParseJsonRecords("{\"ruleset\": \"finkel\",\n");
  ASSERT_EQ(cut.findings.size(), 1u);
  EXPECT_EQ(cut.findings[0].code(), "json-syntax");
  EXPECT_GE(cut.findings[0].line(), 1);
  EXPECT_LE(cut.findings[0].line(), 2);

  ParsedRecords empty = ParseJsonRecords("");
  ASSERT_EQ(empty.findings.size(), 1u);
  EXPECT_EQ(empty.findings[0].code(), "json-syntax");
  EXPECT_TRUE(empty.records.empty());
}

TEST(ParseJsonRecordsTest, NonObjectEntryIsReportedOthersRead) {
  ParsedRecords parsed =
      ParseJsonRecords(R"j([{"ruleset": "finkel"}, 42, "text", {"ruleset": "blitz"}, null])j");
  ASSERT_EQ(parsed.records.size(), 2u);
  EXPECT_EQ(parsed.records[0].ruleset(), "finkel");
  EXPECT_EQ(parsed.records[1].ruleset(), "blitz");
  EXPECT_EQ(parsed.record_indices, (std::vector<int>{0, 3}));
  ASSERT_EQ(parsed.findings.size(), 3u) << Codes(parsed.findings);
  const int expected_index[] = {1, 2, 4};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(parsed.findings[k].code(), "not-a-record");
    ASSERT_TRUE(parsed.findings[k].has_record_index());
    EXPECT_EQ(parsed.findings[k].record_index(), expected_index[k]);
    EXPECT_TRUE(absl::StrContains(parsed.findings[k].message(), "object"))
        << parsed.findings[k].message();
  }
  EXPECT_TRUE(absl::StrContains(parsed.findings[0].message(), "number"));
  EXPECT_TRUE(absl::StrContains(parsed.findings[1].message(), "string"));

  ParsedRecords scalar = ParseJsonRecords("42");
  EXPECT_TRUE(scalar.records.empty());
  ASSERT_EQ(scalar.findings.size(), 1u);
  EXPECT_EQ(scalar.findings[0].code(), "not-a-record");
  EXPECT_EQ(scalar.findings[0].record_index(), 0);
}

TEST(ParseJsonRecordsTest, UnknownFieldsAreRefused) {
  ParsedRecords top = ParseJsonRecords(R"j({"ruleset": "finkel", "colour": "red"})j");
  EXPECT_TRUE(top.records.empty());
  ASSERT_EQ(top.findings.size(), 1u);
  EXPECT_EQ(top.findings[0].code(), "not-a-record");
  EXPECT_EQ(top.findings[0].record_index(), 0);
  EXPECT_TRUE(absl::StrContains(top.findings[0].message(), "colour")) << top.findings[0].message();

  ParsedRecords nested = ParseJsonRecords(
      R"j([{"ruleset": "finkel"}, {"ruleset": "finkel", "actions": [{"roll": 1, "piece": 3}]}])j");
  ASSERT_EQ(nested.records.size(), 1u);
  EXPECT_EQ(nested.record_indices, std::vector<int>{0});
  ASSERT_EQ(nested.findings.size(), 1u);
  EXPECT_EQ(nested.findings[0].code(), "not-a-record");
  EXPECT_EQ(nested.findings[0].record_index(), 1);
  EXPECT_TRUE(absl::StrContains(nested.findings[0].message(), "piece"))
      << nested.findings[0].message();

  // Wrong types are not records either.
  for (const char* text : {R"j({"actions": [{"roll": "two"}]})j", R"j({"actions": [2]})j",
                           R"j({"first_player": "GREEN"})j", R"j({"actions": [{"roll": 2.5}]})j",
                           R"j({"tags": {"a": 1}})j", R"j({"ruleset": ["finkel"]})j"}) {
    ParsedRecords p = ParseJsonRecords(text);
    EXPECT_TRUE(p.records.empty()) << text;
    ASSERT_EQ(p.findings.size(), 1u) << text;
    EXPECT_EQ(p.findings[0].code(), "not-a-record") << text;
  }
}

// ParseJsonRecords tries a fast reader for the plain form first: what it
// reads must be what the general reader reads, and whatever is not plain
// (escapes, null, floats, integers in strings, repeated keys, non-ASCII,
// errors) must be left to the general reader.
TEST(ParseJsonRecordsTest, FastReaderAgreesWithTheGeneralReader) {
  const std::vector<std::string> plain = {
      R"j({"ruleset": "finkel", "tags": {"b": "2", "a": "1"}, "first_player": "DARK",
           "opening": [{"light": 1, "dark": 3}], "actions": [{"roll": 2, "from": 0, "to": 2}, {"roll": 0}]})j",
      R"j([{"ruleset":"finkel"},{"rulesetDigest":"x","firstPlayer":1,"startPosition":"","actions":[]},{}])j",
      "\t\r\n{\"actions\": [{\"roll\": -0, \"to\": 123456789, \"comment\": \"a ~ \x7f\"}]} \n",
  };
  for (const std::string& text : plain) {
    ParsedRecords fast;
    ASSERT_TRUE(ParseJsonRecordsFast(text, &fast)) << text;
    const ParsedRecords general = ParseJsonRecordsGeneral(text);
    ASSERT_TRUE(general.findings.empty()) << text << "\n" << Codes(general.findings);
    ASSERT_EQ(fast.records.size(), general.records.size()) << text;
    EXPECT_EQ(fast.entries, general.entries) << text;
    EXPECT_EQ(fast.record_indices, general.record_indices) << text;
    for (size_t k = 0; k < fast.records.size(); ++k) {
      EXPECT_TRUE(MessageDifferencer::Equals(fast.records[k], general.records[k]))
          << text << "\nfast:    " << fast.records[k].ShortDebugString()
          << "\ngeneral: " << general.records[k].ShortDebugString();
    }
  }
  const std::vector<std::string> not_plain = {
      "", "[]", "[1]", "{} {}", "{\"ruleset\": null}", "{\"ruleset\": \"fin\\u006bel\"}",
      "{\"ruleset\": \"\xc3\xa9\"}", "{\"actions\": [{\"roll\": 2.0}]}", "{\"actions\": [{\"roll\": \"2\"}]}",
      "{\"actions\": [{\"roll\": 1e0}]}", "{\"actions\": [{\"roll\": 01}]}",
      "{\"actions\": [{\"roll\": 1234567890}]}", "{\"ruleset\": \"a\", \"ruleset\": \"b\"}",
      "{\"first_player\": 1, \"firstPlayer\": 2}", "{\"tags\": {\"a\": \"1\", \"a\": \"2\"}}",
      "{\"first_player\": 7}", "{\"first_player\": \"NOBODY\"}", "{\"nope\": 1}", "{\"actions\": {}}",
      "{\"ruleset\": \"finkel\",}", "\xef\xbb\xbf{}", "{\"ruleset\": \"finkel\"",
      "{\"actions\": [{\"roll\": 1, \"roll\": 2}]}", "{\"actions\": [{\"roll\": 1, \"x\": 2}]}",
      "{\"actions\": [{\"comment\": 3}]}", "{\"actions\": [{\"to\": null}]}", "{\"actions\": [{}, 3]}",
  };
  for (const std::string& text : not_plain) {
    ParsedRecords fast;
    EXPECT_FALSE(ParseJsonRecordsFast(text, &fast)) << text;
    const ParsedRecords general = ParseJsonRecordsGeneral(text);
    const ParsedRecords both = ParseJsonRecords(text);
    EXPECT_EQ(Codes(both.findings), Codes(general.findings)) << text;
    ASSERT_EQ(both.records.size(), general.records.size()) << text;
    for (size_t k = 0; k < both.records.size(); ++k) {
      EXPECT_TRUE(MessageDifferencer::Equals(both.records[k], general.records[k])) << text;
    }
  }
}

// The JSON mapping of a repeated field is an array; a lone object where the
// array belongs is not a record (docs: "exactly the documented mapping is
// accepted").
TEST(ParseJsonRecordsTest, RepeatedFieldsMustBeArrays) {
  for (const char* text : {R"j({"ruleset": "finkel", "actions": {"roll": 2, "from": 0, "to": 2}})j",
                           R"j({"ruleset": "finkel", "opening": {"light": 1, "dark": 2}})j"}) {
    ParsedRecords p = ParseJsonRecords(text);
    EXPECT_TRUE(p.records.empty()) << text << " read as " << p.records[0].ShortDebugString();
    EXPECT_EQ(p.findings.size(), 1u) << text;
    if (!p.findings.empty()) {
      EXPECT_EQ(p.findings[0].code(), "not-a-record") << text;
    }
  }
}

// A few hundred kilobytes of nesting inside a record must be refused, not
// overflow the stack (a service reads records from anyone). Run in a child
// process so that a crash fails this test only.
TEST(ParseJsonRecordsDeathTest, DeepNestingInsideARecordDoesNotCrash) {
  const int depth = 100000;
  const std::string text = absl::StrCat(R"j({"ruleset": "finkel", "tags": )j",
                                        std::string(depth, '['), std::string(depth, ']'), "}");
  EXPECT_EXIT(
      {
        ParsedRecords parsed = ParseJsonRecords(text);
        const bool refused = parsed.records.empty() && parsed.findings.size() == 1 &&
                             parsed.findings[0].code() == "not-a-record";
        std::exit(refused ? 0 : 3);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(ParseJsonRecordsTest, GarbageNeverCrashes) {
  const std::vector<std::string> nasty = {
      "",           " ",          "\xff\xfe",  "{",         "[",          "]",
      "[{]",        "{\"a\":}",   "nul",       "[1,2,3]",   "[[],[[]]]",  "{\"actions\":[[]]}",
      "\"\\u0000\"", "[{}]",      "{}{}",      "[{},]",     "{\"ruleset\": \"\\ud800\"}",
      std::string("{\"ruleset\": \"fin\0kel\"}", 22),
      std::string(2000, '['),
      "[" + std::string(2000, '{'),
      "{\"actions\":[{\"roll\": 99999999999999999999}]}",
      "{\"actions\":[{\"roll\": -2147483649}]}",
  };
  for (const std::string& text : nasty) {
    SCOPED_TRACE(absl::CHexEscape(text.substr(0, 60)));
    ParsedRecords parsed = ParseJsonRecords(text);
    EXPECT_EQ(parsed.records.size(), parsed.record_indices.size());
    for (const v1::GameRecord& r : parsed.records) {
      RefereeResult result = Referee(r);
      EXPECT_FALSE(result.valid() && r.ruleset().empty());
    }
    for (const v1::Finding& f : parsed.findings) EXPECT_FALSE(f.code().empty());
  }
}

// --- Writing ---------------------------------------------------------------

TEST(WriteJsonRecordTest, WritesZerosThatArePresent) {
  v1::GameRecord record;
  record.set_ruleset("finkel");
  record.set_first_player(v1::LIGHT);
  v1::OpeningThrow* t = record.add_opening();
  t->set_light(0);
  t->set_dark(2);
  *record.add_actions() = Act(2, 0, 2);
  *record.add_actions() = Act(0);
  const std::string text = WriteJsonRecord(record);
  EXPECT_EQ(text.find('\n'), std::string::npos) << "one line: " << text;
  const json j = json::parse(text);
  ASSERT_TRUE(j["actions"][0].contains("from")) << text;
  EXPECT_EQ(j["actions"][0]["from"], 0) << text;
  EXPECT_EQ(j["actions"][0]["to"], 2);
  ASSERT_TRUE(j["actions"][1].contains("roll")) << text;
  EXPECT_EQ(j["actions"][1]["roll"], 0) << text;
  EXPECT_FALSE(j["actions"][1].contains("from")) << "a pass has no move: " << text;
  EXPECT_FALSE(j["actions"][1].contains("to")) << text;
  ASSERT_TRUE(j["opening"][0].contains("light")) << text;
  EXPECT_EQ(j["opening"][0]["light"], 0);
  EXPECT_EQ(j["first_player"], "LIGHT");
  // Proto field names, not camelCase.
  EXPECT_TRUE(absl::StrContains(text, "\"first_player\"")) << text;
  EXPECT_FALSE(absl::StrContains(text, "firstPlayer")) << text;
}

TEST(WriteJsonRecordTest, ReadsBackEqual) {
  v1::GameRecord record;
  record.set_ruleset("finkel(pieces=5)");
  record.set_ruleset_digest("d14b6d31029590c6");
  (*record.mutable_tags())["Event"] = "round \"trip\"\n";
  (*record.mutable_tags())["Light"] = "Ann";
  record.set_first_player(v1::DARK);
  v1::OpeningThrow* t = record.add_opening();
  t->set_light(2);
  t->set_dark(2);
  t = record.add_opening();
  t->set_light(1);
  t->set_dark(3);
  *record.add_actions() = Act(0);
  *record.add_actions() = Act(4, 0, 4);
  *record.add_actions() = Act(1, 4, 5);
  const std::string text = WriteJsonRecord(record);
  ParsedRecords parsed = ParseJsonRecords(text);
  ASSERT_TRUE(parsed.findings.empty()) << Codes(parsed.findings) << text;
  ASSERT_EQ(parsed.records.size(), 1u);
  std::string diff;
  MessageDifferencer differ;
  differ.ReportDifferencesToString(&diff);
  EXPECT_TRUE(differ.Compare(record, parsed.records[0])) << diff << "\n" << text;
  EXPECT_TRUE(parsed.records[0].actions(0).has_roll());
  EXPECT_FALSE(parsed.records[0].actions(0).has_from());
  EXPECT_TRUE(parsed.records[0].actions(1).has_from());
  // Written again: the same text.
  EXPECT_EQ(WriteJsonRecord(parsed.records[0]), text);
}

TEST(WriteJsonRecordTest, RandomGamesReadBackEqualAndStayValid) {
  for (const char* preset : {"finkel", "turnover", "blitz"}) {
    auto rules = MustLoad(preset);
    ASSERT_NE(rules, nullptr);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(absl::StrCat(preset, " seed ", seed));
      Side winner;
      const v1::GameRecord record = RandomGame(*rules, preset, seed, kLight, &winner);
      const std::string text = WriteJsonRecord(record);
      ParsedRecords parsed = ParseJsonRecords(text);
      ASSERT_EQ(parsed.records.size(), 1u) << Codes(parsed.findings);
      EXPECT_TRUE(MessageDifferencer::Equals(record, parsed.records[0]));
      EXPECT_TRUE(Referee(parsed.records[0]).valid());
      // An array of the same record twice reads back as two equal records.
      ParsedRecords two = ParseJsonRecords(absl::StrCat("[", text, ",\n", text, "]"));
      ASSERT_EQ(two.records.size(), 2u);
      EXPECT_TRUE(MessageDifferencer::Equals(record, two.records[1]));
    }
  }
}

// --- The referee: legal games ----------------------------------------------

TEST(RefereeTest, RandomLegalGamesAreValidWithTheRightWinner) {
  for (const PresetInfo& p : Presets()) {
    auto rules = MustLoad(p.id);
    ASSERT_NE(rules, nullptr);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      for (Side first : {kLight, kDark}) {
        SCOPED_TRACE(absl::StrCat(p.id, " seed ", seed, " first ", SideName(first)));
        Side winner;
        const v1::GameRecord record = RandomGame(*rules, p.id, seed, first, &winner);
        RefereeResult result = Referee(record);
        ASSERT_TRUE(result.valid()) << Codes(result.findings);
        ASSERT_NE(result.rules, nullptr);
        EXPECT_EQ(result.rules->digest, rules->digest);
        ASSERT_TRUE(result.winner.has_value()) << "the game is finished";
        EXPECT_EQ(*result.winner, winner);
        EXPECT_TRUE(IsOver(*rules, result.final_position));
        EXPECT_EQ(result.final_position.count[winner][rules->off], rules->pieces);
        EXPECT_LT(result.final_position.count[Other(winner)][rules->off], rules->pieces);
        ASSERT_TRUE(result.replay.has_winner());
        EXPECT_EQ(result.replay.winner(), ToPlayer(winner));
        EXPECT_EQ(result.replay.ruleset(), p.id);
        EXPECT_EQ(result.replay.ruleset_digest(), rules->digest);
        ASSERT_EQ(result.replay.actions_size(), record.actions_size());
        for (int i = 0; i < record.actions_size(); ++i) {
          const v1::ReplayStep& step = result.replay.actions(i);
          EXPECT_EQ(step.index(), i);
          EXPECT_EQ(step.roll(), record.actions(i).roll());
          EXPECT_EQ(step.has_move(), record.actions(i).has_from());
          EXPECT_EQ(step.position().light_size(), rules->off + 1);
        }
        // The digest, when the record gives it, is checked and agrees.
        v1::GameRecord with_digest = record;
        with_digest.set_ruleset_digest(rules->digest);
        EXPECT_TRUE(Referee(with_digest).valid());
      }
    }
  }
}

TEST(RefereeTest, UnfinishedGameIsValidWithoutWinner) {
  auto rules = MustLoad("finkel");
  Side winner;
  v1::GameRecord record = RandomGame(*rules, "finkel", 7, kLight, &winner);
  record.mutable_actions()->DeleteSubrange(record.actions_size() / 2,
                                           record.actions_size() - record.actions_size() / 2);
  RefereeResult result = Referee(record);
  EXPECT_TRUE(result.valid()) << Codes(result.findings);
  EXPECT_FALSE(result.winner.has_value());
  EXPECT_FALSE(result.replay.has_winner());
}

TEST(RefereeTest, ExampleRecordIsValid) {
  const std::string text =
      testing::ReadTestFile("../../examples/finkel-game.json");
  ASSERT_FALSE(text.empty());
  ParsedRecords parsed = ParseJsonRecords(text);
  ASSERT_EQ(parsed.records.size(), 1u) << Codes(parsed.findings);
  RefereeResult result = Referee(parsed.records[0]);
  EXPECT_TRUE(result.valid()) << Codes(result.findings);
}

TEST(RefereeTest, DarkFirstMakesDarkMoveFirst) {
  v1::GameRecord record = Record(R"j({"ruleset": "finkel", "first_player": "DARK",
      "actions": [{"roll": 2, "from": 0, "to": 2}, {"roll": 1, "from": 0, "to": 1}]})j");
  RefereeResult result = Referee(record);
  ASSERT_TRUE(result.valid()) << Codes(result.findings);
  EXPECT_EQ(result.replay.first_player(), v1::DARK);
  ASSERT_EQ(result.replay.actions_size(), 2);
  EXPECT_EQ(result.replay.actions(0).player(), v1::DARK);
  EXPECT_EQ(result.replay.actions(1).player(), v1::LIGHT);
  EXPECT_EQ(result.final_position.count[kDark][2], 1);
  EXPECT_EQ(result.final_position.count[kLight][1], 1);
  EXPECT_EQ(result.final_position.count[kLight][2], 0);
  EXPECT_EQ(result.final_position.to_move, kDark);
  // The replay's positions say the same.
  EXPECT_EQ(result.replay.actions(0).position().dark(2), 1);
  EXPECT_EQ(result.replay.actions(0).position().light(2), 0);

  // Without first_player, light moves first.
  v1::GameRecord light = record;
  light.clear_first_player();
  RefereeResult l = Referee(light);
  ASSERT_TRUE(l.valid());
  EXPECT_EQ(l.replay.actions(0).player(), v1::LIGHT);
  EXPECT_EQ(l.final_position.count[kLight][2], 1);
}

TEST(RefereeTest, SwappingTheFirstPlayerSwapsTheWinner) {
  // finkel is symmetric: the same throws and moves with the other side
  // first is the mirror game, and the other side wins it.
  auto rules = MustLoad("finkel");
  for (uint64_t seed = 11; seed <= 14; ++seed) {
    Side winner;
    v1::GameRecord record = RandomGame(*rules, "finkel", seed, kLight, &winner);
    record.set_first_player(v1::DARK);
    RefereeResult result = Referee(record);
    ASSERT_TRUE(result.valid()) << Codes(result.findings);
    ASSERT_TRUE(result.winner.has_value());
    EXPECT_EQ(*result.winner, Other(winner));
  }
}

TEST(RefereeTest, OpeningThrowOffDecidesWhoStarts) {
  RefereeResult dark = Referee(Record(R"j({"ruleset": "finkel",
      "opening": [{"light": 2, "dark": 2}, {"light": 1, "dark": 3}],
      "actions": [{"roll": 1, "from": 0, "to": 1}]})j"));
  ASSERT_TRUE(dark.valid()) << Codes(dark.findings);
  EXPECT_EQ(dark.replay.first_player(), v1::DARK);
  EXPECT_EQ(dark.replay.actions(0).player(), v1::DARK);
  // Agreeing with first_player is fine.
  RefereeResult agree = Referee(Record(R"j({"ruleset": "turnover", "first_player": "LIGHT",
      "opening": [{"light": 5, "dark": 0}], "actions": [{"roll": 1, "from": 0, "to": 1}]})j"));
  ASSERT_TRUE(agree.valid()) << Codes(agree.findings);
  EXPECT_EQ(agree.replay.actions(0).player(), v1::LIGHT);
}

TEST(RefereeTest, GivenRulesAreUsed) {
  auto rules = MustLoad("finkel(pieces=1)");
  ASSERT_NE(rules, nullptr);
  v1::GameRecord record;
  // One piece: enter with 4 (rosette, throw again), 4 more to 8 (again),
  // 4 to 12, then 3 bears off (12 + 3 = 15 = L + 1).
  *record.add_actions() = Act(4, 0, 4);
  *record.add_actions() = Act(4, 4, 8);
  *record.add_actions() = Act(4, 8, 12);
  *record.add_actions() = Act(0);
  *record.add_actions() = Act(3, 12, 15);
  RefereeResult result = Referee(record, rules);
  ASSERT_TRUE(result.valid()) << Codes(result.findings);
  ASSERT_TRUE(result.winner.has_value());
  EXPECT_EQ(*result.winner, kLight);
  EXPECT_EQ(result.replay.ruleset(), "finkel(pieces=1)");
  EXPECT_TRUE(result.replay.actions(0).extra_roll());
  EXPECT_TRUE(result.replay.actions(1).extra_roll());
  EXPECT_FALSE(result.replay.actions(2).extra_roll());
  EXPECT_EQ(result.replay.actions(3).player(), v1::DARK);
}

// --- The referee: every finding code ---------------------------------------

TEST(RefereeFindingTest, RulesetMissing) {
  const v1::Finding f = OnlyFinding(Record(R"j({"actions": [{"roll": 1}]})j"), "ruleset-missing");
  EXPECT_FALSE(f.has_action_index());
  ExpectMentions(f, {"ruleset", "finkel"});
}

TEST(RefereeFindingTest, RulesetUnknown) {
  const v1::Finding f = OnlyFinding(Record(R"j({"ruleset": "nosuch"})j"), "ruleset-unknown");
  EXPECT_FALSE(f.has_action_index());
  ExpectMentions(f, {"nosuch", "finkel", "sawah-tablet"});
  RefereeResult result = Referee(Record(R"j({"ruleset": "../../etc/passwd"})j"));
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].code(), "ruleset-unknown");
  EXPECT_EQ(result.rules, nullptr);
}

TEST(RefereeFindingTest, RulesetInvalid) {
  const v1::Finding f = OnlyFinding(Record(R"j({"ruleset": "finkel(pieces=0)"})j"), "ruleset-invalid");
  EXPECT_FALSE(f.has_action_index());
  ExpectMentions(f, {"pieces", "1 to 15"});
  const v1::Finding t = OnlyFinding(Record(R"j({"ruleset": "tablet-betting"})j"), "ruleset-invalid");
  ExpectMentions(t, {"not a complete ruleset"});
  OnlyFinding(Record(R"j({"ruleset": "finkel(pieces=5"})j"), "ruleset-invalid");
}

TEST(RefereeFindingTest, RulesetDigestMismatch) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel(pieces=5)", "ruleset_digest": "13f33ad027a00895",
                 "actions": [{"roll": 1, "from": 0, "to": 1}]})j"),
      "ruleset-digest-mismatch");
  EXPECT_FALSE(f.has_action_index());
  ExpectMentions(f, {"13f33ad027a00895", "d14b6d31029590c6"});
}

TEST(RefereeFindingTest, OpeningAfterDecided) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "opening": [{"light": 3, "dark": 1}, {"light": 2, "dark": 2}]})j"),
      "opening-after-decided");
  EXPECT_FALSE(f.has_action_index());
  ExpectMentions(f, {"2"});
}

TEST(RefereeFindingTest, OpeningIncomplete) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "opening": [{"light": 3}]})j"), "opening-incomplete");
  ExpectMentions(f, {"light", "dark"});
  OnlyFinding(Record(R"j({"ruleset": "finkel", "opening": [{"light": 1, "dark": 1}, {"dark": 3}]})j"),
              "opening-incomplete");
}

TEST(RefereeFindingTest, OpeningImpossibleRoll) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "opening": [{"light": 7, "dark": 1}]})j"),
      "opening-impossible-roll");
  ExpectMentions(f, {"7", "0, 1, 2, 3, 4"});
  // turnover's dice give 0, 1, 4 and 5 only.
  const v1::Finding t = OnlyFinding(
      Record(R"j({"ruleset": "turnover", "opening": [{"light": 1, "dark": 2}]})j"),
      "opening-impossible-roll");
  ExpectMentions(t, {"2", "0, 1, 4, 5"});
}

TEST(RefereeFindingTest, OpeningUndecided) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "opening": [{"light": 2, "dark": 2}, {"light": 0, "dark": 0}],
                 "actions": [{"roll": 1, "from": 0, "to": 1}]})j"),
      "opening-undecided");
  EXPECT_FALSE(f.has_action_index());
  ExpectMentions(f, {"tie"});
}

TEST(RefereeFindingTest, OpeningFirstPlayerMismatch) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "first_player": "DARK", "opening": [{"light": 3, "dark": 1}]})j"),
      "opening-first-player-mismatch");
  ExpectMentions(f, {"light", "dark"});
}

TEST(RefereeFindingTest, FirstPlayerInvalid) {
  v1::GameRecord record;
  record.set_ruleset("finkel");
  record.set_first_player(v1::PLAYER_UNSPECIFIED);
  const v1::Finding f = OnlyFinding(record, "first-player-invalid");
  ExpectMentions(f, {"LIGHT", "DARK"});
}

TEST(RefereeFindingTest, ActionAfterEnd) {
  auto rules = MustLoad("finkel");
  Side winner;
  v1::GameRecord record = RandomGame(*rules, "finkel", 3, kLight, &winner);
  const int end = record.actions_size();
  *record.add_actions() = Act(1, 0, 1);
  *record.add_actions() = Act(9);  // a second error, never reached
  const v1::Finding f = OnlyFinding(record, "action-after-end");
  ASSERT_TRUE(f.has_action_index());
  EXPECT_EQ(f.action_index(), end);
  ExpectMentions(f, {SideName(winner)});
  RefereeResult result = Referee(record);
  EXPECT_EQ(result.replay.actions_size(), end);
  EXPECT_FALSE(result.replay.has_winner()) << "an invalid record names no winner in its replay";
}

TEST(RefereeFindingTest, RollMissing) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": 0, "to": 2}, {"from": 0, "to": 2}]})j"),
      "roll-missing");
  ASSERT_TRUE(f.has_action_index());
  EXPECT_EQ(f.action_index(), 1);
  ExpectMentions(f, {"roll"});
  OnlyFinding(Record(R"j({"ruleset": "finkel", "actions": [{}]})j"), "roll-missing");
}

TEST(RefereeFindingTest, RollImpossible) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [{"roll": 5, "from": 0, "to": 5}]})j"),
      "roll-impossible");
  EXPECT_EQ(f.action_index(), 0);
  ExpectMentions(f, {"5", "0, 1, 2, 3, 4"});
  // Three dice with a blank counting four never throw 0.
  const v1::Finding b = OnlyFinding(
      Record(R"j({"ruleset": "finkel-blank4", "actions": [{"roll": 1, "from": 0, "to": 1}, {"roll": 0}]})j"),
      "roll-impossible");
  EXPECT_EQ(b.action_index(), 1);
  ExpectMentions(b, {"0", "1, 2, 3, 4"});
  OnlyFinding(Record(R"j({"ruleset": "finkel", "actions": [{"roll": -1}]})j"), "roll-impossible");
  OnlyFinding(Record(R"j({"ruleset": "finkel", "actions": [{"roll": 2147483647}]})j"),
              "roll-impossible");
}

TEST(RefereeFindingTest, MoveIncomplete) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": 0}]})j"), "move-incomplete");
  EXPECT_EQ(f.action_index(), 0);
  ExpectMentions(f, {"from", "to"});
  EXPECT_EQ(OnlyFinding(Record(R"j({"ruleset": "finkel", "actions": [{"roll": 0}, {"roll": 2, "to": 2}]})j"),
                        "move-incomplete")
                .action_index(),
            1);
}

TEST(RefereeFindingTest, PassWithLegalMove) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": 0, "to": 2}, {"roll": 3}]})j"),
      "pass-with-legal-move");
  EXPECT_EQ(f.action_index(), 1);
  // Dark to move, a throw of 3: only entering is possible.
  ExpectMentions(f, {"dark", "3", "expected one of 0->3"});
  // Two legal moves: both listed.
  const v1::Finding two = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": 0, "to": 2}, {"roll": 0},
                                                   {"roll": 1}]})j"),
      "pass-with-legal-move");
  EXPECT_EQ(two.action_index(), 2);
  ExpectMentions(two, {"light", "0->1", "2->3"});
}

TEST(RefereeFindingTest, MoveRollMismatch) {
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": 0, "to": 3}]})j"),
      "move-roll-mismatch");
  EXPECT_EQ(f.action_index(), 0);
  ExpectMentions(f, {"0->3", "2", "expected one of 0->2"});
  // A move on a throw of 0: there is nothing to move.
  const v1::Finding z = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [{"roll": 0, "from": 0, "to": 0}]})j"),
      "move-roll-mismatch");
  ExpectMentions(z, {"expected a pass"});
  // Bearing off needs the exact count: from 12 a throw of 4 does not.
  auto rules = MustLoad("finkel(pieces=1)");
  v1::GameRecord record;
  *record.add_actions() = Act(4, 0, 4);
  *record.add_actions() = Act(4, 4, 8);
  *record.add_actions() = Act(4, 8, 12);
  *record.add_actions() = Act(0);
  *record.add_actions() = Act(4, 12, 15);
  RefereeResult result = Referee(record, rules);
  ASSERT_EQ(result.findings.size(), 1u) << Codes(result.findings);
  EXPECT_EQ(result.findings[0].code(), "move-roll-mismatch");
  EXPECT_EQ(result.findings[0].action_index(), 4);
  ExpectMentions(result.findings[0], {"expected a pass"});
}

TEST(RefereeFindingTest, MoveIllegal) {
  // The distance is right but there is no piece on 1.
  const v1::Finding f = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": 1, "to": 3}]})j"),
      "move-illegal");
  EXPECT_EQ(f.action_index(), 0);
  ExpectMentions(f, {"1->3", "expected one of 0->2"});
  // Landing on one's own piece: light has pieces on 2 and 4.
  const v1::Finding own = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "actions": [
          {"roll": 4, "from": 0, "to": 4}, {"roll": 2, "from": 0, "to": 2}, {"roll": 0},
          {"roll": 2, "from": 2, "to": 4}]})j"),
      "move-illegal");
  EXPECT_EQ(own.action_index(), 3);
  // 0->2 and 2->4 land on light's own pieces: only 4->6 is left.
  ExpectMentions(own, {"2->4", "expected one of 4->6"});
  // Capturing on a safe square: dark's piece on 8 (B4) is safe from light.
  const v1::Finding safe = OnlyFinding(
      Record(R"j({"ruleset": "finkel", "first_player": "DARK", "actions": [
          {"roll": 4, "from": 0, "to": 4}, {"roll": 4, "from": 4, "to": 8}, {"roll": 0},
          {"roll": 4, "from": 0, "to": 4}, {"roll": 4, "from": 4, "to": 8}]})j"),
      "move-illegal");
  EXPECT_EQ(safe.action_index(), 4);
  ExpectMentions(safe, {"4->8", "expected a pass"});
  // turnover: a throw of 4 cannot bring a piece on; no move is legal.
  const v1::Finding entry = OnlyFinding(
      Record(R"j({"ruleset": "turnover", "actions": [{"roll": 4, "from": 0, "to": 4}]})j"),
      "move-illegal");
  ExpectMentions(entry, {"expected a pass"});
  // From outside the path.
  OnlyFinding(Record(R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": -2, "to": 0}]})j"),
              "move-illegal");
}

// Any int a record holds is judged without undefined behaviour (the
// sanitizer run of the unit tests aborts on a signed overflow).
TEST(RefereeFindingTest, ExtremeFromAndToAreJudgedWithoutOverflow) {
  for (const char* text :
       {R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": 2147483647, "to": -2147483648}]})j",
        R"j({"ruleset": "finkel", "actions": [{"roll": 4, "from": 2147483646, "to": 2147483647}]})j",
        R"j({"ruleset": "finkel", "actions": [{"roll": 2, "from": -2147483648, "to": 2}]})j",
        R"j({"ruleset": "turnover", "actions": [{"roll": 1, "from": 2147483647, "to": 0}]})j"}) {
    SCOPED_TRACE(text);
    RefereeResult result = Referee(Record(text));
    ASSERT_EQ(result.findings.size(), 1u);
    EXPECT_EQ(result.findings[0].action_index(), 0);
    EXPECT_TRUE(result.findings[0].code() == "move-illegal" ||
                result.findings[0].code() == "move-roll-mismatch")
        << result.findings[0].code();
  }
}

TEST(RefereeFindingTest, JudgingStopsAtTheFirstError) {
  v1::GameRecord record = Record(R"j({"ruleset": "finkel", "actions": [
      {"roll": 2, "from": 0, "to": 2},
      {"roll": 3, "from": 0, "to": 3},
      {"roll": 2, "from": 0, "to": 5},
      {"roll": 9},
      {"roll": 1},
      {}]})j");
  RefereeResult result = Referee(record);
  ASSERT_EQ(result.findings.size(), 1u) << Codes(result.findings);
  EXPECT_EQ(result.findings[0].code(), "move-roll-mismatch");
  EXPECT_EQ(result.findings[0].action_index(), 2);
  // The replay holds the actions judged legal, and the position after them.
  EXPECT_EQ(result.replay.actions_size(), 2);
  EXPECT_EQ(result.final_position.count[kLight][2], 1);
  EXPECT_EQ(result.final_position.count[kDark][3], 1);
  // A broken ruleset stops everything before the actions.
  v1::GameRecord bad_ruleset = record;
  bad_ruleset.set_ruleset("finkel(pieces=99)");
  RefereeResult r2 = Referee(bad_ruleset);
  ASSERT_EQ(r2.findings.size(), 1u);
  EXPECT_EQ(r2.findings[0].code(), "ruleset-invalid");
  EXPECT_EQ(r2.replay.actions_size(), 0);
}

TEST(RefereeFindingTest, DescribeMovesListsEveryMove) {
  MoveList moves;
  moves.push_back(Move{0, 2});
  moves.push_back(Move{4, 6});
  moves.push_back(Move{13, 15});
  EXPECT_EQ(DescribeMoves(moves), "0->2, 4->6, 13->15");
  EXPECT_EQ(DescribeMoves(MoveList()), "");
}

// ReplaySteps makes the steps the referee's replay holds (build_replay),
// for every preset, a legal game and one broken halfway (the steps stop at
// the action before the break).
TEST(ReplayStepsTest, TheStepsOfTheReferee) {
  for (const PresetInfo& preset : Presets()) {
    const std::shared_ptr<const Rules> rules = MustLoad(preset.id);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      Side winner;
      v1::GameRecord record = RandomGame(*rules, preset.id, seed, kLight, &winner);
      if (seed % 2 == 0) record.mutable_actions(record.actions_size() / 2)->set_roll(99);
      const RefereeResult built = Referee(record, nullptr, {.build_replay = true});
      const RefereeResult bare = Referee(record, nullptr, {.build_replay = false});
      EXPECT_EQ(bare.replay.actions_size(), 0);
      ReplaySteps steps(record, bare);
      v1::ReplayStep step;
      int n = 0;
      for (; steps.Next(&step); ++n) {
        ASSERT_LT(n, built.replay.actions_size()) << preset.id << " seed " << seed;
        EXPECT_TRUE(MessageDifferencer::Equals(step, built.replay.actions(n)))
            << preset.id << " seed " << seed << " action " << n;
      }
      EXPECT_EQ(n, built.replay.actions_size()) << preset.id << " seed " << seed;
      EXPECT_FALSE(steps.Next(&step));
    }
  }
  // No rules, no steps.
  v1::GameRecord unknown;
  unknown.set_ruleset("no-such-rules");
  unknown.add_actions()->set_roll(1);
  const RefereeResult none = Referee(unknown);
  v1::ReplayStep step;
  EXPECT_FALSE(ReplaySteps(unknown, none).Next(&step));
}

// JsonMessageStream writes what MessageToJson writes, byte for byte: fields
// before and after the streamed one (a map among them, sorted), none, one,
// and several batches of elements.
TEST(JsonMessageStreamTest, TheBytesOfMessageToJson) {
  const std::shared_ptr<const Rules> rules = MustLoad("finkel");
  for (int actions : {0, 1, 2, 1023, 1024, 1025, 3000}) {
    v1::GameRecord record;
    record.set_ruleset("finkel");
    (*record.mutable_tags())["Light"] = "Ann <&>";
    (*record.mutable_tags())["Dark"] = "Bo";
    (*record.mutable_tags())["Event"] = "\"quoted\" \\ text";
    record.set_first_player(v1::DARK);
    record.add_opening()->set_light(2);
    for (int i = 0; i < actions; ++i) {
      v1::Action* a = record.add_actions();
      a->set_roll(i % 5);
      if (i % 3 == 0) a->set_comment(absl::StrCat("note ", i));
      if (i % 2 == 0) {
        a->set_from(0);
        a->set_to(i % 5);
      }
    }
    record.set_start_position("");
    record.set_comment("after the actions");
    const google::protobuf::FieldDescriptor* field = v1::GameRecord::descriptor()->FindFieldByName("actions");
    std::ostringstream out;
    JsonMessageStream json(out, field);
    v1::GameRecord head = record;
    head.clear_actions();
    json.Begin(head);
    for (const v1::Action& a : record.actions()) json.Add(a);
    json.End(head);
    EXPECT_EQ(out.str(), MessageToJson(record)) << actions << " actions";
  }
  // Nothing but the streamed field, and nothing at all.
  for (int steps : {0, 1500}) {
    v1::Replay replay;
    for (int i = 0; i < steps; ++i) replay.add_actions()->set_index(i);
    std::ostringstream out;
    JsonMessageStream json(out, v1::Replay::descriptor()->FindFieldByName("actions"));
    json.Begin(v1::Replay());
    for (const v1::ReplayStep& s : replay.actions()) json.Add(s);
    json.End(v1::Replay());
    EXPECT_EQ(out.str(), MessageToJson(replay)) << steps << " steps";
  }
}

}  // namespace
}  // namespace scribe
