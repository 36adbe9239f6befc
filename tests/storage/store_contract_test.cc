// The contract of games/store.h, run against every backend of
// TestBackends(): each Store call's real behaviour on a real database.
//
// Where store.h leaves a choice open, this suite makes it (every backend
// must agree):
//   - AddSource of a (file, index) already recorded is ignored: the first
//     game stays.
//   - A date bound matches only games with a date; kDate descending is the
//     exact reverse of ascending (games without a date come first).
//   - GamesWithHash gives the candidates in id order; Sources(game) in
//     (file, index) order; Dates() gives "" for an id not there.
//   - ScanResults skips games without a date.
//   - A call that writes several rows (AddPostings, ReplaceRatings) that
//     fails changes nothing.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "games/store.h"
#include "gtest/gtest.h"
#include "storage/open_store.h"
#include "tests/storage/store_test_util.h"
#include "tests/storage/test_backends.h"

namespace scribe::storage {
namespace {

using games::ExplorerRow;
using games::GameQuery;
using games::GameRow;
using games::PostingRow;
using games::RatingRow;
using games::ReviewFigures;
using games::SourceRow;
using games::Store;
using std::string_literals::operator""s;

// The strings a search must take literally: SQL, LIKE patterns, quotes.
const std::vector<std::string>& HostileStrings() {
  static const auto* const strings = new std::vector<std::string>{
      "'); DROP TABLE games;--", "%", "_", "a%", "'", "\"", "''", "\\", "a\\_b", "*", "$1", "?", ":name", "NULL"};
  return *strings;
}

GameRow MakeGame(int64_t ruleset, std::string light, std::string dark, std::string event, std::string date,
                 int result) {
  GameRow game;
  game.ruleset = ruleset;
  game.light = std::move(light);
  game.dark = std::move(dark);
  game.event = std::move(event);
  game.date = std::move(date);
  game.result = result;
  game.identity = "id:" + game.light + "/" + game.dark + "/" + game.date + "/" + std::to_string(result);
  game.identity_hash = std::hash<std::string>()(game.identity);
  game.extra = "extra";
  game.plies = 40 + result;
  return game;
}

class StoreContractTest : public ::testing::TestWithParam<TestBackend> {
 protected:
  void SetUp() override {
    location_ = GetParam().make_location();
    store_ = Open(OpenMode::kCreate);
    ASSERT_NE(store_, nullptr);
  }

  std::unique_ptr<Store> Open(OpenMode mode) {
    absl::StatusOr<std::unique_ptr<Store>> store = OpenStore(location_, mode);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }

  // Adds `rows` in one write, setting their ids.
  void AddGames(std::vector<GameRow>& rows) {
    ASSERT_OK(store_->BeginWrite());
    for (GameRow& game : rows) {
      ASSERT_OK_AND_ASSIGN(game.id, store_->AddGame(game));
    }
    ASSERT_OK(store_->Commit());
  }

  std::vector<int64_t> Find(const GameQuery& query, int64_t offset = 0, int64_t limit = -1) {
    absl::StatusOr<std::vector<int64_t>> ids = store_->FindGames(query, offset, limit);
    EXPECT_TRUE(ids.ok()) << ids.status();
    return ids.ok() ? *ids : std::vector<int64_t>();
  }

  std::string location_;
  std::unique_ptr<Store> store_;
};

TEST_P(StoreContractTest, NameSaysWhichDatabase) { EXPECT_FALSE(store_->Name().empty()); }

TEST_P(StoreContractTest, KExistingOnAFreshLocationIsNotFound) {
  const std::string fresh = GetParam().make_location();
  absl::StatusOr<std::unique_ptr<Store>> store = OpenStore(fresh, OpenMode::kExisting);
  EXPECT_EQ(store.status().code(), absl::StatusCode::kNotFound) << store.status();
}

TEST_P(StoreContractTest, EveryGameFieldRoundTrips) {
  GameRow light_reviewed = MakeGame(1, "Ærø Ünïcødé 名人", "Дарья", "Турнир ☃", "2026-03-01", 2);
  light_reviewed.identity = "\0\x01\xff\0id"s;
  light_reviewed.extra = "tags\0\x80\xfe comments\0"s;
  light_reviewed.identity_hash = 0xfedcba9876543210ULL;  // above INT64_MAX
  light_reviewed.plies = 123;
  light_reviewed.figures[0] = ReviewFigures{87.25, 0.0125, 1834.5};
  GameRow both_reviewed = MakeGame(2, "a", "b", "", "", 1);
  both_reviewed.identity_hash = 0;
  both_reviewed.figures[0] = ReviewFigures{0, 0, 0};
  both_reviewed.figures[1] = ReviewFigures{100, 3.5, -12.75};
  GameRow bare = MakeGame(1, "", "", "", "", 0);
  bare.identity = "";
  bare.extra = "";
  bare.identity_hash = UINT64_MAX;
  bare.plies = 0;
  GameRow dark_reviewed = MakeGame(1, "x", "y", "e", "2026-01-01", 1);
  dark_reviewed.figures[1] = ReviewFigures{55.5, 0.5, 1500};
  std::vector<GameRow> rows = {light_reviewed, both_reviewed, bare, dark_reviewed};
  AddGames(rows);
  ASSERT_OK_AND_ASSIGN(std::vector<GameRow> got, store_->GamesById({rows[0].id, rows[1].id, rows[2].id, rows[3].id}));
  ASSERT_EQ(got.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    ExpectSameGame(got[i], rows[i]);
  }
  EXPECT_LT(rows[0].id, rows[1].id);
  EXPECT_LT(rows[2].id, rows[3].id);
}

TEST_P(StoreContractTest, GamesWithHashGivesEveryCandidateAndOnlyThem) {
  std::vector<GameRow> rows = {MakeGame(1, "a", "b", "", "", 1), MakeGame(1, "c", "d", "", "", 2),
                               MakeGame(2, "e", "f", "", "", 0), MakeGame(1, "g", "h", "", "", 1)};
  rows[0].identity_hash = rows[1].identity_hash = rows[2].identity_hash = 0x8000000000000001ULL;
  rows[3].identity_hash = 1;
  AddGames(rows);
  ASSERT_OK_AND_ASSIGN(std::vector<GameRow> candidates, store_->GamesWithHash(0x8000000000000001ULL));
  ASSERT_EQ(candidates.size(), 3u);
  for (int i = 0; i < 3; ++i) ExpectSameGame(candidates[i], rows[i]);
  ASSERT_OK_AND_ASSIGN(candidates, store_->GamesWithHash(1));
  ASSERT_EQ(candidates.size(), 1u);
  ExpectSameGame(candidates[0], rows[3]);
  ASSERT_OK_AND_ASSIGN(candidates, store_->GamesWithHash(2));
  EXPECT_TRUE(candidates.empty());
}

TEST_P(StoreContractTest, GamesByIdKeepsTheOrderAskedAndSkipsMissingIds) {
  std::vector<GameRow> rows = {MakeGame(1, "a", "b", "", "2026-01-02", 1), MakeGame(1, "c", "d", "", "", 2),
                               MakeGame(1, "e", "f", "", "2025-05-05", 0)};
  AddGames(rows);
  const int64_t missing = rows[2].id + 1000;
  ASSERT_OK_AND_ASSIGN(std::vector<GameRow> got,
                       store_->GamesById({rows[2].id, missing, rows[0].id, rows[2].id, -1, rows[1].id}));
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].id, rows[2].id);
  EXPECT_EQ(got[1].id, rows[0].id);
  EXPECT_EQ(got[2].id, rows[2].id);
  EXPECT_EQ(got[3].id, rows[1].id);
  ASSERT_OK_AND_ASSIGN(got, store_->GamesById({}));
  EXPECT_TRUE(got.empty());
  ASSERT_OK_AND_ASSIGN(std::vector<std::string> dates, store_->Dates({rows[1].id, rows[0].id, missing, rows[2].id}));
  EXPECT_EQ(dates, (std::vector<std::string>{"", "2026-01-02", "", "2025-05-05"}));
}

