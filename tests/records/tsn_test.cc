// TSN, the Twenty Squares Notation (docs/notation.md): the reader against
// every rule of the grammar, the canonical writer (random legal games of
// every preset round-trip to equal records and to the same bytes), every
// finding only the written form can have, with its line and column, the
// root-cause rule, and inputs that must give findings, never a crash.
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "records/formats.h"
#include "records/position_string.h"
#include "records/random_game.h"
#include "records/referee.h"
#include "records/tsn.h"
#include "tests/common/test_rules.h"

namespace scribe {
namespace {

using ::google::protobuf::util::MessageDifferencer;

std::string Dump(const std::vector<v1::Finding>& findings) {
  std::string out;
  for (const v1::Finding& f : findings) absl::StrAppend(&out, "  ", f.ShortDebugString(), "\n");
  return out;
}

std::string Dump(const v1::FileReport& report) {
  return Dump(std::vector<v1::Finding>(report.findings().begin(), report.findings().end()));
}

v1::FileReport Validate(absl::string_view text, const RulesPolicy& io = {}) {
  return ValidateFile("game.tsn", text, Format::kTsn, io).report;
}

// "LINE:COLUMN code" for each finding, with " record R" when the finding
// names its record: the shape the tests compare.
std::vector<std::string> Where(const v1::FileReport& report) {
  std::vector<std::string> out;
  for (const v1::Finding& f : report.findings()) {
    std::string s = absl::StrCat(f.line(), ":", f.column(), " ", f.code());
    if (f.has_record_index()) absl::StrAppend(&s, " record ", f.record_index());
    out.push_back(s);
  }
  return out;
}

// Validates a one-game text that must have exactly one finding, with this
// code at this line and column; returns it.
v1::Finding OnlyFinding(absl::string_view text, absl::string_view code, int line, int column) {
  const v1::FileReport report = Validate(text);
  EXPECT_FALSE(report.valid()) << text;
  EXPECT_EQ(report.findings_size(), 1) << text << "\n" << Dump(report);
  if (report.findings_size() == 0) return v1::Finding();
  const v1::Finding& f = report.findings(0);
  EXPECT_EQ(f.code(), code) << text << "\n" << Dump(report);
  EXPECT_TRUE(f.has_line() && f.has_column()) << f.ShortDebugString();
  EXPECT_EQ(f.line(), line) << text << "\n" << f.ShortDebugString();
  EXPECT_EQ(f.column(), column) << text << "\n" << f.ShortDebugString();
  return f;
}

void ExpectValid(absl::string_view text, const RulesPolicy& io = {}) {
  const v1::FileReport report = Validate(text, io);
  EXPECT_TRUE(report.valid()) << text << "\n" << Dump(report);
}

// Reads a text that must hold exactly one well-formed game.
v1::GameRecord ReadOne(absl::string_view text) {
  ParsedRecords parsed = ReadTsn(text);
  EXPECT_TRUE(parsed.findings.empty()) << text << "\n" << Dump(parsed.findings);
  EXPECT_EQ(parsed.records.size(), 1u) << text;
  return parsed.records.empty() ? v1::GameRecord() : parsed.records[0];
}

std::string MustWrite(const std::vector<v1::GameRecord>& records, SquareStyle style = SquareStyle::kPathNumbers) {
  TsnWriteOptions options;
  options.squares = style;
  auto out = WriteTsn(records, options);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : "";
}

std::string MustWrite(const v1::GameRecord& record, SquareStyle style = SquareStyle::kPathNumbers) {
  return MustWrite(std::vector<v1::GameRecord>{record}, style);
}

void ExpectSameRecord(const v1::GameRecord& want, const v1::GameRecord& got, absl::string_view context) {
  std::string diff;
  MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&diff);
  EXPECT_TRUE(differencer.Compare(want, got)) << context << "\n" << diff;
}

// Every preset, and references with overrides that bring in the rules the
// presets do not have together (an extra throw for a capture, shared safe
// squares, few pieces).
std::vector<std::string> References() {
  std::vector<std::string> out;
  for (const PresetInfo& p : Presets()) out.push_back(p.id);
  out.push_back("aseb");
  out.push_back("finkel(pieces=5,capture_extra_roll=true,safe_shared=true)");
  out.push_back("masters(pieces=2)");
  return out;
}

// A random legal game played to the end, as `scribe play` plays one: the
// throw-off for rulesets that have one, else a random first player.
v1::GameRecord RandomGame(const std::string& reference, uint64_t seed) {
  const std::shared_ptr<const Rules> rules = MustLoad(reference);
  v1::GameRecord record;
  record.set_ruleset(reference);
  if (rules == nullptr) return record;
  Rng rng(seed);
  RandomGameOptions options;
  options.ruleset = reference;
  options.random_first = true;
  options.throw_off = true;
  options.first_player = RandomGameOptions::FirstPlayer::kTwoInThree;
  options.max_actions = 100000;
  const RandomGameResult game = PlayRandomGame(*rules, rng, options);
  EXPECT_TRUE(game.over) << reference << " seed " << seed;
  return game.record;
}

// Adds what a real record carries besides the moves: the roster, tags of
// its own (with characters that need escapes), a Result, and comments with
// annotations and escapes on some actions. Comments are in canonical form
// (not empty, no whitespace at either end), as the reader gives them.
void Decorate(uint64_t seed, v1::GameRecord* record) {
  Rng rng(seed ^ 0x5eed);
  auto& tags = *record->mutable_tags();
  tags["Event"] = "Club \"night\" \\ round";
  tags["Light"] = "Ann";
  tags["Dark"] = "Bo";
  tags["Site"] = "London\nBritish Museum";
  tags["Annotator"] = "scribe test";
  tags["zeta_Tag9"] = "";
  const RefereeResult result = Referee(*record);
  if (result.winner) tags["Result"] = SideName(*result.winner);
  if (rng.Below(2)) record->set_comment("Played at [%clock 10:00] {the club} \\o/");
  static const char* const kComments[] = {
      "good", "[%eval 0.52]", "a } brace and a \\ backslash", "two\nlines", "?! [%eval -1.5] [%clk 0:03:12]",
  };
  for (int i = 0; i < record->actions_size(); ++i) {
    if (rng.Below(8) == 0) record->mutable_actions(i)->set_comment(kComments[rng.Below(5)]);
  }
}

// --- Tags ----------------------------------------------------------------------

TEST(TsnTagsTest, KnownTagsFillTheRecordFields) {
  const v1::GameRecord r = ReadOne(
      "[TSN \"1\"]\n"
      "[Ruleset \"finkel(pieces=5)\"]\n"
      "[Digest \"d14b6d31029590c6\"]\n"
      "[First \"dark\"]\n"
      "[ThrowOff \"2-2 1-3\"]\n"
      "[Event \"Club night\"]\n");
  EXPECT_EQ(r.ruleset(), "finkel(pieces=5)");
  EXPECT_EQ(r.ruleset_digest(), "d14b6d31029590c6");
  EXPECT_EQ(r.first_player(), v1::DARK);
  ASSERT_EQ(r.opening_size(), 2);
  EXPECT_EQ(r.opening(0).light(), 2);
  EXPECT_EQ(r.opening(0).dark(), 2);
  EXPECT_EQ(r.opening(1).light(), 1);
  EXPECT_EQ(r.opening(1).dark(), 3);
  ASSERT_EQ(r.tags_size(), 1) << "TSN, Ruleset, Digest, First and ThrowOff are fields, not tags";
  EXPECT_EQ(r.tags().at("Event"), "Club night");
  EXPECT_EQ(r.actions_size(), 0);
  ExpectValid("[Ruleset \"finkel(pieces=5)\"]\n[Digest \"d14b6d31029590c6\"]\n[First \"dark\"]\n"
              "[ThrowOff \"2-2 1-3\"]\n");
}

TEST(TsnTagsTest, PositionTagIsTheStartPosition) {
  const v1::GameRecord r =
      ReadOne("[Ruleset \"finkel\"]\n[Position \"6:...1..........:0/7:..............:0 D\"]\n");
  EXPECT_EQ(r.start_position(), "6:...1..........:0/7:..............:0 D");
  EXPECT_EQ(r.tags_size(), 0);
}

TEST(TsnTagsTest, UnknownTagsAreKept) {
  const v1::GameRecord r = ReadOne(
      "[Ruleset \"finkel\"]\n[Annotator \"Irving\"]\n[Board_Id \"BM 120834\"]\n[x1 \"\"]\n[Light \"Ann\"]\n");
  EXPECT_EQ(r.tags().at("Annotator"), "Irving");
  EXPECT_EQ(r.tags().at("Board_Id"), "BM 120834");
  EXPECT_EQ(r.tags().at("x1"), "");
  EXPECT_EQ(r.tags().at("Light"), "Ann");
}

TEST(TsnTagsTest, ValueEscapes) {
  // \" a quote, \\ a backslash, \n a newline, \ before any other byte that
  // byte; a backslash at the end of a line escapes the line break itself.
  const v1::GameRecord r = ReadOne(
      "[Ruleset \"finkel\"]\n"
      "[Event \"say \\\"hi\\\" \\\\ done\"]\n"
      "[Site \"two\\nlines\"]\n"
      "[Round \"\\q\\]\"]\n"
      "[Dark \"broken\\\nline\"]\n"
      "[Light \"{not a comment} [%eval 1]\"]\n");
  EXPECT_EQ(r.tags().at("Event"), "say \"hi\" \\ done");
  EXPECT_EQ(r.tags().at("Site"), "two\nlines");
  EXPECT_EQ(r.tags().at("Round"), "q]");
  EXPECT_EQ(r.tags().at("Dark"), "broken\nline");
  EXPECT_EQ(r.tags().at("Light"), "{not a comment} [%eval 1]");
}

TEST(TsnTagsTest, SpacesAndTabsInsideTheBrackets) {
  const v1::GameRecord r = ReadOne("[ Ruleset\t\"finkel\" ]  \n[Event   \" spaced \"\t]\n");
  EXPECT_EQ(r.ruleset(), "finkel");
  EXPECT_EQ(r.tags().at("Event"), " spaced ") << "the value is kept as written";
}

TEST(TsnTagsTest, TagsMayBeSeparatedByBlankLines) {
  const v1::GameRecord r = ReadOne("\n\n  [TSN \"1\"]\n\n[Ruleset \"finkel\"]\n\n\n[Light \"Ann\"]\n1. L 3:0-3\n");
  EXPECT_EQ(r.tags().at("Light"), "Ann");
  EXPECT_EQ(r.actions_size(), 1) << "no blank line is needed before the turns";
}

TEST(TsnTagsTest, ThrowOffForms) {
  EXPECT_EQ(ReadOne("[Ruleset \"turnover\"]\n[ThrowOff \"\"]\n").opening_size(), 0);
  EXPECT_EQ(ReadOne("[Ruleset \"turnover\"]\n[ThrowOff \"  4-1  \"]\n").opening_size(), 1);
  const v1::GameRecord r = ReadOne("[Ruleset \"turnover\"]\n[ThrowOff \"1-1 0-0 5-4\"]\n");
  ASSERT_EQ(r.opening_size(), 3);
  EXPECT_EQ(r.opening(2).light(), 5);
  EXPECT_EQ(r.opening(2).dark(), 4);
}

TEST(TsnTagsTest, RulesetIsRequired) {
  OnlyFinding("\n[TSN \"1\"]\n[Event \"x\"]\n\n1. L 3:0-3\n", "ruleset-missing", 2, 1);
}

TEST(TsnTagsTest, RulesetMustResolve) {
  const v1::Finding unknown = OnlyFinding("[TSN \"1\"]\n[Ruleset \"finkle\"]\n", "ruleset-unknown", 2, 1);
  EXPECT_TRUE(absl::StrContains(unknown.message(), "finkle")) << unknown.message();
  const v1::Finding invalid =
      OnlyFinding("[TSN \"1\"]\n[Ruleset \"finkel(pieces=0,colour=red)\"]\n", "ruleset-invalid", 2, 1);
  EXPECT_TRUE(absl::StrContains(invalid.message(), "pieces")) << invalid.message();
  EXPECT_TRUE(absl::StrContains(invalid.message(), "colour")) << invalid.message();
  EXPECT_FALSE(absl::StrContains(invalid.message(), "\n")) << "one line: " << invalid.message();
  OnlyFinding("[Ruleset \"tablet-betting\"]\n", "ruleset-invalid", 1, 1);
}

TEST(TsnTagsTest, DigestIsCheckedWhenPresent) {
  ExpectValid("[Ruleset \"finkel\"]\n[Digest \"13f33ad027a00895\"]\n\n1. L 3:0-3\n");
  const v1::Finding f = OnlyFinding("\n[Ruleset \"finkel(pieces=5)\"]\n[Digest \"13f33ad027a00895\"]\n\n1. L 3:0-3\n",
                                    "ruleset-digest-mismatch", 3, 1);  // at the Digest tag
  EXPECT_TRUE(absl::StrContains(f.message(), "d14b6d31029590c6")) << f.message();
}

TEST(TsnTagsTest, FirstTagSaysWhoStarts) {
  ExpectValid("[Ruleset \"finkel\"]\n[First \"dark\"]\n\n1. D 3:0-3\n2. L 2:0-2\n");
  ExpectValid("[Ruleset \"finkel\"]\n[First \"light\"]\n\n1. L 3:0-3\n");
  OnlyFinding("[Ruleset \"finkel\"]\n[First \"dark\"]\n\n1. L 3:0-3\n", "wrong-side", 4, 6);
}

TEST(TsnTagsTest, ThrowOffIsJudged) {
  ExpectValid("[Ruleset \"turnover\"]\n[ThrowOff \"1-1 0-5\"]\n\n1. D 1:0-1+\n2. L 4:-\n");
  OnlyFinding("[Ruleset \"turnover\"]\n[ThrowOff \"1-1 0-5\"]\n\n1. L 1:0-1+\n", "wrong-side", 4, 6);
  // Findings about the throw-off are the record's: at its first tag.
  OnlyFinding("\n\n[Ruleset \"finkel\"]\n[ThrowOff \"2-2\"]\n", "opening-undecided", 3, 1);
  OnlyFinding("[Ruleset \"finkel\"]\n[ThrowOff \"3-1 2-2\"]\n", "opening-after-decided", 1, 1);
  OnlyFinding("[Ruleset \"finkel\"]\n[ThrowOff \"5-1\"]\n", "opening-impossible-roll", 1, 1);
  OnlyFinding("[Ruleset \"finkel\"]\n[First \"light\"]\n[ThrowOff \"1-3\"]\n", "opening-first-player-mismatch",
              1, 1);
}

struct SyntaxCase {
  const char* name;
  const char* text;
  int line;
  int column;
  const char* message;  // a fragment of the message
};

TEST(TsnTagsTest, TagSyntaxErrors) {
  const SyntaxCase cases[] = {
      {"no name", "[ \"finkel\"]\n", 1, 3, "expected a tag name after '['"},
      {"name starts with a digit", "[9Ruleset \"finkel\"]\n", 1, 2, "expected a tag name"},
      {"name starts with _", "[_x \"1\"]\n", 1, 2, "expected a tag name"},
      {"value not quoted", "[Ruleset finkel]\n", 1, 10, "double quotes"},
      {"value not closed", "[Ruleset \"finkel]\n", 1, 1, "no closing '\"'"},
      {"value not closed at the end", "[Ruleset \"finkel", 1, 1, "no closing '\"'"},
      {"backslash at the end", "[Ruleset \"finkel\\", 1, 1, "no closing '\"'"},
      {"no closing bracket", "[Ruleset \"finkel\"\n", 1, 18, "expected ']'"},
      {"two tags on a line", "[Ruleset \"finkel\"] [Event \"x\"]\n", 1, 20, "end of the line after the tag"},
      {"text after the tag", "[Ruleset \"finkel\"] x\n", 1, 20, "end of the line after the tag"},
      {"duplicate tag", "[Ruleset \"finkel\"]\n[Event \"a\"]\n[Event \"b\"]\n", 3, 1, "tag Event appears twice"},
      {"duplicate Ruleset", "[Ruleset \"finkel\"]\n[Ruleset \"finkel\"]\n", 2, 1, "appears twice"},
      {"unknown version", "[TSN \"2\"]\n[Ruleset \"finkel\"]\n", 1, 1, "TSN version \"2\""},
      {"First not a side", "[Ruleset \"finkel\"]\n[First \"white\"]\n", 2, 1, "First is \"white\""},
      {"ThrowOff one number", "[Ruleset \"finkel\"]\n[ThrowOff \"3\"]\n", 2, 1, "ThrowOff round \"3\""},
      {"ThrowOff letters", "[Ruleset \"finkel\"]\n[ThrowOff \"a-b\"]\n", 2, 1, "ThrowOff round \"a-b\""},
      {"ThrowOff three throws", "[Ruleset \"finkel\"]\n[ThrowOff \"1-2-3\"]\n", 2, 1, "ThrowOff round"},
      {"not a tag at all", "Ruleset \"finkel\"\n", 1, 1, "a game starts with its tags"},
      {"a turn without tags", "\n\n  1. L 3:0-3\n", 3, 3, "a game starts with its tags"},
  };
  for (const SyntaxCase& c : cases) {
    SCOPED_TRACE(c.name);
    const v1::Finding f = OnlyFinding(c.text, "tsn-syntax", c.line, c.column);
    EXPECT_TRUE(absl::StrContains(f.message(), c.message)) << f.message();
  }
}

// A syntax error in a tag loses that game only: the tags after the broken
// one are still that game's, not a game of their own.
TEST(TsnTagsTest, TagSyntaxErrorSkipsTheWholeGame) {
  const std::string text =
      "[TSN \"1\"]\n"           // 1
      "[Ruleset \"finkel\"]\n"  // 2
      "[Event \"unclosed]\n"    // 3
      "[Light \"Ann\"]\n"       // 4
      "\n"                      // 5
      "1. L 3:0-3\n"            // 6
      "\n"                      // 7
      "[Ruleset \"finkel\"]\n"  // 8
      "\n"                      // 9
      "1. L 9:0-9\n";           // 10
  const v1::FileReport report = Validate(text);
  EXPECT_EQ(Where(report), (std::vector<std::string>{"3:1 tsn-syntax record 0", "10:6 roll-impossible record 1"}))
      << Dump(report);
  const ParsedRecords parsed = ReadTsn(text);
  EXPECT_EQ(parsed.entries, 2);
  EXPECT_EQ(parsed.record_indices, std::vector<int>{1});

  // The same with the broken tag before Ruleset: the rest of the game must
  // not come back as a valid game of its own.
  const std::string before =
      "[TSN \"1\"]\n"
      "[Event \"unclosed]\n"
      "[Ruleset \"finkel\"]\n"
      "\n"
      "1. L 3:0-3\n";
  const ParsedRecords parsed_before = ReadTsn(before);
  EXPECT_EQ(parsed_before.entries, 1);
  EXPECT_TRUE(parsed_before.records.empty()) << "the broken game is skipped, not read in part";
}

// --- Comments --------------------------------------------------------------

TEST(TsnCommentsTest, WhereCommentsGo) {
  const v1::GameRecord r = ReadOne(
      "[Ruleset \"finkel\"]\n"
      "\n"
      "{Before the first throw.}\n"
      "{ And a second one. }\n"
      "1. L 4:0-4* {rosette} 4:4-8* {centre} {again} 1:8-9\n"
      "{after the turn}\n"
      "2. D {before D's throw} 2:0-2\n");
  EXPECT_EQ(r.comment(), "Before the first throw. And a second one.");
  ASSERT_EQ(r.actions_size(), 4);
  EXPECT_EQ(r.actions(0).comment(), "rosette");
  EXPECT_EQ(r.actions(1).comment(), "centre again") << "comments in one place are joined by a space";
  EXPECT_EQ(r.actions(2).comment(), "after the turn before D's throw")
      << "a comment belongs to the action before it";
  EXPECT_EQ(r.actions(3).comment(), "");
}

TEST(TsnCommentsTest, CommentInTheTurnLineBeforeAnyAction) {
  const v1::GameRecord r = ReadOne("[Ruleset \"finkel\"]\n\n1. L {opening} 3:0-3\n");
  EXPECT_EQ(r.comment(), "opening");
  EXPECT_EQ(r.actions(0).comment(), "");
}

TEST(TsnCommentsTest, Escapes) {
  const v1::GameRecord r = ReadOne(
      "[Ruleset \"finkel\"]\n\n"
      "1. L 3:0-3 {a \\} brace, a \\\\ backslash, \\n and \\x stay, { opens nothing}\n");
  EXPECT_EQ(r.actions(0).comment(), "a } brace, a \\ backslash, \\n and \\x stay, { opens nothing");
}

TEST(TsnCommentsTest, AnnotationsAreKeptVerbatim) {
  const v1::GameRecord r = ReadOne(
      "[Ruleset \"finkel\"]\n\n1. L 3:0-3 {[%eval 0.52] [%clk 0:01:30] a fine move}\n");
  EXPECT_EQ(r.actions(0).comment(), "[%eval 0.52] [%clk 0:01:30] a fine move");
}

TEST(TsnCommentsTest, CommentsMaySpanLines) {
  const v1::GameRecord r = ReadOne(
      "[Ruleset \"finkel\"]\n\n1. L 3:0-3 {first line\nsecond line} \n2. D 2:0-2\n");
  EXPECT_EQ(r.actions(0).comment(), "first line\nsecond line");
  EXPECT_EQ(r.actions_size(), 2);
}

TEST(TsnCommentsTest, NoSpaceNeededAroundComments) {
  const v1::GameRecord r = ReadOne("[Ruleset \"finkel\"]\n\n1. L 4:0-4*{a}4:4-8*{b}1:8-9\n");
  ASSERT_EQ(r.actions_size(), 3);
  EXPECT_EQ(r.actions(0).comment(), "a");
  EXPECT_EQ(r.actions(1).comment(), "b");
}

TEST(TsnCommentsTest, UnclosedComment) {
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3 {no end\n2. D 2:0-2\n", "tsn-syntax", 3, 12);
  OnlyFinding("[Ruleset \"finkel\"]\n\n{ends with an escape \\}", "tsn-syntax", 3, 1);
}

// An empty comment must not change the comment it follows: reading "{a} {}"
// and writing it must give text that reads back to the same record.
TEST(TsnCommentsTest, EmptyCommentAddsNothing) {
  const v1::GameRecord r = ReadOne("[Ruleset \"finkel\"]\n\n{a} {}\n1. L 3:0-3 {b} { }\n");
  EXPECT_EQ(r.comment(), "a");
  EXPECT_EQ(r.actions(0).comment(), "b");
  const std::string once = MustWrite(r);
  EXPECT_EQ(MustWrite(ReadOne(once)), once) << "the writer's output must be a fixed point";
}

// The writer writes a comment as it is; what it writes must read back to
// the same comment, or be refused.
TEST(TsnCommentsTest, CommentWithSpacesAtTheEndsRoundTrips) {
  v1::GameRecord record = ReadOne("[Ruleset \"finkel\"]\n\n1. L 3:0-3\n");
  record.set_comment(" padded ");
  record.mutable_actions(0)->set_comment("\tat the end\n");
  const std::string text = MustWrite(record);
  ExpectSameRecord(record, ReadOne(text), text);
}

// --- Turns, throws and passes ------------------------------------------------

TEST(TsnTurnsTest, TheFirstExample) {
  const std::string text =
      "[TSN \"1\"]\n"
      "[Ruleset \"finkel\"]\n"
      "[Light \"Ann\"]\n"
      "[Dark \"Bo\"]\n"
      "\n"
      "1. L 4:0-4* 4:4-8* 1:8-9\n"
      "2. D 2:0-2\n"
      "3. L 0:-\n"
      "4. D 3:2-5\n"
      "5. L 2:0-2\n"
      "6. D 4:5-9x\n";
  const v1::GameRecord r = ReadOne(text);
  ASSERT_EQ(r.actions_size(), 8);
  const int want[8][3] = {{4, 0, 4}, {4, 4, 8}, {1, 8, 9}, {2, 0, 2}, {0, -1, -1}, {3, 2, 5}, {2, 0, 2}, {4, 5, 9}};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(r.actions(i).roll(), want[i][0]) << i;
    if (want[i][1] < 0) {
      EXPECT_FALSE(r.actions(i).has_from()) << i;
      EXPECT_FALSE(r.actions(i).has_to()) << i;
    } else {
      EXPECT_EQ(r.actions(i).from(), want[i][1]) << i;
      EXPECT_EQ(r.actions(i).to(), want[i][2]) << i;
    }
  }
  ExpectValid(text);
  EXPECT_EQ(MustWrite(r), text) << "this record is canonical";
}

TEST(TsnTurnsTest, PassWithNoLegalMove) {
  // turnover enters only with 1 or 5: light's 4 has no move.
  const v1::GameRecord r = ReadOne("[Ruleset \"turnover\"]\n\n1. L 4:-\n2. D 0:-\n");
  ASSERT_EQ(r.actions_size(), 2);
  EXPECT_EQ(r.actions(0).roll(), 4);
  EXPECT_FALSE(r.actions(0).has_from());
  ExpectValid("[Ruleset \"turnover\"]\n\n1. L 4:-\n2. D 0:-\n");
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 2:-\n", "pass-with-legal-move", 3, 6);
}

TEST(TsnTurnsTest, LenientSpacing) {
  // No space after the side letter, runs of spaces and tabs, indentation,
  // spaces at the end of the line.
  const v1::GameRecord r = ReadOne("[Ruleset \"finkel\"]\n\n   1.L4:0-4*\t\t4:4-8*   1:8-9   \n\t2.   D 2:0-2\n");
  EXPECT_EQ(r.actions_size(), 4);
}

TEST(TsnTurnsTest, BlankLinesAnywhereBetweenTurns) {
  const std::string text = "\n\n[Ruleset \"finkel\"]\n\n\n1. L 3:0-3\n\n\n\n2. D 2:0-2\n\n\n";
  const v1::GameRecord r = ReadOne(text);
  EXPECT_EQ(r.actions_size(), 2);
  ExpectValid(text);
}

TEST(TsnTurnsTest, LeadingZerosInNumbers) {
  const v1::GameRecord r = ReadOne("[Ruleset \"finkel\"]\n\n01. L 03:00-003\n");
  EXPECT_EQ(r.actions(0).roll(), 3);
  EXPECT_EQ(r.actions(0).from(), 0);
  EXPECT_EQ(r.actions(0).to(), 3);
}

TEST(TsnTurnsTest, TurnSyntaxErrors) {
  const SyntaxCase cases[] = {
      {"no dot", "[Ruleset \"finkel\"]\n\n1 L 3:0-3\n", 3, 2, "expected '.' after the turn number"},
      {"lowercase side", "[Ruleset \"finkel\"]\n\n1. l 3:0-3\n", 3, 4, "expected the side, L or D"},
      {"no side", "[Ruleset \"finkel\"]\n\n1. 3:0-3\n", 3, 4, "expected the side, L or D"},
      {"no throw", "[Ruleset \"finkel\"]\n\n1. L\n", 3, 1, "a turn needs at least one throw"},
      {"only a comment", "[Ruleset \"finkel\"]\n\n1. L {x}\n", 3, 1, "a turn needs at least one throw"},
      {"no colon", "[Ruleset \"finkel\"]\n\n1. L 3 0-3\n", 3, 7, "expected ':' after the throw"},
      {"three-digit throw", "[Ruleset \"finkel\"]\n\n1. L 100:0-3\n", 3, 6, "the throw 100 is more than any dice give"},
      {"letters for a throw", "[Ruleset \"finkel\"]\n\n1. L three:0-3\n", 3, 6, "expected a throw"},
      {"no dash", "[Ruleset \"finkel\"]\n\n1. L 3:0 3\n", 3, 9, "expected '-' between the squares"},
      {"no destination", "[Ruleset \"finkel\"]\n\n1. L 3:0-\n", 3, 10, "expected a square"},
      {"unknown marker", "[Ruleset \"finkel\"]\n\n1. L 3:0-3!\n", 3, 11, "unexpected '!' after the action"},
      {"marker on a pass", "[Ruleset \"finkel\"]\n\n1. L 0:-*\n", 3, 9, "unexpected '*' after the action"},
      {"comma between actions", "[Ruleset \"finkel\"]\n\n1. L 4:0-4*, 1:4-5\n", 3, 12, "unexpected ','"},
      {"a word in the body", "[Ruleset \"finkel\"]\n\nlight 3:0-3\n", 3, 1, "expected a turn"},
      {"tag inside a turn line", "[Ruleset \"finkel\"]\n\n1. L 3:0-3 [Event \"x\"]\n", 3, 12,
       "expected a throw"},
  };
  for (const SyntaxCase& c : cases) {
    SCOPED_TRACE(c.name);
    const v1::Finding f = OnlyFinding(c.text, "tsn-syntax", c.line, c.column);
    EXPECT_TRUE(absl::StrContains(f.message(), c.message)) << f.message();
  }
}

// --- Squares -----------------------------------------------------------------

TEST(TsnSquaresTest, PathNumbersWaitingAndOff) {
  // finkel: L = 14, so 15 is borne off.
  const std::string start = "[Ruleset \"finkel\"]\n[Position \"6:.............1:0/7:..............:0 L\"]\n\n";
  for (const char* move : {"1. L 1:14-15#", "1. L 1:14-off", "1. L 1:A7-off", "1. L 1:a7-15"}) {
    SCOPED_TRACE(move);
    const v1::GameRecord r = ReadOne(start + move + "\n");
    EXPECT_EQ(r.actions(0).from(), 14);
    EXPECT_EQ(r.actions(0).to(), 15);
  }
  for (const char* move : {"1. L 3:0-3", "1. L 3:@-3", "1. L 3:@-A2", "1. L 3:0-a2", "1. L 3:000-A2"}) {
    SCOPED_TRACE(move);
    const v1::GameRecord r = ReadOne(absl::StrCat("[Ruleset \"finkel\"]\n\n", move, "\n"));
    EXPECT_EQ(r.actions(0).from(), 0);
    EXPECT_EQ(r.actions(0).to(), 3);
  }
}

TEST(TsnSquaresTest, TileNamesFollowTheMoversPath) {
  // finkel: light A4 A3 A2 A1 B1 ... B8 A8 A7, dark the same with C for A.
  const v1::GameRecord r = ReadOne("[Ruleset \"finkel\"]\n\n1. L 4:@-A1* 3:A1-B3\n2. D 4:@-C1* 4:C1-B4*\n");
  ASSERT_EQ(r.actions_size(), 4);
  EXPECT_EQ(r.actions(0).to(), 4);
  EXPECT_EQ(r.actions(1).to(), 7);
  EXPECT_EQ(r.actions(2).to(), 4);
  EXPECT_EQ(r.actions(3).to(), 8);
}

TEST(TsnSquaresTest, PrimesOnMurray) {
  // murray's light path visits B7 ... B1 twice: B4 is index 8, B4' is 20.
  const std::shared_ptr<const Rules> rules = MustLoad("murray");
  ASSERT_EQ(rules->path_length, 27);
  std::string board(27, '.');
  board[19 - 1] = '1';
  const std::string header =
      absl::StrCat("[TSN \"1\"]\n[Ruleset \"murray\"]\n[Position \"6:", board, ":0/7:", std::string(27, '.'),
                   ":0 L\"]\n\n");
  const v1::GameRecord r = ReadOne(header + "1. L 1:B5'-B4'* 4:@-A1*\n");
  ASSERT_EQ(r.actions_size(), 2);
  EXPECT_EQ(r.actions(0).from(), 19);
  EXPECT_EQ(r.actions(0).to(), 20);
  EXPECT_EQ(r.actions(1).to(), 4);
  ExpectValid(header + "1. L 1:B5'-B4'* 4:@-A1*\n");
  EXPECT_EQ(MustWrite(r, SquareStyle::kTiles), header + "1. L 1:B5'-B4'* 4:@-A1*\n");
  EXPECT_EQ(MustWrite(r, SquareStyle::kPathNumbers), header + "1. L 1:19-20* 4:0-4*\n");
  // B4 without a prime is index 8: from 19 that is backwards.
  OnlyFinding(header + "1. L 1:B5'-B4*\n", "move-illegal", 5, 6);
  // Each tile of murray's second lap, and where it is.
  const char* second[] = {"B7'", "B6'", "B5'", "B4'", "B3'", "B2'", "B1'"};
  for (int k = 0; k < 7; ++k) {
    SCOPED_TRACE(second[k]);
    const v1::GameRecord t = ReadOne(absl::StrCat("[Ruleset \"murray\"]\n\n1. L 1:", second[k], "-27\n"));
    EXPECT_EQ(t.actions(0).from(), 17 + k);
  }
}

TEST(TsnSquaresTest, PrimesOnTurnover) {
  // turnover's light path: A1 A2 A3 A4 B4 B5 B6 B7 A7 A8 B8 C8 C7 B7' B6'
  // B5' B4' B3 B2 B1: B7 is index 8, B7' index 14.
  std::string board(20, '.');
  board[13 - 1] = '1';
  const std::string header =
      absl::StrCat("[TSN \"1\"]\n[Ruleset \"turnover\"]\n[Position \"6:", board, ":0/7:", std::string(20, '.'),
                   ":0 L\"]\n\n");
  const std::string text = header + "1. L 1:C7-B7'\n";
  const v1::GameRecord r = ReadOne(text);
  EXPECT_EQ(r.actions(0).from(), 13);
  EXPECT_EQ(r.actions(0).to(), 14);
  ExpectValid(text);
  EXPECT_EQ(MustWrite(r, SquareStyle::kTiles), text);
  EXPECT_EQ(ReadOne("[Ruleset \"turnover\"]\n\n1. L 1:B7-B4'\n").actions(0).from(), 8);
  EXPECT_EQ(ReadOne("[Ruleset \"turnover\"]\n\n1. L 1:B3-B1\n").actions(0).to(), 20);
  EXPECT_EQ(ReadOne("[Ruleset \"turnover\"]\n\n1. D 1:C1-A8\n").actions(0).to(), 12)
      << "dark goes round the small block the other way: C7 C8 B8 A8 A7";
}

TEST(TsnSquaresTest, SquareErrors) {
  const SyntaxCase cases[] = {
      {"past the end", "[Ruleset \"finkel\"]\n\n1. L 3:0-16\n", 3, 10, "square 16 is past the end of the path"},
      {"huge number", "[Ruleset \"finkel\"]\n\n1. L 3:0-99999999999999\n", 3, 10, "past the end of the path"},
      {"not on the board", "[Ruleset \"finkel\"]\n\n1. L 3:0-A5\n", 3, 10, "A5 is not on light's path"},
      {"the other side's lane", "[Ruleset \"finkel\"]\n\n1. L 3:0-C2\n", 3, 10, "C2 is not on light's path"},
      {"dark in light's lane", "[Ruleset \"finkel\"]\n\n1. D 3:0-A2\n", 3, 10, "A2 is not on dark's path"},
      {"Egyptian tile on Ur", "[Ruleset \"finkel\"]\n\n1. L 3:B12-off\n", 3, 8, "B12 is not on light's path"},
      {"position 13", "[Ruleset \"sawah\"]\n\n1. L 3:0-B13\n", 3, 10, "\"B13\" is not a tile name"},
      {"position 0", "[Ruleset \"finkel\"]\n\n1. L 3:0-A0\n", 3, 10, "\"A0\" is not a tile name"},
      {"lane only", "[Ruleset \"finkel\"]\n\n1. L 3:0-A\n", 3, 10, "\"A\" is not a tile name"},
      {"lane D", "[Ruleset \"finkel\"]\n\n1. L 3:0-D2\n", 3, 10, "expected a square"},
      {"visited once only", "[Ruleset \"finkel\"]\n\n1. L 3:0-A2'\n", 3, 10, "A2' is not on light's path that many"},
      {"murray's third lap", "[Ruleset \"murray\"]\n\n1. L 3:0-B4''\n", 3, 10, "B4'' is not on light's path"},
      {"many primes", "[Ruleset \"murray\"]\n\n1. L 3:0-B4''''''\n", 3, 10, "not on light's path"},
      {"Off capitalised", "[Ruleset \"finkel\"]\n\n1. L 1:14-Off\n", 3, 11, "expected a square"},
  };
  for (const SyntaxCase& c : cases) {
    SCOPED_TRACE(c.name);
    const v1::Finding f = OnlyFinding(c.text, "tsn-syntax", c.line, c.column);
    EXPECT_TRUE(absl::StrContains(f.message(), c.message)) << f.message();
  }
}

// --- Markers -----------------------------------------------------------------

TEST(TsnMarkersTest, CorrectMarkersAreAccepted) {
  // Light on B1 (index 5) is captured by dark's piece from index 4.
  ExpectValid("[Ruleset \"finkel\"]\n\n1. L 4:0-4* 1:4-5\n2. D 4:0-4* 1:4-5x\n");
  ExpectValid("[Ruleset \"finkel\"]\n\n1. L 4:0-4* 1:4-5\n2. D 4:0-4* 1:4-5x1\n");
  // Markers are optional: none at all is as valid.
  ExpectValid("[Ruleset \"finkel\"]\n\n1. L 4:0-4 1:4-5\n2. D 4:0-4 1:4-5\n");
  // In any order, and repeated.
  // blitz: a capture earns another throw, on the same line.
  ExpectValid("[Ruleset \"blitz\"]\n\n1. L 4:0-4* 1:4-5\n2. D 4:0-4* 1:4-5*x 2:0-2\n");
  ExpectValid("[Ruleset \"blitz\"]\n\n1. L 4:0-4** 1:4-5\n2. D 4:0-4* 1:4-5x*x 2:0-2\n");
}

TEST(TsnMarkersTest, SeveralCapturedAndPlaced) {
  // turnover stacks: two light pieces stand on B5 (index 6, on the way
  // up). Dark's piece on C1 (its index 1) lands on B5 (its index 6, up)
  // with a 5 and captures both; B5 is neither safe nor a rosette.
  std::string light(20, '.');
  light[6 - 1] = '2';
  std::string dark(20, '.');
  dark[1 - 1] = '1';
  const std::string header = absl::StrCat("[TSN \"1\"]\n[Ruleset \"turnover\"]\n[Position \"5:", light, ":0/6:", dark,
                                          ":0 D\"]\n\n");
  ExpectValid(header + "1. D 5:1-6x2\n");
  ExpectValid(header + "1. D 5:1-6x\n");  // x alone: one or more captured
  OnlyFinding(header + "1. D 5:1-6x1\n", "marker-capture", 5, 6);
  OnlyFinding(header + "1. D 5:1-6x3\n", "marker-capture", 5, 6);
  EXPECT_EQ(MustWrite(ReadOne(header + "1. D 5:1-6\n")), header + "1. D 5:1-6x2\n");
  // Entering on a rosette places a waiting piece: +.
  ExpectValid("[Ruleset \"turnover\"]\n\n1. L 1:0-1+\n2. D 5:0-5+\n");
}

TEST(TsnMarkersTest, EndMarker) {
  const std::string header =
      "[Ruleset \"finkel\"]\n[Result \"light\"]\n[Position \"0:.............1:6/7:..............:0 L\"]\n\n";
  ExpectValid(header + "1. L 1:14-15#\n");
  ExpectValid(header + "1. L 1:A7-off#\n");
  ExpectValid(header + "1. L 1:14-15\n");
}

TEST(TsnMarkersTest, EveryMarkerAppearsInRandomGames) {
  // The writer always writes the markers: over random games of every
  // preset, each kind shows up, and xN for several captured.
  std::set<std::string> seen;
  for (const std::string& ref : References()) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      const std::string text = MustWrite(RandomGame(ref, seed));
      for (const char* m : {"x ", "x\n", "x2", "*", "+", "#"}) {
        if (absl::StrContains(text, m)) seen.insert(m);
      }
    }
  }
  for (const char* m : {"x2", "*", "+", "#"}) EXPECT_TRUE(seen.count(m)) << m;
  EXPECT_TRUE(seen.count("x ") || seen.count("x\n"));
}

