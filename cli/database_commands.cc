// scribe db import and export, and what the db commands share
// (docs/database.md). The database is games/'s; this file reads the files,
// prints what import did and writes the records.
#include "cli/database_commands.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "cli/common.h"
#include "cli/interrupt.h"
#include "cli/record_file_map.h"
#include "cli/record_output.h"
#include "games/import.h"
#include "games/query.h"
#include "games/rules_cache.h"
#include "records/formats.h"
#include "review/pipeline.h"
#include "storage/open_store.h"

namespace scribe {

absl::StatusOr<const games::KnownRules*> RulesOf(games::Store& store, games::RulesCache& cache,
                                                 const std::string& ref) {
  if (!ref.empty()) {
    auto rules = CliRuleset(ref);
    if (!rules.ok()) return rules.status();
    return cache.ByDigest((*rules)->digest);
  }
  auto rows = store.Rulesets();
  if (!rows.ok()) return rows.status();
  if (rows->size() != 1) {
    return absl::InvalidArgumentError(rows->empty() ? "the database holds no game"
                                                    : "the database holds games of several rulesets: give --ruleset");
  }
  return cache.ById(rows->front().id);
}

int DatabaseError(const std::string& command, const absl::Status& status) {
  std::cerr << "scribe: db " << command << ": " << TerminalText(status.message()) << "\n";
  return kExitUsage;
}

std::unique_ptr<games::Store> OpenExisting(const std::string& command, const std::string& db) {
  auto store = storage::OpenStore(db, storage::OpenMode::kExisting);
  if (!store.ok()) {
    DatabaseError(command, store.status());
    return nullptr;
  }
  return *std::move(store);
}

void AddFilterOptions(CLI::App* app, GameFilters& f) {
  app->add_option("--player", f.player, "games of this player, either side");
  app->add_option("--light", f.light, "games with this player as light");
  app->add_option("--dark", f.dark, "games with this player as dark");
  app->add_option("--event", f.event, "games of this event");
  app->add_option("--ruleset", f.ruleset, "games of this ruleset (reference or file)");
  app->add_option("--since", f.date_from, "games on or after this date (YYYY-MM-DD)");
  app->add_option("--until", f.date_to, "games on or before this date (YYYY-MM-DD)");
  app->add_option("--result", f.result, "light, dark or unfinished")
      ->check(CLI::IsMember({"light", "dark", "unfinished"}));
  app->add_option("--sort", f.sort, "id or date")->check(CLI::IsMember({"id", "date"}));
  app->add_flag("--desc", f.descending, "newest (or highest id) first");
}

absl::Status MakeQuery(games::Store& store, const GameFilters& f, games::GameQuery* q) {
  q->player = f.player;
  q->light = f.light;
  q->dark = f.dark;
  q->event = f.event;
  q->date_from = f.date_from;
  q->date_to = f.date_to;
  if (f.result == "light") q->result = 1;
  if (f.result == "dark") q->result = 2;
  if (f.result == "unfinished") q->result = 0;
  q->order = f.sort == "date" ? games::GameQuery::Order::kDate : games::GameQuery::Order::kId;
  q->descending = f.descending;
  if (!f.ruleset.empty()) {
    auto rules = CliRuleset(f.ruleset);
    if (!rules.ok()) return rules.status();
    games::RulesCache cache(store);
    auto known = cache.ByDigest((*rules)->digest);
    if (!known.ok()) return known.status();
    q->ruleset = (*known)->id;
  }
  return absl::OkStatus();
}

namespace {

struct ImportOptions {
  std::string db = kDefaultDatabase;
  std::vector<std::string> files;
  std::string from, ruleset, table;
  int depth = -1;
  int batch = 16000;
};

// After an import that stopped before its end: what it left undone (as
// the database says, when it can: another importer may have built them).
void IndexesLeft(const games::Importer& importer, games::Store& store) {
  if (!importer.search_indexes_deferred()) return;
  const absl::StatusOr<bool> still = games::SearchIndexesDeferred(store);
  if (still.ok() && !*still) return;
  std::cerr << "scribe: db import: the indexes of searches by player, event and date are not built yet (the next "
               "import that finishes builds them); until then those searches read every game\n";
}

// The import's reviews (Analyzer::Figures), with --table or --depth.
std::unique_ptr<Analyzer> ImportAnalyzer(const ImportOptions& o) {
  if (o.table.empty() && o.depth < 0) return nullptr;
  AnalysisOptions options;
  options.chances = std::make_shared<const EvaluatorSource>(
      [&o](const std::shared_ptr<const Rules>& rules) { return TableOrSearch(o.table, o.depth, rules); });
  return std::make_unique<Analyzer>(options);
}

int CmdImport(const ImportOptions& o) {
  for (const std::string& f : o.files) {
    if (f == "-") return DatabaseError("import", absl::InvalidArgumentError("import reads files, not standard input (a source is a file and its record index)"));
  }
  auto policy = ReaderOptions(o.ruleset);
  if (!policy.ok()) return RulesetError(policy.status());
  auto store = storage::OpenStore(o.db, storage::OpenMode::kCreate);
  if (!store.ok()) return DatabaseError("import", store.status());
  std::unique_ptr<Analyzer> analyzer = ImportAnalyzer(o);
  games::ImportOptions options;
  options.batch_games = o.batch;
  options.analyzer = analyzer.get();
  options.defer_search_indexes = true;  // into a database without games
  auto importer = games::Importer::Start(**store, options);
  if (!importer.ok()) return DatabaseError("import", importer.status());
  const StopCheck interrupted = StopOnInterrupt();
  std::vector<PathEntry> files;
  bool all_read = ExpandPaths(o.files, &files);
  int64_t records = 0, illegal = 0;
  absl::Status failed;  // the importer's errors say where it stopped
  // Each file mapped, its pages given back as the records are judged: the
  // import's memory does not grow with a file's size.
  RecordFileMap mapped;
  for (const PathEntry& entry : files) {
    std::string error = entry.error;
    if (!error.empty() || !mapped.Open(entry.path, &error)) {
      std::cerr << "scribe: " << TerminalText(error) << "\n";
      all_read = false;
      continue;
    }
    const std::string source = std::filesystem::absolute(entry.path).lexically_normal().string();
    JudgeOptions judge;
    judge.referee.keep_positions = true;
    judge.limits.stop = [&] { return !failed.ok() || interrupted(); };
    int64_t legal = 0, judged = 0;
    const absl::string_view text = mapped.text();
    JudgedFile file = JudgeEach(entry.path, text, InputFormat(o.from, entry.path, text), *policy, judge,
                                [&](JudgedRecord&& record, bool ok) {
                                  if (!failed.ok()) return;
                                  if (++judged % 1024 == 0) mapped.Release();
                                  if (!ok) return;
                                  ++legal;
                                  failed = (*importer)->Add(record, source, record.index);
                                });
    // A file read whole counts its entries (those the reader could not
    // read are illegal too); one cut short by a failure or Ctrl-C, the
    // records judged before.
    const int64_t counted = file.stopped ? judged : file.entries;
    records += counted;
    illegal += counted - legal;
    for (const v1::Finding& finding : file.report.findings()) {
      if (file.stopped && finding.record_index() >= judged) continue;
      std::cout << FindingToText(entry.path, finding) << "\n";
    }
    if (mapped.Shrank()) {
      std::cerr << "scribe: " << TerminalText(entry.path)
                << ": the file was cut short while it was imported; its records past the cut were read as "
                   "zeros and not stored: import it again\n";
      all_read = false;
    }
    if (file.stopped) break;
  }
  // After a failure, Flush waits for the batch being written (and says the
  // same error): the counts are then what the database keeps. Once every
  // record is reviewed and written, the reviews' table (mapped, up to a
  // GB) is let go before the indexes and the players are made.
  if (failed.ok() && analyzer != nullptr) failed = (*importer)->Flush();
  analyzer.reset();
  failed = failed.ok() ? (*importer)->Finish() : (*importer)->Flush();
  const games::ImportCounts& c = (*importer)->counts();
  std::cout << records << " records: " << c.added << " games added, " << c.new_sources
            << " more sources of games already stored, " << c.known_sources << " already imported, " << illegal
            << " illegal (not stored)";
  if (c.reviewed > 0) std::cout << "; " << c.reviewed << " reviewed";
  std::cout << "\n";
  if (!failed.ok()) {
    std::cerr << "scribe: db import: " << TerminalText(failed.message());
    if (c.in_doubt_records > 0) {
      std::cerr << "; the games counted above are kept; the batch whose commit went unanswered ("
                << c.in_doubt_records << " records, " << c.in_doubt
                << " new games) may be kept too; nothing of any other batch; run the same import again to "
                   "complete it\n";
    } else {
      std::cerr << "; the games counted above are kept, and nothing of a batch not counted; run the same import "
                   "again to complete it\n";
    }
    IndexesLeft(**importer, **store);
    return kExitUsage;
  }
  if (Interrupted()) {
    std::cerr << "scribe: db import: interrupted; the games counted above are kept\n";
    IndexesLeft(**importer, **store);
    return kExitInterrupted;
  }
  if (!all_read) return kExitUsage;
  return illegal > 0 ? kExitInvalid : kExitOk;
}

struct ExportOptions {
  std::string db = kDefaultDatabase;
  GameFilters filters;
  std::string to = "tsn";
  bool tiles = false;
};

int CmdExport(const ExportOptions& o) {
  auto store = OpenExisting("export", o.db);
  if (store == nullptr) return kExitUsage;
  games::GameQuery query;
  absl::Status s = MakeQuery(*store, o.filters, &query);
  if (!s.ok()) return DatabaseError("export", s);
  games::RulesCache rules(*store);
  const Format format = *FormatFromName(o.to);
  // Chunks of records, each written as the format writes several.
  s = games::ForEachRecords(*store, rules, query, 1000, [&](std::vector<v1::GameRecord>&& records) {
    auto text = WriteRecords(format, records, {.tile_names = o.tiles});
    if (!text.ok()) return text.status();
    std::cout << *text;
    return absl::OkStatus();
  });
  if (!s.ok()) return DatabaseError("export", s);
  return kExitOk;
}

}  // namespace

void AddDatabaseCommands(CLI::App& app, CommandRegistry& registry) {
  CLI::App* db = registry.AddGroup(app, "db", "The game database: import, search, explore, player, export");
  auto [import, i] = registry.Add(*db, "import", "Judge records and keep the legal ones in a game database", CmdImport);
  import->add_option("FILE", i.files, "record files or directories")->required();
  import->add_option("--db", i.db, "a SQLite file (made when missing) or a postgresql:// URL");
  import->add_option("--from", i.from, "the input format")->check(CLI::IsMember(FormatNames()));
  import->add_option("--ruleset", i.ruleset, "the ruleset, for formats that do not name one");
  import->add_option("--table", i.table, "review each game with this solved table (figures per player)");
  import->add_option("--depth", i.depth, "review each game with a search this deep")->check(CLI::Range(0, 6));
  import->add_option("--batch", i.batch, "games per transaction")->check(CLI::Range(1, 1000000));
  AddDatabaseQueries(*db, registry);
  AddPlayerCommand(*db, registry);
  AddPagesCommand(*db, registry);
  auto [exp, e] = registry.Add(*db, "export", "Write the stored games (or those matching) as records", CmdExport);
  exp->add_option("--db", e.db, "a SQLite file or a postgresql:// URL");
  exp->add_option("--to", e.to, "output format")->check(CLI::IsMember(FormatNames()));
  exp->add_flag("--tiles", e.tiles, "TSN: squares as tile names");
  AddFilterOptions(exp, e.filters);
}

}  // namespace scribe
