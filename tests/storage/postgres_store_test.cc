// The PostgreSQL backend against a real server (tests/storage/
// postgres_server.h), each test in a database of its own: what is
// PostgreSQL's own (connecting, the schema's versions, the writer lock, a
// server that dies) and a round trip of every Store call.
#include "storage/postgres_store.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "games/store.h"
#include "storage/open_store.h"
#include "tests/storage/cut_proxy.h"
#include "tests/storage/postgres_server.h"
#include "tests/storage/store_test_util.h"

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
using scribe::testing::PostgresServer;
using std::chrono::steady_clock;

// Names a careless backend would turn into SQL, patterns or escapes.
const std::vector<std::string>& HostileStrings() {
  static const auto* strings = new std::vector<std::string>{
      "'); DROP TABLE games;--", "%", "_", "a%", "a_c", "abc", "O'Brien", "\"quoted\"", "back\\slash", "$1",
      "Zoë Ürgüç 🎲", "semi;colon", " padded ", "*", "NULL"};
  return *strings;
}

GameRow MakeGame(int64_t ruleset, std::string light, std::string dark, std::string date, int result) {
  GameRow g;
  g.ruleset = ruleset;
  g.identity = absl::StrCat("id:", light, "/", dark, "/", date, "/", result);
  g.identity_hash = 42;
  g.extra = "tags";
  g.light = std::move(light);
  g.dark = std::move(dark);
  g.date = std::move(date);
  g.result = result;
  g.plies = 10;
  return g;
}

// A port of 127.0.0.1 with nothing listening on it.
int UnusedPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  close(fd);
  return ntohs(address.sin_port);
}

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto server = PostgresServer::Shared();
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *server;
    ASSERT_OK_AND_ASSIGN(url_, server_->NewDatabase());
    ASSERT_OK_AND_ASSIGN(store_, OpenPostgresStore(url_, OpenMode::kCreate));
  }

  // Adds games in one write; their ids.
  std::vector<int64_t> Add(const std::vector<GameRow>& games) {
    std::vector<int64_t> ids;
    EXPECT_OK(store_->BeginWrite());
    for (const GameRow& game : games) {
      auto id = store_->AddGame(game);
      EXPECT_TRUE(id.ok()) << id.status();
      ids.push_back(id.value_or(0));
    }
    EXPECT_OK(store_->Commit());
    return ids;
  }

  std::vector<int64_t> Find(const GameQuery& query, int64_t offset = 0, int64_t limit = -1) {
    auto ids = store_->FindGames(query, offset, limit);
    EXPECT_TRUE(ids.ok()) << ids.status();
    auto count = store_->CountGames(query);
    EXPECT_TRUE(count.ok()) << count.status();
    if (offset == 0 && limit < 0 && ids.ok() && count.ok()) {
      EXPECT_EQ(*count, static_cast<int64_t>(ids->size()));
    }
    return ids.value_or(std::vector<int64_t>());
  }

  std::string Sql1(const std::string& sql) {
    auto rows = PostgresServer::Query(url_, sql);
    EXPECT_TRUE(rows.ok()) << rows.status();
    if (!rows.ok() || rows->empty() || rows->front().empty()) return "";
    return rows->front().front();
  }

  PostgresServer* server_ = nullptr;
  std::string url_;
  std::unique_ptr<Store> store_;
};

// ---------------------------------------------------------------------------
// Connecting.

TEST(PostgresConnectTest, UnreachableServerIsUnavailableQuicklyNamingItWithoutThePassword) {
  const int port = UnusedPort();
  const auto start = steady_clock::now();
  auto store = OpenPostgresStore(absl::StrCat("postgresql://scribe:s3cret@127.0.0.1:", port, "/games"),
                                 OpenMode::kCreate);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kUnavailable) << store.status();
  const std::string message(store.status().message());
  EXPECT_NE(message.find(absl::StrCat("cannot reach PostgreSQL at 127.0.0.1:", port, "/games")), std::string::npos)
      << message;
  EXPECT_NE(message.find("is the server running?"), std::string::npos) << message;
  EXPECT_EQ(message.find("s3cret"), std::string::npos) << message;
  // Refused at once, not after a wait (a hang would be a bug).
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(PostgresConnectTest, MalformedUrlIsInvalidArgument) {
  auto store = OpenPostgresStore("postgresql://scribe@127.0.0.1:5432/db?no_such_option=1", OpenMode::kCreate);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kInvalidArgument) << store.status();
}

TEST_F(PostgresStoreTest, MissingDatabaseIsNotFoundAndUnknownRoleIsPermissionDenied) {
  auto missing = OpenPostgresStore(server_->UrlOf("no_such_db"), OpenMode::kCreate);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound) << missing.status();
  EXPECT_NE(missing.status().message().find("no_such_db"), std::string::npos) << missing.status();

  auto role = OpenPostgresStore(absl::StrCat("postgresql://nobody@127.0.0.1:", server_->port(), "/postgres"),
                                OpenMode::kCreate);
  ASSERT_FALSE(role.ok());
  EXPECT_EQ(role.status().code(), absl::StatusCode::kPermissionDenied) << role.status();
}

TEST_F(PostgresStoreTest, NameNamesDatabaseHostAndPort) {
  const std::string db = url_.substr(url_.rfind('/') + 1);
  EXPECT_EQ(store_->Name(), absl::StrCat("PostgreSQL database ", db, " at 127.0.0.1:", server_->port()));
  // Unix socket URLs work too (the server's folder is its socket's).
  auto url = PostgresServer::Query(server_->Url(), "SHOW unix_socket_directories");
  ASSERT_TRUE(url.ok()) << url.status();
  auto store = OpenPostgresStore(
      absl::StrCat("postgresql://scribe@/", db, "?host=", (*url)[0][0], "&port=", server_->port()),
      OpenMode::kExisting);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ((*store)->Name(), absl::StrCat("PostgreSQL database ", db, " at ", (*url)[0][0], ":", server_->port()));
}

// ---------------------------------------------------------------------------
// The schema.

TEST_F(PostgresStoreTest, ExistingModeOnAnEmptyDatabaseIsNotFound) {
  ASSERT_OK_AND_ASSIGN(const std::string empty, server_->NewDatabase());
  auto store = OpenPostgresStore(empty, OpenMode::kExisting);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kNotFound) << store.status();
  EXPECT_NE(store.status().message().find("no game database in PostgreSQL database"), std::string::npos);
  EXPECT_NE(store.status().message().find("import games first"), std::string::npos);
  // And nothing was made.
  auto tables = PostgresServer::Query(empty, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'");
  ASSERT_TRUE(tables.ok()) << tables.status();
  EXPECT_EQ((*tables)[0][0], "0");
  // The database made by kCreate opens with kExisting.
  EXPECT_TRUE(OpenPostgresStore(url_, OpenMode::kExisting).ok());
}