// --- Several games, blank lines, line ends ---------------------------------------

TEST(TsnFileTest, SeveralGames) {
  const std::string text =
      "[Ruleset \"finkel\"]\n\n1. L 3:0-3\n\n"
      "[Ruleset \"masters\"]\n[First \"dark\"]\n1. D 2:0-2\n"
      "[Ruleset \"turnover\"]\n\n";
  const ParsedRecords parsed = ReadTsn(text);
  EXPECT_TRUE(parsed.findings.empty()) << Dump(parsed.findings);
  ASSERT_EQ(parsed.records.size(), 3u);
  EXPECT_EQ(parsed.entries, 3);
  EXPECT_EQ(parsed.record_indices, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parsed.records[0].ruleset(), "finkel");
  EXPECT_EQ(parsed.records[1].ruleset(), "masters");
  EXPECT_EQ(parsed.records[1].first_player(), v1::DARK);
  EXPECT_EQ(parsed.records[2].ruleset(), "turnover");
  EXPECT_EQ(parsed.records[2].actions_size(), 0);
  ExpectValid(text);
}

TEST(TsnFileTest, EmptyTextHasNoGames) {
  for (const char* text : {"", "\n\n", " \t\r\n"}) {
    const ParsedRecords parsed = ReadTsn(text);
    EXPECT_TRUE(parsed.records.empty());
    EXPECT_TRUE(parsed.findings.empty());
    EXPECT_EQ(parsed.entries, 0);
    // Validation does not call a file with no record valid.
    const v1::FileReport report = Validate(text);
    EXPECT_FALSE(report.valid());
    ASSERT_EQ(report.findings_size(), 1) << Dump(report);
    EXPECT_EQ(report.findings(0).code(), "no-records");
    EXPECT_FALSE(report.findings(0).has_line());
    EXPECT_FALSE(report.findings(0).has_record_index());
  }
}

