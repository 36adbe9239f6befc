// The expectimax search (engine/search.h), the bots and matches
// (engine/bots.h): values are chances, one throw deeper is the expectation
// over the dice of the children one throw shallower, deep search on tiny
// rulesets approaches the exact values (computed here by value iteration
// over every reachable position), bots only play legal moves, and the
// stronger bots beat random play by a wide margin.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "engine/bots.h"
#include "engine/evaluate.h"
#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "tests/common/exact_test_evaluator.h"

namespace scribe {
namespace {

const std::vector<std::string>& PresetIds() {
  static const auto* ids = new std::vector<std::string>{"finkel", "finkel-blank4", "masters", "blitz",
                                                        "sawah",  "sawah-tablet",  "sawah-marks", "turnover",
                                                        "murray", "skiriuk"};
  return *ids;
}

std::shared_ptr<const Rules> Load(const std::string& ref) {
  auto rules = LoadRuleset(ref);
  EXPECT_TRUE(rules.ok()) << ref << ": " << rules.status();
  return *rules;
}

// A position `plies` random throws into a game (or its end, if sooner).
Position RandomPosition(const Rules& rules, uint64_t seed, int plies) {
  Rng rng(seed);
  Position pos = StartPosition(rules, rng.Below(2) == 0 ? kLight : kDark);
  MoveList moves;
  for (int i = 0; i < plies && !IsOver(rules, pos); ++i) {
    LegalMoves(rules, pos, rng.Throw(rules), &moves);
    if (moves.empty()) PassTurn(&pos);
    else ApplyMove(rules, &pos, moves[rng.Below(moves.size())]);
  }
  return pos;
}

// ---------------------------------------------------------------------------
// Values.

RC_GTEST_PROP(SearchProperties, ValuesAreChances, ()) {
  const std::string ref = *rc::gen::elementOf(PresetIds());
  const auto rules = Load(ref);
  const Position pos =
      RandomPosition(*rules, *rc::gen::arbitrary<uint64_t>(), *rc::gen::inRange(0, 400));
  const int depth = *rc::gen::inRange(0, 3);
  const SearchEvaluator search(rules, depth);
  const double leaf = search.LeafValue(pos);
  const double v = search.Value(pos);
  RC_ASSERT(leaf >= 0.0);
  RC_ASSERT(leaf <= 1.0);
  RC_ASSERT(v >= 0.0);
  RC_ASSERT(v <= 1.0);
  for (const RollOutcome& o : rules->outcomes) {
    for (const ValuedMove& m : RankMovesByValue(search, pos, o.roll)) {
      RC_ASSERT(m.value >= 0.0);
      RC_ASSERT(m.value <= 1.0);
    }
  }
}

// One throw deeper is the expectation over the dice of the best move's
// value one throw shallower (engine/evaluator.h's ExpectedValueOverThrows).
RC_GTEST_PROP(SearchProperties, OneThrowDeeperIsTheExpectationOverTheChildren, ()) {
  const std::string ref = *rc::gen::elementOf(PresetIds());
  const auto rules = Load(ref);
  const Position pos =
      RandomPosition(*rules, *rc::gen::arbitrary<uint64_t>(), *rc::gen::inRange(0, 300));
  const int depth = *rc::gen::inRange(0, 3);
  const SearchEvaluator shallow(rules, depth);
  const SearchEvaluator deep(rules, depth + 1);
  const double expected = ExpectedValueOverThrows(shallow, pos);
  RC_ASSERT(std::abs(deep.Value(pos) - expected) < 1e-12);
}

TEST(Search, FinishedGamesAreExactAtEveryDepth) {
  for (const std::string& ref : PresetIds()) {
    const auto rules = Load(ref);
    Rng rng(7);
    Position pos = RandomPosition(*rules, 99, 1000000);
    ASSERT_TRUE(IsOver(*rules, pos)) << ref;
    for (int depth = 0; depth <= 3; ++depth) {
      const SearchEvaluator search(rules, depth);
      EXPECT_EQ(search.Value(pos), 1.0) << ref;  // the winner is the side to move
      Position lost = pos;
      lost.to_move = Other(lost.to_move);
      EXPECT_EQ(search.Value(lost), 0.0) << ref;
    }
  }
}

TEST(Search, LeafFavoursTheSideAheadAndTheSideToMove) {
  const auto rules = Load("finkel");
  const SearchEvaluator search(rules, 0);
  const Position start = StartPosition(*rules, kLight);
  const double v = search.LeafValue(start);
  EXPECT_GT(v, 0.5);  // the tempo
  EXPECT_LT(v, 0.6);
  // Light has brought one piece to its last square.
  Position ahead = start;
  ahead.count[kLight][0] -= 1;
  ahead.count[kLight][rules->path_length] += 1;
  ahead.occ[kLight] |= 1u << rules->path_length;
  EXPECT_GT(search.LeafValue(ahead), v);
  ahead.to_move = kDark;
  EXPECT_LT(search.LeafValue(ahead), 1 - v);
}

TEST(Search, NameSaysItIsAnEstimateAndItsDepth) {
  const SearchEvaluator search(Load("finkel"), 3);
  EXPECT_FALSE(search.exact());
  EXPECT_NE(search.name().find("depth 3"), std::string::npos) << search.name();
  EXPECT_NE(search.name().find("estimate"), std::string::npos) << search.name();
}

TEST(Search, WorksWithStacking) {
  const auto rules = Load("turnover");
  ASSERT_TRUE(rules->stacking);
  const SearchEvaluator search(rules, 2);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Position pos = RandomPosition(*rules, seed, 60);
    const double v = search.Value(pos);
    EXPECT_GE(v, 0.0);
    EXPECT_LE(v, 1.0);
  }
}

// Deep search on a ruleset small enough to solve: the error against the
// exact values shrinks with depth and ends small.
void ExpectConvergence(const std::string& ref, const std::vector<int>& depths, double final_mean_error,
                       double final_start_error) {
  const auto rules = Load(ref);
  const ExactTestEvaluator exact(rules);
  ASSERT_GT(exact.positions().size(), 10u);
  std::vector<Position> sample;
  for (size_t i = 0; i < exact.positions().size(); i += std::max<size_t>(1, exact.positions().size() / 400)) {
    if (!IsOver(*rules, exact.positions()[i])) sample.push_back(exact.positions()[i]);
  }
  double previous = 1;
  for (int depth : depths) {
    const SearchEvaluator search(rules, depth);
    double sum = 0;
    for (const Position& pos : sample) sum += std::abs(search.Value(pos) - exact.Value(pos));
    const double mean = sum / sample.size();
    const Position start = StartPosition(*rules, kLight);
    const double start_error = std::abs(search.Value(start) - exact.Value(start));
    std::cout << ref << " depth " << depth << ": mean |search - exact| " << mean << " over " << sample.size()
              << " positions; start " << search.Value(start) << " exact " << exact.Value(start) << "\n";
    EXPECT_LT(mean, previous) << ref << " depth " << depth;
    previous = mean;
    if (depth == depths.back()) {
      EXPECT_LT(mean, final_mean_error) << ref;
      EXPECT_LT(start_error, final_start_error) << ref;
    }
  }
}

TEST(Search, DeepSearchApproachesExactValuesOnePiece) {
  ExpectConvergence("finkel(pieces=1)", {0, 4, 8, 16, 24, 32}, 1e-4, 1e-4);
}

TEST(Search, DeepSearchApproachesExactValuesTwoPieces) {
  ExpectConvergence("finkel(pieces=2)", {0, 2, 4}, 0.05, 0.05);
}

TEST(Search, ExactValuesAreAFixedPoint) {
  const auto rules = Load("finkel(pieces=2)");
  const ExactTestEvaluator exact(rules);
  for (size_t i = 0; i < exact.positions().size(); i += 97) {
    const Position& pos = exact.positions()[i];
    EXPECT_NEAR(ExpectedValueOverThrows(exact, pos), exact.Value(pos), 1e-12);
  }
  // Whoever throws first has the edge; the two starts are mirror images.
  const double light_first = exact.Value(StartPosition(*rules, kLight));
  EXPECT_GT(light_first, 0.5);
  EXPECT_NEAR(light_first, exact.Value(StartPosition(*rules, kDark)), 1e-12);
}

// ---------------------------------------------------------------------------
// Bots.

TEST(Bots, ParsesStrengths) {
  auto p = ParseBotSpec("perfect");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, BotSpec::Kind::kPerfect);
  p = ParseBotSpec("search:3");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->kind, BotSpec::Kind::kSearch);
  EXPECT_EQ(p->depth, 3);
  EXPECT_EQ(p->ToString(), "search:3");
  EXPECT_EQ(ParseBotSpec("search:0")->depth, 0);
  EXPECT_EQ(ParseBotSpec("heuristic")->kind, BotSpec::Kind::kHeuristic);
  EXPECT_EQ(ParseBotSpec("random")->kind, BotSpec::Kind::kRandom);
  for (const char* bad : {"", "Random", "search", "search:", "search:x", "search:-1", "search:+1", "search:99",
                          "search:2x", "search: 2", "perfectly", "gnubg"}) {
    const auto status = ParseBotSpec(bad).status();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find(absl::StrCat("\"", bad, "\"")), std::string::npos) << status.message();
  }
  EXPECT_NE(ParseBotSpec("chess").status().message().find("expected perfect, search:N"), std::string::npos);
  EXPECT_NE(ParseBotSpec("search").status().message().find("search:2"), std::string::npos);
}

