// The review as web pages: one self-contained page per game (no network,
// no external file: inline SVG, CSS and script), and an index page for a
// collection (docs/review.md, "The review page").
//
// A game's page shows the board (review/render.h's SvgBoard, exactly as
// `scribe replay --svg F --at k` draws it, without the XML declaration),
// the move list with marks and the best alternative, the winning-chance
// graph, the players' table, the key moves and the turning points.
// Stepping: the arrow keys (and Home, End), a click on a move, a key move or
// the graph; "next key move" tours the key moves. The DOM a program (or a
// test) can rely on:
//   <main id="review" data-plies="N">; #board[data-ply=k] holds the board
//   after k actions; #moves li[data-ply=k], k = 1..N; #graph svg with N+1
//   circle.ply; #key-moves li[data-ply=k] (k: the position of the
//   decision); button#next-key.
#ifndef SCRIBE_REVIEW_REVIEW_HTML_H_
#define SCRIBE_REVIEW_REVIEW_HTML_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "records/squares.h"
#include "review/annotate.h"
#include "review/collection.h"
#include "review/review.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

struct PageOptions {
  SquareStyle style = SquareStyle::kPathNumbers;
  // A link back to the collection's index page; empty for none.
  std::string index_link;
  std::string source;  // where the record came from, shown under the title
};

// The pieces every page of Scribe's shares (the database's pages too,
// games/pages.h): text escaped for HTML (& < > " '), an SVG document as an
// inline element (its XML declaration dropped), and a page's head (the
// doctype, a Content-Security-Policy that allows no network request, the
// style) up to and including <body> (of the class given, if any).
std::string Html(absl::string_view text);
std::string InlineSvg(absl::string_view svg);
std::string PageHead(absl::string_view title, absl::string_view body_class = "");

// The page of one game. INVALID_ARGUMENT without winning chances.
absl::StatusOr<std::string> ReviewPage(const v1::GameRecord& record, const AnnotatedRecord& annotated,
                                       const GameReview& review, const PageOptions& options = {});

// The index of a collection: a sortable table of the games (each linking to
// its page, CollectionGame::page) and a sortable table of the players.
std::string CollectionPage(const CollectionReview& collection);

}  // namespace scribe

#endif  // SCRIBE_REVIEW_REVIEW_HTML_H_