TEST(TsnFileTest, BadGamesAreSkippedTheOthersRead) {
  const std::string text =
      "[Ruleset \"finkel\"]\n\n1. L 3:0-3\n\n"    // 1-4: game 0, fine
      "[Ruleset \"finkel\"]\n\n1. L 3;0-3\n\n"    // 5-8: game 1, syntax error at 7:7
      "[Ruleset \"nope\"]\n\n1. L 3:0-3\n\n"      // 9-12: game 2, unknown ruleset at 9:1
      "[Ruleset \"finkel\"]\n\n1. L 2:0-2\n";     // 13-15: game 3, fine
  const ParsedRecords parsed = ReadTsn(text);
  EXPECT_EQ(parsed.entries, 4);
  EXPECT_EQ(parsed.record_indices, (std::vector<int>{0, 3}));
  const v1::FileReport report = Validate(text);
  EXPECT_EQ(Where(report), (std::vector<std::string>{"7:7 tsn-syntax record 1", "9:1 ruleset-unknown record 2"}))
      << Dump(report);
}

TEST(TsnFileTest, CrlfLineEnds) {
  const std::string lf =
      "[TSN \"1\"]\n[Ruleset \"finkel\"]\n[Event \"Club\"]\n\n{Notes}\n1. L 4:0-4* 4:4-8* 1:8-9 {good}\n"
      "2. D 2:0-2\n3. L 0:-\n";
  const std::string crlf = absl::StrReplaceAll(lf, {{"\n", "\r\n"}});
  ExpectSameRecord(ReadOne(lf), ReadOne(crlf), crlf);
  ExpectValid(crlf);
  EXPECT_EQ(MustWrite(ReadOne(crlf)), lf) << "the writer writes LF";
  // Findings point at the same line and column either way.
  const std::string bad = absl::StrReplaceAll(lf, {{"2. D 2:0-2", "2. L 2:0-2"}});
  EXPECT_EQ(Where(Validate(absl::StrReplaceAll(bad, {{"\n", "\r\n"}}))), Where(Validate(bad)));
  EXPECT_EQ(Where(Validate(bad)), std::vector<std::string>{"7:6 wrong-side"});
}

