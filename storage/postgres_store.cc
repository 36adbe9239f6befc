// games::Store on a PostgreSQL server through libpq: every statement of the
// backend is in this file. Values are always bound parameters (binary for
// numbers and bytes), the statements of the import path are prepared once
// per connection, blocks of postings and explorer rows go in by COPY
// BINARY, and reads that may match many games stream through a cursor.
#include "storage/postgres_store.h"

#include <endian.h>
#include <libpq-fe.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "engine/status_macros.h"

namespace scribe::storage {
namespace {

using games::ExplorerRow;
using games::GameQuery;
using games::GameRow;
using games::PlayerTotals;
using games::PostingRow;
using games::RatingRow;
using games::ReviewFigures;
using games::RulesetRow;
using games::RunBlock;
using games::RunRow;
using games::SourceRow;

// The OIDs of the built-in types bound here (catalog/pg_type_d.h is a
// server header; these never change).
constexpr Oid kBoolOid = 16, kByteaOid = 17, kInt8Oid = 20, kInt4Oid = 23, kTextOid = 25, kFloat8Oid = 701,
              kInt8ArrayOid = 1016;

// Advisory lock keys ("ScribeWR", "ScribeSC"): one writer at a time, one
// creator or migrator of the schema at a time.
constexpr int64_t kWriterLock = 0x5363726962655752;
constexpr int64_t kSchemaLock = 0x5363726962655343;

// Rows a cursor fetches at a time.
constexpr int kFetchRows = 1000;

// ---------------------------------------------------------------------------
// The schema, as the steps that make each version from the one before.

#define PG_C_TEXT "text COLLATE \"C\" NOT NULL"
constexpr const char* kVersion1[] = {
    "CREATE TABLE rulesets (id bigserial PRIMARY KEY, digest bytea NOT NULL UNIQUE, reference text NOT NULL)",
    // date is NULL when the record has none: the (date, id) index then
    // gives kDate's order (undated last) in both directions.
    "CREATE TABLE games (id bigserial PRIMARY KEY, ruleset bigint NOT NULL, identity bytea NOT NULL,"
    " identity_hash bigint NOT NULL, extra bytea NOT NULL, light " PG_C_TEXT ", dark " PG_C_TEXT
    ", event " PG_C_TEXT ", date text COLLATE \"C\", result integer NOT NULL, plies integer NOT NULL,"
    " light_accuracy double precision, light_error_rate double precision, light_performance double precision,"
    " dark_accuracy double precision, dark_error_rate double precision, dark_performance double precision)",
    "CREATE INDEX games_identity_hash ON games (identity_hash)",
    "CREATE INDEX games_light ON games (light)",
    "CREATE INDEX games_dark ON games (dark)",
    "CREATE INDEX games_event ON games (event)",
    "CREATE INDEX games_date ON games (date, id)",
    "CREATE INDEX games_ruleset ON games (ruleset)",
    "CREATE TABLE sources (file bytea NOT NULL, idx bigint NOT NULL, game bigint NOT NULL, PRIMARY KEY (file, idx))",
    "CREATE INDEX sources_game ON sources (game)",
    "CREATE TABLE runs (run bigserial PRIMARY KEY)",
    "CREATE TABLE postings (ruleset bigint NOT NULL, bucket bigint NOT NULL, run bigint NOT NULL,"
    " data bytea NOT NULL, UNIQUE (ruleset, bucket, run))",
    // Blocks are compressed already: no second try at it in TOAST.
    "ALTER TABLE postings ALTER COLUMN data SET STORAGE EXTERNAL",
    "CREATE INDEX postings_run ON postings (run, ruleset, bucket)",
    "CREATE TABLE explorer (ruleset bigint NOT NULL, key bigint NOT NULL, roll integer NOT NULL,"
    " from_index integer NOT NULL, to_index integer NOT NULL, games bigint NOT NULL, light_wins bigint NOT NULL,"
    " dark_wins bigint NOT NULL, accuracy_sum double precision NOT NULL, accuracy_count bigint NOT NULL,"
    " PRIMARY KEY (ruleset, key, roll, from_index, to_index))",
    "CREATE TABLE settings (key text PRIMARY KEY, value bytea NOT NULL)",
    "CREATE TABLE ratings (player " PG_C_TEXT ", period " PG_C_TEXT ", rating double precision NOT NULL,"
    " deviation double precision NOT NULL, volatility double precision NOT NULL, games bigint NOT NULL,"
    " PRIMARY KEY (player, period))",
};
// Version 2: each name's totals (PlayerTotals), recomputed after an
// import, so a player page reads one row.
#define PG_PLAYER_TOTALS                                                                                       \
  "SELECT player, count(*), count(*) FILTER (WHERE result = side),"                                           \
  " count(*) FILTER (WHERE result <> 0 AND result <> side), count(*) FILTER (WHERE result = 0),"              \
  " count(*) FILTER (WHERE side = 1), count(accuracy), avg(accuracy), avg(error_rate), avg(performance),"     \
  " coalesce(min(date), ''), coalesce(max(date), '') FROM"                                                    \
  " (SELECT light AS player, 1 AS side, result, date, light_accuracy AS accuracy,"                            \
  "   light_error_rate AS error_rate, light_performance AS performance FROM games"                            \
  "  UNION ALL SELECT dark, 2, result, date, dark_accuracy, dark_error_rate, dark_performance FROM games"      \
  "  WHERE dark <> light) AS sides GROUP BY player"
constexpr const char* kVersion2[] = {
    "CREATE TABLE players (player " PG_C_TEXT " PRIMARY KEY, games bigint NOT NULL, wins bigint NOT NULL,"
    " losses bigint NOT NULL, unfinished bigint NOT NULL, as_light bigint NOT NULL, reviewed bigint NOT NULL,"
    " accuracy double precision, error_rate double precision, performance double precision,"
    " first_date " PG_C_TEXT ", last_date " PG_C_TEXT ")",
    "INSERT INTO players " PG_PLAYER_TOTALS,
    // A player's games in id or date order, each side read in order
    // (PlayerQuerySql); they serve a name alone as the indexes they
    // replace did.
    "DROP INDEX games_light",
    "DROP INDEX games_dark",
    "CREATE INDEX games_light ON games (light, id)",
    "CREATE INDEX games_dark ON games (dark, id)",
    "CREATE INDEX games_light_date ON games (light, date, id)",
    "CREATE INDEX games_dark_date ON games (dark, date, id)",
};
// A player's games as dark (dark = $1 AND light <> $1: a game against
// oneself is counted once, as light) answered from the index alone: the
// dark indexes carry `light`. Without it each such game was a heap read:
// 702 ms for the first page of a 100,000-game player in a million games.
constexpr const char* kVersion3[] = {
    "DROP INDEX games_dark",
    "DROP INDEX games_dark_date",
    "CREATE INDEX games_dark ON games (dark, id) INCLUDE (light)",
    "CREATE INDEX games_dark_date ON games (dark, date, id) INCLUDE (light)",
};
// The identity's form (games/game_codec.h): version 2 in a database without
// games, else the version 1 its games have.
constexpr const char* kVersion4[] = {
    "INSERT INTO settings (key, value) SELECT 'identity',"
    " convert_to(CASE WHEN EXISTS (SELECT 1 FROM games) THEN '1' ELSE '2' END, 'UTF8')"
    " ON CONFLICT (key) DO NOTHING",
};
// From which run on each run keeps a key's postings either in the key's
// own block or in its bucket's, never both (games/position_index.h,
// kApartSetting): the runs made from now on; in a new database, all.
constexpr const char* kVersion5[] = {
    "INSERT INTO settings (key, value) SELECT 'index_apart_from',"
    " convert_to((coalesce(max(run), 0) + 1)::text, 'UTF8') FROM runs"
    " ON CONFLICT (key) DO NOTHING",
};
#undef PG_C_TEXT

struct Migration {
  int version;
  std::span<const char* const> steps;
};
// In order; the last one's version is kPostgresSchemaVersion.
constexpr Migration kMigrations[] = {{1, kVersion1}, {2, kVersion2}, {3, kVersion3}, {4, kVersion4}, {5, kVersion5}};
static_assert(std::size(kMigrations) > 0 && kMigrations[std::size(kMigrations) - 1].version == kPostgresSchemaVersion);

// The tables the schema makes: one of them in a database without
// scribe_schema means the database is someone else's.
constexpr const char* kTables[] = {"rulesets", "games", "sources", "runs", "postings", "explorer", "settings", "ratings", "players"};

// ---------------------------------------------------------------------------
// Statements, prepared on a connection the first time they run.

struct Statement {
  const char* name;
  const char* sql;
};

#define PG_GAME_COLUMNS                                                                                      \
  "id, ruleset, identity, identity_hash, extra, light, dark, event, coalesce(date, ''), result, plies,"      \
  " light_accuracy, light_error_rate, light_performance, dark_accuracy, dark_error_rate, dark_performance"

constexpr Statement kLockTimeout{"lock_timeout", "SELECT set_config('lock_timeout', $1, true)"};
constexpr Statement kWriterLockStmt{"writer_lock", "SELECT pg_advisory_xact_lock($1)"};
constexpr Statement kSchemaLockStmt{"schema_lock", "SELECT pg_advisory_xact_lock($1)"};
constexpr Statement kGetSetting{"get_setting", "SELECT value FROM settings WHERE key = $1"};
constexpr Statement kSetSetting{"set_setting",
                                "INSERT INTO settings (key, value) VALUES ($1, $2)"
                                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"};
constexpr Statement kFindRuleset{"find_ruleset", "SELECT id FROM rulesets WHERE digest = $1"};
constexpr Statement kAddRuleset{"add_ruleset",
                                "INSERT INTO rulesets (digest, reference) VALUES ($1, $2)"
                                " ON CONFLICT (digest) DO NOTHING RETURNING id"};
constexpr Statement kRulesets{"rulesets", "SELECT id, digest, reference FROM rulesets ORDER BY id"};
constexpr Statement kGamesWithHash{"games_with_hash",
                                   "SELECT " PG_GAME_COLUMNS " FROM games WHERE identity_hash = $1 ORDER BY id"};
constexpr Statement kAddGame{
    "add_game",
    "INSERT INTO games (ruleset, identity, identity_hash, extra, light, dark, event, date, result, plies,"
    " light_accuracy, light_error_rate, light_performance, dark_accuracy, dark_error_rate, dark_performance)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, NULLIF($8, ''), $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id"};
constexpr Statement kGamesById{"games_by_id", "SELECT " PG_GAME_COLUMNS " FROM games WHERE id = ANY($1)"};
constexpr Statement kDates{"dates", "SELECT id, coalesce(date, '') FROM games WHERE id = ANY($1)"};
constexpr Statement kSourceGame{"source_game", "SELECT game FROM sources WHERE file = $1 AND idx = $2"};
constexpr Statement kAddSource{"add_source",
                               "INSERT INTO sources (file, idx, game) VALUES ($1, $2, $3)"
                               " ON CONFLICT (file, idx) DO NOTHING"};
constexpr Statement kMergeSources{"merge_sources",
                                  "INSERT INTO sources (file, idx, game) SELECT file, idx, game FROM scribe_sources_in"
                                  " ON CONFLICT (file, idx) DO NOTHING"};
constexpr Statement kGamesWithHashes{"games_with_hashes",
                                     "SELECT " PG_GAME_COLUMNS " FROM games WHERE identity_hash = ANY($1)"};
constexpr Statement kNewGameIds{"new_game_ids",
                                "SELECT nextval(pg_get_serial_sequence('games', 'id')) FROM generate_series(1, $1)"};
constexpr Statement kLookUpSources{"look_up_sources",
                                   "SELECT l.i, s.game FROM scribe_sources_look_up l JOIN sources s"
                                   " ON s.file = l.file AND s.idx = l.idx"};
constexpr Statement kSources{"sources", "SELECT file, idx FROM sources WHERE game = $1 ORDER BY file, idx"};
constexpr Statement kNewRun{"new_run", "INSERT INTO runs DEFAULT VALUES RETURNING run"};
constexpr Statement kRuns{"runs",
                          "SELECT r.run, coalesce(sum(octet_length(p.data)), 0)::bigint FROM runs r"
                          " LEFT JOIN postings p ON p.run = r.run GROUP BY r.run ORDER BY r.run"};
constexpr Statement kPostings{"postings",
                              "SELECT run, data FROM postings WHERE ruleset = $1 AND bucket = $2"
                              " AND run <> ALL($3) ORDER BY run"};
constexpr Statement kPostingHeads{"posting_heads",
                                  "SELECT run, substring(data from 1 for $3::integer) FROM postings"
                                  " WHERE ruleset = $1 AND bucket = $2 ORDER BY run"};
constexpr Statement kRunBuckets{"run_buckets",
                                "SELECT ruleset, bucket FROM postings WHERE run = $1"
                                " AND bucket BETWEEN $2 AND $3 ORDER BY ruleset, bucket"};
constexpr Statement kRunPostings{"run_postings",
                                 "SELECT ruleset, bucket, data FROM postings WHERE run = $1"
                                 " AND (ruleset, bucket) > ($2, $3) AND bucket BETWEEN $5 AND $6"
                                 " ORDER BY ruleset, bucket LIMIT $4"};
constexpr Statement kDeletePostings{"delete_postings", "DELETE FROM postings WHERE run = $1"};
constexpr Statement kDeleteRun{"delete_run", "DELETE FROM runs WHERE run = $1"};
constexpr Statement kMergeExplorer{
    "merge_explorer",
    "INSERT INTO explorer AS e (ruleset, key, roll, from_index, to_index, games, light_wins, dark_wins,"
    " accuracy_sum, accuracy_count)"
    " SELECT ruleset, key, roll, from_index, to_index, sum(games), sum(light_wins), sum(dark_wins),"
    " sum(accuracy_sum), sum(accuracy_count) FROM scribe_explorer_in"
    " GROUP BY ruleset, key, roll, from_index, to_index"
    " ON CONFLICT (ruleset, key, roll, from_index, to_index) DO UPDATE SET games = e.games + EXCLUDED.games,"
    " light_wins = e.light_wins + EXCLUDED.light_wins, dark_wins = e.dark_wins + EXCLUDED.dark_wins,"
    " accuracy_sum = e.accuracy_sum + EXCLUDED.accuracy_sum,"
    " accuracy_count = e.accuracy_count + EXCLUDED.accuracy_count"};
constexpr Statement kExplorer{"explorer",
                              "SELECT ruleset, key, roll, from_index, to_index, games, light_wins, dark_wins,"
                              " accuracy_sum, accuracy_count FROM explorer WHERE ruleset = $1 AND key = $2"
                              " ORDER BY roll, from_index, to_index"};
// The player's side of a game: light when they played light.
constexpr Statement kPlayer{
    "player",
    "SELECT games, wins, losses, unfinished, as_light, reviewed, coalesce(accuracy, 0), coalesce(error_rate, 0),"
    " coalesce(performance, 0), first_date, last_date FROM players WHERE player = $1"};
constexpr Statement kDeletePlayers{"delete_players", "DELETE FROM players"};
constexpr Statement kFillPlayers{"fill_players", "INSERT INTO players " PG_PLAYER_TOTALS};
constexpr Statement kDeleteRatings{"delete_ratings", "DELETE FROM ratings"};
constexpr Statement kRatings{"ratings",
                             "SELECT player, period, rating, deviation, volatility, games FROM ratings"
                             " WHERE player = $1 ORDER BY period"};

// ---------------------------------------------------------------------------
// Parameters and results.

struct ResultDeleter {
  void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

// The bound values of one statement: numbers and bytes in binary, arrays
// as text. Text and bytes point into the caller's strings, which outlive
// the call.
class Params {
 public:
  Params& Int8(int64_t v) {
    const uint64_t be = htobe64(static_cast<uint64_t>(v));
    return Own(std::string(reinterpret_cast<const char*>(&be), 8), kInt8Oid, 1);
  }
  Params& Int4(int32_t v) {
    const uint32_t be = htobe32(static_cast<uint32_t>(v));
    return Own(std::string(reinterpret_cast<const char*>(&be), 4), kInt4Oid, 1);
  }
  Params& Float8(std::optional<double> v) {
    if (!v) return Add(nullptr, 0, kFloat8Oid, 1);
    const uint64_t be = htobe64(std::bit_cast<uint64_t>(*v));
    return Own(std::string(reinterpret_cast<const char*>(&be), 8), kFloat8Oid, 1);
  }
  Params& Text(const std::string& s) { return Add(s.data(), s.size(), kTextOid, 1); }
  Params& Bytes(const std::string& s) { return Add(s.data(), s.size(), kByteaOid, 1); }
  Params& Int8Array(const std::vector<int64_t>& values) {
    return Own(absl::StrCat("{", absl::StrJoin(values, ","), "}"), kInt8ArrayOid, 0);
  }
  Params& Int8OrNull(std::optional<int64_t> v) { return v ? Int8(*v) : Add(nullptr, 0, kInt8Oid, 1); }

  int size() const { return static_cast<int>(types_.size()); }
  const Oid* types() const { return types_.data(); }
  const char* const* values() const { return values_.data(); }
  const int* lengths() const { return lengths_.data(); }
  const int* formats() const { return formats_.data(); }

 private:
  Params& Own(std::string bytes, Oid type, int format) {
    owned_.push_back(std::move(bytes));  // a deque: earlier strings stay put
    return Add(owned_.back().c_str(), owned_.back().size(), type, format);
  }
  Params& Add(const char* data, size_t length, Oid type, int format) {
    types_.push_back(type);
    values_.push_back(data);
    lengths_.push_back(static_cast<int>(length));
    formats_.push_back(format);
    return *this;
  }
  std::deque<std::string> owned_;
  std::vector<Oid> types_;
  std::vector<const char*> values_;
  std::vector<int> lengths_, formats_;
};

// Fields of a binary result.
bool IsNull(const PGresult* r, int row, int col) { return PQgetisnull(r, row, col) != 0; }
int64_t GetInt(const PGresult* r, int row, int col) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(PQgetvalue(r, row, col));
  const int length = PQgetlength(r, row, col);
  uint64_t v = 0;
  for (int i = 0; i < length; ++i) v = (v << 8) | bytes[i];
  if (length == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
  if (length == 2) return static_cast<int16_t>(static_cast<uint16_t>(v));
  if (length == 1) return static_cast<int64_t>(v);  // a bool
  return static_cast<int64_t>(v);
}
double GetFloat8(const PGresult* r, int row, int col) {
  return std::bit_cast<double>(static_cast<uint64_t>(GetInt(r, row, col)));
}
std::string GetBytes(const PGresult* r, int row, int col) {
  return std::string(PQgetvalue(r, row, col), PQgetlength(r, row, col));
}

// The first line of a message from libpq or the server, without its
// "ERROR:  " and trailing newline; the rest of its lines joined with "; ".
std::string OneLine(absl::string_view message) {
  std::string out;
  for (char c : absl::StripTrailingAsciiWhitespace(message)) {
    if (c == '\n') {
      out += "; ";
    } else {
      out += c == '\t' ? ' ' : c;
    }
  }
  return out;
}

// The fields of a game row as kGame... select them (PG_GAME_COLUMNS).
GameRow ReadGame(const PGresult* r, int row) {
  GameRow g;
  g.id = GetInt(r, row, 0);
  g.ruleset = GetInt(r, row, 1);
  g.identity = GetBytes(r, row, 2);
  g.identity_hash = static_cast<uint64_t>(GetInt(r, row, 3));
  g.extra = GetBytes(r, row, 4);
  g.light = GetBytes(r, row, 5);
  g.dark = GetBytes(r, row, 6);
  g.event = GetBytes(r, row, 7);
  g.date = GetBytes(r, row, 8);
  g.result = static_cast<int>(GetInt(r, row, 9));
  g.plies = static_cast<int>(GetInt(r, row, 10));
  for (int side = 0; side < 2; ++side) {
    const int col = 11 + 3 * side;
    if (IsNull(r, row, col)) continue;
    g.figures[side] = ReviewFigures{GetFloat8(r, row, col), GetFloat8(r, row, col + 1), GetFloat8(r, row, col + 2)};
  }
  return g;
}

// COPY ... FROM STDIN (FORMAT binary) data: a header, tuples of
// length-prefixed fields, a trailer.
class CopyData {
 public:
  CopyData() { bytes_.assign("PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0", 19); }
  void Tuple(int16_t fields) { Be16(fields); }
  void Int8(int64_t v) {
    Be32(8);
    const uint64_t be = htobe64(static_cast<uint64_t>(v));
    bytes_.append(reinterpret_cast<const char*>(&be), 8);
  }
  void Int4(int32_t v) {
    Be32(4);
    const uint32_t be = htobe32(static_cast<uint32_t>(v));
    bytes_.append(reinterpret_cast<const char*>(&be), 4);
  }
  void Float8(double v) { Int8(std::bit_cast<int64_t>(v)); }
  void Bytes(const std::string& s) {
    Be32(static_cast<int32_t>(s.size()));
    bytes_ += s;
  }
  void Null() { Be32(-1); }
  void End() { Be16(-1); }
  std::string& bytes() { return bytes_; }

 private:
  void Be16(int16_t v) {
    const uint16_t be = htobe16(static_cast<uint16_t>(v));
    bytes_.append(reinterpret_cast<const char*>(&be), 2);
  }
  void Be32(int32_t v) {
    const uint32_t be = htobe32(static_cast<uint32_t>(v));
    bytes_.append(reinterpret_cast<const char*>(&be), 4);
  }
  std::string bytes_;
};

// The WHERE and ORDER BY of a GameQuery, its values bound into `params`;
// `player` is how the player filter reads ($N: its parameter).
std::string QuerySql(const GameQuery& q, Params& params, bool order,
                     absl::string_view player = "(light = $N OR dark = $N)") {
  std::vector<std::string> terms;
  auto next = [&params] { return absl::StrCat("$", params.size()); };
  if (q.ruleset) {
    params.Int8(*q.ruleset);
    terms.push_back("ruleset = " + next());
  }
  if (!q.player.empty()) {
    params.Text(q.player);
    terms.push_back(absl::StrReplaceAll(player, {{"$N", next()}}));
  }
  const std::pair<const char*, const std::string*> tags[] = {{"light", &q.light}, {"dark", &q.dark}, {"event", &q.event}};
  for (const auto& [column, value] : tags) {
    if (value->empty()) continue;
    params.Text(*value);
    terms.push_back(absl::StrCat(column, " = ", next()));
  }
  // An undated game (date NULL) is outside every date range.
  if (!q.date_from.empty()) {
    params.Text(q.date_from);
    terms.push_back("date >= " + next());
  }
  if (!q.date_to.empty()) {
    params.Text(q.date_to);
    terms.push_back("date <= " + next());
  }
  if (q.result) {
    params.Int4(*q.result);
    terms.push_back("result = " + next());
  }
  std::string sql = terms.empty() ? "" : " WHERE " + absl::StrJoin(terms, " AND ");
  if (!order) return sql;
  // kDate: NULL (undated) sorts after every date ascending and before
  // every date descending: the descending order is the ascending reversed.
  const char* dir = q.descending ? " DESC" : "";
  if (q.order == GameQuery::Order::kDate) {
    absl::StrAppend(&sql, " ORDER BY date", dir, ", id", dir);
  } else {
    absl::StrAppend(&sql, " ORDER BY id", dir);
  }
  return sql;
}

// ---------------------------------------------------------------------------

class PostgresStore final : public games::Store {
 public:
  PostgresStore(PGconn* conn, const PostgresOptions& options) : conn_(conn), options_(options) {
    name_ = absl::StrCat("PostgreSQL database ", PQdb(conn), " at ", PQhost(conn), ":", PQport(conn));
  }
  ~PostgresStore() override { PQfinish(conn_); }

  std::string Name() const override { return name_; }
  absl::Status OpenSchema(OpenMode mode);

  absl::Status BeginWrite() override;
  absl::Status Settle() override;
  absl::Status Commit() override;
  absl::Status Rollback() override;
  absl::StatusOr<std::optional<std::string>> Setting(const std::string& key) override;
  absl::Status SetSetting(const std::string& key, const std::string& value) override;
  absl::StatusOr<int64_t> RulesetId(const std::string& digest, const std::string& reference) override;
  absl::StatusOr<std::vector<RulesetRow>> Rulesets() override;
  absl::StatusOr<std::vector<GameRow>> GamesWithHash(uint64_t hash) override;
  absl::StatusOr<int64_t> AddGame(const GameRow& game) override;
  absl::StatusOr<std::vector<std::optional<int64_t>>> SourceGames(const std::vector<SourceRow>& sources) override;
  absl::StatusOr<std::vector<GameRow>> GamesWithHashes(const std::vector<uint64_t>& hashes) override;
  absl::StatusOr<std::vector<int64_t>> AddGames(const std::vector<GameRow>& games) override;
  absl::StatusOr<std::vector<GameRow>> GamesById(const std::vector<int64_t>& ids) override;
  absl::StatusOr<int64_t> CountGames(const GameQuery& query) override;
  absl::StatusOr<std::vector<int64_t>> FindGames(const GameQuery& query, int64_t offset, int64_t limit) override;
  absl::Status ScanGames(const GameQuery& query, const std::function<bool(int64_t id)>& visit) override;
  absl::StatusOr<std::vector<std::string>> Dates(const std::vector<int64_t>& ids) override;
  absl::StatusOr<std::optional<int64_t>> SourceGame(const SourceRow& source) override;
  absl::Status AddSource(int64_t game, const SourceRow& source) override;
  absl::StatusOr<std::vector<SourceRow>> Sources(int64_t game) override;
  absl::StatusOr<int64_t> NewRun() override;
  absl::Status AddPostings(int64_t run, const std::vector<PostingRow>& rows) override;
  absl::StatusOr<std::vector<RunRow>> Runs() override;
  absl::StatusOr<std::vector<RunBlock>> Postings(int64_t ruleset, int64_t bucket,
                                                 const std::vector<int64_t>& except_runs) override;
  absl::StatusOr<std::vector<RunBlock>> PostingHeads(int64_t ruleset, int64_t bucket, int64_t bytes) override;
  absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> RunBuckets(int64_t run,
                                                                     std::pair<int64_t, int64_t> buckets) override;
  absl::StatusOr<std::vector<PostingRow>> RunPostings(int64_t run, std::pair<int64_t, int64_t> after, int limit,
                                                      std::pair<int64_t, int64_t> buckets) override;
  absl::Status DeleteRun(int64_t run) override;
  absl::Status AddExplorer(const std::vector<ExplorerRow>& rows) override;
  absl::StatusOr<std::vector<ExplorerRow>> Explorer(int64_t ruleset, int64_t key) override;
  absl::StatusOr<PlayerTotals> Player(const std::string& name) override;
  absl::Status RecomputePlayers() override;
  absl::Status ReplaceRatings(const std::vector<RatingRow>& rows) override;
  absl::StatusOr<std::vector<RatingRow>> Ratings(const std::string& player) override;
  absl::Status ScanResults(const std::function<bool(const std::string& date, const std::string& light,
                                                    const std::string& dark, int result)>& visit) override;

 private:
  // OK when the connection is up, reconnecting first when it was lost
  // outside a transaction (a server restarted under a long-lived reader).
  absl::Status Ready();
  // The status for a failed statement (`result` may be null: the error is
  // the connection's), with the database's name and `what` was being done.
  absl::Status Error(const PGresult* result, absl::string_view what) const;
  absl::StatusOr<Result> Check(PGresult* result, absl::string_view what);
  // A prepared statement, preparing it on this connection when new.
  absl::StatusOr<Result> Exec(const Statement& statement, const Params& params);
  // A statement built for this call (a search) or fixed without values.
  absl::StatusOr<Result> ExecSql(const std::string& sql, const Params& params);
  absl::Status Command(const char* sql);
  // Runs `body` in a transaction: the write's when one is open, else its own.
  absl::Status Atomically(const std::function<absl::Status()>& body);
  // COMMIT; when the connection breaks before its answer, UNAVAILABLE
  // marked games::MarkCommitInDoubt.
  absl::StatusOr<Result> SendCommit();
  // Streams `sql`'s rows through a cursor, `kFetchRows` at a time.
  absl::Status Scan(const std::string& sql, const Params& params,
                    const std::function<bool(const PGresult*, int row)>& visit);
  absl::Status CopyIn(const char* sql, CopyData& data);
  absl::StatusOr<bool> TableExists(const std::string& name);
  absl::StatusOr<int> SchemaVersion();
  absl::Status Migrate(OpenMode mode);
  absl::Status MigrateLocked(OpenMode mode);
  absl::Status Newer(int version) const;
  // Writes the sources AddSource kept back.
  absl::Status FlushSources();

  PGconn* conn_;
  PostgresOptions options_;
  std::string name_;
  std::set<std::string, std::less<>> prepared_;
  bool in_write_ = false;
  int scans_ = 0;       // cursors open (ScanGames' visits may call back)
  int64_t cursors_ = 0;  // cursors made, for their names
  // In a write, AddSource keeps its rows here and writes them in batches
  // (at Commit, at Sources, every kSourceBatch): one round trip fewer per
  // imported game. The first game recorded for a source wins, as in the
  // table.
  static constexpr size_t kSourceBatch = 5000;
  std::vector<std::pair<SourceRow, int64_t>> pending_sources_;
  std::map<std::pair<std::string, int64_t>, int64_t> pending_source_game_;
};

absl::Status PostgresStore::Ready() {
  if (PQstatus(conn_) == CONNECTION_OK) return absl::OkStatus();
  if (in_write_ || scans_ > 0) {
    return absl::UnavailableError(absl::StrCat("lost the connection to ", name_, "; the open transaction is gone"));
  }
  PQreset(conn_);
  prepared_.clear();
  if (PQstatus(conn_) != CONNECTION_OK) {
    return absl::UnavailableError(
        absl::StrCat("lost the connection to ", name_, ": ", OneLine(PQerrorMessage(conn_)), "; is the server running?"));
  }
  return absl::OkStatus();
}

absl::Status PostgresStore::Error(const PGresult* result, absl::string_view what) const {
  std::string message;
  const char* primary = result ? PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  if (primary != nullptr) {
    message = primary;
    if (const char* detail = PQresultErrorField(result, PG_DIAG_MESSAGE_DETAIL)) absl::StrAppend(&message, " (", detail, ")");
  } else {
    message = OneLine(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_));
    if (message.empty()) message = OneLine(PQerrorMessage(conn_));
  }
  if (PQstatus(conn_) != CONNECTION_OK) {
    return absl::UnavailableError(
        absl::StrCat("lost the connection to ", name_, " while ", what, ": ", message, "; is the server running?"));
  }
  const char* field = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const absl::string_view state = field ? field : "";
  const std::string text = absl::StrCat(name_, ": ", what, ": ", message);
  if (state == "53100") return absl::ResourceExhaustedError(text + " (the server's disk is full)");
  if (absl::StartsWith(state, "53")) return absl::ResourceExhaustedError(text);
  if (state == "25006" || state == "42501") return absl::PermissionDeniedError(text);
  if (absl::StartsWith(state, "08") || absl::StartsWith(state, "57P") || state == "55P03") {
    return absl::UnavailableError(text);
  }
  return absl::InternalError(text);
}

absl::StatusOr<Result> PostgresStore::Check(PGresult* raw, absl::string_view what) {
  Result result(raw);
  const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_COPY_IN) return result;
  return Error(result.get(), what);
}

absl::StatusOr<Result> PostgresStore::Exec(const Statement& statement, const Params& params) {
  SCRIBE_RETURN_IF_ERROR(Ready());
  if (!prepared_.contains(statement.name)) {
    SCRIBE_RETURN_IF_ERROR(Check(PQprepare(conn_, statement.name, statement.sql, params.size(), params.types()),
                             absl::StrCat("preparing ", statement.name))
                           .status());
    prepared_.insert(statement.name);
  }
  return Check(PQexecPrepared(conn_, statement.name, params.size(), params.values(), params.lengths(),
                              params.formats(), 1),
               statement.name);
}

absl::StatusOr<Result> PostgresStore::ExecSql(const std::string& sql, const Params& params) {
  SCRIBE_RETURN_IF_ERROR(Ready());
  return Check(PQexecParams(conn_, sql.c_str(), params.size(), params.types(), params.values(), params.lengths(),
                            params.formats(), 1),
               sql);
}

absl::Status PostgresStore::Command(const char* sql) {
  SCRIBE_RETURN_IF_ERROR(Ready());
  return Check(PQexec(conn_, sql), sql).status();
}

absl::StatusOr<Result> PostgresStore::SendCommit() {
  // (Not Ready(): a new connection has no transaction to commit.)
  if (PQstatus(conn_) != CONNECTION_OK) {
    return absl::UnavailableError(absl::StrCat("lost the connection to ", name_, "; nothing was written"));
  }
  absl::StatusOr<Result> committed = Check(PQexec(conn_, "COMMIT"), "COMMIT");
  if (committed.ok() || PQstatus(conn_) == CONNECTION_OK) return committed;
  // COMMIT went out and no answer came back: the server may have made the
  // write durable before the connection broke, or not.
  return games::MarkCommitInDoubt(absl::UnavailableError(
      absl::StrCat("lost the connection to ", name_, " while committing, before the server answered: ",
                   OneLine(PQerrorMessage(conn_)), "; that write may or may not be kept; is the server running?")));
}

absl::Status PostgresStore::Atomically(const std::function<absl::Status()>& body) {
  if (in_write_ || PQtransactionStatus(conn_) != PQTRANS_IDLE) return body();
  SCRIBE_RETURN_IF_ERROR(Command("BEGIN"));
  absl::Status status = body();
  if (status.ok()) return SendCommit().status();
  if (PQstatus(conn_) == CONNECTION_OK) (void)Command("ROLLBACK");
  return status;
}

absl::Status PostgresStore::Scan(const std::string& sql, const Params& params,
                                 const std::function<bool(const PGresult*, int row)>& visit) {
  SCRIBE_RETURN_IF_ERROR(Ready());
  const std::string cursor = absl::StrCat("scribe_scan_", ++cursors_);
  // Outside a write a cursor needs a transaction of its own: a read one
  // that sees each statement's committed data, as autocommit reads do.
  const bool own = !in_write_ && PQtransactionStatus(conn_) == PQTRANS_IDLE;
  if (own) SCRIBE_RETURN_IF_ERROR(Command("BEGIN"));
  ++scans_;
  absl::Status status = ExecSql(absl::StrCat("DECLARE ", cursor, " NO SCROLL CURSOR FOR ", sql), params).status();
  const std::string fetch = absl::StrCat("FETCH ", kFetchRows, " FROM ", cursor);
  bool more = status.ok();
  while (more) {
    absl::StatusOr<Result> rows = ExecSql(fetch, Params());
    if (!rows.ok()) {
      status = rows.status();
      break;
    }
    const int n = PQntuples(rows->get());
    for (int i = 0; i < n && more; ++i) more = visit(rows->get(), i);
    more = more && n == kFetchRows;
  }
  --scans_;
  if (status.ok()) status = Command(absl::StrCat(own ? "COMMIT" : "CLOSE ", own ? "" : cursor).c_str());
  if (!status.ok() && own && PQstatus(conn_) == CONNECTION_OK) (void)Command("ROLLBACK");
  return status;
}

absl::Status PostgresStore::CopyIn(const char* sql, CopyData& data) {
  SCRIBE_RETURN_IF_ERROR(Ready());
  SCRIBE_ASSIGN_OR_RETURN(Result start, Check(PQexec(conn_, sql), sql));
  if (PQresultStatus(start.get()) != PGRES_COPY_IN) return absl::InternalError(absl::StrCat(name_, ": ", sql, ": no COPY"));
  data.End();
  const std::string& bytes = data.bytes();
  bool sent = true;
  constexpr size_t kChunk = 1 << 20;
  for (size_t at = 0; at < bytes.size() && sent; at += kChunk) {
    sent = PQputCopyData(conn_, bytes.data() + at, static_cast<int>(std::min(kChunk, bytes.size() - at))) == 1;
  }
  const bool ended = PQputCopyEnd(conn_, sent ? nullptr : "the client failed to send the data") == 1;
  // The COPY's result, then the null that ends it.
  absl::Status status = Check(PQgetResult(conn_), sql).status();
  while (PGresult* extra = PQgetResult(conn_)) PQclear(extra);
  if (status.ok() && !(sent && ended)) status = Error(nullptr, sql);
  return status;
}

absl::Status PostgresStore::Newer(int version) const {
  return absl::FailedPreconditionError(absl::StrCat(name_, " was made by a newer Scribe (schema ", version,
                                                    ", this build reads up to ", kPostgresSchemaVersion,
                                                    "); upgrade Scribe"));
}

// Whether a table of this name is on the search path. A query of pg_class,
// not to_regclass: that may answer from this connection's cache of names,
// which is not refreshed within a transaction by an advisory lock, so it
// would miss a table another creator committed while this one waited.
absl::StatusOr<bool> PostgresStore::TableExists(const std::string& name) {
  SCRIBE_ASSIGN_OR_RETURN(Result found, ExecSql("SELECT count(*) FROM pg_catalog.pg_class c WHERE c.relname = $1"
                                            " AND pg_catalog.pg_table_is_visible(c.oid)",
                                            Params().Text(name)));
  return GetInt(found.get(), 0, 0) > 0;
}

// -1 when the database has no scribe_schema table.
absl::StatusOr<int> PostgresStore::SchemaVersion() {
  SCRIBE_ASSIGN_OR_RETURN(const bool exists, TableExists("scribe_schema"));
  if (!exists) return -1;
  absl::StatusOr<Result> version = ExecSql("SELECT coalesce(max(version), 0)::integer FROM scribe_schema", Params());
  if (!version.ok()) {
    if (version.status().code() != absl::StatusCode::kInternal) return version.status();
    return absl::DataLossError(absl::StrCat(name_, " has a table scribe_schema that is not Scribe's (",
                                            version.status().message(), ")"));
  }
  return static_cast<int>(GetInt(version->get(), 0, 0));
}

absl::Status PostgresStore::OpenSchema(OpenMode mode) {
  SCRIBE_ASSIGN_OR_RETURN(const int version, SchemaVersion());
  if (version > kPostgresSchemaVersion) return Newer(version);
  if (version == kPostgresSchemaVersion) return absl::OkStatus();
  if (version < 0 && mode == OpenMode::kExisting) {
    return absl::NotFoundError(absl::StrCat("no game database in ", name_, "; import games first"));
  }
  return Migrate(mode);
}

// Makes or migrates the schema in one transaction, under the schema lock
// so that two processes opening a new database do it once.
absl::Status PostgresStore::Migrate(OpenMode mode) {
  SCRIBE_RETURN_IF_ERROR(Command("BEGIN"));
  absl::Status status = MigrateLocked(mode);
  if (status.ok()) return SendCommit().status();
  if (PQstatus(conn_) == CONNECTION_OK) (void)Command("ROLLBACK");
  return status;
}

absl::Status PostgresStore::MigrateLocked(OpenMode mode) {
  SCRIBE_RETURN_IF_ERROR(Exec(kSchemaLockStmt, Params().Int8(kSchemaLock)).status());
  SCRIBE_ASSIGN_OR_RETURN(int version, SchemaVersion());  // again: another process may have done it
  if (version > kPostgresSchemaVersion) return Newer(version);
  if (version == kPostgresSchemaVersion) return absl::OkStatus();
  if (version < 0) {
    if (mode == OpenMode::kExisting) {
      return absl::NotFoundError(absl::StrCat("no game database in ", name_, "; import games first"));
    }
    for (const char* table : kTables) {
      SCRIBE_ASSIGN_OR_RETURN(const bool found, TableExists(table));
      if (found) {
        return absl::DataLossError(absl::StrCat(name_, " is not a Scribe database: it has a table ", table,
                                                " but no scribe_schema"));
      }
    }
    SCRIBE_RETURN_IF_ERROR(Command("CREATE TABLE scribe_schema (version integer NOT NULL)"));
    SCRIBE_RETURN_IF_ERROR(Command("INSERT INTO scribe_schema VALUES (0)"));
    version = 0;
  }
  for (const Migration& migration : kMigrations) {
    if (migration.version <= version) continue;
    for (const char* step : migration.steps) {
      absl::Status status = Command(step);
      if (!status.ok()) {
        return absl::Status(status.code(), absl::StrCat("migrating the schema to version ", migration.version,
                                                        ": ", status.message()));
      }
    }
    SCRIBE_RETURN_IF_ERROR(
        ExecSql("UPDATE scribe_schema SET version = $1", Params().Int4(migration.version)).status());
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Transactions and settings.

absl::Status PostgresStore::BeginWrite() {
  if (in_write_) return absl::FailedPreconditionError(absl::StrCat(name_, ": a write is already open"));
  if (scans_ > 0) return absl::FailedPreconditionError(absl::StrCat(name_, ": cannot begin a write inside a scan"));
  SCRIBE_RETURN_IF_ERROR(Command("BEGIN"));
  // lock_timeout bounds the wait for the writer lock (and any other lock
  // of this transaction): then 55P03.
  const std::string timeout = absl::StrCat(options_.lock_timeout.count());
  absl::Status status = Exec(kLockTimeout, Params().Text(timeout)).status();
  if (status.ok()) status = Exec(kWriterLockStmt, Params().Int8(kWriterLock)).status();
  if (!status.ok()) {
    if (PQstatus(conn_) == CONNECTION_OK) (void)Command("ROLLBACK");
    if (status.code() == absl::StatusCode::kUnavailable && PQstatus(conn_) == CONNECTION_OK) {
      return absl::UnavailableError(absl::StrCat(name_, " is locked by another writer (waited ",
                                                 options_.lock_timeout.count(),
                                                 " ms); try again when the other import has finished"));
    }
    return status;
  }
  in_write_ = true;
  return absl::OkStatus();
}

absl::Status PostgresStore::Settle() {
  if (in_write_) return absl::FailedPreconditionError(absl::StrCat(name_, ": cannot settle inside a write"));
  // VACUUM skips the pages already all-visible: it costs what was written.
  SCRIBE_RETURN_IF_ERROR(Command("VACUUM games, sources"));
  // ANALYZE samples the tables whatever was written (0.4 s a batch at
  // 100,000 games, as long as the rest of the batch): only once a tenth of
  // a table's rows changed since it was last analyzed (autovacuum's own
  // measure, which it would act on in its own time).
  SCRIBE_ASSIGN_OR_RETURN(
      Result stale,
      ExecSql("SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('games', 'sources') "
              "AND n_mod_since_analyze > 0.1 * greatest(n_live_tup, 1000)",
              Params()));
  if (GetInt(stale.get(), 0, 0) == 0) return absl::OkStatus();
  return Command("ANALYZE games, sources");
}

absl::Status PostgresStore::Commit() {
  if (!in_write_) return absl::FailedPreconditionError(absl::StrCat(name_, ": no write to commit"));
  const absl::Status flushed = FlushSources();
  in_write_ = false;  // the transaction ends whatever happens next
  if (PQstatus(conn_) != CONNECTION_OK) {
    return absl::UnavailableError(absl::StrCat("lost the connection to ", name_, "; nothing was written"));
  }
  if (!flushed.ok()) {
    (void)Command("ROLLBACK");
    return flushed;
  }
  if (PQtransactionStatus(conn_) == PQTRANS_INERROR) {
    (void)Command("ROLLBACK");
    return absl::AbortedError(absl::StrCat(name_, ": a statement of this write failed; nothing was written"));
  }
  SCRIBE_ASSIGN_OR_RETURN(Result result, SendCommit());
  // COMMIT of a failed transaction answers ROLLBACK, not an error.
  if (absl::string_view(PQcmdStatus(result.get())) == "ROLLBACK") {
    return absl::AbortedError(absl::StrCat(name_, ": the write failed and was rolled back"));
  }
  return absl::OkStatus();
}

absl::Status PostgresStore::Rollback() {
  pending_sources_.clear();
  pending_source_game_.clear();
  if (!in_write_) return absl::OkStatus();
  in_write_ = false;
  // A lost connection took the transaction with it: nothing to undo.
  if (PQstatus(conn_) != CONNECTION_OK) return absl::OkStatus();
  return Command("ROLLBACK");  // fine in a failed transaction too
}

absl::StatusOr<std::optional<std::string>> PostgresStore::Setting(const std::string& key) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kGetSetting, Params().Text(key)));
  if (PQntuples(r.get()) == 0) return std::nullopt;
  return GetBytes(r.get(), 0, 0);
}

absl::Status PostgresStore::SetSetting(const std::string& key, const std::string& value) {
  return Exec(kSetSetting, Params().Text(key).Bytes(value)).status();
}

// ---------------------------------------------------------------------------
// Rulesets and games.

absl::StatusOr<int64_t> PostgresStore::RulesetId(const std::string& digest, const std::string& reference) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    SCRIBE_ASSIGN_OR_RETURN(Result found, Exec(kFindRuleset, Params().Bytes(digest)));
    if (PQntuples(found.get()) > 0) return GetInt(found.get(), 0, 0);
    // Nothing back: another writer added it since the look-up.
    SCRIBE_ASSIGN_OR_RETURN(Result added, Exec(kAddRuleset, Params().Bytes(digest).Text(reference)));
    if (PQntuples(added.get()) > 0) return GetInt(added.get(), 0, 0);
  }
  return absl::InternalError(absl::StrCat(name_, ": the ruleset could neither be found nor added"));
}

