// The review of a collection of games (a club's, a tournament's, a site's
// archive): one line per game and one row per player, players matched by
// the name in their Light or Dark tag (docs/review.md, "A collection").
#ifndef SCRIBE_REVIEW_COLLECTION_H_
#define SCRIBE_REVIEW_COLLECTION_H_

#include <memory>
#include <string>
#include <vector>

#include "review/review.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// One reviewed game of a collection.
struct CollectionGame {
  std::string source;  // "file" or "file#3": where the record came from
  std::string page;    // the game's own page, when pages are written
  std::string event;   // the Event tag, or empty
  std::string date;    // the Date tag, or empty
  std::shared_ptr<const Rules> rules;
  GameReview review;
};

// One player over the collection. Players without a name are "(light)" or
// "(dark)", so that unnamed games still add up by side.
struct CollectionPlayer {
  std::string name;
  int games = 0;
  int finished = 0;
  int wins = 0;
  int decisions = 0;
  double total_loss = 0;
  double accuracy_sum = 0;  // over games with decisions
  int games_with_decisions = 0;
  double luck = 0;                // summed over games
  double luck_adjusted_wins = 0;  // summed luck-adjusted results
  double accuracy() const { return games_with_decisions > 0 ? accuracy_sum / games_with_decisions : 100.0; }
  // The error rate over all of the player's decisions, and its rating.
  double error_rate() const { return decisions > 0 ? total_loss / decisions : 0.0; }
  double rating() const { return PerformanceRating(error_rate()); }
};

struct CollectionReview {
  std::vector<CollectionGame> games;
  std::vector<CollectionPlayer> players;  // most games first, then by name
  bool exact = true;                      // every game's figures exact
  std::string evaluator;                  // the first game's
};

// The players' table of `games` (in order), and the collection's exactness.
CollectionReview SummarizeCollection(std::vector<CollectionGame> games);

// The name a player is matched by.
std::string CollectionName(const PlayerReview& p);

// As scribe.v1.CollectionReview: every game's review and the players.
v1::CollectionReview CollectionToProto(const CollectionReview& collection);
// One game of it, as CollectionToProto writes each (for a caller that
// converts the games in parallel).
v1::CollectionGame CollectionGameToProto(const CollectionGame& game);

}  // namespace scribe

#endif  // SCRIBE_REVIEW_COLLECTION_H_