TEST_F(PostgresStoreTest, SchemaOfANewerScribeIsRefused) {
  store_.reset();
  EXPECT_EQ(Sql1("SELECT version FROM scribe_schema"), absl::StrCat(kPostgresSchemaVersion));
  Sql1(absl::StrCat("UPDATE scribe_schema SET version = ", kPostgresSchemaVersion + 1));
  for (OpenMode mode : {OpenMode::kCreate, OpenMode::kExisting}) {
    auto store = OpenPostgresStore(url_, mode);
    ASSERT_FALSE(store.ok());
    EXPECT_EQ(store.status().code(), absl::StatusCode::kFailedPrecondition) << store.status();
    EXPECT_NE(store.status().message().find(
                  absl::StrCat("made by a newer Scribe (schema ", kPostgresSchemaVersion + 1,
                               ", this build reads up to ", kPostgresSchemaVersion, "); upgrade Scribe")),
              std::string::npos)
        << store.status();
  }
}

// A database whose scribe_schema says 0 (before the first version's
// tables) is migrated on open, in kExisting mode too.
TEST_F(PostgresStoreTest, OlderSchemaIsMigratedOnOpen) {
  ASSERT_OK_AND_ASSIGN(const std::string url, server_->NewDatabase());
  ASSERT_TRUE(PostgresServer::Query(url,
                                    "CREATE TABLE scribe_schema (version integer NOT NULL);"
                                    " INSERT INTO scribe_schema VALUES (0); CREATE TABLE unrelated (x int)")
                  .ok());
  ASSERT_OK_AND_ASSIGN(auto store, OpenPostgresStore(url, OpenMode::kExisting));
  auto version = PostgresServer::Query(url, "SELECT version FROM scribe_schema");
  ASSERT_TRUE(version.ok());
  EXPECT_EQ((*version)[0][0], absl::StrCat(kPostgresSchemaVersion));
  ASSERT_OK(store->BeginWrite());
  ASSERT_TRUE(store->AddGame(MakeGame(1, "a", "b", "2026-01-01", 1)).ok());
  ASSERT_OK(store->Commit());
  EXPECT_EQ(store->CountGames({}).value_or(-1), 1);
}

// A version 1 database (before the players table) with games in it: the
// migration to version 2 makes the table and fills it from the games, and
// version 3's indexes follow.
TEST_F(PostgresStoreTest, AVersion1DatabaseGetsItsPlayersTotals) {
  ASSERT_OK_AND_ASSIGN(const std::string url, server_->NewDatabase());
  {
    ASSERT_OK_AND_ASSIGN(auto store, OpenPostgresStore(url, OpenMode::kCreate));
    ASSERT_OK(store->BeginWrite());
    ASSERT_TRUE(store->AddGame(MakeGame(1, "a", "b", "2026-01-01", 1)).ok());
    ASSERT_TRUE(store->AddGame(MakeGame(1, "b", "c", "", 2)).ok());
    ASSERT_OK(store->Commit());
  }
  // Version 1 as it was: no players table, one-column name indexes.
  ASSERT_TRUE(PostgresServer::Query(url,
                                    "DROP TABLE players; DROP INDEX games_light, games_dark, games_light_date,"
                                    " games_dark_date; CREATE INDEX games_light ON games (light);"
                                    " CREATE INDEX games_dark ON games (dark); UPDATE scribe_schema SET version = 1;"
                                    " DELETE FROM settings WHERE key = 'identity'")
                  .ok());
  ASSERT_OK_AND_ASSIGN(auto store, OpenPostgresStore(url, OpenMode::kExisting));
  auto version = PostgresServer::Query(url, "SELECT version FROM scribe_schema");
  ASSERT_TRUE(version.ok());
  EXPECT_EQ((*version)[0][0], absl::StrCat(kPostgresSchemaVersion));
  // Version 3: the dark-side indexes carry light (a player's games as dark
  // read from the index alone).
  for (const char* index : {"games_dark", "games_dark_date"}) {
    auto def = PostgresServer::Query(url, absl::StrCat("SELECT indexdef FROM pg_indexes WHERE indexname = '", index, "'"));
    ASSERT_TRUE(def.ok() && def->size() == 1) << index;
    EXPECT_NE((*def)[0][0].find("INCLUDE (light)"), std::string::npos) << (*def)[0][0];
  }
  // Version 4: its games were stored in identity version 1, and it goes on
  // so; a database without games before version 4 takes version 2.
  EXPECT_EQ(store->Setting("identity").value_or(std::nullopt), std::optional<std::string>("1"));
  EXPECT_EQ(store_->Setting("identity").value_or(std::nullopt), std::optional<std::string>("2"));
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals b, store->Player("b"));
  EXPECT_EQ(b.games, 2);
  EXPECT_EQ(b.losses, 2);
  EXPECT_EQ(b.wins, 0);
  EXPECT_EQ(b.as_light, 1);
  EXPECT_EQ(b.first_date, "2026-01-01");
  EXPECT_EQ(b.last_date, "2026-01-01");
}

// Version 5 says from which run on the position index keeps keys apart
// (games/position_index.h): every run in a new database; in an older
// one, the runs made after it.
TEST_F(PostgresStoreTest, AVersion4DatabaseKeepsKeysApartFromItsNextRun) {
  EXPECT_EQ(store_->Setting("index_apart_from").value_or(std::nullopt), std::optional<std::string>("1"));
  ASSERT_OK_AND_ASSIGN(const std::string url, server_->NewDatabase());
  int64_t last = 0;
  {
    ASSERT_OK_AND_ASSIGN(auto store, OpenPostgresStore(url, OpenMode::kCreate));
    ASSERT_OK(store->BeginWrite());
    for (int i = 0; i < 3; ++i) {
      ASSERT_OK_AND_ASSIGN(last, store->NewRun());
    }
    ASSERT_OK(store->Commit());
  }
  ASSERT_TRUE(PostgresServer::Query(url,
                                    "DELETE FROM settings WHERE key = 'index_apart_from';"
                                    " UPDATE scribe_schema SET version = 4")
                  .ok());
  ASSERT_OK_AND_ASSIGN(auto store, OpenPostgresStore(url, OpenMode::kExisting));
  EXPECT_EQ(store->Setting("index_apart_from").value_or(std::nullopt),
            std::optional<std::string>(absl::StrCat(last + 1)));
  ASSERT_OK(store->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t next, store->NewRun());
  ASSERT_OK(store->Commit());
  EXPECT_GT(next, last);
}