absl::StatusOr<std::vector<RulesetRow>> PostgresStore::Rulesets() {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kRulesets, Params()));
  std::vector<RulesetRow> rows;
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    rows.push_back({GetInt(r.get(), i, 0), GetBytes(r.get(), i, 1), GetBytes(r.get(), i, 2)});
  }
  return rows;
}

absl::StatusOr<std::vector<GameRow>> PostgresStore::GamesWithHash(uint64_t hash) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kGamesWithHash, Params().Int8(static_cast<int64_t>(hash))));
  std::vector<GameRow> games;
  for (int i = 0; i < PQntuples(r.get()); ++i) games.push_back(ReadGame(r.get(), i));
  return games;
}

absl::StatusOr<int64_t> PostgresStore::AddGame(const GameRow& g) {
  Params p;
  p.Int8(g.ruleset).Bytes(g.identity).Int8(static_cast<int64_t>(g.identity_hash)).Bytes(g.extra);
  p.Text(g.light).Text(g.dark).Text(g.event).Text(g.date).Int4(g.result).Int4(g.plies);
  for (const std::optional<ReviewFigures>& f : g.figures) {
    p.Float8(f ? std::optional(f->accuracy) : std::nullopt);
    p.Float8(f ? std::optional(f->error_rate) : std::nullopt);
    p.Float8(f ? std::optional(f->performance) : std::nullopt);
  }
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kAddGame, p));
  return GetInt(r.get(), 0, 0);
}

