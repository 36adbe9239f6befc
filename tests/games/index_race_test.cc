// A lookup that an import's merge overtakes: the merge commits between the
// lookup's read of a key's own blocks and its read of the bucket's blocks
// (games/position_index.h, KeyPostings::kReadTries). With keys kept apart
// the merge moves the key's postings from a bucket block into its own
// block, where the first read did not see them; the lookup must notice and
// read again, on both backends, and find every game.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/random.h"
#include "games/import.h"
#include "games/position_index.h"
#include "games/query.h"
#include "games/rules_cache.h"
#include "gtest/gtest.h"
#include "records/judged.h"
#include "records/random_game.h"
#include "storage/open_store.h"
#include "tests/common/random_judged.h"
#include "tests/common/test_rules.h"
#include "tests/storage/test_backends.h"

namespace scribe::games {
namespace {

// A store that runs `hook` (once) when a bucket's blocks are first read
// after it is set: everything else goes to the store it wraps.
class HookedStore final : public Store {
 public:
  explicit HookedStore(Store& s) : s_(s) {}
  std::function<void()> hook;
  int bucket_reads = 0;

  absl::StatusOr<std::vector<RunBlock>> Postings(int64_t ruleset, int64_t bucket,
                                                 const std::vector<int64_t>& except_runs) override {
    if (bucket >= 0) {
      ++bucket_reads;
      if (hook) {
        auto h = std::move(hook);
        hook = nullptr;
        h();
      }
    }
    return s_.Postings(ruleset, bucket, except_runs);
  }

  std::string Name() const override { return s_.Name(); }
  absl::Status BeginWrite() override { return s_.BeginWrite(); }
  absl::Status Commit() override { return s_.Commit(); }
  absl::Status Rollback() override { return s_.Rollback(); }
  absl::Status Reclaim() override { return s_.Reclaim(); }
  absl::Status Settle() override { return s_.Settle(); }
  absl::StatusOr<std::optional<std::string>> Setting(const std::string& key) override { return s_.Setting(key); }
  absl::Status SetSetting(const std::string& key, const std::string& value) override {
    return s_.SetSetting(key, value);
  }
  absl::StatusOr<int64_t> RulesetId(const std::string& digest, const std::string& reference) override {
    return s_.RulesetId(digest, reference);
  }
  absl::StatusOr<std::vector<RulesetRow>> Rulesets() override { return s_.Rulesets(); }
  absl::StatusOr<std::vector<GameRow>> GamesWithHash(uint64_t hash) override { return s_.GamesWithHash(hash); }
  absl::StatusOr<int64_t> AddGame(const GameRow& game) override { return s_.AddGame(game); }
  absl::StatusOr<std::vector<GameRow>> GamesById(const std::vector<int64_t>& ids) override { return s_.GamesById(ids); }
  absl::StatusOr<int64_t> CountGames(const GameQuery& query) override { return s_.CountGames(query); }
  absl::StatusOr<std::vector<int64_t>> FindGames(const GameQuery& query, int64_t offset, int64_t limit) override {
    return s_.FindGames(query, offset, limit);
  }
  absl::Status ScanGames(const GameQuery& query, const std::function<bool(int64_t id)>& visit) override {
    return s_.ScanGames(query, visit);
  }
  absl::StatusOr<std::vector<std::string>> Dates(const std::vector<int64_t>& ids) override { return s_.Dates(ids); }
  absl::StatusOr<std::optional<int64_t>> SourceGame(const SourceRow& source) override { return s_.SourceGame(source); }
  absl::Status AddSource(int64_t game, const SourceRow& source) override { return s_.AddSource(game, source); }
  absl::StatusOr<std::vector<SourceRow>> Sources(int64_t game) override { return s_.Sources(game); }
  absl::StatusOr<int64_t> NewRun() override { return s_.NewRun(); }
  absl::Status AddPostings(int64_t run, const std::vector<PostingRow>& rows) override {
    return s_.AddPostings(run, rows);
  }
  absl::StatusOr<std::vector<RunRow>> Runs() override { return s_.Runs(); }
  absl::StatusOr<std::vector<RunBlock>> PostingHeads(int64_t ruleset, int64_t bucket, int64_t bytes) override {
    return s_.PostingHeads(ruleset, bucket, bytes);
  }
  absl::StatusOr<std::vector<PostingRow>> RunPostings(int64_t run, std::pair<int64_t, int64_t> after, int limit,
                                                      std::pair<int64_t, int64_t> buckets) override {
    return s_.RunPostings(run, after, limit, buckets);
  }
  absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> RunBuckets(int64_t run,
                                                                     std::pair<int64_t, int64_t> buckets) override {
    return s_.RunBuckets(run, buckets);
  }
  absl::Status DeleteRun(int64_t run) override { return s_.DeleteRun(run); }
  absl::Status AddExplorer(const std::vector<ExplorerRow>& rows) override { return s_.AddExplorer(rows); }
  absl::StatusOr<std::vector<ExplorerRow>> Explorer(int64_t ruleset, int64_t key) override {
    return s_.Explorer(ruleset, key);
  }
  absl::StatusOr<PlayerTotals> Player(const std::string& name) override { return s_.Player(name); }
  absl::Status RecomputePlayers() override { return s_.RecomputePlayers(); }
  absl::Status ReplaceRatings(const std::vector<RatingRow>& rows) override { return s_.ReplaceRatings(rows); }
  absl::StatusOr<std::vector<RatingRow>> Ratings(const std::string& player) override { return s_.Ratings(player); }
  absl::Status ScanResults(const std::function<bool(const std::string& date, const std::string& light,
                                                    const std::string& dark, int result)>& visit) override {
    return s_.ScanResults(visit);
  }