// The steps of a version are one transaction: one that fails leaves the
// database as it was.
TEST_F(PostgresStoreTest, FailedMigrationChangesNothing) {
  ASSERT_OK_AND_ASSIGN(const std::string url, server_->NewDatabase());
  ASSERT_TRUE(PostgresServer::Query(url,
                                    "CREATE TABLE scribe_schema (version integer NOT NULL);"
                                    " INSERT INTO scribe_schema VALUES (0); CREATE TABLE explorer (x int)")
                  .ok());
  auto store = OpenPostgresStore(url, OpenMode::kCreate);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("migrating the schema to version 1"), std::string::npos) << store.status();
  auto left = PostgresServer::Query(url, "SELECT version, to_regclass('games') IS NULL FROM scribe_schema");
  ASSERT_TRUE(left.ok()) << left.status();
  EXPECT_EQ((*left)[0][0], "0");
  EXPECT_EQ((*left)[0][1], "t");
}

TEST_F(PostgresStoreTest, ForeignTablesOfOurNamesAreNotAScribeDatabase) {
  ASSERT_OK_AND_ASSIGN(const std::string url, server_->NewDatabase());
  ASSERT_TRUE(PostgresServer::Query(url, "CREATE TABLE games (x int)").ok());
  auto store = OpenPostgresStore(url, OpenMode::kCreate);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kDataLoss) << store.status();
}

TEST_F(PostgresStoreTest, ConcurrentCreatorsMakeTheSchemaOnce) {
  ASSERT_OK_AND_ASSIGN(const std::string url, server_->NewDatabase());
  std::vector<absl::Status> results(4);
  std::vector<std::thread> threads;
  for (absl::Status& result : results) {
    threads.emplace_back([&url, &result] { result = OpenPostgresStore(url, OpenMode::kCreate).status(); });
  }
  for (std::thread& thread : threads) thread.join();
  for (const absl::Status& result : results) EXPECT_OK(result);
  auto rows = PostgresServer::Query(url, "SELECT count(*) FROM scribe_schema");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0][0], "1");
}

// ---------------------------------------------------------------------------
// Writers and readers.

TEST_F(PostgresStoreTest, SecondWriterWaitsThenIsUnavailable) {
  PostgresOptions quick;
  quick.lock_timeout = std::chrono::milliseconds(300);
  ASSERT_OK_AND_ASSIGN(auto other, OpenPostgresStore(url_, OpenMode::kExisting, quick));
  ASSERT_OK(store_->BeginWrite());
  const auto start = steady_clock::now();
  const absl::Status blocked = other->BeginWrite();
  const auto waited = steady_clock::now() - start;
  EXPECT_EQ(blocked.code(), absl::StatusCode::kUnavailable) << blocked;
  EXPECT_NE(blocked.message().find(other->Name() + " is locked by another writer"), std::string::npos) << blocked;
  EXPECT_GE(waited, std::chrono::milliseconds(250));
  EXPECT_LT(waited, std::chrono::seconds(5));
  // Reads go on meanwhile, and the refused writer's connection still works.
  EXPECT_TRUE(other->CountGames({}).ok());
  ASSERT_OK(store_->Commit());
  ASSERT_OK(other->BeginWrite());
  ASSERT_OK(other->Commit());
}

TEST_F(PostgresStoreTest, SecondWriterGetsTheLockWhenTheFirstCommitsInTime) {
  ASSERT_OK_AND_ASSIGN(auto other, OpenPostgresStore(url_, OpenMode::kExisting));
  ASSERT_OK(store_->BeginWrite());
  std::atomic<bool> committed = false;
  absl::Status waited;
  std::thread second([&] {
    waited = other->BeginWrite();
    EXPECT_TRUE(committed.load());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  committed = true;
  ASSERT_OK(store_->Commit());
  second.join();
  EXPECT_OK(waited);
  EXPECT_OK(other->Commit());
}

// A writer that stops answering inside its write (its process frozen, its
// machine cut off) does not hold the writer lock for long: the server ends
// a transaction idle past PostgresOptions::idle_write_timeout (a minute
// by default; here half a second), and the next writer gets the lock. The
// frozen writer's commit then fails: nothing of its write is kept.
TEST_F(PostgresStoreTest, AWriterIdleInsideItsWriteLosesTheLock) {
  PostgresOptions idle;
  idle.idle_write_timeout = std::chrono::milliseconds(500);
  ASSERT_OK_AND_ASSIGN(auto frozen, OpenPostgresStore(url_, OpenMode::kExisting, idle));
  PostgresOptions patient;
  patient.lock_timeout = std::chrono::seconds(20);
  ASSERT_OK_AND_ASSIGN(auto other, OpenPostgresStore(url_, OpenMode::kExisting, patient));
  ASSERT_OK(frozen->BeginWrite());
  ASSERT_OK(frozen->SetSetting("frozen", "1"));
  const auto start = steady_clock::now();
  ASSERT_OK(other->BeginWrite());  // waits for the server to end the idle write
  const auto waited = steady_clock::now() - start;
  EXPECT_LT(waited, std::chrono::seconds(10));
  ASSERT_OK(other->Commit());
  EXPECT_FALSE(frozen->Commit().ok());
  auto setting = store_->Setting("frozen");
  ASSERT_TRUE(setting.ok()) << setting.status();
  EXPECT_FALSE(setting->has_value()) << "nothing of the ended write is kept";
}

TEST_F(PostgresStoreTest, ReaderSeesOnlyCommittedData) {
  ASSERT_OK_AND_ASSIGN(auto reader, OpenPostgresStore(url_, OpenMode::kExisting));
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t id, store_->AddGame(MakeGame(1, "a", "b", "2026-01-01", 1)));
  ASSERT_OK(store_->SetSetting("depth", "12"));
  EXPECT_EQ(reader->CountGames({}).value_or(-1), 0);
  EXPECT_TRUE(reader->GamesById({id}).value().empty());
  EXPECT_EQ(reader->Setting("depth").value(), std::nullopt);
  // The writer sees its own writes.
  EXPECT_EQ(store_->CountGames({}).value_or(-1), 1);
  ASSERT_OK(store_->Commit());
  EXPECT_EQ(reader->CountGames({}).value_or(-1), 1);
  EXPECT_EQ(reader->Setting("depth").value(), "12");
}

TEST_F(PostgresStoreTest, RollbackDiscardsEverything) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_TRUE(store_->AddGame(MakeGame(1, "a", "b", "2026-01-01", 1)).ok());
  ASSERT_OK(store_->SetSetting("depth", "12"));
  ASSERT_TRUE(store_->RulesetId("digest", "finkel").ok());
  ASSERT_OK_AND_ASSIGN(const int64_t run, store_->NewRun());
  ASSERT_OK(store_->AddPostings(run, {{1, 1, "block"}}));
  ASSERT_OK(store_->AddExplorer({{1, 2, 3, 4, 5, 1, 1, 0, 90.0, 1}}));
  ASSERT_OK(store_->ReplaceRatings({{"a", "2026-01", 1500, 350, 0.06, 1}}));
  ASSERT_OK(store_->AddSource(1, {"/a.rgn", 0}));
  ASSERT_OK(store_->Rollback());
  EXPECT_EQ(store_->SourceGame({"/a.rgn", 0}).value(), std::nullopt);
  EXPECT_EQ(store_->CountGames({}).value_or(-1), 0);
  EXPECT_EQ(store_->Setting("depth").value(), std::nullopt);
  EXPECT_TRUE(store_->Rulesets().value().empty());
  EXPECT_TRUE(store_->Runs().value().empty());
  EXPECT_TRUE(store_->Explorer(1, 2).value().empty());
  EXPECT_TRUE(store_->Ratings("a").value().empty());
}