TEST(Bots, PerfectNeedsAnEvaluatorForTheSameRules) {
  const auto finkel = Load("finkel");
  const auto status = MakeBot(*ParseBotSpec("perfect"), finkel).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  const auto other = std::make_shared<SearchEvaluator>(Load("masters"), 0);
  EXPECT_EQ(MakeBot(*ParseBotSpec("perfect"), finkel, other).status().code(), absl::StatusCode::kInvalidArgument);
  const auto same = std::make_shared<SearchEvaluator>(finkel, 0);
  auto bot = MakeBot(*ParseBotSpec("perfect"), finkel, same);
  ASSERT_TRUE(bot.ok());
  EXPECT_EQ((*bot)->name(), "perfect");
}

RC_GTEST_PROP(BotProperties, BotsOnlyChooseLegalMoves, ()) {
  const std::string ref = *rc::gen::elementOf(PresetIds());
  const auto rules = Load(ref);
  const std::string strength = *rc::gen::elementOf(
      std::vector<std::string>{"perfect", "search:0", "search:1", "heuristic", "random"});
  auto bot = MakeBot(*ParseBotSpec(strength), rules, std::make_shared<SearchEvaluator>(rules, 0),
                     *rc::gen::arbitrary<uint64_t>());
  RC_ASSERT(bot.ok());
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  Position pos = RandomPosition(*rules, seed, *rc::gen::inRange(0, 200));
  Rng rng(seed ^ 0x5eed);
  MoveList moves;
  for (int i = 0; i < 30; ++i) {
    const int roll = *rc::gen::elementOf(std::vector<int>{0, 1, 2, 3, 4, 5, rng.Throw(*rules)});
    LegalMoves(*rules, pos, roll, &moves);
    const std::optional<Move> m = (*bot)->Choose(pos, roll);
    RC_ASSERT(m.has_value() == !moves.empty());
    if (!m) {
      if (IsOver(*rules, pos)) break;
      PassTurn(&pos);
      continue;
    }
    RC_ASSERT(std::find(moves.begin(), moves.end(), *m) != moves.end());
    ApplyMove(*rules, &pos, *m);
    if (IsOver(*rules, pos)) break;
  }
}

