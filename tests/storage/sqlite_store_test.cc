// The SQLite backend alone (the contract is store_contract_test.cc): what
// it does with files that are not its databases, broken, newer or older,
// read-only or full, and with two processes' locks. The odd files are made
// with the SQLite library itself.
#include "storage/sqlite_store.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sqlite3.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "games/store.h"
#include "gtest/gtest.h"
#include "storage/open_store.h"
#include "tests/storage/store_test_util.h"

namespace scribe::storage {
namespace {

using games::GameQuery;
using games::GameRow;
using games::Store;

GameRow MakeGame(const std::string& light, const std::string& dark, int size = 10) {
  GameRow game;
  game.ruleset = 1;
  game.light = light;
  game.dark = dark;
  game.date = "2026-01-01";
  game.result = 1;
  game.identity = light + dark;
  game.extra = std::string(size, 'x');
  return game;
}

// Runs `sql` on the file with the SQLite library, as another program would.
void RunSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  const std::string message = error == nullptr ? "" : error;
  sqlite3_free(error);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << message;
}

int64_t PragmaInt(const std::string& path, const std::string& pragma) {
  sqlite3* db = nullptr;
  sqlite3_stmt* stmt = nullptr;
  int64_t value = -1;
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK &&
      sqlite3_prepare_v2(db, ("PRAGMA " + pragma).c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW) {
    value = sqlite3_column_int64(stmt, 0);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return value;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

bool Mentions(const absl::Status& status, const std::string& text) {
  return std::string(status.message()).find(text) != std::string::npos;
}

// The immutable flag (chattr +i) on a file or folder while it lives: what
// keeps root from writing, where mode bits do not.
class Immutable {
 public:
  explicit Immutable(const std::string& path) : path_(path) { ok_ = Set(true); }
  ~Immutable() {
    if (ok_) Set(false);
  }
  bool ok() const { return ok_; }

 private:
  bool Set(bool on) {
    const int fd = open(path_.c_str(), O_RDONLY);
    if (fd < 0) return false;
    int flags = 0;
    bool done = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
    done = done && ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    close(fd);
    return done;
  }

  std::string path_;
  bool ok_;
};

class SqliteStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "scribe-sqlite-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    folder_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::permissions(folder_, std::filesystem::perms::owner_all, ignored);
    std::filesystem::remove_all(folder_, ignored);
  }

  std::string Path(const std::string& name) const { return (folder_ / name).string(); }

  // A database with a game in it, closed.
  std::string MakeDatabase(const std::string& name, int games = 1, int size = 10) {
    const std::string path = Path(name);
    absl::StatusOr<std::unique_ptr<Store>> store = OpenSqliteStore(path, OpenMode::kCreate);
    EXPECT_TRUE(store.ok()) << store.status();
    if (!store.ok()) return path;
    EXPECT_TRUE((*store)->BeginWrite().ok());
    for (int i = 0; i < games; ++i) {
      EXPECT_TRUE((*store)->AddGame(MakeGame("a" + std::to_string(i), "b", size)).ok());
    }
    EXPECT_TRUE((*store)->Commit().ok());
    return path;
  }

  std::filesystem::path folder_;
};

absl::Status OpenStatus(const std::string& path, OpenMode mode) { return OpenSqliteStore(path, mode).status(); }

// ---- Files that are not (yet) a game database.

// The first test of the file, so that a run of the whole binary opens a
// store before SQLite is used otherwise (ctest runs it alone): opening a
// store turns SQLite's memory statistics off (each allocation took a
// process-wide mutex for them), so SQLite counts no memory in use while
// a store holds its cache.
TEST_F(SqliteStoreTest, OpeningAStoreTurnsSqlitesMemoryStatisticsOff) {
  const std::string path = MakeDatabase("stats.db", 20);
  absl::StatusOr<std::unique_ptr<Store>> store = OpenSqliteStore(path, OpenMode::kExisting);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ((*store)->CountGames(GameQuery{}).value(), 20);
  int current = -1, highest = -1;
  ASSERT_EQ(sqlite3_status(SQLITE_STATUS_MEMORY_USED, &current, &highest, 0), SQLITE_OK);
  EXPECT_EQ(current, 0);
}

TEST_F(SqliteStoreTest, KExistingOnAMissingFileIsNotFoundAndMakesNothing) {
  const std::string path = Path("missing.db");
  const absl::Status status = OpenStatus(path, OpenMode::kExisting);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
  EXPECT_TRUE(Mentions(status, path)) << status;
  EXPECT_TRUE(Mentions(status, "import")) << status;
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(SqliteStoreTest, KCreateInAMissingFolderIsNotFound) {
  const std::string path = Path("no/such/folder.db");
  const absl::Status status = OpenStatus(path, OpenMode::kCreate);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
  EXPECT_TRUE(Mentions(status, path)) << status;
}

TEST_F(SqliteStoreTest, AnEmptyFileIsMadeADatabaseOnlyByKCreate) {
  const std::string path = Path("empty.db");
  WriteFile(path, "");
  EXPECT_EQ(OpenStatus(path, OpenMode::kExisting).code(), absl::StatusCode::kNotFound);
  ASSERT_OK(OpenStatus(path, OpenMode::kCreate));
  EXPECT_EQ(PragmaInt(path, "application_id"), kSqliteApplicationId);
  EXPECT_EQ(PragmaInt(path, "user_version"), SqliteSchemaVersion());
  ASSERT_OK(OpenStatus(path, OpenMode::kExisting));
}

TEST_F(SqliteStoreTest, AnEmptySqliteDatabaseIsMadeAGameDatabaseOnlyByKCreate) {
  const std::string path = Path("blank.db");
  RunSql(path, "CREATE TABLE t(x); DROP TABLE t;");
  ASSERT_GT(std::filesystem::file_size(path), 0u);
  EXPECT_EQ(OpenStatus(path, OpenMode::kExisting).code(), absl::StatusCode::kNotFound);
  ASSERT_OK(OpenStatus(path, OpenMode::kCreate));
  EXPECT_EQ(PragmaInt(path, "user_version"), SqliteSchemaVersion());
}

TEST_F(SqliteStoreTest, ATextFileIsDataLossAndLeftAlone) {
  const std::string path = Path("notes.db");
  std::string text;
  for (int i = 0; i < 200; ++i) text += "this is not a database, it is a line of notes\n";
  WriteFile(path, text);
  for (OpenMode mode : {OpenMode::kExisting, OpenMode::kCreate}) {
    const absl::Status status = OpenStatus(path, mode);
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
    EXPECT_TRUE(Mentions(status, path + " is not a Scribe game database")) << status;
  }
  EXPECT_EQ(ReadFile(path), text);
}

TEST_F(SqliteStoreTest, RandomBytesAreDataLoss) {
  const std::string path = Path("random.db");
  std::mt19937 random(7);
  std::string bytes(16384, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  WriteFile(path, bytes);
  const absl::Status status = OpenStatus(path, OpenMode::kCreate);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_TRUE(Mentions(status, path)) << status;
  EXPECT_EQ(ReadFile(path), bytes);
}

TEST_F(SqliteStoreTest, ATruncatedDatabaseIsDataLoss) {
  const std::string path = MakeDatabase("truncated.db", 200, 2000);
  const auto size = std::filesystem::file_size(path);
  ASSERT_GT(size, 100'000u);
  std::filesystem::resize_file(path, size / 2);
  const absl::Status status = OpenStatus(path, OpenMode::kExisting);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_TRUE(Mentions(status, path + " is not a Scribe game database")) << status;
}

TEST_F(SqliteStoreTest, AnotherProgramsDatabaseIsDataLossAndLeftAlone) {
  const std::string tables = Path("other.db");
  RunSql(tables, "CREATE TABLE accounts(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO accounts VALUES (1, 'x');");
  const std::string marked = Path("marked.db");
  RunSql(marked, "PRAGMA application_id = 1234");
  for (const std::string& path : {tables, marked}) {
    const std::string before = ReadFile(path);
    const absl::Status status = OpenStatus(path, OpenMode::kCreate);
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
    EXPECT_TRUE(Mentions(status, path + " is not a Scribe game database")) << status;
    EXPECT_EQ(ReadFile(path), before) << "changed " << path;
  }
}

// ---- Schema versions.

TEST_F(SqliteStoreTest, ANewerSchemaIsRefused) {
  const std::string path = MakeDatabase("newer.db");
  RunSql(path, "PRAGMA user_version = 7");
  const absl::Status status = OpenStatus(path, OpenMode::kExisting);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;
  EXPECT_TRUE(Mentions(status, path)) << status;
  EXPECT_TRUE(Mentions(status, "schema 7")) << status;
  EXPECT_TRUE(Mentions(status, "upgrade Scribe")) << status;
  EXPECT_EQ(PragmaInt(path, "user_version"), 7);
}

// Schema version 0 is the empty schema: a Scribe database at version 0 is
// migrated through every step, in one transaction.
TEST_F(SqliteStoreTest, AnOlderSchemaIsMigrated) {
  const std::string path = Path("older.db");
  RunSql(path, "PRAGMA application_id = " + std::to_string(kSqliteApplicationId) + "; PRAGMA user_version = 0;");
  ASSERT_EQ(PragmaInt(path, "application_id"), kSqliteApplicationId);
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
    ASSERT_OK(store->BeginWrite());
    ASSERT_OK(store->AddGame(MakeGame("a", "b")).status());
    ASSERT_OK(store->Commit());
  }
  EXPECT_EQ(PragmaInt(path, "user_version"), SqliteSchemaVersion());
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
  ASSERT_OK_AND_ASSIGN(int64_t count, store->CountGames(GameQuery{}));
  EXPECT_EQ(count, 1);
}

// A version 1 database (before the players table) with games in it: the
// migration to version 2 makes the table and fills it from the games.
TEST_F(SqliteStoreTest, AVersion1DatabaseGetsItsPlayersTotals) {
  const std::string path = MakeDatabase("v1.db", 3);
  RunSql(path, "DROP TABLE players; DROP INDEX games_by_light_date; DROP INDEX games_by_dark_date; PRAGMA user_version = 1;");
  RunSql(path, "DELETE FROM settings WHERE key = 'identity'");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
  EXPECT_EQ(PragmaInt(path, "user_version"), SqliteSchemaVersion());
  // Its games were stored in identity version 1, and it goes on so.
  EXPECT_EQ(store->Setting("identity").value_or(std::nullopt), std::optional<std::string>("1"));
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals b, store->Player("b"));
  EXPECT_EQ(b.games, 3);
  ASSERT_OK_AND_ASSIGN(games::PlayerTotals a1, store->Player("a1"));
  EXPECT_EQ(a1.games, 1);
  EXPECT_EQ(a1.as_light, 1);
}

// The players' recount sums names in memory up to a bound, past which
// SQL's GROUP BY does it (bounded memory for millions of names): the two
// give every name the same totals.
TEST_F(SqliteStoreTest, ThePlayersRecountPastItsBoundInMemoryGivesTheSameTotals) {
  const std::vector<std::string> names = {"ann", "bob", "cyd", "", "dee", "eve"};
  std::vector<GameRow> games;
  for (int i = 0; i < 60; ++i) {
    GameRow g = MakeGame(names[i % 6], names[(i * 7 + 1) % 6]);
    g.identity += std::to_string(i);
    g.result = i % 3;
    g.date = i % 5 == 0 ? "" : "2026-0" + std::to_string(1 + i % 9) + "-1" + std::to_string(i % 10);
    if (i % 4 == 0) g.figures[0] = games::ReviewFigures{50.0 + i / 7.0, 0.1 * i, 1000.0 + 3 * i};
    if (i % 3 == 0) g.figures[1] = games::ReviewFigures{90.0 - i / 3.0, 0.3, 1500.0 - i};
    games.push_back(std::move(g));
  }
  std::map<std::string, games::PlayerTotals> totals[2];
  for (int bounded = 0; bounded < 2; ++bounded) {
    SqliteOptions options;
    if (bounded == 1) options.players_in_memory = 3;  // past it at the fourth name
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store,
                         OpenSqliteStore(Path("p" + std::to_string(bounded) + ".db"), OpenMode::kCreate, options));
    ASSERT_OK(store->BeginWrite());
    ASSERT_OK(store->AddGames(games).status());
    ASSERT_OK(store->RecomputePlayers());
    ASSERT_OK(store->Commit());
    for (const std::string& name : names) {
      ASSERT_OK_AND_ASSIGN(totals[bounded][name], store->Player(name));
    }
  }
  for (const std::string& name : names) {
    SCOPED_TRACE("player \"" + name + "\"");
    const games::PlayerTotals& a = totals[0][name];
    const games::PlayerTotals& b = totals[1][name];
    EXPECT_GT(a.games, 0);
    EXPECT_EQ(a.games, b.games);
    EXPECT_EQ(a.wins, b.wins);
    EXPECT_EQ(a.losses, b.losses);
    EXPECT_EQ(a.unfinished, b.unfinished);
    EXPECT_EQ(a.as_light, b.as_light);
    EXPECT_EQ(a.reviewed, b.reviewed);
    EXPECT_DOUBLE_EQ(a.accuracy, b.accuracy);
    EXPECT_DOUBLE_EQ(a.error_rate, b.error_rate);
    EXPECT_DOUBLE_EQ(a.performance, b.performance);
    EXPECT_EQ(a.first_date, b.first_date);
    EXPECT_EQ(a.last_date, b.last_date);
  }
}

TEST_F(SqliteStoreTest, ANewDatabaseIsInWalModeWithItsMarks) {
  const std::string path = MakeDatabase("new.db");
  EXPECT_EQ(PragmaInt(path, "application_id"), 0x53637262);
  EXPECT_EQ(PragmaInt(path, "user_version"), 4);
  EXPECT_EQ(ReadFile(path)[18], 2) << "the file format's write version: 2 is WAL";
}

// Version 3 says which form the games' identity bytes have: 2 where no
// game was stored before it, 1 where games were.
TEST_F(SqliteStoreTest, AVersion2DatabaseGetsItsIdentityForm) {
  for (int games : {0, 2}) {
    const std::string path = MakeDatabase(absl::StrCat("v2-", games, ".db"), games);
    RunSql(path, "DELETE FROM settings WHERE key = 'identity'; PRAGMA user_version = 2;");
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
    EXPECT_EQ(PragmaInt(path, "user_version"), SqliteSchemaVersion());
    EXPECT_EQ(store->Setting("identity").value_or(std::nullopt), std::optional<std::string>(games == 0 ? "2" : "1"))
        << games << " games";
  }
}

// Version 4 says from which run on the position index keeps keys apart
// (games/position_index.h): every run in a new database; in an older
// one, the runs made after it (those before are read as they were made).
TEST_F(SqliteStoreTest, AVersion3DatabaseKeepsKeysApartFromItsNextRun) {
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore((folder_ / "new.db").string(), OpenMode::kCreate));
    EXPECT_EQ(store->Setting("index_apart_from").value_or(std::nullopt), std::optional<std::string>("1"));
  }
  const std::string path = MakeDatabase("v3.db", 1);
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
    ASSERT_OK(store->BeginWrite());
    for (int i = 0; i < 3; ++i) ASSERT_OK(store->NewRun().status());
    ASSERT_OK(store->Commit());
  }
  RunSql(path, "DELETE FROM settings WHERE key = 'index_apart_from'; PRAGMA user_version = 3;");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
  EXPECT_EQ(PragmaInt(path, "user_version"), SqliteSchemaVersion());
  EXPECT_EQ(store->Setting("index_apart_from").value_or(std::nullopt), std::optional<std::string>("4"));
  ASSERT_OK(store->BeginWrite());
  ASSERT_OK_AND_ASSIGN(const int64_t next, store->NewRun());
  ASSERT_OK(store->Commit());
  EXPECT_EQ(next, 4);
}

