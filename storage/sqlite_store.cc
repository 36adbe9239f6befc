// The SQLite backend of games/store.h: every statement SQLite runs for
// Scribe is in this file.
//
// One Store owns one connection and caches its prepared statements: it is
// not thread-safe (one thread at a time; open a Store per thread). Several
// processes may share the file: WAL mode lets readers go on while one
// writer (BEGIN IMMEDIATE, waiting up to the busy timeout) writes.
//
// The schema (version 4; PRAGMA application_id 'Scrb', PRAGMA user_version
// the version, Migrations() takes each version to the next; a new file has
// 16 KiB pages, Open says why):
//
//   rulesets(id INTEGER PRIMARY KEY, digest TEXT UNIQUE, reference TEXT)
//   games(id INTEGER PRIMARY KEY, ruleset, identity BLOB,
//         identity_hash INTEGER (the uint64 bit cast to int64), extra BLOB,
//         light, dark, event, date TEXT ("" when the record has none),
//         result, plies, light_accuracy, light_error_rate,
//         light_performance, dark_accuracy, dark_error_rate,
//         dark_performance (REAL; NULL when the side was not reviewed))
//     games_by_hash(identity_hash)      duplicates at import
//     games_by_light(light), games_by_dark(dark), games_by_event(event)
//     games_by_date(date = '', date)    [then id, the rowid]: the kDate
//                                       order (no date last) and date ranges
//     games_by_ruleset(ruleset)         [then id]: one ruleset's games by id
//     No index on result: three values, a filter, never a way in.
//   files(id, path UNIQUE): each source file's path once
//   sources(file (a files id), idx INTEGER, game) PRIMARY KEY (file, idx),
//     sources_by_game(game)
//   runs(run INTEGER PRIMARY KEY)
//   postings(ruleset, bucket, run, data BLOB) UNIQUE (ruleset, bucket, run),
//     postings_by_run(run, ruleset, bucket).
//     A rowid table: 20,000 blocks of 1-30 KB (random bytes, 309 MB) took
//     325 MB this way (5% over the data) and 344 MB (11%) WITHOUT ROWID,
//     whose rows live in index b-tree pages that keep less of a large row
//     before it overflows.
//   explorer(ruleset, key, roll, from_index, to_index, games, light_wins,
//     dark_wins, accuracy_sum, accuracy_count)
//     PRIMARY KEY (ruleset, key, roll, from_index, to_index)
//   settings(key TEXT PRIMARY KEY, value TEXT): the explorer's depth;
//     (version 3) "identity": the form of the games' identity bytes
//     (games/game_codec.h), "2", or "1" where games were stored before
//     version 3 (the same game must be the same bytes in one database);
//     (version 4) "index_apart_from": the first run that keeps each key's
//     postings in its own block or its bucket's, not both
//     (games/position_index.h); "search_indexes": "deferred" while an
//     import into an empty database has the search indexes (by light,
//     dark, event, date, and a player's by date) dropped, to build them
//     at its end (games/import.h), then "built"
//   ratings(player, period, rating, deviation, volatility, games)
//     PRIMARY KEY (player, period)
//     games_by_light_date(light, date = '', date), games_by_dark_date
//                                       (version 2) a player's games by
//                                       date (PlayerQuerySql)
//   players(player PRIMARY KEY, games, wins, losses, unfinished, as_light,
//     reviewed, accuracy, error_rate, performance, first_date, last_date)
//     (version 2): each name's totals (PlayerTotals), recomputed after an
//     import, so a player page reads one row: summing a 100,000-game
//     player's rows of games took 432 ms in a database of 1,000,000.
//
// Choices the contract leaves open, as this backend (and the contract
// suite, tests/storage/store_contract_test.cc) makes them:
//   - AddSource of a (file, index) already recorded is ignored: the first
//     game stays.
//   - A date bound (date_from, date_to) matches only games with a date.
//   - kDate descending is the exact reverse of ascending (no date first).
//   - Sources(game) come in (file, index) order; Dates() gives "" for an
//     id not there.
//   - ScanResults skips games without a date (a rating period needs one).
//   - RunPostings with limit < 0 gives the rest of the run.
//   - ReplaceRatings with two rows of one (player, period) is
//     INVALID_ARGUMENT and changes nothing.
//   - After an error that ended the write transaction (a full disk), the
//     write calls until Rollback or Commit are ABORTED, never autocommitted.
#include "storage/sqlite_store.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "engine/status_macros.h"

namespace scribe::storage {
namespace {

using games::GameQuery;
using games::GameRow;

// Every name's totals over its games (a game whose two sides are one name
// counts once, as light): the players table's rows.
#define SQL_PLAYER_TOTALS                                                                                     \
  "SELECT player, count(*), sum(result = side), sum(result <> 0 AND result <> side), sum(result = 0),"        \
  " sum(side = 1), count(accuracy), avg(accuracy), avg(error_rate), avg(performance),"                        \
  " coalesce(min(nullif(date, '')), ''), coalesce(max(nullif(date, '')), '') FROM"                            \
  " (SELECT light AS player, 1 AS side, result, date, light_accuracy AS accuracy,"                            \
  "   light_error_rate AS error_rate, light_performance AS performance FROM games"                            \
  "  UNION ALL SELECT dark, 2, result, date, dark_accuracy, dark_error_rate, dark_performance FROM games"      \
  "  WHERE dark <> light) GROUP BY player"

// Migrations()[v]: the steps from schema version v to v + 1, run in one
// transaction.
const std::vector<std::vector<const char*>>& Migrations() {
  static const auto* const migrations = new std::vector<std::vector<const char*>>{
      {
          "CREATE TABLE rulesets(id INTEGER PRIMARY KEY, digest TEXT NOT NULL UNIQUE, reference TEXT NOT NULL)",
          "CREATE TABLE games(id INTEGER PRIMARY KEY, ruleset INTEGER NOT NULL, identity BLOB NOT NULL,"
          " identity_hash INTEGER NOT NULL, extra BLOB NOT NULL, light TEXT NOT NULL, dark TEXT NOT NULL,"
          " event TEXT NOT NULL, date TEXT NOT NULL, result INTEGER NOT NULL, plies INTEGER NOT NULL,"
          " light_accuracy REAL, light_error_rate REAL, light_performance REAL,"
          " dark_accuracy REAL, dark_error_rate REAL, dark_performance REAL)",
          "CREATE INDEX games_by_hash ON games(identity_hash)",
          "CREATE INDEX games_by_light ON games(light)",
          "CREATE INDEX games_by_dark ON games(dark)",
          "CREATE INDEX games_by_event ON games(event)",
          "CREATE INDEX games_by_date ON games(date = '', date)",
          "CREATE INDEX games_by_ruleset ON games(ruleset)",
          "CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)",
          "CREATE TABLE sources(file INTEGER NOT NULL, idx INTEGER NOT NULL, game INTEGER NOT NULL,"
          " PRIMARY KEY (file, idx)) WITHOUT ROWID",
          "CREATE INDEX sources_by_game ON sources(game)",
          "CREATE TABLE runs(run INTEGER PRIMARY KEY)",
          "CREATE TABLE postings(ruleset INTEGER NOT NULL, bucket INTEGER NOT NULL, run INTEGER NOT NULL,"
          " data BLOB NOT NULL, UNIQUE (ruleset, bucket, run))",
          "CREATE INDEX postings_by_run ON postings(run, ruleset, bucket)",
          "CREATE TABLE explorer(ruleset INTEGER NOT NULL, key INTEGER NOT NULL, roll INTEGER NOT NULL,"
          " from_index INTEGER NOT NULL, to_index INTEGER NOT NULL, games INTEGER NOT NULL,"
          " light_wins INTEGER NOT NULL, dark_wins INTEGER NOT NULL, accuracy_sum REAL NOT NULL,"
          " accuracy_count INTEGER NOT NULL, PRIMARY KEY (ruleset, key, roll, from_index, to_index)) WITHOUT ROWID",
          "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
          "CREATE TABLE ratings(player TEXT NOT NULL, period TEXT NOT NULL, rating REAL NOT NULL,"
          " deviation REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,"
          " PRIMARY KEY (player, period)) WITHOUT ROWID",
      },
      {
          "CREATE TABLE players(player TEXT PRIMARY KEY, games INTEGER NOT NULL, wins INTEGER NOT NULL,"
          " losses INTEGER NOT NULL, unfinished INTEGER NOT NULL, as_light INTEGER NOT NULL,"
          " reviewed INTEGER NOT NULL, accuracy REAL, error_rate REAL, performance REAL,"
          " first_date TEXT NOT NULL, last_date TEXT NOT NULL) WITHOUT ROWID",
          "INSERT INTO players " SQL_PLAYER_TOTALS,
          "CREATE INDEX games_by_light_date ON games(light, date = '', date)",
          "CREATE INDEX games_by_dark_date ON games(dark, date = '', date)",
      },
      {
          // The identity's form (games/game_codec.h): version 2 in a
          // database without games, else the version 1 its games have.
          "INSERT INTO settings(key, value) SELECT 'identity',"
          " CASE WHEN EXISTS (SELECT 1 FROM games) THEN '1' ELSE '2' END WHERE true"
          " ON CONFLICT (key) DO NOTHING",
      },
      {
          // From which run on each run keeps a key's postings either in
          // the key's own block or in its bucket's, never both
          // (games/position_index.h, kApartSetting): the runs made from
          // now on; in a new database, all.
          "INSERT INTO settings(key, value) SELECT 'index_apart_from', CAST(coalesce(max(run), 0) + 1 AS TEXT)"
          " FROM runs WHERE true ON CONFLICT (key) DO NOTHING",
      },
  };
  return *migrations;
}

#define SQL_GAME_COLUMNS                                                                  \
  "id, ruleset, identity, identity_hash, extra, light, dark, event, date, result, plies," \
  " light_accuracy, light_error_rate, light_performance, dark_accuracy, dark_error_rate, dark_performance"

// A prepared statement in use: bound, stepped, and reset (a cached one) or
// finalized (one of its own) when it goes.
class Statement {
 public:
  Statement(sqlite3_stmt* stmt, bool owned) : stmt_(stmt), owned_(owned) {}
  Statement(Statement&& other) noexcept
      : stmt_(std::exchange(other.stmt_, nullptr)), owned_(other.owned_), bind_rc_(other.bind_rc_) {}
  Statement& operator=(Statement&&) = delete;
  ~Statement() {
    if (stmt_ == nullptr) return;
    if (owned_) {
      sqlite3_finalize(stmt_);
    } else {
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
    }
  }