TEST(Bots, PerfectPlayIsAtLeastAsGoodAsAnyMoveByTheExactValues) {
  const auto rules = Load("finkel(pieces=2)");
  auto exact = std::make_shared<ExactTestEvaluator>(rules);
  auto bot = MakeBot(*ParseBotSpec("perfect"), rules, exact);
  ASSERT_TRUE(bot.ok());
  // Every (position, throw) with a legal move is compared: a bot that
  // passes where it could move fails, and so would one that never moves.
  uint64_t with_moves = 0, compared = 0;
  MoveList moves;
  for (size_t i = 0; i < exact->positions().size(); i += 53) {
    const Position& pos = exact->positions()[i];
    for (const RollOutcome& o : rules->outcomes) {
      LegalMoves(*rules, pos, o.roll, &moves);
      const auto m = (*bot)->Choose(pos, o.roll);
      EXPECT_EQ(m.has_value(), !moves.empty()) << "throw " << o.roll;
      if (moves.empty()) continue;
      ++with_moves;
      if (!m) continue;
      EXPECT_DOUBLE_EQ(ValueAfterMove(*exact, pos, *m), ValueOfThrow(*exact, pos, o.roll));
      ++compared;
    }
  }
  // 243 positions of the 12,869, four throws each that move a piece.
  EXPECT_EQ(compared, with_moves);
  EXPECT_GT(compared, 700u);
}

