// The bots (engine/bots.h): parsing strengths, legal choices only, passes,
// the random bot's seeding, matches and the Wilson interval.
#include "engine/bots.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "gtest/gtest.h"
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include "tests/common/exact_test_evaluator.h"

namespace scribe {
namespace {

std::shared_ptr<const Rules> Load(const std::string& ref) {
  auto rules = LoadRuleset(ref);
  EXPECT_TRUE(rules.ok()) << ref << ": " << rules.status();
  return rules.ok() ? *rules : nullptr;
}

// A position `plies` random throws into a game (or its end, if sooner).
Position RandomPosition(const Rules& rules, uint64_t seed, int plies) {
  Rng rng(seed);
  Position pos = StartPosition(rules, rng.Below(2) == 0 ? kLight : kDark);
  MoveList moves;
  for (int i = 0; i < plies && !IsOver(rules, pos); ++i) {
    LegalMoves(rules, pos, rng.Throw(rules), &moves);
    if (moves.empty()) {
      PassTurn(&pos);
    } else {
      ApplyMove(rules, &pos, moves[rng.Below(moves.size())]);
    }
  }
  return pos;
}

// --- ParseBotSpec -----------------------------------------------------------

TEST(BotSpecTest, EveryStrengthParsesAndPrintsBack) {
  std::vector<std::string> strengths = {"perfect", "heuristic", "random"};
  for (int depth = 0; depth <= kMaxSearchDepth; ++depth) strengths.push_back(absl::StrCat("search:", depth));
  for (const std::string& s : strengths) {
    const absl::StatusOr<BotSpec> spec = ParseBotSpec(s);
    ASSERT_TRUE(spec.ok()) << s << ": " << spec.status();
    EXPECT_EQ(spec->ToString(), s);
  }
  EXPECT_EQ(ParseBotSpec("perfect")->kind, BotSpec::Kind::kPerfect);
  EXPECT_EQ(ParseBotSpec("search:6")->kind, BotSpec::Kind::kSearch);
  EXPECT_EQ(ParseBotSpec("search:6")->depth, 6);
}

TEST(BotSpecTest, BadStrengthsSayWhatIsAccepted) {
  struct Case {
    std::string text;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"search", "needs its depth in throws"},
      {"search7", "needs its depth in throws"},
      {"search:7", absl::StrCat("from 0 to ", kMaxSearchDepth)},
      {"search:1.5", absl::StrCat("from 0 to ", kMaxSearchDepth)},
      {"search:", absl::StrCat("from 0 to ", kMaxSearchDepth)},
      {"HEURISTIC", "expected perfect, search:N"},
      {" random", "expected perfect, search:N"},
      {"random ", "expected perfect, search:N"},
      {"minimax", "expected perfect, search:N"},
  };
  for (const Case& c : cases) {
    const absl::StatusOr<BotSpec> spec = ParseBotSpec(c.text);
    ASSERT_FALSE(spec.ok()) << "\"" << c.text << "\" was accepted";
    EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument) << c.text;
    EXPECT_TRUE(absl::StrContains(spec.status().message(), absl::StrCat("\"", c.text, "\"")))
        << spec.status().message();
    EXPECT_TRUE(absl::StrContains(spec.status().message(), c.says)) << spec.status().message();
  }
}

// --- MakeBot and Choose --------------------------------------------------------

TEST(BotTest, MakeBotRefusesADepthOutOfRange) {
  BotSpec spec;
  spec.kind = BotSpec::Kind::kSearch;
  spec.depth = kMaxSearchDepth + 1;
  EXPECT_EQ(MakeBot(spec, Load("finkel")).status().code(), absl::StatusCode::kInvalidArgument);
  spec.depth = -1;
  EXPECT_EQ(MakeBot(spec, Load("finkel")).status().code(), absl::StatusCode::kInvalidArgument);
}

