// The game database end to end through games/ (import, search, explore,
// export), on every backend (tests/storage/test_backends.h: a real SQLite
// file and a real PostgreSQL server): random games of every preset go in,
// and the same records come out; the explorer's counts equal a recount
// from the records; a position search finds each game at the ply it
// reached the position, and only games that reach it; importing again adds
// nothing; the same game from two sources is one game.
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/position.h"
#include "engine/random.h"
#include "engine/ruleset.h"
#include "games/import.h"
#include "games/position_index.h"
#include "games/query.h"
#include "games/rules_cache.h"
#include "gtest/gtest.h"
#include "records/formats.h"
#include "records/judged.h"
#include "records/random_game.h"
#include "review/pipeline.h"
#include "storage/open_store.h"
#include "storage/sqlite_store.h"
#include "tests/common/random_judged.h"
#include "tests/common/test_rules.h"
#include "tests/games/forwarding_store.h"
#include "tests/storage/cut_proxy.h"
#include "tests/storage/postgres_server.h"
#include "tests/storage/test_backends.h"

namespace scribe::games {
namespace {

// Five players, dates by seed.
JudgedRecord RandomJudged(const std::string& ref, uint64_t seed, int max_actions = INT_MAX) {
  return scribe::RandomJudged(ref, seed,
                              {{"Light", "player" + std::to_string(seed % 5)},
                               {"Dark", "player" + std::to_string((seed + 2) % 5)},
                               {"Date", "2026-0" + std::to_string(1 + seed % 9) + "-1" + std::to_string(seed % 10)}},
                              max_actions);
}

class LibraryTest : public ::testing::TestWithParam<storage::TestBackend> {
 protected:
  void SetUp() override {
    auto store = storage::OpenStore(GetParam().make_location(), storage::OpenMode::kCreate);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
  }
  // Imports `records` as records 0.. of `file`, `batch` games a batch,
  // into `store` (store_ when none).
  ImportCounts Import(const std::vector<JudgedRecord>& records, const std::string& file, int batch = 1000,
                      Store* store = nullptr) {
    ImportOptions options;
    options.batch_games = batch;
    auto importer = Importer::Start(store != nullptr ? *store : *store_, options);
    EXPECT_TRUE(importer.ok()) << importer.status();
    if (!importer.ok()) return {};
    for (size_t i = 0; i < records.size(); ++i) {
      absl::Status s = (*importer)->Add(records[i], file, static_cast<int64_t>(i));
      EXPECT_TRUE(s.ok()) << s;
    }
    absl::Status s = (*importer)->Finish();
    EXPECT_TRUE(s.ok()) << s;
    return (*importer)->counts();
  }
  void SetDepth(int depth) {
    ASSERT_TRUE(store_->BeginWrite().ok());
    ASSERT_TRUE(store_->SetSetting("explorer_depth", std::to_string(depth)).ok());
    ASSERT_TRUE(store_->Commit().ok());
  }
  std::unique_ptr<Store> store_;
};

TEST_P(LibraryTest, EveryPresetGoesInAndTheSameRecordsComeOut) {
  std::vector<JudgedRecord> records;
  for (const PresetInfo& p : Presets()) {
    for (uint64_t seed = 1; seed <= 4; ++seed) records.push_back(RandomJudged(p.id, seed, seed == 4 ? 9 : INT_MAX));
  }
  const ImportCounts counts = Import(records, "/games/all.tsn", 7);
  EXPECT_EQ(counts.added, static_cast<int64_t>(records.size()));
  RulesCache rules(*store_);
  std::vector<v1::GameRecord> out;
  ASSERT_TRUE(ForEachRecords(*store_, rules, GameQuery{}, 5, [&](std::vector<v1::GameRecord>&& chunk) {
                out.insert(out.end(), chunk.begin(), chunk.end());
                return absl::OkStatus();
              }).ok());
  ASSERT_EQ(out.size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    for (Format f : {Format::kTsn, Format::kJson}) {
      auto want = WriteRecords(f, std::vector<JudgedRecord>{records[i]});
      auto got = WriteRecords(f, std::vector<v1::GameRecord>{out[i]});
      ASSERT_TRUE(want.ok() && got.ok());
      EXPECT_EQ(*got, *want) << "game " << i + 1 << " " << records[i].record.ruleset();
    }
  }
}

// A new database keeps identities in version 2; one whose games were
// stored before version 2 existed (its migration set "identity" to 1)
// goes on storing version 1, so that the same game imported later is the
// same bytes: either way nothing is added twice, and every game comes back
// as it went in.
TEST_P(LibraryTest, IdentitiesKeepTheDatabasesFormAndBothAreRead) {
  std::vector<JudgedRecord> records;
  for (const PresetInfo& p : Presets()) records.push_back(RandomJudged(p.id, 11));
  ASSERT_EQ(store_->Setting("identity").value_or(std::nullopt), std::optional<std::string>("2"));
  std::unique_ptr<Store> older;
  {
    auto opened = storage::OpenStore(GetParam().make_location(), storage::OpenMode::kCreate);
    ASSERT_TRUE(opened.ok()) << opened.status();
    older = *std::move(opened);
    ASSERT_TRUE(older->BeginWrite().ok());
    ASSERT_TRUE(older->SetSetting("identity", "1").ok());
    ASSERT_TRUE(older->Commit().ok());
  }
  for (auto [store, form] : {std::pair{store_.get(), kIdentityV2}, std::pair{older.get(), kIdentityV1}}) {
    const auto n = static_cast<int64_t>(records.size());
    ImportCounts counts = Import(records, "/games/first.tsn", 1000, store);
    EXPECT_EQ(counts.added, n);
    counts = Import(records, "/games/again.tsn", 1000, store);
    EXPECT_EQ(counts.added, 0);
    EXPECT_EQ(counts.new_sources, n);
    std::vector<int64_t> ids;
    for (int64_t id = 1; id <= n; ++id) ids.push_back(id);
    auto rows = store->GamesById(ids);
    ASSERT_TRUE(rows.ok()) << rows.status();
    ASSERT_EQ(rows->size(), records.size());
    RulesCache rules(*store);
    for (size_t i = 0; i < records.size(); ++i) {
      const GameRow& row = (*rows)[i];
      ASSERT_FALSE(row.identity.empty());
      EXPECT_EQ(row.identity[0], form) << records[i].record.ruleset();
      auto known = rules.ById(row.ruleset);
      ASSERT_TRUE(known.ok()) << known.status();
      auto decoded =
          DecodeGame(*(*known)->rules, row.identity, row.extra, TagColumns{row.light, row.dark, row.event, row.date});
      ASSERT_TRUE(decoded.ok()) << decoded.status();
      auto want = WriteRecords(Format::kTsn, std::vector<JudgedRecord>{records[i]});
      auto got = WriteRecords(Format::kTsn, std::vector<v1::GameRecord>{*decoded});
      ASSERT_TRUE(want.ok() && got.ok());
      EXPECT_EQ(*got, *want) << "form " << form << ", " << records[i].record.ruleset();
    }
  }
}

// With an Analyzer, every new game is reviewed (over several threads, in
// chunks that cross batches) and stores the figures the Analyzer gives
// that record; the player's totals and the explorer's accuracy sums come
// from them.
TEST_P(LibraryTest, ImportWithReviewsStoresEachGamesOwnFigures) {
  AnalysisOptions analysis;
  analysis.chances = EvaluatorSource::TablesElseSearch(nullptr, 1);
  const Analyzer analyzer(analysis);
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 9; ++seed) records.push_back(RandomJudged("finkel", seed, 60));
  ImportOptions options;
  options.batch_games = 4;
  options.analyzer = &analyzer;
  options.review_threads = 3;
  auto importer = Importer::Start(*store_, options);
  ASSERT_TRUE(importer.ok()) << importer.status();
  for (size_t i = 0; i < records.size(); ++i) {
    ASSERT_TRUE((*importer)->Add(records[i], "/reviewed.tsn", static_cast<int64_t>(i)).ok());
  }
  ASSERT_TRUE((*importer)->Finish().ok());
  EXPECT_EQ((*importer)->counts().added, 9);
  EXPECT_EQ((*importer)->counts().reviewed, 9);
  std::vector<int64_t> ids(9);
  for (int i = 0; i < 9; ++i) ids[i] = i + 1;
  auto rows = store_->GamesById(ids);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 9u);
  double ann_sum = 0;
  int ann_games = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    auto want = analyzer.Analyze(records[i]);
    ASSERT_TRUE(want.ok() && want->review.has_value());
    for (Side side : {kLight, kDark}) {
      SCOPED_TRACE(::testing::Message() << "game " << i << " side " << side);
      ASSERT_TRUE((*rows)[i].figures[side].has_value());
      EXPECT_EQ((*rows)[i].figures[side]->accuracy, want->review->players[side].accuracy);
      EXPECT_EQ((*rows)[i].figures[side]->error_rate, want->review->players[side].error_rate);
      const std::string name = side == kLight ? (*rows)[i].light : (*rows)[i].dark;
      if (name == "player1" && !(side == kDark && (*rows)[i].light == "player1")) {
        ann_sum += want->review->players[side].accuracy;
        ++ann_games;
      }
    }
  }
  auto page = Player(*store_, "player1");
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->totals.reviewed, ann_games);
  ASSERT_GT(ann_games, 0);
  EXPECT_NEAR(page->totals.accuracy, ann_sum / ann_games, 1e-9);
}