// ---- Read-only files and folders.

TEST_F(SqliteStoreTest, AReadOnlyFileIsPermissionDenied) {
  const std::string path = MakeDatabase("readonly.db");
  ASSERT_EQ(chmod(path.c_str(), 0444), 0);
  std::unique_ptr<Immutable> immutable;
  if (access(path.c_str(), W_OK) == 0) {  // root: the mode bits do not stop it
    immutable = std::make_unique<Immutable>(path);
    if (!immutable->ok()) {
      GTEST_SKIP() << "running as root where chmod does not stop writes, and the immutable flag cannot be set "
                      "here: no way to make a file read-only for this test";
    }
  }
  const absl::Status status = OpenStatus(path, OpenMode::kExisting);
  EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied) << status;
  EXPECT_TRUE(Mentions(status, path)) << status;
}

TEST_F(SqliteStoreTest, AReadOnlyFolderIsPermissionDenied) {
  const std::string existing = MakeDatabase("in_readonly_folder.db");
  ASSERT_EQ(chmod(folder_.c_str(), 0555), 0);
  std::unique_ptr<Immutable> immutable;
  if (access(folder_.c_str(), W_OK) == 0) {
    immutable = std::make_unique<Immutable>(folder_.string());
    if (!immutable->ok()) {
      GTEST_SKIP() << "running as root where chmod does not stop writes, and the immutable flag cannot be set "
                      "here: no way to make a folder read-only for this test";
    }
  }
  const std::string path = Path("new.db");
  absl::Status status = OpenStatus(path, OpenMode::kCreate);
  EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied) << status;
  EXPECT_TRUE(Mentions(status, path)) << status;
  // WAL needs its -wal and -shm files beside the database.
  status = OpenStatus(existing, OpenMode::kExisting);
  EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied) << status;
  EXPECT_TRUE(Mentions(status, existing)) << status;
}

