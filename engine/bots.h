// Computer opponents at chosen strengths, and matches between them
// (docs/suggest.md):
//
//   perfect      the best move by a given evaluator: meant for a solved
//                table (analysis/table.h), which makes it perfect play
//   search:N     the best move by an expectimax search N throws deep
//                (engine/search.h), N = 0..kMaxSearchDepth
//   heuristic    the first move of engine/evaluate.h's RankMoves
//   random       a legal move drawn uniformly (engine/random.h, seedable)
//
// A bot chooses a move for a position and a throw, or passes when the throw
// has no legal move; it only ever chooses one of LegalMoves. Every bot but
// `random` is deterministic; `random` is for a given seed.
//
// Nothing here reads files.
#ifndef SCRIBE_ENGINE_BOTS_H_
#define SCRIBE_ENGINE_BOTS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/evaluate.h"
#include "engine/evaluator.h"
#include "engine/stop.h"
#include "engine/position.h"
#include "engine/random.h"
#include "engine/rules.h"

namespace scribe {

class Bot {
 public:
  virtual ~Bot() = default;

  // The move the side to move in `pos` plays after throwing `roll`: one of
  // LegalMoves(rules, pos, roll); nullopt when there is none (a pass: a
  // throw of 0, a throw with no legal move, a finished game).
  virtual std::optional<Move> Choose(const Position& pos, int roll) = 0;

  // The strength, as ParseBotSpec reads it: "search:2", "random", ...
  virtual std::string name() const = 0;
};

// The legal move with the highest ValueAfterMove by an evaluator; equal
// values keep the LegalMoves order (the lowest `from` wins). A forced move
// is played without evaluating it.
class EvaluatorBot : public Bot {
 public:
  EvaluatorBot(std::shared_ptr<const Evaluator> evaluator, std::string name);
  std::optional<Move> Choose(const Position& pos, int roll) override;
  std::string name() const override { return name_; }
  const Evaluator& evaluator() const { return *evaluator_; }

 private:
  std::shared_ptr<const Evaluator> evaluator_;
  std::string name_;
};

// The first of RankMoves: the heuristic evaluation's best move.
class HeuristicBot : public Bot {
 public:
  explicit HeuristicBot(std::shared_ptr<const Rules> rules, EvaluationWeights weights = {});
  std::optional<Move> Choose(const Position& pos, int roll) override;
  std::string name() const override { return "heuristic"; }

 private:
  std::shared_ptr<const Rules> rules_;
  EvaluationWeights weights_;
};

// A legal move drawn uniformly with its own generator.
class RandomBot : public Bot {
 public:
  RandomBot(std::shared_ptr<const Rules> rules, uint64_t seed);
  std::optional<Move> Choose(const Position& pos, int roll) override;
  std::string name() const override { return "random"; }

 private:
  std::shared_ptr<const Rules> rules_;
  Rng rng_;
};

// A strength, parsed.
struct BotSpec {
  enum class Kind { kPerfect, kSearch, kHeuristic, kRandom };
  Kind kind = Kind::kRandom;
  int depth = 0;  // kSearch only
  std::string ToString() const;
};

// "perfect", "search:N" (N = 0..kMaxSearchDepth), "heuristic", "random".
// INVALID_ARGUMENT saying what is accepted otherwise.
absl::StatusOr<BotSpec> ParseBotSpec(absl::string_view text);

// A bot of the given strength for `rules`. `perfect` is the evaluator a
// "perfect" bot plays by (a solved table); FAILED_PRECONDITION when it is
// needed and missing, INVALID_ARGUMENT when it answers for other rules
// (a different digest). `seed` seeds a random bot; a search bot's search
// polls `stop` (engine/stop.h).
absl::StatusOr<std::unique_ptr<Bot>> MakeBot(const BotSpec& spec, std::shared_ptr<const Rules> rules,
                                             std::shared_ptr<const Evaluator> perfect = nullptr,
                                             uint64_t seed = 1, StopCheck stop = {});

// One game between two bots from the start, `first` throwing first; the
// dice are thrown with `dice`. Stops unfinished after `max_throws` throws.
struct GameResult {
  std::optional<Side> winner;  // none: stopped unfinished
  Side first = kLight;
  int throws = 0;  // throws made, passes included (a record's actions)
  int moves = 0;   // of them, throws with a move
};

// A game as played, for its record: the throw-off, when one decided who
// started (each round light's throw, then dark's), and every throw with the
// move made (none: a pass).
struct GameLog {
  struct Round {
    int light = 0, dark = 0;
  };
  struct Throw {
    int roll = 0;
    std::optional<Move> move;
  };
  std::vector<Round> throw_off;
  std::vector<Throw> throws;
};

// With `log`, every throw is appended to log->throws.
GameResult PlayGame(const Rules& rules, Bot& light, Bot& dark, Side first, Rng& dice, int max_throws = 100000,
                    GameLog* log = nullptr);

// Who throws first in game `index` (0-based) of a match: for rules whose
// opening is a throw-off (OPENING_THROW_OFF), both sides throw with `dice`
// until the throws differ and the higher one starts, as `scribe play` does;
// otherwise light and dark take turns, light in the even games. With
// `throw_off`, the rounds thrown are appended to it.
Side FirstToThrow(const Rules& rules, int index, Rng& dice, std::vector<GameLog::Round>* throw_off = nullptr);

struct MatchOptions {
  int games = 100;
  uint64_t seed = 1;  // the dice's generator
  int max_throws = 100000;  // per game
  // When set, called after each game (index 0-based) with the game as
  // played: the match's records. The games are the same with or without it.
  std::function<void(int index, const GameResult& result, const GameLog& log)> on_game;
};

struct MatchResult {
  int games = 0;
  int wins[2] = {0, 0};   // by side: light's bot, dark's bot
  int first[2] = {0, 0};  // games each side threw first
  int unfinished = 0;     // stopped at max_throws
  long long throws = 0;   // over every game
  long long moves = 0;
  double MeanThrows() const { return games > 0 ? static_cast<double>(throws) / games : 0.0; }
};

// `games` games between `light` and `dark` (each keeps its side), who
// starts decided by FirstToThrow. The same bots (random ones freshly seeded)
// and options give the same result.
MatchResult PlayMatch(const Rules& rules, Bot& light, Bot& dark, const MatchOptions& options);

// The Wilson score interval for a proportion: `successes` out of `trials`,
// z standard deviations wide (1.96: 95%). [0, 1] for no trials.
struct Interval {
  double low = 0;
  double high = 1;
};
inline constexpr double kZ95 = 1.959963984540054;
Interval WilsonInterval(long long successes, long long trials, double z = kZ95);

}  // namespace scribe

#endif  // SCRIBE_ENGINE_BOTS_H_