// An import batch's calls: one round trip each, not one per game (three
// per game made a PostgreSQL import of 500,000 games run at 4,300 games/s).

absl::StatusOr<std::vector<GameRow>> PostgresStore::GamesWithHashes(const std::vector<uint64_t>& hashes) {
  if (hashes.empty()) return std::vector<GameRow>();
  std::vector<int64_t> values(hashes.begin(), hashes.end());  // the columns' bit cast
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kGamesWithHashes, Params().Int8Array(values)));
  std::vector<GameRow> games;
  for (int i = 0; i < PQntuples(r.get()); ++i) games.push_back(ReadGame(r.get(), i));
  return games;
}

absl::StatusOr<std::vector<int64_t>> PostgresStore::AddGames(const std::vector<GameRow>& games) {
  if (games.empty()) return std::vector<int64_t>();
  // The ids first (ascending, in the games' order), then the rows by COPY.
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kNewGameIds, Params().Int8(static_cast<int64_t>(games.size()))));
  std::vector<int64_t> ids;
  ids.reserve(games.size());
  for (int i = 0; i < PQntuples(r.get()); ++i) ids.push_back(GetInt(r.get(), i, 0));
  if (ids.size() != games.size()) return absl::InternalError(absl::StrCat(name_, ": too few game ids"));
  std::sort(ids.begin(), ids.end());
  CopyData data;
  for (size_t i = 0; i < games.size(); ++i) {
    const GameRow& g = games[i];
    data.Tuple(17);
    data.Int8(ids[i]);
    data.Int8(g.ruleset);
    data.Bytes(g.identity);
    data.Int8(static_cast<int64_t>(g.identity_hash));
    data.Bytes(g.extra);
    data.Bytes(g.light);
    data.Bytes(g.dark);
    data.Bytes(g.event);
    if (g.date.empty()) {
      data.Null();
    } else {
      data.Bytes(g.date);
    }
    data.Int4(g.result);
    data.Int4(g.plies);
    for (const std::optional<ReviewFigures>& f : g.figures) {
      for (double v : {f ? f->accuracy : 0.0, f ? f->error_rate : 0.0, f ? f->performance : 0.0}) {
        if (f) {
          data.Float8(v);
        } else {
          data.Null();
        }
      }
    }
  }
  SCRIBE_RETURN_IF_ERROR(Atomically([&]() -> absl::Status {
    return CopyIn("COPY games (id, ruleset, identity, identity_hash, extra, light, dark, event, date, result, plies,"
                  " light_accuracy, light_error_rate, light_performance, dark_accuracy, dark_error_rate,"
                  " dark_performance) FROM STDIN (FORMAT binary)",
                  data);
  }));
  return ids;
}