TEST(Bots, StrongBotsBeatRandomByAWideMargin) {
  // Expected rates (from longer runs): search:1 and heuristic win about 90%
  // of finkel games against random; a margin of 0.75 for the lower end of
  // the 95% interval leaves room for any reasonable seed.
  const auto rules = Load("finkel");
  for (const char* strength : {"search:1", "heuristic"}) {
    auto strong = MakeBot(*ParseBotSpec(strength), rules);
    auto weak = MakeBot(*ParseBotSpec("random"), rules, nullptr, 11);
    ASSERT_TRUE(strong.ok() && weak.ok());
    MatchOptions options;
    options.games = 200;
    options.seed = 20261130;
    const MatchResult r = PlayMatch(*rules, **strong, **weak, options);
    EXPECT_EQ(r.games, 200);
    EXPECT_EQ(r.unfinished, 0);
    EXPECT_EQ(r.wins[kLight] + r.wins[kDark], 200);
    const Interval ci = WilsonInterval(r.wins[kLight], r.games);
    std::cout << strength << " against random: " << r.wins[kLight] << "/" << r.games << ", 95% [" << ci.low << ", "
              << ci.high << "]\n";
    EXPECT_GT(ci.low, 0.75) << strength;
  }
}

TEST(Bots, PerfectBeatsRandomOnATinyRuleset) {
  const auto rules = Load("finkel(pieces=2)");
  auto exact = std::make_shared<ExactTestEvaluator>(rules);
  auto perfect = MakeBot(*ParseBotSpec("perfect"), rules, exact);
  auto random = MakeBot(*ParseBotSpec("random"), rules, nullptr, 5);
  ASSERT_TRUE(perfect.ok() && random.ok());
  MatchOptions options;
  options.games = 1000;
  options.seed = 3;
  const MatchResult r = PlayMatch(*rules, **random, **perfect, options);
  const Interval ci = WilsonInterval(r.wins[kDark], r.games);
  std::cout << "perfect against random, two pieces: " << r.wins[kDark] << "/" << r.games << "\n";
  EXPECT_GT(ci.low, 0.6);
}

TEST(Match, SameSeedSameResultAndSidesTakeTurnsToStart) {
  const auto rules = Load("finkel");
  auto run = [&](uint64_t seed) {
    auto light = MakeBot(*ParseBotSpec("random"), rules, nullptr, seed + 1);
    auto dark = MakeBot(*ParseBotSpec("heuristic"), rules);
    MatchOptions options;
    options.games = 51;
    options.seed = seed;
    return PlayMatch(*rules, **light, **dark, options);
  };
  const MatchResult a = run(9), b = run(9), c = run(10);
  EXPECT_EQ(a.wins[kLight], b.wins[kLight]);
  EXPECT_EQ(a.throws, b.throws);
  EXPECT_NE(a.throws, c.throws);
  EXPECT_EQ(a.first[kLight], 26);
  EXPECT_EQ(a.first[kDark], 25);
  EXPECT_GT(a.MeanThrows(), 50);
  EXPECT_LE(a.moves, a.throws);
}

TEST(Match, ThrowOffDecidesWhoStartsWhenTheRulesSaySo) {
  const auto rules = Load("turnover");
  ASSERT_EQ(rules->opening, v1::OPENING_THROW_OFF);
  auto light = MakeBot(*ParseBotSpec("random"), rules, nullptr, 1);
  auto dark = MakeBot(*ParseBotSpec("random"), rules, nullptr, 2);
  MatchOptions options;
  options.games = 200;
  options.seed = 4;
  const MatchResult r = PlayMatch(*rules, **light, **dark, options);
  EXPECT_EQ(r.first[kLight] + r.first[kDark], 200);
  EXPECT_GT(r.first[kLight], 60);
  EXPECT_GT(r.first[kDark], 60);
}