// ---- Locks.

TEST_F(SqliteStoreTest, ASecondWriterGivesUpAfterTheTimeout) {
  const std::string path = MakeDatabase("locked.db");
  SqliteOptions quick;
  quick.busy_timeout_ms = 300;
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> first, OpenSqliteStore(path, OpenMode::kExisting, quick));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> second, OpenSqliteStore(path, OpenMode::kExisting, quick));
  ASSERT_OK(first->BeginWrite());
  ASSERT_OK(first->AddGame(MakeGame("c", "d")).status());
  const auto start = std::chrono::steady_clock::now();
  const absl::Status status = second->BeginWrite();
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_TRUE(Mentions(status, "SQLite database " + path + " is locked by another writer")) << status;
  EXPECT_GE(waited, std::chrono::milliseconds(250));
  // Reading goes on meanwhile, and sees what was committed.
  ASSERT_OK_AND_ASSIGN(int64_t count, second->CountGames(GameQuery{}));
  EXPECT_EQ(count, 1);
  ASSERT_OK(first->Commit());
  ASSERT_OK(second->BeginWrite());
  ASSERT_OK_AND_ASSIGN(count, second->CountGames(GameQuery{}));
  EXPECT_EQ(count, 2);
  ASSERT_OK(second->Rollback());
}

