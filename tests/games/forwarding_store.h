// A games::Store that passes every call to another store (held or owned):
// a test derives from it and overrides the calls it hooks.
#ifndef SCRIBE_TESTS_GAMES_FORWARDING_STORE_H_
#define SCRIBE_TESTS_GAMES_FORWARDING_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "games/store.h"

namespace scribe::games {

class ForwardingStore : public Store {
 public:
  explicit ForwardingStore(Store& s) : s_(s) {}
  explicit ForwardingStore(std::unique_ptr<Store> owned) : owned_(std::move(owned)), s_(*owned_) {}

  std::string Name() const override { return s_.Name(); }
  absl::Status BeginWrite() override { return s_.BeginWrite(); }
  absl::Status Commit() override { return s_.Commit(); }
  absl::Status Rollback() override { return s_.Rollback(); }
  absl::Status Reclaim() override { return s_.Reclaim(); }
  absl::Status Settle() override { return s_.Settle(); }
  absl::StatusOr<std::optional<std::string>> Setting(const std::string& key) override { return s_.Setting(key); }
  absl::Status SetSetting(const std::string& key, const std::string& value) override {
    return s_.SetSetting(key, value);
  }
  absl::StatusOr<int64_t> RulesetId(const std::string& digest, const std::string& reference) override {
    return s_.RulesetId(digest, reference);
  }
  absl::StatusOr<std::vector<RulesetRow>> Rulesets() override { return s_.Rulesets(); }
  absl::StatusOr<std::vector<GameRow>> GamesWithHash(uint64_t hash) override { return s_.GamesWithHash(hash); }
  absl::StatusOr<int64_t> AddGame(const GameRow& game) override { return s_.AddGame(game); }
  absl::StatusOr<std::vector<GameRow>> GamesById(const std::vector<int64_t>& ids) override { return s_.GamesById(ids); }
  absl::StatusOr<int64_t> CountGames(const GameQuery& query) override { return s_.CountGames(query); }
  absl::StatusOr<std::vector<int64_t>> FindGames(const GameQuery& query, int64_t offset, int64_t limit) override {
    return s_.FindGames(query, offset, limit);
  }
  absl::Status ScanGames(const GameQuery& query, const std::function<bool(int64_t id)>& visit) override {
    return s_.ScanGames(query, visit);
  }
  absl::StatusOr<std::vector<std::string>> Dates(const std::vector<int64_t>& ids) override { return s_.Dates(ids); }
  absl::StatusOr<std::optional<int64_t>> SourceGame(const SourceRow& source) override { return s_.SourceGame(source); }
  absl::Status AddSource(int64_t game, const SourceRow& source) override { return s_.AddSource(game, source); }
  absl::StatusOr<std::vector<SourceRow>> Sources(int64_t game) override { return s_.Sources(game); }
  absl::StatusOr<int64_t> NewRun() override { return s_.NewRun(); }
  absl::Status AddPostings(int64_t run, const std::vector<PostingRow>& rows) override {
    return s_.AddPostings(run, rows);
  }
  absl::StatusOr<std::vector<RunRow>> Runs() override { return s_.Runs(); }
  absl::StatusOr<std::vector<RunBlock>> PostingHeads(int64_t ruleset, int64_t bucket, int64_t bytes) override {
    return s_.PostingHeads(ruleset, bucket, bytes);
  }
  absl::StatusOr<std::vector<PostingRow>> RunPostings(int64_t run, std::pair<int64_t, int64_t> after, int limit,
                                                      std::pair<int64_t, int64_t> buckets) override {
    return s_.RunPostings(run, after, limit, buckets);
  }
  absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> RunBuckets(int64_t run,
                                                                     std::pair<int64_t, int64_t> buckets) override {
    return s_.RunBuckets(run, buckets);
  }
  absl::Status DeleteRun(int64_t run) override { return s_.DeleteRun(run); }
  absl::Status AddExplorer(const std::vector<ExplorerRow>& rows) override { return s_.AddExplorer(rows); }
  absl::StatusOr<std::vector<ExplorerRow>> Explorer(int64_t ruleset, int64_t key) override {
    return s_.Explorer(ruleset, key);
  }
  absl::StatusOr<PlayerTotals> Player(const std::string& name) override { return s_.Player(name); }
  absl::Status RecomputePlayers() override { return s_.RecomputePlayers(); }
  absl::Status ReplaceRatings(const std::vector<RatingRow>& rows) override { return s_.ReplaceRatings(rows); }
  absl::StatusOr<std::vector<RatingRow>> Ratings(const std::string& player) override { return s_.Ratings(player); }
  absl::Status ScanResults(const std::function<bool(const std::string& date, const std::string& light,
                                                    const std::string& dark, int result)>& visit) override {
    return s_.ScanResults(visit);
  }

  bool CanDeferSearchIndexes() const override { return s_.CanDeferSearchIndexes(); }
  absl::Status DropSearchIndexes() override { return s_.DropSearchIndexes(); }
  absl::Status BuildSearchIndexes() override { return s_.BuildSearchIndexes(); }
  absl::StatusOr<int64_t> OthersWrites() override { return s_.OthersWrites(); }
  absl::StatusOr<std::vector<std::optional<int64_t>>> SourceGames(const std::vector<SourceRow>& sources) override {
    return s_.SourceGames(sources);
  }
  absl::StatusOr<std::vector<GameRow>> GamesWithHashes(const std::vector<uint64_t>& hashes) override {
    return s_.GamesWithHashes(hashes);
  }
  absl::StatusOr<std::vector<int64_t>> AddGames(const std::vector<GameRow>& games) override {
    return s_.AddGames(games);
  }
  absl::StatusOr<std::vector<RunBlock>> Postings(int64_t ruleset, int64_t bucket,
                                                 const std::vector<int64_t>& except_runs) override {
    return s_.Postings(ruleset, bucket, except_runs);
  }

 private:
  std::unique_ptr<Store> owned_;  // declared before s_, which may refer to it
  Store& s_;
};

}  // namespace scribe::games

#endif  // SCRIBE_TESTS_GAMES_FORWARDING_STORE_H_