  // The values must outlive the stepping (SQLITE_STATIC).
  Statement& Int(int i, int64_t value) { return Note(sqlite3_bind_int64(stmt_, i, value)); }
  Statement& Real(int i, double value) { return Note(sqlite3_bind_double(stmt_, i, value)); }
  Statement& Null(int i) { return Note(sqlite3_bind_null(stmt_, i)); }
  Statement& Text(int i, absl::string_view value) {
    return Note(
        sqlite3_bind_text64(stmt_, i, value.empty() ? "" : value.data(), value.size(), SQLITE_STATIC, SQLITE_UTF8));
  }
  Statement& Blob(int i, absl::string_view value) {
    return Note(sqlite3_bind_blob64(stmt_, i, value.empty() ? "" : value.data(), value.size(), SQLITE_STATIC));
  }
  // The index of a named parameter (":player"); 0 when the text has none.
  int Param(const char* name) const { return sqlite3_bind_parameter_index(stmt_, name); }

  // SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return bind_rc_ != SQLITE_OK ? bind_rc_ : sqlite3_step(stmt_); }
  // Ready to step again (bindings kept).
  void Reset() { sqlite3_reset(stmt_); }

  int64_t IntAt(int c) const { return sqlite3_column_int64(stmt_, c); }
  double RealAt(int c) const { return sqlite3_column_double(stmt_, c); }
  bool NullAt(int c) const { return sqlite3_column_type(stmt_, c) == SQLITE_NULL; }
  std::string TextAt(int c) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, c));
    return text == nullptr ? std::string() : std::string(text, sqlite3_column_bytes(stmt_, c));
  }
  std::string BlobAt(int c) const {
    const auto* blob = static_cast<const char*>(sqlite3_column_blob(stmt_, c));
    return blob == nullptr ? std::string() : std::string(blob, sqlite3_column_bytes(stmt_, c));
  }

 private:
  Statement& Note(int rc) {
    if (bind_rc_ == SQLITE_OK) bind_rc_ = rc;
    return *this;
  }

  sqlite3_stmt* stmt_;
  bool owned_;
  int bind_rc_ = SQLITE_OK;
};

// SQLITE_CANTOPEN (the file, or its -wal and -shm beside it) or
// SQLITE_IOERR. The errno SQLite keeps may be of its last try (a missing
// file opened read-only after a refused create), so the folder is asked.
absl::Status CannotOpen(int rc, int system_errno, const std::string& path, const std::string& detail) {
  std::error_code error;
  const std::filesystem::path file(path);
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  if (rc == SQLITE_CANTOPEN && !std::filesystem::is_directory(folder, error)) {
    return absl::NotFoundError(absl::StrCat("cannot open ", path, ": its folder is not there", detail));
  }
  if (system_errno == EACCES || system_errno == EPERM || system_errno == EROFS ||
      (rc == SQLITE_CANTOPEN && access(folder.c_str(), W_OK) != 0)) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot write ", path, ": the file or its folder is read-only", detail));
  }
  if (system_errno == ENOSPC || system_errno == EDQUOT) {
    return absl::ResourceExhaustedError(absl::StrCat("disk full writing ", path, detail));
  }
  return absl::UnavailableError(absl::StrCat("cannot read or write ", path, detail));
}

// The Status for SQLite's `rc` on `path` (`db` may be null), while `doing`.
absl::Status MapError(sqlite3* db, int rc, const std::string& path, absl::string_view doing) {
  const std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  const int system_errno = db != nullptr ? sqlite3_system_errno(db) : 0;
  const std::string detail = absl::StrCat(" (", message, "; ", doing, ")");
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return absl::UnavailableError(
          absl::StrCat("SQLite database ", path, " is busy: another process holds it", detail, "; try again"));
    case SQLITE_FULL:
      return absl::ResourceExhaustedError(absl::StrCat("disk full writing ", path, detail));
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return absl::PermissionDeniedError(
          absl::StrCat("cannot write ", path, ": the file or its folder is read-only", detail));
    case SQLITE_NOTADB:
      return absl::DataLossError(absl::StrCat(path, " is not a Scribe game database", detail));
    case SQLITE_CORRUPT:
      return absl::DataLossError(absl::StrCat(path, " is not a Scribe game database, or is damaged", detail));
    case SQLITE_NOMEM:
      return absl::ResourceExhaustedError(absl::StrCat("out of memory using ", path, detail));
    case SQLITE_CONSTRAINT:
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_MISMATCH:
      return absl::InvalidArgumentError(absl::StrCat(path, " refused the data", detail));
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
      return CannotOpen(rc & 0xff, system_errno, path, detail);
    default:
      return absl::InternalError(absl::StrCat("SQLite database ", path, detail));
  }
}

bool Ends(int rc) { return rc == SQLITE_FULL || rc == SQLITE_IOERR || rc == SQLITE_NOMEM || rc == SQLITE_CORRUPT; }

class SqliteStore final : public games::Store {
 public:
  SqliteStore(sqlite3* db, std::string path, int64_t players_in_memory)
      : db_(db), path_(std::move(path)), players_in_memory_(players_in_memory) {}
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;
  ~SqliteStore() override;

  absl::Status Open(OpenMode mode, const SqliteOptions& options);
  absl::StatusOr<std::string> Plan(const GameQuery& query);

  std::string Name() const override { return "SQLite database " + path_; }
  absl::Status BeginWrite() override;
  absl::Status Commit() override;
  absl::Status Rollback() override;
  absl::Status Reclaim() override;
  bool CanDeferSearchIndexes() const override { return true; }
  absl::Status DropSearchIndexes() override;
  absl::Status BuildSearchIndexes() override;
  absl::StatusOr<std::optional<std::string>> Setting(const std::string& key) override;
  absl::Status SetSetting(const std::string& key, const std::string& value) override;
  absl::StatusOr<int64_t> RulesetId(const std::string& digest, const std::string& reference) override;
  absl::StatusOr<std::vector<games::RulesetRow>> Rulesets() override;
  absl::StatusOr<std::vector<GameRow>> GamesWithHash(uint64_t hash) override;
  absl::StatusOr<int64_t> OthersWrites() override;
  absl::StatusOr<int64_t> AddGame(const GameRow& game) override;
  absl::StatusOr<std::vector<GameRow>> GamesById(const std::vector<int64_t>& ids) override;
  absl::StatusOr<int64_t> CountGames(const GameQuery& query) override;
  absl::StatusOr<std::vector<int64_t>> FindGames(const GameQuery& query, int64_t offset, int64_t limit) override;
  absl::Status ScanGames(const GameQuery& query, const std::function<bool(int64_t id)>& visit) override;
  absl::StatusOr<std::vector<std::string>> Dates(const std::vector<int64_t>& ids) override;
  absl::StatusOr<std::optional<int64_t>> SourceGame(const games::SourceRow& source) override;
  absl::StatusOr<std::vector<std::optional<int64_t>>> SourceGames(
      const std::vector<games::SourceRow>& sources) override;
  absl::Status AddSource(int64_t game, const games::SourceRow& source) override;
  absl::StatusOr<std::vector<games::SourceRow>> Sources(int64_t game) override;
  absl::StatusOr<int64_t> NewRun() override;
  absl::Status AddPostings(int64_t run, const std::vector<games::PostingRow>& rows) override;
  absl::StatusOr<std::vector<games::RunRow>> Runs() override;
  absl::StatusOr<std::vector<games::RunBlock>> Postings(int64_t ruleset, int64_t bucket,
                                                        const std::vector<int64_t>& except_runs) override;
  absl::StatusOr<std::vector<games::RunBlock>> PostingHeads(int64_t ruleset, int64_t bucket, int64_t bytes) override;
  absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> RunBuckets(int64_t run,
                                                                     std::pair<int64_t, int64_t> buckets) override;
  absl::StatusOr<std::vector<games::PostingRow>> RunPostings(int64_t run, std::pair<int64_t, int64_t> after,
                                                             int limit, std::pair<int64_t, int64_t> buckets) override;
  absl::Status DeleteRun(int64_t run) override;
  absl::Status AddExplorer(const std::vector<games::ExplorerRow>& rows) override;
  absl::StatusOr<std::vector<games::ExplorerRow>> Explorer(int64_t ruleset, int64_t key) override;
  absl::StatusOr<games::PlayerTotals> Player(const std::string& name) override;
  absl::Status RecomputePlayers() override;
  absl::Status ReplaceRatings(const std::vector<games::RatingRow>& rows) override;
  absl::StatusOr<std::vector<games::RatingRow>> Ratings(const std::string& player) override;
  absl::Status ScanResults(const std::function<bool(const std::string& date, const std::string& light,
                                                    const std::string& dark, int result)>& visit) override;

