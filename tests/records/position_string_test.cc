// Position strings (docs/notation.md, "Position strings"): printing and
// parsing agree at random positions of every preset, every malformed string
// and every impossible position is refused with its own message, and games
// replay from a set-up position, in JSON records and through TSN's
// Position tag.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
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

std::vector<std::string> References() {
  std::vector<std::string> out;
  for (const PresetInfo& p : Presets()) out.push_back(p.id);
  out.push_back("finkel(pieces=5,capture_extra_roll=true,safe_shared=true)");
  out.push_back("turnover(pieces=15)");
  return out;
}

std::string Dots(int n) { return std::string(n, '.'); }

// A board part with `count` pieces on each given index (1-based).
std::string Board(int length, const std::vector<std::pair<int, char>>& pieces) {
  std::string board = Dots(length);
  for (const auto& [index, c] : pieces) board[index - 1] = c;
  return board;
}

// The error message for a string that must be refused.
std::string Refusal(const Rules& rules, const std::string& text) {
  auto pos = ParsePositionString(rules, text);
  EXPECT_FALSE(pos.ok()) << "\"" << text << "\" was accepted as " << PositionToString(rules, *pos);
  if (pos.ok()) return "";
  EXPECT_EQ(pos.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(pos.status().message());
}

// A random legal game with the position before every action and after the
// last one: positions[i] is where action i was thrown.
struct PlayedGame {
  v1::GameRecord record;
  std::vector<Position> positions;
};

PlayedGame PlayRandom(const std::string& reference, uint64_t seed) {
  PlayedGame game;
  const std::shared_ptr<const Rules> rules = MustLoad(reference);
  game.record.set_ruleset(reference);
  if (rules == nullptr) return game;
  Rng rng(seed);
  RandomGameOptions options;
  options.ruleset = reference;
  options.random_first = true;
  options.first_player = RandomGameOptions::FirstPlayer::kAlways;
  options.max_actions = 100000;
  game.record = PlayRandomGame(*rules, rng, options, &game.positions).record;
  return game;
}

// --- Printing ----------------------------------------------------------------

TEST(PositionStringTest, StartOfEveryPreset) {
  for (const std::string& ref : References()) {
    SCOPED_TRACE(ref);
    const std::shared_ptr<const Rules> rules = MustLoad(ref);
    const std::string side = absl::StrCat(rules->pieces, ":", Dots(rules->path_length), ":0");
    EXPECT_EQ(PositionToString(*rules, StartPosition(*rules, kLight)), absl::StrCat(side, "/", side, " L"));
    EXPECT_EQ(PositionToString(*rules, StartPosition(*rules, kDark)), absl::StrCat(side, "/", side, " D"));
  }
  EXPECT_EQ(PositionToString(*MustLoad("finkel"), StartPosition(*MustLoad("finkel"))),
            "7:..............:0/7:..............:0 L");
}

TEST(PositionStringTest, DrawnPosition) {
  // finkel, light to move. Each side's board part follows its own path
  // (light A4 A3 A2 A1 B1 ... B8 A8 A7; dark the same with C for A):
  //
  //  pos:  1 2 3 4 5 6 7 8
  //    A:  L . . .     . .     light: A1 (index 4), 3 waiting, 2 off
  //    B:  . L . . D . . .     light: B2 (6); dark: B5 (9)
  //    C:  . . D .     D .     dark: C3 (2), C7 (14), 4 waiting
  const std::shared_ptr<const Rules> rules = MustLoad("finkel");
  const std::string text = "3:...1.1........:2/4:.1......1....1:0 L";
  auto pos = ParsePositionString(*rules, text);
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->to_move, kLight);
  EXPECT_EQ(pos->count[kLight][0], 3);
  EXPECT_EQ(pos->count[kLight][4], 1);
  EXPECT_EQ(pos->count[kLight][6], 1);
  EXPECT_EQ(pos->count[kLight][15], 2);
  EXPECT_EQ(pos->count[kDark][0], 4);
  EXPECT_EQ(pos->count[kDark][2], 1);
  EXPECT_EQ(pos->count[kDark][9], 1);
  EXPECT_EQ(pos->count[kDark][14], 1);
  EXPECT_EQ(pos->occ[kLight], (1u << 4) | (1u << 6));
  EXPECT_EQ(pos->occ[kDark], (1u << 2) | (1u << 9) | (1u << 14));
  EXPECT_EQ(rules->TileNameAt(kDark, 14), "C7");
  EXPECT_EQ(PositionToString(*rules, *pos), text);
}