TEST_P(LibraryTest, ImportingAgainAddsNothingAndTheSameGameIsOneGameWithTwoSources) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 30; ++seed) records.push_back(RandomJudged("finkel", seed));
  EXPECT_EQ(Import(records, "/a.tsn", 8).added, 30);
  const ImportCounts again = Import(records, "/a.tsn", 8);
  EXPECT_EQ(again.added, 0);
  EXPECT_EQ(again.known_sources, 30);
  // The same games with other tags from another file: new sources only.
  std::vector<JudgedRecord> retagged = records;
  for (JudgedRecord& r : retagged) (*r.record.mutable_tags())["Event"] = "elsewhere";
  const ImportCounts other = Import(retagged, "/b.json", 8);
  EXPECT_EQ(other.added, 0);
  EXPECT_EQ(other.new_sources, 30);
  auto total = store_->CountGames(GameQuery{});
  ASSERT_TRUE(total.ok());
  EXPECT_EQ(*total, 30);
  auto sources = store_->Sources(1);
  ASSERT_TRUE(sources.ok());
  ASSERT_EQ(sources->size(), 2u);
  // The first record's tags are the game's.
  GameQuery q;
  q.event = "elsewhere";
  EXPECT_EQ(*store_->CountGames(q), 0);
}

// The games reaching `pos`, and the first ply each reaches it, recounted
// from the judged records.
std::map<size_t, int> Recount(const std::vector<JudgedRecord>& records, const Position& pos) {
  std::map<size_t, int> out;
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& ps = records[i].verdict.positions;
    auto it = std::find(ps.begin(), ps.end(), pos);
    if (it != ps.end()) out[i] = static_cast<int>(it - ps.begin());
  }
  return out;
}

void CheckSearchAndExplore(Store& store, const std::vector<JudgedRecord>& records, const std::string& ref) {
  RulesCache cache(store);
  auto known = cache.ByDigest(records[0].verdict.rules->digest);
  ASSERT_TRUE(known.ok()) << known.status();
  Rng rng(42);
  for (int trial = 0; trial < 40; ++trial) {
    const size_t g = rng.Below(records.size());
    const auto& ps = records[g].verdict.positions;
    // Early plies (shared by many games) and late ones.
    const size_t ply = trial % 2 == 0 ? rng.Below(std::min<size_t>(ps.size(), 6)) : rng.Below(ps.size());
    const Position pos = ps[ply];
    const std::map<size_t, int> expected = Recount(records, pos);
    SearchQuery q;
    q.position = PositionTarget{*known, pos};
    q.limit = -1;
    auto found = Search(store, q);
    ASSERT_TRUE(found.ok()) << found.status();
    EXPECT_EQ(found->total, static_cast<int64_t>(expected.size())) << ref << " trial " << trial;
    std::map<size_t, int> got;
    for (const SearchHit& h : found->hits) got[static_cast<size_t>(h.game.id - 1)] = h.ply.value_or(-1);
    EXPECT_EQ(got, expected) << ref << " trial " << trial;
    // A page by id (the path that decodes only the page's games), and by
    // date: the same total, the games in order.
    SearchQuery paged = q;
    paged.offset = 1;
    paged.limit = 3;
    for (int path = 0; path < 4; ++path) {
      const GameQuery::Order order = path == 0 ? GameQuery::Order::kId : GameQuery::Order::kDate;
      paged.games.order = order;
      // Dates sorted, then the walk in date order, then the cheaper of the
      // two with a walk that gives up after a game or two for the sort.
      paged.date_path = path == 1   ? SearchQuery::DatePath::kSort
                        : path == 2 ? SearchQuery::DatePath::kWalk
                                    : SearchQuery::DatePath::kCheapest;
      paged.walk_at_least = 1;
      auto page = Search(store, paged);
      ASSERT_TRUE(page.ok()) << page.status();
      EXPECT_EQ(page->total, static_cast<int64_t>(expected.size()));
      std::vector<std::pair<std::string, int64_t>> ordered;
      for (const auto& [i, at] : expected) {
        const auto& tags = records[i].record.tags();
        ordered.emplace_back(order == GameQuery::Order::kId ? "" : tags.at("Date"), static_cast<int64_t>(i) + 1);
      }
      std::sort(ordered.begin(), ordered.end());
      std::vector<int64_t> want, have;
      for (size_t k = 1; k < ordered.size() && want.size() < 3; ++k) want.push_back(ordered[k].second);
      for (const SearchHit& h : page->hits) have.push_back(h.game.id);
      EXPECT_EQ(have, want) << ref << " trial " << trial;
    }
    // The explorer: every game once, each move with the games that made it.
    auto explored = Explore(store, PositionTarget{*known, pos}, nullptr);
    ASSERT_TRUE(explored.ok()) << explored.status();
    EXPECT_EQ(explored->games, static_cast<int64_t>(expected.size()));
    std::map<std::tuple<int, int, int>, std::tuple<int64_t, int64_t, int64_t>> recount, counted;
    for (const auto& [i, at] : expected) {
      const v1::GameRecord& r = records[i].record;
      int roll = -1, from = -1, to = -1;
      if (at < r.actions_size()) {
        roll = r.actions(at).roll();
        if (records[i].verdict.outcomes[at].moved) {
          from = r.actions(at).from();
          to = r.actions(at).to();
        }
      }
      auto& [n, lw, dw] = recount[{roll, from, to}];
      ++n;
      lw += records[i].verdict.winner == kLight;
      dw += records[i].verdict.winner == kDark;
    }
    for (const ExploredMove& m : explored->moves) counted[{m.roll, m.from, m.to}] = {m.games, m.light_wins, m.dark_wins};
    EXPECT_EQ(counted, recount) << ref << " trial " << trial;
  }
}