// ---- Searches, against a model of GameQuery.

bool Matches(const GameRow& game, const GameQuery& query) {
  if (query.ruleset && game.ruleset != *query.ruleset) return false;
  if (!query.player.empty() && game.light != query.player && game.dark != query.player) return false;
  if (!query.light.empty() && game.light != query.light) return false;
  if (!query.dark.empty() && game.dark != query.dark) return false;
  if (!query.event.empty() && game.event != query.event) return false;
  if (!query.date_from.empty() && (game.date.empty() || game.date < query.date_from)) return false;
  if (!query.date_to.empty() && (game.date.empty() || game.date > query.date_to)) return false;
  return !query.result || game.result == *query.result;
}

std::vector<int64_t> Expected(const std::vector<GameRow>& rows, const GameQuery& query) {
  std::vector<GameRow> matches;
  for (const GameRow& game : rows) {
    if (Matches(game, query)) matches.push_back(game);
  }
  auto key = [&query](const GameRow& game) {
    return query.order == GameQuery::Order::kId ? std::make_tuple(false, std::string(), game.id)
                                                : std::make_tuple(game.date.empty(), game.date, game.id);
  };
  std::sort(matches.begin(), matches.end(), [&](const GameRow& a, const GameRow& b) { return key(a) < key(b); });
  std::vector<int64_t> ids;
  for (const GameRow& game : matches) ids.push_back(game.id);
  if (query.descending) std::reverse(ids.begin(), ids.end());
  return ids;
}

std::vector<GameRow> SearchGames() {
  return {
      MakeGame(1, "ann", "bob", "open", "2026-03-01", 1), MakeGame(1, "bob", "ann", "open", "2026-03-01", 2),
      MakeGame(2, "ann", "cyd", "cup", "2025-12-31", 0),  MakeGame(1, "cyd", "bob", "", "", 1),
      MakeGame(2, "bob", "cyd", "cup", "2026-01-15", 2),  MakeGame(1, "ann", "ann", "open", "", 1),
      MakeGame(1, "dee", "ann", "cup", "2026-03-02", 2),  MakeGame(2, "", "bob", "", "2024-07-04", 1),
      MakeGame(1, "ann", "bob", "open", "2026-02-28", 0), MakeGame(1, "bobby", "anne", "opener", "2026-03", 1),
      MakeGame(2, "cyd", "dee", "cup", "2026-03-01", 1),  MakeGame(1, "ann", "", "open", "2025", 2),
  };
}

TEST_P(StoreContractTest, EveryQueryFieldAloneAndCombinedInBothOrders) {
  std::vector<GameRow> rows = SearchGames();
  AddGames(rows);
  // Each field set or not (2^7), in both orders, both directions.
  for (int fields = 0; fields < 128; ++fields) {
    for (int order = 0; order < 4; ++order) {
      GameQuery query;
      if (fields & 1) query.ruleset = 1;
      if (fields & 2) query.player = "ann";
      if (fields & 4) query.light = fields & 2 ? "ann" : "bob";
      if (fields & 8) query.dark = "bob";
      if (fields & 16) query.event = "open";
      if (fields & 32) query.date_from = "2026-01-01";
      if (fields & 64) query.date_to = "2026-03-01";
      if (fields % 3 == 0) query.result = fields % 2 + 1;
      query.order = order & 1 ? GameQuery::Order::kDate : GameQuery::Order::kId;
      query.descending = order & 2;
      SCOPED_TRACE(testing::Message() << "fields " << fields << " order " << order);
      const std::vector<int64_t> want = Expected(rows, query);
      EXPECT_EQ(Find(query), want);
      ASSERT_OK_AND_ASSIGN(const int64_t count, store_->CountGames(query));
      EXPECT_EQ(count, static_cast<int64_t>(want.size()));
    }
  }
}