absl::StatusOr<std::vector<std::optional<int64_t>>> PostgresStore::SourceGames(const std::vector<SourceRow>& sources) {
  std::vector<std::optional<int64_t>> games(sources.size());
  if (sources.empty()) return games;
  SCRIBE_RETURN_IF_ERROR(FlushSources());  // the sources this write added, in the table
  CopyData data;
  for (size_t i = 0; i < sources.size(); ++i) {
    data.Tuple(3);
    data.Int8(static_cast<int64_t>(i));
    data.Bytes(sources[i].file);
    data.Int8(sources[i].index);
  }
  SCRIBE_RETURN_IF_ERROR(Atomically([&]() -> absl::Status {
    SCRIBE_RETURN_IF_ERROR(
        Command("CREATE TEMPORARY TABLE IF NOT EXISTS scribe_sources_look_up (i bigint NOT NULL, file bytea NOT NULL,"
                " idx bigint NOT NULL) ON COMMIT DELETE ROWS"));
    SCRIBE_RETURN_IF_ERROR(CopyIn("COPY scribe_sources_look_up (i, file, idx) FROM STDIN (FORMAT binary)", data));
    SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kLookUpSources, Params()));
    for (int row = 0; row < PQntuples(r.get()); ++row) {
      const int64_t i = GetInt(r.get(), row, 0);
      if (i >= 0 && static_cast<size_t>(i) < games.size()) games[static_cast<size_t>(i)] = GetInt(r.get(), row, 1);
    }
    return Command("TRUNCATE scribe_sources_look_up");
  }));
  return games;
}

