#include "games/import.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "games/game_codec.h"
#include "games/position_index.h"

namespace scribe::games {

struct Importer::Pending {
  GameRow row;
  std::shared_ptr<const Rules> rules;
  SourceRow source;
  // (Its postings are in its batch's Batch::postings, by ruleset.)
  // The explorer's share: the action from each position first reached
  // within the depth.
  struct Step {
    uint64_t key;
    int roll, from, to;
    Side mover;
  };
  std::vector<Step> steps;
};

namespace {

constexpr char kDepthSetting[] = "explorer_depth";
// The form of the database's identity bytes (game_codec.h): set by the
// schema's migrations, "1" where games were stored before version 2.
constexpr char kIdentitySetting[] = "identity";
// "deferred" while the search indexes are dropped (an import's
// defer_search_indexes), "built" once built again; unset before.
constexpr char kSearchIndexesSetting[] = "search_indexes";

std::string Tag(const v1::GameRecord& record, const char* name) {
  auto it = record.tags().find(name);
  return it == record.tags().end() ? std::string() : it->second;
}

int ResultOf(const JudgedRecord& judged) {
  if (judged.verdict.winner.has_value()) return *judged.verdict.winner == kLight ? 1 : 2;
  const std::string result = Tag(judged.record, "Result");
  if (result == "light") return 1;
  if (result == "dark") return 2;
  return 0;
}

}  // namespace

Importer::Importer(Store& store, ImportOptions options, int depth, int identity_version)
    : store_(store), options_(options), depth_(depth), identity_version_(identity_version), rules_(store) {
  review_threads_ = options.review_threads > 0 ? options.review_threads : DefaultAnalysisThreads();
}

absl::StatusOr<std::unique_ptr<Importer>> Importer::Start(Store& store, ImportOptions options) {
  absl::StatusOr<std::optional<std::string>> depth = store.Setting(kDepthSetting);
  if (!depth.ok()) return depth.status();
  int value = kDefaultExplorerDepth;
  if (depth->has_value()) {
    try {
      value = std::stoi(**depth);
    } catch (...) {
      return absl::DataLossError(absl::StrCat(store.Name(), ": its explorer depth is not a number"));
    }
  } else {
    absl::Status s = InWrite(store, [&] { return store.SetSetting(kDepthSetting, std::to_string(value)); });
    if (!s.ok()) return s;
  }
  absl::StatusOr<std::optional<std::string>> identity = store.Setting(kIdentitySetting);
  if (!identity.ok()) return identity.status();
  int version = kIdentityV2;
  if (identity->has_value()) {
    if (**identity != "1" && **identity != "2") {
      return absl::DataLossError(
          absl::StrCat(store.Name(), ": its games' identity form is \"", **identity, "\", which this build does not know"));
    }
    version = **identity == "1" ? kIdentityV1 : kIdentityV2;
  }
  absl::StatusOr<bool> left = SearchIndexesDeferred(store);
  if (!left.ok()) return left.status();
  bool deferred = *left;
  std::optional<int64_t> dropped_at;  // OthersWrites when this import dropped them
  if (options.defer_search_indexes && !deferred && store.CanDeferSearchIndexes()) {
    // Whether the database has games is decided inside the write: another
    // importer may add some first.
    absl::Status s = InWrite(store, [&]() -> absl::Status {
      absl::StatusOr<int64_t> games = store.CountGames(GameQuery{});
      if (!games.ok()) return games.status();
      if (*games > 0) return absl::OkStatus();
      absl::Status dropped = store.DropSearchIndexes();
      if (dropped.ok()) dropped = store.SetSetting(kSearchIndexesSetting, "deferred");
      deferred = dropped.ok();
      if (!dropped.ok()) return dropped;
      // No game is stored: each one this import adds, it knows.
      absl::StatusOr<int64_t> others = store.OthersWrites();
      if (others.ok()) dropped_at = *others;
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
  }
  auto importer = std::unique_ptr<Importer>(new Importer(store, options, value, version));
  importer->search_indexes_deferred_ = deferred;
  if (dropped_at.has_value() && options.own_hashes_in_memory > 0) {
    importer->own_hashes_ = true;
    importer->others_writes_ = *dropped_at;
  }
  return importer;
}

absl::StatusOr<bool> SearchIndexesDeferred(Store& store) {
  absl::StatusOr<std::optional<std::string>> indexes = store.Setting(kSearchIndexesSetting);
  if (!indexes.ok()) return indexes.status();
  return indexes->value_or("") == "deferred";
}

absl::Status BuildDeferredSearchIndexes(Store& store) {
  absl::StatusOr<bool> deferred = SearchIndexesDeferred(store);
  if (!deferred.ok()) return deferred.status();
  if (!*deferred) return absl::OkStatus();
  return InWrite(store, [&]() -> absl::Status {
    absl::Status s = store.BuildSearchIndexes();
    if (s.ok()) s = store.SetSetting(kSearchIndexesSetting, "built");
    return s;
  });
}

absl::Status Importer::Add(const JudgedRecord& judged, const std::string& file, int64_t index) {
  if (!failed_.ok()) return failed_;
  actions_.clear();
  absl::StatusOr<EncodedGame> encoded = EncodeGame(judged, &actions_, identity_version_);
  if (!encoded.ok()) return At(encoded.status(), file, index);
  const Rules& rules = *judged.verdict.rules;
  Pending game;
  game.rules = judged.verdict.rules;
  game.source = SourceRow{file, index};
  GameRow& row = game.row;
  row.identity = std::move(encoded->identity);
  row.extra = std::move(encoded->extra);
  row.identity_hash = IdentityHash(rules.digest, row.identity);
  row.light = std::move(encoded->columns.light);
  row.dark = std::move(encoded->columns.dark);
  row.event = std::move(encoded->columns.event);
  row.date = std::move(encoded->columns.date);
  row.result = ResultOf(judged);
  row.plies = judged.record.actions_size();
  // Reviewed with the games around it, over every review thread, before
  // its batch is handed to the writer (StartReviews, FinishReviews).
  if (options_.analyzer != nullptr) to_review_.push_back(ToReview{filling_.games.size(), judged});
  auto& made = keys_[rules.digest];
  if (made.keys == nullptr) {
    made.rules = judged.verdict.rules;
    made.keys = std::make_unique<PositionKeys>(*made.rules);
  }
  const PositionKeys* keys = made.keys.get();
  // The judged positions (EncodeGame's bytes replay to them: the codec's
  // tests), each key once, at its first ply; the posting names the game
  // by its place in the batch until Write knows its id.
  seen_.Clear();
  const auto& positions = judged.verdict.positions;
  const int64_t place = static_cast<int64_t>(filling_.games.size());
  Batch::Postings& batch_postings = filling_.postings[rules.digest];
  batch_postings.keys = &made;
  std::vector<KeyedGame>& postings = batch_postings.postings;
  for (size_t ply = 0; ply < positions.size(); ++ply) {
    const uint64_t key = keys->Key(positions[ply]);
    if (!seen_.Insert(key)) continue;
    const bool shallow = ply <= static_cast<size_t>(depth_);
    postings.push_back(KeyedGame{key, place << 1 | shallow});
    if (!shallow) continue;
    Pending::Step step{key, -1, -1, -1, positions[ply].to_move};
    if (ply < actions_.size()) {
      const PlayedAction& a = actions_[ply];
      step.roll = a.roll;
      if (a.moved) {
        step.from = a.move.from;
        step.to = a.move.to;
      }
    }
    game.steps.push_back(step);
  }
  filling_.games.push_back(std::move(game));
  if (to_review_.size() >= static_cast<size_t>(32 * review_threads_)) {
    absl::Status s = StartReviews();
    if (!s.ok()) return s;
  }
  if (filling_.games.size() >= static_cast<size_t>(options_.batch_games)) return Hand();
  return absl::OkStatus();
}

struct Importer::ReviewChunk {
  std::vector<ToReview> records;
  std::vector<absl::StatusOr<std::array<PlayerFigures, 2>>> results;
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
};

absl::Status Importer::StartReviews() {
  absl::Status s = FinishReviews();
  if (!s.ok() || to_review_.empty()) return s;
  reviewing_ = std::make_unique<ReviewChunk>();
  ReviewChunk* chunk = reviewing_.get();
  chunk->records.swap(to_review_);
  chunk->results.resize(chunk->records.size());
  const Analyzer* analyzer = options_.analyzer;
  for (int t = 0; t < review_threads_ && static_cast<size_t>(t) < chunk->records.size(); ++t) {
    chunk->threads.emplace_back([chunk, analyzer] {
      for (size_t i; (i = chunk->next++) < chunk->records.size();) {
        chunk->results[i] = analyzer->Figures(chunk->records[i].judged);
      }
    });
  }
  return absl::OkStatus();
}

absl::Status Importer::FinishReviews() {
  if (reviewing_ == nullptr) return absl::OkStatus();
  for (std::thread& t : reviewing_->threads) t.join();
  std::unique_ptr<ReviewChunk> chunk = std::move(reviewing_);
  for (size_t i = 0; i < chunk->records.size(); ++i) {
    Pending& game = filling_.games[chunk->records[i].place];
    const absl::StatusOr<std::array<PlayerFigures, 2>>& result = chunk->results[i];
    if (!result.ok()) return At(result.status(), game.source.file, game.source.index);
    for (Side s : {kLight, kDark}) {
      const PlayerFigures& p = (*result)[s];
      game.row.figures[s] = ReviewFigures{p.accuracy, p.error_rate, p.rating};
    }
    ++filling_.counts.reviewed;  // counted when its batch is committed
  }
  return absl::OkStatus();
}

absl::Status Importer::At(absl::Status status, const std::string& file, int64_t index) {
  failed_ = absl::Status(status.code(), absl::StrCat(status.message(), " (at ", file, " record ", index + 1, ")"));
  return failed_;
}

absl::Status Importer::Hand() {
  // Every game of the batch reviewed before it goes.
  absl::Status s = StartReviews();
  if (s.ok()) s = FinishReviews();
  if (!s.ok()) return s;
  // Its postings sorted by key (by the batch's order within a key) here,
  // while the writer still writes the batch before: the writer was the
  // import's slower thread.
  for (auto& [digest, of_rules] : filling_.postings) SortByKey(&of_rules.postings, &scratch_);
  for (const Pending& game : filling_.games) SumExplorer(game, &filling_.explorer[game.rules->digest]);
  s = Wait();
  if (!s.ok() || filling_.games.empty()) return s;
  std::swap(filling_, writing_);
  writer_ = std::thread([this] { written_ = WriteBatch(writing_); });
  return absl::OkStatus();
}

absl::Status Importer::Wait() {
  if (!writer_.joinable()) return failed_;
  writer_.join();
  if (writing_.committed) {  // (a merge after it may have failed)
    counts_.added += writing_.counts.added;
    counts_.new_sources += writing_.counts.new_sources;
    counts_.known_sources += writing_.counts.known_sources;
    counts_.duplicates += writing_.counts.duplicates;
    counts_.reviewed += writing_.counts.reviewed;
  }
  if (writing_.in_doubt) {
    counts_.in_doubt_records += static_cast<int64_t>(writing_.games.size());
    counts_.in_doubt += writing_.counts.added;
  }
  if (!written_.ok() && failed_.ok()) failed_ = written_;
  // Written or rolled back, the batch is gone; its buffers are kept for
  // the next one.
  writing_.games.clear();
  for (auto& [digest, of_rules] : writing_.postings) of_rules.postings.clear();
  for (auto& [digest, rows] : writing_.explorer) rows.clear();
  writing_.counts = ImportCounts{};
  writing_.committed = false;
  writing_.in_doubt = false;
  return failed_;
}

absl::Status Importer::Flush() {
  absl::Status s = Hand();
  if (!s.ok()) return s;
  return Wait();
}

absl::Status Importer::WriteBatch(Batch& batch) {
  batch.run = RunRow{};
  absl::Status s = store_.BeginWrite();
  if (s.ok()) s = Write(batch);
  if (s.ok()) s = store_.Commit();
  const SourceRow& first = batch.games.front().source;
  if (s.ok()) {
    batch.committed = true;
    if (own_hashes_) own_games_.insert(own_pending_.begin(), own_pending_.end());
    own_pending_.clear();
    if (batch.run.run != 0) runs_.push_back(batch.run);
    s = MergeLevels();
    if (s.ok() && options_.settle_each_batch) s = store_.Settle();
    if (s.ok()) return s;
    return absl::Status(s.code(), absl::StrCat(s.message(), " (merging the position index after the batch from ",
                                                first.file, " record ", first.index + 1,
                                                ", which is kept)"));
  }
  batch.in_doubt = IsCommitInDoubt(s);
  own_pending_.clear();
  (void)store_.Rollback();
  rules_.Forget();
  return absl::Status(s.code(), absl::StrCat(s.message(), " (writing the batch of ", batch.games.size(),
                                              " records from ", first.file, " record ", first.index + 1, ")"));
}

absl::Status Importer::MergeLevels() { return MergeFullLevels(store_, runs_); }

absl::Status Importer::Place(Batch& batch, std::vector<int64_t>& ids) {
  const size_t n = batch.games.size();
  std::vector<SourceRow> sources;
  sources.reserve(n);
  for (const Pending& game : batch.games) sources.push_back(game.source);
  absl::StatusOr<std::vector<std::optional<int64_t>>> known = store_.SourceGames(sources);
  if (!known.ok()) return known.status();
  // The stored games that may be the same as one of the batch's: those of
  // the same identity hash. The hash only finds them; the ruleset and the
  // identity bytes decide.
  std::vector<uint64_t> hashes;
  for (size_t i = 0; i < n; ++i) {
    if (!(*known)[i].has_value()) hashes.push_back(batch.games[i].row.identity_hash);
  }
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  absl::StatusOr<std::vector<GameRow>> stored = StoredWithHashes(hashes);
  if (!stored.ok()) return stored.status();
  using Identity = std::pair<int64_t, absl::string_view>;  // (ruleset, identity bytes)
  absl::flat_hash_map<Identity, int64_t> stored_game;
  for (const GameRow& g : *stored) stored_game.emplace(Identity{g.ruleset, g.identity}, g.id);
  // The batch's own sources and new games (a batch may hold a source or a
  // game twice).
  absl::flat_hash_set<std::pair<absl::string_view, int64_t>> batch_sources;
  absl::flat_hash_map<Identity, size_t> new_game;  // → its place in `added`
  std::vector<size_t> added;                       // the new games' places in the batch
  struct NewSource {
    int64_t game;      // a stored game, or -1
    size_t new_index;  // else the new game's place in `added`
    size_t place;      // the record's place in the batch
  };
  std::vector<NewSource> new_sources;
  for (size_t i = 0; i < n; ++i) {
    const Pending& game = batch.games[i];
    const bool sourced = !game.source.file.empty();
    if (sourced &&
        ((*known)[i].has_value() || !batch_sources.emplace(game.source.file, game.source.index).second)) {
      ++batch.counts.known_sources;
      continue;
    }
    const Identity identity{game.row.ruleset, game.row.identity};
    if (!sourced && (stored_game.contains(identity) || new_game.contains(identity))) {
      ++batch.counts.duplicates;  // no source to add: nothing to store
      continue;
    }
    if (auto it = stored_game.find(identity); it != stored_game.end()) {
      new_sources.push_back(NewSource{it->second, 0, i});
      ++batch.counts.new_sources;
    } else if (auto in_batch = new_game.find(identity); in_batch != new_game.end()) {
      new_sources.push_back(NewSource{-1, in_batch->second, i});
      ++batch.counts.new_sources;
    } else {
      new_game.emplace(identity, added.size());
      new_sources.push_back(NewSource{-1, added.size(), i});
      added.push_back(i);
      ++batch.counts.added;
    }
  }
  std::vector<GameRow> rows;
  rows.reserve(added.size());
  for (size_t i : added) rows.push_back(batch.games[i].row);
  absl::StatusOr<std::vector<int64_t>> new_ids = store_.AddGames(rows);
  if (!new_ids.ok()) return new_ids.status();
  if (new_ids->size() != added.size()) return absl::InternalError("the database returned a wrong number of game ids");
  for (size_t k = 0; k < added.size(); ++k) ids[added[k]] = (*new_ids)[k];
  if (own_hashes_) {
    if (static_cast<int64_t>(own_games_.size() + added.size()) > options_.own_hashes_in_memory) {
      own_hashes_ = false;  // the next batch's look-ups build the index
      own_games_.clear();
    } else {
      for (size_t k = 0; k < added.size(); ++k) {
        own_pending_.emplace_back(batch.games[added[k]].row.identity_hash, (*new_ids)[k]);
      }
    }
  }
  for (const NewSource& source : new_sources) {
    if (batch.games[source.place].source.file.empty()) continue;  // a record without a source
    const int64_t game = source.game >= 0 ? source.game : (*new_ids)[source.new_index];
    absl::Status s = store_.AddSource(game, batch.games[source.place].source);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<GameRow>> Importer::StoredWithHashes(const std::vector<uint64_t>& hashes) {
  if (own_hashes_) {
    // Still every stored game's, unless someone else wrote since the
    // last batch.
    absl::StatusOr<int64_t> others = store_.OthersWrites();
    if (!others.ok()) return others.status();
    if (*others != others_writes_) {
      own_hashes_ = false;
      own_games_.clear();
    }
  }
  if (!own_hashes_) return store_.GamesWithHashes(hashes);
  std::vector<int64_t> ids;
  for (uint64_t hash : hashes) {
    auto [from, to] = own_games_.equal_range(hash);
    for (auto it = from; it != to; ++it) ids.push_back(it->second);
  }
  if (ids.empty()) return std::vector<GameRow>();
  return store_.GamesById(ids);
}

absl::Status Importer::Write(Batch& batch) {
  // Each game placed: its id, or -1 when it adds no game.
  std::vector<int64_t> ids(batch.games.size(), -1);
  for (Pending& game : batch.games) {
    absl::StatusOr<const KnownRules*> known = rules_.Add(game.rules);
    if (!known.ok()) return known.status();
    game.row.ruleset = (*known)->id;
  }
  // Sources and duplicates are looked up for the whole batch at once.
  absl::Status placed = Place(batch, ids);
  if (!placed.ok()) return placed;
  // The explorer's rows as Hand summed them, unless a game was not added.
  if (std::find(ids.begin(), ids.end(), -1) != ids.end()) {
    for (auto& [digest, rows] : batch.explorer) rows.clear();
    for (size_t i = 0; i < batch.games.size(); ++i) {
      if (ids[i] >= 0) SumExplorer(batch.games[i], &batch.explorer[batch.games[i].rules->digest]);
    }
  }
  // The postings' blocks are made on a helper thread while the explorer's
  // rows are written (the writer is the import's slower thread).
  struct Run {
    const PositionKeys* keys;
    std::vector<KeyedGame>* postings;
    int64_t ruleset;
    std::vector<PostingRow> rows;
  };
  std::vector<Run> runs;
  for (auto& [digest, of_rules] : batch.postings) {
    if (of_rules.postings.empty()) continue;
    absl::StatusOr<const KnownRules*> known = rules_.Add(of_rules.keys->rules);
    if (!known.ok()) return known.status();
    runs.push_back(Run{of_rules.keys->keys.get(), &of_rules.postings, (*known)->id, {}});
  }
  std::thread maker([&runs, &ids] {
    for (Run& r : runs) RunBlocks(*r.keys, *r.postings, r.ruleset, ids, &r.rows);
  });
  absl::Status s = WriteExplorer(batch);
  maker.join();
  for (Run& r : runs) {
    if (s.ok()) s = WriteRun(r.rows, &batch.run);
  }
  return s;
}

absl::Status Importer::WriteExplorer(Batch& batch) {
  std::vector<ExplorerRow> rows;
  for (auto& [digest, of_rules] : batch.explorer) {
    if (of_rules.empty()) continue;
    absl::StatusOr<const KnownRules*> known = rules_.Add(batch.postings.at(digest).keys->rules);
    if (!known.ok()) return known.status();
    for (auto& [k, row] : of_rules) {
      row.ruleset = (*known)->id;
      rows.push_back(row);
    }
  }
  if (!rows.empty()) return store_.AddExplorer(rows);
  return absl::OkStatus();
}

void Importer::SumExplorer(const Pending& game, Batch::ExplorerRows* rows) {
  for (const Pending::Step& step : game.steps) {
    ExplorerRow& row = (*rows)[{step.key, step.roll, step.from, step.to}];
    row.key = static_cast<int64_t>(step.key);
    row.roll = step.roll;
    row.from = step.from;
    row.to = step.to;
    ++row.games;
    row.light_wins += game.row.result == 1;
    row.dark_wins += game.row.result == 2;
    if (game.row.figures[step.mover].has_value()) {
      row.accuracy_sum += game.row.figures[step.mover]->accuracy;
      ++row.accuracy_count;
    }
  }
}

void Importer::RunBlocks(const PositionKeys& keys, std::vector<KeyedGame>& postings, int64_t ruleset,
                         const std::vector<int64_t>& ids, std::vector<PostingRow>* rows) {
  // The postings (sorted by key, in the batch's order within a key: Hand)
  // of the games placed, named by id; the batch's order is the games' ids'
  // order (a group out of order is sorted: ids need not grow on every
  // backend).
  size_t kept = 0;
  for (const KeyedGame& p : postings) {
    const int64_t id = ids[static_cast<size_t>(p.tagged >> 1)];
    if (id >= 0) postings[kept++] = KeyedGame{p.key, id << 1 | (p.tagged & 1)};
  }
  postings.resize(kept);
  // Each key's games counted: a key many games of the batch reach (the
  // start, the first plies) gets a block of its own, so a lookup of it
  // reads no other key's postings; the other keys make one block per
  // bucket. Own blocks that share a bucket (two keys alike but for the top
  // bit) are one block.
  std::map<int64_t, std::vector<Posting>> own;  // by bucket
  std::vector<Posting> block;
  int64_t block_bucket = 0;
  auto flush = [&] {
    if (block.empty()) return;
    rows->push_back(PostingRow{ruleset, block_bucket, EncodePostings(block.data(), block.data() + block.size())});
    block.clear();
  };
  auto take = [&](size_t i, size_t j, std::vector<Posting>* to) {
    const size_t first = to->size();
    for (size_t k = i; k < j; ++k) {
      to->push_back(Posting{postings[k].key, postings[k].tagged >> 1, (postings[k].tagged & 1) != 0});
    }
    if (!std::is_sorted(to->begin() + first, to->end())) std::sort(to->begin() + first, to->end());
  };
  // Keys are kept apart (position_index.h, kApartSetting): every posting
  // of an own bucket's keys goes to its block, a key with few postings
  // too when the other key of its own bucket (the key but for the top bit)
  // has many. The keys with many, but for the top bit, sorted; looked up
  // by a cursor that moves forward over them (the keys grow, but for the
  // top bit, within each half: the keys without the top bit, then those
  // with it).
  std::vector<uint64_t> many;
  constexpr uint64_t kTop = uint64_t{1} << 63;
  for (size_t i = 0; i < postings.size();) {
    size_t j = i + 1;
    while (j < postings.size() && postings[j].key == postings[i].key) ++j;
    if (static_cast<int64_t>(j - i) >= kOwnBlock) many.push_back(postings[i].key & ~kTop);
    i = j;
  }
  std::sort(many.begin(), many.end());
  size_t at = 0;
  bool top_half = false;
  for (size_t i = 0; i < postings.size();) {
    size_t j = i + 1;
    while (j < postings.size() && postings[j].key == postings[i].key) ++j;
    const uint64_t key = postings[i].key;
    if (!top_half && (key & kTop) != 0) {
      top_half = true;
      at = 0;
    }
    while (at < many.size() && many[at] < (key & ~kTop)) ++at;
    if (at < many.size() && many[at] == (key & ~kTop)) {
      take(i, j, &own[OwnBucket(key)]);
    } else {
      const int64_t bucket = keys.Bucket(key);
      if (bucket != block_bucket) flush();
      block_bucket = bucket;
      take(i, j, &block);
    }
    i = j;
  }
  for (auto& [bucket, mine] : own) {
    flush();
    std::sort(mine.begin(), mine.end());
    block_bucket = bucket;
    block = std::move(mine);
  }
  flush();
}

absl::Status Importer::WriteRun(std::vector<PostingRow>& rows, RunRow* run) {
  if (rows.empty()) return absl::OkStatus();
  if (run->run == 0) {  // one run for the batch, made when it has postings
    absl::StatusOr<int64_t> made_run = store_.NewRun();
    if (!made_run.ok()) return made_run.status();
    run->run = *made_run;
  }
  for (const PostingRow& row : rows) run->bytes += static_cast<int64_t>(row.data.size());
  return store_.AddPostings(run->run, rows);
}

Importer::~Importer() {
  if (reviewing_ != nullptr) {
    for (std::thread& t : reviewing_->threads) t.join();
  }
  if (writer_.joinable()) writer_.join();
}

absl::Status Importer::Finish() {
  absl::Status s = Flush();
  if (options_.compaction == ImportOptions::Compaction::kLevels) {
    if (s.ok()) s = MergeStoreLevels(store_);
  } else {
    if (s.ok()) s = CompactIndex(store_);
    if (s.ok()) s = store_.Reclaim();
  }
  if (s.ok()) s = BuildDeferredSearchIndexes(store_);
  if (s.ok()) search_indexes_deferred_ = false;
  if (s.ok() && !options_.settle_each_batch) s = store_.Settle();
  if (s.ok() && options_.update_players) s = UpdatePlayers(store_);
  return s;
}

}  // namespace scribe::games