// --- Canonical writing and round trips -----------------------------------------

TEST(TsnWriterTest, TagOrder) {
  v1::GameRecord record;
  record.set_ruleset("turnover");
  record.set_ruleset_digest("2c99904850f1ae68");
  auto& tags = *record.mutable_tags();
  // Inserted in no particular order: the writer orders them.
  for (const char* name : {"zebra", "Dice", "Termination", "Result", "Dark", "Light", "Round", "Date", "Site",
                           "Event", "Annotator", "Board"}) {
    tags[name] = name;
  }
  tags["Result"] = "*";
  record.set_first_player(v1::DARK);
  record.add_opening()->set_light(1);
  record.mutable_opening(0)->set_dark(1);
  record.add_opening()->set_light(0);
  record.mutable_opening(1)->set_dark(4);
  record.set_comment("before");
  EXPECT_EQ(MustWrite(record),
            "[TSN \"1\"]\n"
            "[Ruleset \"turnover\"]\n"
            "[Digest \"2c99904850f1ae68\"]\n"
            "[Event \"Event\"]\n"
            "[Site \"Site\"]\n"
            "[Date \"Date\"]\n"
            "[Round \"Round\"]\n"
            "[Light \"Light\"]\n"
            "[Dark \"Dark\"]\n"
            "[Result \"*\"]\n"
            "[Termination \"Termination\"]\n"
            "[Dice \"Dice\"]\n"
            "[First \"dark\"]\n"
            "[ThrowOff \"1-1 0-4\"]\n"
            "[Annotator \"Annotator\"]\n"
            "[Board \"Board\"]\n"
            "[zebra \"zebra\"]\n"
            "\n"
            "{before}\n");
}

