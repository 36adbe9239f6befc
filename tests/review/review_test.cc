// The review of games (review/review.h, review_text.h, review_html.h,
// collection.h): the formulas on a worked example (docs/review.md), and on
// games whose right answer is known: forced games, perfect play, swapped
// players, the luck identity of exact chances.
#include "review/review.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/evaluator.h"
#include "engine/random.h"
#include "engine/search.h"
#include "gtest/gtest.h"
#include "records/judged.h"
#include "records/random_game.h"
#include "review/annotate.h"
#include "review/collection.h"
#include "review/render.h"
#include "review/review_html.h"
#include "review/review_text.h"
#include "tests/common/exact_test_evaluator.h"
#include "tests/common/test_rules.h"

namespace scribe {
namespace {

// One solve per ruleset per test program, owned by the map (freed at exit,
// so the leak checker of the sanitizer build finds nothing).
const ExactTestEvaluator& Exact(const std::string& ruleset) {
  static std::map<std::string, std::unique_ptr<const ExactTestEvaluator>> made;
  auto it = made.find(ruleset);
  if (it == made.end()) it = made.emplace(ruleset, std::make_unique<ExactTestEvaluator>(MustLoad(ruleset))).first;
  return *it->second;
}

constexpr char kTwo[] = "finkel(pieces=2)";

v1::GameRecord RandomRecord(const std::string& ruleset, uint64_t seed) {
  Rng rng(seed);
  RandomGameOptions options;
  options.ruleset = ruleset;
  options.tags = {{"Light", "Ann"}, {"Dark", "Bo"}};
  return PlayRandomGame(*MustLoad(ruleset), rng, options).record;
}

// A game where both sides always play the evaluator's best move.
v1::GameRecord BestPlayRecord(const Evaluator& evaluator, const std::string& ruleset, uint64_t seed) {
  const Rules& rules = evaluator.rules();
  Rng rng(seed);
  v1::GameRecord record;
  record.set_ruleset(ruleset);
  Position pos = StartPosition(rules);
  while (!IsOver(rules, pos)) {
    const int roll = rules.roll_for_bits[rng.Below(1u << rules.dice_count)];
    v1::Action* a = record.add_actions();
    a->set_roll(roll);
    const std::vector<ValuedMove> ranked = RankMovesByValue(evaluator, pos, roll);
    if (ranked.empty()) {
      PassTurn(&pos);
      continue;
    }
    a->set_from(ranked.front().move.from);
    a->set_to(ranked.front().move.to);
    const MoveResult r = ApplyMove(rules, &pos, ranked.front().move);
    (void)r;
  }
  return record;
}

struct Reviewed {
  AnnotatedRecord annotated;
  GameReview review;
};

Reviewed MustReview(const v1::GameRecord& record, const Evaluator& evaluator, const ReviewOptions& options = {}) {
  auto annotated = AnnotateWithValues(record, evaluator);
  EXPECT_TRUE(annotated.ok()) << annotated.status();
  if (!annotated.ok()) return {};
  auto review = ReviewGame(record, *annotated, options);
  EXPECT_TRUE(review.ok()) << review.status();
  if (!review.ok()) return {};
  return {std::move(*annotated), std::move(*review)};
}

// The worked example of docs/review.md, by hand: five actions of finkel,
// with the chances written in.
struct Hand {
  int roll;
  Side player;
  int alternatives;  // 0: a pass
  double before, throw_value, after;
};

Reviewed WorkedExample() {
  const std::vector<Hand> hand = {
      {2, kLight, 3, 0.52, 0.60, 0.54},  // a mistake: 6 points lost
      {0, kDark, 0, 0.45, 0.40, 0.40},   // a pass
      {4, kLight, 1, 0.62, 0.66, 0.66},  // forced
      {3, kDark, 2, 0.30, 0.31, 0.31},   // the best move
      {1, kLight, 2, 0.70, 0.71, 0.69},  // doubtful: 2 points lost
  };
  auto rules = MustLoad("finkel");
  v1::GameRecord record;
  record.set_ruleset("finkel");
  (*record.mutable_tags())["Light"] = "Ann";
  AnnotatedRecord a;
  a.rules = rules;
  a.positions.assign(hand.size() + 1, StartPosition(*rules));
  ValuesSummary summary;
  summary.evaluator = "by hand";
  summary.exact = true;
  summary.end_light = 0.75;
  for (size_t i = 0; i < hand.size(); ++i) {
    const Hand& h = hand[i];
    v1::Action* action = record.add_actions();
    action->set_roll(h.roll);
    ActionAnnotation an;
    an.index = static_cast<int>(i);
    an.player = h.player;
    an.roll = h.roll;
    an.alternatives = h.alternatives;
    ActionValues v;
    v.before = h.before;
    v.throw_value = h.throw_value;
    v.after = h.after;
    v.loss = h.throw_value - h.after;
    v.luck = h.throw_value - h.before;
    v.mark = MarkForLoss(v.loss);
    if (h.alternatives > 0) {
      an.move = Move{0, static_cast<uint8_t>(h.roll)};
      action->set_from(0);
      action->set_to(h.roll);
      if (v.loss > 0) v.best = Move{1, static_cast<uint8_t>(1 + h.roll)};
    }
    an.values = v;
    a.actions.push_back(an);
  }
  a.values = summary;
  auto review = ReviewGame(record, a);
  EXPECT_TRUE(review.ok()) << review.status();
  return {a, review.ok() ? *review : GameReview()};
}

TEST(ReviewTest, WorkedExampleByHand) {
  const GameReview r = WorkedExample().review;
  const PlayerReview& light = r.players[kLight];
  const PlayerReview& dark = r.players[kDark];
  EXPECT_EQ(light.name, "Ann");
  EXPECT_EQ(dark.name, "");
  // Light decided twice (actions 1 and 5) and had one forced move.
  EXPECT_EQ(light.decisions, 2);
  EXPECT_EQ(light.forced, 1);
  EXPECT_NEAR(light.total_loss, 0.08, 1e-12);
  EXPECT_NEAR(light.error_rate, 0.04, 1e-12);
  // (100 e^(-6/3) + 100 e^(-2/3)) / 2 = (13.53 + 51.34) / 2.
  EXPECT_NEAR(light.accuracy, 32.4376, 1e-4);
  EXPECT_NEAR(light.accuracy, (100 * std::exp(-6 / kAccuracyScale) + 100 * std::exp(-2 / kAccuracyScale)) / 2, 1e-9);
  // 2000 - 444.7 * 4^0.846.
  EXPECT_NEAR(light.rating, 563.16, 0.01);
  // Random play's 2.692 points give about 972; far worse play, the floor.
  EXPECT_NEAR(PerformanceRating(0.02692), 972.2, 0.1);
  EXPECT_DOUBLE_EQ(PerformanceRating(0.07), kRatingFloor);
  EXPECT_DOUBLE_EQ(PerformanceRating(0), kRatingPerfect);
  EXPECT_EQ(light.mistakes, 1);
  EXPECT_EQ(light.doubtful, 1);
  EXPECT_EQ(light.blunders, 0);
  // Dark's one decision was the best: 100, error rate 0.
  EXPECT_EQ(dark.decisions, 1);
  EXPECT_DOUBLE_EQ(dark.accuracy, 100);
  EXPECT_DOUBLE_EQ(dark.error_rate, 0);
  EXPECT_DOUBLE_EQ(dark.rating, kRatingPerfect);
  // Luck: light +8 +4 +1 points, dark -5 +1.
  EXPECT_NEAR(light.luck, 0.13, 1e-12);
  EXPECT_NEAR(dark.luck, -0.04, 1e-12);
  // Unfinished: the result is the chance at the end; luck-adjusted, the
  // result less the net luck (0.13 - -0.04 = 0.17).
  EXPECT_NEAR(light.result, 0.75, 1e-12);
  EXPECT_NEAR(dark.result, 0.25, 1e-12);
  EXPECT_NEAR(r.start_light, 0.52, 1e-12);
  EXPECT_NEAR(light.luck_adjusted_result, 0.75 - 0.17, 1e-12);
  EXPECT_NEAR(dark.luck_adjusted_result, 0.25 + 0.17, 1e-12);
  // Key moves: the costliest first.
  ASSERT_EQ(r.key_moves.size(), 2u);
  EXPECT_EQ(r.key_moves[0].index, 0);
  EXPECT_NEAR(r.key_moves[0].loss, 0.06, 1e-12);
  EXPECT_EQ(r.key_moves[0].mark, "?");
  EXPECT_EQ(r.key_moves[1].index, 4);
  EXPECT_EQ(r.key_moves[1].mark, "?!");
  // Turning points: the pass (+5 for light, dice), the forced 4 (+4, dice),
  // the mistake (+2: the dice gave 8, the move lost 6).
  ASSERT_EQ(r.turning_points.size(), 3u);
  EXPECT_EQ(r.turning_points[0].index, 1);
  EXPECT_NEAR(r.turning_points[0].light_after - r.turning_points[0].light_before, 0.05, 1e-12);
  EXPECT_EQ(r.turning_points[1].index, 2);
  EXPECT_EQ(r.turning_points[2].index, 0);
  EXPECT_TRUE(r.turning_points[2].by_dice);
  // Counts: turns L D L D L.
  EXPECT_EQ(light.counts.turns, 3);
  EXPECT_EQ(dark.counts.turns, 2);
  EXPECT_EQ(dark.counts.passes, 1);
  ASSERT_EQ(light.counts.throws_by_value.size(), 5u);  // 0..4
  EXPECT_EQ(light.counts.throws_by_value[2].count, 1);
  EXPECT_NEAR(light.counts.throws_by_value[2].expected, 3 * 6.0 / 16, 1e-12);
}

TEST(ReviewTest, NeedsWinningChances) {
  const v1::GameRecord record = RandomRecord(kTwo, 1);
  auto annotated = AnnotateRecord(record);
  ASSERT_TRUE(annotated.ok());
  auto review = ReviewGame(record, *annotated);
  EXPECT_EQ(review.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(review.status().message(), "winning chances"));
}

TEST(ReviewTest, AForcedGameHasAccuracy100) {
  // One piece each: every move is the only one.
  const std::string ruleset = "finkel(pieces=1)";
  const ExactTestEvaluator& exact = Exact(ruleset);
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Reviewed got = MustReview(RandomRecord(ruleset, seed), exact);
    for (Side s : {kLight, kDark}) {
      const PlayerReview& p = got.review.players[s];
      EXPECT_EQ(p.decisions, 0);
      EXPECT_GT(p.forced, 0);
      EXPECT_DOUBLE_EQ(p.accuracy, 100);
      EXPECT_DOUBLE_EQ(p.error_rate, 0);
      EXPECT_DOUBLE_EQ(p.rating, kRatingPerfect);
    }
    EXPECT_TRUE(got.review.key_moves.empty());
  }
}

TEST(ReviewTest, BestMovesOnlyHaveAccuracy100AndErrorRate0) {
  const ExactTestEvaluator& exact = Exact(kTwo);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Reviewed got = MustReview(BestPlayRecord(exact, kTwo, seed), exact);
    for (Side s : {kLight, kDark}) {
      const PlayerReview& p = got.review.players[s];
      EXPECT_DOUBLE_EQ(p.accuracy, 100) << seed;
      EXPECT_DOUBLE_EQ(p.error_rate, 0);
      EXPECT_EQ(p.doubtful + p.mistakes + p.blunders, 0);
      // With no loss on either side, the luck-adjusted result is the start.
      const double start = s == kLight ? got.review.start_light : 1 - got.review.start_light;
      EXPECT_NEAR(p.luck_adjusted_result, start, 1e-12);
    }
    EXPECT_TRUE(got.review.key_moves.empty());
  }
}

