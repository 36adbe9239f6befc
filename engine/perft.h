// Perft: the number of leaves of the game tree `depth` throws deep.
//
// Each node branches once per roll value the dice can give (whatever its
// probability), then once per legal move; a roll with no legal move is one
// branch (the pass); a finished game is a leaf. Like chess perft, the counts
// per ruleset catch regressions nothing else catches.
#ifndef SCRIBE_ENGINE_PERFT_H_
#define SCRIBE_ENGINE_PERFT_H_

#include <cstdint>

#include "engine/position.h"
#include "engine/rules.h"

namespace scribe {

uint64_t Perft(const Rules& rules, const Position& pos, int depth);

}  // namespace scribe

#endif  // SCRIBE_ENGINE_PERFT_H_
