#include "games/import.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "games/game_codec.h"
#include "games/position_index.h"

namespace scribe::games {

struct Importer::Pending {
  GameRow row;
  std::shared_ptr<const Rules> rules;
  SourceRow source;
  // The key of each position the game reaches, once, in the order it
  // first reaches them: the first `shallow` are within the explorer's
  // depth.
  std::vector<uint64_t> keys;
  size_t shallow = 0;
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

Importer::Importer(Store& store, ImportOptions options, int depth)
    : store_(store), options_(options), depth_(depth), rules_(store) {}

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
    absl::Status s = store.BeginWrite();
    if (s.ok()) s = store.SetSetting(kDepthSetting, std::to_string(value));
    if (s.ok()) s = store.Commit();
    if (!s.ok()) {
      (void)store.Rollback();
      return s;
    }
  }
  return std::unique_ptr<Importer>(new Importer(store, options, value));
}

absl::Status Importer::Add(const JudgedRecord& judged, const std::string& file, int64_t index) {
  actions_.clear();
  absl::StatusOr<EncodedGame> encoded = EncodeGame(judged, &actions_);
  if (!encoded.ok()) return encoded.status();
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
  if (options_.analyzer != nullptr) {
    absl::StatusOr<Analysis> analysis = options_.analyzer->Analyze(judged);
    if (!analysis.ok()) return analysis.status();
    if (analysis->review.has_value()) {
      for (Side s : {kLight, kDark}) {
        const PlayerReview& p = analysis->review->players[s];
        row.figures[s] = ReviewFigures{p.accuracy, p.error_rate, p.rating};
      }
      ++counts_.reviewed;
    }
  }
  auto& made = keys_[rules.digest];
  if (made.keys == nullptr) {
    made.rules = judged.verdict.rules;
    made.keys = std::make_unique<PositionKeys>(*made.rules);
  }
  const PositionKeys* keys = made.keys.get();
  // The judged positions (EncodeGame's bytes replay to them: the codec's
  // tests), each key once, at its first ply.
  seen_.clear();
  const auto& positions = judged.verdict.positions;
  game.keys.reserve(positions.size());
  for (size_t ply = 0; ply < positions.size(); ++ply) {
    const uint64_t key = keys->Key(positions[ply]);
    if (!seen_.insert(key).second) continue;
    const bool shallow = ply <= static_cast<size_t>(depth_);
    game.keys.push_back(key);
    game.shallow += shallow;
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
  pending_.push_back(std::move(game));
  if (pending_.size() >= static_cast<size_t>(options_.batch_games)) return Flush();
  return absl::OkStatus();
}

absl::Status Importer::Flush() {
  if (pending_.empty()) return absl::OkStatus();
  absl::Status s = store_.BeginWrite();
  if (!s.ok()) return s;
  const ImportCounts before = counts_;
  s = Write();
  if (s.ok()) s = store_.Commit();
  if (!s.ok()) {
    counts_ = before;
    (void)store_.Rollback();
    rules_.Forget();
    return s;
  }
  pending_.clear();
  return absl::OkStatus();
}

absl::StatusOr<int64_t> Importer::Place(Pending& game, int64_t ruleset) {
  absl::StatusOr<std::optional<int64_t>> known = store_.SourceGame(game.source);
  if (!known.ok()) return known.status();
  if (known->has_value()) {
    ++counts_.known_sources;
    return -1;
  }
  game.row.ruleset = ruleset;
  absl::StatusOr<std::vector<GameRow>> candidates = store_.GamesWithHash(game.row.identity_hash);
  if (!candidates.ok()) return candidates.status();
  for (const GameRow& c : *candidates) {
    if (c.ruleset != ruleset || c.identity != game.row.identity) continue;
    absl::Status s = store_.AddSource(c.id, game.source);
    if (!s.ok()) return s;
    ++counts_.new_sources;
    return -1;
  }
  absl::StatusOr<int64_t> id = store_.AddGame(game.row);
  if (!id.ok()) return id.status();
  absl::Status s = store_.AddSource(*id, game.source);
  if (!s.ok()) return s;
  ++counts_.added;
  return *id;
}

absl::Status Importer::Write() {
  // The index and explorer rows of this batch, by (ruleset, bucket) and by
  // (ruleset, key, roll, from, to).
  // 24 bytes a posting: a batch of 20,000 finkel games holds 3 million.
  struct Keyed {
    uint64_t key;
    int64_t game_shallow;  // game << 1 | shallow
    int64_t ruleset;
    Posting posting() const { return Posting{key, game_shallow >> 1, (game_shallow & 1) != 0}; }
  };
  std::vector<Keyed> postings;
  absl::flat_hash_map<std::tuple<int64_t, uint64_t, int, int, int>, ExplorerRow> explorer;
  absl::flat_hash_map<int64_t, const PositionKeys*> keys_by_id;
  for (Pending& game : pending_) {
    absl::StatusOr<const KnownRules*> known = rules_.Add(game.rules);
    if (!known.ok()) return known.status();
    keys_by_id[(*known)->id] = (*known)->keys.get();
    // Sources and duplicates are looked up in the database: the games of
    // this batch are in it already (the same transaction).
    absl::StatusOr<int64_t> id = Place(game, (*known)->id);
    if (!id.ok()) return id.status();
    if (*id < 0) continue;
    for (size_t k = 0; k < game.keys.size(); ++k) {
      postings.push_back(Keyed{game.keys[k], *id << 1 | (k < game.shallow), (*known)->id});
    }
    std::vector<uint64_t>().swap(game.keys);
    for (const Pending::Step& step : game.steps) {
      ExplorerRow& row = explorer[{(*known)->id, step.key, step.roll, step.from, step.to}];
      row.ruleset = (*known)->id;
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
  // Sorted by key, each key's games counted: a key many games of the batch
  // reach (the start, the first plies) gets a block of its own, so a
  // lookup of it reads no other key's postings; the other keys make one
  // block per bucket. Own blocks that share a bucket (two keys alike but
  // for the top bit) are one block.
  std::sort(postings.begin(), postings.end(), [](const Keyed& a, const Keyed& b) {
    return std::tie(a.ruleset, a.key, a.game_shallow) < std::tie(b.ruleset, b.key, b.game_shallow);
  });
  if (!postings.empty()) {
    absl::StatusOr<int64_t> run = store_.NewRun();
    if (!run.ok()) return run.status();
    std::vector<PostingRow> rows;
    std::map<std::pair<int64_t, int64_t>, std::vector<Posting>> own;
    std::vector<Posting> block;
    int64_t block_ruleset = 0, block_bucket = 0;
    auto flush = [&](bool last) -> absl::Status {
      if (!block.empty()) {
        rows.push_back(PostingRow{block_ruleset, block_bucket, EncodePostings(block.data(), block.data() + block.size())});
        block.clear();
      }
      if (rows.empty() || (!last && rows.size() < 512)) return absl::OkStatus();
      absl::Status s = store_.AddPostings(*run, rows);
      rows.clear();
      return s;
    };
    for (size_t i = 0; i < postings.size();) {
      size_t j = i;
      while (j < postings.size() && postings[j].ruleset == postings[i].ruleset &&
             postings[j].key == postings[i].key) {
        ++j;
      }
      const int64_t ruleset = postings[i].ruleset;
      const uint64_t key = postings[i].key;
      if (static_cast<int64_t>(j - i) >= kOwnBlock) {
        std::vector<Posting>& mine = own[{ruleset, OwnBucket(key)}];
        for (size_t k = i; k < j; ++k) mine.push_back(postings[k].posting());
      } else {
        const int64_t bucket = keys_by_id[ruleset]->Bucket(key);
        if (!block.empty() && (ruleset != block_ruleset || bucket != block_bucket)) {
          absl::Status s = flush(false);
          if (!s.ok()) return s;
        }
        block_ruleset = ruleset;
        block_bucket = bucket;
        for (size_t k = i; k < j; ++k) block.push_back(postings[k].posting());
      }
      i = j;
    }
    for (auto& [where, mine] : own) {
      absl::Status s = flush(false);
      if (!s.ok()) return s;
      std::sort(mine.begin(), mine.end());
      block_ruleset = where.first;
      block_bucket = where.second;
      block = std::move(mine);
    }
    absl::Status s = flush(true);
    if (!s.ok()) return s;
  }
  std::vector<ExplorerRow> rows;
  rows.reserve(explorer.size());
  for (auto& [k, row] : explorer) rows.push_back(row);
  if (!rows.empty()) return store_.AddExplorer(rows);
  return absl::OkStatus();
}

Importer::~Importer() = default;

size_t Importer::pending() const { return pending_.size(); }

absl::Status Importer::Finish() {
  absl::Status s = Flush();
  if (s.ok()) s = CompactIndex(store_);
  if (s.ok()) s = store_.Reclaim();
  if (s.ok()) s = RecomputeRatings(store_);
  return s;
}

}  // namespace scribe::games
