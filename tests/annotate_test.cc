// The heuristic evaluation (engine/evaluate.h) and record annotation
// (records/annotate.h): each term of the evaluation on positions built for
// it, each annotation tag on a position that shows it, every capture and
// extra throw of the reference games annotated as such, and annotated TSN
// that is still a legal record with the same moves.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/evaluate.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "gtest/gtest.h"
#include "records/annotate.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "records/position_string.h"
#include "records/tsn.h"
#include "tests/test_data.h"

namespace scribe {
namespace {

using nlohmann::json;

std::shared_ptr<const Rules> MustLoad(const std::string& reference) {
  auto r = LoadRuleset(reference);
  EXPECT_TRUE(r.ok()) << reference << ": " << r.status();
  return r.ok() ? *r : nullptr;
}

Position MustParse(const Rules& rules, const std::string& text) {
  auto pos = ParsePositionString(rules, text);
  EXPECT_TRUE(pos.ok()) << text << ": " << pos.status();
  return pos.ok() ? *pos : Position();
}

Move M(int from, int to) { return Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to)}; }

const MoveEvaluation& Find(const std::vector<MoveEvaluation>& moves, Move m) {
  auto it = std::find_if(moves.begin(), moves.end(), [&](const MoveEvaluation& e) { return e.move == m; });
  EXPECT_NE(it, moves.end()) << "move " << int(m.from) << "-" << int(m.to) << " is not legal";
  static const MoveEvaluation kNone;
  return it == moves.end() ? kNone : *it;
}

// --- the evaluation --------------------------------------------------------------

TEST(EvaluateTest, RaceCountsPipsToBearOff) {
  auto rules = MustLoad("finkel");
  // L = 14: a waiting piece needs 15 pips, a piece on index i needs 15 - i.
  EXPECT_EQ(Race(*rules, StartPosition(*rules)), (RaceStanding{105, 105}));
  const Position pos = MustParse(*rules, "5:1...1.........:0/6:......1.......:0 L");
  EXPECT_EQ(Race(*rules, pos), (RaceStanding{5 * 15 + 14 + 10, 6 * 15 + 8}));
  const Position done = MustParse(*rules, "0:..............:7/7:..............:0 D");
  EXPECT_EQ(Race(*rules, done).light, 0);
}

TEST(EvaluateTest, MeanThrowFromTheDice) {
  EXPECT_EQ(MeanThrow(*MustLoad("finkel")), 2.0);         // 4 binary dice
  EXPECT_EQ(MeanThrow(*MustLoad("finkel-blank4")), 2.0);  // (6 + 12 + 6 + 8) / 16
  EXPECT_EQ(MeanThrow(*MustLoad("turnover")), 1.5);       // (10 + 8 + 6) / 16
}

TEST(EvaluateTest, PrefersACaptureToAQuietMoveOfTheSameProgress) {
  auto rules = MustLoad("finkel");
  // Light on A4 (1) and B1 (5), the rest borne off; dark on B3 (its index
  // 7). A throw of 2: 5-7 captures, 1-3 is quiet; both gain two squares.
  const Position pos = MustParse(*rules, "0:1...1.........:5/6:......1.......:0 L");
  const auto ranked = RankMoves(*rules, pos, 2);
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].move, M(5, 7));
  const MoveEvaluation& capture = Find(ranked, M(5, 7));
  const MoveEvaluation& quiet = Find(ranked, M(1, 3));
  EXPECT_EQ(capture.progress, 2);
  EXPECT_EQ(quiet.progress, 2);
  EXPECT_EQ(capture.capture, 7);  // dark's piece had come 7 squares
  EXPECT_EQ(quiet.capture, 0);
  EXPECT_GT(capture.score, quiet.score);
}