absl::StatusOr<std::vector<GameRow>> PostgresStore::GamesById(const std::vector<int64_t>& ids) {
  if (ids.empty()) return std::vector<GameRow>();
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kGamesById, Params().Int8Array(ids)));
  std::unordered_map<int64_t, int> row_of;
  for (int i = 0; i < PQntuples(r.get()); ++i) row_of[GetInt(r.get(), i, 0)] = i;
  std::vector<GameRow> games;
  for (int64_t id : ids) {
    if (auto it = row_of.find(id); it != row_of.end()) games.push_back(ReadGame(r.get(), it->second));
  }
  return games;
}

// The ordered ids of a search. A player's games are the games as light
// UNION ALL those as dark (and not light), each side read in order from
// its index and merged (Merge Append), so a page of a player with
// 100,000 games reads a page of each index.
// A player's query as its two sides' WHERE clauses: the games as light,
// and those as dark and not light (a game against oneself once). Both use
// the same parameters, bound once, by the first.
std::pair<std::string, std::string> PlayerSidesSql(const GameQuery& query, Params& p) {
  Params unused;
  std::string light = QuerySql(query, p, false, "light = $N");
  std::string dark = QuerySql(query, unused, false, "dark = $N AND light <> $N");
  return {std::move(light), std::move(dark)};
}