TEST(TsnWriterTest, PositionTagReplacesFirst) {
  v1::GameRecord record;
  record.set_ruleset("finkel");
  record.set_start_position("6:...1..........:0/7:..............:0 D");
  record.add_actions()->set_roll(0);
  record.mutable_tags()->insert({"Event", "Study"});
  EXPECT_EQ(MustWrite(record),
            "[TSN \"1\"]\n[Ruleset \"finkel\"]\n[Event \"Study\"]\n"
            "[Position \"6:...1..........:0/7:..............:0 D\"]\n\n1. D 0:-\n");
}

TEST(TsnWriterTest, EscapesTagValuesAndComments) {
  v1::GameRecord record;
  record.set_ruleset("finkel");
  (*record.mutable_tags())["Event"] = "a \"b\" \\c\nd";
  record.set_comment("x } y \\ z");
  record.add_actions()->set_roll(0);
  record.mutable_actions(0)->set_comment("{open} [%eval 0.1]");
  const std::string text = MustWrite(record);
  EXPECT_EQ(text,
            "[TSN \"1\"]\n[Ruleset \"finkel\"]\n[Event \"a \\\"b\\\" \\\\c\\nd\"]\n\n{x \\} y \\\\ z}\n"
            "1. L 0:- {{open\\} [%eval 0.1]}\n");
  ExpectSameRecord(record, ReadOne(text), text);
}