TEST(EvaluateTest, PrefersASafeRosette) {
  // Light on A3 (2) and B2 (6), no dark piece on the board. A throw of 2:
  // 6-8 lands on the central rosette (safe, on dark's path too), 2-4 on
  // light's own rosette; both give another throw.
  const std::string text = "5:.1...1........:0/7:..............:0 L";
  auto finkel = MustLoad("finkel");
  const auto ranked = RankMoves(*finkel, MustParse(*finkel, text), 2);
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].move, M(6, 8));
  EXPECT_EQ(Find(ranked, M(6, 8)).safety, 1);
  EXPECT_EQ(Find(ranked, M(2, 4)).safety, 0);  // nobody else walks there
  EXPECT_EQ(Find(ranked, M(6, 8)).extra_throw, 2);
  EXPECT_EQ(Find(ranked, M(2, 4)).extra_throw, 2);
  // Where marks give a throw only, nothing is safe: the two moves tie and
  // keep the move order.
  auto marks = MustLoad("sawah-marks");
  const auto tied = RankMoves(*marks, MustParse(*marks, "5:.1...1..........:0/7:................:0 L"), 2);
  ASSERT_EQ(tied.size(), 2u);
  EXPECT_EQ(tied[0].score, tied[1].score);
  EXPECT_EQ(tied[0].move, M(2, 4));
  EXPECT_EQ(tied[0].safety, 0);
}

TEST(EvaluateTest, PenalisesExposure) {
  auto rules = MustLoad("finkel");
  // Light has a piece on A2 (3); dark one on C2 (its index 3). A throw of 2:
  // 3-5 steps onto B1, which dark's piece reaches with a 2 (6 chances in 16);
  // entering 0-2 stays in light's own lane.
  const Position pos = MustParse(*rules, "6:..1...........:0/6:..1...........:0 L");
  const auto ranked = RankMoves(*rules, pos, 2);
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].move, M(0, 2));
  Position after = pos;
  ApplyMove(*rules, &after, M(3, 5));
  EXPECT_EQ(CaptureWeight(*rules, after, kDark, 5), 6);
  EXPECT_EQ(Find(ranked, M(3, 5)).exposure, -5.0 * 6 / 16);
  EXPECT_EQ(Find(ranked, M(0, 2)).exposure, 0);
  EXPECT_EQ(Find(ranked, M(3, 5)).progress, Find(ranked, M(0, 2)).progress);
}

TEST(EvaluateTest, MovingOutOfReachIsWorthTheRiskItRemoves) {
  auto rules = MustLoad("finkel");
  // Light on B3 (7), dark right behind on B2 (its 6): hit by a 1 (4 in 16).
  // A 4 takes light to B7 (11), out of that piece's reach (5 is no throw).
  const Position pos = MustParse(*rules, "6:......1.......:0/6:.....1........:0 L");
  EXPECT_EQ(CaptureWeight(*rules, pos, kDark, 7), 4);
  const MoveEvaluation e = EvaluateMove(*rules, pos, M(7, 11));
  EXPECT_EQ(e.exposure, 7.0 * 4 / 16);
}

TEST(EvaluateTest, NoExposureOnASafeSquareOrOutOfReach) {
  auto rules = MustLoad("finkel");
  // Light on the central rosette (8), dark on B2 (6): a 2 would reach it,
  // but the rosette is safe.
  const Position pos = MustParse(*rules, "6:.......1......:0/6:.....1........:0 D");
  EXPECT_EQ(CaptureWeight(*rules, pos, kDark, 8), 0);
  // Light on A2 (3): dark's path never crosses light's own lane.
  const Position own = MustParse(*rules, "6:..1...........:0/6:.....1........:0 D");
  EXPECT_EQ(CaptureWeight(*rules, own, kDark, 3), 0);
  // In turnover, pieces going opposite ways never meet: a light piece on the
  // way down on B5 (16) cannot be hit by dark's up-piece on B4 (its 5).
  auto turnover = MustLoad("turnover");
  const Position passing = MustParse(*turnover, "6:...............1....:0/6:....1...............:0 D");
  EXPECT_EQ(CaptureWeight(*turnover, passing, kDark, 16), 0);
}

TEST(EvaluateTest, ValuesBearingOff) {
  auto rules = MustLoad("finkel");
  // Light on A3 (2) and A7 (14), the rest borne off. A throw of 1: 14-off bears off, 2-3 is a
  // quiet step; one square of progress each.
  const Position pos = MustParse(*rules, "0:.1...........1:5/7:..............:0 L");
  const auto ranked = RankMoves(*rules, pos, 1);
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].move, M(14, 15));
  EXPECT_EQ(ranked[0].progress, 1);
  EXPECT_EQ(ranked[0].way_off, 1);
  EXPECT_EQ(Find(ranked, M(2, 3)).way_off, 0);
  EXPECT_GT(ranked[0].score, ranked[1].score);
}

