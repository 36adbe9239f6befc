// The analysis pipeline (review/pipeline.h): one evaluator per ruleset
// whatever the threads, the evaluator a source chooses, an analysis equal to
// its parts done by hand, a stop honoured, and a collection whose every
// record is analysed once.
#include "review/pipeline.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/random.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "gtest/gtest.h"
#include "records/judged.h"
#include "records/random_game.h"
#include "review/annotate.h"
#include "review/annotation_text.h"
#include "review/review.h"
#include "tests/common/exact_test_evaluator.h"
#include "tests/common/test_rules.h"

namespace scribe {
namespace {

constexpr char kTwo[] = "finkel(pieces=2)";

std::shared_ptr<const ExactTestEvaluator> Exact() {
  static const auto* made = new std::shared_ptr<const ExactTestEvaluator>(
      std::make_shared<const ExactTestEvaluator>(MustLoad(kTwo)));
  return *made;
}

JudgedRecord RandomJudged(const std::string& ruleset, uint64_t seed) {
  Rng rng(seed);
  RandomGameOptions options;
  options.ruleset = ruleset;
  v1::GameRecord record = PlayRandomGame(*MustLoad(ruleset), rng, options).record;
  JudgedRecord judged = Judge(std::move(record), {}, {.build_replay = false, .keep_positions = true});
  EXPECT_TRUE(judged.verdict.valid());
  return judged;
}

std::shared_ptr<const EvaluatorSource::TablesByDigest> TwoTable() {
  auto tables = std::make_shared<EvaluatorSource::TablesByDigest>();
  tables->emplace(Exact()->rules().digest, Exact());
  return tables;
}

// Analysis options with chances from `chances` (none: the annotation alone).
AnalysisOptions With(std::shared_ptr<const EvaluatorSource> chances, StopCheck stop = {}, bool review = true,
                     int key_moves = 5) {
  AnalysisOptions options;
  options.chances = std::move(chances);
  options.stop = std::move(stop);
  options.review = review;
  options.review_options.key_moves = key_moves;
  return options;
}

TEST(EvaluatorSourceTest, MakesOneEvaluatorPerRulesetWhateverTheThreads) {
  std::atomic<int> made{0};
  const EvaluatorSource source([&](const std::shared_ptr<const Rules>& rules) {
    ++made;
    return absl::StatusOr<std::shared_ptr<const Evaluator>>(std::make_shared<const SearchEvaluator>(rules, 0));
  });
  const std::shared_ptr<const Rules> two = MustLoad(kTwo), three = MustLoad("finkel(pieces=3)");
  std::vector<std::thread> threads;
  std::mutex mu;
  std::set<const Evaluator*> seen_two, seen_three;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        auto a = source.For(two);
        auto b = source.For(three);
        ASSERT_TRUE(a.ok() && b.ok());
        std::lock_guard<std::mutex> lock(mu);
        seen_two.insert(a->get());
        seen_three.insert(b->get());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(made.load(), 2);
  EXPECT_EQ(seen_two.size(), 1u);
  EXPECT_EQ(seen_three.size(), 1u);
  EXPECT_NE(*seen_two.begin(), *seen_three.begin());
  EXPECT_EQ((*seen_two.begin())->rules().digest, two->digest);
}

TEST(EvaluatorSourceTest, AMakersErrorIsTheSourcesAndIsNotKept) {
  int calls = 0;
  const EvaluatorSource source([&](const std::shared_ptr<const Rules>&) {
    ++calls;
    return absl::StatusOr<std::shared_ptr<const Evaluator>>(absl::FailedPreconditionError("no table here"));
  });
  for (int i = 0; i < 2; ++i) {
    auto made = source.For(MustLoad(kTwo));
    ASSERT_FALSE(made.ok());
    EXPECT_EQ(made.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_EQ(made.status().message(), "no table here");
  }
  EXPECT_EQ(calls, 2);
}

TEST(EvaluatorSourceTest, TablesElseSearchTakesTheTableOfTheRulesElseASearchElseRefuses) {
  const std::shared_ptr<const Rules> two = MustLoad(kTwo), three = MustLoad("finkel(pieces=3)");
  // The table of the rules, the very evaluator given.
  auto with_search = EvaluatorSource::TablesElseSearch(TwoTable(), 1);
  auto table = with_search->For(two);
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(table->get(), Exact().get());
  // Rules without a table: a search of the depth given.
  auto search = with_search->For(three);
  ASSERT_TRUE(search.ok());
  EXPECT_FALSE((*search)->exact());
  EXPECT_EQ((*search)->rules().digest, three->digest);
  EXPECT_EQ((*search)->name(), SearchEvaluator(three, 1).name());
  // Exact values only: rules without a table are refused, naming them.
  auto exact_only = EvaluatorSource::TablesElseSearch(TwoTable(), std::nullopt);
  auto refused = exact_only->For(three);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find(three->digest), absl::string_view::npos) << refused.status();
  // No tables at all (a search asked for): a search even for rules that have one.
  auto search_only = EvaluatorSource::TablesElseSearch(nullptr, 0);
  auto searched = search_only->For(two);
  ASSERT_TRUE(searched.ok());
  EXPECT_FALSE((*searched)->exact());
}

TEST(AnalyzerTest, WithoutChancesItIsTheAnnotation) {
  const JudgedRecord judged = RandomJudged(kTwo, 7);
  const Analyzer analyzer(With(nullptr));
  auto analysis = analyzer.Analyze(judged);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  auto by_hand = AnnotateRecord(judged);
  ASSERT_TRUE(by_hand.ok());
  EXPECT_FALSE(analysis->review.has_value());
  EXPECT_FALSE(analysis->annotated.values.has_value());
  EXPECT_EQ(AnnotationToProto(analysis->annotated, kTwo).SerializeAsString(),
            AnnotationToProto(*by_hand, kTwo).SerializeAsString());
  EXPECT_EQ(analyzer.EvaluatorFor(judged.verdict.rules).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(AnalyzerTest, WithChancesItIsTheAnnotationTheChancesAndTheReviewOfTheRulesTable) {
  const Analyzer analyzer(With(EvaluatorSource::TablesElseSearch(TwoTable(), std::nullopt), {}, true, 2));
  for (uint64_t seed : {1, 2, 3}) {
    const JudgedRecord judged = RandomJudged(kTwo, seed);
    auto analysis = analyzer.Analyze(judged);
    ASSERT_TRUE(analysis.ok()) << analysis.status();
    auto annotated = AnnotateWithValues(judged.record, *Exact());
    ASSERT_TRUE(annotated.ok());
    auto review = ReviewGame(judged.record, *annotated, {.key_moves = 2});
    ASSERT_TRUE(review.ok());
    ASSERT_TRUE(analysis->annotated.values.has_value());
    EXPECT_TRUE(analysis->annotated.values->exact);
    EXPECT_EQ(AnnotationToProto(analysis->annotated, kTwo).SerializeAsString(),
              AnnotationToProto(*annotated, kTwo).SerializeAsString());
    ASSERT_TRUE(analysis->review.has_value());
    EXPECT_LE(analysis->review->key_moves.size(), 2u);
    EXPECT_EQ(ReviewToProto(*analysis->review, *judged.verdict.rules).SerializeAsString(),
              ReviewToProto(*review, *judged.verdict.rules).SerializeAsString());
  }
}

// Each ruleset with a source of chances: finkel(pieces=2) with its exact
// table, and every preset with a search one throw deep.
std::vector<std::pair<std::string, std::shared_ptr<const EvaluatorSource>>> TableAndSearches() {
  std::vector<std::pair<std::string, std::shared_ptr<const EvaluatorSource>>> cases = {
      {kTwo, EvaluatorSource::TablesElseSearch(TwoTable(), std::nullopt)}};
  for (const PresetInfo& preset : Presets()) {
    cases.emplace_back(preset.id, EvaluatorSource::TablesElseSearch(nullptr, 1));
  }
  return cases;
}

// Without the heuristic's scores an analysis is the same but for them:
// every value, mark and figure of the review; the scores left out (rank
// 0: absent from the annotation's proto), on an exact table and on a
// search of every preset.
TEST(AnalyzerTest, WithoutMoveScoresEverythingButTheScoresIsTheSame) {
  for (const auto& [ruleset, chances] : TableAndSearches()) {
    SCOPED_TRACE(ruleset);
    AnalysisOptions scored = With(chances);
    AnalysisOptions unscored = scored;
    unscored.score_moves = false;
    const Analyzer with(scored), without(unscored);
    for (uint64_t seed : {11, 12}) {
      const JudgedRecord judged = RandomJudged(ruleset, seed);
      auto a = with.Analyze(judged);
      auto b = without.Analyze(judged);
      ASSERT_TRUE(a.ok() && b.ok()) << a.status() << b.status();
      ASSERT_TRUE(a->review.has_value() && b->review.has_value());
      const Rules& rules = *judged.verdict.rules;
      EXPECT_EQ(ReviewToProto(*a->review, rules).SerializeAsString(),
                ReviewToProto(*b->review, rules).SerializeAsString());
      v1::Annotation scores_left_out = AnnotationToProto(a->annotated, ruleset);
      int scored_moves = 0;
      for (v1::AnnotatedAction& action : *scores_left_out.mutable_actions()) {
        scored_moves += action.has_rank() && action.rank() >= 1;
        action.clear_rank();
        action.clear_score();
        action.clear_best_score();
        action.clear_best();
      }
      EXPECT_GT(scored_moves, 0);
      EXPECT_EQ(AnnotationToProto(b->annotated, ruleset).SerializeAsString(), scores_left_out.SerializeAsString());
      for (const ActionAnnotation& an : b->annotated.actions) {
        EXPECT_EQ(an.rank, 0);
        EXPECT_FALSE(an.best.has_value());
      }
    }
  }
}

// Figures alone are the review's, to the last bit: an exact table, and a
// search of every preset; random games (mistakes), and games of passes and
// forced moves (the start of every preset's games) included.
TEST(AnalyzerTest, FiguresAreTheReviewsFiguresToTheLastBit) {
  int decisions = 0;
  for (const auto& [ruleset, chances] : TableAndSearches()) {
    SCOPED_TRACE(ruleset);
    const Analyzer analyzer(With(chances));
    for (uint64_t seed : {21, 22, 23}) {
      const JudgedRecord judged = RandomJudged(ruleset, seed);
      auto review = analyzer.Analyze(judged);
      auto figures = analyzer.Figures(judged);
      ASSERT_TRUE(review.ok() && figures.ok()) << review.status() << figures.status();
      for (Side side : {kLight, kDark}) {
        const PlayerReview& want = review->review->players[side];
        const PlayerFigures& got = (*figures)[side];
        EXPECT_EQ(got.decisions, want.decisions);
        EXPECT_EQ(got.accuracy, want.accuracy);
        EXPECT_EQ(got.error_rate, want.error_rate);
        EXPECT_EQ(got.rating, want.rating);
        decisions += got.decisions;
      }
    }
  }
  EXPECT_GT(decisions, 0);
}

TEST(AnalyzerTest, FiguresFailAsAnalyzeDoes) {
  const JudgedRecord judged = RandomJudged(kTwo, 8);
  // No chances, or no evaluator of the record's rules.
  EXPECT_EQ(Analyzer(With(nullptr)).Figures(judged).status().code(), absl::StatusCode::kFailedPrecondition);
  const Analyzer exact(With(EvaluatorSource::TablesElseSearch(TwoTable(), std::nullopt)));
  EXPECT_EQ(exact.Figures(RandomJudged("finkel(pieces=3)", 5)).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // A record that is not a legal game.
  JudgedRecord broken = judged;
  broken.record.mutable_actions(0)->set_roll(9);
  broken = Judge(std::move(broken.record), {}, {.build_replay = false, .keep_positions = true});
  ASSERT_FALSE(broken.verdict.valid());
  EXPECT_EQ(exact.Figures(broken).status().code(), absl::StatusCode::kInvalidArgument);
  // A stop, from the start and while the decisions are valued.
  EXPECT_EQ(Analyzer(With(EvaluatorSource::TablesElseSearch(TwoTable(), std::nullopt), [] { return true; }))
                .Figures(judged)
                .status()
                .code(),
            absl::StatusCode::kCancelled);
  std::atomic<int> polls{0};
  const Analyzer stopping(With(EvaluatorSource::TablesElseSearch(TwoTable(), std::nullopt),
                               [&] { return ++polls > 1; }));
  EXPECT_EQ(stopping.Figures(judged).status().code(), absl::StatusCode::kCancelled);
  ASSERT_TRUE(exact.Figures(judged).ok());
}

TEST(AnalyzerTest, ReviewOffGivesChancesWithoutAReview) {
  const Analyzer analyzer(With(EvaluatorSource::TablesElseSearch(TwoTable(), std::nullopt), {}, false));
  auto analysis = analyzer.Analyze(RandomJudged(kTwo, 4));
  ASSERT_TRUE(analysis.ok());
  EXPECT_TRUE(analysis->annotated.values.has_value());
  EXPECT_FALSE(analysis->review.has_value());
}

TEST(AnalyzerTest, RulesWithoutAnEvaluatorAreAFailedPrecondition) {
  const Analyzer analyzer(With(EvaluatorSource::TablesElseSearch(TwoTable(), std::nullopt)));
  auto analysis = analyzer.Analyze(RandomJudged("finkel(pieces=3)", 5));
  ASSERT_FALSE(analysis.ok());
  EXPECT_EQ(analysis.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(AnalyzerTest, AStopIsHonoured) {
  const JudgedRecord judged = RandomJudged(kTwo, 6);
  // Stopped from the start: nothing is done.
  {
    const Analyzer analyzer(With(nullptr, [] { return true; }));
    auto analysis = analyzer.Analyze(judged);
    ASSERT_FALSE(analysis.ok());
    EXPECT_EQ(analysis.status().code(), absl::StatusCode::kCancelled);
  }
  // Stopped while the search's chances are added (after as many polls as
  // the annotation alone makes): the analysis is refused, not returned
  // half-done.
  {
    std::atomic<int> annotation_polls{0};
    ASSERT_TRUE(Analyzer(With(nullptr, [&] { return ++annotation_polls < 0; })).Analyze(judged).ok());
    std::atomic<int> polls{0};
    const Analyzer analyzer(With(EvaluatorSource::TablesElseSearch(nullptr, 1),
                                 [&] { return ++polls > annotation_polls + 2; }));
    auto analysis = analyzer.Analyze(judged);
    ASSERT_FALSE(analysis.ok());
    EXPECT_EQ(analysis.status().code(), absl::StatusCode::kCancelled);
    EXPECT_GT(polls.load(), annotation_polls.load());
  }
  // A search's evaluator made by the source polls the source's stop.
  {
    std::atomic<bool> stop{false};
    auto source = EvaluatorSource::TablesElseSearch(nullptr, 3, [&] { return stop.load(); });
    auto evaluator = source->For(judged.verdict.rules);
    ASSERT_TRUE(evaluator.ok());
    const Analyzer analyzer(With(source, [&] { return stop.load(); }));
    stop = true;
    EXPECT_EQ(analyzer.Analyze(judged).status().code(), absl::StatusCode::kCancelled);
  }
}

// A collection of `records[i]` records in input i, some empty.
struct Counted {
  std::vector<std::vector<std::atomic<int>>> analysed;
  std::atomic<int> opened{0}, record_steps{0}, empty_steps{0}, inputs_done{0};
};

TEST(RunCollectionTest, EveryRecordOfEveryInputIsAnalysedOnceOnAnyNumberOfThreads) {
  const std::vector<size_t> records = {3, 0, 1, 7, 0, 2, 5};
  for (int threads : {1, 2, 5}) {
    Counted c;
    c.analysed = std::vector<std::vector<std::atomic<int>>>(records.size());
    for (size_t i = 0; i < records.size(); ++i) c.analysed[i] = std::vector<std::atomic<int>>(records[i]);
    const CollectionWork work{
        .inputs = records.size(),
        .open =
            [&](size_t i) {
              ++c.opened;
              std::vector<size_t> ks;
              for (size_t k = 0; k < records[i]; ++k) ks.push_back(k);
              return ks;
            },
        .analyze = [&](size_t i, size_t k) { ++c.analysed[i][k]; },
        .progress =
            [&](bool record, bool input_done) {
              ++(record ? c.record_steps : c.empty_steps);
              c.inputs_done += input_done;
            },
    };
    ASSERT_TRUE(RunCollection(work, threads).ok());
    EXPECT_EQ(c.opened.load(), static_cast<int>(records.size()));
    int total = 0;
    for (size_t i = 0; i < records.size(); ++i) {
      for (size_t k = 0; k < records[i]; ++k) EXPECT_EQ(c.analysed[i][k].load(), 1) << i << "#" << k;
      total += static_cast<int>(records[i]);
    }
    EXPECT_EQ(c.record_steps.load(), total);
    EXPECT_EQ(c.empty_steps.load(), 2);
    EXPECT_EQ(c.inputs_done.load(), static_cast<int>(records.size()));
  }
}

TEST(RunCollectionTest, AStopEndsTheRunWithNoMoreWorkStarted) {
  std::atomic<int> analysed{0};
  std::atomic<bool> stop{false};
  const CollectionWork work{
      .inputs = 100,
      .open = [](size_t) { return std::vector<size_t>{0, 1, 2}; },
      .analyze =
          [&](size_t, size_t) {
            if (++analysed == 10) stop = true;
          },
      .progress = {},
  };
  const absl::Status status = RunCollection(work, 2, [&] { return stop.load(); });
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
  // The ten, and at most one more that another thread had started.
  EXPECT_GE(analysed.load(), 10);
  EXPECT_LE(analysed.load(), 11);
}

}  // namespace
}  // namespace scribe