 private:
  struct Header {
    int64_t application_id = 0, version = 0, tables = 0;
  };
  enum class QueryKind { kCount, kFind, kScan };

  absl::Status Fail(int rc, absl::string_view doing);
  absl::StatusOr<Statement> Prepare(absl::string_view sql);
  // Steps `statement` to its end (a write, or a read whose rows are not
  // wanted).
  absl::Status Done(Statement& statement, absl::string_view doing);
  absl::Status Run(absl::string_view sql, absl::string_view doing);
  absl::StatusOr<int64_t> QueryInt(absl::string_view sql, absl::string_view doing);
  absl::Status Configure(const SqliteOptions& options);
  absl::StatusOr<Header> ReadHeader();
  absl::Status CheckHeader(const Header& header, OpenMode mode);
  absl::Status Migrate(OpenMode mode);
  absl::Status WriteOk();
  // Runs `sql(name, on)` for each index a first import may defer
  // (kDeferrableIndexes) as one call of the open write.
  absl::Status EachDeferrableIndex(absl::string_view doing,
                                   const std::function<std::string(const char*, const char*)>& sql);
  // The files id of `path`, or none when no source names it.
  absl::StatusOr<std::optional<int64_t>> FileId(const std::string& path, absl::string_view doing);
  template <typename Body>
  absl::Status Atomically(Body&& body);
  template <typename Body>
  auto InSnapshot(absl::string_view doing, Body&& body) -> decltype(body());
  absl::StatusOr<Statement> PrepareQuery(const GameQuery& query, QueryKind kind, absl::string_view prefix = "");
  static GameRow ReadGame(const Statement& statement);

  sqlite3* db_;
  std::string path_;
  int64_t players_in_memory_;  // SqliteOptions::players_in_memory
  absl::flat_hash_map<std::string, sqlite3_stmt*> cache_;
  bool in_write_ = false;
  bool write_failed_ = false;  // a call failed inside the write (Atomically)
  // The file of the write's last source and its files id (0: none), for
  // the next source; forgotten when a write begins (a rolled-back write's
  // row is gone).
  std::string source_file_;
  int64_t source_file_id_ = 0;
  // The identity hash's index is known to exist in this write
  // (GamesWithHash).
  bool hash_index_sure_ = false;
};

SqliteStore::~SqliteStore() {
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);
}

absl::Status SqliteStore::Fail(int rc, absl::string_view doing) {
  absl::Status status = MapError(db_, rc, path_, doing);
  // A call that fails inside a write may have done half its statements:
  // the write is refused from here to Rollback (WriteOk, Commit).
  if (in_write_) write_failed_ = true;
  // After a full disk or an I/O error the transaction cannot go on: end it
  // now (WriteOk then refuses the writes until Rollback or Commit).
  if (Ends(rc & 0xff) && !sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  return status;
}

absl::StatusOr<Statement> SqliteStore::Prepare(absl::string_view sql) {
  auto it = cache_.find(sql);
  // A cached statement still stepping (a visit calling back into the
  // Store) is left alone: this use gets a statement of its own.
  const bool cached = it != cache_.end();
  if (cached && !sqlite3_stmt_busy(it->second)) return Statement(it->second, false);
  sqlite3_stmt* stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    cached ? 0 : SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) return Fail(rc, "preparing a statement");
  if (cached) return Statement(stmt, true);
  cache_.emplace(std::string(sql), stmt);
  return Statement(stmt, false);
}

absl::Status SqliteStore::Done(Statement& statement, absl::string_view doing) {
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) {
  }
  return rc == SQLITE_DONE ? absl::OkStatus() : Fail(rc, doing);
}

absl::Status SqliteStore::Run(absl::string_view sql, absl::string_view doing) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare(sql));
  return Done(statement, doing);
}

absl::StatusOr<int64_t> SqliteStore::QueryInt(absl::string_view sql, absl::string_view doing) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare(sql));
  const int rc = statement.Step();
  if (rc == SQLITE_ROW) return statement.IntAt(0);
  if (rc == SQLITE_DONE) return 0;
  return Fail(rc, doing);
}

// ---- Opening, the schema and its migrations.

absl::Status SqliteStore::Open(OpenMode mode, const SqliteOptions& options) {
  sqlite3_busy_timeout(db_, options.busy_timeout_ms);
  if (sqlite3_db_readonly(db_, "main") == 1) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot write ", path_, ": the file is read-only (Scribe opens a game database to write)"));
  }
  // The header's three figures from one snapshot: another process making
  // the schema commits all of it or none between them.
  SCRIBE_ASSIGN_OR_RETURN(const Header header, InSnapshot("reading its header", [&] { return ReadHeader(); }));
  SCRIBE_RETURN_IF_ERROR(CheckHeader(header, mode));
  // Pages freed by a merge of the index's runs go back to the file system
  // (Reclaim): set on a new file, before its first table (it needs the
  // write lock, which a reader of a database in use must not wait for).
  // Pages of 16 KiB (SQLite's default is 4): the index's blocks (1-300 KB
  // each) are written, merged and freed a page at a time, and with 16 KiB
  // pages a million games import in 45 s rather than 57 (medians of 5;
  // 6-7.6 s of system time rather than 10-11.5), for a file 2.7% larger
  // (985 MB rather than 959; docs/BENCHMARKS.md). Set before auto_vacuum, which
  // fixes the page size of a new file.
  if (header.tables == 0) {
    SCRIBE_RETURN_IF_ERROR(Run("PRAGMA page_size = 16384", "setting it up"));
    SCRIBE_RETURN_IF_ERROR(Run("PRAGMA auto_vacuum = INCREMENTAL", "setting it up"));
  }
  SCRIBE_RETURN_IF_ERROR(Configure(options));
  if (header.version < SqliteSchemaVersion() || header.application_id != kSqliteApplicationId) {
    SCRIBE_RETURN_IF_ERROR(Migrate(mode));
  }
  return absl::OkStatus();
}

absl::StatusOr<SqliteStore::Header> SqliteStore::ReadHeader() {
  Header header;
  SCRIBE_ASSIGN_OR_RETURN(header.application_id, QueryInt("PRAGMA application_id", "reading its header"));
  SCRIBE_ASSIGN_OR_RETURN(header.version, QueryInt("PRAGMA user_version", "reading its header"));
  SCRIBE_ASSIGN_OR_RETURN(header.tables,
                 QueryInt("SELECT count(*) FROM sqlite_schema WHERE type = 'table'", "reading its schema"));
  return header;
}

absl::Status SqliteStore::CheckHeader(const Header& header, OpenMode mode) {
  const bool empty = header.application_id == 0 && header.tables == 0;
  if (empty && mode == OpenMode::kExisting) {
    return absl::NotFoundError(absl::StrCat("no game database at ", path_, " (an empty SQLite file); import games",
                                            " first (scribe db import --db ", path_, " FILE)"));
  }
  if (!empty && header.application_id != kSqliteApplicationId) {
    return absl::DataLossError(absl::StrFormat(
        "%s is not a Scribe game database (a SQLite database of another program: application id 0x%08x, %d table(s))",
        path_, static_cast<uint32_t>(header.application_id), header.tables));
  }
  if (header.version > SqliteSchemaVersion()) {
    return absl::FailedPreconditionError(
        absl::StrFormat("%s was made by a newer Scribe (schema %d, this build reads up to %d); upgrade Scribe", path_,
                        header.version, SqliteSchemaVersion()));
  }
  return absl::OkStatus();
}