// Every kind over positions of every preset: the move is one of the legal
// ones, and there is one exactly when a legal move exists.
TEST(BotTest, EveryKindChoosesOnlyLegalMoves) {
  for (const PresetInfo& p : Presets()) {
    const std::shared_ptr<const Rules> rules = Load(p.id);
    ASSERT_NE(rules, nullptr);
    const auto table = std::make_shared<SearchEvaluator>(rules, 0);
    for (const char* strength : {"perfect", "search:0", "search:1", "heuristic", "random"}) {
      SCOPED_TRACE(absl::StrCat(p.id, " ", strength));
      auto bot = MakeBot(*ParseBotSpec(strength), rules, table, 17);
      ASSERT_TRUE(bot.ok()) << bot.status();
      EXPECT_EQ((*bot)->name(), strength);
      int moved = 0;
      for (uint64_t seed = 0; seed < 12; ++seed) {
        const Position pos = RandomPosition(*rules, seed, static_cast<int>(seed * 9));
        for (const RollOutcome& o : rules->outcomes) {
          MoveList legal;
          LegalMoves(*rules, pos, o.roll, &legal);
          const std::optional<Move> m = (*bot)->Choose(pos, o.roll);
          ASSERT_EQ(m.has_value(), !legal.empty()) << "roll " << o.roll;
          if (m) {
            EXPECT_NE(std::find(legal.begin(), legal.end(), *m), legal.end()) << "roll " << o.roll;
            ++moved;
          }
        }
      }
      EXPECT_GT(moved, 0);
    }
  }
}

TEST(BotTest, PerfectWithAnExactTableChoosesLegalMoves) {
  const std::shared_ptr<const Rules> rules = Load("finkel(pieces=2)");
  ASSERT_NE(rules, nullptr);
  auto exact = std::make_shared<ExactTestEvaluator>(rules);
  auto bot = MakeBot(*ParseBotSpec("perfect"), rules, exact);
  ASSERT_TRUE(bot.ok()) << bot.status();
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const Position pos = RandomPosition(*rules, seed, static_cast<int>(seed % 25));
    for (const RollOutcome& o : rules->outcomes) {
      MoveList legal;
      LegalMoves(*rules, pos, o.roll, &legal);
      const std::optional<Move> m = (*bot)->Choose(pos, o.roll);
      ASSERT_EQ(m.has_value(), !legal.empty());
      if (m) {
        EXPECT_NE(std::find(legal.begin(), legal.end(), *m), legal.end());
      }
    }
  }
}

TEST(BotTest, EveryKindPassesWhenNoMoveIsLegal) {
  const std::shared_ptr<const Rules> rules = Load("finkel");
  ASSERT_NE(rules, nullptr);
  const auto table = std::make_shared<SearchEvaluator>(rules, 0);
  // A finished game: a position where light has every piece off.
  Position over = StartPosition(*rules);
  over.count[kLight][rules->off] = rules->pieces;
  over.count[kLight][0] = 0;
  ASSERT_TRUE(IsOver(*rules, over));
  for (const char* strength : {"perfect", "search:2", "heuristic", "random"}) {
    auto bot = MakeBot(*ParseBotSpec(strength), rules, table, 3);
    ASSERT_TRUE(bot.ok());
    // A throw of 0 never moves.
    EXPECT_EQ((*bot)->Choose(StartPosition(*rules), 0), std::nullopt) << strength;
    for (const RollOutcome& o : rules->outcomes) {
      EXPECT_EQ((*bot)->Choose(over, o.roll), std::nullopt) << strength << " roll " << o.roll;
    }
  }
}

// --- The random bot ------------------------------------------------------------

std::vector<Move> RandomBotChoices(const std::shared_ptr<const Rules>& rules, uint64_t seed) {
  auto bot = MakeBot(*ParseBotSpec("random"), rules, nullptr, seed);
  EXPECT_TRUE(bot.ok());
  std::vector<Move> out;
  for (uint64_t p = 0; p < 60; ++p) {
    const Position pos = RandomPosition(*rules, p, 30);
    for (const RollOutcome& o : rules->outcomes) {
      if (auto m = (*bot)->Choose(pos, o.roll)) out.push_back(*m);
    }
  }
  return out;
}

