// The heuristic evaluation (engine/evaluate.h) and record annotation
// (review/annotate.h): each term of the evaluation on positions built for
// it, each annotation tag on a position that shows it, every capture and
// extra throw of the reference games annotated as such, and annotated TSN
// that is still a legal record with the same moves. Winning chances from an
// exact evaluator solved here for finkel(pieces=2) (and a noisy estimate
// made from it): losses, marks, luck, summaries, the TSN keys, the JSON
// fields, and the graph.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/evaluate.h"
#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "gtest/gtest.h"
#include "records/formats.h"
#include "records/json_record.h"
#include "records/position_string.h"
#include "records/random_game.h"
#include "review/annotate.h"
#include "review/annotation_text.h"
#include "review/render.h"
#include "tests/common/exact_test_evaluator.h"
#include "records/tsn.h"
#include "tests/common/test_data.h"
#include "tests/common/test_positions.h"
#include "tests/common/test_rules.h"

namespace scribe {
namespace {

using nlohmann::json;

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
          if (a[k - 1].score == a[k].score) {
            EXPECT_LT(a[k - 1].move, a[k].move);
          }
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
      if (captured > 1) {
        EXPECT_TRUE(HasTag(an.did, absl::StrCat("captured:", captured)));
      }
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
  if (preset != "turnover") {
    EXPECT_GT(extra, 0);
  }
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
      const v1::FileReport report = ValidateFile("annotated.tsn", *text, Format::kTsn).report;
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

// --- winning chances ------------------------------------------------------------
//
// An exact evaluator of the tests' own (tests/common/exact_test_evaluator.h), so
// that these tests depend on neither the solved tables nor the search.

// An estimate: the exact values, each off by a fixed amount of up to 3
// points that depends on the position.
class NoisyTestEvaluator : public Evaluator {
 public:
  explicit NoisyTestEvaluator(const ExactTestEvaluator& exact) : exact_(exact) {}
  double Value(const Position& pos) const override {
    if (IsOver(exact_.rules(), pos)) return FinishedValue(exact_.rules(), pos);
    const double noise = static_cast<double>(PositionHash{}(pos) % 1001) / 1000.0 * 0.06 - 0.03;
    return std::clamp(exact_.Value(pos) + noise, 0.0, 1.0);
  }
  bool exact() const override { return false; }
  std::string name() const override { return "test estimate [noisy]"; }
  const Rules& rules() const override { return exact_.rules(); }