// Every run from the database's kApartSetting on keeps keys apart: no
// ordinary block holds a posting of a key whose own bucket has a block in
// the same run (position_index.h).
void ExpectKeysApart(Store& store) {
  auto setting = store.Setting(kApartSetting);
  ASSERT_TRUE(setting.ok() && setting->has_value()) << "no " << kApartSetting;
  const int64_t apart_from = std::stoll(**setting);
  auto runs = store.Runs();
  ASSERT_TRUE(runs.ok()) << runs.status();
  for (const RunRow& run : *runs) {
    if (run.run < apart_from) continue;
    auto rows = store.RunPostings(run.run, {INT64_MIN, INT64_MIN}, 1 << 30, {INT64_MIN, INT64_MAX});
    ASSERT_TRUE(rows.ok()) << rows.status();
    std::set<std::pair<int64_t, int64_t>> own;  // (ruleset, own bucket): negative buckets come first
    for (const PostingRow& row : *rows) {
      std::vector<Posting> postings;
      ASSERT_TRUE(DecodePostings(row.data, &postings).ok());
      if (row.bucket < 0) {
        own.emplace(row.ruleset, row.bucket);
        for (const Posting& p : postings) EXPECT_EQ(OwnBucket(p.key), row.bucket);
        continue;
      }
      for (const Posting& p : postings) {
        EXPECT_EQ(own.count({row.ruleset, OwnBucket(p.key)}), 0u)
            << "run " << run.run << ": key " << p.key << " in bucket " << row.bucket << " and in its own block";
      }
    }
  }
}

// ImportOptions::defer_search_indexes: an import into a database without
// games leaves the search indexes to its end (the setting says so while
// they are); one that stops before its end leaves them to the next import
// that finishes; searches answer the same meanwhile; a database with
// games keeps them. (PostgreSQL keeps them always: nothing is deferred.)
TEST_P(LibraryTest, AnImportIntoAnEmptyDatabaseBuildsTheSearchIndexesAtItsEndOrLeavesThemToTheNext) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 40; ++seed) records.push_back(RandomJudged("finkel", seed, 80));
  const auto setting = [&] { return store_->Setting("search_indexes").value_or(std::nullopt).value_or("unset"); };
  const auto by_player = [&](const std::string& name, size_t n) {
    int64_t want = 0;
    for (size_t i = 0; i < n; ++i) {
      want += records[i].record.tags().at("Light") == name || records[i].record.tags().at("Dark") == name;
    }
    GameQuery query;
    query.player = name;
    query.order = GameQuery::Order::kDate;
    EXPECT_EQ(store_->CountGames(query).value_or(-1), want) << name;
    EXPECT_EQ(static_cast<int64_t>(store_->FindGames(query, 0, 100).value_or(std::vector<int64_t>()).size()), want);
  };
  ImportOptions options;
  options.batch_games = 10;
  options.defer_search_indexes = true;
  const bool defers = store_->CanDeferSearchIndexes();
  EXPECT_EQ(defers, GetParam().name == "sqlite");
  const std::string deferred = defers ? "deferred" : "unset", built = defers ? "built" : "unset";
  EXPECT_EQ(setting(), "unset");
  {  // stops after 25 games (a failure, Ctrl-C or kill -9 would)
    auto importer = Importer::Start(*store_, options);
    ASSERT_TRUE(importer.ok()) << importer.status();
    EXPECT_EQ((*importer)->search_indexes_deferred(), defers);
    EXPECT_EQ(setting(), deferred);
    for (size_t i = 0; i < 25; ++i) ASSERT_TRUE((*importer)->Add(records[i], "/a.tsn", i).ok());
    ASSERT_TRUE((*importer)->Flush().ok());
  }
  EXPECT_EQ(setting(), deferred);
  for (int p = 0; p < 5; ++p) by_player("player" + std::to_string(p), 25);
  {  // the next import, into a database with games, finishes: built
    ImportOptions plain;
    plain.batch_games = 10;
    auto importer = Importer::Start(*store_, plain);
    ASSERT_TRUE(importer.ok()) << importer.status();
    EXPECT_EQ((*importer)->search_indexes_deferred(), defers);
    for (size_t i = 25; i < 40; ++i) ASSERT_TRUE((*importer)->Add(records[i], "/a.tsn", i).ok());
    ASSERT_TRUE((*importer)->Finish().ok());
    EXPECT_FALSE((*importer)->search_indexes_deferred());
  }
  EXPECT_EQ(setting(), built);
  for (int p = 0; p < 5; ++p) by_player("player" + std::to_string(p), 40);
  CheckSearchAndExplore(*store_, records, "finkel");
  {  // into a database with games: nothing deferred
    auto importer = Importer::Start(*store_, options);
    ASSERT_TRUE(importer.ok()) << importer.status();
    EXPECT_FALSE((*importer)->search_indexes_deferred());
    EXPECT_EQ(setting(), built);
    ASSERT_TRUE((*importer)->Finish().ok());
  }
  // A whole import into an empty database: deferred, then built.
  auto other = storage::OpenStore(GetParam().make_location(), storage::OpenMode::kCreate);
  ASSERT_TRUE(other.ok()) << other.status();
  options.defer_search_indexes = true;
  auto importer = Importer::Start(**other, options);
  ASSERT_TRUE(importer.ok()) << importer.status();
  EXPECT_EQ((*importer)->search_indexes_deferred(), defers);
  for (size_t i = 0; i < 40; ++i) ASSERT_TRUE((*importer)->Add(records[i], "/a.tsn", i).ok());
  ASSERT_TRUE((*importer)->Finish().ok());
  EXPECT_EQ((*other)->Setting("search_indexes").value_or(std::nullopt).value_or("unset"), built);
  CheckSearchAndExplore(**other, records, "finkel");
}