absl::Status SqliteStore::Configure(const SqliteOptions& options) {
  // Turning WAL on needs the file to itself, and SQLite answers BUSY at
  // once instead of waiting: retried for the busy timeout (two importers
  // making one database at once).
  SCRIBE_ASSIGN_OR_RETURN(Statement wal, Prepare("PRAGMA journal_mode = WAL"));
  int rc = wal.Step();
  for (int waited_ms = 0; rc == SQLITE_BUSY && waited_ms < options.busy_timeout_ms; waited_ms += 10) {
    wal.Reset();
    sqlite3_sleep(10);
    rc = wal.Step();
  }
  if (rc != SQLITE_ROW) return Fail(rc, "turning on write-ahead logging");
  const std::string journal = wal.TextAt(0);
  if (journal != "wal" && journal != "memory") {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot use write-ahead logging on ", path_, " (journal mode stays ", journal, ")"));
  }
  SCRIBE_RETURN_IF_ERROR(Run("PRAGMA synchronous = NORMAL", "setting it up"));
  // 64 MiB of page cache: an import's indexes stay in memory, bounded.
  SCRIBE_RETURN_IF_ERROR(Run("PRAGMA cache_size = -65536", "setting it up"));
  // The -wal file grows with the largest transaction (an import's batch);
  // after a checkpoint it is cut back to 64 MiB.
  SCRIBE_RETURN_IF_ERROR(Run("PRAGMA journal_size_limit = 67108864", "setting it up"));
  if (options.max_page_count > 0) {
    SCRIBE_RETURN_IF_ERROR(Run(absl::StrCat("PRAGMA max_page_count = ", options.max_page_count), "setting it up"));
  }
  return absl::OkStatus();
}

absl::Status SqliteStore::Migrate(OpenMode mode) {
  SCRIBE_RETURN_IF_ERROR(BeginWrite());
  absl::Status status = [&]() -> absl::Status {
    // Read again under the lock: another process may have made it meanwhile.
    SCRIBE_ASSIGN_OR_RETURN(const Header header, ReadHeader());
    SCRIBE_RETURN_IF_ERROR(CheckHeader(header, mode));
    const auto& migrations = Migrations();
    for (size_t version = header.version; version < migrations.size(); ++version) {
      for (const char* step : migrations[version]) {
        SCRIBE_RETURN_IF_ERROR(Run(step, absl::StrCat("making schema version ", version + 1)));
      }
    }
    SCRIBE_RETURN_IF_ERROR(Run(absl::StrCat("PRAGMA application_id = ", kSqliteApplicationId), "writing its header"));
    return Run(absl::StrCat("PRAGMA user_version = ", SqliteSchemaVersion()), "writing its header");
  }();
  if (!status.ok()) {
    Rollback().IgnoreError();
    return status;
  }
  return Commit();
}

// ---- Transactions.

absl::Status SqliteStore::Reclaim() { return Run("PRAGMA incremental_vacuum", "giving back free pages"); }

// The indexes DropSearchIndexes drops, as Migrations() makes them (the
// same text: a test compares the schema after Drop and Build with a new
// file's). The identity hash's first: GamesWithHash builds it alone.
constexpr std::pair<const char*, const char*> kDeferrableIndexes[] = {
    {"games_by_hash", "games(identity_hash)"},
    {"games_by_light", "games(light)"},
    {"games_by_dark", "games(dark)"},
    {"games_by_event", "games(event)"},
    {"games_by_date", "games(date = '', date)"},
    {"games_by_light_date", "games(light, date = '', date)"},
    {"games_by_dark_date", "games(dark, date = '', date)"},
};

absl::Status SqliteStore::EachDeferrableIndex(absl::string_view doing,
                                              const std::function<std::string(const char*, const char*)>& sql) {
  if (!in_write_) return absl::FailedPreconditionError(absl::StrCat(Name(), ": ", doing, " outside a write"));
  return Atomically([&]() -> absl::Status {
    for (const auto& [name, on] : kDeferrableIndexes) SCRIBE_RETURN_IF_ERROR(Run(sql(name, on), doing));
    return absl::OkStatus();
  });
}

std::string CreateIndexIfMissing(const char* name, const char* on) {
  return absl::StrCat("CREATE INDEX IF NOT EXISTS ", name, " ON ", on);
}

absl::Status SqliteStore::DropSearchIndexes() {
  return EachDeferrableIndex("dropping a search index",
                             [](const char* name, const char*) { return absl::StrCat("DROP INDEX IF EXISTS ", name); });
}

absl::Status SqliteStore::BuildSearchIndexes() {
  return EachDeferrableIndex("building a search index", CreateIndexIfMissing);
}

absl::Status SqliteStore::BeginWrite() {
  if (in_write_) return absl::FailedPreconditionError(absl::StrCat(Name(), ": a write is already open"));
  SCRIBE_ASSIGN_OR_RETURN(Statement begin, Prepare("BEGIN IMMEDIATE"));
  const int rc = begin.Step();
  if ((rc & 0xff) == SQLITE_BUSY) {
    return absl::UnavailableError(
        absl::StrCat("SQLite database ", path_, " is locked by another writer; try again when it finishes"));
  }
  if (rc != SQLITE_DONE) return Fail(rc, "beginning a write");
  in_write_ = true;
  write_failed_ = false;
  source_file_id_ = 0;
  hash_index_sure_ = false;
  return absl::OkStatus();
}

absl::Status SqliteStore::Commit() {
  if (!in_write_) return absl::FailedPreconditionError(absl::StrCat(Name(), ": Commit without BeginWrite"));
  in_write_ = false;
  if (write_failed_ && !sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  if (sqlite3_get_autocommit(db_)) {
    return absl::AbortedError(absl::StrCat(Name(), ": the write was rolled back after an earlier error"));
  }
  absl::Status status = Run("COMMIT", "committing");
  if (!status.ok() && !sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  return status;
}

absl::Status SqliteStore::Rollback() {
  in_write_ = false;
  write_failed_ = false;
  if (sqlite3_get_autocommit(db_)) return absl::OkStatus();
  return Run("ROLLBACK", "rolling back");
}

absl::Status SqliteStore::WriteOk() {
  if (in_write_ && (write_failed_ || sqlite3_get_autocommit(db_))) {
    return absl::AbortedError(
        absl::StrCat(Name(), ": the write was rolled back after an earlier error; roll back and begin again"));
  }
  return absl::OkStatus();
}

// Runs `body`, one call's statements, all or nothing. Inside a write (the
// only place a write call runs), a call that fails poisons the write:
// every later write and the Commit are refused until Rollback, as
// PostgreSQL refuses a transaction after an error, so what half a call did
// is never committed. No savepoint is opened for it: a savepoint makes
// SQLite copy each page a statement changes that the file already had
// (pages reused from merged runs, an index's leaves) into a temporary
// sub-journal first, which at a million games was as many bytes again as
// the database's own writes.
template <typename Body>
absl::Status SqliteStore::Atomically(Body&& body) {
  SCRIBE_RETURN_IF_ERROR(WriteOk());
  if (in_write_) {
    absl::Status status = body();
    if (!status.ok()) write_failed_ = true;
    return status;
  }
  SCRIBE_RETURN_IF_ERROR(Run("SAVEPOINT store_call", "beginning a write"));
  absl::Status status = body();
  if (status.ok()) {
    status = Run("RELEASE store_call", "writing");
    if (status.ok()) return status;
  }
  if (!sqlite3_get_autocommit(db_)) {
    sqlite3_exec(db_, "ROLLBACK TO store_call", nullptr, nullptr, nullptr);
    sqlite3_exec(db_, "RELEASE store_call", nullptr, nullptr, nullptr);
  }
  return status;
}

// Runs `body`, reads of several statements, in one snapshot: a read
// transaction of its own unless one (a write) is open.
template <typename Body>
auto SqliteStore::InSnapshot(absl::string_view doing, Body&& body) -> decltype(body()) {
  if (!sqlite3_get_autocommit(db_)) return body();
  SCRIBE_RETURN_IF_ERROR(Run("BEGIN", doing));
  auto result = body();
  const absl::Status ended = Run(result.ok() ? "COMMIT" : "ROLLBACK", doing);
  if (!result.ok()) return result;
  SCRIBE_RETURN_IF_ERROR(ended);
  return result;
}

// ---- Settings and rulesets.

absl::StatusOr<std::optional<std::string>> SqliteStore::Setting(const std::string& key) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("SELECT value FROM settings WHERE key = ?1"));
  statement.Text(1, key);
  const int rc = statement.Step();
  if (rc == SQLITE_ROW) return std::optional<std::string>(statement.TextAt(0));
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  return Fail(rc, "reading a setting");
}