TEST(RandomBotTest, SameSeedSameChoicesOtherSeedOthers) {
  const std::shared_ptr<const Rules> rules = Load("finkel");
  ASSERT_NE(rules, nullptr);
  const std::vector<Move> a = RandomBotChoices(rules, 42);
  EXPECT_GT(a.size(), 50u);
  EXPECT_EQ(RandomBotChoices(rules, 42), a);
  EXPECT_NE(RandomBotChoices(rules, 43), a);
  // RandomBot and MakeBot's random bot are the same for the same seed.
  RandomBot direct(rules, 42);
  auto made = MakeBot(*ParseBotSpec("random"), rules, nullptr, 42);
  ASSERT_TRUE(made.ok());
  for (uint64_t p = 0; p < 30; ++p) {
    const Position pos = RandomPosition(*rules, p, 20);
    EXPECT_EQ(direct.Choose(pos, 2), (*made)->Choose(pos, 2)) << p;
  }
}

// --- Games and matches ---------------------------------------------------------

TEST(PlayGameTest, CountsAddUpAndTheWinnerHasFinished) {
  const std::shared_ptr<const Rules> rules = Load("finkel");
  ASSERT_NE(rules, nullptr);
  auto light = MakeBot(*ParseBotSpec("random"), rules, nullptr, 1);
  auto dark = MakeBot(*ParseBotSpec("heuristic"), rules);
  ASSERT_TRUE(light.ok() && dark.ok());
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Rng dice(seed);
    const GameResult g = PlayGame(*rules, **light, **dark, seed % 2 ? kLight : kDark, dice);
    EXPECT_TRUE(g.winner.has_value());
    EXPECT_EQ(g.first, seed % 2 ? kLight : kDark);
    EXPECT_GT(g.moves, 0);
    EXPECT_LE(g.moves, g.throws);
  }
  Rng dice(9);
  const GameResult cut = PlayGame(*rules, **light, **dark, kLight, dice, /*max_throws=*/10);
  EXPECT_FALSE(cut.winner.has_value());
  EXPECT_EQ(cut.throws, 10);
}

TEST(PlayMatchTest, TotalsAddUp) {
  const std::shared_ptr<const Rules> rules = Load("blitz");
  ASSERT_NE(rules, nullptr);
  auto light = MakeBot(*ParseBotSpec("search:0"), rules);
  auto dark = MakeBot(*ParseBotSpec("random"), rules, nullptr, 8);
  ASSERT_TRUE(light.ok() && dark.ok());
  MatchOptions options;
  options.games = 21;
  options.seed = 5;
  const MatchResult r = PlayMatch(*rules, **light, **dark, options);
  EXPECT_EQ(r.games, 21);
  EXPECT_EQ(r.wins[kLight] + r.wins[kDark] + r.unfinished, 21);
  EXPECT_EQ(r.first[kLight] + r.first[kDark], 21);
  if (rules->opening != v1::OPENING_THROW_OFF) {
    EXPECT_EQ(r.first[kLight], 11);  // light starts the even games: 0, 2, ..., 20
  }
  EXPECT_LE(r.moves, r.throws);
  EXPECT_DOUBLE_EQ(r.MeanThrows(), static_cast<double>(r.throws) / 21);
  EXPECT_EQ(MatchResult().MeanThrows(), 0.0);

  options.max_throws = 3;
  const MatchResult cut = PlayMatch(*rules, **light, **dark, options);
  EXPECT_EQ(cut.unfinished, 21);
  EXPECT_EQ(cut.wins[kLight] + cut.wins[kDark], 0);
  EXPECT_EQ(cut.throws, 21 * 3);
}

TEST(PlayMatchTest, FirstToThrowAlternatesWithoutAThrowOff) {
  const std::shared_ptr<const Rules> rules = Load("finkel");
  ASSERT_NE(rules, nullptr);
  ASSERT_NE(rules->opening, v1::OPENING_THROW_OFF);
  Rng dice(1);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(FirstToThrow(*rules, i, dice), i % 2 == 0 ? kLight : kDark) << i;
}