TEST_P(StoreContractTest, EachQueryFieldMatchesExactly) {
  std::vector<GameRow> rows = SearchGames();
  AddGames(rows);
  auto ids = [&rows](std::vector<int> indexes) {
    std::vector<int64_t> out;
    for (int i : indexes) out.push_back(rows[i].id);
    return out;
  };
  GameQuery query;
  EXPECT_EQ(Find(query), ids({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  query.player = "ann";  // not "anne"
  EXPECT_EQ(Find(query), ids({0, 1, 2, 5, 6, 8, 11}));
  query = GameQuery{};
  query.light = "bob";  // not "bobby"
  EXPECT_EQ(Find(query), ids({1, 4}));
  query = GameQuery{};
  query.event = "open";  // not "opener"
  EXPECT_EQ(Find(query), ids({0, 1, 5, 8, 11}));
  query = GameQuery{};
  query.date_from = "2026-03-01";
  EXPECT_EQ(Find(query), ids({0, 1, 6, 10}));  // "2026-03" < "2026-03-01": out
  query = GameQuery{};
  query.date_to = "2025-12-31";
  EXPECT_EQ(Find(query), ids({2, 7, 11}));  // no date: out
  query = GameQuery{};
  query.result = 0;
  EXPECT_EQ(Find(query), ids({2, 8}));
  query = GameQuery{};
  query.ruleset = 2;
  EXPECT_EQ(Find(query), ids({2, 4, 7, 10}));
  query = GameQuery{};
  query.order = GameQuery::Order::kDate;
  EXPECT_EQ(Find(query), ids({7, 11, 2, 4, 8, 9, 0, 1, 10, 6, 3, 5}));
  query.descending = true;
  EXPECT_EQ(Find(query), ids({5, 3, 6, 10, 1, 0, 9, 8, 4, 2, 11, 7}));
  query.order = GameQuery::Order::kId;
  EXPECT_EQ(Find(query), ids({11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  query = GameQuery{};
  query.player = "nobody";
  EXPECT_TRUE(Find(query).empty());
  ASSERT_OK_AND_ASSIGN(const int64_t none, store_->CountGames(query));
  EXPECT_EQ(none, 0);
}

TEST_P(StoreContractTest, OffsetAndLimitPageTheOrder) {
  std::vector<GameRow> rows = SearchGames();
  AddGames(rows);
  for (const bool by_date : {false, true}) {
    GameQuery query;
    query.order = by_date ? GameQuery::Order::kDate : GameQuery::Order::kId;
    const std::vector<int64_t> all = Find(query);
    ASSERT_EQ(all.size(), rows.size());
    for (int64_t offset = 0; offset <= 13; ++offset) {
      for (int64_t limit : {0, 1, 5, 12, 100}) {
        const auto begin = all.begin() + std::min<int64_t>(offset, all.size());
        const auto end = all.begin() + std::min<int64_t>(offset + limit, all.size());
        EXPECT_EQ(Find(query, offset, limit), std::vector<int64_t>(begin, end)) << offset << " " << limit;
      }
      EXPECT_EQ(Find(query, offset, -1),
                std::vector<int64_t>(all.begin() + std::min<int64_t>(offset, all.size()), all.end()));
    }
  }
}

TEST_P(StoreContractTest, ScanGamesVisitsInOrderAndStopsWhenAsked) {
  std::vector<GameRow> rows = SearchGames();
  AddGames(rows);
  GameQuery query;
  query.player = "bob";
  query.order = GameQuery::Order::kDate;
  query.descending = true;
  std::vector<int64_t> seen;
  ASSERT_OK(store_->ScanGames(query, [&seen](int64_t id) {
    seen.push_back(id);
    return true;
  }));
  EXPECT_EQ(seen, Expected(rows, query));
  ASSERT_GE(seen.size(), 3u);
  std::vector<int64_t> first_two;
  ASSERT_OK(store_->ScanGames(query, [&first_two](int64_t id) {
    first_two.push_back(id);
    return first_two.size() < 2;
  }));
  EXPECT_EQ(first_two, std::vector<int64_t>(seen.begin(), seen.begin() + 2));
  int none = 0;
  query.player = "nobody";
  ASSERT_OK(store_->ScanGames(query, [&none](int64_t) { return ++none > 0; }));
  EXPECT_EQ(none, 0);
}

TEST_P(StoreContractTest, HostileStringsMatchLiterallyAndNothingElse) {
  std::vector<GameRow> rows;
  for (const std::string& text : HostileStrings()) {
    rows.push_back(MakeGame(1, text, "plain", text, "2026-01-01", 1));
    rows.push_back(MakeGame(1, "plain", text + "x", "x" + text, "2026-01-02", 2));
  }
  rows.push_back(MakeGame(1, "a", "b", "c", "2026-01-03", 1));  // what % or _ would match
  AddGames(rows);
  for (size_t i = 0; i < HostileStrings().size(); ++i) {
    const std::string& text = HostileStrings()[i];
    SCOPED_TRACE(text);
    GameQuery query;
    query.light = text;
    EXPECT_EQ(Find(query), std::vector<int64_t>{rows[2 * i].id});
    query = GameQuery{};
    query.player = text;
    EXPECT_EQ(Find(query), std::vector<int64_t>{rows[2 * i].id});
    query = GameQuery{};
    query.dark = text + "x";
    EXPECT_EQ(Find(query), std::vector<int64_t>{rows[2 * i + 1].id});
    query = GameQuery{};
    query.event = text;
    EXPECT_EQ(Find(query), std::vector<int64_t>{rows[2 * i].id});
    query = GameQuery{};
    query.date_from = text;  // compared as text, never as SQL
    query.date_to = text;
    EXPECT_TRUE(Find(query).empty());
  }
  EXPECT_EQ(Find(GameQuery{}).size(), rows.size());  // the table is still there
  ASSERT_OK(store_->BeginWrite());
  for (const std::string& text : HostileStrings()) {
    ASSERT_OK(store_->SetSetting(text, text + "v"));
    ASSERT_OK(store_->AddSource(rows[0].id, SourceRow{text, 1}));
  }
  ASSERT_OK(store_->RecomputePlayers());
  ASSERT_OK(store_->Commit());
  for (const std::string& text : HostileStrings()) {
    ASSERT_OK_AND_ASSIGN(std::optional<std::string> value, store_->Setting(text));
    EXPECT_EQ(value, text + "v");
    ASSERT_OK_AND_ASSIGN(std::optional<int64_t> game, store_->SourceGame(SourceRow{text, 1}));
    EXPECT_EQ(game, rows[0].id);
    ASSERT_OK_AND_ASSIGN(games::PlayerTotals totals, store_->Player(text));
    EXPECT_EQ(totals.games, 1) << text;
  }
  ASSERT_OK_AND_ASSIGN(std::optional<std::string> value, store_->Setting("x"));
  EXPECT_FALSE(value.has_value());
}

// ---- Rulesets, settings, sources.

TEST_P(StoreContractTest, RulesetIdsAreStableAndKeepTheFirstReference) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t finkel, store_->RulesetId("digest-f", "finkel"));
  ASSERT_OK_AND_ASSIGN(const int64_t masters, store_->RulesetId("digest-m", "masters"));
  ASSERT_OK_AND_ASSIGN(const int64_t again, store_->RulesetId("digest-f", "another name"));
  ASSERT_OK(store_->Commit());
  EXPECT_NE(finkel, masters);
  EXPECT_EQ(again, finkel);
  ASSERT_OK_AND_ASSIGN(std::vector<games::RulesetRow> rulesets, store_->Rulesets());
  ASSERT_EQ(rulesets.size(), 2u);
  EXPECT_EQ(rulesets[0].id, finkel);
  EXPECT_EQ(rulesets[0].digest, "digest-f");
  EXPECT_EQ(rulesets[0].reference, "finkel");
  EXPECT_EQ(rulesets[1].id, masters);
  EXPECT_EQ(rulesets[1].reference, "masters");
}

TEST_P(StoreContractTest, SettingsAreKeptAndReplaced) {
  ASSERT_OK_AND_ASSIGN(std::optional<std::string> value, store_->Setting("explorer_depth"));
  EXPECT_FALSE(value.has_value());
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->SetSetting("explorer_depth", "12"));
  ASSERT_OK(store_->SetSetting("empty", ""));
  ASSERT_OK(store_->SetSetting("explorer_depth", "16"));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(value, store_->Setting("explorer_depth"));
  EXPECT_EQ(value, "16");
  ASSERT_OK_AND_ASSIGN(value, store_->Setting("empty"));
  EXPECT_EQ(value, "");
}

// The import batch's calls: the same answers as the one-row calls, every
// column kept (undated, unreviewed, hash with the top bit), ids ascending
// in the games' order, sources added in the open write seen.
TEST_P(StoreContractTest, BatchCallsAnswerAsTheOneRowCallsDo) {
  std::vector<GameRow> rows = {MakeGame(1, "a", "b", "", "", 1), MakeGame(2, "c", "d", "ev", "2026-02-03", 2),
                               MakeGame(1, "e", "f", "", "2025-01-01", 0)};
  rows[0].identity_hash = 0x8000000000000001ULL;
  rows[1].identity_hash = rows[2].identity_hash = 7;
  rows[1].figures[0] = ReviewFigures{61.5, 0.25, 1450};
  rows[2].identity = std::string("\0\xff id", 5);
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(std::vector<int64_t> ids, store_->AddGames(rows));
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_LT(ids[0], ids[1]);
  EXPECT_LT(ids[1], ids[2]);
  for (size_t i = 0; i < rows.size(); ++i) rows[i].id = ids[i];
  ASSERT_OK(store_->AddSource(ids[1], SourceRow{"/x.tsn", 4}));
  ASSERT_OK(store_->AddSource(ids[2], SourceRow{"/y.tsn", 5}));
  // Files in turn, one back again, and one no source names.
  ASSERT_OK_AND_ASSIGN(std::vector<std::optional<int64_t>> games,
                       store_->SourceGames({SourceRow{"/x.tsn", 3}, SourceRow{"/x.tsn", 4}, SourceRow{"/y.tsn", 4},
                                            SourceRow{"/y.tsn", 5}, SourceRow{"/z.tsn", 5}, SourceRow{"/x.tsn", 4}}));
  ASSERT_OK(store_->Commit());
  EXPECT_EQ(games, (std::vector<std::optional<int64_t>>{std::nullopt, ids[1], std::nullopt, ids[2], std::nullopt,
                                                        ids[1]}));
  ASSERT_OK_AND_ASSIGN(std::vector<GameRow> got, store_->GamesById(ids));
  ASSERT_EQ(got.size(), 3u);
  for (size_t i = 0; i < rows.size(); ++i) ExpectSameGame(got[i], rows[i]);
  ASSERT_OK_AND_ASSIGN(std::vector<GameRow> candidates, store_->GamesWithHashes({7, 0x8000000000000001ULL, 99}));
  std::sort(candidates.begin(), candidates.end(), [](const GameRow& a, const GameRow& b) { return a.id < b.id; });
  ASSERT_EQ(candidates.size(), 3u);
  for (size_t i = 0; i < rows.size(); ++i) ExpectSameGame(candidates[i], rows[i]);
  ASSERT_OK_AND_ASSIGN(candidates, store_->GamesWithHashes({}));
  EXPECT_TRUE(candidates.empty());
  ASSERT_OK_AND_ASSIGN(ids, store_->AddGames({}));
  EXPECT_TRUE(ids.empty());
}

TEST_P(StoreContractTest, SourcesAreRecordedOnceEach) {
  std::vector<GameRow> rows = {MakeGame(1, "a", "b", "", "", 1), MakeGame(1, "c", "d", "", "", 2)};
  AddGames(rows);
  const SourceRow first{"/data/games é.tsn", 0};
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> game, store_->SourceGame(first));
  EXPECT_FALSE(game.has_value());
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->AddSource(rows[0].id, first));
  ASSERT_OK(store_->AddSource(rows[0].id, SourceRow{"/data/games é.tsn", 7}));
  ASSERT_OK(store_->AddSource(rows[0].id, SourceRow{"/data/a.tsn", 7}));
  ASSERT_OK(store_->AddSource(rows[1].id, SourceRow{"/data/games é.tsn", 1}));
  // Again, for another game: ignored, the first game stays.
  ASSERT_OK(store_->AddSource(rows[1].id, first));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(game, store_->SourceGame(first));
  EXPECT_EQ(game, rows[0].id);
  ASSERT_OK_AND_ASSIGN(game, store_->SourceGame(SourceRow{"/data/games é.tsn", 1}));
  EXPECT_EQ(game, rows[1].id);
  ASSERT_OK_AND_ASSIGN(game, store_->SourceGame(SourceRow{"/data/games é.tsn", 2}));
  EXPECT_FALSE(game.has_value());
  ASSERT_OK_AND_ASSIGN(std::vector<SourceRow> sources, store_->Sources(rows[0].id));
  ASSERT_EQ(sources.size(), 3u);
  EXPECT_EQ(sources[0].file, "/data/a.tsn");
  EXPECT_EQ(sources[0].index, 7);
  EXPECT_EQ(sources[1].file, "/data/games é.tsn");
  EXPECT_EQ(sources[1].index, 0);
  EXPECT_EQ(sources[2].index, 7);
  ASSERT_OK_AND_ASSIGN(sources, store_->Sources(rows[1].id));
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources[0].index, 1);
  ASSERT_OK_AND_ASSIGN(sources, store_->Sources(rows[1].id + 100));
  EXPECT_TRUE(sources.empty());
}