TEST(PositionStringTest, CountsAboveNineAreLetters) {
  // turnover stacks; with 15 pieces a square can hold up to 15 (f).
  const std::shared_ptr<const Rules> rules = MustLoad("turnover(pieces=15)");
  ASSERT_EQ(rules->path_length, 20);
  for (int n = 10; n <= 15; ++n) {
    const char c = static_cast<char>('a' + n - 10);
    const std::string text =
        absl::StrCat(15 - n, ":", Board(20, {{20, c}}), ":0/15:", Dots(20), ":0 D");
    auto pos = ParsePositionString(*rules, text);
    ASSERT_TRUE(pos.ok()) << text << ": " << pos.status();
    EXPECT_EQ(pos->count[kLight][20], n);
    EXPECT_EQ(PositionToString(*rules, *pos), text);
  }
  EXPECT_TRUE(ParsePositionString(*rules, absl::StrCat("0:", Board(20, {{1, '9'}, {2, '6'}}), ":0/15:", Dots(20),
                                                       ":0 L"))
                  .ok());
}

// --- Parsing what is not canonical ------------------------------------------------

TEST(PositionStringTest, ZeroIsAnEmptySquareToo) {
  const std::shared_ptr<const Rules> rules = MustLoad("finkel");
  auto pos = ParsePositionString(*rules, "7:00000000000000:0/07:..............:00 L");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(PositionToString(*rules, *pos), "7:..............:0/7:..............:0 L");
}

TEST(PositionStringTest, SpacesAroundAreIgnored) {
  const std::shared_ptr<const Rules> rules = MustLoad("finkel");
  for (const char* text : {"  7:..............:0/7:..............:0 D", "7:..............:0/7:..............:0   D",
                           "7:..............:0/7:..............:0 D \n", "\t7:..............:0/7:..............:0 D"}) {
    auto pos = ParsePositionString(*rules, text);
    ASSERT_TRUE(pos.ok()) << "\"" << text << "\": " << pos.status();
    EXPECT_EQ(pos->to_move, kDark);
  }
}

// --- Round trips -------------------------------------------------------------------