TEST_F(PostgresStoreTest, RollbackAfterAFailedStatementAndCommitOfOneRefused) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t run, store_->NewRun());
  ASSERT_TRUE(store_->AddGame(MakeGame(1, "a", "b", "", 1)).ok());
  // The same (ruleset, bucket, run) twice breaks the unique key.
  const absl::Status failed = store_->AddPostings(run, {{1, 1, "x"}, {1, 1, "y"}});
  EXPECT_EQ(failed.code(), absl::StatusCode::kInternal) << failed;
  EXPECT_NE(failed.message().find(store_->Name()), std::string::npos) << failed;
  // Later calls of the failed write fail; Rollback ends it.
  EXPECT_FALSE(store_->AddGame(MakeGame(1, "c", "d", "", 1)).ok());
  EXPECT_OK(store_->Rollback());
  EXPECT_OK(store_->Rollback());  // twice is harmless
  EXPECT_EQ(store_->CountGames({}).value_or(-1), 0);

  // Commit of a failed write writes nothing and says so.
  ASSERT_OK(store_->BeginWrite());
  ASSERT_TRUE(store_->AddGame(MakeGame(1, "a", "b", "", 1)).ok());
  EXPECT_FALSE(store_->AddPostings(run, {{1, 1, "x"}, {1, 1, "y"}}).ok());
  const absl::Status commit = store_->Commit();
  EXPECT_EQ(commit.code(), absl::StatusCode::kAborted) << commit;
  EXPECT_EQ(store_->CountGames({}).value_or(-1), 0);
  // And the store writes again afterwards.
  ASSERT_OK(store_->BeginWrite());
  ASSERT_TRUE(store_->AddGame(MakeGame(1, "a", "b", "", 1)).ok());
  ASSERT_OK(store_->Commit());
  EXPECT_EQ(store_->CountGames({}).value_or(-1), 1);
}