// ---- The position index.

TEST_P(StoreContractTest, PostingsComeOldestRunFirstAndRunsPageInKeyOrder) {
  const std::string big(30000, '\0');
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t first, store_->NewRun());
  ASSERT_OK_AND_ASSIGN(const int64_t second, store_->NewRun());
  ASSERT_OK_AND_ASSIGN(const int64_t third, store_->NewRun());
  ASSERT_OK(store_->AddPostings(second, {{1, 5, "second 1/5"}, {1, INT64_MIN, "second min"}}));
  ASSERT_OK(store_->AddPostings(first, {{2, -3, std::string("a\0b", 3)},
                                        {1, 5, "first 1/5"},
                                        {1, INT64_MAX, big},
                                        {1, -7, "first 1/-7"},
                                        {2, 4, "first 2/4"}}));
  ASSERT_OK(store_->AddPostings(third, {}));
  ASSERT_OK(store_->Commit());
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
  ASSERT_OK_AND_ASSIGN(std::vector<games::RunRow> runs, store_->Runs());
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].run, first);
  EXPECT_EQ(runs[0].bytes, 3 + 9 + 30000 + 10 + 9);
  EXPECT_EQ(runs[1].run, second);
  EXPECT_EQ(runs[1].bytes, 10 + 10);
  EXPECT_EQ(runs[2].bytes, 0);
  constexpr std::pair<int64_t, int64_t> kAll{INT64_MIN, INT64_MAX};
  using games::RunBlock;
  using Blocks = std::vector<RunBlock>;
  ASSERT_OK_AND_ASSIGN(Blocks blocks, store_->Postings(1, 5, {}));
  EXPECT_EQ(blocks, (Blocks{{first, "first 1/5"}, {second, "second 1/5"}}));
  // But the runs left out: those are not read.
  ASSERT_OK_AND_ASSIGN(blocks, store_->Postings(1, 5, {first}));
  EXPECT_EQ(blocks, (Blocks{{second, "second 1/5"}}));
  ASSERT_OK_AND_ASSIGN(blocks, store_->Postings(1, 5, {third, second, first}));
  EXPECT_TRUE(blocks.empty());
  ASSERT_OK_AND_ASSIGN(blocks, store_->Postings(1, INT64_MAX, {second}));
  EXPECT_EQ(blocks, (Blocks{{first, big}}));
  ASSERT_OK_AND_ASSIGN(blocks, store_->Postings(2, 5, {}));
  EXPECT_TRUE(blocks.empty());
  // Their heads: the first bytes, oldest run first, a shorter block whole.
  ASSERT_OK_AND_ASSIGN(blocks, store_->PostingHeads(1, 5, 6));
  EXPECT_EQ(blocks, (Blocks{{first, "first "}, {second, "second"}}));
  ASSERT_OK_AND_ASSIGN(blocks, store_->PostingHeads(1, 5, 100));
  EXPECT_EQ(blocks, (Blocks{{first, "first 1/5"}, {second, "second 1/5"}}));
  ASSERT_OK_AND_ASSIGN(blocks, store_->PostingHeads(1, INT64_MAX, 32));
  EXPECT_EQ(blocks, (Blocks{{first, big.substr(0, 32)}}));
  ASSERT_OK_AND_ASSIGN(blocks, store_->PostingHeads(2, -3, 2));
  EXPECT_EQ(blocks, (Blocks{{first, "a\0"s}}));
  // A run's buckets in a range, without their data.
  using Buckets = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(store_->RunBuckets(first, {INT64_MIN, -1}).value(), (Buckets{{1, -7}, {2, -3}}));
  EXPECT_EQ(store_->RunBuckets(first, {0, INT64_MAX}).value(), (Buckets{{1, 5}, {1, INT64_MAX}, {2, 4}}));
  EXPECT_EQ(store_->RunBuckets(second, kAll).value(), (Buckets{{1, INT64_MIN}, {1, 5}}));
  EXPECT_TRUE(store_->RunBuckets(third, kAll).value().empty());
  // A run's blocks of a range of buckets.
  ASSERT_OK_AND_ASSIGN(std::vector<PostingRow> own, store_->RunPostings(first, {INT64_MIN, INT64_MIN}, 10, {INT64_MIN, -1}));
  ASSERT_EQ(own.size(), 2u);
  EXPECT_EQ(own[0].data, "first 1/-7");
  EXPECT_EQ(own[1].bucket, -3);
  ASSERT_OK_AND_ASSIGN(own, store_->RunPostings(first, {1, INT64_MAX}, 10, {0, INT64_MAX}));
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].data, "first 2/4");

  // The first run, two blocks at a time.
  std::vector<std::pair<int64_t, int64_t>> keys;
  std::pair<int64_t, int64_t> after = {INT64_MIN, INT64_MIN};
  for (int slice = 0; slice < 10; ++slice) {
    ASSERT_OK_AND_ASSIGN(std::vector<PostingRow> rows, store_->RunPostings(first, after, 2, kAll));
    ASSERT_LE(rows.size(), 2u);
    if (rows.empty()) break;
    for (const PostingRow& row : rows) {
      keys.emplace_back(row.ruleset, row.bucket);
      if (row.ruleset == 2 && row.bucket == -3) {
        EXPECT_EQ(row.data, "a\0b"s);
      }
    }
    after = keys.back();
  }
  EXPECT_EQ(keys, (std::vector<std::pair<int64_t, int64_t>>{{1, -7}, {1, 5}, {1, INT64_MAX}, {2, -3}, {2, 4}}));
  ASSERT_OK_AND_ASSIGN(std::vector<PostingRow> rows, store_->RunPostings(second, {INT64_MIN, INT64_MIN}, 10, {INT64_MIN, INT64_MAX}));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].bucket, INT64_MIN);
  EXPECT_EQ(rows[0].data, "second min");

  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->DeleteRun(first));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(blocks, store_->Postings(1, 5, {}));
  EXPECT_EQ(blocks, (Blocks{{second, "second 1/5"}}));
  ASSERT_OK_AND_ASSIGN(rows, store_->RunPostings(first, {INT64_MIN, INT64_MIN}, 10, {INT64_MIN, INT64_MAX}));
  EXPECT_TRUE(rows.empty());
  ASSERT_OK_AND_ASSIGN(runs, store_->Runs());
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].run, second);
}