TEST(PositionStringTest, RoundTripAtRandomPositions) {
  int checked = 0;
  for (const std::string& ref : References()) {
    const std::shared_ptr<const Rules> rules = MustLoad(ref);
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      const PlayedGame game = PlayRandom(ref, seed);
      for (const Position& pos : game.positions) {
        const std::string text = PositionToString(*rules, pos);
        auto parsed = ParsePositionString(*rules, text);
        ASSERT_TRUE(parsed.ok()) << ref << " seed " << seed << ": \"" << text << "\": " << parsed.status();
        EXPECT_TRUE(*parsed == pos) << ref << ": " << text;
        EXPECT_EQ(PositionToString(*rules, *parsed), text);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 10000);
}

// --- Refusals ------------------------------------------------------------------------

TEST(PositionStringTest, MalformedStrings) {
  const std::shared_ptr<const Rules> rules = MustLoad("finkel");
  const std::string side = "7:..............:0";
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"", "a position string is <light>/<dark> <to-move>, e.g. \"7:..............:0/7:..............:0 L\""},
      {side + "/" + side,
       "a position string is <light>/<dark> <to-move>, e.g. \"7:..............:0/7:..............:0 L\""},
      {side + " L", "a position string separates light's part from dark's with '/'"},
      {side + "/" + side + " X", "the side to move is \"X\"; expected L or D"},
      {side + "/" + side + " l", "the side to move is \"l\"; expected L or D"},
      {side + "/" + side + " L D", "the side to move is \"L D\"; expected L or D"},
      {"7..............:0/" + side + " L",
       "light's part \"7..............:0\" is not <waiting>:<board>:<borne off>"},
      {side + "/7:..............:0:0 L", "dark's part \"7:..............:0:0\" is not <waiting>:<board>:<borne off>"},
      {side + "/" + side + "/" + side + " L",
       "dark's part \"7:..............:0/7:..............:0\" is not <waiting>:<board>:<borne off>"},
      {"x:..............:0/" + side + " L", "light's waiting count \"x\" is not a number from 0 to 15"},
      {":..............:0/" + side + " L", "light's waiting count \"\" is not a number from 0 to 15"},
      {"16:..............:0/" + side + " L", "light's waiting count \"16\" is not a number from 0 to 15"},
      {"007:..............:0/" + side + " L", "light's waiting count \"007\" is not a number from 0 to 15"},
      {"+7:..............:0/" + side + " L", "light's waiting count \"+7\" is not a number from 0 to 15"},
      {side + "/7:..............:-1 L", "dark's borne-off count \"-1\" is not a number from 0 to 15"},
      {side + "/7:..............:99 L", "dark's borne-off count \"99\" is not a number from 0 to 15"},
      {"7:.............:0/" + side + " L", "light's board part has 13 squares; the path has 14"},
      {side + "/7:...............:0 L", "dark's board part has 15 squares; the path has 14"},
      {"7:..g...........:0/" + side + " L", "light's square 3: 'g' is not '.', a digit or a-f"},
      {"7:.............A:0/" + side + " L", "light's square 14: 'A' is not '.', a digit or a-f"},
      // The first space ends the sides: what follows is the side to move.
      {side + "/7:* ............:0 L", "dark's part \"7:*\" is not <waiting>:<board>:<borne off>"},
      {std::string(300, '.'), "position string too long"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Refusal(*rules, c.text), c.message) << "\"" << c.text << "\"";
  }
}

TEST(PositionStringTest, ImpossiblePositions) {
  const std::shared_ptr<const Rules> finkel = MustLoad("finkel");
  const std::string start = "7:..............:0";
  struct Case {
    std::string reference;
    std::string text;
    std::string message;
  };
  const std::string murray_light = absl::StrCat("5:", Board(27, {{8, '1'}, {20, '1'}}), ":0");
  const std::vector<Case> cases = {
      {"finkel", "7:...1..........:0/" + start + " L",
       "the position is impossible under finkel: light has 8 pieces, the rules say 7"},
      {"finkel", start + "/6:..............:0 L",
       "the position is impossible under finkel: dark has 6 pieces, the rules say 7"},
      {"finkel", "5:...2..........:0/" + start + " L",
       "the position is impossible under finkel: light has 2 pieces on index 4 without stacking"},
      // murray: B4 is light's index 8 and 20; one piece on each is two on B4.
      {"murray", absl::StrCat(murray_light, "/7:", Dots(27), ":0 L"),
       "the position is impossible under murray: light has two pieces on tile B4"},
      // The shared lane: light's and dark's index 9 are both B5.
      {"finkel", "6:........1.....:0/6:........1.....:0 D",
       "the position is impossible under finkel: both colours stand on tile B5"},
      // A safe square that is not shared: B4, index 8 for both.
      {"finkel", "6:.......1......:0/6:.......1......:0 L",
       "the position is impossible under finkel: both colours stand on tile B4"},
      {"finkel", "0:..............:7/0:..............:7 L",
       "the position is impossible under finkel: both sides have borne off every piece"},
      {"finkel(pieces=5)", "5:..............:1/5:..............:0 L",
       "the position is impossible under finkel(pieces=5): light has 6 pieces, the rules say 5"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Refusal(*MustLoad(c.reference), c.text), c.message) << c.reference << " \"" << c.text << "\"";
  }
  // Rules without an id say so.
  auto own = LoadRulesetText("base: \"finkel\"\npieces: 3\n");
  ASSERT_TRUE(own.ok()) << own.status();
  const std::string message = Refusal(**own, "7:..............:0/7:..............:0 L");
  EXPECT_TRUE(absl::StartsWith(message, "the position is impossible under ")) << message;
}