TEST_F(PostgresStoreTest, WriteCallsOutOfOrderAreRefused) {
  EXPECT_EQ(store_->Commit().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_OK(store_->Rollback());
  ASSERT_OK(store_->BeginWrite());
  EXPECT_EQ(store_->BeginWrite().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_OK(store_->Commit());
}

// ---------------------------------------------------------------------------
// A server that goes away.

TEST(PostgresServerGoneTest, ServerKilledMidCallIsUnavailableThenTheStoreReconnects) {
  ASSERT_OK_AND_ASSIGN(auto server, PostgresServer::Start());
  ASSERT_OK_AND_ASSIGN(const std::string url, server->NewDatabase());
  ASSERT_OK_AND_ASSIGN(auto store, OpenPostgresStore(url, OpenMode::kCreate));
  ASSERT_OK(store->BeginWrite());
  for (int i = 0; i < 2500; ++i) ASSERT_TRUE(store->AddGame(MakeGame(1, "a", "b", "", 1)).ok());
  ASSERT_OK(store->Commit());

  // Killed during a scan: the next fetch finds the connection gone.
  int visited = 0;
  const absl::Status scan = store->ScanGames({}, [&](int64_t) {
    if (visited++ == 0) EXPECT_OK(server->Kill());
    return true;
  });
  EXPECT_EQ(scan.code(), absl::StatusCode::kUnavailable) << scan;
  EXPECT_NE(scan.message().find(store->Name()), std::string::npos) << scan;
  EXPECT_LT(visited, 2500);
  // While it is down every call is UNAVAILABLE, none crashes.
  EXPECT_EQ(store->CountGames({}).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(store->BeginWrite().code(), absl::StatusCode::kUnavailable);
  EXPECT_OK(store->Rollback());

  // Up again: the same store reconnects (its statements prepared anew).
  ASSERT_OK(server->Restart());
  EXPECT_EQ(store->CountGames({}).value_or(-1), 2500);
  EXPECT_EQ(store->GamesWithHash(42).value_or(std::vector<GameRow>()).size(), 2500u);

  // Killed inside a write: the write is lost, not half made.
  ASSERT_OK(store->BeginWrite());
  ASSERT_TRUE(store->AddGame(MakeGame(1, "c", "d", "", 2)).ok());
  ASSERT_OK(server->Kill());
  const auto add = store->AddGame(MakeGame(1, "e", "f", "", 2));
  EXPECT_EQ(add.status().code(), absl::StatusCode::kUnavailable) << add.status();
  // The write's connection broke before COMMIT: surely nothing kept.
  const absl::Status commit = store->Commit();
  EXPECT_EQ(commit.code(), absl::StatusCode::kUnavailable) << commit;
  EXPECT_FALSE(games::IsCommitInDoubt(commit)) << commit;
  EXPECT_OK(store->Rollback());
  ASSERT_OK(server->Restart());
  EXPECT_EQ(store->CountGames({}).value_or(-1), 2500);
}

// A COMMIT whose answer is lost: kept or not, the store cannot know, and
// says so (games::IsCommitInDoubt). (A write whose connection broke
// before its COMMIT is not in doubt: ServerKilledMidCall... .) The proxy breaks the connection at the COMMIT, on either side of
// the server's taking it.
TEST_F(PostgresStoreTest, ACommitWhoseAnswerIsLostIsInDoubtKeptOrNot) {
  ASSERT_OK_AND_ASSIGN(auto proxy, scribe::testing::CutProxy::Start(server_->port()));
  ASSERT_OK_AND_ASSIGN(auto store, OpenPostgresStore(proxy->Through(url_), OpenMode::kExisting));
  using Cut = scribe::testing::CutProxy::Cut;
  for (const Cut cut : {Cut::kAfterTheServerAnswered, Cut::kBeforeTheServerHasIt}) {
    const bool answered = cut == Cut::kAfterTheServerAnswered;
    SCOPED_TRACE(answered ? "the server answered" : "the server never had it");
    const std::string before = Sql1("SELECT count(*) FROM games");
    ASSERT_OK(store->BeginWrite());
    ASSERT_TRUE(store->AddGame(MakeGame(1, "ann", "bob", "2026-01-01", 1)).ok());
    proxy->Arm(cut);
    const int cuts = proxy->cuts();
    const absl::Status commit = store->Commit();
    EXPECT_EQ(proxy->cuts(), cuts + 1);
    EXPECT_EQ(commit.code(), absl::StatusCode::kUnavailable) << commit;
    EXPECT_TRUE(games::IsCommitInDoubt(commit)) << commit;
    EXPECT_NE(commit.message().find("while committing, before the server answered"), std::string::npos) << commit;
    EXPECT_NE(commit.message().find("may or may not be kept"), std::string::npos) << commit;
    EXPECT_NE(commit.message().find(store->Name()), std::string::npos) << commit;
    EXPECT_OK(store->Rollback());
    // Both outcomes happen: that is why the store cannot say which.
    EXPECT_EQ(Sql1("SELECT count(*) FROM games"), std::to_string(std::stoll(before) + (answered ? 1 : 0)));
    // The store reconnects for the next call.
    EXPECT_EQ(store->CountGames({}).value_or(-1), std::stoll(before) + (answered ? 1 : 0));
  }
}

// ---------------------------------------------------------------------------
// Round trips.

TEST_F(PostgresStoreTest, GameRowRoundTripsEveryField) {
  GameRow full;
  full.ruleset = 7;
  full.identity = std::string("\0\x01\xff\x80 binary\0", 13);
  full.identity_hash = 0xfedcba9876543210u;  // above INT64_MAX: stored bit for bit
  full.extra = std::string("[Event \"x\"]\0\n{comment}", 22);
  full.light = "Zoë Ürgüç 🎲";
  full.dark = "'); DROP TABLE games;--";
  full.event = "Über Cup \"2026\"";
  full.date = "2026-03-01";
  full.result = 2;
  full.plies = 123;
  full.figures[0] = ReviewFigures{97.25, 0.0123456789012345, 1834.5};
  GameRow bare;
  bare.ruleset = 8;
  bare.identity = "i";
  bare.identity_hash = 1;
  bare.figures[1] = ReviewFigures{-0.0, 1e-300, 1e300};
  GameRow empty;  // every string empty, no figures

  std::vector<GameRow> games = {full, bare, empty};
  const std::vector<int64_t> ids = Add(games);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_LT(ids[0], ids[1]);
  EXPECT_LT(ids[1], ids[2]);
  for (size_t i = 0; i < games.size(); ++i) games[i].id = ids[i];

  ASSERT_OK_AND_ASSIGN(auto by_id, store_->GamesById(ids));
  ASSERT_EQ(by_id.size(), 3u);
  for (size_t i = 0; i < games.size(); ++i) ExpectSameGame(by_id[i], games[i]);
  ASSERT_OK_AND_ASSIGN(auto by_hash, store_->GamesWithHash(0xfedcba9876543210u));
  ASSERT_EQ(by_hash.size(), 1u);
  ExpectSameGame(by_hash[0], games[0]);
  EXPECT_TRUE(store_->GamesWithHash(0xfedcba9876543211u).value().empty());
}

TEST_F(PostgresStoreTest, GamesByIdKeepsTheOrderAskedAndSkipsMissingIds) {
  const std::vector<int64_t> ids =
      Add({MakeGame(1, "a", "b", "", 1), MakeGame(1, "c", "d", "", 1), MakeGame(1, "e", "f", "", 1)});
  ASSERT_OK_AND_ASSIGN(auto games, store_->GamesById({ids[2], 999999, ids[0], -1, ids[1], ids[2]}));
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(games[0].light, "e");
  EXPECT_EQ(games[1].light, "a");
  EXPECT_EQ(games[2].light, "c");
  EXPECT_EQ(games[3].id, ids[2]);
  EXPECT_TRUE(store_->GamesById({}).value().empty());
  EXPECT_TRUE(store_->GamesById({123456}).value().empty());

  ASSERT_OK(store_->BeginWrite());
  GameRow dated = MakeGame(1, "g", "h", "2026-03-01", 1);
  ASSERT_OK_AND_ASSIGN(const int64_t dated_id, store_->AddGame(dated));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(auto dates, store_->Dates({dated_id, ids[0], 999999}));
  EXPECT_EQ(dates, (std::vector<std::string>{"2026-03-01", "", ""}));
  EXPECT_TRUE(store_->Dates({}).value().empty());
}

TEST_F(PostgresStoreTest, EveryQueryFieldSelects) {
  GameRow e1 = MakeGame(1, "ann", "bob", "2026-01-10", 1);
  e1.event = "Open";
  GameRow e2 = MakeGame(1, "bob", "cat", "2026-02-10", 2);
  e2.event = "Open";
  GameRow e3 = MakeGame(2, "cat", "ann", "2026-03-10", 0);
  GameRow e4 = MakeGame(2, "ann", "dan", "", 1);
  const std::vector<int64_t> id = Add({e1, e2, e3, e4});
  auto q = [](auto set) {
    GameQuery query;
    set(query);
    return query;
  };
  EXPECT_EQ(Find({}), id);
  EXPECT_EQ(Find(q([](GameQuery& x) { x.ruleset = 2; })), (std::vector<int64_t>{id[2], id[3]}));
  EXPECT_EQ(Find(q([](GameQuery& x) { x.player = "ann"; })), (std::vector<int64_t>{id[0], id[2], id[3]}));
  EXPECT_EQ(Find(q([](GameQuery& x) { x.light = "ann"; })), (std::vector<int64_t>{id[0], id[3]}));
  EXPECT_EQ(Find(q([](GameQuery& x) { x.dark = "ann"; })), (std::vector<int64_t>{id[2]}));
  EXPECT_EQ(Find(q([](GameQuery& x) { x.event = "Open"; })), (std::vector<int64_t>{id[0], id[1]}));
  EXPECT_EQ(Find(q([](GameQuery& x) { x.date_from = "2026-02-10"; })), (std::vector<int64_t>{id[1], id[2]}));
  EXPECT_EQ(Find(q([](GameQuery& x) { x.date_to = "2026-02-10"; })), (std::vector<int64_t>{id[0], id[1]}));
  EXPECT_EQ(Find(q([](GameQuery& x) {
              x.date_from = "2026-01-11";
              x.date_to = "2026-03-10";
            })),
            (std::vector<int64_t>{id[1], id[2]}));
  EXPECT_EQ(Find(q([](GameQuery& x) { x.result = 0; })), (std::vector<int64_t>{id[2]}));
  EXPECT_EQ(Find(q([](GameQuery& x) { x.result = 1; })), (std::vector<int64_t>{id[0], id[3]}));
  EXPECT_EQ(Find(q([](GameQuery& x) {
              x.player = "ann";
              x.ruleset = 2;
              x.result = 1;
            })),
            (std::vector<int64_t>{id[3]}));
  EXPECT_TRUE(Find(q([](GameQuery& x) { x.player = "an"; })).empty());  // exact, not a prefix
  EXPECT_TRUE(Find(q([](GameQuery& x) { x.ruleset = 3; })).empty());
}

TEST_F(PostgresStoreTest, OrdersOffsetAndLimit) {
  // Dates out of id order, two on one day, one undated.
  const std::vector<int64_t> id = Add({MakeGame(1, "a", "b", "2026-03-01", 1), MakeGame(1, "a", "b", "", 1),
                                       MakeGame(1, "a", "b", "2026-01-01", 1), MakeGame(1, "a", "b", "2026-03-01", 1),
                                       MakeGame(1, "a", "b", "2025-12-31", 1)});
  GameQuery by_id;
  EXPECT_EQ(Find(by_id), id);
  by_id.descending = true;
  EXPECT_EQ(Find(by_id), (std::vector<int64_t>{id[4], id[3], id[2], id[1], id[0]}));
  GameQuery by_date;
  by_date.order = GameQuery::Order::kDate;
  const std::vector<int64_t> dated = {id[4], id[2], id[0], id[3], id[1]};  // undated last
  EXPECT_EQ(Find(by_date), dated);
  by_date.descending = true;  // the reverse, undated first
  EXPECT_EQ(Find(by_date), std::vector<int64_t>(dated.rbegin(), dated.rend()));
  by_date.descending = false;
  EXPECT_EQ(Find(by_date, 1, 2), (std::vector<int64_t>{id[2], id[0]}));
  EXPECT_EQ(Find(by_date, 3, -1), (std::vector<int64_t>{id[3], id[1]}));
  EXPECT_EQ(Find(by_date, 0, 0), std::vector<int64_t>());
  EXPECT_EQ(Find(by_date, 5, 10), std::vector<int64_t>());
  EXPECT_EQ(Find(by_date, 4, 10), (std::vector<int64_t>{id[1]}));
}

TEST_F(PostgresStoreTest, ScanGamesStreamsInOrderAndStopsEarly) {
  std::vector<GameRow> games;
  for (int i = 0; i < 2345; ++i) {
    games.push_back(MakeGame(1, i % 2 ? "a" : "b", "c", i % 7 ? absl::StrCat("2026-01-", 10 + i % 20) : "", 1));
  }
  Add(games);
  GameQuery query;
  query.order = GameQuery::Order::kDate;
  query.descending = true;
  query.light = "a";
  std::vector<int64_t> scanned;
  ASSERT_OK(store_->ScanGames(query, [&](int64_t id) {
    scanned.push_back(id);
    return true;
  }));
  EXPECT_EQ(scanned.size(), 1172u);
  EXPECT_EQ(scanned, Find(query));
  int seen = 0;
  ASSERT_OK(store_->ScanGames(query, [&](int64_t) { return ++seen < 3; }));
  EXPECT_EQ(seen, 3);
  // A visit may read the store, and the store works after the scans.
  ASSERT_OK(store_->ScanGames({}, [&](int64_t id) {
    EXPECT_EQ(store_->GamesById({id}).value().size(), 1u);
    return id < 3;
  }));
  EXPECT_EQ(store_->CountGames({}).value_or(-1), 2345);
  // Inside a write too.
  ASSERT_OK(store_->BeginWrite());
  seen = 0;
  ASSERT_OK(store_->ScanGames({}, [&](int64_t) { return ++seen < 1500; }));
  EXPECT_EQ(seen, 1500);
  ASSERT_OK(store_->Commit());
}

TEST_F(PostgresStoreTest, SourcesAreRecordedOnce) {
  const std::vector<int64_t> id = Add({MakeGame(1, "a", "b", "", 1), MakeGame(1, "c", "d", "", 1)});
  const SourceRow first{"/games/Zoë's games/a.rgn", 0};
  const SourceRow odd{std::string("/games/\xff\0name", 13), 3};
  EXPECT_EQ(store_->SourceGame(first).value(), std::nullopt);
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->AddSource(id[0], first));
  ASSERT_OK(store_->AddSource(id[0], odd));
  ASSERT_OK(store_->AddSource(id[0], {"/games/a.rgn", 1}));
  ASSERT_OK(store_->AddSource(id[1], first));  // already there: nothing changes
  // The write sees its own sources.
  EXPECT_EQ(store_->SourceGame(first).value(), id[0]);
  EXPECT_EQ(store_->Sources(id[0]).value().size(), 3u);
  ASSERT_OK(store_->AddSource(id[1], {"/games/b.rgn", 0}));
  EXPECT_EQ(store_->SourceGame({"/games/b.rgn", 0}).value(), id[1]);
  ASSERT_OK(store_->AddSource(id[0], {"/games/b.rgn", 0}));  // recorded already, in this write
  ASSERT_OK(store_->Commit());
  EXPECT_EQ(store_->SourceGame({"/games/b.rgn", 0}).value(), id[1]);
  EXPECT_EQ(store_->SourceGame(first).value(), id[0]);
  EXPECT_EQ(store_->SourceGame(odd).value(), id[0]);
  EXPECT_EQ(store_->SourceGame({first.file, 1}).value(), std::nullopt);
  ASSERT_OK_AND_ASSIGN(auto sources, store_->Sources(id[0]));
  ASSERT_EQ(sources.size(), 3u);
  // By file (byte order), then index.
  EXPECT_EQ(sources[0].file, "/games/Zoë's games/a.rgn");
  EXPECT_EQ(sources[1].file, "/games/a.rgn");
  EXPECT_EQ(sources[1].index, 1);
  EXPECT_EQ(sources[2].file, odd.file);
  EXPECT_EQ(sources[2].index, 3);
  ASSERT_OK_AND_ASSIGN(auto other, store_->Sources(id[1]));
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].file, "/games/b.rgn");
}