// A failed call fails the write: the caller rolls it back (games/import.cc
// does), and nothing of it is kept; what was committed before stays.
TEST_P(StoreContractTest, AFailedAddPostingsFailsTheWriteAndItsRollbackKeepsNothing) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t kept, store_->NewRun());
  ASSERT_OK(store_->AddPostings(kept, {{1, 1, "kept"}}));
  ASSERT_OK(store_->Commit());
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t run, store_->NewRun());
  ASSERT_OK(store_->AddPostings(run, {{1, 3, "not kept"}}));
  EXPECT_FALSE(store_->AddPostings(run, {{1, 2, "not kept"}, {1, 2, "twice"}}).ok());
  ASSERT_OK(store_->Rollback());
  ASSERT_OK_AND_ASSIGN(std::vector<PostingRow> rows, store_->RunPostings(run, {INT64_MIN, INT64_MIN}, 10, {INT64_MIN, INT64_MAX}));
  EXPECT_TRUE(rows.empty());
  ASSERT_OK_AND_ASSIGN(rows, store_->RunPostings(kept, {INT64_MIN, INT64_MIN}, 10, {INT64_MIN, INT64_MAX}));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].data, "kept");
  ASSERT_OK_AND_ASSIGN(std::vector<games::RunRow> runs, store_->Runs());
  EXPECT_EQ(runs.size(), 1u);
}