// The import that drops the identity hash's index (the first, into an
// empty SQLite database) finds the duplicates of its own games in memory:
// across batches, within one, up to its limit of games, and, once another
// writer has written, through the index again (built by the first write
// that looks a hash up).
TEST_P(LibraryTest, AFirstImportFindsEveryDuplicateOfItsOwnGamesAndOfAnotherWriters) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 24; ++seed) records.push_back(RandomJudged("finkel", seed, 60));
  const bool defers = GetParam().name == "sqlite";
  struct Source {
    int record;
    std::string file;
  };
  // Records 0-9 from a, then 5-14 from b (5-9 known games, across batches
  // and within one), 12 from c beside 12 from b, 3 from a again (a known
  // source).
  std::vector<Source> first, second;
  for (int i = 0; i < 10; ++i) first.push_back({i, "/a.tsn"});
  for (int i = 5; i < 15; ++i) second.push_back({i, "/b.tsn"});
  second.insert(second.begin() + 8, {12, "/c.tsn"});
  second.push_back({3, "/a.tsn"});
  for (const int64_t limit : {int64_t{2000000}, int64_t{12}, int64_t{0}}) {
    SCOPED_TRACE(limit);
    const std::string where = GetParam().make_location();
    auto store = storage::OpenStore(where, storage::OpenMode::kCreate);
    ASSERT_TRUE(store.ok()) << store.status();
    ImportOptions options;
    options.batch_games = 4;
    options.defer_search_indexes = true;
    options.own_hashes_in_memory = limit;
    auto importer = Importer::Start(**store, options);
    ASSERT_TRUE(importer.ok()) << importer.status();
    const auto add = [&](const std::vector<Source>& sources) {
      for (const Source& s : sources) {
        const int64_t index = s.file == "/a.tsn" ? s.record : s.record + 100;
        ASSERT_TRUE((*importer)->Add(records[static_cast<size_t>(s.record)], s.file, index).ok());
      }
      ASSERT_TRUE((*importer)->Flush().ok());
    };
    add(first);
    EXPECT_EQ((*importer)->own_hashes_in_memory(), defers && limit > 0);
    add(second);
    // 15 games (12 over the limit of 12: found through the index since).
    EXPECT_EQ((*importer)->own_hashes_in_memory(), defers && limit > 15);
    ImportCounts counts = (*importer)->counts();
    EXPECT_EQ(counts.added, 15);
    EXPECT_EQ(counts.new_sources, 6);
    EXPECT_EQ(counts.known_sources, 1);
    // Another writer adds game 20 and a source of game 0.
    {
      auto other = storage::OpenStore(where, storage::OpenMode::kExisting);
      ASSERT_TRUE(other.ok()) << other.status();
      auto writer = Importer::Start(**other, ImportOptions{});
      ASSERT_TRUE(writer.ok()) << writer.status();
      ASSERT_TRUE((*writer)->Add(records[20], "/x.tsn", 0).ok());
      ASSERT_TRUE((*writer)->Add(records[0], "/x.tsn", 1).ok());
      ASSERT_TRUE((*writer)->Finish().ok());
      EXPECT_EQ((*writer)->counts().added, 1);
      EXPECT_EQ((*writer)->counts().new_sources, 1);
    }
    // Game 20 again, and 1 and 21: one known game each (the other
    // writer's, this import's), one new.
    add({{20, "/d.tsn"}, {1, "/d.tsn"}, {21, "/d.tsn"}});
    EXPECT_FALSE((*importer)->own_hashes_in_memory());
    ASSERT_TRUE((*importer)->Finish().ok());
    counts = (*importer)->counts();
    EXPECT_EQ(counts.added, 16);
    EXPECT_EQ(counts.new_sources, 8);
    EXPECT_EQ((*store)->CountGames(GameQuery{}).value_or(-1), 17);
    // Each game's sources, counted.
    absl::StatusOr<std::vector<int64_t>> ids = (*store)->FindGames(GameQuery{}, 0, -1);
    ASSERT_TRUE(ids.ok()) << ids.status();
    std::map<int, int> per_game;  // sources per game, counted
    for (int64_t id : *ids) {
      absl::StatusOr<std::vector<SourceRow>> rows = (*store)->Sources(id);
      ASSERT_TRUE(rows.ok()) << rows.status();
      ++per_game[static_cast<int>(rows->size())];
    }
    // 0: a, x; 1: a, d; 5-9: a, b; 12: b, c; 20: x, d; the other 8 one each.
    EXPECT_EQ(per_game, (std::map<int, int>{{1, 8}, {2, 9}}));
  }
}

// A store whose reading of the results (ScanResults) is followed by
// `after_scan` (once).
class ScanHookedStore final : public ForwardingStore {
 public:
  explicit ScanHookedStore(std::unique_ptr<Store> s) : ForwardingStore(std::move(s)) {}
  std::function<void()> after_scan;
  absl::Status ScanResults(const std::function<bool(const std::string& date, const std::string& light,
                                                    const std::string& dark, int result)>& visit) override {
    absl::Status s = ForwardingStore::ScanResults(visit);
    if (after_scan) std::exchange(after_scan, nullptr)();
    return s;
  }
};

void ExpectRatingsOf(Store& store, const std::set<std::string>& players, const std::vector<RatingRow>& recount) {
  std::map<std::string, std::vector<std::tuple<std::string, double, int64_t>>> want, got;
  for (const RatingRow& r : recount) want[r.player].emplace_back(r.period, r.rating, r.games);
  for (const std::string& player : players) {
    absl::StatusOr<std::vector<RatingRow>> rows = store.Ratings(player);
    ASSERT_TRUE(rows.ok()) << rows.status();
    for (const RatingRow& r : *rows) got[r.player].emplace_back(r.period, r.rating, r.games);
  }
  EXPECT_EQ(got, want);
}

// UpdatePlayers reads the results, then writes the ratings: when another
// writer commits between the two (an import's own UpdatePlayers, the
// service's on its clock), the write reads them again where the store can
// tell (SQLite's data_version), and that writer's game is rated too, not
// overwritten by ratings without it. PostgreSQL cannot tell: its ratings
// are as of the reading until the next update (docs/database.md).
TEST_P(LibraryTest, PlayersAreReadAgainInTheWriteWhenAnotherWriterCommittedAfterTheReading) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 30; ++seed) records.push_back(RandomJudged("finkel", seed));
  const std::string where = GetParam().make_location();
  auto store = storage::OpenStore(where, storage::OpenMode::kCreate);
  ASSERT_TRUE(store.ok()) << store.status();
  const bool tells = (*store)->OthersWrites().ok();
  ASSERT_EQ(Import(records, "/games.tsn", 8, store->get()).added, 30);
  auto connection = storage::OpenStore(where, storage::OpenMode::kExisting);
  ASSERT_TRUE(connection.ok()) << connection.status();
  ScanHookedStore hooked(*std::move(connection));
  const JudgedRecord later = scribe::RandomJudged(
      "finkel", 98, {{"Light", "later-light"}, {"Dark", "later-dark"}, {"Date", "2026-10-02"}}, INT_MAX);
  int scans = 0;
  hooked.after_scan = [&] {
    ++scans;
    auto writer = Importer::Start(**store, ImportOptions{});  // rates its game itself, then
    ASSERT_TRUE(writer.ok()) << writer.status();
    ASSERT_TRUE((*writer)->Add(later, "/later.tsn", 0).ok());
    ASSERT_TRUE((*writer)->Finish().ok());
  };
  ASSERT_TRUE(UpdatePlayers(hooked).ok());  // this write came after it
  EXPECT_EQ(scans, 1);
  EXPECT_EQ((*store)->Player("later-light").value().games, 1);  // totals: recounted in the write
  if (!tells) {
    // The ratings as of the reading, until the next update rates it.
    EXPECT_TRUE((*store)->Ratings("later-light").value().empty());
    ASSERT_TRUE(UpdatePlayers(**store).ok());
  }
  EXPECT_FALSE((*store)->Ratings("later-light").value().empty());
  absl::StatusOr<std::vector<RatingRow>> recount = RecountRatings(**store);
  ASSERT_TRUE(recount.ok()) << recount.status();
  std::set<std::string> players = {"later-light", "later-dark"};
  for (int p = 0; p < 5; ++p) players.insert("player" + std::to_string(p));
  ExpectRatingsOf(**store, players, *recount);
}