TEST_F(SqliteStoreTest, ASecondWriterWaitsForTheFirstToFinish) {
  const std::string path = MakeDatabase("waits.db");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> first, OpenSqliteStore(path, OpenMode::kExisting));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> second, OpenSqliteStore(path, OpenMode::kExisting));
  ASSERT_OK(first->BeginWrite());
  std::thread finisher([&first] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_TRUE(first->Commit().ok());
  });
  const absl::Status status = second->BeginWrite();
  finisher.join();
  ASSERT_OK(status);
  ASSERT_OK(second->Commit());
}

// ---- A full disk.

TEST_F(SqliteStoreTest, AFullDiskIsResourceExhaustedAndRollsTheWriteBack) {
  const std::string path = MakeDatabase("full.db");
  SqliteOptions small;
  small.max_page_count = 200;  // 800 KiB of 4 KiB pages
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting, small));
  ASSERT_OK(store->BeginWrite());
  absl::Status status;
  for (int i = 0; i < 100 && status.ok(); ++i) status = store->AddGame(MakeGame("big", "game", 50'000)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_TRUE(Mentions(status, "disk full writing " + path)) << status;
  // The write is over: nothing more goes in until it is begun again.
  status = store->AddGame(MakeGame("small", "game")).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kAborted) << status;
  ASSERT_OK(store->Rollback());
  ASSERT_OK_AND_ASSIGN(int64_t count, store->CountGames(GameQuery{}));
  EXPECT_EQ(count, 1);
  ASSERT_OK(store->BeginWrite());
  ASSERT_OK(store->AddGame(MakeGame("small", "game")).status());
  ASSERT_OK(store->Commit());
  ASSERT_OK_AND_ASSIGN(count, store->CountGames(GameQuery{}));
  EXPECT_EQ(count, 2);
}

