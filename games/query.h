// Reading a game database: search (by tags, by position), the explorer,
// player pages, and the records back.
#ifndef SCRIBE_GAMES_QUERY_H_
#define SCRIBE_GAMES_QUERY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/evaluator.h"
#include "engine/position.h"
#include "games/rules_cache.h"
#include "games/store.h"
#include "scribe/v1/record.pb.h"

namespace scribe::games {

// A position to find, in a ruleset the database holds.
struct PositionTarget {
  const KnownRules* rules = nullptr;
  Position position;
};

struct SearchQuery {
  GameQuery games;  // its ruleset is the position's when a position is given
  std::optional<PositionTarget> position;
  int64_t offset = 0;
  int64_t limit = 50;
  // A position search in date order either sorts the dates of the games
  // that reached the position (a row read a game: about 8 us each in a
  // million games) or walks the games in date order, keeping those that
  // reached it, until the page is full (about 0.3 us a game walked; the
  // walk reads (offset + limit) * games / matches of them when the matches
  // are spread over the dates). kCheapest takes the one these figures make
  // cheaper, sorting never more than sort_dates_up_to dates; the others
  // force a way (tests).
  enum class DatePath { kCheapest, kSort, kWalk } date_path = DatePath::kCheapest;
  size_t sort_dates_up_to = 50000;
  // kCheapest's walk gives up for sorting after four times its estimate of
  // games to read, and never before this many (tests set it lower).
  size_t walk_at_least = 20000;
};

struct SearchHit {
  GameRow game;
  std::optional<int> ply;  // with a position: the first ply the game reached it
};

struct SearchResult {
  int64_t total = 0;  // every match, exactly
  std::vector<SearchHit> hits;
};

absl::StatusOr<SearchResult> Search(Store& store, const SearchQuery& query);

// One move of the explorer: what was played from the position with a throw.
struct ExploredMove {
  int roll = -1;  // -1: the game ended here (or its record did)
  int from = -1, to = -1;  // -1: no move (a pass)
  int64_t games = 0, light_wins = 0, dark_wins = 0;
  std::optional<double> accuracy;  // mean, of the players who chose it (reviewed games)
  std::optional<double> chance;    // the mover's exact winning chance after it (with an evaluator)
};

struct Exploration {
  int64_t games = 0;  // games that reached the position, each once
  int64_t from_aggregates = 0;  // of them, counted from the explorer's aggregates
  std::vector<ExploredMove> moves;  // by throw, then most played first
};

// Exploration of a position; `evaluator` (of its rules), when given, adds
// each move's winning chance.
absl::StatusOr<Exploration> Explore(Store& store, const PositionTarget& target, const Evaluator* evaluator);

// The position after one of the explorer's moves from `position` (a pass
// when the move has no `from`): where the explorer steps next. None for a
// game's end (roll -1), or for a move the throw does not allow there.
std::optional<Position> PositionAfter(const Rules& rules, const Position& position, const ExploredMove& move);

// A player's page.
struct PlayerPage {
  PlayerTotals totals;
  std::vector<RatingRow> ratings;
};
absl::StatusOr<PlayerPage> Player(Store& store, const std::string& name);

// The stored games' records, rebuilt (game_codec.h), `ids` in order.
absl::StatusOr<std::vector<v1::GameRecord>> Records(Store& store, RulesCache& rules, const std::vector<int64_t>& ids);

// Every game matching `query` (export): handed to `each` in chunks of up
// to `chunk` records, in the query's order.
absl::Status ForEachRecords(Store& store, RulesCache& rules, const GameQuery& query, size_t chunk,
                            const std::function<absl::Status(std::vector<v1::GameRecord>&&)>& each);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_QUERY_H_