std::string Block(size_t size, int seed) {
  std::string block(size, '\0');
  for (size_t i = 0; i < size; ++i) block[i] = static_cast<char>((i * 131 + seed * 7) % 256);
  return block;
}

TEST_F(PostgresStoreTest, RunsPostingsPagingAndDelete) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t r1, store_->NewRun());
  ASSERT_OK_AND_ASSIGN(const int64_t r2, store_->NewRun());
  ASSERT_OK_AND_ASSIGN(const int64_t r3, store_->NewRun());
  EXPECT_LT(r1, r2);
  EXPECT_LT(r2, r3);
  ASSERT_OK(store_->AddPostings(r1, {{2, 5, Block(30000, 1)}, {1, 9, Block(1, 2)}, {1, -3, Block(1000, 3)},
                                     {1, INT64_MIN, std::string()}}));
  ASSERT_OK(store_->AddPostings(r2, {{2, 5, Block(2000, 4)}}));
  ASSERT_OK(store_->AddPostings(r3, {}));
  ASSERT_OK(store_->Commit());

  ASSERT_OK_AND_ASSIGN(auto runs, store_->Runs());
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].run, r1);
  EXPECT_EQ(runs[0].bytes, 31001);
  EXPECT_EQ(runs[1].bytes, 2000);
  EXPECT_EQ(runs[2].bytes, 0);  // a run without blocks is still a run
  using Blocks = std::vector<games::RunBlock>;
  EXPECT_EQ(store_->Postings(2, 5, {}).value(), (Blocks{{r1, Block(30000, 1)}, {r2, Block(2000, 4)}}));
  EXPECT_EQ(store_->Postings(2, 5, {r1}).value(), (Blocks{{r2, Block(2000, 4)}}));
  EXPECT_EQ(store_->Postings(1, 9, {}).value(), (Blocks{{r1, Block(1, 2)}}));
  EXPECT_TRUE(store_->Postings(9, 9, {}).value().empty());

  // A run a slice at a time, in (ruleset, bucket) order.
  std::vector<std::pair<int64_t, int64_t>> keys;
  std::pair<int64_t, int64_t> after{INT64_MIN, INT64_MIN};
  for (;;) {
    ASSERT_OK_AND_ASSIGN(auto slice, store_->RunPostings(r1, after, 3, {INT64_MIN, INT64_MAX}));
    for (const PostingRow& row : slice) keys.emplace_back(row.ruleset, row.bucket);
    if (slice.size() < 3) break;
    after = {slice.back().ruleset, slice.back().bucket};
  }
  EXPECT_EQ(keys, (std::vector<std::pair<int64_t, int64_t>>{{1, INT64_MIN}, {1, -3}, {1, 9}, {2, 5}}));
  ASSERT_OK_AND_ASSIGN(auto tail, store_->RunPostings(r1, {1, 9}, 10, {INT64_MIN, INT64_MAX}));
  ASSERT_EQ(tail.size(), 1u);
  EXPECT_EQ(tail[0].data, Block(30000, 1));

  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->DeleteRun(r1));
  ASSERT_OK(store_->Commit());
  runs = store_->Runs().value();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].run, r2);
  EXPECT_EQ(store_->Postings(2, 5, {}).value(), (Blocks{{r2, Block(2000, 4)}}));
  EXPECT_TRUE(store_->RunPostings(r1, {INT64_MIN, INT64_MIN}, 10, {INT64_MIN, INT64_MAX}).value().empty());
}