TEST_P(LibraryTest, SearchAndExplorerAgreeWithARecountOverBatchesAndDepths) {
  for (const std::string ref : {"finkel", "skiriuk"}) {
    SetUp();
    SetDepth(3);  // both the aggregates and the games past them
    std::vector<JudgedRecord> records;
    for (uint64_t seed = 1; seed <= 160; ++seed) records.push_back(RandomJudged(ref, seed, seed % 7 == 0 ? 20 : INT_MAX));
    // Several batches: several runs of the index, merged or not; small
    // batches put every key in its bucket's block, a batch of 100 games
    // gives the keys most of them reach blocks of their own
    // (position_index.h, kOwnBlock).
    Import(std::vector<JudgedRecord>(records.begin(), records.begin() + 25), "/one", 6);
    Import(std::vector<JudgedRecord>(records.begin() + 25, records.begin() + 60), "/two", 11);
    Import(std::vector<JudgedRecord>(records.begin() + 60, records.end()), "/three", 100);
    // Ids follow the records (each game new): game id - 1 is its index.
    CheckSearchAndExplore(*store_, records, ref);
    ExpectKeysApart(*store_);
  }
}

// An import of many small batches merges its runs as it goes (kLevelFanIn
// runs of a level become one, in the writer, after a batch), and every
// posting is kept: the search and the explorer agree with a recount.
TEST_P(LibraryTest, AnImportMergesItsRunsAsItGoesAndKeepsEveryPosting) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 90; ++seed) records.push_back(RandomJudged("finkel", seed, seed % 5 == 0 ? 30 : INT_MAX));
  ImportOptions options;
  options.batch_games = 3;
  auto importer = Importer::Start(*store_, options);
  ASSERT_TRUE(importer.ok()) << importer.status();
  for (size_t i = 0; i < records.size(); ++i) {
    ASSERT_TRUE((*importer)->Add(records[i], "/many", static_cast<int64_t>(i)).ok());
    if (i + 1 == 3 * kLevelFanIn) {
      // kLevelFanIn batches written (tiny runs: one level): merged into one.
      ASSERT_TRUE((*importer)->Flush().ok());
      EXPECT_EQ(store_->Runs().value().size(), 1u);
    }
  }
  ASSERT_TRUE((*importer)->Finish().ok());
  EXPECT_LE(store_->Runs().value().size(), static_cast<size_t>(kMaxRuns));
  CheckSearchAndExplore(*store_, records, "finkel");
  ExpectKeysApart(*store_);
}

// Posting blocks by (ruleset, bucket), each the postings it holds.
using Blocks = std::map<std::pair<int64_t, int64_t>, std::vector<Posting>>;

// The store's one run: its id and its blocks.
std::pair<int64_t, std::vector<PostingRow>> OneRun(Store& store) {
  const std::vector<RunRow> runs = store.Runs().value();
  EXPECT_EQ(runs.size(), 1u);
  return {runs[0].run,
          store.RunPostings(runs[0].run, {INT64_MIN, INT64_MIN}, 1 << 30, {INT64_MIN, INT64_MAX}).value()};
}

// Replaces run `replaced` by a run of each of `runs` (oldest first), in
// one write. Returns the new runs.
std::vector<int64_t> ReplaceRun(Store& store, int64_t replaced, std::vector<Blocks> runs) {
  std::vector<int64_t> made;
  EXPECT_TRUE(store.BeginWrite().ok());
  for (Blocks& blocks : runs) {
    std::vector<PostingRow> out;
    for (auto& [at, postings] : blocks) {
      std::sort(postings.begin(), postings.end());
      out.push_back({at.first, at.second, EncodePostings(postings.data(), postings.data() + postings.size())});
    }
    made.push_back(store.NewRun().value());
    EXPECT_TRUE(store.AddPostings(made.back(), out).ok());
  }
  EXPECT_TRUE(store.DeleteRun(replaced).ok());
  EXPECT_TRUE(store.Commit().ok());
  return made;
}

// Replaces the store's one run by runs of the games in consecutive id
// ranges, `games[i]` games the i-th (oldest first), as batches of those
// sizes would have written them: each block's postings split by game,
// kept in the same bucket (own or ordinary). Returns the new runs.
std::vector<RunRow> SplitRun(Store& store, const std::vector<int64_t>& games) {
  const auto [run, rows] = OneRun(store);
  std::vector<int64_t> ends;  // game ids are 1, 2, ...: run i holds ids below ends[i]
  int64_t end = 1;
  for (int64_t n : games) ends.push_back(end += n);
  std::vector<Blocks> pieces(games.size());
  for (const PostingRow& row : rows) {
    std::vector<Posting> postings;
    EXPECT_TRUE(DecodePostings(row.data, &postings).ok());
    for (const Posting& posting : postings) {
      const size_t i = std::upper_bound(ends.begin(), ends.end(), posting.game) - ends.begin();
      EXPECT_LT(i, games.size()) << "game " << posting.game;
      if (i < games.size()) pieces[i][{row.ruleset, row.bucket}].push_back(posting);
    }
  }
  ReplaceRun(store, run, std::move(pieces));
  return store.Runs().value();
}