// Half of a failed call is never committed: every backend refuses the
// write's later calls and its Commit (PostgreSQL aborts the transaction;
// SQLite, which runs a call's statements without a savepoint, marks the
// write failed), and a write begun afterwards works.
TEST_P(StoreContractTest, AfterAFailedCallTheWriteRefusesMoreAndItsCommitKeepsNothing) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t run, store_->NewRun());
  ASSERT_OK(store_->AddGame(MakeGame(1, "a", "b", "", "", 1)).status());
  // The second row breaks the unique (ruleset, bucket, run) after the
  // first went in.
  const absl::Status failed = store_->AddPostings(run, {{1, 7, "first"}, {1, 7, "again"}});
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.message().find("postings"), std::string::npos) << failed;
  EXPECT_FALSE(store_->AddGame(MakeGame(1, "c", "d", "", "", 1)).ok());
  const absl::Status commit = store_->Commit();
  EXPECT_EQ(commit.code(), absl::StatusCode::kAborted) << commit;
  EXPECT_EQ(store_->CountGames({}).value_or(-1), 0);
  ASSERT_OK_AND_ASSIGN(std::vector<games::RunRow> runs, store_->Runs());
  EXPECT_TRUE(runs.empty());
  // The next write goes in.
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->AddGame(MakeGame(1, "a", "b", "", "", 1)).status());
  ASSERT_OK(store_->Commit());
  EXPECT_EQ(store_->CountGames({}).value_or(-1), 1);
}

// ---- The explorer, players, ratings.

TEST_P(StoreContractTest, ExplorerRowsAddUp) {
  ExplorerRow move{1, -42, 3, 4, 7, 2, 1, 1, 150.5, 2};
  ExplorerRow pass{1, -42, 0, -1, -1, 1, 0, 1, 0, 0};
  ExplorerRow end{1, -42, -1, -1, -1, 1, 1, 0, 0, 0};
  ExplorerRow other_key{1, 43, 3, 4, 7, 5, 5, 0, 0, 0};
  ExplorerRow other_ruleset{2, -42, 3, 4, 7, 9, 0, 9, 0, 0};
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->AddExplorer({move, pass, other_key, other_ruleset}));
  ASSERT_OK(store_->AddExplorer({move, end}));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(std::vector<ExplorerRow> rows, store_->Explorer(1, -42));
  ASSERT_EQ(rows.size(), 3u);
  // In (roll, from, to) order.
  EXPECT_EQ(rows[0].roll, -1);
  EXPECT_EQ(rows[0].games, 1);
  EXPECT_EQ(rows[0].light_wins, 1);
  EXPECT_EQ(rows[1].roll, 0);
  EXPECT_EQ(rows[1].from, -1);
  EXPECT_EQ(rows[1].to, -1);
  EXPECT_EQ(rows[1].dark_wins, 1);
  EXPECT_EQ(rows[2].ruleset, 1);
  EXPECT_EQ(rows[2].key, -42);
  EXPECT_EQ(rows[2].roll, 3);
  EXPECT_EQ(rows[2].from, 4);
  EXPECT_EQ(rows[2].to, 7);
  EXPECT_EQ(rows[2].games, 4);
  EXPECT_EQ(rows[2].light_wins, 2);
  EXPECT_EQ(rows[2].dark_wins, 2);
  EXPECT_DOUBLE_EQ(rows[2].accuracy_sum, 301);
  EXPECT_EQ(rows[2].accuracy_count, 4);
  ASSERT_OK_AND_ASSIGN(rows, store_->Explorer(2, -42));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].games, 9);
  ASSERT_OK_AND_ASSIGN(rows, store_->Explorer(1, 44));
  EXPECT_TRUE(rows.empty());
}