TEST_F(PostgresStoreTest, ExplorerAddsToStoredRows) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->AddExplorer({{1, 100, 2, 3, 5, 1, 1, 0, 90.5, 1},
                                 {1, 100, -1, -1, -1, 1, 0, 1, 0, 0},
                                 {1, 100, 2, 3, 5, 2, 0, 2, 150.25, 2},  // the same key twice in a batch
                                 {1, 101, 2, 3, 5, 1, 1, 0, 80, 1},
                                 {2, 100, 2, 3, 5, 1, 1, 0, 80, 1}}));
  ASSERT_OK(store_->Commit());
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->AddExplorer({{1, 100, 2, 3, 5, 10, 4, 6, 0.25, 1}, {1, 100, 0, -1, -1, 1, 0, 0, 0, 0}}));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(auto rows, store_->Explorer(1, 100));
  ASSERT_EQ(rows.size(), 3u);
  // Ordered by roll, from, to.
  EXPECT_EQ(rows[0].roll, -1);
  EXPECT_EQ(rows[0].from, -1);
  EXPECT_EQ(rows[0].dark_wins, 1);
  EXPECT_EQ(rows[1].roll, 0);
  const ExplorerRow& sum = rows[2];
  EXPECT_EQ(sum.ruleset, 1);
  EXPECT_EQ(sum.key, 100);
  EXPECT_EQ(sum.roll, 2);
  EXPECT_EQ(sum.from, 3);
  EXPECT_EQ(sum.to, 5);
  EXPECT_EQ(sum.games, 13);
  EXPECT_EQ(sum.light_wins, 5);
  EXPECT_EQ(sum.dark_wins, 8);
  EXPECT_EQ(sum.accuracy_sum, 241.0);
  EXPECT_EQ(sum.accuracy_count, 4);
  EXPECT_EQ(store_->Explorer(1, 101).value().size(), 1u);
  EXPECT_EQ(store_->Explorer(2, 100).value().size(), 1u);
  EXPECT_TRUE(store_->Explorer(3, 100).value().empty());
  // Outside a write too (the call is atomic on its own).
  ASSERT_OK(store_->AddExplorer({{1, 101, 2, 3, 5, 1, 1, 0, 20, 1}}));
  EXPECT_EQ(store_->Explorer(1, 101).value()[0].games, 2);
}

TEST_F(PostgresStoreTest, PlayerTotals) {
  GameRow won = MakeGame(1, "ann", "bob", "2026-02-01", 1);
  won.figures[0] = ReviewFigures{90, 0.5, 1600};
  GameRow lost = MakeGame(1, "bob", "ann", "2026-01-15", 1);
  lost.figures[1] = ReviewFigures{70, 1.5, 1400};
  lost.figures[0] = ReviewFigures{10, 10, 10};  // bob's, not ann's
  GameRow unfinished = MakeGame(1, "ann", "cat", "", 0);
  GameRow dark_won = MakeGame(1, "cat", "ann", "2026-03-01", 2);
  Add({won, lost, unfinished, dark_won, MakeGame(1, "bob", "cat", "2027-01-01", 1)});
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->RecomputePlayers());
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(auto t, store_->Player("ann"));
  EXPECT_EQ(t.games, 4);
  EXPECT_EQ(t.wins, 2);
  EXPECT_EQ(t.losses, 1);
  EXPECT_EQ(t.unfinished, 1);
  EXPECT_EQ(t.as_light, 2);
  EXPECT_EQ(t.reviewed, 2);
  EXPECT_EQ(t.accuracy, 80);
  EXPECT_EQ(t.error_rate, 1);
  EXPECT_EQ(t.performance, 1500);
  EXPECT_EQ(t.first_date, "2026-01-15");
  EXPECT_EQ(t.last_date, "2026-03-01");
  ASSERT_OK_AND_ASSIGN(auto none, store_->Player("nobody"));
  EXPECT_EQ(none.games, 0);
  EXPECT_EQ(none.reviewed, 0);
  EXPECT_EQ(none.accuracy, 0);
  EXPECT_EQ(none.first_date, "");
}

TEST_F(PostgresStoreTest, RatingsAreReplaced) {
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->ReplaceRatings({{"ann", "2026-02", 1510.5, 300.25, 0.06, 3},
                                    {"ann", "2026-01", 1500, 350, 0.06, 2},
                                    {"bob", "2026-01", 1490, 340, 0.059999, 1}}));
  ASSERT_OK(store_->Commit());
  ASSERT_OK_AND_ASSIGN(auto ann, store_->Ratings("ann"));
  ASSERT_EQ(ann.size(), 2u);
  EXPECT_EQ(ann[0].period, "2026-01");
  EXPECT_EQ(ann[1].period, "2026-02");
  EXPECT_EQ(ann[1].player, "ann");
  EXPECT_EQ(ann[1].rating, 1510.5);
  EXPECT_EQ(ann[1].deviation, 300.25);
  EXPECT_EQ(ann[1].volatility, 0.06);
  EXPECT_EQ(ann[1].games, 3);
  EXPECT_EQ(store_->Ratings("bob").value()[0].volatility, 0.059999);
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->ReplaceRatings({{"cat", "2026-05", 1400, 200, 0.05, 1}}));
  ASSERT_OK(store_->Commit());
  EXPECT_TRUE(store_->Ratings("ann").value().empty());
  EXPECT_EQ(store_->Ratings("cat").value().size(), 1u);
  ASSERT_OK(store_->ReplaceRatings({}));  // outside a write: on its own
  EXPECT_TRUE(store_->Ratings("cat").value().empty());
}