TEST(PositionStringTest, PossibleOddPositions) {
  // turnover: index 20 (B1) is safe and shared: both colours may stand there.
  const std::shared_ptr<const Rules> turnover = MustLoad("turnover");
  const std::string both = absl::StrCat("6:", Board(20, {{20, '1'}}), ":0/5:", Board(20, {{20, '2'}}), ":0 L");
  EXPECT_TRUE(ParsePositionString(*turnover, both).ok()) << ParsePositionString(*turnover, both).status();
  // ... and B4 on the way up (index 5) with B4 on the way down (17): not
  // the same square.
  const std::string phases = absl::StrCat("6:", Board(20, {{5, '1'}}), ":0/6:", Board(20, {{17, '1'}}), ":0 D");
  EXPECT_TRUE(ParsePositionString(*turnover, phases).ok()) << ParsePositionString(*turnover, phases).status();
  // One side has won: a position, if a finished one.
  EXPECT_TRUE(ParsePositionString(*MustLoad("finkel"), "0:..............:7/7:..............:0 D").ok());
  // Own lanes are not shared: light on A2 and dark on C2 (both index 3).
  EXPECT_TRUE(ParsePositionString(*MustLoad("finkel"), "6:..1...........:0/6:..1...........:0 L").ok());
}

// --- Games from a set-up position ----------------------------------------------

TEST(PositionStringTest, TsnGameFromAPositionTag) {
  // finkel, dark to move: light on A1 (4) and B6 (10); dark on B7 (11).
  const std::string text =
      "[TSN \"1\"]\n"
      "[Ruleset \"finkel\"]\n"
      "[Position \"5:...1.....1....:0/6:..........1...:0 D\"]\n"
      "\n"
      "1. D 2:11-13\n"
      "2. L 4:4-8* 1:10-11\n"
      "3. D 4:0-4* 3:4-7\n";
  const v1::FileReport report = ValidateFile("study.tsn", text, Format::kTsn).report;
  EXPECT_TRUE(report.valid()) << report.ShortDebugString();
  ParsedRecords parsed = ReadTsn(text);
  ASSERT_EQ(parsed.records.size(), 1u);
  const RefereeResult result = Referee(parsed.records[0]);
  ASSERT_TRUE(result.valid()) << result.findings[0].ShortDebugString();
  EXPECT_EQ(result.replay.first_player(), v1::DARK);
  EXPECT_EQ(PositionToString(*result.rules, result.final_position), "5:.......1..1...:0/5:......1.....1.:0 L");
  auto written = WriteTsn(parsed.records);
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(*written, text);

  // The same record in JSON: the same game.
  ParsedRecords json = ReadRecords(Format::kJson, WriteRecords(Format::kJson, parsed.records).value());
  ASSERT_EQ(json.records.size(), 1u);
  EXPECT_TRUE(MessageDifferencer::Equals(json.records[0], parsed.records[0])) << json.records[0].DebugString();
  EXPECT_EQ(json.records[0].start_position(), "5:...1.....1....:0/6:..........1...:0 D");
}