TEST(TsnWriterTest, RefusesWhatItCannotWrite) {
  v1::GameRecord illegal;
  illegal.set_ruleset("finkel");
  illegal.add_actions()->set_roll(2);
  auto out = WriteTsn({illegal});
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(out.status().message(), "cannot write an illegal record")) << out.status();
  EXPECT_TRUE(absl::StrContains(out.status().message(), "action 0")) << out.status();

  v1::GameRecord fine;
  fine.set_ruleset("finkel");
  auto two = WriteTsn({fine, illegal});
  EXPECT_TRUE(absl::StartsWith(two.status().message(), "record 1: ")) << two.status();

  for (const char* name : {"", "Two words", "9lives", "_x", "Ruleset", "TSN", "Digest", "First", "ThrowOff",
                           "Position", "quo\"te"}) {
    SCOPED_TRACE(name);
    v1::GameRecord tagged = fine;
    tagged.mutable_tags()->insert({name, "v"});
    auto w = WriteTsn({tagged});
    if (w.ok()) {
      ADD_FAILURE() << "written:\n" << *w;
    } else {
      EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument) << w.status();
    }
  }
}

// Random legal games of every preset, decorated with tags and comments,
// in both square styles: the text reads back to the same record, judges
// valid, and writing what was read gives the same bytes.
TEST(TsnRoundTripTest, RandomGamesOfEveryPreset) {
  for (const std::string& ref : References()) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      v1::GameRecord record = RandomGame(ref, seed);
      if (seed % 2 == 0) Decorate(seed, &record);
      for (SquareStyle style : {SquareStyle::kPathNumbers, SquareStyle::kTiles}) {
        const std::string context = absl::StrCat(ref, " seed ", seed, style == SquareStyle::kTiles ? " tiles" : "");
        const std::string text = MustWrite(record, style);
        const ParsedRecords parsed = ReadTsn(text);
        ASSERT_TRUE(parsed.findings.empty()) << context << "\n" << Dump(parsed.findings) << text;
        ASSERT_EQ(parsed.records.size(), 1u) << context;
        ExpectSameRecord(record, parsed.records[0], context);
        const v1::FileReport report = Validate(text);
        EXPECT_TRUE(report.valid()) << context << "\n" << Dump(report);
        EXPECT_EQ(MustWrite(parsed.records[0], style), text) << context;
      }
    }
  }
}

// The reader reads actions written with path numbers on a fast path of its
// own, and everything else (tiles, @, off) on the general one: the same
// game both ways must give the same record and the same account of every
// action (side, turn, markers).
TEST(TsnRoundTripTest, PathNumbersAndTilesReadTheSame) {
  for (const std::string& ref : References()) {
    for (uint64_t seed = 20; seed <= 25; ++seed) {
      const v1::GameRecord record = RandomGame(ref, seed);
      const ParsedRecords numbers = ReadTsn(MustWrite(record, SquareStyle::kPathNumbers));
      const ParsedRecords tiles = ReadTsn(MustWrite(record, SquareStyle::kTiles));
      // Written with @ and off, path numbers take the general path too.
      const ParsedRecords mixed = ReadTsn(absl::StrReplaceAll(MustWrite(record, SquareStyle::kPathNumbers),
                                                              {{":0-", ":@-"}}));
      for (const ParsedRecords* other : {&tiles, &mixed}) {
        ASSERT_EQ(numbers.records.size(), 1u);
        ASSERT_EQ(other->records.size(), 1u) << ref << " seed " << seed << Dump(other->findings);
        ExpectSameRecord(numbers.records[0], other->records[0], ref);
        const std::vector<ActionSource>& a = numbers.sources[0].actions;
        const std::vector<ActionSource>& b = other->sources[0].actions;
        ASSERT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
          EXPECT_EQ(a[i].side, b[i].side) << ref << " action " << i;
          EXPECT_EQ(a[i].first_in_turn, b[i].first_in_turn) << ref << " action " << i;
          EXPECT_EQ(a[i].markers, b[i].markers) << ref << " action " << i;
          EXPECT_EQ(a[i].captures, b[i].captures) << ref << " action " << i;
          EXPECT_EQ(a[i].turn, b[i].turn) << ref << " action " << i;
        }
      }
    }
  }
}

TEST(TsnRoundTripTest, ManyGamesInOneFile) {
  std::vector<v1::GameRecord> records;
  for (const std::string& ref : References()) records.push_back(RandomGame(ref, 99));
  for (SquareStyle style : {SquareStyle::kPathNumbers, SquareStyle::kTiles}) {
    const std::string text = MustWrite(records, style);
    const ParsedRecords parsed = ReadTsn(text);
    ASSERT_TRUE(parsed.findings.empty()) << Dump(parsed.findings);
    ASSERT_EQ(parsed.records.size(), records.size());
    for (size_t k = 0; k < records.size(); ++k) ExpectSameRecord(records[k], parsed.records[k], records[k].ruleset());
    EXPECT_EQ(MustWrite(parsed.records, style), text);
    EXPECT_TRUE(Validate(text).valid());
  }
}

// A game with no turns is a record too (a game not yet begun): the writer's
// output for it, followed by another game, must read back as two games.
TEST(TsnRoundTripTest, GameWithoutTurnsFollowedByAnother) {
  v1::GameRecord empty;
  empty.set_ruleset("finkel");
  (*empty.mutable_tags())["Event"] = "not begun";
  v1::GameRecord next = RandomGame("masters", 3);
  const std::string text = MustWrite({empty, next});
  const ParsedRecords parsed = ReadTsn(text);
  EXPECT_TRUE(parsed.findings.empty()) << Dump(parsed.findings) << text;
  ASSERT_EQ(parsed.records.size(), 2u) << text;
  ExpectSameRecord(empty, parsed.records[0], "the empty game");
  ExpectSameRecord(next, parsed.records[1], "the next game");
}

// A set-up position says who moves first; a record that also says so
// (consistently) must not lose it on the way through TSN.
TEST(TsnRoundTripTest, FirstPlayerWithPosition) {
  v1::GameRecord record;
  record.set_ruleset("finkel");
  record.set_start_position("6:...1..........:0/7:..............:0 D");
  record.set_first_player(v1::DARK);
  record.add_actions()->set_roll(0);
  ASSERT_TRUE(Referee(record).valid());
  const std::string text = MustWrite(record);
  ExpectSameRecord(record, ReadOne(text), text);
}

// --- Findings only the written form has, with line and column --------------------

TEST(TsnFindingsTest, WrongSide) {
  const v1::Finding f = OnlyFinding("[Ruleset \"finkel\"]\n\n1. D 3:0-3\n", "wrong-side", 3, 6);
  EXPECT_EQ(f.message(), "it is light's turn, but the line says D");
  EXPECT_EQ(f.action_index(), 0);
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3\n2. D 2:0-2\n3. D 1:0-1\n", "wrong-side", 5, 6);
}

TEST(TsnFindingsTest, TurnPassed) {
  const v1::Finding f = OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3 2:0-2\n", "turn-passed", 3, 12);
  EXPECT_EQ(f.action_index(), 1);
  EXPECT_TRUE(absl::StrContains(f.message(), "ended light's turn")) << f.message();
  // A pass ends the turn too.
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 0:- 2:0-2\n", "turn-passed", 3, 10);
}

TEST(TsnFindingsTest, MissingExtraThrow) {
  const v1::Finding f =
      OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 4:0-4*\n2. D 2:0-2\n", "missing-extra-throw", 4, 6);
  EXPECT_EQ(f.action_index(), 1);
  EXPECT_TRUE(absl::StrContains(f.message(), "earned light another throw")) << f.message();
}

TEST(TsnFindingsTest, TurnSplit) {
  const v1::Finding f = OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 4:0-4*\n2. L 2:4-6\n", "turn-split", 4, 6);
  EXPECT_TRUE(absl::StrContains(f.message(), "belongs on the same line")) << f.message();
}

TEST(TsnFindingsTest, TurnNumber) {
  const v1::Finding f =
      OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3\n3. D 2:0-2\n4. L 1:0-1\n", "turn-number", 4, 6);
  EXPECT_EQ(f.message(), "turn 3 follows turn 1; expected 2");
  // One per record, not one per later turn.
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3\n1. D 2:0-2\n1. L 1:0-1\n1. D 1:0-1\n", "turn-number", 4, 6);
  // The first turn's number is not checked.
  ExpectValid("[Ruleset \"finkel\"]\n\n7. L 3:0-3\n8. D 2:0-2\n");
}

// A first turn numbered 0 must not switch the check off for the next one.
TEST(TsnFindingsTest, TurnNumberAfterTurnZero) {
  OnlyFinding("[Ruleset \"finkel\"]\n\n0. L 3:0-3\n7. D 2:0-2\n", "turn-number", 4, 6);
}