// ---- How the searches run.

TEST_F(SqliteStoreTest, SearchesByNameOrDateUseAnIndex) {
  const std::string path = MakeDatabase("plans.db");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
  std::vector<GameQuery> queries;
  for (int order = 0; order < 4; ++order) {
    GameQuery base;
    base.order = order & 1 ? GameQuery::Order::kDate : GameQuery::Order::kId;
    base.descending = order & 2;
    GameQuery query = base;
    query.player = "ann";
    queries.push_back(query);
    query.ruleset = 1;
    query.date_from = "2026";
    query.result = 1;
    queries.push_back(query);
    query = base;
    query.light = "ann";
    query.date_to = "2026";
    queries.push_back(query);
    query = base;
    query.dark = "ann";
    query.ruleset = 2;
    queries.push_back(query);
    query = base;
    query.event = "open";
    queries.push_back(query);
    query = base;
    query.date_from = "2026-01-01";
    query.date_to = "2026-02-01";
    query.ruleset = 1;
    queries.push_back(query);
  }
  for (const GameQuery& query : queries) {
    ASSERT_OK_AND_ASSIGN(const std::string plan, SqliteFindGamesPlan(*store, query));
    SCOPED_TRACE(plan);
    EXPECT_EQ(plan.find("SCAN"), std::string::npos);
    EXPECT_NE(plan.find("INDEX games_by_"), std::string::npos);
    if (!query.player.empty()) {
      EXPECT_NE(plan.find("games_by_light"), std::string::npos);
      EXPECT_NE(plan.find("games_by_dark"), std::string::npos);
    }
  }
  // The whole table in date order, a page at a time: the index, no sort.
  GameQuery by_date;
  by_date.order = GameQuery::Order::kDate;
  for (bool descending : {false, true}) {
    by_date.descending = descending;
    ASSERT_OK_AND_ASSIGN(const std::string plan, SqliteFindGamesPlan(*store, by_date));
    EXPECT_NE(plan.find("games_by_date"), std::string::npos) << plan;
    EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos) << plan;
  }
}

