// Replays every reference game in tests/data/reference (written by an
// implementation of docs/rulesets.md's rules independent of ours) and agrees with every
// line: the position before each throw, the legal moves, captures, extra
// throws and the winner.
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/ruleset.h"
#include "gtest/gtest.h"
#include "tests/common/test_data.h"

namespace scribe {
namespace {

using nlohmann::json;

std::vector<int> Counts(const Rules& rules, const Position& pos, Side s) {
  std::vector<int> out;
  for (int i = 0; i <= rules.off; ++i) out.push_back(pos.count[s][i]);
  return out;
}

class ReferenceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceTest, AgreesWithEveryLine) {
  const std::string preset = GetParam();
  auto loaded = LoadRuleset(preset);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const Rules& rules = **loaded;
  std::istringstream in(testing::ReadTestFile("reference/" + preset + ".jsonl"));
  std::string line;
  int current_game = -1;
  int games = 0, lines = 0, captures = 0, extra_rolls = 0, winners = 0;
  Position pos;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json j = json::parse(line);
    const int game = j["game"];
    const int action = j["action"];
    SCOPED_TRACE(preset + " game " + std::to_string(game) + " action " + std::to_string(action));
    if (game != current_game) {
      ASSERT_EQ(action, 0);
      current_game = game;
      ++games;
      pos = StartPosition(rules, j["player"] == "LIGHT" ? kLight : kDark);
    }
    ++lines;
    ASSERT_EQ(j["player"] == "LIGHT" ? kLight : kDark, pos.to_move);
    ASSERT_EQ(j["before"]["light"].get<std::vector<int>>(), Counts(rules, pos, kLight));
    ASSERT_EQ(j["before"]["dark"].get<std::vector<int>>(), Counts(rules, pos, kDark));
    const int roll = j["roll"];
    ASSERT_TRUE(rules.CanRoll(roll));
    MoveList legal;
    LegalMoves(rules, pos, roll, &legal);
    std::vector<std::pair<int, int>> ours, theirs;
    for (const Move& m : legal) ours.push_back({m.from, m.to});
    for (const json& m : j["legal"]) theirs.push_back({m["from"], m["to"]});
    ASSERT_EQ(ours, theirs);
    if (!j.contains("move")) {
      ASSERT_TRUE(legal.empty());
      PassTurn(&pos);
      continue;
    }
    const Move move{static_cast<uint8_t>(j["move"]["from"].get<int>()),
                    static_cast<uint8_t>(j["move"]["to"].get<int>())};
    const MoveResult result = ApplyMove(rules, &pos, move);
    EXPECT_EQ(result.captured, j["captured"].get<int>());
    EXPECT_EQ(result.extra_roll, j["extra_roll"].get<bool>());
    captures += result.captured > 0;
    extra_rolls += result.extra_roll;
    if (j.contains("winner")) {
      ++winners;
      ASSERT_TRUE(IsOver(rules, pos));
      EXPECT_EQ(*Winner(rules, pos), j["winner"] == "LIGHT" ? kLight : kDark);
    } else {
      ASSERT_FALSE(IsOver(rules, pos));
    }
  }
  EXPECT_GE(games, 1);
  EXPECT_EQ(winners, games) << "every reference game is played to the end";
  EXPECT_GT(lines, 100);
  EXPECT_GT(captures, 0) << "the reference games exercise captures";
  if (rules.extra_mask != 0) {
    EXPECT_GT(extra_rolls, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, ReferenceTest,
                         ::testing::Values("finkel", "finkel-blank4", "masters", "blitz", "sawah",
                                           "sawah-tablet", "sawah-marks", "turnover", "murray",
                                           "skiriuk"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace scribe