// CompactIndex (the CLI's import, at its end) leaves at most kMaxRuns:
// with more, it merges the neighbouring runs smallest together, as many as
// it takes, into one, and leaves the others as they were; with kMaxRuns or
// fewer it changes nothing. Every posting is kept.
TEST_P(LibraryTest, CompactingMergesTheSmallestNeighboursDownToTheMostRunsAndKeepsEveryPosting) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 80; ++seed) records.push_back(RandomJudged("finkel", seed, 40));
  ASSERT_EQ(Import(records, "/one", 1000).added, 80);
  // kMaxRuns + 4 runs of uneven sizes (whole games each).
  std::vector<int64_t> sizes;
  const int64_t pattern[] = {6, 1, 5, 2, 7, 1, 1, 3, 6, 2, 5, 1, 2, 7, 3, 1, 2, 6, 3, 4};
  for (int i = 0; i < kMaxRuns + 4; ++i) sizes.push_back(pattern[i % 20]);
  int64_t total = 0;
  for (int64_t n : sizes) total += n;
  sizes.back() += static_cast<int64_t>(records.size()) - total;
  ASSERT_GT(sizes.back(), 0);
  const std::vector<RunRow> before = SplitRun(*store_, sizes);
  ASSERT_EQ(before.size(), static_cast<size_t>(kMaxRuns + 4));
  CheckSearchAndExplore(*store_, records, "finkel");  // the split itself kept every posting

  ASSERT_TRUE(CompactIndex(*store_).ok());
  const std::vector<RunRow> after = store_->Runs().value();
  ASSERT_EQ(after.size(), static_cast<size_t>(kMaxRuns));
  // The merged run is a new one (listed last: runs are listed by id); the
  // others are the runs before, but for one window of neighbours (5 runs)
  // whose bytes are the smallest of any 5 neighbours'.
  ASSERT_GT(after.back().run, before.back().run);
  size_t from = 0;
  while (from + 1 < after.size() && after[from].run == before[from].run) ++from;
  const size_t width = before.size() - after.size() + 1;
  for (size_t i = from; i + 1 < after.size(); ++i) EXPECT_EQ(after[i].run, before[i + width].run);
  auto window_bytes = [&](size_t at) {
    int64_t bytes = 0;
    for (size_t i = at; i < at + width; ++i) bytes += before[i].bytes;
    return bytes;
  };
  for (size_t at = 0; at + width <= before.size(); ++at) EXPECT_LE(window_bytes(from), window_bytes(at)) << at;
  CheckSearchAndExplore(*store_, records, "finkel");
  ExpectKeysApart(*store_);

  // At kMaxRuns, nothing to do.
  ASSERT_TRUE(CompactIndex(*store_).ok());
  const std::vector<RunRow> again = store_->Runs().value();
  ASSERT_EQ(again.size(), after.size());
  for (size_t i = 0; i < again.size(); ++i) EXPECT_EQ(again[i].run, after[i].run);
}

// Many small imports (the service's streams: one or a few games each)
// merge the store's runs by levels: a small import's run joins the small
// runs before it and never rewrites the big ones, the runs stay fewer than
// kLevelFanIn a level, and every posting is kept. Records without a
// source are stored once.
TEST_P(LibraryTest, ManySmallImportsMergeByLevelsAndKeepEveryPosting) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 120; ++seed) records.push_back(RandomJudged("finkel", seed, 40));
  // A first import of three batches (three runs), then small ones.
  const ImportCounts big = Import(std::vector<JudgedRecord>(records.begin(), records.begin() + 60), "/big", 20);
  EXPECT_EQ(big.added, 60);
  const std::vector<RunRow> before = store_->Runs().value();
  ImportOptions options;
  options.compaction = ImportOptions::Compaction::kLevels;
  options.update_players = false;
  bool merged_once = false;
  for (size_t i = 60; i < records.size(); i += 2) {
    auto importer = Importer::Start(*store_, options);
    ASSERT_TRUE(importer.ok()) << importer.status();
    ASSERT_TRUE((*importer)->Add(records[i], "", 0).ok());
    ASSERT_TRUE((*importer)->Add(records[i + 1], "", 0).ok());
    ASSERT_TRUE((*importer)->Add(records[i], "", 0).ok());  // the same game again, no source
    ASSERT_TRUE((*importer)->Finish().ok());
    EXPECT_EQ((*importer)->counts().added, 2);
    EXPECT_EQ((*importer)->counts().duplicates, 1);
    // Fewer than kLevelFanIn runs a level (here all are tiny: one level).
    std::map<int, size_t> per_level;
    const std::vector<RunRow> runs = store_->Runs().value();
    for (const RunRow& run : runs) {
      EXPECT_LT(++per_level[RunLevel(run.bytes)], kLevelFanIn) << "after game " << i;
    }
    // A merge happens only when a level fills: after 8 runs, not before.
    merged_once |= runs.size() < before.size() + (i - 60) / 2 + 1;
  }
  EXPECT_TRUE(merged_once);
  // Sent again, without a source: all duplicates.
  auto again = Importer::Start(*store_, options);
  ASSERT_TRUE(again.ok());
  for (size_t i = 60; i < records.size(); ++i) ASSERT_TRUE((*again)->Add(records[i], "", 0).ok());
  ASSERT_TRUE((*again)->Finish().ok());
  EXPECT_EQ((*again)->counts().added, 0);
  EXPECT_EQ((*again)->counts().duplicates, 60);
  CheckSearchAndExplore(*store_, records, "finkel");
  ExpectKeysApart(*store_);
}

// Rewrites the store's one run as a build before keys were kept apart
// could have left it: of each key with an own block, every other posting
// in its bucket's block instead. Returns the new run.
int64_t RunWithKeysInBothBlocks(Store& store, const PositionKeys& keys) {
  const auto [run, rows] = OneRun(store);
  Blocks blocks;
  int moved = 0;
  for (const PostingRow& row : rows) {
    std::vector<Posting> postings;
    EXPECT_TRUE(DecodePostings(row.data, &postings).ok());
    for (size_t i = 0; i < postings.size(); ++i) {
      const bool move = row.bucket < 0 && i % 2 == 1;
      moved += move;
      blocks[{row.ruleset, move ? keys.Bucket(postings[i].key) : row.bucket}].push_back(postings[i]);
    }
  }
  EXPECT_GE(moved, 50);  // at least the start's (every game reached it)
  return ReplaceRun(store, run, {std::move(blocks)}).at(0);
}

// A database made before keys were kept apart: its runs (a key's postings
// in its own block and in its bucket's, as the schema step's setting says
// of runs before it) are read whole and give every game; read as if they
// kept keys apart, they would not (the setting is what the lookup goes
// by); a merge of them with a newer run keeps keys apart, and every game
// is still found.
TEST_P(LibraryTest, RunsFromBeforeKeysWereKeptApartAreReadWholeAndMergedApart) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 150; ++seed) records.push_back(RandomJudged("finkel", seed, seed % 4 == 0 ? 25 : INT_MAX));
  SetDepth(3);
  Import(std::vector<JudgedRecord>(records.begin(), records.begin() + 100), "/old", 100);
  RulesCache rules(*store_);
  const KnownRules* known = rules.ByDigest(records[0].verdict.rules->digest).value();
  const int64_t old_run = RunWithKeysInBothBlocks(*store_, *known->keys);
  const std::vector<JudgedRecord> old(records.begin(), records.begin() + 100);
  auto set_apart = [&](int64_t from) {
    ASSERT_TRUE(store_->BeginWrite().ok());
    ASSERT_TRUE(store_->SetSetting(kApartSetting, std::to_string(from)).ok());
    ASSERT_TRUE(store_->Commit().ok());
  };
  // Read as keeping keys apart: the start's postings in its bucket's block
  // are missed (its own block is read alone).
  set_apart(old_run);
  {
    RulesCache fresh(*store_);
    const KnownRules* k = fresh.ByDigest(records[0].verdict.rules->digest).value();
    auto games = LookUp(*store_, *k, k->keys->Key(old[0].verdict.positions[0]));
    ASSERT_TRUE(games.ok()) << games.status();
    EXPECT_LT(games->size(), old.size());
  }
  // As the schema step leaves it: the runs before the setting read whole.
  set_apart(old_run + 1);
  CheckSearchAndExplore(*store_, old, "finkel");
  // A newer run, then both merged: the merged run keeps keys apart.
  Import(std::vector<JudgedRecord>(records.begin() + 100, records.end()), "/new", 100);
  const std::vector<RunRow> runs = store_->Runs().value();
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_TRUE(MergeRunsAtomically(*store_, {runs[0].run, runs[1].run}).ok());
  ExpectKeysApart(*store_);
  CheckSearchAndExplore(*store_, records, "finkel");
}