 private:
  const ExactTestEvaluator& exact_;
};

// One evaluator per test program: the solve takes a fraction of a second.
const ExactTestEvaluator& Exact2() {
  static const ExactTestEvaluator* evaluator = new ExactTestEvaluator(MustLoad("finkel(pieces=2)"));
  return *evaluator;
}

constexpr char kTwo[] = "finkel(pieces=2)";

// A record of one throw (and move, unless `move` is absent) from `pos`.
v1::GameRecord OneThrow(const Rules& rules, const Position& pos, int roll, std::optional<Move> move) {
  v1::GameRecord record;
  record.set_ruleset(kTwo);
  record.set_start_position(PositionToString(rules, pos));
  v1::Action* a = record.add_actions();
  a->set_roll(roll);
  if (move) {
    a->set_from(move->from);
    a->set_to(move->to);
  }
  return record;
}

AnnotatedRecord MustAnnotateWith(const v1::GameRecord& record, const Evaluator& evaluator) {
  auto annotated = AnnotateWithValues(record, evaluator);
  EXPECT_TRUE(annotated.ok()) << annotated.status() << "\n" << record.ShortDebugString();
  return annotated.ok() ? *annotated : AnnotatedRecord();
}

// A random legal game of `rules`, to the end.
v1::GameRecord RandomGame(const Rules& rules, const std::string& ruleset, uint64_t seed) {
  Rng rng(seed);
  RandomGameOptions options;
  options.ruleset = ruleset;
  return PlayRandomGame(rules, rng, options).record;
}

// The values an annotation must have, worked out here from an evaluator's
// Value alone: the engine's move generator and the rules of the game, none of
// engine/evaluator.h's helpers (ValueAfterMove, ValueOfThrow,
// RankMovesByValue) and nothing of review/annotate.cc, so that a mistake
// there is not repeated in what it is compared with. Every value is the
// mover's chance.
struct Expected {
  // After a move (or a pass, when `move` is absent): a win is 1, a throw
  // again is the mover's own Value, else one less the opponent's.
  static double After(const Evaluator& e, const Position& pos, const std::optional<Move>& move) {
    Position next = pos;
    if (!move) {
      PassTurn(&next);
      return 1.0 - e.Value(next);
    }
    const MoveResult r = ApplyMove(e.rules(), &next, *move);
    if (r.won) return 1.0;
    return r.extra_roll ? e.Value(next) : 1.0 - e.Value(next);
  }
  // Of a throw: the best of its moves, or the pass when it has none.
  static double Throw(const Evaluator& e, const Position& pos, int roll) {
    MoveList moves;
    LegalMoves(e.rules(), pos, roll, &moves);
    if (moves.empty()) return After(e, pos, std::nullopt);
    double best = 0;
    for (const Move& m : moves) best = std::max(best, After(e, pos, m));
    return best;
  }
  // Before the throw: the throws' values weighted by the dice.
  static double Before(const Evaluator& e, const Position& pos) {
    const double total = static_cast<double>(1u << e.rules().dice_count);
    double v = 0;
    for (const RollOutcome& o : e.rules().outcomes) v += o.weight / total * Throw(e, pos, o.roll);
    return v;
  }
  // docs/annotation.md's thresholds: 2, 5 and 10 points of winning chance.
  static std::string Mark(double loss) {
    if (loss >= 0.10) return "??";
    if (loss >= 0.05) return "?";
    if (loss >= 0.02) return "?!";
    return "";
  }
};

TEST(ValuesTest, TheTestEvaluatorIsSolved) {
  const ExactTestEvaluator& exact = Exact2();
  EXPECT_GT(exact.positions().size(), 1000u);
  EXPECT_LT(exact.sweeps(), 100000);
  // A solved table agrees with itself one throw deeper, everywhere.
  double worst = 0;
  for (const Position& pos : exact.positions()) {
    worst = std::max(worst, std::abs(exact.Value(pos) - Expected::Before(exact, pos)));
  }
  EXPECT_LT(worst, 1e-12);
  // Symmetry: either side to move at the start has the same chance.
  const Rules& r = exact.rules();
  EXPECT_NEAR(exact.Value(StartPosition(r, kLight)), exact.Value(StartPosition(r, kDark)), 1e-12);
}

TEST(ValuesTest, MarksByThreshold) {
  EXPECT_EQ(MarkForLoss(0), "");
  EXPECT_EQ(MarkForLoss(0.0199), "");
  EXPECT_EQ(MarkForLoss(0.02), "?!");
  EXPECT_EQ(MarkForLoss(0.0499), "?!");
  EXPECT_EQ(MarkForLoss(0.05), "?");
  EXPECT_EQ(MarkForLoss(0.0999), "?");
  EXPECT_EQ(MarkForLoss(0.10), "??");
  EXPECT_EQ(MarkForLoss(1.0), "??");
  const MarkThresholds strict{0.01, 0.02, 0.03};
  EXPECT_EQ(MarkForLoss(0.025, strict), "?");
}

// Every position and throw with a choice, each move played: the best move
// loses nothing, the others what they are worth less, marked by the
// thresholds; and every mark is met somewhere. The expected values are
// Expected's, from the exact evaluator.
TEST(ValuesTest, LossAndMarkOfEveryMoveOfManyPositions) {
  const ExactTestEvaluator& exact = Exact2();
  const Rules& r = exact.rules();
  std::map<std::string, int> marks;
  int checked = 0;
  MoveList moves;
  for (size_t i = 0; i < exact.positions().size() && checked < 400; i += 7) {
    const Position& pos = exact.positions()[i];
    if (IsOver(r, pos)) continue;
    for (const RollOutcome& o : r.outcomes) {
      LegalMoves(r, pos, o.roll, &moves);
      if (moves.size() < 2) continue;
      ++checked;
      const double best = Expected::Throw(exact, pos, o.roll);
      for (const Move& played : moves) {
        const AnnotatedRecord a = MustAnnotateWith(OneThrow(r, pos, o.roll, played), exact);
        ASSERT_EQ(a.actions.size(), 1u);
        ASSERT_TRUE(a.actions[0].values.has_value());
        const ActionValues& v = *a.actions[0].values;
        const double after = Expected::After(exact, pos, played);
        const double loss = best - after;
        EXPECT_NEAR(v.before, exact.Value(pos), 1e-12);
        EXPECT_NEAR(v.throw_value, best, 1e-15);
        EXPECT_NEAR(v.after, after, 1e-15);
        EXPECT_NEAR(v.loss, loss, 1e-15);
        EXPECT_EQ(v.mark, Expected::Mark(loss)) << "loss " << loss;
        EXPECT_NEAR(v.luck, best - exact.Value(pos), 1e-12);
        // The best move is named when the move played is worth less, and it
        // is worth the throw's value.
        EXPECT_EQ(v.best.has_value(), loss > 1e-15) << "loss " << loss;
        if (v.best) {
          EXPECT_NE(std::find(moves.begin(), moves.end(), *v.best), moves.end());
          EXPECT_NEAR(Expected::After(exact, pos, *v.best), best, 1e-15);
        }
        ++marks[v.mark];
      }
    }
  }
  EXPECT_GT(checked, 100);
  for (const char* mark : {"", "?!", "?", "??"}) EXPECT_GT(marks[mark], 0) << "no move marked \"" << mark << "\"";
}

// The luck of every throw from a position, weighted by the dice, sums to
// zero; the chance before the throw is the expected value of the throws;
// each throw's luck is what Expected says it is worth less the chance
// before (`before_of` gives that chance: the evaluator's Value when exact).
void ExpectLuckAveragesToZero(const Evaluator& evaluator, double tolerance,
                              double (*before_of)(const Evaluator&, const Position&)) {
  const ExactTestEvaluator& exact = Exact2();
  const Rules& r = exact.rules();
  const double total = static_cast<double>(1u << r.dice_count);
  int checked = 0;
  MoveList moves;
  for (size_t i = 0; i < exact.positions().size(); i += 211) {
    const Position& pos = exact.positions()[i];
    if (IsOver(r, pos)) continue;
    ++checked;
    const double want_before = before_of(evaluator, pos);
    double luck = 0, expected = 0;
    for (const RollOutcome& o : r.outcomes) {
      // The move played: the last legal one (any will do; the luck is the throw's).
      LegalMoves(r, pos, o.roll, &moves);
      const std::optional<Move> move = moves.empty() ? std::nullopt : std::optional<Move>(moves[moves.size() - 1]);
      const AnnotatedRecord a = MustAnnotateWith(OneThrow(r, pos, o.roll, move), evaluator);
      ASSERT_EQ(a.actions.size(), 1u);
      ASSERT_TRUE(a.actions[0].values.has_value());
      const ActionValues& v = *a.actions[0].values;
      EXPECT_NEAR(v.before, want_before, tolerance);
      EXPECT_NEAR(v.luck, Expected::Throw(evaluator, pos, o.roll) - want_before, tolerance);
      luck += o.weight / total * v.luck;
      expected += o.weight / total * v.throw_value;
    }
    EXPECT_NEAR(luck, 0, tolerance) << PositionToString(r, pos);
    EXPECT_NEAR(want_before, expected, tolerance) << PositionToString(r, pos);
  }
  EXPECT_GT(checked, 50);
}

TEST(ValuesTest, LuckAveragesToZeroForAnExactEvaluator) {
  const ExactTestEvaluator& exact = Exact2();
  ExpectLuckAveragesToZero(exact, 1e-12, [](const Evaluator& e, const Position& pos) { return e.Value(pos); });
  // And the chance before is the table's value.
  const Rules& r = exact.rules();
  const Position start = StartPosition(r);
  const AnnotatedRecord a = MustAnnotateWith(OneThrow(r, start, 0, std::nullopt), exact);
  EXPECT_EQ(a.actions[0].values->before, exact.Value(start));
}

TEST(ValuesTest, LuckAveragesToZeroForAnEstimate) {
  const NoisyTestEvaluator noisy(Exact2());
  // An estimate's chance before is the average of its throws (its own
  // Value would not make the luck average to zero).
  ExpectLuckAveragesToZero(noisy, 1e-14, Expected::Before);
  const Rules& r = noisy.rules();
  const Position start = StartPosition(r);
  const AnnotatedRecord a = MustAnnotateWith(OneThrow(r, start, 0, std::nullopt), noisy);
  EXPECT_NEAR(a.actions[0].values->before, Expected::Before(noisy, start), 1e-15);
  EXPECT_FALSE(a.values->exact);
}

TEST(ValuesTest, WholeGamesAndTheirSummary) {
  const ExactTestEvaluator& exact = Exact2();
  const Rules& r = exact.rules();
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const v1::GameRecord record = RandomGame(r, kTwo, seed);
    const AnnotatedRecord a = MustAnnotateWith(record, exact);
    ASSERT_EQ(a.actions.size(), static_cast<size_t>(record.actions_size()));
    ASSERT_TRUE(a.values.has_value());
    EXPECT_TRUE(a.values->exact);
    EXPECT_EQ(a.values->evaluator, "test exact finkel(pieces=2)");
    // The game replayed here, each action's values from Expected, and the
    // summaries added up from those.
    PlayerSummary want[2];
    Position pos = StartPosition(r, a.actions.empty() ? kLight : a.actions[0].player);
    MoveList moves;
    for (size_t i = 0; i < a.actions.size(); ++i) {
      const ActionAnnotation& an = a.actions[i];
      ASSERT_TRUE(an.values.has_value());
      ASSERT_EQ(an.player, pos.to_move) << "action " << i;
      const ActionValues& v = *an.values;
      const v1::Action& action = record.actions(static_cast<int>(i));
      LegalMoves(r, pos, action.roll(), &moves);
      std::optional<Move> played;
      if (action.has_from()) {
        played = Move{static_cast<uint8_t>(action.from()), static_cast<uint8_t>(action.to())};
      }
      const double before = exact.Value(pos);
      const double throw_value = Expected::Throw(exact, pos, action.roll());
      const double after = Expected::After(exact, pos, played);
      const double loss = throw_value - after;
      EXPECT_NEAR(v.before, before, 1e-12) << "action " << i;
      EXPECT_NEAR(v.throw_value, throw_value, 1e-15) << "action " << i;
      EXPECT_NEAR(v.after, after, 1e-15) << "action " << i;
      EXPECT_NEAR(v.loss, loss, 1e-15) << "action " << i;
      EXPECT_EQ(v.mark, Expected::Mark(loss)) << "action " << i << ", loss " << loss;
      EXPECT_NEAR(v.luck, throw_value - before, 1e-12) << "action " << i;
      if (!played) {
        EXPECT_EQ(v.loss, 0);
      }
      // The chance after the move is the next throw's chance before, for
      // whoever throws it.
      if (i + 1 < a.actions.size()) {
        const ActionAnnotation& next = a.actions[i + 1];
        EXPECT_NEAR(next.player == an.player ? next.values->before : 1 - next.values->before, v.after, 1e-12);
      }
      PlayerSummary& p = want[pos.to_move];
      ++p.throws;
      p.moves += played.has_value();
      p.decisions += played.has_value() && moves.size() >= 2;
      p.total_loss += loss;
      p.doubtful += Expected::Mark(loss) == "?!";
      p.mistakes += Expected::Mark(loss) == "?";
      p.blunders += Expected::Mark(loss) == "??";
      p.total_luck += throw_value - before;
      if (played) {
        ApplyMove(r, &pos, *played);
      } else {
        PassTurn(&pos);
      }
    }
    EXPECT_TRUE(IsOver(r, pos));
    for (Side s : {kLight, kDark}) {
      const PlayerSummary& got = a.values->players[s];
      EXPECT_EQ(got.throws, want[s].throws);
      EXPECT_EQ(got.moves, want[s].moves);
      EXPECT_EQ(got.decisions, want[s].decisions);
      EXPECT_NEAR(got.total_loss, want[s].total_loss, 1e-11);
      EXPECT_EQ(got.doubtful, want[s].doubtful);
      EXPECT_EQ(got.mistakes, want[s].mistakes);
      EXPECT_EQ(got.blunders, want[s].blunders);
      EXPECT_NEAR(got.total_luck, want[s].total_luck, 1e-11);
    }
    // One chance per ply; the game is over, so light's last is 1 or 0.
    const std::vector<double> chances = LightChances(a);
    ASSERT_EQ(chances.size(), a.actions.size() + 1);
    ASSERT_TRUE(a.winner.has_value());
    EXPECT_EQ(chances.back(), *a.winner == kLight ? 1.0 : 0.0);
    EXPECT_NEAR(chances.front(), exact.Value(StartPosition(r)), 1e-15);
    // Exact values add up: light's gain over the game is its luck less its
    // losses, less dark's.
    const PlayerSummary& light = a.values->players[kLight];
    const PlayerSummary& dark = a.values->players[kDark];
    EXPECT_NEAR(chances.back() - chances.front(),
                (light.total_luck - light.total_loss) - (dark.total_luck - dark.total_loss), 1e-9);
  }
}

TEST(ValuesTest, AnEvaluatorForOtherRulesIsRefused) {
  const v1::GameRecord record = RecordFrom("finkel", "", {{3, 0, 3}});
  auto a = AnnotateWithValues(record, Exact2());
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(a.status().message(), "test exact finkel(pieces=2)")) << a.status();
  EXPECT_TRUE(absl::StrContains(a.status().message(), MustLoad("finkel")->digest)) << a.status();
}