std::string OrderedIdsSql(const GameQuery& query, Params& p) {
  if (query.player.empty()) return "SELECT id FROM games" + QuerySql(query, p, true);
  const auto [light, dark] = PlayerSidesSql(query, p);
  const char* dir = query.descending ? " DESC" : "";
  const bool by_date = query.order == GameQuery::Order::kDate;
  return absl::StrCat("SELECT id FROM (SELECT id, date FROM games", light, " UNION ALL SELECT id, date FROM games",
                      dark, ") AS sides ORDER BY ", by_date ? absl::StrCat("date", dir, ", ") : "", "id", dir);
}

absl::StatusOr<int64_t> PostgresStore::CountGames(const GameQuery& query) {
  Params p;
  std::string sql;
  if (query.player.empty()) {
    sql = "SELECT count(*) FROM games" + QuerySql(query, p, false);
  } else {
    // One count a side, each a range of its side's index (as
    // OrderedIdsSql): `light = $1 OR dark = $1` scanned a whole index.
    const auto [light, dark] = PlayerSidesSql(query, p);
    sql = absl::StrCat("SELECT (SELECT count(*) FROM games", light, ") + (SELECT count(*) FROM games", dark, ")");
  }
  SCRIBE_ASSIGN_OR_RETURN(Result r, ExecSql(sql, p));
  return GetInt(r.get(), 0, 0);
}