TEST(ReviewTest, RandomMovesLoseAccuracy) {
  const ExactTestEvaluator& exact = Exact(kTwo);
  double accuracy = 0;
  int decisions = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Reviewed got = MustReview(RandomRecord(kTwo, seed), exact);
    for (Side s : {kLight, kDark}) {
      const PlayerReview& p = got.review.players[s];
      EXPECT_GE(p.accuracy, 0);
      EXPECT_LE(p.accuracy, 100);
      accuracy += p.accuracy * p.decisions;
      decisions += p.decisions;
    }
  }
  ASSERT_GT(decisions, 0);
  EXPECT_LT(accuracy / decisions, 99.0);
}

// No key moves and no turning points asked for (the database's import):
// none made, and every figure the same as with them.
TEST(ReviewTest, WithoutKeyMovesOrTurningPointsTheFiguresAreTheSame) {
  const ExactTestEvaluator& exact = Exact(kTwo);
  int listed = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const v1::GameRecord record = RandomRecord(kTwo, seed);
    const GameReview full = MustReview(record, exact).review;
    const GameReview bare = MustReview(record, exact, {.key_moves = 0, .turning_points = 0}).review;
    listed += static_cast<int>(full.key_moves.size() + full.turning_points.size());
    EXPECT_TRUE(bare.key_moves.empty());
    EXPECT_TRUE(bare.turning_points.empty());
    GameReview without_lists = full;
    without_lists.key_moves.clear();
    without_lists.turning_points.clear();
    EXPECT_EQ(ReviewToProto(bare, *MustLoad(kTwo)).SerializeAsString(),
              ReviewToProto(without_lists, *MustLoad(kTwo)).SerializeAsString());
  }
  EXPECT_GT(listed, 0);
}