// The games a match reports are the games it played: each log replays from
// the start to its result, and logging changes no game.
TEST(PlayMatchTest, OnGameLogsEveryGameAsPlayed) {
  for (const char* name : {"finkel", "turnover"}) {
    const std::shared_ptr<const Rules> rules = Load(name);
    ASSERT_NE(rules, nullptr);
    auto make = [&] {
      return std::make_pair(*MakeBot(*ParseBotSpec("heuristic"), rules),
                            *MakeBot(*ParseBotSpec("random"), rules, nullptr, 3));
    };
    MatchOptions options;
    options.games = 9;
    options.seed = 11;
    auto [light, dark] = make();
    const MatchResult plain = PlayMatch(*rules, *light, *dark, options);
    int logged = 0;
    long long throws = 0;
    options.on_game = [&](int index, const GameResult& result, const GameLog& log) {
      EXPECT_EQ(index, logged++);
      EXPECT_EQ(static_cast<int>(log.throws.size()), result.throws);
      throws += result.throws;
      // The throw-off, when the rules have one, ends with its winner.
      if (rules->opening == v1::OPENING_THROW_OFF) {
        ASSERT_FALSE(log.throw_off.empty());
        for (size_t k = 0; k + 1 < log.throw_off.size(); ++k) EXPECT_EQ(log.throw_off[k].light, log.throw_off[k].dark);
        const GameLog::Round last = log.throw_off.back();
        EXPECT_EQ(result.first, last.light > last.dark ? kLight : kDark);
      } else {
        EXPECT_TRUE(log.throw_off.empty());
      }
      Position pos = StartPosition(*rules, result.first);
      for (const GameLog::Throw& t : log.throws) {
        if (t.move) {
          MoveList legal;
          LegalMoves(*rules, pos, t.roll, &legal);
          EXPECT_NE(std::find(legal.begin(), legal.end(), *t.move), legal.end());
          ApplyMove(*rules, &pos, *t.move);
        } else {
          PassTurn(&pos);
        }
      }
      EXPECT_EQ(Winner(*rules, pos), result.winner);
    };
    auto [light2, dark2] = make();
    const MatchResult with_log = PlayMatch(*rules, *light2, *dark2, options);
    EXPECT_EQ(logged, 9) << name;
    EXPECT_EQ(throws, with_log.throws) << name;
    EXPECT_EQ(with_log.throws, plain.throws) << name;
    EXPECT_EQ(with_log.wins[kLight], plain.wins[kLight]) << name;
    EXPECT_EQ(with_log.first[kLight], plain.first[kLight]) << name;
  }
}

// --- WilsonInterval ------------------------------------------------------------

TEST(WilsonIntervalTest, BasicProperties) {
  const Interval none = WilsonInterval(0, 0);
  EXPECT_EQ(none.low, 0);
  EXPECT_EQ(none.high, 1);
  EXPECT_EQ(WilsonInterval(0, 10).low, 0);
  EXPECT_EQ(WilsonInterval(10, 10).high, 1);
  // Half of 100: centred on one half, symmetric, a known width (about
  // 0.40 to 0.60 at 95%).
  const Interval half = WilsonInterval(50, 100);
  EXPECT_NEAR(half.low + half.high, 1.0, 1e-12);
  EXPECT_NEAR(half.low, 0.4038, 1e-3);
  // Mirror: successes and failures swapped mirror the interval.
  const Interval a = WilsonInterval(13, 40), b = WilsonInterval(27, 40);
  EXPECT_NEAR(a.low, 1 - b.high, 1e-12);
  EXPECT_NEAR(a.high, 1 - b.low, 1e-12);
  // Wider with a larger z, narrower with more trials.
  const Interval wide = WilsonInterval(13, 40, 3.0);
  EXPECT_LT(wide.low, a.low);
  EXPECT_GT(wide.high, a.high);
  const Interval more = WilsonInterval(130, 400);
  EXPECT_LT(more.high - more.low, a.high - a.low);
}

RC_GTEST_PROP(WilsonIntervalProperties, InsideTheUnitIntervalAroundTheProportion, ()) {
  const long long trials = *rc::gen::inRange<long long>(1, 100000);
  const long long successes = *rc::gen::inRange<long long>(0, trials + 1);
  const Interval ci = WilsonInterval(successes, trials);
  const double p = static_cast<double>(successes) / static_cast<double>(trials);
  RC_ASSERT(ci.low >= 0.0);
  RC_ASSERT(ci.high <= 1.0);
  RC_ASSERT(ci.low <= p + 1e-12);
  RC_ASSERT(ci.high >= p - 1e-12);
}

}  // namespace
}  // namespace scribe