TEST_F(PostgresStoreTest, SettingsAndRulesets) {
  EXPECT_EQ(store_->Setting("depth").value(), std::nullopt);
  ASSERT_OK(store_->BeginWrite());
  ASSERT_OK(store_->SetSetting("depth", "12"));
  ASSERT_OK(store_->SetSetting("depth", "16"));
  ASSERT_OK(store_->SetSetting("blob", std::string("\0\xff", 2)));
  ASSERT_OK(store_->SetSetting("empty", ""));
  ASSERT_OK_AND_ASSIGN(const int64_t finkel, store_->RulesetId(std::string("\x01\0digest", 8), "finkel"));
  ASSERT_OK_AND_ASSIGN(const int64_t masters, store_->RulesetId("other", "masters"));
  EXPECT_EQ(store_->RulesetId(std::string("\x01\0digest", 8), "another name").value(), finkel);
  ASSERT_OK(store_->Commit());
  EXPECT_EQ(store_->Setting("depth").value(), "16");
  EXPECT_EQ(store_->Setting("blob").value(), std::string("\0\xff", 2));
  EXPECT_EQ(store_->Setting("empty").value(), "");
  ASSERT_OK_AND_ASSIGN(auto rulesets, store_->Rulesets());
  ASSERT_EQ(rulesets.size(), 2u);
  EXPECT_EQ(rulesets[0].id, finkel);
  EXPECT_EQ(rulesets[0].digest, std::string("\x01\0digest", 8));
  EXPECT_EQ(rulesets[0].reference, "finkel");  // the first name stays
  EXPECT_EQ(rulesets[1].id, masters);
}

// Finished, dated games with both players named (games/store.h): the
// undated, the unfinished and the unnamed are not results to rate.
TEST_F(PostgresStoreTest, ScanResultsGivesFinishedDatedNamedGamesInDateOrder) {
  Add({MakeGame(1, "a", "b", "2026-03-01", 1), MakeGame(1, "c", "d", "", 2), MakeGame(1, "e", "f", "2026-01-01", 2),
       MakeGame(1, "g", "h", "2026-02-01", 0), MakeGame(1, "", "h", "2026-02-02", 1)});
  std::vector<std::string> seen;
  ASSERT_OK(store_->ScanResults([&](const std::string& date, const std::string& light, const std::string& dark,
                                    int result) {
    seen.push_back(absl::StrCat(date, " ", light, " ", dark, " ", result));
    return true;
  }));
  EXPECT_EQ(seen, (std::vector<std::string>{"2026-01-01 e f 2", "2026-03-01 a b 1"}));
  int calls = 0;
  ASSERT_OK(store_->ScanResults([&](const std::string&, const std::string&, const std::string&, int) {
    return ++calls < 1;
  }));
  EXPECT_EQ(calls, 1);
}

TEST_F(PostgresStoreTest, HostileStringsMatchLiterally) {
  std::vector<GameRow> games;
  for (const std::string& s : HostileStrings()) {
    GameRow g = MakeGame(1, s, "x" + s, "2026-01-01", 1);
    g.event = s;
    games.push_back(g);
  }
  const std::vector<int64_t> ids = Add(games);
  ASSERT_OK(store_->BeginWrite());
  std::vector<RatingRow> ratings;
  for (const std::string& s : HostileStrings()) {
    ASSERT_OK(store_->SetSetting(s, s));
    ratings.push_back({s, "2026-01", 1500, 300, 0.06, 1});
    ASSERT_TRUE(store_->RulesetId(s, s).ok());
  }
  ASSERT_OK(store_->ReplaceRatings(ratings));
  ASSERT_OK(store_->RecomputePlayers());
  ASSERT_OK(store_->Commit());
  ASSERT_EQ(Sql1("SELECT count(*) FROM games"), absl::StrCat(HostileStrings().size()));  // the table is there
  for (size_t i = 0; i < HostileStrings().size(); ++i) {
    const std::string& s = HostileStrings()[i];
    SCOPED_TRACE(s);
    GameQuery player, light, dark, event;
    player.player = s;
    light.light = s;
    dark.dark = "x" + s;
    event.event = s;
    for (const GameQuery& query : {player, light, dark, event}) EXPECT_EQ(Find(query), std::vector<int64_t>{ids[i]});
    EXPECT_EQ(store_->Player(s).value().games, 1);
    EXPECT_EQ(store_->Setting(s).value(), s);
    ASSERT_OK_AND_ASSIGN(auto rating, store_->Ratings(s));
    ASSERT_EQ(rating.size(), 1u);
    EXPECT_EQ(rating[0].player, s);
    ASSERT_OK_AND_ASSIGN(auto games_back, store_->GamesById({ids[i]}));
    ASSERT_EQ(games_back.size(), 1u);
    EXPECT_EQ(games_back[0].light, s);
    EXPECT_EQ(games_back[0].event, s);
  }
  EXPECT_EQ(store_->Rulesets().value().size(), HostileStrings().size());
}

// The import path's calls over more sources than are kept back at once:
// each source is found whether it is kept back or written.
TEST_F(PostgresStoreTest, SourcesKeptBackAreFoundAndWritten) {
  constexpr int kGames = 6000;  // past a batch of kept-back sources
  ASSERT_OK(store_->BeginWrite());
  for (int i = 0; i < kGames; ++i) {
    if (i == 3000 || i == 5500) {  // kept back, then written
      ASSERT_EQ(store_->SourceGame({"/games/big.rgn", 0}).value(), 1);
    }
    GameRow g = MakeGame(1, absl::StrCat("p", i % 50), absl::StrCat("p", i % 37), "2026-01-01", 1 + i % 2);
    g.identity = Block(60, i);
    g.identity_hash = static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15u;
    const SourceRow source{"/games/big.rgn", i};
    ASSERT_FALSE(store_->SourceGame(source).value().has_value());
    ASSERT_TRUE(store_->GamesWithHash(g.identity_hash).value().empty());
    ASSERT_OK_AND_ASSIGN(const int64_t id, store_->AddGame(g));
    ASSERT_OK(store_->AddSource(id, source));
  }
  ASSERT_OK(store_->Commit());
  EXPECT_EQ(store_->CountGames({}).value_or(-1), kGames);
}

}  // namespace
}  // namespace scribe::storage
