// The game database's requests read and checked (service/requests.h's
// counterpart): each function turns part of a request into what the
// handler asks the games library, or appends the BadRequest violations
// that say why it cannot.
#ifndef SCRIBE_SERVICE_DATABASE_REQUESTS_H_
#define SCRIBE_SERVICE_DATABASE_REQUESTS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules.h"
#include "games/query.h"
#include "scribe/v1/game_database.pb.h"
#include "service/errors.h"

namespace scribe::service {

// The longest name, tag value, source or position a request may hold.
inline constexpr size_t kMaxNameBytes = 1024;
// ListGames' page size when none is given, and the largest.
inline constexpr int kDefaultGamesPage = 50;
inline constexpr int kMaxGamesPage = 1000;
// The deepest page a token may name: paging past a million games asks the
// database to skip them all (narrow the filter instead).
inline constexpr int64_t kMaxGamesOffset = 10'000'000;

// A text field that names something (a player, a tag, a source): a
// violation under `field` when it is longer than kMaxNameBytes or holds a
// NUL byte (which no record's tag holds).
void CheckName(const std::string& value, const std::string& field, std::vector<FieldViolation>* violations);

// A filter's fields other than the ruleset and position, into `query`
// (violations under "filter.<name>").
void ReadFilter(const v1::GameFilter& filter, games::GameQuery* query, std::vector<FieldViolation>* violations);

// ListGames' page: the offset its token names (0 without one) and its
// size; a violation for a negative or too large size, and for a token
// this server did not give for the same filter and order.
struct GamesPage {
  int64_t offset = 0;
  int size = kDefaultGamesPage;
};
GamesPage ReadGamesPage(const v1::ListGamesRequest& request, std::vector<FieldViolation>* violations);
// The token of the page that starts at `offset` of this request's results.
std::string GamesPageToken(const v1::ListGamesRequest& request, int64_t offset);

}  // namespace scribe::service

#endif  // SCRIBE_SERVICE_DATABASE_REQUESTS_H_