// The keys read back from TSN as written: percent with three decimals.
TEST(ValuesTest, TsnKeysRoundTrip) {
  const ExactTestEvaluator& exact = Exact2();
  const Rules& r = exact.rules();
  v1::GameRecord record = RandomGame(r, kTwo, 7);
  record.set_comment("a club game [%eval 0.5]");
  const AnnotatedRecord a = MustAnnotateWith(record, exact);
  const v1::GameRecord annotated = WithAnnotations(record, a);
  auto text = WriteTsn({annotated});
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_TRUE(ValidateFile("values.tsn", *text, Format::kTsn).report.valid()) << *text;
  const ParsedRecords back = ReadTsn(*text);
  ASSERT_EQ(back.records.size(), 1u);
  const v1::GameRecord& got = back.records[0];
  auto number = [](const std::map<std::string, std::string>& keys, const std::string& key) {
    double d = -1000;
    EXPECT_TRUE(keys.count(key) && absl::SimpleAtod(keys.at(key), &d)) << key;
    return d;
  };
  int bestv = 0, marks = 0;
  for (int i = 0; i < got.actions_size(); ++i) {
    const ActionValues& v = *a.actions[i].values;
    const auto keys = ReadAnnotations(got.actions(i).comment());
    SCOPED_TRACE(got.actions(i).comment());
    EXPECT_NEAR(number(keys, "wc"), v.before * 100, 0.0005 + 1e-9);
    EXPECT_NEAR(number(keys, "wt"), v.throw_value * 100, 0.0005 + 1e-9);
    EXPECT_NEAR(number(keys, "wca"), v.after * 100, 0.0005 + 1e-9);
    EXPECT_NEAR(number(keys, "luck"), v.luck * 100, 0.0005 + 1e-9);
    if (a.actions[i].move) {
      EXPECT_NEAR(number(keys, "loss"), v.loss * 100, 0.0005 + 1e-9);
    } else {
      EXPECT_EQ(keys.count("loss"), 0u);
    }
    EXPECT_EQ(keys.count("mark") ? keys.at("mark") : "", v.mark);
    marks += !v.mark.empty();
    if (v.best) {
      ++bestv;
      const std::vector<std::string> parts = absl::StrSplit(keys.at("bestv"), ' ');
      ASSERT_EQ(parts.size(), 2u);
      EXPECT_EQ(parts[0], absl::StrCat(v.best->from, "-", v.best->to));
      double d = 0;
      EXPECT_TRUE(absl::SimpleAtod(parts[1], &d));
      EXPECT_NEAR(d, v.throw_value * 100, 0.0005 + 1e-9);
    } else {
      EXPECT_EQ(keys.count("bestv"), 0u);
    }
  }
  EXPECT_GT(bestv, 0);  // a random game makes mistakes
  EXPECT_GT(marks, 0);
  // The record's own comment: its text, then the evaluator and the sums.
  EXPECT_TRUE(absl::StartsWith(got.comment(), "a club game [%eval 0.5] [%values exact]")) << got.comment();
  const auto keys = ReadAnnotations(got.comment());
  EXPECT_EQ(keys.at("values"), "exact");
  EXPECT_EQ(keys.at("evaluator"), "test exact finkel(pieces=2)");
  EXPECT_EQ(keys.at("eval"), "0.5");
  for (Side s : {kLight, kDark}) {
    const PlayerSummary& p = a.values->players[s];
    std::map<std::string, std::string> fields;
    for (absl::string_view field : absl::StrSplit(keys.at(absl::StrCat("sum-", SideName(s))), ' ')) {
      const std::pair<std::string, std::string> kv = absl::StrSplit(field, absl::MaxSplits('=', 1));
      fields[kv.first] = kv.second;
    }
    EXPECT_EQ(fields.at("moves"), absl::StrCat(p.moves));
    EXPECT_EQ(fields.at("decisions"), absl::StrCat(p.decisions));
    EXPECT_EQ(fields.at("doubtful"), absl::StrCat(p.doubtful));
    EXPECT_EQ(fields.at("mistakes"), absl::StrCat(p.mistakes));
    EXPECT_EQ(fields.at("blunders"), absl::StrCat(p.blunders));
    double d = 0;
    ASSERT_TRUE(absl::SimpleAtod(fields.at("loss"), &d));
    EXPECT_NEAR(d, p.total_loss * 100, 0.0005 + 1e-9);
    ASSERT_TRUE(absl::SimpleAtod(fields.at("luck"), &d));
    EXPECT_NEAR(d, p.total_luck * 100, 0.0005 + 1e-9);
  }
  // Annotating what was read back writes the same text.
  auto text2 = WriteTsn({WithAnnotations(got, MustAnnotateWith(got, exact))});
  ASSERT_TRUE(text2.ok());
  EXPECT_EQ(*text2, *text);
  // Stripping drops every key this file writes and keeps the rest.
  EXPECT_EQ(StripAnnotations(got.comment()), "a club game [%eval 0.5]");
  for (int i = 0; i < got.actions_size(); ++i) EXPECT_EQ(StripAnnotations(got.actions(i).comment()), "");
  // Annotating again without an evaluator: no values are claimed any more.
  const v1::GameRecord plain = WithAnnotations(got, MustAnnotate(got));
  EXPECT_EQ(plain.comment(), "a club game [%eval 0.5]");
  EXPECT_EQ(plain.actions(0).comment(), WithAnnotations(record, MustAnnotate(record)).actions(0).comment());
  EXPECT_FALSE(absl::StrContains(plain.actions(0).comment(), "[%wc"));
}