TEST(TsnFindingsTest, MarkerCapture) {
  const v1::Finding none = OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3x\n", "marker-capture", 3, 6);
  EXPECT_EQ(none.message(), "x marks a capture, but the move captures nothing");
  const v1::Finding count =
      OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 4:0-4* 1:4-5\n2. D 4:0-4* 1:4-5x2\n", "marker-capture", 4, 13);
  EXPECT_EQ(count.message(), "x2 marks 2 captured, but the move captures 1");
  EXPECT_EQ(count.action_index(), 3);
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 4:0-4* 1:4-5\n2. D 4:0-4* 1:4-5x0\n", "marker-capture", 4, 13);
}

TEST(TsnFindingsTest, MarkerExtra) {
  const v1::Finding f = OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3*\n2. D 1:0-1\n", "marker-extra", 3, 6);
  EXPECT_TRUE(absl::StrContains(f.message(), "earns none")) << f.message();
}

TEST(TsnFindingsTest, MarkerPlaced) {
  const v1::Finding f = OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3+\n", "marker-placed", 3, 6);
  EXPECT_TRUE(absl::StrContains(f.message(), "none is")) << f.message();
  // turnover places only when a waiting piece is left: index 2 is no rosette.
  OnlyFinding("[Ruleset \"turnover\"]\n\n1. L 1:0-1+\n2. D 0:-\n3. L 1:1-2+\n", "marker-placed", 5, 6);
}

TEST(TsnFindingsTest, MarkerEnd) {
  const v1::Finding f = OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3#\n", "marker-end", 3, 6);
  EXPECT_TRUE(absl::StrContains(f.message(), "the game goes on")) << f.message();
}

TEST(TsnFindingsTest, MarkerFindingsDoNotStopJudging) {
  // Markers are not the root cause of anything: each wrong one is found,
  // and the moves after them are still judged.
  const v1::FileReport report =
      Validate("[Ruleset \"finkel\"]\n\n1. L 3:0-3x\n2. D 2:0-2#\n3. L 1:0-1\n4. D 2:0-3\n");
  EXPECT_EQ(Where(report), (std::vector<std::string>{"3:6 marker-capture", "4:6 marker-end", "6:6 move-roll-mismatch"}))
      << Dump(report);
}

TEST(TsnFindingsTest, ResultMismatch) {
  const std::string unfinished = "\n1. L 3:0-3\n";
  const v1::Finding f =
      OnlyFinding("[Ruleset \"finkel\"]\n[Result \"light\"]\n" + unfinished, "result-mismatch", 2, 1);
  EXPECT_TRUE(absl::StrContains(f.message(), "unfinished")) << f.message();
  EXPECT_FALSE(f.has_action_index());
  ExpectValid("[Ruleset \"finkel\"]\n[Result \"*\"]\n" + unfinished);
  ExpectValid("[Ruleset \"finkel\"]\n[Result \"light\"]\n[Termination \"dark resigned\"]\n" + unfinished);
  ExpectValid("[Ruleset \"finkel\"]\n[Result \"dark\"]\n[Termination \"time\"]\n" + unfinished);
  const v1::Finding value =
      OnlyFinding("[Ruleset \"finkel\"]\n[Event \"x\"]\n[Result \"1-0\"]\n" + unfinished, "result-mismatch", 3, 1);
  EXPECT_EQ(value.message(), "Result \"1-0\" is not \"light\", \"dark\" or \"*\"");
  OnlyFinding("[Ruleset \"finkel\"]\n[Result \"Light\"]\n[Termination \"x\"]\n" + unfinished, "result-mismatch", 2,
              1);

  // Finished games: the Result must name the winner, whatever Termination says.
  const std::string won = "[Position \"0:.............1:6/7:..............:0 L\"]\n\n1. L 1:14-15#\n";
  ExpectValid("[Ruleset \"finkel\"]\n[Result \"light\"]\n" + won);
  const v1::Finding wrong = OnlyFinding("[Ruleset \"finkel\"]\n[Result \"dark\"]\n" + won, "result-mismatch", 2, 1);
  EXPECT_TRUE(absl::StrContains(wrong.message(), "light bearing off every piece")) << wrong.message();
  OnlyFinding("[Ruleset \"finkel\"]\n[Result \"*\"]\n" + won, "result-mismatch", 2, 1);
  OnlyFinding("[Ruleset \"finkel\"]\n[Result \"dark\"]\n[Termination \"x\"]\n" + won, "result-mismatch", 2, 1);
  // No Result tag: nothing to check.
  ExpectValid("[Ruleset \"finkel\"]\n" + won);
}

TEST(TsnFindingsTest, ResultIsNotJudgedOnAnIllegalGame) {
  // The root cause is the illegal move; the Result is not judged after it.
  OnlyFinding("[Ruleset \"finkel\"]\n[Result \"draw\"]\n\n1. L 3:0-4\n", "move-roll-mismatch", 4, 6);
}

TEST(TsnFindingsTest, StartPositionInvalid) {
  const v1::Finding f = OnlyFinding("\n[Ruleset \"finkel\"]\n[Position \"7:..............:0 L\"]\n\n1. L 3:0-3\n",
                                    "start-position-invalid", 2, 1);
  EXPECT_TRUE(absl::StrContains(f.message(), "the start position: ")) << f.message();
  EXPECT_TRUE(absl::StrContains(f.message(), "'/'")) << f.message();
  const v1::Finding impossible = OnlyFinding(
      "[Ruleset \"finkel\"]\n[Position \"6:.........1....:0/6:.........1....:0 L\"]\n", "start-position-invalid", 1, 1);
  EXPECT_TRUE(absl::StrContains(impossible.message(), "both colours stand on tile B6")) << impossible.message();
}

TEST(TsnFindingsTest, StartPositionConflict) {
  const v1::Finding first = OnlyFinding(
      "[Ruleset \"finkel\"]\n[First \"dark\"]\n[Position \"7:..............:0/7:..............:0 L\"]\n",
      "start-position-conflict", 1, 1);
  EXPECT_TRUE(absl::StrContains(first.message(), "light to move")) << first.message();
  const v1::Finding opening = OnlyFinding(
      "[Ruleset \"finkel\"]\n[ThrowOff \"3-1\"]\n[Position \"7:..............:0/7:..............:0 L\"]\n",
      "start-position-conflict", 1, 1);
  EXPECT_TRUE(absl::StrContains(opening.message(), "throw-off")) << opening.message();
  ExpectValid("[Ruleset \"finkel\"]\n[First \"light\"]\n[Position \"7:..............:0/7:..............:0 L\"]\n");
}

TEST(TsnFindingsTest, RefereeFindingsPointAtTheAction) {
  const std::string header = "[Ruleset \"finkel\"]\n\n1. L 3:0-3\n";
  OnlyFinding(header + "2. D 5:0-5\n", "roll-impossible", 4, 6);
  OnlyFinding(header + "2. D 2:0-3\n", "move-roll-mismatch", 4, 6);
  OnlyFinding(header + "2. D 2:2-4\n", "move-illegal", 4, 6);
  OnlyFinding(header + "2. D 2:-\n", "pass-with-legal-move", 4, 6);
  // The column is the throw's, after the comment.
  OnlyFinding(header + "2. D   {c} 3:0-4 {c}\n", "move-roll-mismatch", 4, 12);
  OnlyFinding("[Ruleset \"finkel(pieces=1)\"]\n[Position \"0:.............1:0/1:..............:0 L\"]\n\n"
              "1. L 1:14-15#\n2. D 2:0-2\n",
              "action-after-end", 5, 6);
}

// --- The root cause, once per game ------------------------------------------------

TEST(TsnRootCauseTest, OneFindingPerGameAndTheNextGameIsJudged) {
  const std::string text =
      "[Ruleset \"finkel\"]\n"  // 1
      "\n"                      // 2
      "1. L 3:0-3\n"            // 3
      "2. L 2:0-2\n"            // 4: wrong side
      "3. D 1:0-1\n"            // 5
      "4. L 9:0-9 7:1-1x3\n"    // 6
      "\n"                      // 7
      "[Ruleset \"finkel\"]\n"  // 8
      "\n"                      // 9
      "1. L 3:0-3\n"            // 10
      "2. D 2:0-5\n"            // 11: illegal move
      "3. L 2:0-2 4:0-4\n"      // 12
      "3. L 2:0-2\n"            // 13
      "\n"                      // 14
      "[Ruleset \"finkel\"]\n"  // 15
      "[Result \"light\"]\n"    // 16
      "\n"                      // 17
      "1. L 4:0-4 4:4-8\n"      // 18: fine (markers are optional)
      "\n"                      // 19
      "[Ruleset \"finkel\"]\n"  // 20
      "\n"                      // 21
      "1. L 4:0-4\n"            // 22
      "2. D 2:0-2\n";           // 23: light's extra throw is missing
  const v1::FileReport report = Validate(text);
  EXPECT_EQ(Where(report),
            (std::vector<std::string>{"4:6 wrong-side record 0", "11:6 move-roll-mismatch record 1",
                                      "16:1 result-mismatch record 2", "23:6 missing-extra-throw record 3"}))
      << Dump(report);
}

