#include "review/collection.h"

#include <algorithm>
#include <map>
#include <utility>

namespace scribe {

std::string CollectionName(const PlayerReview& p) {
  if (!p.name.empty()) return p.name;
  return p.side == kLight ? "(light)" : "(dark)";
}

CollectionReview SummarizeCollection(std::vector<CollectionGame> games) {
  CollectionReview out;
  std::map<std::string, CollectionPlayer> players;
  for (const CollectionGame& g : games) {
    const GameReview& r = g.review;
    if (out.evaluator.empty()) out.evaluator = r.evaluator;
    out.exact = out.exact && r.exact;
    for (Side side : {kLight, kDark}) {
      const PlayerReview& p = r.players[side];
      CollectionPlayer& c = players[CollectionName(p)];
      c.name = CollectionName(p);
      ++c.games;
      if (r.winner) {
        ++c.finished;
        c.wins += *r.winner == side;
      }
      c.decisions += p.decisions;
      c.total_loss += p.total_loss;
      if (p.decisions > 0) {
        c.accuracy_sum += p.accuracy;
        ++c.games_with_decisions;
      }
      c.luck += p.luck;
      c.luck_adjusted_wins += p.luck_adjusted_result;
    }
  }
  for (auto& [name, p] : players) out.players.push_back(std::move(p));
  std::stable_sort(out.players.begin(), out.players.end(),
                   [](const CollectionPlayer& a, const CollectionPlayer& b) { return a.games > b.games; });
  out.games = std::move(games);
  return out;
}

v1::CollectionGame CollectionGameToProto(const CollectionGame& g) {
  v1::CollectionGame game;
  game.set_source(g.source);
  game.set_page(g.page);
  game.set_event(g.event);
  game.set_date(g.date);
  *game.mutable_review() = ReviewToProto(g.review, *g.rules);
  return game;
}

v1::CollectionReview CollectionToProto(const CollectionReview& collection) {
  v1::CollectionReview out;
  out.set_exact(collection.exact);
  out.set_evaluator(collection.evaluator);
  for (const CollectionGame& g : collection.games) *out.add_games() = CollectionGameToProto(g);
  for (const CollectionPlayer& p : collection.players) {
    v1::CollectionPlayer* c = out.add_players();
    c->set_name(p.name);
    c->set_games(p.games);
    c->set_finished(p.finished);
    c->set_wins(p.wins);
    c->set_decisions(p.decisions);
    c->set_accuracy(p.accuracy());
    c->set_error_rate(p.error_rate());
    c->set_rating(p.rating());
    c->set_luck(p.luck);
    c->set_luck_adjusted_wins(p.luck_adjusted_wins);
  }
  return out;
}

}  // namespace scribe