TEST(ValuesTest, AnEstimateSaysSo) {
  const NoisyTestEvaluator noisy(Exact2());
  const v1::GameRecord record = RandomGame(noisy.rules(), kTwo, 3);
  const AnnotatedRecord a = MustAnnotateWith(record, noisy);
  const v1::GameRecord annotated = WithAnnotations(record, a);
  const auto keys = ReadAnnotations(annotated.comment());
  EXPECT_EQ(keys.at("values"), "estimate");
  // A ']' in the name would end the annotation: it is written as ')'.
  EXPECT_EQ(keys.at("evaluator"), "test estimate (noisy)");
  const std::string json_text = MessageToJson(AnnotationToProto(a, kTwo));
  EXPECT_TRUE(absl::StrContains(json_text, "\"exact\":false")) << json_text;
}

TEST(ValuesTest, ProtoCarriesTheValues) {
  const ExactTestEvaluator& exact = Exact2();
  const v1::GameRecord record = RandomGame(exact.rules(), kTwo, 5);
  const AnnotatedRecord a = MustAnnotateWith(record, exact);
  const v1::Annotation proto = AnnotationToProto(a, kTwo);
  EXPECT_EQ(proto.evaluator(), "test exact finkel(pieces=2)");
  ASSERT_TRUE(proto.has_exact());
  EXPECT_TRUE(proto.exact());
  EXPECT_EQ(proto.thresholds().doubtful(), 0.02);
  EXPECT_EQ(proto.thresholds().mistake(), 0.05);
  EXPECT_EQ(proto.thresholds().blunder(), 0.10);
  ASSERT_EQ(proto.actions_size(), record.actions_size());
  EXPECT_EQ(proto.light_chance_size(), record.actions_size() + 1);
  for (int i = 0; i < proto.actions_size(); ++i) {
    const v1::AnnotatedAction& p = proto.actions(i);
    const ActionValues& v = *a.actions[i].values;
    EXPECT_EQ(p.chance_before(), v.before);
    EXPECT_EQ(p.throw_value(), v.throw_value);
    EXPECT_EQ(p.chance_after(), v.after);
    EXPECT_EQ(p.luck(), v.luck);
    EXPECT_EQ(p.mark(), v.mark);
    EXPECT_EQ(p.has_loss(), a.actions[i].move.has_value());
    if (p.has_loss()) {
      EXPECT_EQ(p.loss(), v.loss);
    }
    EXPECT_EQ(p.has_best_by_value(), v.best.has_value());
    if (v.best) {
      EXPECT_EQ(p.best_by_value().from(), v.best->from);
      EXPECT_EQ(p.best_by_value().to(), v.best->to);
    }
  }
  for (Side s : {kLight, kDark}) {
    const v1::PlayerSummary& p = s == kLight ? proto.summary_light() : proto.summary_dark();
    const PlayerSummary& want = a.values->players[s];
    EXPECT_EQ(p.throws(), want.throws);
    EXPECT_EQ(p.moves(), want.moves);
    EXPECT_EQ(p.decisions(), want.decisions);
    EXPECT_EQ(p.total_loss(), want.total_loss);
    EXPECT_EQ(p.blunders(), want.blunders);
    EXPECT_EQ(p.total_luck(), want.total_luck);
  }
  const std::string text = MessageToJson(proto);
  EXPECT_TRUE(absl::StrContains(text, "\"exact\":true")) << text;
  EXPECT_TRUE(absl::StrContains(text, "\"chance_before\":")) << text;
  EXPECT_TRUE(absl::StrContains(text, "\"summary_light\":{")) << text;
  // Without an evaluator, none of it.
  const std::string plain = MessageToJson(AnnotationToProto(MustAnnotate(record), kTwo));
  for (const char* field : {"evaluator", "exact", "chance_before", "luck", "summary_light", "light_chance", "mark"}) {
    EXPECT_FALSE(absl::StrContains(plain, absl::StrCat("\"", field, "\""))) << field;
  }
}