TEST(ReviewTest, SwappingThePlayersSwapsTheirFigures) {
  const ExactTestEvaluator& exact = Exact(kTwo);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    v1::GameRecord record = RandomRecord(kTwo, seed);
    record.set_first_player(v1::LIGHT);
    v1::GameRecord swapped = record;
    swapped.set_first_player(v1::DARK);
    (*swapped.mutable_tags())["Light"] = "Bo";
    (*swapped.mutable_tags())["Dark"] = "Ann";
    const GameReview a = MustReview(record, exact).review;
    const GameReview b = MustReview(swapped, exact).review;
    EXPECT_NEAR(a.start_light, 1 - b.start_light, 1e-12);
    for (Side s : {kLight, kDark}) {
      const PlayerReview& x = a.players[s];
      const PlayerReview& y = b.players[Other(s)];
      EXPECT_EQ(x.name, y.name);
      EXPECT_EQ(x.decisions, y.decisions);
      EXPECT_NEAR(x.accuracy, y.accuracy, 1e-9);
      EXPECT_NEAR(x.error_rate, y.error_rate, 1e-12);
      EXPECT_NEAR(x.luck, y.luck, 1e-12);
      EXPECT_NEAR(x.result, y.result, 1e-12);
      EXPECT_NEAR(x.luck_adjusted_result, y.luck_adjusted_result, 1e-12);
      EXPECT_EQ(x.counts.captures_made, y.counts.captures_made);
      EXPECT_EQ(x.counts.turns, y.counts.turns);
    }
  }
}