absl::Status SqliteStore::SetSetting(const std::string& key, const std::string& value) {
  SCRIBE_RETURN_IF_ERROR(WriteOk());
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("INSERT INTO settings(key, value) VALUES (?1, ?2)"
                                              " ON CONFLICT (key) DO UPDATE SET value = excluded.value"));
  statement.Text(1, key).Text(2, value);
  return Done(statement, "writing a setting");
}

absl::StatusOr<int64_t> SqliteStore::RulesetId(const std::string& digest, const std::string& reference) {
  {
    SCRIBE_ASSIGN_OR_RETURN(Statement find, Prepare("SELECT id FROM rulesets WHERE digest = ?1"));
    find.Text(1, digest);
    const int rc = find.Step();
    if (rc == SQLITE_ROW) return find.IntAt(0);
    if (rc != SQLITE_DONE) return Fail(rc, "reading the rulesets");
  }
  SCRIBE_RETURN_IF_ERROR(WriteOk());
  SCRIBE_ASSIGN_OR_RETURN(Statement add, Prepare("INSERT INTO rulesets(digest, reference) VALUES (?1, ?2)"));
  add.Text(1, digest).Text(2, reference);
  SCRIBE_RETURN_IF_ERROR(Done(add, "adding a ruleset"));
  return sqlite3_last_insert_rowid(db_);
}

absl::StatusOr<std::vector<games::RulesetRow>> SqliteStore::Rulesets() {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("SELECT id, digest, reference FROM rulesets ORDER BY id"));
  std::vector<games::RulesetRow> rows;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) {
    rows.push_back({statement.IntAt(0), statement.TextAt(1), statement.TextAt(2)});
  }
  if (rc != SQLITE_DONE) return Fail(rc, "reading the rulesets");
  return rows;
}

// ---- Games.

GameRow SqliteStore::ReadGame(const Statement& statement) {
  GameRow game;
  game.id = statement.IntAt(0);
  game.ruleset = statement.IntAt(1);
  game.identity = statement.BlobAt(2);
  game.identity_hash = static_cast<uint64_t>(statement.IntAt(3));
  game.extra = statement.BlobAt(4);
  game.light = statement.TextAt(5);
  game.dark = statement.TextAt(6);
  game.event = statement.TextAt(7);
  game.date = statement.TextAt(8);
  game.result = static_cast<int>(statement.IntAt(9));
  game.plies = static_cast<int>(statement.IntAt(10));
  for (int side = 0; side < 2; ++side) {
    const int column = 11 + 3 * side;
    if (statement.NullAt(column)) continue;
    game.figures[side] =
        games::ReviewFigures{statement.RealAt(column), statement.RealAt(column + 1), statement.RealAt(column + 2)};
  }
  return game;
}

absl::StatusOr<std::vector<GameRow>> SqliteStore::GamesWithHash(uint64_t hash) {
  // In a write, its index first when a first import dropped it (Store::
  // DropSearchIndexes): a writer never reads every game to find one.
  if (in_write_ && !hash_index_sure_) {
    const std::string create = CreateIndexIfMissing(kDeferrableIndexes[0].first, kDeferrableIndexes[0].second);
    SCRIBE_RETURN_IF_ERROR(Atomically([&] { return Run(create, "building the identity hash's index"); }));
    hash_index_sure_ = true;
  }
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                 Prepare("SELECT " SQL_GAME_COLUMNS " FROM games WHERE identity_hash = ?1 ORDER BY id"));
  statement.Int(1, static_cast<int64_t>(hash));
  std::vector<GameRow> rows;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) rows.push_back(ReadGame(statement));
  if (rc != SQLITE_DONE) return Fail(rc, "finding duplicates");
  return rows;
}

absl::StatusOr<int64_t> SqliteStore::OthersWrites() {
  return QueryInt("PRAGMA data_version", "reading its data version");
}

absl::StatusOr<int64_t> SqliteStore::AddGame(const GameRow& game) {
  SCRIBE_RETURN_IF_ERROR(WriteOk());
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                 Prepare("INSERT INTO games(ruleset, identity, identity_hash, extra, light, dark, event, date,"
                         " result, plies, light_accuracy, light_error_rate, light_performance, dark_accuracy,"
                         " dark_error_rate, dark_performance)"
                         " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"));
  statement.Int(1, game.ruleset)
      .Blob(2, game.identity)
      .Int(3, static_cast<int64_t>(game.identity_hash))
      .Blob(4, game.extra)
      .Text(5, game.light)
      .Text(6, game.dark)
      .Text(7, game.event)
      .Text(8, game.date)
      .Int(9, game.result)
      .Int(10, game.plies);
  for (int side = 0; side < 2; ++side) {
    const int param = 11 + 3 * side;
    if (!game.figures[side]) {
      statement.Null(param).Null(param + 1).Null(param + 2);
      continue;
    }
    const games::ReviewFigures& figures = *game.figures[side];
    statement.Real(param, figures.accuracy).Real(param + 1, figures.error_rate).Real(param + 2, figures.performance);
  }
  SCRIBE_RETURN_IF_ERROR(Done(statement, "adding a game"));
  return sqlite3_last_insert_rowid(db_);
}

// A statement per id, all in one read transaction: one snapshot, and one
// lock taken (in autocommit each statement takes and drops its own, two
// fcntl calls and a check of the file: a fifth of the explorer's time at
// ply 4, which reads 864 games, went to them).
absl::StatusOr<std::vector<GameRow>> SqliteStore::GamesById(const std::vector<int64_t>& ids) {
  return InSnapshot("reading games", [&]() -> absl::StatusOr<std::vector<GameRow>> {
    std::vector<GameRow> rows;
    rows.reserve(ids.size());
    for (int64_t id : ids) {
      SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("SELECT " SQL_GAME_COLUMNS " FROM games WHERE id = ?1"));
      statement.Int(1, id);
      const int rc = statement.Step();
      if (rc == SQLITE_ROW) {
        rows.push_back(ReadGame(statement));
      } else if (rc != SQLITE_DONE) {
        return Fail(rc, "reading games");
      }
    }
    return rows;
  });
}

absl::StatusOr<std::vector<std::string>> SqliteStore::Dates(const std::vector<int64_t>& ids) {
  return InSnapshot("reading dates", [&]() -> absl::StatusOr<std::vector<std::string>> {
    std::vector<std::string> dates;
    dates.reserve(ids.size());
    for (int64_t id : ids) {
      SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("SELECT date FROM games WHERE id = ?1"));
      statement.Int(1, id);
      const int rc = statement.Step();
      if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Fail(rc, "reading dates");
      dates.push_back(rc == SQLITE_ROW ? statement.TextAt(0) : std::string());
    }
    return dates;
  });
}

// ---- Searches. The SQL is made of fixed fragments, the values bound.
//
// Which index a search takes is fixed here, not left to SQLite's guess
// (which has no statistics): a name or event when given (the fewest
// games), else the date range, else the ruleset (for the id order). The
// other filters are written with a unary + so that SQLite cannot take
// their index, e.g. a player's games never come from scanning a ruleset's.

// The WHERE clause of a search; `player` is how the player filter reads
// (both sides, or one side of the UNION below).
std::string Filters(const GameQuery& query, absl::string_view player) {
  const bool names = !query.player.empty() || !query.light.empty() || !query.dark.empty() || !query.event.empty();
  const bool dates = !query.date_from.empty() || !query.date_to.empty();
  const bool by_date = query.order == GameQuery::Order::kDate;
  std::string sql = " WHERE 1";
  if (query.ruleset) {
    absl::StrAppend(&sql, names || dates || by_date ? " AND +ruleset = :ruleset" : " AND ruleset = :ruleset");
  }
  if (!query.player.empty()) absl::StrAppend(&sql, " AND ", player);
  if (!query.light.empty()) absl::StrAppend(&sql, " AND light = :light");
  if (!query.dark.empty()) absl::StrAppend(&sql, " AND dark = :dark");
  if (!query.event.empty()) absl::StrAppend(&sql, " AND event = :event");
  const char* date = names ? "+date" : "date";
  if (dates) absl::StrAppend(&sql, " AND (", date, " = '') = 0");
  if (!query.date_from.empty()) absl::StrAppend(&sql, " AND ", date, " >= :date_from");
  if (!query.date_to.empty()) absl::StrAppend(&sql, " AND ", date, " <= :date_to");
  if (query.result) absl::StrAppend(&sql, " AND result = :result");
  return sql;
}

