#include "games/query.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "games/game_codec.h"
#include "games/position_index.h"

namespace scribe::games {
namespace {

constexpr size_t kChunk = 500;

bool HasTagFilter(const GameQuery& q) {
  return !q.player.empty() || !q.light.empty() || !q.dark.empty() || !q.event.empty() || !q.date_from.empty() ||
         !q.date_to.empty() || q.result.has_value();
}

// The first ply at which the game reaches `pos`; nullopt when it never does.
absl::StatusOr<std::optional<int>> PlyOf(const Rules& rules, const GameRow& game, const Position& pos,
                                         ReplayedGame* replayed) {
  absl::StatusOr<ReplayedGame> r = ReplayIdentity(rules, game.identity, &pos);
  if (!r.ok()) return r.status();
  *replayed = std::move(*r);
  for (size_t ply = 0; ply < replayed->positions.size(); ++ply) {
    if (replayed->positions[ply] == pos) return static_cast<int>(ply);
  }
  return std::nullopt;
}

// Calls `each(game, ply, replayed)` for each of `ids` that reaches the
// position, a chunk of games at a time.
absl::Status ForEachReaching(
    Store& store, const PositionTarget& target, const std::vector<int64_t>& ids,
    const std::function<void(const GameRow&, int ply, const ReplayedGame&)>& each) {
  for (size_t i = 0; i < ids.size(); i += kChunk) {
    std::vector<int64_t> chunk(ids.begin() + i, ids.begin() + std::min(ids.size(), i + kChunk));
    absl::StatusOr<std::vector<GameRow>> games = store.GamesById(chunk);
    if (!games.ok()) return games.status();
    ReplayedGame replayed;
    for (const GameRow& g : *games) {
      absl::StatusOr<std::optional<int>> ply = PlyOf(*target.rules->rules, g, target.position, &replayed);
      if (!ply.ok()) return ply.status();
      if (ply->has_value()) each(g, **ply, replayed);
    }
  }
  return absl::OkStatus();
}

// The games reaching the target, sorted by id: the index's, each replayed
// when the key is a hash (a collision is dropped).
absl::StatusOr<std::vector<int64_t>> GamesReaching(Store& store, const PositionTarget& target) {
  const KnownRules& known = *target.rules;
  const uint64_t key = known.keys->Key(target.position);
  absl::StatusOr<std::vector<PostedGame>> postings = LookUp(store, known, key);
  if (!postings.ok()) return postings.status();
  std::vector<int64_t> ids;
  ids.reserve(postings->size());
  for (const PostedGame& p : *postings) ids.push_back(p.game);
  if (!PositionKeys::IsHash(key)) return ids;
  std::vector<int64_t> verified;
  absl::Status s = ForEachReaching(store, target, ids,
                                   [&](const GameRow& g, int, const ReplayedGame&) { verified.push_back(g.id); });
  if (!s.ok()) return s;
  return verified;
}

// How many games a walk in date order reads to fill the page when the
// `matches` games that reached the position, `last_id` the highest of
// their ids (about the number of games), are spread over the dates.
double WalkEstimate(const SearchQuery& query, size_t matches, int64_t last_id) {
  const double page_end = static_cast<double>(std::max<int64_t>(query.offset, 0) + query.limit);
  return page_end * static_cast<double>(std::max<int64_t>(last_id, 1)) /
         static_cast<double>(std::max<size_t>(matches, 1));
}

// Whether a page in date order sorts the dates of the matches
// (SearchQuery::DatePath) rather than walking the date order.
bool SortDates(const SearchQuery& query, size_t matches, int64_t last_id) {
  switch (query.date_path) {
    case SearchQuery::DatePath::kSort:
      return true;
    case SearchQuery::DatePath::kWalk:
      return false;
    case SearchQuery::DatePath::kCheapest:
      break;
  }
  if (matches > query.sort_dates_up_to) return false;
  if (query.limit < 0) return true;  // the whole order: every date anyway
  constexpr double kSortUs = 8.0, kWalkUs = 0.3;
  return static_cast<double>(matches) * kSortUs <= WalkEstimate(query, matches, last_id) * kWalkUs;
}

// How many games a walk in date order (SortDates false) reads before it
// gives up for sorting the dates: the matches may gather late in the order
// (a position only the newest games reach), where WalkEstimate assumes
// them spread out. Four times the estimate, and at least walk_at_least:
// the worst case stays within a few times the cheaper way's cost.
size_t WalkBudget(const SearchQuery& query, size_t matches, int64_t last_id) {
  // (Past sort_dates_up_to matches, sorting is never the cheaper way.)
  if (query.date_path != SearchQuery::DatePath::kCheapest || query.limit < 0 || matches > query.sort_dates_up_to) {
    return SIZE_MAX;
  }
  return static_cast<size_t>(
      std::max(4 * WalkEstimate(query, matches, last_id), static_cast<double>(query.walk_at_least)));
}

// A page of `ids` (sorted by id) in the query's order.
absl::StatusOr<std::vector<int64_t>> PageOf(Store& store, const std::vector<int64_t>& ids, const SearchQuery& query) {
  const GameQuery& q = query.games;
  const size_t begin = std::min(ids.size(), static_cast<size_t>(std::max<int64_t>(query.offset, 0)));
  const size_t end = query.limit < 0 ? ids.size() : std::min(ids.size(), begin + static_cast<size_t>(query.limit));
  if (q.order == GameQuery::Order::kId) {
    if (!q.descending) return std::vector<int64_t>(ids.begin() + begin, ids.begin() + end);
    return std::vector<int64_t>(ids.rbegin() + begin, ids.rbegin() + end);
  }
  const int64_t last_id = ids.empty() ? 0 : ids.back();
  bool sort = SortDates(query, ids.size(), last_id);
  std::vector<int64_t> page;
  if (!sort) {  // walk the games in date order until the page is full
    const size_t budget = WalkBudget(query, ids.size(), last_id);
    size_t seen = 0, walked = 0;
    absl::Status s = store.ScanGames(q, [&](int64_t id) {
      if (++walked > budget) {
        sort = true;  // gathered late: the dates sorted after all
        return false;
      }
      if (!std::binary_search(ids.begin(), ids.end(), id)) return true;
      if (seen++ >= begin) page.push_back(id);
      return seen < end;
    });
    if (!s.ok()) return s;
    if (!sort) return page;
  }
  absl::StatusOr<std::vector<std::string>> dates = store.Dates(ids);
  if (!dates.ok()) return dates.status();
  std::vector<size_t> order(ids.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Date then id, games without a date last (as GameQuery orders them).
  auto less = [&](size_t a, size_t b) {
    const std::string& da = (*dates)[a];
    const std::string& db = (*dates)[b];
    if (da.empty() != db.empty()) return db.empty();
    return std::tie(da, ids[a]) < std::tie(db, ids[b]);
  };
  std::sort(order.begin(), order.end(), less);
  if (q.descending) std::reverse(order.begin(), order.end());
  page.clear();
  for (size_t i = begin; i < end; ++i) page.push_back(ids[order[i]]);
  return page;
}

// The total and page (ids) of a position search that needs no game's tags: a
// ranked key (no replay to verify), no tag filter: by id ascending only
// the first offset + limit games are decoded; in another order, up to
// sort_dates_up_to games are decoded and paged by PageOf, more are a
// bitmap and the games in order walked to fill the page. The key's blocks
// are read once, for the total and the page. nullopt when the search is
// not such a one.
struct Page {
  int64_t total = 0;
  std::vector<int64_t> ids;
};
absl::StatusOr<std::optional<Page>> QuickPage(Store& store, const SearchQuery& query) {
  const PositionTarget& target = *query.position;
  const uint64_t key = target.rules->keys->Key(target.position);
  const bool by_id = query.games.order == GameQuery::Order::kId && !query.games.descending;
  if (PositionKeys::IsHash(key) || HasTagFilter(query.games) || query.limit < 0) return std::nullopt;
  absl::StatusOr<KeyPostings> postings = KeyPostings::Fetch(store, *target.rules, key);
  if (!postings.ok()) return postings.status();
  absl::StatusOr<int64_t> total = postings->Count();
  if (!total.ok()) return total.status();
  Page out;
  out.total = *total;
  std::vector<int64_t>& page = out.ids;
  if (!by_id && *total <= static_cast<int64_t>(query.sort_dates_up_to)) {
    // Few enough to sort: their ids, and PageOf sorts their dates or walks
    // the date order, whichever is cheaper.
    absl::StatusOr<std::vector<PostedGame>> games = postings->Games();
    if (!games.ok()) return games.status();
    std::vector<int64_t> ids;
    ids.reserve(games->size());
    for (const PostedGame& g : *games) ids.push_back(g.game);
    SearchQuery q = query;
    q.games.ruleset.reset();
    absl::StatusOr<std::vector<int64_t>> p = PageOf(store, ids, q);
    if (!p.ok()) return p.status();
    page = std::move(*p);
  } else if (!by_id) {
    // Many games: a bitmap of them, and the games walked in date order.
    absl::StatusOr<std::vector<uint64_t>> bits = postings->Bitmap();
    if (!bits.ok()) return bits.status();
    GameQuery walk = query.games;
    walk.ruleset.reset();
    const int64_t begin = std::max<int64_t>(query.offset, 0), end = begin + query.limit;
    int64_t seen = 0;
    absl::Status s = store.ScanGames(walk, [&](int64_t id) {
      const size_t word = static_cast<size_t>(id) / 64;
      if (id < 0 || word >= bits->size() || ((*bits)[word] >> (id % 64) & 1) == 0) return true;
      if (seen++ >= begin) page.push_back(id);
      return seen < end;
    });
    if (!s.ok()) return s;
  } else {
    const uint64_t offset = static_cast<uint64_t>(std::max<int64_t>(query.offset, 0));
    absl::StatusOr<std::vector<PostedGame>> games = postings->Games(offset + static_cast<uint64_t>(query.limit));
    if (!games.ok()) return games.status();
    for (size_t i = offset; i < games->size(); ++i) page.push_back((*games)[i].game);
  }
  return std::optional<Page>(std::move(out));
}

}  // namespace

absl::StatusOr<SearchResult> Search(Store& store, const SearchQuery& query) {
  SearchResult result;
  std::vector<int64_t> page;
  if (!query.position.has_value()) {
    absl::StatusOr<int64_t> total = store.CountGames(query.games);
    if (!total.ok()) return total.status();
    result.total = *total;
    absl::StatusOr<std::vector<int64_t>> ids = store.FindGames(query.games, query.offset, query.limit);
    if (!ids.ok()) return ids.status();
    page = std::move(*ids);
  } else if (absl::StatusOr<std::optional<Page>> quick = QuickPage(store, query); !quick.ok()) {
    return quick.status();
  } else if (quick->has_value()) {
    result.total = (*quick)->total;
    page = std::move((*quick)->ids);
  } else {
    absl::StatusOr<std::vector<int64_t>> reaching = GamesReaching(store, *query.position);
    if (!reaching.ok()) return reaching.status();
    // The games found are of the position's rules already: no ruleset in
    // the walks below, which then follow the date index alone.
    SearchQuery q = query;
    q.games.ruleset.reset();
    if (HasTagFilter(q.games)) {
      // The games the tags select, in order, kept when they reach it.
      std::vector<int64_t> matched;
      absl::Status s = store.ScanGames(q.games, [&](int64_t id) {
        if (std::binary_search(reaching->begin(), reaching->end(), id)) matched.push_back(id);
        return true;
      });
      if (!s.ok()) return s;
      result.total = static_cast<int64_t>(matched.size());
      const size_t begin = std::min(matched.size(), static_cast<size_t>(std::max<int64_t>(q.offset, 0)));
      const size_t end =
          q.limit < 0 ? matched.size() : std::min(matched.size(), begin + static_cast<size_t>(q.limit));
      page.assign(matched.begin() + begin, matched.begin() + end);
    } else {
      result.total = static_cast<int64_t>(reaching->size());
      absl::StatusOr<std::vector<int64_t>> p = PageOf(store, *reaching, q);
      if (!p.ok()) return p.status();
      page = std::move(*p);
    }
  }
  absl::StatusOr<std::vector<GameRow>> games = store.GamesById(page);
  if (!games.ok()) return games.status();
  ReplayedGame replayed;
  for (GameRow& g : *games) {
    SearchHit hit;
    if (query.position.has_value()) {
      absl::StatusOr<std::optional<int>> ply =
          PlyOf(*query.position->rules->rules, g, query.position->position, &replayed);
      if (!ply.ok()) return ply.status();
      hit.ply = *ply;
    }
    hit.game = std::move(g);
    result.hits.push_back(std::move(hit));
  }
  return result;
}

absl::StatusOr<Exploration> Explore(Store& store, const PositionTarget& target, const Evaluator* evaluator) {
  const KnownRules& known = *target.rules;
  const uint64_t key = known.keys->Key(target.position);
  absl::StatusOr<KeyPostings> postings = KeyPostings::FetchHeads(store, known, key);
  if (!postings.ok()) return postings.status();
  absl::StatusOr<int64_t> total = postings->Count(store);
  if (!total.ok()) return total.status();
  absl::StatusOr<std::vector<ExplorerRow>> rows = store.Explorer(known.id, static_cast<int64_t>(key));
  if (!rows.ok()) return rows.status();
  std::map<std::tuple<int, int, int>, ExploredMove> moves;
  std::map<std::tuple<int, int, int>, std::pair<double, int64_t>> accuracy;
  Exploration out;
  for (const ExplorerRow& r : *rows) {
    ExploredMove& m = moves[{r.roll, r.from, r.to}];
    m.roll = r.roll;
    m.from = r.from;
    m.to = r.to;
    m.games += r.games;
    m.light_wins += r.light_wins;
    m.dark_wins += r.dark_wins;
    auto& [sum, n] = accuracy[{r.roll, r.from, r.to}];
    sum += r.accuracy_sum;
    n += r.accuracy_count;
    out.from_aggregates += r.games;
  }
  // The games that first reached it past the explorer's depth: replayed.
  // When the aggregates count every game that reached it, there are none
  // (the start, the first plies: no posting is decoded).
  std::vector<int64_t> deep;
  if (*total != out.from_aggregates) {
    absl::Status completed = postings->Complete(store);
    if (!completed.ok()) return completed;
    absl::StatusOr<std::vector<PostedGame>> games = postings->Games();
    if (!games.ok()) return games.status();
    for (const PostedGame& p : *games) {
      if (!p.shallow) deep.push_back(p.game);
    }
  }
  const Side mover = target.position.to_move;
  absl::Status s = ForEachReaching(store, target, deep, [&](const GameRow& g, int ply, const ReplayedGame& game) {
    int roll = -1, from = -1, to = -1;
    if (static_cast<size_t>(ply) < game.actions.size()) {
      const PlayedAction& a = game.actions[ply];
      roll = a.roll;
      if (a.moved) {
        from = a.move.from;
        to = a.move.to;
      }
    }
    ExploredMove& m = moves[{roll, from, to}];
    m.roll = roll;
    m.from = from;
    m.to = to;
    ++m.games;
    m.light_wins += g.result == 1;
    m.dark_wins += g.result == 2;
    if (g.figures[mover].has_value()) {
      auto& [sum, n] = accuracy[{roll, from, to}];
      sum += g.figures[mover]->accuracy;
      ++n;
    }
  });
  if (!s.ok()) return s;
  for (auto& [k, m] : moves) {
    const auto& [sum, n] = accuracy[k];
    if (n > 0) m.accuracy = sum / static_cast<double>(n);
    if (evaluator != nullptr && m.roll >= 0) {
      m.chance = m.from >= 0 ? ValueAfterMove(*evaluator, target.position,
                                              Move{static_cast<uint8_t>(m.from), static_cast<uint8_t>(m.to)})
                             : ValueAfterPass(*evaluator, target.position);
    }
    out.games += m.games;
    out.moves.push_back(m);
  }
  std::sort(out.moves.begin(), out.moves.end(), [](const ExploredMove& a, const ExploredMove& b) {
    const int ra = a.roll < 0 ? 1000 : a.roll, rb = b.roll < 0 ? 1000 : b.roll;
    if (ra != rb) return ra < rb;
    if (a.games != b.games) return a.games > b.games;
    return std::tie(a.from, a.to) < std::tie(b.from, b.to);
  });
  return out;
}

std::optional<Position> PositionAfter(const Rules& rules, const Position& position, const ExploredMove& move) {
  if (move.roll < 0) return std::nullopt;
  Position after = position;
  if (move.from < 0) {
    PassTurn(&after);
    return after;
  }
  MoveList legal;
  LegalMoves(rules, after, move.roll, &legal);
  for (const Move& m : legal) {
    if (m.from == move.from && m.to == move.to) {
      ApplyMove(rules, &after, m);
      return after;
    }
  }
  return std::nullopt;
}

absl::StatusOr<PlayerPage> Player(Store& store, const std::string& name) {
  PlayerPage page;
  absl::StatusOr<PlayerTotals> totals = store.Player(name);
  if (!totals.ok()) return totals.status();
  page.totals = *totals;
  absl::StatusOr<std::vector<RatingRow>> ratings = store.Ratings(name);
  if (!ratings.ok()) return ratings.status();
  page.ratings = std::move(*ratings);
  return page;
}

absl::StatusOr<std::vector<v1::GameRecord>> Records(Store& store, RulesCache& rules, const std::vector<int64_t>& ids) {
  absl::StatusOr<std::vector<GameRow>> games = store.GamesById(ids);
  if (!games.ok()) return games.status();
  std::vector<v1::GameRecord> out;
  out.reserve(games->size());
  for (const GameRow& g : *games) {
    absl::StatusOr<const KnownRules*> known = rules.ById(g.ruleset);
    if (!known.ok()) return known.status();
    absl::StatusOr<v1::GameRecord> record =
        DecodeGame(*(*known)->rules, g.identity, g.extra, TagColumns{g.light, g.dark, g.event, g.date});
    if (!record.ok()) return absl::DataLossError(absl::StrCat("game ", g.id, ": ", record.status().message()));
    out.push_back(std::move(*record));
  }
  return out;
}

absl::Status ForEachRecords(Store& store, RulesCache& rules, const GameQuery& query, size_t chunk,
                            const std::function<absl::Status(std::vector<v1::GameRecord>&&)>& each) {
  // The ids first (8 bytes a game), then the games a chunk at a time: no
  // statement stays open while another runs.
  std::vector<int64_t> ids;
  absl::Status s = store.ScanGames(query, [&](int64_t id) {
    ids.push_back(id);
    return true;
  });
  if (!s.ok()) return s;
  for (size_t i = 0; i < ids.size(); i += chunk) {
    std::vector<int64_t> part(ids.begin() + i, ids.begin() + std::min(ids.size(), i + chunk));
    absl::StatusOr<std::vector<v1::GameRecord>> records = Records(store, rules, part);
    if (!records.ok()) return records.status();
    s = each(std::move(*records));
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace scribe::games