TEST(EvaluateTest, ReachingTheLastStretchCounts) {
  auto rules = MustLoad("finkel");
  // Indices 13 and 14 (A8, A7) are light's alone: from B8 (12) a 1 gets
  // there for good.
  EXPECT_EQ(HomeStretchStart(*rules, kLight), 13);
  EXPECT_EQ(HomeStretchStart(*rules, kDark), 13);
  // In turnover both colours come down the middle row: only the last
  // square (20, safe) is out of reach.
  EXPECT_EQ(HomeStretchStart(*MustLoad("turnover"), kLight), 20);
  const Position pos = MustParse(*rules, "6:...........1..:0/7:..............:0 L");
  EXPECT_EQ(EvaluateMove(*rules, pos, M(12, 13)).way_off, 1);
}

TEST(EvaluateTest, TurnoverStackBearsOffTogether) {
  auto rules = MustLoad("turnover");
  // Three light pieces on the last square (20); a 4 bears them all off.
  const Position pos = MustParse(*rules, "4:...................3:0/7:....................:0 L");
  const auto ranked = RankMoves(*rules, pos, 4);
  ASSERT_EQ(ranked.size(), 1u);
  EXPECT_EQ(ranked[0].progress, 3);
  EXPECT_EQ(ranked[0].way_off, 3);
}

TEST(EvaluateTest, PlacementIsWorthAThrow) {
  auto rules = MustLoad("turnover");
  const auto ranked = RankMoves(*rules, StartPosition(*rules), 5);
  ASSERT_EQ(ranked.size(), 1u);
  EXPECT_EQ(ranked[0].placement, 1.5);
  EXPECT_EQ(ranked[0].progress, 6);  // 5 squares, and the placed piece's first
}

TEST(EvaluateTest, DeterministicAndSortedWithTiesInMoveOrder) {
  for (const PresetInfo& preset : Presets()) {
    auto rules = MustLoad(preset.id);
    Position pos = StartPosition(*rules);
    uint64_t state = 12345;
    MoveList legal;
    for (int step = 0; step < 300 && !IsOver(*rules, pos); ++step) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const int roll = rules->outcomes[(state >> 33) % rules->outcomes.size()].roll;
      const auto a = RankMoves(*rules, pos, roll);
      const auto b = RankMoves(*rules, pos, roll);
      ASSERT_EQ(a.size(), b.size());
      LegalMoves(*rules, pos, roll, &legal);
      ASSERT_EQ(static_cast<int>(a.size()), legal.size());
      for (size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].move, b[k].move);
        EXPECT_EQ(a[k].score, b[k].score);
        EXPECT_EQ(a[k].score, a[k].progress + a[k].capture + a[k].extra_throw + a[k].placement + a[k].safety +
                                  a[k].exposure + a[k].way_off);
        if (k > 0) {
          EXPECT_GE(a[k - 1].score, a[k].score);
          if (a[k - 1].score == a[k].score) EXPECT_LT(a[k - 1].move, a[k].move);
        }
      }
      if (legal.empty()) {
        PassTurn(&pos);
      } else {
        ApplyMove(*rules, &pos, legal[(state >> 40) % legal.size()]);
      }
    }
  }
}

// --- annotation tags --------------------------------------------------------------

v1::GameRecord RecordFrom(const std::string& ruleset, const std::string& start,
                          const std::vector<std::vector<int>>& actions) {
  v1::GameRecord record;
  record.set_ruleset(ruleset);
  if (!start.empty()) record.set_start_position(start);
  for (const auto& a : actions) {
    v1::Action* action = record.add_actions();
    action->set_roll(a[0]);
    if (a.size() == 3) {
      action->set_from(a[1]);
      action->set_to(a[2]);
    }
  }
  return record;
}