// --- the graph of the winning chances -----------------------------------------------

// The elements of an XML document in order, checking that tags nest and
// close; false when they do not.
bool ParseXml(const std::string& text, std::vector<std::string>* elements, std::string* error) {
  std::vector<std::string> open;
  size_t pos = 0;
  while ((pos = text.find('<', pos)) != std::string::npos) {
    const size_t end = text.find('>', pos);
    if (end == std::string::npos) {
      *error = "unclosed tag";
      return false;
    }
    std::string tag = text.substr(pos + 1, end - pos - 1);
    pos = end + 1;
    if (tag.empty()) {
      *error = "empty tag";
      return false;
    }
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) {
        *error = absl::StrCat("</", tag.substr(1), "> closes ", open.empty() ? "nothing" : open.back());
        return false;
      }
      open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    if (self_closing) tag.pop_back();
    elements->push_back(tag);
    const std::string name = tag.substr(0, tag.find_first_of(" \n\t"));
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) {
    *error = absl::StrCat("<", open.back(), "> is never closed");
    return false;
  }
  return true;
}

int CountClass(const std::vector<std::string>& elements, const std::string& prefix) {
  return static_cast<int>(std::count_if(elements.begin(), elements.end(), [&](const std::string& e) {
    return absl::StrContains(e, absl::StrCat("class=\"", prefix));
  }));
}