TEST(Match, UnfinishedGamesAreCounted) {
  const auto rules = Load("finkel");
  auto light = MakeBot(*ParseBotSpec("random"), rules, nullptr, 1);
  auto dark = MakeBot(*ParseBotSpec("random"), rules, nullptr, 2);
  MatchOptions options;
  options.games = 3;
  options.max_throws = 10;
  const MatchResult r = PlayMatch(*rules, **light, **dark, options);
  EXPECT_EQ(r.unfinished, 3);
  EXPECT_EQ(r.wins[kLight] + r.wins[kDark], 0);
  EXPECT_EQ(r.throws, 30);
}

// ---------------------------------------------------------------------------
// The Wilson interval.

TEST(Wilson, KnownValues) {
  // 5 of 10: centre 1/2, half-width 1.96/(1 + 1.96^2/10) * sqrt(0.025 + 1.96^2/400).
  Interval ci = WilsonInterval(5, 10);
  EXPECT_NEAR(ci.low, 0.236593, 1e-6);
  EXPECT_NEAR(ci.high, 0.763407, 1e-6);
  // 0 of 10: [0, z^2 / (n + z^2)].
  ci = WilsonInterval(0, 10);
  EXPECT_EQ(ci.low, 0.0);
  EXPECT_NEAR(ci.high, 0.277533, 1e-6);
  ci = WilsonInterval(10, 10);
  EXPECT_NEAR(ci.low, 0.722467, 1e-6);
  EXPECT_EQ(ci.high, 1.0);
  // 81 of 263 (a textbook example): [0.2553, 0.3662].
  ci = WilsonInterval(81, 263);
  EXPECT_NEAR(ci.low, 0.2553, 1e-4);
  EXPECT_NEAR(ci.high, 0.3662, 1e-4);
  // 1.645 wide: 90%.
  ci = WilsonInterval(50, 100, 1.6448536269514722);
  EXPECT_NEAR(ci.low, 0.418848, 1e-6);
  EXPECT_NEAR(ci.high, 0.581152, 1e-6);
  ci = WilsonInterval(0, 0);
  EXPECT_EQ(ci.low, 0.0);
  EXPECT_EQ(ci.high, 1.0);
}

RC_GTEST_PROP(WilsonProperties, ContainsTheProportionAndNarrowsWithTrials, ()) {
  const int n = *rc::gen::inRange(1, 100000);
  const int k = *rc::gen::inRange(0, n + 1);
  const Interval ci = WilsonInterval(k, n);
  const double p = static_cast<double>(k) / n;
  RC_ASSERT(ci.low >= 0.0);
  RC_ASSERT(ci.high <= 1.0);
  RC_ASSERT(ci.low <= p + 1e-12);
  RC_ASSERT(ci.high >= p - 1e-12);
  const Interval wider = WilsonInterval(k, n, 2.576);
  RC_ASSERT(wider.low <= ci.low + 1e-12);
  RC_ASSERT(wider.high >= ci.high - 1e-12);
}


// A search polls its stop check every few hundred positions and, told to
// stop, expands no more: the same search not told to stop expands far more.
TEST(SearchStopTest, ASearchStopsWhenTold) {
  const std::shared_ptr<const Rules> rules = Load("finkel");
  const Position pos = RandomPosition(*rules, 11, 30);
  const SearchEvaluator full(rules, 5);
  full.Value(pos);
  const long long all_nodes = SearchEvaluator::LastStats().nodes;
  int polls = 0;
  const SearchEvaluator stopped(rules, 5, LeafParameters{}, [&] { return ++polls > 3; });
  stopped.Value(pos);
  EXPECT_EQ(polls, 4) << "polled until told to stop, then no more";
  EXPECT_LE(SearchEvaluator::LastStats().nodes, 4 * 256 + 8);
  EXPECT_GT(all_nodes, 20 * 256) << "the position is worth a long search";
}

}  // namespace
}  // namespace scribe