// A merge reads and writes a chunk of blocks while a helper thread merges
// the chunk before; a damaged block in a late chunk fails the merge with
// DATA_LOSS, and the merge's write rolls back: the runs stay as they were
// and every game is found.
TEST_P(LibraryTest, ADamagedBlockLateInAMergeFailsItAndKeepsTheRuns) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 60; ++seed) records.push_back(RandomJudged("finkel", seed));
  Import(records, "/two", 30);  // two runs
  const std::vector<RunRow> runs = store_->Runs().value();
  ASSERT_EQ(runs.size(), 2u);
  auto read = [&](int64_t run) {
    return store_->RunPostings(run, {INT64_MIN, INT64_MIN}, 1 << 30, {0, INT64_MAX}).value();
  };
  const std::vector<PostingRow> first = read(runs[0].run);
  std::vector<PostingRow> second = read(runs[1].run);
  // The last ordinary bucket both runs hold: its blocks are merged (not
  // copied), after many chunks.
  std::set<std::pair<int64_t, int64_t>> in_first;
  for (const PostingRow& row : first) in_first.insert({row.ruleset, row.bucket});
  size_t damaged = second.size();
  for (size_t i = 0; i < second.size(); ++i) {
    if (in_first.contains({second[i].ruleset, second[i].bucket})) damaged = i;
  }
  ASSERT_LT(damaged, second.size());
  ASSERT_GT(damaged, 4u * 256) << "the damaged block should come after several chunks";
  second[damaged].data.back() = static_cast<char>(0x80);  // a varint cut short
  ASSERT_TRUE(store_->BeginWrite().ok());
  const int64_t replaced = store_->NewRun().value();
  ASSERT_TRUE(store_->AddPostings(replaced, second).ok());
  // (its own blocks as they were)
  ASSERT_TRUE(store_->AddPostings(replaced, store_->RunPostings(runs[1].run, {INT64_MIN, INT64_MIN}, 1 << 30,
                                                                  {INT64_MIN, -1})
                                                .value())
                  .ok());
  ASSERT_TRUE(store_->DeleteRun(runs[1].run).ok());
  ASSERT_TRUE(store_->Commit().ok());
  const std::vector<RunRow> before = store_->Runs().value();
  const absl::StatusOr<RunRow> merged = MergeRunsAtomically(*store_, {runs[0].run, replaced});
  ASSERT_FALSE(merged.ok());
  EXPECT_EQ(merged.status().code(), absl::StatusCode::kDataLoss) << merged.status();
  const std::vector<RunRow> after = store_->Runs().value();
  ASSERT_EQ(after.size(), before.size());
  for (size_t i = 0; i < after.size(); ++i) EXPECT_EQ(after[i].run, before[i].run);
  EXPECT_EQ(read(runs[0].run).size(), first.size());
  EXPECT_EQ(read(replaced).size(), second.size());
  // The first run undamaged, all of it found: the start's games.
  RulesCache rules(*store_);
  const KnownRules* known = rules.ByDigest(records[0].verdict.rules->digest).value();
  auto games = LookUp(*store_, *known, known->keys->Key(records[0].verdict.positions[0]));
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_EQ(games->size(), records.size());
}

// A position every game reached (here the start: every game has light
// move first): its pages in date order are the games' pages.
TEST_P(LibraryTest, APositionEveryGameReachedPagesByDateLikeAllGames) {
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    auto rules = MustLoad("finkel");
    Rng rng(seed);
    RandomGameOptions options;
    options.ruleset = "finkel";
    options.tags["Date"] = "2026-01-" + std::to_string(10 + (seed * 7) % 20);
    RefereeOptions referee;
    referee.keep_positions = true;
    records.push_back(Judge(RandomGame(*rules, rng, options), {}, referee));
  }
  Import(records, "/start.tsn");
  RulesCache cache(*store_);
  auto known = cache.ByDigest(records[0].verdict.rules->digest);
  ASSERT_TRUE(known.ok());
  for (int path = 0; path < 6; ++path) {
    const bool descending = path % 2 == 1;
    SearchQuery q;
    // Dates sorted, the walk in date order, and the one the costs choose.
    q.date_path = path < 2 ? SearchQuery::DatePath::kSort
                  : path < 4 ? SearchQuery::DatePath::kWalk
                             : SearchQuery::DatePath::kCheapest;
    q.position = PositionTarget{*known, records[0].verdict.positions[0]};
    q.games.order = GameQuery::Order::kDate;
    q.games.descending = descending;
    q.offset = 4;
    q.limit = 5;
    auto found = Search(*store_, q);
    ASSERT_TRUE(found.ok()) << found.status();
    EXPECT_EQ(found->total, 30);
    SearchQuery all;
    all.games.order = GameQuery::Order::kDate;
    all.games.descending = descending;
    all.offset = 4;
    all.limit = 5;
    auto games = Search(*store_, all);
    ASSERT_TRUE(games.ok());
    std::vector<int64_t> a, b;
    for (const SearchHit& h : found->hits) a.push_back(h.game.id);
    for (const SearchHit& h : games->hits) b.push_back(h.game.id);
    EXPECT_EQ(a, b);
    ASSERT_EQ(a.size(), 5u);
    for (const SearchHit& h : found->hits) EXPECT_EQ(h.ply, 0);
  }
}

TEST_P(LibraryTest, TagSearchesMatchHostileTextLiterally) {
  std::vector<JudgedRecord> records;
  const std::vector<std::string> names = {"'); DROP TABLE games;--", "%", "_", "a\"b", "O'Brien", "Ann"};
  for (size_t i = 0; i < names.size(); ++i) {
    JudgedRecord r = RandomJudged("finkel", 100 + i, 12);
    (*r.record.mutable_tags())["Light"] = names[i];
    records.push_back(r);
  }
  Import(records, "/hostile.tsn");
  for (size_t i = 0; i < names.size(); ++i) {
    GameQuery q;
    q.player = names[i];
    SearchQuery sq;
    sq.games = q;
    auto found = Search(*store_, sq);
    ASSERT_TRUE(found.ok()) << found.status();
    ASSERT_EQ(found->total, 1) << names[i];
    EXPECT_EQ(found->hits[0].game.light, names[i]);
  }
  EXPECT_EQ(*store_->CountGames(GameQuery{}), static_cast<int64_t>(names.size()));
}