AnnotatedRecord MustAnnotate(const v1::GameRecord& record) {
  auto annotated = AnnotateRecord(record);
  EXPECT_TRUE(annotated.ok()) << annotated.status() << "\n" << record.ShortDebugString();
  return annotated.ok() ? *annotated : AnnotatedRecord();
}

using Did = std::vector<std::string>;

TEST(AnnotateTest, Entered) {
  const auto a = MustAnnotate(RecordFrom("finkel", "", {{3, 0, 3}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].did, (Did{"entered", "forced"}));
  EXPECT_EQ(a.actions[0].alternatives, 1);
  EXPECT_EQ(a.actions[0].rank, 1);
  EXPECT_EQ(a.actions[0].race, (RaceStanding{102, 105}));
}

TEST(AnnotateTest, Captured) {
  const auto a = MustAnnotate(RecordFrom("finkel", "0:1...1.........:5/6:......1.......:0 L", {{2, 5, 7}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].did, (Did{"captured"}));
  EXPECT_EQ(a.actions[0].captured, 1);
  EXPECT_EQ(a.actions[0].alternatives, 2);
  EXPECT_EQ(a.actions[0].rank, 1);
  EXPECT_FALSE(a.actions[0].best.has_value());
  // Dark's piece goes back: its race grows by the 7 squares it had come.
  EXPECT_EQ(a.actions[0].race.dark, 6 * 15 + 8 + 7);
}

TEST(AnnotateTest, CapturedSeveralInTurnover) {
  // Two dark pieces on B5 (dark's 6, on the way up); light comes from B4
  // (its 5) with a 1 and takes both.
  const auto a = MustAnnotate(
      RecordFrom("turnover", "6:....1...............:0/5:.....2..............:0 L", {{1, 5, 6}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].captured, 2);
  EXPECT_EQ(a.actions[0].did[0], "captured:2");
}

TEST(AnnotateTest, RosetteAndExtraThrow) {
  const auto a = MustAnnotate(RecordFrom("finkel", "", {{4, 0, 4}, {1, 4, 5}}));
  ASSERT_EQ(a.actions.size(), 2u);
  EXPECT_EQ(a.actions[0].did, (Did{"entered", "rosette", "extra-throw", "forced"}));
  EXPECT_EQ(a.actions[1].player, kLight);  // the same side throws again
  EXPECT_EQ(a.actions[1].did, Did{});        // a quiet step: nothing to say
  EXPECT_EQ(a.actions[1].alternatives, 2);
}

TEST(AnnotateTest, ExtraThrowForACaptureInBlitz) {
  // Blitz: a capture gives another throw. Light on B1 (5), dark on B3 (7).
  const auto a = MustAnnotate(
      RecordFrom("blitz", "4:....1...........:0/4:......1.........:0 L", {{2, 5, 7}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].did, (Did{"captured", "extra-throw"}));
}

TEST(AnnotateTest, PlacedInTurnover) {
  const auto a = MustAnnotate(
      RecordFrom("turnover", "7:....................:0/7:....................:0 L", {{1, 0, 1}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].did, (Did{"entered", "rosette", "placed", "forced"}));
}

TEST(AnnotateTest, BoreOff) {
  const auto a = MustAnnotate(RecordFrom("finkel", "0:.1...........1:5/7:..............:0 L", {{1, 14, 15}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].did, (Did{"bore-off"}));
  EXPECT_EQ(a.actions[0].alternatives, 2);
  EXPECT_EQ(a.actions[0].rank, 1);
}

TEST(AnnotateTest, BoreOffAStack) {
  const auto a = MustAnnotate(
      RecordFrom("turnover", "4:...................3:0/7:....................:0 L", {{4, 20, 21}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].did, (Did{"bore-off:3", "forced"}));
}

TEST(AnnotateTest, Won) {
  const auto a = MustAnnotate(RecordFrom("finkel", "0:.............1:6/7:..............:0 L", {{1, 14, 15}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].did, (Did{"bore-off", "won", "forced"}));
  EXPECT_EQ(a.actions[0].race.light, 0);
  ASSERT_TRUE(a.winner.has_value());
  EXPECT_EQ(*a.winner, kLight);
}

TEST(AnnotateTest, Forced) {
  // Light's only piece on the board is on A2 (3) and nothing waits: a 2 has
  // one move.
  const auto a = MustAnnotate(RecordFrom("finkel(pieces=1)", "0:..1...........:0/1:..............:0 L", {{2, 3, 5}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].did, (Did{"forced"}));
  EXPECT_EQ(a.actions[0].alternatives, 1);
  EXPECT_EQ(a.actions[0].rank, 1);
}

TEST(AnnotateTest, Pass) {
  // A throw of 0, then a throw with no legal move (a 2 from A7, 14: bearing
  // off needs exactly 1).
  const auto a = MustAnnotate(RecordFrom("finkel(pieces=1)", "0:.............1:0/1:..............:0 L",
                                         {{0}, {3, 0, 3}, {2}}));
  ASSERT_EQ(a.actions.size(), 3u);
  EXPECT_EQ(a.actions[0].did, (Did{"pass"}));
  EXPECT_EQ(a.actions[0].alternatives, 0);
  EXPECT_EQ(a.actions[0].rank, 0);
  EXPECT_FALSE(a.actions[0].move.has_value());
  EXPECT_EQ(a.actions[2].did, (Did{"pass"}));
  EXPECT_EQ(a.actions[2].player, kLight);
}

TEST(AnnotateTest, RankAndBestWhenThePlayedMoveIsWorse) {
  // The capture position, but light plays the quiet move.
  const auto a = MustAnnotate(RecordFrom("finkel", "0:1...1.........:5/6:......1.......:0 L", {{2, 1, 3}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].rank, 2);
  ASSERT_TRUE(a.actions[0].best.has_value());
  EXPECT_EQ(*a.actions[0].best, M(5, 7));
  EXPECT_LT(a.actions[0].score, a.actions[0].best_score);
  auto rules = MustLoad("finkel");
  EXPECT_EQ(AnnotationText(*rules, a.actions[0], SquareStyle::kPathNumbers),
            "[%alts 2] [%rank 2/2] [%best 5-7] [%score 2] [%race 22-98]");
  EXPECT_EQ(AnnotationText(*rules, a.actions[0], SquareStyle::kTiles),
            "[%alts 2] [%rank 2/2] [%best B1-B3] [%score 2] [%race 22-98]");
}

TEST(AnnotateTest, AMoveAsGoodAsTheBestIsRankOne) {
  // sawah-marks: 2-4 and 6-8 both gain two squares and a throw, and score
  // the same; RankMoves lists 2-4 first, but playing 6-8 is no mistake.
  const auto a = MustAnnotate(
      RecordFrom("sawah-marks", "5:.1...1..........:0/7:................:0 L", {{2, 6, 8}}));
  ASSERT_EQ(a.actions.size(), 1u);
  EXPECT_EQ(a.actions[0].alternatives, 2);
  EXPECT_EQ(a.actions[0].rank, 1);
  EXPECT_FALSE(a.actions[0].best.has_value());
  EXPECT_EQ(a.actions[0].score, a.actions[0].best_score);
}

TEST(AnnotateTest, AnIllegalRecordIsRefused) {
  auto a = AnnotateRecord(RecordFrom("finkel", "", {{2, 0, 3}}));
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(absl::StrContains(a.status().message(), "action 0")) << a.status();
}

TEST(AnnotateTest, CommentsKeepTheirTextAndLoseOldKeys) {
  EXPECT_EQ(StripAnnotations("a fine move [%did entered] [%alts 2] [%eval 0.5] [%race 1-2]"),
            "a fine move [%eval 0.5]");
  const auto keys = ReadAnnotations("nice [%did entered,rosette] [%rank 2/3] [%race 82-90]");
  EXPECT_EQ(keys.at("did"), "entered,rosette");
  EXPECT_EQ(keys.at("rank"), "2/3");
  EXPECT_EQ(keys.at("race"), "82-90");
  v1::GameRecord record = RecordFrom("finkel", "", {{3, 0, 3}});
  record.mutable_actions(0)->set_comment("the only move [%rank 9/9]");
  const auto a = MustAnnotate(record);
  const v1::GameRecord out = WithAnnotations(record, a);
  EXPECT_EQ(out.actions(0).comment(),
            "the only move [%did entered,forced] [%alts 1] [%rank 1/1] [%score 3] [%race 102-105]");
  // Annotating an annotated record changes nothing.
  EXPECT_EQ(WithAnnotations(out, a).actions(0).comment(), out.actions(0).comment());
}

TEST(AnnotateTest, ProtoCarriesEveryField) {
  const auto a = MustAnnotate(RecordFrom("finkel", "0:1...1.........:5/6:......1.......:0 L", {{2, 1, 3}, {0}}));
  const v1::Annotation proto = AnnotationToProto(a, "finkel");
  EXPECT_EQ(proto.ruleset(), "finkel");
  EXPECT_EQ(proto.ruleset_digest(), a.rules->digest);
  ASSERT_EQ(proto.actions_size(), 2);
  const v1::AnnotatedAction& played = proto.actions(0);
  EXPECT_EQ(played.player(), v1::LIGHT);
  EXPECT_EQ(played.roll(), 2);
  EXPECT_EQ(played.move().from(), 1);
  EXPECT_EQ(played.alternatives(), 2);
  EXPECT_EQ(played.rank(), 2);
  EXPECT_EQ(played.best().from(), 5);
  EXPECT_EQ(played.best().to(), 7);
  EXPECT_EQ(played.race_light(), 22);
  EXPECT_EQ(played.score(), 2);
  const v1::AnnotatedAction& pass = proto.actions(1);
  EXPECT_FALSE(pass.has_move());
  EXPECT_FALSE(pass.has_rank());
  EXPECT_EQ(pass.did(0), "pass");
  const std::string text = MessageToJson(proto);
  EXPECT_TRUE(absl::StrContains(text, "\"did\":[\"pass\"]")) << text;
  EXPECT_TRUE(absl::StrContains(text, "\"best\":{\"from\":5,\"to\":7}")) << text;
}

// --- the reference games ------------------------------------------------------------

struct ReferenceGame {
  v1::GameRecord record;
  std::vector<json> lines;
};

std::vector<ReferenceGame> ReadReferenceGames(const std::string& preset) {
  std::vector<ReferenceGame> games;
  std::istringstream in(testing::ReadTestFile("reference/" + preset + ".jsonl"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    json j = json::parse(line);
    if (j["action"] == 0) {
      games.emplace_back();
      games.back().record.set_ruleset(preset);
      games.back().record.set_first_player(j["player"] == "LIGHT" ? v1::LIGHT : v1::DARK);
    }
    v1::Action* a = games.back().record.add_actions();
    a->set_roll(j["roll"]);
    if (j.contains("move")) {
      a->set_from(j["move"]["from"]);
      a->set_to(j["move"]["to"]);
    }
    games.back().lines.push_back(std::move(j));
  }
  return games;
}

bool HasTag(const std::vector<std::string>& did, const std::string& tag) {
  return std::any_of(did.begin(), did.end(), [&](const std::string& d) {
    return d == tag || absl::StartsWith(d, tag + ":");
  });
}

class AnnotateReferenceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AnnotateReferenceTest, EveryActionSaysWhatItDid) {
  const std::string preset = GetParam();
  auto rules = MustLoad(preset);
  const std::vector<ReferenceGame> games = ReadReferenceGames(preset);
  ASSERT_FALSE(games.empty());
  int captures = 0, extra = 0;
  for (size_t g = 0; g < games.size(); ++g) {
    const ReferenceGame& game = games[g];
    const AnnotatedRecord a = MustAnnotate(game.record);
    ASSERT_EQ(a.actions.size(), game.lines.size());
    for (size_t i = 0; i < game.lines.size(); ++i) {
      const json& j = game.lines[i];
      const ActionAnnotation& an = a.actions[i];
      SCOPED_TRACE(absl::StrCat(preset, " game ", g, " action ", i));
      EXPECT_EQ(an.player, j["player"] == "LIGHT" ? kLight : kDark);
      EXPECT_EQ(an.alternatives, static_cast<int>(j["legal"].size()));
      if (!j.contains("move")) {
        EXPECT_EQ(an.did, (Did{"pass"}));
        continue;
      }
      const int captured = j["captured"];
      const bool extra_roll = j["extra_roll"];
      captures += captured > 0;
      extra += extra_roll;
      EXPECT_EQ(an.captured, captured);
      EXPECT_EQ(HasTag(an.did, "captured"), captured > 0);
      if (captured > 1) EXPECT_TRUE(HasTag(an.did, absl::StrCat("captured:", captured)));
      EXPECT_EQ(HasTag(an.did, "extra-throw"), extra_roll);
      EXPECT_EQ(HasTag(an.did, "entered"), j["move"]["from"] == 0);
      EXPECT_EQ(HasTag(an.did, "bore-off"), j["move"]["to"] == rules->off);
      EXPECT_EQ(HasTag(an.did, "won"), j.contains("winner"));
      EXPECT_EQ(HasTag(an.did, "forced"), j["legal"].size() == 1);
      ASSERT_GE(an.rank, 1);
      ASSERT_LE(an.rank, an.alternatives);
      EXPECT_EQ(an.best.has_value(), an.rank != 1);
      EXPECT_GE(an.best_score, an.score);
      // The race after this action is the standing before the next line.
      if (i + 1 < game.lines.size()) {
        const json& next = game.lines[i + 1]["before"];
        int pips[2] = {0, 0};
        for (int s = 0; s < 2; ++s) {
          const std::vector<int> counts = next[s == 0 ? "light" : "dark"].get<std::vector<int>>();
          for (int k = 0; k <= rules->path_length; ++k) pips[s] += counts[k] * (rules->off - k);
        }
        EXPECT_EQ(an.race.light, pips[0]);
        EXPECT_EQ(an.race.dark, pips[1]);
      }
    }
  }
  // The games do capture and throw again (turnover never throws again).
  EXPECT_GT(captures, 0);
  if (preset != "turnover") EXPECT_GT(extra, 0);
}

TEST_P(AnnotateReferenceTest, AnnotatedTsnIsTheSameLegalRecord) {
  const std::string preset = GetParam();
  for (const ReferenceGame& game : ReadReferenceGames(preset)) {
    const AnnotatedRecord a = MustAnnotate(game.record);
    for (SquareStyle style : {SquareStyle::kPathNumbers, SquareStyle::kTiles}) {
      const v1::GameRecord annotated = WithAnnotations(game.record, a, style);
      TsnWriteOptions options;
      options.squares = style;
      auto text = WriteTsn({annotated}, options);
      ASSERT_TRUE(text.ok()) << text.status();
      const v1::FileReport report = ValidateText("annotated.tsn", *text, Format::kTsn);
      EXPECT_TRUE(report.valid()) << report.ShortDebugString() << "\n" << *text;
      const ParsedRecords back = ReadTsn(*text);
      ASSERT_EQ(back.records.size(), 1u);
      const v1::GameRecord& r = back.records[0];
      ASSERT_EQ(r.actions_size(), game.record.actions_size());
      for (int i = 0; i < r.actions_size(); ++i) {
        const v1::Action& want = game.record.actions(i);
        const v1::Action& got = r.actions(i);
        EXPECT_EQ(got.roll(), want.roll());
        EXPECT_EQ(got.has_from(), want.has_from());
        EXPECT_EQ(got.from(), want.from());
        EXPECT_EQ(got.to(), want.to());
        // The annotations read back as written.
        EXPECT_EQ(got.comment(), annotated.actions(i).comment());
        const auto keys = ReadAnnotations(got.comment());
        EXPECT_EQ(keys.at("alts"), absl::StrCat(a.actions[i].alternatives));
        EXPECT_EQ(keys.at("race"), absl::StrCat(a.actions[i].race.light, "-", a.actions[i].race.dark));
      }
      // And annotating what was read back writes the same text again.
      const AnnotatedRecord again = MustAnnotate(r);
      auto text2 = WriteTsn({WithAnnotations(r, again, style)}, options);
      ASSERT_TRUE(text2.ok());
      EXPECT_EQ(*text2, *text);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, AnnotateReferenceTest,
                         ::testing::Values("finkel", "finkel-blank4", "masters", "blitz", "sawah", "sawah-tablet",
                                           "sawah-marks", "turnover", "murray", "skiriuk"));

}  // namespace
}  // namespace scribe