TEST_P(StoreContractTest, PlayerTotalsCountTheirSideOfEveryGame) {
  std::vector<GameRow> rows = {
      MakeGame(1, "ann", "bob", "", "2026-03-01", 1),  // win as light
      MakeGame(1, "bob", "ann", "", "2025-01-05", 1),  // loss as dark
      MakeGame(2, "cyd", "ann", "", "", 2),            // win as dark
      MakeGame(1, "ann", "cyd", "", "2026-04-01", 0),  // unfinished
      MakeGame(1, "ann", "dee", "", "2024-12-31", 2),  // loss as light
      MakeGame(1, "bob", "cyd", "", "2023-01-01", 1),  // not hers
      MakeGame(1, "anne", "bob", "", "2020-01-01", 1),
  };
  rows[0].figures[0] = ReviewFigures{90, 0.1, 1800};
  rows[0].figures[1] = ReviewFigures{10, 9, 100};  // bob's
  rows[1].figures[1] = ReviewFigures{70, 0.3, 1600};
  rows[2].figures[0] = ReviewFigures{1, 1, 1};  // cyd's only
  rows.push_back(MakeGame(1, "eve", "eve", "", "2022-02-02", 2));  // both sides: once, as light
  rows.push_back(MakeGame(1, "fay", "", "", "2021-01-01", 1));     // no name is a name too
  AddGames(rows);
  // The totals are as of the last recompute (an import's end).
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals before, store_->Player("ann"));
  EXPECT_EQ(before.games, 0);
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->RecomputePlayers());
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals eve, store_->Player("eve"));
  EXPECT_EQ(eve.games, 1);
  EXPECT_EQ(eve.as_light, 1);
  EXPECT_EQ(eve.losses, 1);
  EXPECT_EQ(eve.wins, 0);
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals ann, store_->Player("ann"));
  EXPECT_EQ(ann.games, 5);
  EXPECT_EQ(ann.wins, 2);
  EXPECT_EQ(ann.losses, 2);
  EXPECT_EQ(ann.unfinished, 1);
  EXPECT_EQ(ann.as_light, 3);
  EXPECT_EQ(ann.reviewed, 2);
  EXPECT_DOUBLE_EQ(ann.accuracy, 80);
  EXPECT_DOUBLE_EQ(ann.error_rate, 0.2);
  EXPECT_DOUBLE_EQ(ann.performance, 1700);
  EXPECT_EQ(ann.first_date, "2024-12-31");
  EXPECT_EQ(ann.last_date, "2026-04-01");
  // Never reviewed: means of none are 0; one game, one date.
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals dee, store_->Player("dee"));
  EXPECT_EQ(dee.games, 1);
  EXPECT_EQ(dee.wins, 1);
  EXPECT_EQ(dee.as_light, 0);
  EXPECT_EQ(dee.reviewed, 0);
  EXPECT_EQ(dee.accuracy, 0);
  EXPECT_EQ(dee.error_rate, 0);
  EXPECT_EQ(dee.performance, 0);
  EXPECT_EQ(dee.first_date, "2024-12-31");
  EXPECT_EQ(dee.last_date, "2024-12-31");
  // An undated game among dated ones: left out of the dates.
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals cyd, store_->Player("cyd"));
  EXPECT_EQ(cyd.games, 3);
  EXPECT_EQ(cyd.reviewed, 1);
  EXPECT_DOUBLE_EQ(cyd.accuracy, 1);
  EXPECT_EQ(cyd.first_date, "2023-01-01");
  EXPECT_EQ(cyd.last_date, "2026-04-01");
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals unnamed, store_->Player(""));
  EXPECT_EQ(unnamed.games, 1);
  EXPECT_EQ(unnamed.losses, 1);
  EXPECT_EQ(unnamed.as_light, 0);
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals nobody, store_->Player("nobody"));
  EXPECT_EQ(nobody.games, 0);
  EXPECT_EQ(nobody.wins, 0);
  EXPECT_EQ(nobody.reviewed, 0);
  EXPECT_EQ(nobody.accuracy, 0);
  EXPECT_EQ(nobody.first_date, "");
  EXPECT_EQ(nobody.last_date, "");
}

TEST_P(StoreContractTest, RatingsAreReplacedWhole) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->ReplaceRatings({{"ann", "2026-02", 1600, 80, 0.06, 3},
                                    {"ann", "2026-01", 1500, 100, 0.06, 2},
                                    {"bob", "2026-01", 1400, 90, 0.05, 2}}));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(std::vector<RatingRow> ann, store_->Ratings("ann"));
  ASSERT_EQ(ann.size(), 2u);
  EXPECT_EQ(ann[0].player, "ann");
  EXPECT_EQ(ann[0].period, "2026-01");
  EXPECT_EQ(ann[0].rating, 1500);
  EXPECT_EQ(ann[0].deviation, 100);
  EXPECT_EQ(ann[0].volatility, 0.06);
  EXPECT_EQ(ann[0].games, 2);
  EXPECT_EQ(ann[1].period, "2026-02");
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->ReplaceRatings({{"bob", "2026-03", 1450, 85, 0.05, 1}}));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(ann, store_->Ratings("ann"));
  EXPECT_TRUE(ann.empty());
  ASSERT_OK_AND_ASSIGN(std::vector<RatingRow> bob, store_->Ratings("bob"));
  ASSERT_EQ(bob.size(), 1u);
  EXPECT_EQ(bob[0].period, "2026-03");
  // Two points of one (player, period): refused, nothing changes.
  ASSERT_OK(store_->BeginWrite());
  EXPECT_FALSE(store_->ReplaceRatings({{"cyd", "2026-01", 1, 1, 1, 1}, {"cyd", "2026-01", 2, 2, 2, 2}}).ok());
  ASSERT_OK(store_->Rollback());
  ASSERT_OK_AND_ASSIGN(bob, store_->Ratings("bob"));
  EXPECT_EQ(bob.size(), 1u);
  ASSERT_OK_AND_ASSIGN(std::vector<RatingRow> cyd, store_->Ratings("cyd"));
  EXPECT_TRUE(cyd.empty());
}