 private:
  Store& s_;
};

JudgedRecord RandomJudged(uint64_t seed) { return scribe::RandomJudged("finkel", seed); }

// A new store of 130 games in two runs: one where the start (every game)
// has its own block (100 games in one batch), then one where it is in its
// bucket's block (30 < kOwnBlock). Two runs: fewer than a merge waits for.
class IndexRaceTest : public ::testing::TestWithParam<storage::TestBackend> {
 protected:
  void SetUp() override {
    auto opened = storage::OpenStore(GetParam().make_location(), storage::OpenMode::kCreate);
    ASSERT_TRUE(opened.ok()) << opened.status();
    store_ = std::move(*opened);
    for (uint64_t seed = 1; seed <= 130; ++seed) records_.push_back(RandomJudged(seed));
    ImportOptions options;
    for (const auto& [from, to] : {std::pair<size_t, size_t>{0, 100}, {100, 130}}) {
      options.batch_games = static_cast<int>(to - from);
      auto importer = Importer::Start(*store_, options);
      ASSERT_TRUE(importer.ok()) << importer.status();
      for (size_t i = from; i < to; ++i) {
        ASSERT_TRUE((*importer)->Add(records_[i], "/r", static_cast<int64_t>(i)).ok());
      }
      ASSERT_TRUE((*importer)->Finish().ok());
    }
    ASSERT_EQ(store_->Runs().value().size(), 2u);
    rules_ = std::make_unique<RulesCache>(*store_);
    auto known = rules_->ByDigest(records_[0].verdict.rules->digest);
    ASSERT_TRUE(known.ok()) << known.status();
    known_ = *known;
  }

  // What the hooked store runs between a lookup's reads.
  void MergeTheTwoRuns() {
    const std::vector<RunRow> runs = store_->Runs().value();
    ASSERT_EQ(runs.size(), 2u);
    ASSERT_TRUE(MergeRunsAtomically(*store_, {runs[0].run, runs[1].run}).ok());
  }

  std::unique_ptr<Store> store_;
  std::vector<JudgedRecord> records_;
  std::unique_ptr<RulesCache> rules_;
  const KnownRules* known_ = nullptr;
};

TEST_P(IndexRaceTest, AMergeBetweenALookupsReadsIsNoticedAndEveryGameFound) {
  const uint64_t key = known_->keys->Key(records_[0].verdict.positions[0]);
  HookedStore hooked(*store_);
  // A lookup overtaken by the merge: without the check it would read the
  // first run's own block and the merged run's bucket block (the start's
  // 30 postings moved out of it), 100 games.
  hooked.hook = [this] { MergeTheTwoRuns(); };
  auto games = LookUp(hooked, *known_, key);
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_EQ(games->size(), records_.size());
  EXPECT_EQ(hooked.bucket_reads, 2) << "read again after the merge";
  ASSERT_EQ(store_->Runs().value().size(), 1u);  // the merge happened
}

// The explorer reads the own blocks' heads: overtaken the same way, it
// reads again.
TEST_P(IndexRaceTest, TheExplorerOvertakenByAMergeCountsEveryGame) {
  HookedStore hooked(*store_);
  hooked.hook = [this] { MergeTheTwoRuns(); };
  auto explored = Explore(hooked, PositionTarget{known_, records_[0].verdict.positions[0]}, nullptr);
  ASSERT_TRUE(explored.ok()) << explored.status();
  EXPECT_EQ(explored->games, static_cast<int64_t>(records_.size()));
  EXPECT_EQ(hooked.bucket_reads, 2) << "read again after the merge";
  ASSERT_EQ(store_->Runs().value().size(), 1u);  // the merge happened
}

INSTANTIATE_TEST_SUITE_P(Backends, IndexRaceTest, ::testing::ValuesIn(storage::TestBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace scribe::games