TEST(ReviewTest, WithExactChancesLuckExplainsTheResult) {
  // result = start - own loss + opponent's loss + own luck - opponent's luck,
  // so the luck-adjusted result (result - net luck) is also the start less
  // own losses plus the opponent's.
  const ExactTestEvaluator& exact = Exact(kTwo);
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    const GameReview r = MustReview(RandomRecord(kTwo, seed), exact).review;
    ASSERT_TRUE(r.winner.has_value());
    for (Side s : {kLight, kDark}) {
      const PlayerReview& p = r.players[s];
      const double net_luck = p.luck - r.players[Other(s)].luck;
      EXPECT_NEAR(p.luck_adjusted_result, p.result - net_luck, 1e-12) << seed;
      const double start = s == kLight ? r.start_light : 1 - r.start_light;
      EXPECT_NEAR(p.luck_adjusted_result, start - p.total_loss + r.players[Other(s)].total_loss, 1e-9) << seed;
    }
  }
}

TEST(ReviewTest, CountsAddUp) {
  const ExactTestEvaluator& exact = Exact(kTwo);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const Reviewed got = MustReview(RandomRecord(kTwo, seed), exact);
    const GameReview& r = got.review;
    int throws = 0;
    for (Side s : {kLight, kDark}) {
      const GameCounts& c = r.players[s].counts;
      int by_value = 0;
      double expected = 0;
      for (const ThrowCount& t : c.throws_by_value) {
        by_value += t.count;
        expected += t.expected;
      }
      EXPECT_EQ(by_value, c.throws);
      EXPECT_NEAR(expected, c.throws, 1e-9);
      EXPECT_EQ(c.moves + c.passes, c.throws);
      EXPECT_EQ(c.captures_made, r.players[Other(s)].counts.captures_suffered);
      EXPECT_LE(c.turns, c.throws);
      throws += c.throws;
    }
    EXPECT_EQ(throws, r.actions);
    EXPECT_EQ(r.players[*r.winner].counts.borne_off, 2);
  }
}