// The indexes' names and text in sqlite_schema.
std::vector<std::string> Indexes(const std::string& path) {
  std::vector<std::string> out;
  sqlite3* db = nullptr;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK &&
      sqlite3_prepare_v2(db, "SELECT name, coalesce(sql, '') FROM sqlite_schema WHERE type = 'index' ORDER BY name",
                         -1, &stmt, nullptr) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      out.push_back(absl::StrCat(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), ": ",
                                 reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1))));
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// An import into an empty database drops the search indexes and builds
// them at its end (games/import.h, defer_search_indexes): only those, in
// a write, and built again exactly as a new file has them; without them
// the same searches give the same games.
TEST_F(SqliteStoreTest, TheSearchIndexesDroppedAndBuiltAreANewFilesAndSearchesAnswerTheSameWithout) {
  const std::string path = MakeDatabase("indexes.db", 0);
  const std::vector<std::string> made = Indexes(path);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
  EXPECT_EQ(store->DropSearchIndexes().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store->BuildSearchIndexes().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_OK(store->BeginWrite());
  for (int i = 0; i < 60; ++i) {
    GameRow game = MakeGame(i % 3 ? "ann" : "bo", i % 4 ? "cy" : "ann");
    game.date = i % 5 ? absl::StrCat("2026-0", 1 + i % 9, "-1", i % 7) : "";
    game.event = i % 2 ? "open" : "";
    game.result = i % 3;
    ASSERT_TRUE(store->AddGame(game).ok());
  }
  ASSERT_OK(store->Commit());
  std::vector<GameQuery> queries;
  for (int order = 0; order < 4; ++order) {
    GameQuery query;
    query.order = order & 1 ? GameQuery::Order::kDate : GameQuery::Order::kId;
    query.descending = order & 2;
    queries.push_back(query);
    query.player = "ann";
    queries.push_back(query);
    query.player = "";
    query.dark = "ann";
    query.date_from = "2026-03";
    queries.push_back(query);
    query.dark = "";
    query.event = "open";
    queries.push_back(query);
  }
  std::vector<std::vector<int64_t>> before;
  for (const GameQuery& query : queries) before.push_back(store->FindGames(query, 3, 20).value_or(std::vector<int64_t>()));
  EXPECT_EQ(before[0].size(), 20u);
  EXPECT_EQ(before[1].size(), 20u);

  ASSERT_OK(store->BeginWrite());
  ASSERT_OK(store->DropSearchIndexes());
  ASSERT_OK(store->Commit());
  const std::vector<std::string> dropped = Indexes(path);
  std::vector<std::string> kept;
  for (const std::string& index : made) {
    if (!absl::StrContains(index, "(light") && !absl::StrContains(index, "(dark") &&
        !absl::StrContains(index, "(event") && !absl::StrContains(index, "(date") &&
        !absl::StrContains(index, "(identity_hash")) {
      kept.push_back(index);
    }
  }
  EXPECT_EQ(made.size(), kept.size() + 7);
  EXPECT_EQ(dropped, kept);  // the ruleset's, the sources', the postings' stay
  // The same pages of games; a player's read from the table or an index.
  const auto same_answers = [&](bool scan) {
    for (size_t i = 0; i < queries.size(); ++i) {
      EXPECT_EQ(store->FindGames(queries[i], 3, 20).value_or(std::vector<int64_t>()), before[i]) << i;
    }
    absl::StatusOr<std::string> plan = SqliteFindGamesPlan(*store, queries[1]);
    ASSERT_TRUE(plan.ok()) << plan.status();
    EXPECT_EQ(plan->find("SCAN") != std::string::npos, scan) << *plan;
  };
  same_answers(true);

  ASSERT_OK(store->BeginWrite());
  ASSERT_OK(store->BuildSearchIndexes());
  ASSERT_OK(store->BuildSearchIndexes());  // again: nothing to do
  ASSERT_OK(store->Commit());
  EXPECT_EQ(Indexes(path), made);
  same_answers(false);

  // Dropped in a write that rolls back: still there.
  ASSERT_OK(store->BeginWrite());
  ASSERT_OK(store->DropSearchIndexes());
  ASSERT_OK(store->Rollback());
  EXPECT_EQ(Indexes(path), made);
}

TEST_F(SqliteStoreTest, WithoutItsIndexAWriteFindingAHashBuildsItFirstAndAReadScans) {
  const std::string path = MakeDatabase("hash.db", 0);
  const std::vector<std::string> made = Indexes(path);
  const std::string hash_index = "games_by_hash: CREATE INDEX games_by_hash ON games(identity_hash)";
  const auto has = [](const std::vector<std::string>& indexes, const std::string& index) {
    return std::find(indexes.begin(), indexes.end(), index) != indexes.end();
  };
  ASSERT_TRUE(has(made, hash_index));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
  ASSERT_OK(store->BeginWrite());
  GameRow game = MakeGame("ann", "bo");
  game.identity_hash = 0x8000000000000007u;  // stored as a negative integer
  ASSERT_OK_AND_ASSIGN(const int64_t id, store->AddGame(game));
  ASSERT_OK(store->DropSearchIndexes());
  ASSERT_OK(store->Commit());
  ASSERT_FALSE(has(Indexes(path), hash_index));
  const auto ids = [](const absl::StatusOr<std::vector<GameRow>>& rows) {
    std::vector<int64_t> out;
    if (rows.ok()) {
      for (const GameRow& row : *rows) out.push_back(row.id);
    }
    return out;
  };
  // A read finds it without the index, and builds nothing.
  EXPECT_EQ(ids(store->GamesWithHash(game.identity_hash)), std::vector<int64_t>{id});
  EXPECT_FALSE(has(Indexes(path), hash_index));
  // A write builds the index before it looks, in the write: rolled back
  // with it, kept with it.
  ASSERT_OK(store->BeginWrite());
  EXPECT_EQ(ids(store->GamesWithHashes({1, game.identity_hash})), std::vector<int64_t>{id});
  ASSERT_OK(store->Rollback());
  EXPECT_FALSE(has(Indexes(path), hash_index));
  ASSERT_OK(store->BeginWrite());
  EXPECT_EQ(ids(store->GamesWithHash(game.identity_hash)), std::vector<int64_t>{id});
  EXPECT_EQ(ids(store->GamesWithHash(2)), std::vector<int64_t>{});
  ASSERT_OK(store->Commit());
  EXPECT_TRUE(has(Indexes(path), hash_index));
  EXPECT_EQ(Indexes(path).size(), made.size() - 6);  // the search indexes are still to build
}

TEST_F(SqliteStoreTest, OthersWritesChangesWithAnotherConnectionsCommitOnly) {
  const std::string path = MakeDatabase("others.db", 1);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> mine, OpenSqliteStore(path, OpenMode::kExisting));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> other, OpenSqliteStore(path, OpenMode::kExisting));
  const auto in_write = [](Store& store, bool add) -> int64_t {
    EXPECT_TRUE(store.BeginWrite().ok());
    absl::StatusOr<int64_t> version = store.OthersWrites();
    EXPECT_TRUE(version.ok()) << version.status();
    if (add) EXPECT_TRUE(store.AddGame(MakeGame("cy", "di")).ok());
    EXPECT_TRUE(store.Commit().ok());
    return version.value_or(-1);
  };
  const int64_t first = in_write(*mine, true);
  EXPECT_EQ(in_write(*mine, true), first);  // its own commits change nothing
  EXPECT_EQ(in_write(*mine, false), first);
  in_write(*other, false);  // a write that wrote nothing is not a change
  EXPECT_EQ(in_write(*mine, false), first);
  in_write(*other, true);
  const int64_t after = in_write(*mine, false);
  EXPECT_NE(after, first);
  EXPECT_EQ(in_write(*mine, false), after);
}