// A player's games in order: the games as light UNION those as dark, each
// side read in order from its index (games_by_light, id order;
// games_by_light_date, date order) and merged, so a page of a player
// with 100,000 games reads a page of each index (an OR of the two sides
// read and sorted every game: 369 ms in a database of 1,000,000).
std::string PlayerQuerySql(const GameQuery& query, bool limited) {
  const char* dir = query.descending ? " DESC" : "";
  const bool by_date = query.order == GameQuery::Order::kDate;
  const char* columns = by_date ? "SELECT id, date = '', date FROM games" : "SELECT id FROM games";
  std::string sql = absl::StrCat(columns, Filters(query, "light = :player"), " UNION ", columns,
                                 Filters(query, "dark = :player"));
  if (by_date) {
    absl::StrAppend(&sql, " ORDER BY 2", dir, ", 3", dir, ", 1", dir);
  } else {
    absl::StrAppend(&sql, " ORDER BY 1", dir);
  }
  if (limited) absl::StrAppend(&sql, " LIMIT :limit OFFSET :offset");
  return sql;
}

std::string QuerySql(const GameQuery& query, absl::string_view select, bool ordered, bool limited) {
  if (ordered && !query.player.empty()) return PlayerQuerySql(query, limited);
  const bool dates = !query.date_from.empty() || !query.date_to.empty();
  const bool by_date = query.order == GameQuery::Order::kDate;
  std::string sql = absl::StrCat(select, " FROM games", Filters(query, "(light = :player OR dark = :player)"));
  if (ordered) {
    const char* dir = query.descending ? " DESC" : "";
    if (!by_date) {
      absl::StrAppend(&sql, " ORDER BY id", dir);
    } else if (dates) {  // every match has a date
      absl::StrAppend(&sql, " ORDER BY date", dir, ", id", dir);
    } else {
      absl::StrAppend(&sql, " ORDER BY date = ''", dir, ", date", dir, ", id", dir);
    }
  }
  if (limited) absl::StrAppend(&sql, " LIMIT :limit OFFSET :offset");
  return sql;
}

absl::StatusOr<Statement> SqliteStore::PrepareQuery(const GameQuery& query, QueryKind kind, absl::string_view prefix) {
  const std::string sql =
      absl::StrCat(prefix, QuerySql(query, kind == QueryKind::kCount ? "SELECT count(*)" : "SELECT id",
                                    kind != QueryKind::kCount, kind == QueryKind::kFind));
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare(sql));
  auto text = [&statement](const char* name, const std::string& value) {
    if (const int i = statement.Param(name); i > 0) statement.Text(i, value);
  };
  if (query.ruleset) statement.Int(statement.Param(":ruleset"), *query.ruleset);
  text(":player", query.player);
  text(":light", query.light);
  text(":dark", query.dark);
  text(":event", query.event);
  text(":date_from", query.date_from);
  text(":date_to", query.date_to);
  if (query.result) statement.Int(statement.Param(":result"), *query.result);
  return statement;
}

absl::StatusOr<int64_t> SqliteStore::CountGames(const GameQuery& query) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, PrepareQuery(query, QueryKind::kCount));
  const int rc = statement.Step();
  if (rc != SQLITE_ROW) return Fail(rc, "counting games");
  return statement.IntAt(0);
}

absl::StatusOr<std::vector<int64_t>> SqliteStore::FindGames(const GameQuery& query, int64_t offset, int64_t limit) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, PrepareQuery(query, QueryKind::kFind));
  statement.Int(statement.Param(":limit"), limit < 0 ? -1 : limit);
  statement.Int(statement.Param(":offset"), offset < 0 ? 0 : offset);
  std::vector<int64_t> ids;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) ids.push_back(statement.IntAt(0));
  if (rc != SQLITE_DONE) return Fail(rc, "searching games");
  return ids;
}

absl::Status SqliteStore::ScanGames(const GameQuery& query, const std::function<bool(int64_t id)>& visit) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, PrepareQuery(query, QueryKind::kScan));
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) {
    if (!visit(statement.IntAt(0))) return absl::OkStatus();
  }
  return rc == SQLITE_DONE ? absl::OkStatus() : Fail(rc, "searching games");
}

absl::StatusOr<std::string> SqliteStore::Plan(const GameQuery& query) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, PrepareQuery(query, QueryKind::kFind, "EXPLAIN QUERY PLAN "));
  statement.Int(statement.Param(":limit"), 20);
  statement.Int(statement.Param(":offset"), 0);
  std::string plan;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) absl::StrAppend(&plan, statement.TextAt(3), "\n");
  if (rc != SQLITE_DONE) return Fail(rc, "explaining a search");
  return plan;
}

// ---- Sources.

absl::StatusOr<std::optional<int64_t>> SqliteStore::SourceGame(const games::SourceRow& source) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("SELECT s.game FROM sources s JOIN files f ON f.id = s.file"
                                              " WHERE f.path = ?1 AND s.idx = ?2"));
  statement.Text(1, source.file).Int(2, source.index);
  const int rc = statement.Step();
  if (rc == SQLITE_ROW) return std::optional<int64_t>(statement.IntAt(0));
  if (rc == SQLITE_DONE) return std::optional<int64_t>();
  return Fail(rc, "reading sources");
}

absl::StatusOr<std::optional<int64_t>> SqliteStore::FileId(const std::string& path, absl::string_view doing) {
  SCRIBE_ASSIGN_OR_RETURN(Statement id, Prepare("SELECT id FROM files WHERE path = ?1"));
  id.Text(1, path);
  const int rc = id.Step();
  if (rc == SQLITE_ROW) return std::optional<int64_t>(id.IntAt(0));
  if (rc == SQLITE_DONE) return std::optional<int64_t>();
  return Fail(rc, doing);
}

// A batch's sources, most from one file: each file's id looked up once
// (none: a new file, whose records have no game yet), then each record by
// (file id, index), the sources' key.
absl::StatusOr<std::vector<std::optional<int64_t>>> SqliteStore::SourceGames(
    const std::vector<games::SourceRow>& sources) {
  std::vector<std::optional<int64_t>> games(sources.size());
  const std::string* file = nullptr;
  std::optional<int64_t> file_id;
  for (size_t i = 0; i < sources.size(); ++i) {
    if (file == nullptr || *file != sources[i].file) {
      file = &sources[i].file;
      SCRIBE_ASSIGN_OR_RETURN(file_id, FileId(*file, "reading sources"));
    }
    if (!file_id.has_value()) continue;
    SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("SELECT game FROM sources WHERE file = ?1 AND idx = ?2"));
    statement.Int(1, *file_id).Int(2, sources[i].index);
    const int rc = statement.Step();
    if (rc == SQLITE_ROW) games[i] = statement.IntAt(0);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return Fail(rc, "reading sources");
  }
  return games;
}

absl::Status SqliteStore::AddSource(int64_t game, const games::SourceRow& source) {
  SCRIBE_RETURN_IF_ERROR(WriteOk());
  // Each file's path once (files), its sources by the path's id: the id
  // is read first (an INSERT ... SELECT would make SQLite keep a statement
  // journal for each source, a temporary file's writes a game), and kept
  // for the write's next source of the same file.
  if (source_file_ != source.file || source_file_id_ == 0) {
    source_file_id_ = 0;
    SCRIBE_ASSIGN_OR_RETURN(Statement file,
                            Prepare("INSERT INTO files(path) VALUES (?1) ON CONFLICT (path) DO NOTHING"));
    file.Text(1, source.file);
    SCRIBE_RETURN_IF_ERROR(Done(file, "adding a source"));
    SCRIBE_ASSIGN_OR_RETURN(std::optional<int64_t> id, FileId(source.file, "adding a source"));
    if (!id.has_value()) return Fail(SQLITE_INTERNAL, "adding a source");
    source_file_ = source.file;
    source_file_id_ = *id;
  }
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("INSERT INTO sources(file, idx, game) VALUES (?1, ?2, ?3)"
                                              " ON CONFLICT (file, idx) DO NOTHING"));
  statement.Int(1, source_file_id_).Int(2, source.index).Int(3, game);
  return Done(statement, "adding a source");
}

absl::StatusOr<std::vector<games::SourceRow>> SqliteStore::Sources(int64_t game) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("SELECT f.path, s.idx FROM sources s JOIN files f ON f.id = s.file"
                                              " WHERE s.game = ?1 ORDER BY f.path, s.idx"));
  statement.Int(1, game);
  std::vector<games::SourceRow> rows;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) rows.push_back({statement.TextAt(0), statement.IntAt(1)});
  if (rc != SQLITE_DONE) return Fail(rc, "reading sources");
  return rows;
}

// ---- The position index.

absl::StatusOr<int64_t> SqliteStore::NewRun() {
  SCRIBE_RETURN_IF_ERROR(WriteOk());
  SCRIBE_RETURN_IF_ERROR(Run("INSERT INTO runs DEFAULT VALUES", "adding a run"));
  return sqlite3_last_insert_rowid(db_);
}