// A full disk while the writer merges runs after a batch: the batch is
// committed and counted, the merge leaves the runs as they were, the error
// says so, and the next import merges them. (SQLite's page cap stands for
// the disk: the smallest cap the whole import fits in is found, and below
// it the cap at which the last batch fits and the merge after it does
// not: a merge writes its run before it frees the runs it merges.)
TEST(ImportFaultTest, AFullDiskWhileMergingKeepsTheBatchItFollows) {
  constexpr int kBatch = 30;  // runs of a few pages: a merge needs more than a batch
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 1; seed <= kBatch * kLevelFanIn; ++seed) records.push_back(RandomJudged("finkel", seed));
  const std::string dir = ::testing::TempDir() + "/merge_fault";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  int tries = 0;
  struct Tried {
    absl::Status status;
    ImportCounts counts;
    std::string path;
  };
  auto attempt = [&](int64_t cap) {
    Tried out;
    out.path = dir + "/capped" + std::to_string(++tries) + ".db";
    storage::SqliteOptions capped;
    capped.max_page_count = cap;
    auto store = storage::OpenSqliteStore(out.path, storage::OpenMode::kCreate, capped);
    if (!store.ok()) {
      out.status = store.status();
      return out;
    }
    ImportOptions options;
    options.batch_games = kBatch;
    auto importer = Importer::Start(**store, options);
    if (!importer.ok()) {
      out.status = importer.status();
      return out;
    }
    for (size_t i = 0; i < records.size(); ++i) (void)(*importer)->Add(records[i], "/r", static_cast<int64_t>(i));
    out.status = (*importer)->Flush();
    out.counts = (*importer)->counts();
    return out;
  };
  int64_t fails = 1, fits = 4096;
  ASSERT_TRUE(attempt(fits).status.ok());
  while (fits - fails > 1) {
    const int64_t mid = (fails + fits) / 2;
    (attempt(mid).status.ok() ? fits : fails) = mid;
  }
  bool seen = false;
  for (int64_t cap = fits - 1; cap > fits - 64 && !seen; --cap) {
    const Tried t = attempt(cap);
    if (t.status.message().find("merging the position index") == std::string::npos) continue;
    seen = true;
    EXPECT_EQ(t.status.code(), absl::StatusCode::kResourceExhausted) << t.status;
    EXPECT_NE(t.status.message().find("which is kept"), std::string::npos) << t.status;
    EXPECT_EQ(t.counts.added, static_cast<int64_t>(records.size()));  // the last batch too
    // Reopened without the cap: every game, the runs unmerged (the merge
    // rolled back); an import then merges them, and searches are right.
    auto again = storage::OpenSqliteStore(t.path, storage::OpenMode::kExisting);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ((*again)->CountGames(GameQuery{}).value(), static_cast<int64_t>(records.size()));
    EXPECT_EQ((*again)->Runs().value().size(), kLevelFanIn);
    auto more = Importer::Start(**again, ImportOptions{});
    ASSERT_TRUE(more.ok());
    ASSERT_TRUE((*more)->Finish().ok());
    EXPECT_LE((*again)->Runs().value().size(), static_cast<size_t>(kMaxRuns));
    CheckSearchAndExplore(**again, records, "finkel");
  }
  EXPECT_TRUE(seen) << "below the smallest cap that fits (" << fits << " pages), none let the last batch in and kept the merge out";
  std::filesystem::remove_all(dir);
}

// A batch whose COMMIT the PostgreSQL server took but never answered (the
// connection broke in between; tests/storage/cut_proxy.h): the import
// fails, counts that batch apart as in doubt (its games are in fact kept
// here), and the same import again adds exactly the rest.
TEST(ImportInDoubtTest, ABatchWhoseCommitWentUnansweredIsCountedApartAndTheSameImportCompletesIt) {
  auto server = scribe::testing::PostgresServer::Shared();
  ASSERT_TRUE(server.ok()) << server.status();
  auto url = (*server)->NewDatabase();
  ASSERT_TRUE(url.ok()) << url.status();
  std::vector<JudgedRecord> records;
  for (uint64_t seed = 0; seed < 90; ++seed) records.push_back(RandomJudged("finkel", seed, 60));
  ImportOptions options;
  options.batch_games = 30;
  const auto import = [&](Store& store, size_t n, absl::Status* status) {
    auto importer = Importer::Start(store, options);
    EXPECT_TRUE(importer.ok()) << importer.status();
    if (!importer.ok()) return ImportCounts{};
    *status = absl::OkStatus();
    for (size_t i = 0; i < n && status->ok(); ++i) *status = (*importer)->Add(records[i], "games.tsn", i);
    if (status->ok()) *status = (*importer)->Finish();
    return (*importer)->counts();
  };
  {  // a database with its settings made, its explorer depth committed
    auto store = storage::OpenStore(*url, storage::OpenMode::kCreate);
    ASSERT_TRUE(store.ok()) << store.status();
    absl::Status status;
    EXPECT_EQ(import(**store, 0, &status).added, 0);
    ASSERT_TRUE(status.ok()) << status;
  }
  auto proxy = scribe::testing::CutProxy::Start((*server)->port());
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  auto store = storage::OpenStore((*proxy)->Through(*url), storage::OpenMode::kExisting);
  ASSERT_TRUE(store.ok()) << store.status();
  // The first batch's COMMIT is the import's first (the depth is set).
  (*proxy)->Arm(scribe::testing::CutProxy::Cut::kAfterTheServerAnswered);
  absl::Status status;
  const ImportCounts cut = import(**store, 90, &status);
  EXPECT_EQ((*proxy)->cuts(), 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_NE(status.message().find("may or may not be kept"), std::string::npos) << status;
  EXPECT_EQ(cut.added, 0);
  EXPECT_EQ(cut.known_sources, 0);
  EXPECT_EQ(cut.in_doubt_records, 30);
  EXPECT_EQ(cut.in_doubt, 30);
  auto direct = storage::OpenStore(*url, storage::OpenMode::kExisting);
  ASSERT_TRUE(direct.ok()) << direct.status();
  EXPECT_EQ((*direct)->CountGames({}).value_or(-1), 30);  // it was kept
  const ImportCounts again = import(**direct, 90, &status);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(again.known_sources, 30);
  EXPECT_EQ(again.added, 60);
  EXPECT_EQ(again.in_doubt_records, 0);
  EXPECT_EQ((*direct)->CountGames({}).value_or(-1), 90);
  CheckSearchAndExplore(**direct, records, "finkel");
}

INSTANTIATE_TEST_SUITE_P(Backends, LibraryTest, ::testing::ValuesIn(storage::TestBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace scribe::games