TEST(ChanceGraphTest, OnePointPerPlyAndAMarkPerError) {
  const ExactTestEvaluator& exact = Exact2();
  const v1::GameRecord record = RandomGame(exact.rules(), kTwo, 11);
  const AnnotatedRecord a = MustAnnotateWith(record, exact);
  auto svg = SvgChanceGraph(a);
  ASSERT_TRUE(svg.ok()) << svg.status();
  EXPECT_TRUE(absl::StartsWith(*svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
  std::vector<std::string> elements;
  std::string error;
  ASSERT_TRUE(ParseXml(*svg, &elements, &error)) << error << "\n" << *svg;
  ASSERT_FALSE(elements.empty());
  EXPECT_TRUE(absl::StartsWith(elements[0], "svg ")) << elements[0];
  EXPECT_EQ(std::count_if(elements.begin(), elements.end(),
                          [](const std::string& e) { return absl::StartsWith(e, "svg "); }),
            1);
  const int plies = record.actions_size() + 1;
  EXPECT_EQ(CountClass(elements, "ply\""), plies);
  EXPECT_EQ(CountClass(elements, "chance\""), 1);
  EXPECT_EQ(CountClass(elements, "even\""), 1);
  // The polyline has one point per ply, every one inside the plot.
  const auto line = std::find_if(elements.begin(), elements.end(),
                                 [](const std::string& e) { return absl::StrContains(e, "class=\"chance\""); });
  const size_t p = line->find("points=\"");
  const std::string points = line->substr(p + 8, line->find('"', p + 8) - p - 8);
  EXPECT_EQ(static_cast<int>(std::vector<std::string>(absl::StrSplit(points, ' ')).size()), plies);
  int marked = 0;
  for (const ActionAnnotation& an : a.actions) marked += !an.values->mark.empty();
  EXPECT_GT(marked, 0);
  EXPECT_EQ(CountClass(elements, "mark "), marked);
  // The title says what the values are, by the evaluator's name (which
  // says whether they are exact), once.
  EXPECT_TRUE(absl::StrContains(*svg, "<title>light's winning chance \xE2\x80\x94 test exact finkel(pieces=2)</title>"))
      << *svg;
  // An estimate says so too, and an annotation without values has no graph.
  const NoisyTestEvaluator noisy(exact);
  auto estimate = SvgChanceGraph(MustAnnotateWith(record, noisy));
  ASSERT_TRUE(estimate.ok());
  EXPECT_TRUE(absl::StrContains(*estimate, "\xE2\x80\x94 test estimate [noisy]</title>"));
  EXPECT_FALSE(SvgChanceGraph(MustAnnotate(record)).ok());
}


// Annotation polls its stop check before every action's winning chances:
// told to stop, it returns CANCELLED with no values left half set.
TEST(AnnotateStopTest, WinningChancesStopWhenTold) {
  const std::shared_ptr<const Rules> rules = *LoadRuleset("finkel");
  const v1::GameRecord record = RandomGame(*rules, "finkel", 3);
  auto annotated = AnnotateRecord(record);
  ASSERT_TRUE(annotated.ok());
  const SearchEvaluator search(rules, 1);
  int polls = 0;
  const absl::Status stopped = AddWinningChances(record, search, &*annotated, {}, [&] { return ++polls > 10; });
  EXPECT_EQ(stopped.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(polls, 11) << "polled once an action until told to stop";
  EXPECT_FALSE(annotated->values.has_value());
  for (const ActionAnnotation& a : annotated->actions) EXPECT_FALSE(a.values.has_value());
  EXPECT_TRUE(AddWinningChances(record, search, &*annotated, {}, [] { return false; }).ok());
}

// The streamed annotation (AnnotationSteps, written by JsonMessageStream)
// is AnnotationToProto of the whole annotation, byte for byte, with and
// without winning chances, on finished and unfinished games.
std::string StreamedAnnotationJson(const JudgedRecord& judged, const Evaluator* evaluator) {
  auto steps = AnnotationSteps::Start(judged, evaluator);
  EXPECT_TRUE(steps.ok()) << steps.status();
  if (!steps.ok()) return "";
  std::ostringstream out;
  JsonMessageStream json(out, v1::Annotation::descriptor()->FindFieldByName("actions"));
  json.Begin((*steps)->Head());
  v1::AnnotatedAction action;
  while ((*steps)->Next(&action)) json.Add(action);
  json.End((*steps)->Tail());
  return out.str();
}

TEST(AnnotationStepsTest, TheSameAnnotationAsWhole) {
  const ExactTestEvaluator& exact = Exact2();
  const Rules& r = exact.rules();
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    v1::GameRecord record = RandomGame(r, kTwo, seed);
    // Every third game unfinished: its first half.
    const int n = record.actions_size();
    if (seed % 3 == 0) record.mutable_actions()->DeleteSubrange(n / 2, n - n / 2);
    const JudgedRecord judged = Judge(record, {}, {.build_replay = false, .keep_positions = true});
    ASSERT_TRUE(judged.verdict.valid());
    auto plain = AnnotateRecord(judged);
    ASSERT_TRUE(plain.ok()) << plain.status();
    EXPECT_EQ(StreamedAnnotationJson(judged, nullptr), MessageToJson(AnnotationToProto(*plain, kTwo)))
        << "seed " << seed;
    AnnotatedRecord valued = MustAnnotateWith(record, exact);
    EXPECT_EQ(StreamedAnnotationJson(judged, &exact), MessageToJson(AnnotationToProto(valued, kTwo)))
        << "seed " << seed;
  }
}

TEST(AnnotationStepsTest, RefusesWhatAnnotateRecordRefuses) {
  const ExactTestEvaluator& exact = Exact2();
  v1::GameRecord record = RandomGame(exact.rules(), kTwo, 5);
  record.mutable_actions(0)->set_roll(9);
  const JudgedRecord illegal = Judge(record, {}, {.build_replay = false, .keep_positions = true});
  EXPECT_EQ(AnnotationSteps::Start(illegal).status(), AnnotateRecord(illegal).status());
  // An evaluator for other rules.
  const JudgedRecord finkel = Judge(RandomGame(*MustLoad("finkel"), "finkel", 5), {},
                                    {.build_replay = false, .keep_positions = true});
  EXPECT_EQ(AnnotationSteps::Start(finkel, &exact).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace scribe