absl::Status SqliteStore::AddPostings(int64_t run, const std::vector<games::PostingRow>& rows) {
  return Atomically([&]() -> absl::Status {
    for (const games::PostingRow& row : rows) {
      SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                     Prepare("INSERT INTO postings(ruleset, bucket, run, data) VALUES (?1, ?2, ?3, ?4)"));
      statement.Int(1, row.ruleset).Int(2, row.bucket).Int(3, run).Blob(4, row.data);
      SCRIBE_RETURN_IF_ERROR(Done(statement, "adding postings"));
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<games::RunRow>> SqliteStore::Runs() {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement, Prepare("SELECT run, (SELECT coalesce(sum(length(data)), 0) FROM postings"
                                              " WHERE postings.run = runs.run) FROM runs ORDER BY run"));
  std::vector<games::RunRow> rows;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) rows.push_back({statement.IntAt(0), statement.IntAt(1)});
  if (rc != SQLITE_DONE) return Fail(rc, "reading runs");
  return rows;
}

absl::StatusOr<std::vector<games::RunBlock>> SqliteStore::Postings(int64_t ruleset, int64_t bucket,
                                                                   const std::vector<int64_t>& except_runs) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                 Prepare("SELECT run, data FROM postings WHERE ruleset = ?1 AND bucket = ?2 ORDER BY run"));
  statement.Int(1, ruleset).Int(2, bucket);
  std::vector<games::RunBlock> blocks;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) {
    const int64_t run = statement.IntAt(0);
    // A run left out is not read: its data (overflow pages) is loaded
    // only when asked for.
    if (std::find(except_runs.begin(), except_runs.end(), run) != except_runs.end()) continue;
    blocks.push_back({run, statement.BlobAt(1)});
  }
  if (rc != SQLITE_DONE) return Fail(rc, "reading postings");
  return blocks;
}

// Each block's head through SQLite's incremental blob reads, which read
// the pages of those bytes alone (a SELECT of substr() would read the
// whole value and its overflow pages first).
absl::StatusOr<std::vector<games::RunBlock>> SqliteStore::PostingHeads(int64_t ruleset, int64_t bucket,
                                                                       int64_t bytes) {
  // One snapshot for the rows and their blobs (a merge may delete a run
  // between two statements).
  return InSnapshot("reading postings", [&]() -> absl::StatusOr<std::vector<games::RunBlock>> {
    SCRIBE_ASSIGN_OR_RETURN(
        Statement statement,
        Prepare("SELECT rowid, length(data), run FROM postings WHERE ruleset = ?1 AND bucket = ?2 ORDER BY run"));
    statement.Int(1, ruleset).Int(2, bucket);
    struct Row {
      int64_t rowid, length, run;
    };
    std::vector<Row> rows;
    int rc;
    while ((rc = statement.Step()) == SQLITE_ROW) rows.push_back({statement.IntAt(0), statement.IntAt(1), statement.IntAt(2)});
    if (rc != SQLITE_DONE) return Fail(rc, "reading postings");
    statement.Reset();
    std::vector<games::RunBlock> heads;
    for (const Row& row : rows) {
      std::string head(static_cast<size_t>(std::min(row.length, bytes)), '\0');
      if (head.empty()) {  // the runs alone
        heads.push_back({row.run, std::move(head)});
        continue;
      }
      sqlite3_blob* blob = nullptr;
      rc = sqlite3_blob_open(db_, "main", "postings", "data", row.rowid, 0, &blob);
      if (rc != SQLITE_OK) {
        sqlite3_blob_close(blob);
        return Fail(rc, "reading postings");
      }
      rc = sqlite3_blob_read(blob, head.data(), static_cast<int>(head.size()), 0);
      sqlite3_blob_close(blob);
      if (rc != SQLITE_OK) return Fail(rc, "reading postings");
      heads.push_back({row.run, std::move(head)});
    }
    return heads;
  });
}

absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> SqliteStore::RunBuckets(int64_t run,
                                                                                 std::pair<int64_t, int64_t> buckets) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                 Prepare("SELECT ruleset, bucket FROM postings WHERE run = ?1 AND bucket BETWEEN ?2 AND ?3"
                         " ORDER BY ruleset, bucket"));
  statement.Int(1, run).Int(2, buckets.first).Int(3, buckets.second);
  std::vector<std::pair<int64_t, int64_t>> rows;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) rows.emplace_back(statement.IntAt(0), statement.IntAt(1));
  if (rc != SQLITE_DONE) return Fail(rc, "reading a run");
  return rows;
}

absl::StatusOr<std::vector<games::PostingRow>> SqliteStore::RunPostings(int64_t run, std::pair<int64_t, int64_t> after,
                                                                        int limit, std::pair<int64_t, int64_t> buckets) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                 Prepare("SELECT ruleset, bucket, data FROM postings WHERE run = ?1 AND (ruleset, bucket) > (?2, ?3)"
                         " AND bucket BETWEEN ?5 AND ?6 ORDER BY ruleset, bucket LIMIT ?4"));
  statement.Int(1, run).Int(2, after.first).Int(3, after.second).Int(4, limit < 0 ? -1 : limit);
  statement.Int(5, buckets.first).Int(6, buckets.second);
  std::vector<games::PostingRow> rows;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) {
    rows.push_back({statement.IntAt(0), statement.IntAt(1), statement.BlobAt(2)});
  }
  if (rc != SQLITE_DONE) return Fail(rc, "reading a run");
  return rows;
}

absl::Status SqliteStore::DeleteRun(int64_t run) {
  return Atomically([&]() -> absl::Status {
    SCRIBE_ASSIGN_OR_RETURN(Statement postings, Prepare("DELETE FROM postings WHERE run = ?1"));
    postings.Int(1, run);
    SCRIBE_RETURN_IF_ERROR(Done(postings, "deleting a run"));
    SCRIBE_ASSIGN_OR_RETURN(Statement runs, Prepare("DELETE FROM runs WHERE run = ?1"));
    runs.Int(1, run);
    return Done(runs, "deleting a run");
  });
}

// ---- The explorer.

absl::Status SqliteStore::AddExplorer(const std::vector<games::ExplorerRow>& rows) {
  return Atomically([&]() -> absl::Status {
    for (const games::ExplorerRow& row : rows) {
      SCRIBE_ASSIGN_OR_RETURN(
          Statement statement,
          Prepare("INSERT INTO explorer(ruleset, key, roll, from_index, to_index, games, light_wins, dark_wins,"
                  " accuracy_sum, accuracy_count) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
                  " ON CONFLICT (ruleset, key, roll, from_index, to_index) DO UPDATE SET"
                  " games = games + excluded.games, light_wins = light_wins + excluded.light_wins,"
                  " dark_wins = dark_wins + excluded.dark_wins,"
                  " accuracy_sum = accuracy_sum + excluded.accuracy_sum,"
                  " accuracy_count = accuracy_count + excluded.accuracy_count"));
      statement.Int(1, row.ruleset).Int(2, row.key).Int(3, row.roll).Int(4, row.from).Int(5, row.to);
      statement.Int(6, row.games).Int(7, row.light_wins).Int(8, row.dark_wins);
      statement.Real(9, row.accuracy_sum).Int(10, row.accuracy_count);
      SCRIBE_RETURN_IF_ERROR(Done(statement, "adding explorer rows"));
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<games::ExplorerRow>> SqliteStore::Explorer(int64_t ruleset, int64_t key) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                 Prepare("SELECT roll, from_index, to_index, games, light_wins, dark_wins, accuracy_sum,"
                         " accuracy_count FROM explorer WHERE ruleset = ?1 AND key = ?2"
                         " ORDER BY roll, from_index, to_index"));
  statement.Int(1, ruleset).Int(2, key);
  std::vector<games::ExplorerRow> rows;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) {
    games::ExplorerRow row;
    row.ruleset = ruleset;
    row.key = key;
    row.roll = static_cast<int>(statement.IntAt(0));
    row.from = static_cast<int>(statement.IntAt(1));
    row.to = static_cast<int>(statement.IntAt(2));
    row.games = statement.IntAt(3);
    row.light_wins = statement.IntAt(4);
    row.dark_wins = statement.IntAt(5);
    row.accuracy_sum = statement.RealAt(6);
    row.accuracy_count = statement.IntAt(7);
    rows.push_back(row);
  }
  if (rc != SQLITE_DONE) return Fail(rc, "reading the explorer");
  return rows;
}

// ---- Players and ratings.

// A game's side for the player is light when they played light (both
// sides: light), else dark; the figures are that side's.
absl::StatusOr<games::PlayerTotals> SqliteStore::Player(const std::string& name) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                          Prepare("SELECT games, wins, losses, unfinished, as_light, reviewed, accuracy, error_rate,"
                                  " performance, first_date, last_date FROM players WHERE player = ?1"));
  statement.Text(1, name);
  const int rc = statement.Step();
  games::PlayerTotals totals;
  if (rc == SQLITE_DONE) return totals;
  if (rc != SQLITE_ROW) return Fail(rc, "reading a player's totals");
  totals.games = statement.IntAt(0);
  totals.wins = statement.IntAt(1);
  totals.losses = statement.IntAt(2);
  totals.unfinished = statement.IntAt(3);
  totals.as_light = statement.IntAt(4);
  totals.reviewed = statement.IntAt(5);
  totals.accuracy = statement.RealAt(6);
  totals.error_rate = statement.RealAt(7);
  totals.performance = statement.RealAt(8);
  totals.first_date = statement.TextAt(9);
  totals.last_date = statement.TextAt(10);
  return totals;
}

