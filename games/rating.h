// Player ratings over time (Glicko-2). Being written.
#ifndef SCRIBE_GAMES_RATING_H_
#define SCRIBE_GAMES_RATING_H_
namespace scribe::games {}
#endif  // SCRIBE_GAMES_RATING_H_