TEST(ReviewTest, EveryFigureSaysWhetherItIsExact) {
  auto rules = MustLoad(kTwo);
  const v1::GameRecord record = RandomRecord(kTwo, 3);
  const GameReview exact = MustReview(record, Exact(kTwo)).review;
  EXPECT_TRUE(exact.exact);
  const std::string exact_text = ReviewText(exact, *rules);
  EXPECT_TRUE(absl::StrContains(exact_text, "exact, from a solved table")) << exact_text;
  EXPECT_FALSE(absl::StrContains(exact_text, "estimate"));
  SearchEvaluator search(rules, 1);
  const GameReview estimate = MustReview(record, search).review;
  EXPECT_FALSE(estimate.exact);
  const std::string text = ReviewText(estimate, *rules);
  EXPECT_TRUE(absl::StrContains(text, "Players (estimate)")) << text;
  EXPECT_TRUE(absl::StrContains(text, "Key moves (estimate)"));
  EXPECT_TRUE(absl::StrContains(text, "Counts (exact)"));
  EXPECT_TRUE(absl::StrContains(text, "Ann (light) against Bo (dark)"));
  const v1::Review proto = ReviewToProto(estimate, *rules);
  EXPECT_FALSE(proto.exact());
  EXPECT_EQ(proto.light().name(), "Ann");
  EXPECT_EQ(proto.key_moves_size(), static_cast<int>(estimate.key_moves.size()));
}

// The page's boards, decoded as its script decodes them.
std::vector<std::string> PageBoards(const std::string& page) {
  const std::string start = "const BOARDS = ";
  const size_t from = page.find(start);
  const size_t to = page.find(";\nconst CAPTIONS", from);
  EXPECT_NE(from, std::string::npos);
  EXPECT_NE(to, std::string::npos);
  if (from == std::string::npos || to == std::string::npos) return {};
  const nlohmann::json boards = nlohmann::json::parse(page.substr(from + start.size(), to - from - start.size()));
  std::vector<std::string> out;
  for (const auto& runs : boards["plies"]) {
    std::vector<std::string> lines;
    for (size_t i = 0; i + 1 < runs.size(); i += 2) {
      for (int j = 0; j < runs[i + 1].get<int>(); ++j) {
        lines.push_back(boards["lines"][runs[i].get<int>() + j].get<std::string>());
      }
    }
    out.push_back(absl::StrJoin(lines, "\n"));
  }
  return out;
}

