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
#include "tests/games/forwarding_store.h"
#include "tests/storage/test_backends.h"

namespace scribe::games {
namespace {

// A store that runs `hook` (once) when a bucket's blocks are first read
// after it is set: everything else goes to the store it wraps.
class HookedStore final : public ForwardingStore {
 public:
  explicit HookedStore(Store& s) : ForwardingStore(s) {}
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
    return ForwardingStore::Postings(ruleset, bucket, except_runs);
  }
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