absl::StatusOr<std::vector<int64_t>> PostgresStore::FindGames(const GameQuery& query, int64_t offset, int64_t limit) {
  Params p;
  std::string sql = OrderedIdsSql(query, p);
  p.Int8(std::max<int64_t>(offset, 0));
  absl::StrAppend(&sql, " OFFSET $", p.size());
  p.Int8OrNull(limit < 0 ? std::nullopt : std::optional(limit));  // LIMIT NULL: all
  absl::StrAppend(&sql, " LIMIT $", p.size());
  SCRIBE_ASSIGN_OR_RETURN(Result r, ExecSql(sql, p));
  std::vector<int64_t> ids;
  ids.reserve(PQntuples(r.get()));
  for (int i = 0; i < PQntuples(r.get()); ++i) ids.push_back(GetInt(r.get(), i, 0));
  return ids;
}

absl::Status PostgresStore::ScanGames(const GameQuery& query, const std::function<bool(int64_t id)>& visit) {
  Params p;
  const std::string sql = OrderedIdsSql(query, p);
  return Scan(sql, p, [&visit](const PGresult* r, int row) { return visit(GetInt(r, row, 0)); });
}

absl::StatusOr<std::vector<std::string>> PostgresStore::Dates(const std::vector<int64_t>& ids) {
  if (ids.empty()) return std::vector<std::string>();
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kDates, Params().Int8Array(ids)));
  std::unordered_map<int64_t, std::string> date_of;
  for (int i = 0; i < PQntuples(r.get()); ++i) date_of[GetInt(r.get(), i, 0)] = GetBytes(r.get(), i, 1);
  std::vector<std::string> dates;
  dates.reserve(ids.size());
  for (int64_t id : ids) {
    auto it = date_of.find(id);
    dates.push_back(it == date_of.end() ? "" : it->second);
  }
  return dates;
}

// ---------------------------------------------------------------------------
// Sources.

absl::StatusOr<std::optional<int64_t>> PostgresStore::SourceGame(const SourceRow& source) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kSourceGame, Params().Bytes(source.file).Int8(source.index)));
  if (PQntuples(r.get()) > 0) return GetInt(r.get(), 0, 0);
  auto pending = pending_source_game_.find({source.file, source.index});
  if (pending != pending_source_game_.end()) return pending->second;
  return std::nullopt;
}

absl::Status PostgresStore::AddSource(int64_t game, const SourceRow& source) {
  if (!in_write_) return Exec(kAddSource, Params().Bytes(source.file).Int8(source.index).Int8(game)).status();
  if (!pending_source_game_.emplace(std::pair(source.file, source.index), game).second) return absl::OkStatus();
  pending_sources_.emplace_back(source, game);
  if (pending_sources_.size() >= kSourceBatch) return FlushSources();
  return absl::OkStatus();
}

absl::Status PostgresStore::FlushSources() {
  if (pending_sources_.empty()) return absl::OkStatus();
  CopyData data;
  for (const auto& [source, game] : pending_sources_) {
    data.Tuple(3);
    data.Bytes(source.file);
    data.Int8(source.index);
    data.Int8(game);
  }
  pending_sources_.clear();
  pending_source_game_.clear();
  return Atomically([&]() -> absl::Status {
    SCRIBE_RETURN_IF_ERROR(
        Command("CREATE TEMPORARY TABLE IF NOT EXISTS scribe_sources_in (LIKE sources) ON COMMIT DELETE ROWS"));
    SCRIBE_RETURN_IF_ERROR(CopyIn("COPY scribe_sources_in (file, idx, game) FROM STDIN (FORMAT binary)", data));
    SCRIBE_RETURN_IF_ERROR(Exec(kMergeSources, Params()).status());
    return Command("TRUNCATE scribe_sources_in");
  });
}

absl::StatusOr<std::vector<SourceRow>> PostgresStore::Sources(int64_t game) {
  SCRIBE_RETURN_IF_ERROR(FlushSources());
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kSources, Params().Int8(game)));
  std::vector<SourceRow> rows;
  for (int i = 0; i < PQntuples(r.get()); ++i) rows.push_back({GetBytes(r.get(), i, 0), GetInt(r.get(), i, 1)});
  return rows;
}

// ---------------------------------------------------------------------------
// The position index.

absl::StatusOr<int64_t> PostgresStore::NewRun() {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kNewRun, Params()));
  return GetInt(r.get(), 0, 0);
}

absl::Status PostgresStore::AddPostings(int64_t run, const std::vector<PostingRow>& rows) {
  if (rows.empty()) return absl::OkStatus();
  CopyData data;
  for (const PostingRow& row : rows) {
    data.Tuple(4);
    data.Int8(row.ruleset);
    data.Int8(row.bucket);
    data.Int8(run);
    data.Bytes(row.data);
  }
  return CopyIn("COPY postings (ruleset, bucket, run, data) FROM STDIN (FORMAT binary)", data);
}

absl::StatusOr<std::vector<RunRow>> PostgresStore::Runs() {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kRuns, Params()));
  std::vector<RunRow> runs;
  for (int i = 0; i < PQntuples(r.get()); ++i) runs.push_back({GetInt(r.get(), i, 0), GetInt(r.get(), i, 1)});
  return runs;
}

namespace {

// The (run, data) rows of a postings read.
std::vector<RunBlock> RunBlocks(PGresult* r) {
  std::vector<RunBlock> blocks;
  blocks.reserve(static_cast<size_t>(PQntuples(r)));
  for (int i = 0; i < PQntuples(r); ++i) blocks.push_back({GetInt(r, i, 0), GetBytes(r, i, 1)});
  return blocks;
}

}  // namespace

absl::StatusOr<std::vector<RunBlock>> PostgresStore::Postings(int64_t ruleset, int64_t bucket,
                                                              const std::vector<int64_t>& except_runs) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kPostings, Params().Int8(ruleset).Int8(bucket).Int8Array(except_runs)));
  return RunBlocks(r.get());
}

absl::StatusOr<std::vector<RunBlock>> PostgresStore::PostingHeads(int64_t ruleset, int64_t bucket, int64_t bytes) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kPostingHeads, Params().Int8(ruleset).Int8(bucket).Int8(bytes)));
  return RunBlocks(r.get());
}

absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> PostgresStore::RunBuckets(
    int64_t run, std::pair<int64_t, int64_t> buckets) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kRunBuckets, Params().Int8(run).Int8(buckets.first).Int8(buckets.second)));
  std::vector<std::pair<int64_t, int64_t>> rows;
  for (int i = 0; i < PQntuples(r.get()); ++i) rows.emplace_back(GetInt(r.get(), i, 0), GetInt(r.get(), i, 1));
  return rows;
}

absl::StatusOr<std::vector<PostingRow>> PostgresStore::RunPostings(int64_t run, std::pair<int64_t, int64_t> after,
                                                                   int limit, std::pair<int64_t, int64_t> buckets) {
  if (limit <= 0) return std::vector<PostingRow>();
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kRunPostings, Params()
                                                           .Int8(run)
                                                           .Int8(after.first)
                                                           .Int8(after.second)
                                                           .Int8(limit)
                                                           .Int8(buckets.first)
                                                           .Int8(buckets.second)));
  std::vector<PostingRow> rows;
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    rows.push_back({GetInt(r.get(), i, 0), GetInt(r.get(), i, 1), GetBytes(r.get(), i, 2)});
  }
  return rows;
}

absl::Status PostgresStore::DeleteRun(int64_t run) {
  return Atomically([&]() -> absl::Status {
    SCRIBE_RETURN_IF_ERROR(Exec(kDeletePostings, Params().Int8(run)).status());
    return Exec(kDeleteRun, Params().Int8(run)).status();
  });
}

// ---------------------------------------------------------------------------
// The explorer, players and ratings.

