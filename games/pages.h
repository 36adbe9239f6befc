// The game database as web pages (scribe db pages, docs/database.md
// "Pages"): self-contained HTML like the review pages (review/review_html.h:
// no network request, no other file but the pages they link to).
//
// The DOM a program (or a test) can rely on:
//   explorer: <main id="explorer" data-position="P" data-games="N">;
//     table#played tbody tr[data-roll][data-from][data-to][data-games]
//     [data-light-wins][data-dark-wins] (data-from/-to -1: no move; roll
//     -1: the games ended there), and [data-accuracy], [data-chance] when
//     known; a move's next position is an <a> in its row when it has a page.
//   player: <main id="player" data-name="N" data-games data-wins
//     data-losses data-unfinished>; table#ratings tbody tr[data-period]
//     [data-rating]; table#games tbody tr[data-id] with an <a> to the game's
//     page.
#ifndef SCRIBE_GAMES_PAGES_H_
#define SCRIBE_GAMES_PAGES_H_

#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/rules.h"
#include "games/query.h"
#include "games/store.h"

namespace scribe::games {

struct ExplorerPageInput {
  const Rules* rules = nullptr;
  Position position;
  Exploration explored;
  // For each move of explored.moves (same order): the href of the page of
  // the position after it, "" when there is none.
  std::vector<std::string> next;
  std::string index_link;  // the pages' index, "" for none
  std::string start_link;  // the start position's page, "" on that page
};
std::string ExplorerHtml(const ExplorerPageInput& in);

struct PlayerPageInput {
  std::string name;
  PlayerPage page;
  std::vector<GameRow> games;       // the games listed (the latest)
  std::vector<std::string> links;   // each game's page (same order), "" none
  std::string index_link;
};
std::string PlayerHtml(const PlayerPageInput& in);

// The index: links to the explorer's start and to each player's page.
struct IndexEntry {
  std::string name, link;
  int64_t games = 0;
};
std::string PagesIndexHtml(int64_t games, const std::string& explorer_link, const std::vector<IndexEntry>& players);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_PAGES_H_