TEST(PositionStringTest, TsnPositionTagFindings) {
  const std::string start = "7:..............:0/7:..............:0 L";
  struct Case {
    std::string tags;
    std::string code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"[Position \"7:..............:0/7:..............:0\"]\n", "start-position-invalid",
       "the start position: a position string is <light>/<dark> <to-move>, e.g. "
       "\"7:..............:0/7:..............:0 L\""},
      {"[Position \"8:..............:0/7:..............:0 L\"]\n", "start-position-invalid",
       "the start position: the position is impossible under finkel: light has 8 pieces, the rules say 7"},
      {"[Position \"\"]\n[First \"dark\"]\n", "", ""},  // an empty Position is no Position
      {"[First \"dark\"]\n[Position \"" + start + "\"]\n", "start-position-conflict",
       "the start position has light to move but the record says the other side moved first"},
      {"[ThrowOff \"1-3\"]\n[Position \"" + start + "\"]\n", "start-position-conflict",
       "a record that starts from a set-up position carries no opening throw-off"},
  };
  for (const Case& c : cases) {
    const std::string text = "\n[Ruleset \"finkel\"]\n" + c.tags + "\n";
    const v1::FileReport report = ValidateFile("p.tsn", text, Format::kTsn).report;
    if (c.code.empty()) {
      EXPECT_TRUE(report.valid()) << text << report.ShortDebugString();
      continue;
    }
    ASSERT_EQ(report.findings_size(), 1) << text << report.ShortDebugString();
    const v1::Finding& f = report.findings(0);
    EXPECT_EQ(f.code(), c.code) << text;
    EXPECT_EQ(f.message(), c.message) << text;
    EXPECT_EQ(f.line(), 2) << "at the game's first tag";
    EXPECT_EQ(f.column(), 1);
  }
}

// Every random game, resumed from a position in its middle: the rest of the
// game is legal from there and ends in the same position, and the record
// goes through TSN (both square styles) and back unchanged.
TEST(PositionStringTest, RandomGamesResumedFromTheirMiddle) {
  for (const std::string& ref : References()) {
    const std::shared_ptr<const Rules> rules = MustLoad(ref);
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      const PlayedGame game = PlayRandom(ref, seed);
      Rng rng(seed * 31 + 7);
      const int n = game.record.actions_size();
      const int k = rng.Below(n + 1);
      const std::string context = absl::StrCat(ref, " seed ", seed, " from action ", k, " of ", n);
      v1::GameRecord resumed;
      resumed.set_ruleset(ref);
      resumed.set_start_position(PositionToString(*rules, game.positions[k]));
      for (int i = k; i < n; ++i) *resumed.add_actions() = game.record.actions(i);

      const RefereeResult result = Referee(resumed);
      ASSERT_TRUE(result.valid()) << context << "\n" << result.findings[0].ShortDebugString();
      EXPECT_TRUE(result.final_position == game.positions.back()) << context;
      ASSERT_TRUE(result.winner.has_value()) << context;

      for (SquareStyle style : {SquareStyle::kPathNumbers, SquareStyle::kTiles}) {
        TsnWriteOptions options;
        options.squares = style;
        auto text = WriteTsn({resumed}, options);
        ASSERT_TRUE(text.ok()) << context << ": " << text.status();
        const v1::FileReport report = ValidateFile("r.tsn", *text, Format::kTsn).report;
        EXPECT_TRUE(report.valid()) << context << "\n" << report.ShortDebugString() << "\n" << *text;
        const ParsedRecords parsed = ReadTsn(*text);
        ASSERT_EQ(parsed.records.size(), 1u) << context;
        EXPECT_TRUE(MessageDifferencer::Equals(parsed.records[0], resumed)) << context;
        EXPECT_EQ(WriteTsn(parsed.records, options).value(), *text) << context;
      }
    }
  }
}

TEST(PositionStringTest, ActionAfterAFinishedStart) {
  v1::GameRecord record;
  record.set_ruleset("finkel");
  record.set_start_position("0:..............:7/7:..............:0 D");
  EXPECT_TRUE(Referee(record).valid());
  record.add_actions()->set_roll(2);
  const RefereeResult result = Referee(record);
  ASSERT_EQ(result.findings.size(), 1u);
  EXPECT_EQ(result.findings[0].code(), "action-after-end");
}

}  // namespace
}  // namespace scribe