TEST_P(StoreContractTest, ScanResultsGivesFinishedNamedDatedGamesInDateOrder) {
  std::vector<GameRow> rows = {
      MakeGame(1, "ann", "bob", "", "2026-03-01", 1), MakeGame(1, "bob", "ann", "", "2025-01-05", 2),
      MakeGame(1, "ann", "bob", "", "2026-03-01", 2), MakeGame(1, "ann", "bob", "", "2024-01-01", 0),
      MakeGame(1, "", "bob", "", "2024-01-01", 1),    MakeGame(1, "ann", "", "", "2024-01-01", 2),
      MakeGame(1, "cyd", "dee", "", "", 1),           MakeGame(2, "cyd", "dee", "", "2026-02-01", 1),
  };
  AddGames(rows);
  using Result = std::tuple<std::string, std::string, std::string, int>;
  std::vector<Result> results;
  ASSERT_OK(
      store_->ScanResults([&](const std::string& date, const std::string& light, const std::string& dark, int result) {
        results.emplace_back(date, light, dark, result);
        return true;
      }));
  EXPECT_EQ(results, (std::vector<Result>{{"2025-01-05", "bob", "ann", 2},
                                          {"2026-02-01", "cyd", "dee", 1},
                                          {"2026-03-01", "ann", "bob", 1},
                                          {"2026-03-01", "ann", "bob", 2}}));
  int visited = 0;
  ASSERT_OK(store_->ScanResults(
      [&](const std::string&, const std::string&, const std::string&, int) { return ++visited < 2; }));
  EXPECT_EQ(visited, 2);
}

// ---- Transactions and readers.

TEST_P(StoreContractTest, RollbackDiscardsTheWrite) {
  std::vector<GameRow> kept = {MakeGame(1, "a", "b", "", "", 1)};
  AddGames(kept);
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->AddGame(MakeGame(1, "c", "d", "", "", 1)).status());
  ASSERT_OK(store_->SetSetting("k", "v"));
  ASSERT_OK(store_->AddSource(kept[0].id, SourceRow{"/f", 1}));
  ASSERT_OK_AND_ASSIGN(const int64_t run, store_->NewRun());
  ASSERT_OK(store_->AddPostings(run, {{1, 1, "x"}}));
  ASSERT_OK(store_->AddExplorer({{1, 1, 1, 1, 1, 1, 1, 0, 0, 0}}));
  ASSERT_OK(store_->ReplaceRatings({{"a", "2026-01", 1, 1, 1, 1}}));
  ASSERT_OK(store_->Rollback());
  EXPECT_EQ(Find(GameQuery{}), std::vector<int64_t>{kept[0].id});
  ASSERT_OK_AND_ASSIGN(std::optional<std::string> value, store_->Setting("k"));
  EXPECT_FALSE(value.has_value());
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> game, store_->SourceGame(SourceRow{"/f", 1}));
  EXPECT_FALSE(game.has_value());
  ASSERT_OK_AND_ASSIGN(std::vector<games::RunRow> runs, store_->Runs());
  EXPECT_TRUE(runs.empty());
  ASSERT_OK_AND_ASSIGN(std::vector<ExplorerRow> explorer, store_->Explorer(1, 1));
  EXPECT_TRUE(explorer.empty());
  ASSERT_OK_AND_ASSIGN(std::vector<RatingRow> ratings, store_->Ratings("a"));
  EXPECT_TRUE(ratings.empty());
  // The store goes on.
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->SetSetting("k", "w"));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(value, store_->Setting("k"));
  EXPECT_EQ(value, "w");
}

TEST_P(StoreContractTest, AReopenedStoreSeesWhatWasCommittedAndNotWhatWasOpen) {
  std::vector<GameRow> rows = {MakeGame(1, "a", "b", "ev", "2026-01-01", 1)};
  rows[0].figures[1] = ReviewFigures{50, 1, 1000};
  AddGames(rows);
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->SetSetting("depth", "8"));
  ASSERT_OK(store_->Commit());
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->AddGame(MakeGame(1, "never", "kept", "", "", 1)).status());
  store_.reset();  // closed with the write open
  store_ = Open(OpenMode::kExisting);
  ASSERT_NE(store_, nullptr);
  ASSERT_OK_AND_ASSIGN(std::vector<GameRow> got, store_->GamesById({rows[0].id}));
  ASSERT_EQ(got.size(), 1u);
  ExpectSameGame(got[0], rows[0]);
  EXPECT_EQ(Find(GameQuery{}).size(), 1u);
  ASSERT_OK_AND_ASSIGN(std::optional<std::string> depth, store_->Setting("depth"));
  EXPECT_EQ(depth, "8");
  ASSERT_OK(store_->BeginWrite());  // the lock went with the old store
  ASSERT_OK(store_->Commit());
}

TEST_P(StoreContractTest, AReaderSeesOnlyCommittedDataWhileAWriteIsOpen) {
  std::vector<GameRow> rows = {MakeGame(1, "a", "b", "", "", 1)};
  AddGames(rows);
  std::unique_ptr<Store> reader = Open(OpenMode::kExisting);
  ASSERT_NE(reader, nullptr);
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t id, store_->AddGame(MakeGame(1, "c", "d", "", "", 2)));
  ASSERT_OK_AND_ASSIGN(int64_t count, reader->CountGames(GameQuery{}));
  EXPECT_EQ(count, 1);
  ASSERT_OK_AND_ASSIGN(std::vector<GameRow> got, reader->GamesById({id}));
  EXPECT_TRUE(got.empty());
  ASSERT_OK_AND_ASSIGN(count, store_->CountGames(GameQuery{}));  // the writer sees its own
  EXPECT_EQ(count, 2);
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(count, reader->CountGames(GameQuery{}));
  EXPECT_EQ(count, 2);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreContractTest, ::testing::ValuesIn(TestBackends()),
                         [](const ::testing::TestParamInfo<TestBackend>& info) { return info.param.name; });

}  // namespace
}  // namespace scribe::storage