TEST_F(SqliteStoreTest, AVisitMayCallTheStoreAgain) {
  const std::string path = MakeDatabase("nested.db", 5);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
  int outer = 0, inner = 0;
  ASSERT_OK(store->ScanGames(GameQuery{}, [&](int64_t id) {
    ++outer;
    EXPECT_TRUE(store->ScanGames(GameQuery{}, [&](int64_t) { return ++inner > 0; }).ok());
    absl::StatusOr<std::vector<GameRow>> games = store->GamesById({id});
    EXPECT_TRUE(games.ok() && games->size() == 1u);
    return true;
  }));
  EXPECT_EQ(outer, 5);
  EXPECT_EQ(inner, 25);
}

TEST_F(SqliteStoreTest, TheStoreIsNamedByItsFile) {
  const std::string path = MakeDatabase("named.db");
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> store, OpenSqliteStore(path, OpenMode::kExisting));
  EXPECT_EQ(store->Name(), "SQLite database " + path);
  ASSERT_OK(store->BeginWrite());
  const absl::Status twice = store->BeginWrite();
  EXPECT_EQ(twice.code(), absl::StatusCode::kFailedPrecondition) << twice;
  EXPECT_TRUE(Mentions(twice, path)) << twice;
  ASSERT_OK(store->Rollback());
}

}  // namespace
}  // namespace scribe::storage
