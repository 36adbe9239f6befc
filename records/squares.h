// Squares and moves as they are written. As TSN writes them (docs/notation.md): path numbers, or
// tile names with a prime for each earlier visit of the same tile ("@"
// waiting); "off" for borne off. One definition for the TSN writer, the
// annotation keys and the command line's move lists.
#ifndef SCRIBE_RECORDS_SQUARES_H_
#define SCRIBE_RECORDS_SQUARES_H_

#include <string>

#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"

namespace scribe {

enum class SquareStyle { kPathNumbers, kTiles };

// Path index `index` of `side`'s path: "5", or "B4'" with tiles.
std::string SquareText(const Rules& rules, Side side, int index, SquareStyle style);

// "0-4", or "@-A4" with tiles: from and to, as SquareText writes them.
std::string MoveText(const Rules& rules, Side side, int from, int to, SquareStyle style);

// "0->3, 2->5": moves as path indices, for messages.
std::string DescribeMoves(const MoveList& moves);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_SQUARES_H_