TEST(ReviewPageTest, ShowsEveryPlyAsTheRendererDrawsIt) {
  const ExactTestEvaluator& exact = Exact(kTwo);
  v1::GameRecord record = RandomRecord(kTwo, 7);
  (*record.mutable_tags())["Event"] = "<script>alert(1)</script>";
  const Reviewed got = MustReview(record, exact);
  auto page = ReviewPage(record, got.annotated, got.review);
  ASSERT_TRUE(page.ok()) << page.status();
  const int n = record.actions_size();
  EXPECT_TRUE(absl::StrContains(*page, absl::StrCat("<main id=\"review\" data-plies=\"", n, "\">")));
  const std::vector<std::string> boards = PageBoards(*page);
  ASSERT_EQ(boards.size(), static_cast<size_t>(n + 1));
  for (int k = 0; k <= n; ++k) {
    const std::string svg = SvgBoard(*got.annotated.rules, got.annotated.positions[k]);
    EXPECT_EQ(boards[k], svg.substr(svg.find("<svg"))) << "ply " << k;
  }
  // The data (JSON: BOARDS, CAPTIONS) holds no markup character raw: the
  // boards' "<svg" and the like are \u escapes, so nothing in it can end
  // the <script> element; the captions parse back, one a position.
  const size_t data = page->find("const BOARDS = ");
  const size_t captions = page->find("const CAPTIONS = ", data);
  const size_t end = page->find(";\n", captions);
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(page->substr(data, end - data).find_first_of("<>&"), std::string::npos);
  const nlohmann::json texts = nlohmann::json::parse(page->substr(captions + 17, end - captions - 17));
  ASSERT_EQ(texts.size(), static_cast<size_t>(n + 1));
  EXPECT_TRUE(absl::StartsWith(texts[0].get<std::string>(), "The start."));
  // One move per action in the list, each naming its ply.
  for (int k = 1; k <= n; ++k) EXPECT_TRUE(absl::StrContains(*page, absl::StrCat("<li data-ply=\"", k, "\" class=")));
  // Text from the record is escaped; nothing is fetched.
  EXPECT_FALSE(absl::StrContains(*page, "<script>alert"));
  EXPECT_TRUE(absl::StrContains(*page, "&lt;script&gt;alert(1)"));
  EXPECT_TRUE(absl::StrContains(*page, "Content-Security-Policy"));
  EXPECT_FALSE(absl::StrContains(*page, " src="));
  EXPECT_FALSE(absl::StrContains(*page, "https:"));
  size_t at = 0;
  while ((at = page->find("http:", at)) != std::string::npos) {
    EXPECT_EQ(page->substr(at, 26), "http://www.w3.org/2000/svg") << page->substr(at, 60);
    ++at;
  }
}

TEST(CollectionTest, PlayersAddUpByName) {
  const ExactTestEvaluator& exact = Exact(kTwo);
  std::vector<CollectionGame> games;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    v1::GameRecord record = RandomRecord(kTwo, seed);
    // Ann plays light in the odd games, dark in the even ones.
    if (seed % 2 == 0) {
      (*record.mutable_tags())["Light"] = "Bo";
      (*record.mutable_tags())["Dark"] = "Ann";
    }
    Reviewed got = MustReview(record, exact);
    games.push_back({absl::StrCat("g", seed), "", "", "", got.annotated.rules, got.review});
  }
  const CollectionReview c = SummarizeCollection(games);
  ASSERT_EQ(c.players.size(), 2u);
  EXPECT_TRUE(c.exact);
  int wins = 0;
  for (const CollectionPlayer& p : c.players) {
    EXPECT_EQ(p.games, 6);
    wins += p.wins;
    double adjusted = 0, luck = 0;
    for (const CollectionGame& g : c.games) {
      for (Side s : {kLight, kDark}) {
        if (g.review.players[s].name == p.name) {
          adjusted += g.review.players[s].luck_adjusted_result;
          luck += g.review.players[s].luck;
        }
      }
    }
    EXPECT_NEAR(p.luck_adjusted_wins, adjusted, 1e-9);
    EXPECT_NEAR(p.luck, luck, 1e-9);
  }
  EXPECT_EQ(wins, 6);
  const v1::CollectionReview proto = CollectionToProto(c);
  EXPECT_EQ(proto.games_size(), 6);
  EXPECT_EQ(proto.players_size(), 2);
  const std::string index = CollectionPage(c);
  EXPECT_TRUE(absl::StrContains(index, "<table class=\"sortable\" id=\"players\">"));
  EXPECT_TRUE(absl::StrContains(CollectionText(c), "Ann"));
}

}  // namespace
}  // namespace scribe