// SQL_PLAYER_TOTALS' totals from one scan of the games, summed here: the
// query's GROUP BY sorted both sides of every game (2.7 s for 1,000,000
// games, where the scan takes 0.5 s). Each game counts once for each
// name, once only for a game against oneself (as light); the means are
// over the reviewed games, NULL when none is; the dates leave out "".
// Past players_in_memory_ names (a site's millions of players), the
// query does it after all: its sorter's memory is bounded.
absl::Status SqliteStore::RecomputePlayers() {
  struct Sums {
    games::PlayerTotals totals;
    double accuracy = 0, error_rate = 0, performance = 0;
  };
  absl::flat_hash_map<std::string, Sums> players;
  bool fits = true;  // the names within players_in_memory_
  {
    SCRIBE_ASSIGN_OR_RETURN(Statement scan,
                            Prepare("SELECT light, dark, result, date, light_accuracy, light_error_rate,"
                                    " light_performance, dark_accuracy, dark_error_rate, dark_performance"
                                    " FROM games"));
    int rc = SQLITE_ROW;
    while (fits && (rc = scan.Step()) == SQLITE_ROW) {
      const std::string light = scan.TextAt(0), dark = scan.TextAt(1), date = scan.TextAt(3);
      const int64_t result = scan.IntAt(2);
      for (int side = 1; side <= 2; ++side) {
        if (side == 2 && dark == light) break;
        auto [it, added] = players.try_emplace(side == 1 ? light : dark);
        if (added && static_cast<int64_t>(players.size()) > players_in_memory_) {
          fits = false;
          break;
        }
        Sums& sums = it->second;
        games::PlayerTotals& t = sums.totals;
        ++t.games;
        t.wins += result == side;
        t.losses += result != 0 && result != side;
        t.unfinished += result == 0;
        t.as_light += side == 1;
        const int figures = side == 1 ? 4 : 7;
        if (!scan.NullAt(figures)) {
          ++t.reviewed;
          sums.accuracy += scan.RealAt(figures);
          sums.error_rate += scan.RealAt(figures + 1);
          sums.performance += scan.RealAt(figures + 2);
        }
        if (!date.empty()) {
          if (t.first_date.empty() || date < t.first_date) t.first_date = date;
          if (date > t.last_date) t.last_date = date;
        }
      }
    }
    if (fits && rc != SQLITE_DONE) return Fail(rc, "recomputing the players' totals");
  }
  if (!fits) players.clear();
  return Atomically([&]() -> absl::Status {
    SCRIBE_RETURN_IF_ERROR(Run("DELETE FROM players", "recomputing the players' totals"));
    if (!fits) return Run("INSERT INTO players " SQL_PLAYER_TOTALS, "recomputing the players' totals");
    for (const auto& [player, sums] : players) {
      const games::PlayerTotals& t = sums.totals;
      SCRIBE_ASSIGN_OR_RETURN(Statement insert,
                              Prepare("INSERT INTO players(player, games, wins, losses, unfinished, as_light,"
                                      " reviewed, accuracy, error_rate, performance, first_date, last_date)"
                                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"));
      insert.Text(1, player).Int(2, t.games).Int(3, t.wins).Int(4, t.losses).Int(5, t.unfinished);
      insert.Int(6, t.as_light).Int(7, t.reviewed);
      if (t.reviewed == 0) {
        insert.Null(8).Null(9).Null(10);
      } else {
        const double n = static_cast<double>(t.reviewed);
        insert.Real(8, sums.accuracy / n).Real(9, sums.error_rate / n).Real(10, sums.performance / n);
      }
      insert.Text(11, t.first_date).Text(12, t.last_date);
      SCRIBE_RETURN_IF_ERROR(Done(insert, "recomputing the players' totals"));
    }
    return absl::OkStatus();
  });
}

absl::Status SqliteStore::ReplaceRatings(const std::vector<games::RatingRow>& rows) {
  return Atomically([&]() -> absl::Status {
    SCRIBE_RETURN_IF_ERROR(Run("DELETE FROM ratings", "replacing the ratings"));
    for (const games::RatingRow& row : rows) {
      SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                     Prepare("INSERT INTO ratings(player, period, rating, deviation, volatility, games)"
                             " VALUES (?1, ?2, ?3, ?4, ?5, ?6)"));
      statement.Text(1, row.player).Text(2, row.period).Real(3, row.rating).Real(4, row.deviation);
      statement.Real(5, row.volatility).Int(6, row.games);
      SCRIBE_RETURN_IF_ERROR(Done(statement, "replacing the ratings"));
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<games::RatingRow>> SqliteStore::Ratings(const std::string& player) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                 Prepare("SELECT period, rating, deviation, volatility, games FROM ratings WHERE player = ?1"
                         " ORDER BY period"));
  statement.Text(1, player);
  std::vector<games::RatingRow> rows;
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) {
    rows.push_back({player, statement.TextAt(0), statement.RealAt(1), statement.RealAt(2), statement.RealAt(3),
                    statement.IntAt(4)});
  }
  if (rc != SQLITE_DONE) return Fail(rc, "reading ratings");
  return rows;
}

absl::Status SqliteStore::ScanResults(const std::function<bool(const std::string& date, const std::string& light,
                                                               const std::string& dark, int result)>& visit) {
  SCRIBE_ASSIGN_OR_RETURN(Statement statement,
                 Prepare("SELECT date, light, dark, result FROM games WHERE (date = '') = 0 AND result IN (1, 2)"
                         " AND light <> '' AND dark <> '' ORDER BY date, id"));
  int rc;
  while ((rc = statement.Step()) == SQLITE_ROW) {
    if (!visit(statement.TextAt(0), statement.TextAt(1), statement.TextAt(2), static_cast<int>(statement.IntAt(3)))) {
      return absl::OkStatus();
    }
  }
  return rc == SQLITE_DONE ? absl::OkStatus() : Fail(rc, "reading results");
}

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

}  // namespace

absl::StatusOr<std::unique_ptr<games::Store>> OpenSqliteStore(const std::string& path, OpenMode mode,
                                                              const SqliteOptions& options) {
  if (path.empty()) return absl::InvalidArgumentError("no SQLite database file given");
  struct stat info;
  const bool missing = stat(path.c_str(), &info) != 0 || info.st_size == 0;
  if (mode == OpenMode::kExisting && missing) {
    return absl::NotFoundError(
        absl::StrCat("no game database at ", path, "; import games first (scribe db import --db ", path, " FILE)"));
  }
  // SQLite's memory statistics off (nothing here reads them): kept on, each
  // of its allocations takes a process-wide mutex. Set before the library's
  // first use; if it was used already, the call is refused and changes
  // nothing.
  static const int configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  (void)configured;
  sqlite3* raw = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE |
                    (mode == OpenMode::kCreate ? SQLITE_OPEN_CREATE : 0);
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  std::unique_ptr<sqlite3, CloseDb> db(raw);
  if (rc != SQLITE_OK) return MapError(raw, rc, path, "opening it");
  auto store = std::make_unique<SqliteStore>(db.release(), path, options.players_in_memory);
  SCRIBE_RETURN_IF_ERROR(store->Open(mode, options));
  return store;
}

int SqliteSchemaVersion() { return static_cast<int>(Migrations().size()); }

absl::StatusOr<std::unique_ptr<games::Store>> OpenSqliteStore(const std::string& path, OpenMode mode) {
  return OpenSqliteStore(path, mode, SqliteOptions());
}

absl::StatusOr<std::string> SqliteFindGamesPlan(games::Store& store, const games::GameQuery& query) {
  auto* sqlite = dynamic_cast<SqliteStore*>(&store);
  if (sqlite == nullptr) return absl::InvalidArgumentError(store.Name() + " is not a SQLite database");
  return sqlite->Plan(query);
}

#undef SQL_GAME_COLUMNS

}  // namespace scribe::storage