TEST(TsnRootCauseTest, TheWrittenFormWinsOverTheRefereeAtTheSameAction) {
  // Read as dark's, 2:0-5 would be an illegal move; the root cause is that
  // it is on light's line after light's turn ended.
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-3 2:0-5\n", "turn-passed", 3, 12);
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 4:0-4*\n2. D 9:0-9\n", "missing-extra-throw", 4, 6);
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. D 9:0-9\n", "wrong-side", 3, 6);
}

TEST(TsnRootCauseTest, AnIllegalMoveBeforeAWrongSide) {
  OnlyFinding("[Ruleset \"finkel\"]\n\n1. L 3:0-4\n2. L 2:0-2\n", "move-roll-mismatch", 3, 6);
}

// --- Nasty inputs: findings, never a crash ---------------------------------------

// Every finding of a report has a code, and a line and column inside the
// text (but `no-records`, which is about the whole file).
void ExpectSaneReport(absl::string_view text, const v1::FileReport& report) {
  const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  EXPECT_EQ(report.valid(), report.findings_size() == 0);
  for (const v1::Finding& f : report.findings()) {
    EXPECT_FALSE(f.code().empty());
    EXPECT_FALSE(f.message().empty()) << f.code();
    if (f.code() == "no-records") {
      EXPECT_EQ(report.findings_size(), 1) << "no records, so nothing else to find";
      continue;
    }
    ASSERT_TRUE(f.has_line()) << f.ShortDebugString();
    EXPECT_GE(f.line(), 1);
    EXPECT_LE(f.line(), lines) << f.ShortDebugString();
    EXPECT_GE(f.column(), 1);
  }
}

TEST(TsnRobustnessTest, EveryPrefixOfAFile) {
  std::vector<v1::GameRecord> records = {RandomGame("finkel", 5), RandomGame("turnover", 5)};
  Decorate(5, &records[0]);
  const std::string text = MustWrite(records, SquareStyle::kTiles);
  for (size_t n = 0; n <= text.size(); ++n) {
    const absl::string_view prefix(text.data(), n);
    ExpectSaneReport(prefix, Validate(prefix));
  }
}

TEST(TsnRobustnessTest, RandomBytes) {
  Rng rng(2024);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const int size = rng.Below(400);
    for (int i = 0; i < size; ++i) text.push_back(static_cast<char>(rng.Below(256)));
    if (round % 3 == 0) text = "[Ruleset \"finkel\"]\n\n1. L " + text;
    ExpectSaneReport(text, Validate(text));
  }
}

TEST(TsnRobustnessTest, MutatedGames) {
  // Random single-byte changes to a real game: every outcome is a report.
  const std::string good = MustWrite(RandomGame("murray", 8), SquareStyle::kTiles);
  const char kAlphabet[] = "0123456789:-@'*x+#{}[]\"\\ \n\rLDABCoff.\x00\xff";
  Rng rng(7);
  for (int round = 0; round < 500; ++round) {
    std::string text = good;
    for (int k = 0; k < 1 + rng.Below(3); ++k) {
      text[rng.Below(static_cast<int>(text.size()))] = kAlphabet[rng.Below(sizeof(kAlphabet) - 1)];
    }
    ExpectSaneReport(text, Validate(text));
  }
}

TEST(TsnRobustnessTest, BinaryBytes) {
  const std::string text = std::string("\x00\x01\xfe\xff", 4) + "[Ruleset \"finkel\"]\n\n1. L 3:0-3\n";
  const v1::Finding f = OnlyFinding(text, "tsn-syntax", 1, 1);
  EXPECT_TRUE(absl::StrContains(f.message(), "byte 0x00")) << f.message();
  OnlyFinding(std::string("[Ruleset \"finkel\"]\n\n1. L 3:0-3\x00\n", 32), "tsn-syntax", 3, 11);
  // A UTF-8 byte order mark at the start is skipped (columns count from
  // after it); a second one is a byte like any other.
  ExpectValid("\xef\xbb\xbf[Ruleset \"finkel\"]\n\n1. L 3:0-3\n");
  OnlyFinding("\xef\xbb\xbf[Ruleset \"finkel\"] x\n", "tsn-syntax", 1, 20);
  OnlyFinding("\xef\xbb\xbf\xef\xbb\xbf[Ruleset \"finkel\"]\n", "tsn-syntax", 1, 1);
  // Bytes that are not ASCII are fine inside values and comments.
  const v1::GameRecord r = ReadOne("[Ruleset \"finkel\"]\n[Light \"Ann\xc3\xa9\"]\n\n1. L 3:0-3 {\xe2\x9c\x93}\n");
  EXPECT_EQ(r.tags().at("Light"), "Ann\xc3\xa9");
  EXPECT_EQ(r.actions(0).comment(), "\xe2\x9c\x93");
}

TEST(TsnRobustnessTest, HugeNumbers) {
  const std::string h = "[Ruleset \"finkel\"]\n\n";
  // Each quoted as written, at its first digit.
  OnlyFinding(h + "99999999999999999999. L 3:0-3\n", "tsn-syntax", 3, 1);
  OnlyFinding(h + "1. L 99999999999999999999:0-3\n", "tsn-syntax", 3, 6);
  OnlyFinding(h + "1. L 3:99999999999999999999-3\n", "tsn-syntax", 3, 8);
  OnlyFinding(h + "1. L 3:0-3x99999999999999999999\n", "tsn-syntax", 3, 12);
  OnlyFinding(h + "1. L 4:0-4* 1:4-5\n2. D 4:0-4* 1:4-5x999999999\n", "marker-capture", 4, 13);
  OnlyFinding("[Ruleset \"finkel\"]\n[ThrowOff \"99999999999999999999-1\"]\n", "tsn-syntax", 2, 1);
  OnlyFinding("[Ruleset \"finkel\"]\n[ThrowOff \"2147483647-1\"]\n", "opening-impossible-roll", 1, 1);
  OnlyFinding(h + "999999999. L 3:0-3\n1000000001. D 2:0-2\n", "tsn-syntax", 4, 1);
}

TEST(TsnRobustnessTest, TenThousandTurns) {
  std::string text = "[Ruleset \"finkel\"]\n\n";
  for (int t = 1; t <= 10000; ++t) absl::StrAppend(&text, t, ". ", t % 2 ? "L" : "D", " 0:-\n");
  const v1::GameRecord r = ReadOne(text);
  EXPECT_EQ(r.actions_size(), 10000);
  ExpectValid(text);
  EXPECT_EQ(MustWrite(r), "[TSN \"1\"]\n" + text);
  // A wrong side at the very end is still found, with its line.
  std::string bad = text;
  bad.replace(bad.rfind(". D"), 3, ". L");
  OnlyFinding(bad, "wrong-side", 10002, 10);
}

TEST(TsnRobustnessTest, LongLinesAndValues) {
  const std::string big(1 << 20, 'a');
  const v1::GameRecord r = ReadOne("[Ruleset \"finkel\"]\n[Event \"" + big + "\"]\n\n1. L 3:0-3 {" + big + "}\n");
  EXPECT_EQ(r.tags().at("Event").size(), big.size());
  EXPECT_EQ(r.actions(0).comment().size(), big.size());
  // Many games.
  std::string many;
  for (int k = 0; k < 2000; ++k) absl::StrAppend(&many, "[Ruleset \"finkel\"]\n1. L 3:0-3\n");
  EXPECT_EQ(ReadTsn(many).records.size(), 2000u);
}

// --- Judging TSN under a ruleset of the user's own ---------------------------

// validate --ruleset judges every record by the rules given; a TSN record
// naming a ruleset the presets do not have must then still be read.
TEST(TsnValidateTest, RulesetOptionJudgesTsnRecords) {
  auto rules = LoadRulesetText("base: \"finkel\"\nid: \"five\"\npieces: 5\n");
  ASSERT_TRUE(rules.ok()) << rules.status();
  RulesPolicy io;
  io.rules = *rules;
  io.ruleset = "five";
  ExpectValid("[Ruleset \"five\"]\n\n1. L 3:0-3\n", io);
}

TEST(TsnValidateTest, DetectsTsnByNameAndContent) {
  EXPECT_EQ(DetectFormat("game.tsn", "{"), Format::kTsn);
  EXPECT_EQ(DetectFormat("GAME.TSN", ""), Format::kTsn);
  EXPECT_EQ(DetectFormat("game.json", "[Ruleset \"finkel\"]"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "\n  [Ruleset \"finkel\"]\n"), Format::kTsn);
  EXPECT_EQ(DetectFormat("-", "  [ {\"ruleset\": \"finkel\"}]"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "[]"), Format::kJson);
  EXPECT_EQ(DetectFormat("-", "{\"ruleset\": \"finkel\"}"), Format::kJson);
  EXPECT_EQ(DetectFormat("notes.txt", "1. L 3:0-3"), Format::kTsn);
}

TEST(TsnValidateTest, RecordIndexOnlyWhenTheFileHasSeveralGames) {
  const v1::FileReport one = Validate("[Ruleset \"finkel\"]\n\n1. D 3:0-3\n");
  ASSERT_EQ(one.findings_size(), 1);
  EXPECT_FALSE(one.findings(0).has_record_index());
  const v1::FileReport two = Validate("[Ruleset \"finkel\"]\n\n1. D 3:0-3\n\n[Ruleset \"finkel\"]\n");
  ASSERT_EQ(two.findings_size(), 1);
  EXPECT_EQ(two.findings(0).record_index(), 0);
}

}  // namespace
}  // namespace scribe