// The rows go by COPY into a temporary table, then into explorer summed by
// key: one statement whatever their number, duplicates within the batch
// included (ON CONFLICT may touch a row once per statement).
absl::Status PostgresStore::AddExplorer(const std::vector<ExplorerRow>& rows) {
  if (rows.empty()) return absl::OkStatus();
  CopyData data;
  for (const ExplorerRow& row : rows) {
    data.Tuple(10);
    data.Int8(row.ruleset);
    data.Int8(row.key);
    data.Int4(row.roll);
    data.Int4(row.from);
    data.Int4(row.to);
    data.Int8(row.games);
    data.Int8(row.light_wins);
    data.Int8(row.dark_wins);
    data.Float8(row.accuracy_sum);
    data.Int8(row.accuracy_count);
  }
  return Atomically([&]() -> absl::Status {
    SCRIBE_RETURN_IF_ERROR(Command(
        "CREATE TEMPORARY TABLE IF NOT EXISTS scribe_explorer_in (LIKE explorer) ON COMMIT DELETE ROWS"));
    SCRIBE_RETURN_IF_ERROR(CopyIn("COPY scribe_explorer_in FROM STDIN (FORMAT binary)", data));
    SCRIBE_RETURN_IF_ERROR(Exec(kMergeExplorer, Params()).status());
    return Command("TRUNCATE scribe_explorer_in");
  });
}

absl::StatusOr<std::vector<ExplorerRow>> PostgresStore::Explorer(int64_t ruleset, int64_t key) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kExplorer, Params().Int8(ruleset).Int8(key)));
  std::vector<ExplorerRow> rows;
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    const PGresult* p = r.get();
    rows.push_back({GetInt(p, i, 0), GetInt(p, i, 1), static_cast<int>(GetInt(p, i, 2)),
                    static_cast<int>(GetInt(p, i, 3)), static_cast<int>(GetInt(p, i, 4)), GetInt(p, i, 5),
                    GetInt(p, i, 6), GetInt(p, i, 7), GetFloat8(p, i, 8), GetInt(p, i, 9)});
  }
  return rows;
}

absl::StatusOr<PlayerTotals> PostgresStore::Player(const std::string& name) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kPlayer, Params().Text(name)));
  const PGresult* p = r.get();
  PlayerTotals t;
  if (PQntuples(p) == 0) return t;
  t.games = GetInt(p, 0, 0);
  t.wins = GetInt(p, 0, 1);
  t.losses = GetInt(p, 0, 2);
  t.unfinished = GetInt(p, 0, 3);
  t.as_light = GetInt(p, 0, 4);
  t.reviewed = GetInt(p, 0, 5);
  t.accuracy = GetFloat8(p, 0, 6);
  t.error_rate = GetFloat8(p, 0, 7);
  t.performance = GetFloat8(p, 0, 8);
  t.first_date = GetBytes(p, 0, 9);
  t.last_date = GetBytes(p, 0, 10);
  return t;
}

absl::Status PostgresStore::RecomputePlayers() {
  return Atomically([&]() -> absl::Status {
    SCRIBE_RETURN_IF_ERROR(Exec(kDeletePlayers, Params()).status());
    return Exec(kFillPlayers, Params()).status();
  });
}

absl::Status PostgresStore::ReplaceRatings(const std::vector<RatingRow>& rows) {
  CopyData data;
  for (const RatingRow& row : rows) {
    data.Tuple(6);
    data.Bytes(row.player);
    data.Bytes(row.period);
    data.Float8(row.rating);
    data.Float8(row.deviation);
    data.Float8(row.volatility);
    data.Int8(row.games);
  }
  return Atomically([&]() -> absl::Status {
    SCRIBE_RETURN_IF_ERROR(Exec(kDeleteRatings, Params()).status());
    if (rows.empty()) return absl::OkStatus();
    return CopyIn("COPY ratings (player, period, rating, deviation, volatility, games) FROM STDIN (FORMAT binary)",
                  data);
  });
}

absl::StatusOr<std::vector<RatingRow>> PostgresStore::Ratings(const std::string& player) {
  SCRIBE_ASSIGN_OR_RETURN(Result r, Exec(kRatings, Params().Text(player)));
  std::vector<RatingRow> rows;
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    const PGresult* p = r.get();
    rows.push_back({GetBytes(p, i, 0), GetBytes(p, i, 1), GetFloat8(p, i, 2), GetFloat8(p, i, 3),
                    GetFloat8(p, i, 4), GetInt(p, i, 5)});
  }
  return rows;
}

absl::Status PostgresStore::ScanResults(
    const std::function<bool(const std::string&, const std::string&, const std::string&, int)>& visit) {
  // Finished games with a date (stored NULL when there is none) and both
  // players named, in date order (Store::ScanResults).
  const std::string sql =
      "SELECT date, light, dark, result FROM games WHERE result IN (1, 2) AND date IS NOT NULL"
      " AND light <> '' AND dark <> '' ORDER BY date, id";
  return Scan(sql, Params(), [&visit](const PGresult* r, int row) {
    return visit(GetBytes(r, row, 0), GetBytes(r, row, 1), GetBytes(r, row, 2), static_cast<int>(GetInt(r, row, 3)));
  });
}

// ---------------------------------------------------------------------------
// Connecting.

void IgnoreNotice(void*, const char*) {}

// "host:port/db" of the URL, for a connection that failed.
std::string Where(PGconn* conn, const std::string& url) {
  std::string host = PQhost(conn) ? PQhost(conn) : "", port = PQport(conn) ? PQport(conn) : "";
  std::string db = PQdb(conn) ? PQdb(conn) : "";
  if (host.empty() || port.empty() || db.empty()) {
    if (PQconninfoOption* options = PQconninfoParse(url.c_str(), nullptr)) {
      for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
        const std::string value = o->val ? o->val : "";
        if (host.empty() && absl::string_view(o->keyword) == "host") host = value;
        if (port.empty() && absl::string_view(o->keyword) == "port") port = value;
        if (db.empty() && absl::string_view(o->keyword) == "dbname") db = value;
      }
      PQconninfoFree(options);
    }
  }
  return absl::StrCat(host.empty() ? "localhost" : host, ":", port.empty() ? "5432" : port, "/", db);
}

absl::Status ConnectError(PGconn* conn, const std::string& url) {
  const std::string message = OneLine(PQerrorMessage(conn));
  const std::string where = Where(conn, url);
  if (absl::StrContains(message, "authentication failed") || absl::StrContains(message, "pg_hba.conf") ||
      absl::StrContains(message, "no password supplied") || absl::StrContains(message, "permission denied") ||
      (absl::StrContains(message, "role \"") && absl::StrContains(message, "does not exist"))) {
    return absl::PermissionDeniedError(absl::StrCat("PostgreSQL at ", where, " refused the login: ", message));
  }
  if (absl::StrContains(message, "database \"") && absl::StrContains(message, "does not exist")) {
    return absl::NotFoundError(
        absl::StrCat("no PostgreSQL database at ", where, ": ", message, "; create it first (createdb)"));
  }
  return absl::UnavailableError(
      absl::StrCat("cannot reach PostgreSQL at ", where, ": ", message, "; is the server running?"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<games::Store>> OpenPostgresStore(const std::string& url, OpenMode mode,
                                                                const PostgresOptions& options) {
  char* parse_error = nullptr;
  PQconninfoOption* parsed = PQconninfoParse(url.c_str(), &parse_error);
  if (parsed == nullptr) {
    std::string message = parse_error ? OneLine(parse_error) : "out of memory";
    PQfreemem(parse_error);
    return absl::InvalidArgumentError("not a PostgreSQL connection URL: " + message);
  }
  PQconninfoFree(parsed);
  // Defaults before the URL (which may override them); UTF8 after it: the
  // store's strings are UTF-8 whatever the server's encoding.
  const std::string timeout = absl::StrCat(options.connect_timeout.count());
  // A session that stops answering (its process frozen, its machine cut
  // off) must not hold the writer lock for long: the server ends a
  // transaction idle past options.idle_write_timeout, and TCP keepalives
  // find a dead peer in about 25 s.
  const std::string idle =
      absl::StrCat("-c idle_in_transaction_session_timeout=", options.idle_write_timeout.count());
  const char* keys[] = {"connect_timeout", "application_name", "keepalives", "keepalives_idle",
                        "keepalives_interval", "keepalives_count", "options", "dbname", "client_encoding", nullptr};
  const char* values[] = {timeout.c_str(), "scribe", "1", "10", "5", "3", idle.c_str(), url.c_str(), "UTF8", nullptr};
  PGconn* conn = PQconnectdbParams(keys, values, 1);
  if (conn == nullptr) return absl::ResourceExhaustedError("out of memory connecting to PostgreSQL");
  if (PQstatus(conn) != CONNECTION_OK) {
    absl::Status status = ConnectError(conn, url);
    PQfinish(conn);
    return status;
  }
  PQsetNoticeProcessor(conn, IgnoreNotice, nullptr);
  auto store = std::make_unique<PostgresStore>(conn, options);
  SCRIBE_RETURN_IF_ERROR(store->OpenSchema(mode));
  return store;
}

absl::StatusOr<std::unique_ptr<games::Store>> OpenPostgresStore(const std::string& url, OpenMode mode) {
  return OpenPostgresStore(url, mode, PostgresOptions());
}

}  // namespace scribe::storage
