// A review written for people: the report `scribe review` prints
// (docs/review.md shows one), for one game and for a collection.
#ifndef SCRIBE_REVIEW_REVIEW_TEXT_H_
#define SCRIBE_REVIEW_REVIEW_TEXT_H_

#include <string>

#include "engine/rules.h"
#include "records/squares.h"
#include "review/collection.h"
#include "review/review.h"

namespace scribe {

// "49.2%" style helpers shared by the text and the page.
std::string Percent(double chance, int decimals = 1);
// A chance difference in percentage points with its sign: "+12.3".
std::string SignedPoints(double chance);
// "Ann (light)", or "light" without a name.
std::string PlayerLabel(const PlayerReview& p);

// The report of one game: the header (players, ruleset, result, what the
// figures come from and whether they are exact), a table per player
// (accuracy, error rate, marks, rating, luck, result, luck-adjusted
// result), the key moves with their boards, the turning points and the
// counts. Every line ends in '\n'. Text from the record (names) is
// returned as is: the caller makes it safe for a terminal.
std::string ReviewText(const GameReview& review, const Rules& rules, SquareStyle style = SquareStyle::kPathNumbers);

// The report of a collection: one line per game, then the players' table.
std::string CollectionText(const CollectionReview& collection);

}  // namespace scribe

#endif  // SCRIBE_REVIEW_REVIEW_TEXT_H_
