#include "engine/bots.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/search.h"

namespace scribe {

EvaluatorBot::EvaluatorBot(std::shared_ptr<const Evaluator> evaluator, std::string name)
    : evaluator_(std::move(evaluator)), name_(std::move(name)) {}

std::optional<Move> EvaluatorBot::Choose(const Position& pos, int roll) {
  MoveList moves;
  LegalMoves(evaluator_->rules(), pos, roll, &moves);
  if (moves.empty()) return std::nullopt;
  if (moves.size() == 1) return moves[0];
  Move best = moves[0];
  double best_value = -1;
  for (const Move& m : moves) {
    const double v = ValueAfterMove(*evaluator_, pos, m);
    if (v > best_value) {
      best_value = v;
      best = m;
    }
  }
  return best;
}

HeuristicBot::HeuristicBot(std::shared_ptr<const Rules> rules, EvaluationWeights weights)
    : rules_(std::move(rules)), weights_(weights) {}

std::optional<Move> HeuristicBot::Choose(const Position& pos, int roll) {
  MoveList moves;
  LegalMoves(*rules_, pos, roll, &moves);
  if (moves.empty()) return std::nullopt;
  if (moves.size() == 1) return moves[0];
  return RankMoves(*rules_, pos, roll, weights_).front().move;
}

RandomBot::RandomBot(std::shared_ptr<const Rules> rules, uint64_t seed) : rules_(std::move(rules)), rng_(seed) {}

std::optional<Move> RandomBot::Choose(const Position& pos, int roll) {
  const LegalSet legal = LegalDestinations(*rules_, pos, roll);
  const int n = LegalCount(legal);
  if (n == 0) return std::nullopt;
  return NthLegalMove(*rules_, legal, roll, rng_.Below(n));
}

std::string BotSpec::ToString() const {
  switch (kind) {
    case Kind::kPerfect:
      return "perfect";
    case Kind::kSearch:
      return absl::StrCat("search:", depth);
    case Kind::kHeuristic:
      return "heuristic";
    case Kind::kRandom:
      return "random";
  }
  return "?";
}

absl::StatusOr<BotSpec> ParseBotSpec(absl::string_view text) {
  BotSpec spec;
  if (text == "perfect") {
    spec.kind = BotSpec::Kind::kPerfect;
    return spec;
  }
  if (text == "heuristic") {
    spec.kind = BotSpec::Kind::kHeuristic;
    return spec;
  }
  if (text == "random") {
    spec.kind = BotSpec::Kind::kRandom;
    return spec;
  }
  absl::string_view rest = text;
  if (absl::ConsumePrefix(&rest, "search")) {
    if (!absl::ConsumePrefix(&rest, ":")) {
      return absl::InvalidArgumentError(
          absl::StrCat("bot \"", text, "\": a search bot needs its depth in throws, e.g. search:2"));
    }
    int depth = -1;
    if (!absl::SimpleAtoi(rest, &depth) || depth < 0 || depth > kMaxSearchDepth || rest.empty() ||
        rest.front() == '+' || rest.front() == ' ') {
      return absl::InvalidArgumentError(absl::StrCat("bot \"", text, "\": the search depth must be a whole number from 0 to ",
                                                     kMaxSearchDepth));
    }
    spec.kind = BotSpec::Kind::kSearch;
    spec.depth = depth;
    return spec;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown bot \"", text, "\"; expected perfect, search:N (N = 0..",
                                                 kMaxSearchDepth, "), heuristic or random"));
}

absl::StatusOr<std::unique_ptr<Bot>> MakeBot(const BotSpec& spec, std::shared_ptr<const Rules> rules,
                                             std::shared_ptr<const Evaluator> perfect, uint64_t seed,
                                             StopCheck stop) {
  switch (spec.kind) {
    case BotSpec::Kind::kPerfect:
      if (perfect == nullptr) {
        return absl::FailedPreconditionError("the perfect bot needs an exact evaluator (a solved table)");
      }
      if (perfect->rules().digest != rules->digest) {
        return absl::InvalidArgumentError(absl::StrCat("the perfect bot's evaluator (", perfect->name(),
                                                       ") is for rules with digest ", perfect->rules().digest,
                                                       ", not ", rules->digest));
      }
      return std::make_unique<EvaluatorBot>(std::move(perfect), "perfect");
    case BotSpec::Kind::kSearch:
      if (spec.depth < 0 || spec.depth > kMaxSearchDepth) {
        return absl::InvalidArgumentError(absl::StrCat("search depth ", spec.depth, " is not from 0 to ", kMaxSearchDepth));
      }
      return std::make_unique<EvaluatorBot>(std::make_shared<SearchEvaluator>(std::move(rules), spec.depth, LeafParameters{},
                                                                              std::move(stop)),
                                            spec.ToString());
    case BotSpec::Kind::kHeuristic:
      return std::make_unique<HeuristicBot>(std::move(rules));
    case BotSpec::Kind::kRandom:
      return std::make_unique<RandomBot>(std::move(rules), seed);
  }
  return absl::InvalidArgumentError("unknown bot kind");
}

GameResult PlayGame(const Rules& rules, Bot& light, Bot& dark, Side first, Rng& dice, int max_throws,
                    GameLog* log) {
  GameResult result;
  result.first = first;
  Position pos = StartPosition(rules, first);
  Bot* bots[2] = {&light, &dark};
  while (!IsOver(rules, pos)) {
    if (result.throws >= max_throws) return result;
    const int roll = dice.Throw(rules);
    ++result.throws;
    const std::optional<Move> move = bots[pos.to_move]->Choose(pos, roll);
    if (log != nullptr) log->throws.push_back({roll, move});
    if (!move) {
      PassTurn(&pos);
      continue;
    }
    ++result.moves;
    ApplyMove(rules, &pos, *move);
  }
  result.winner = Winner(rules, pos);
  return result;
}

Side FirstToThrow(const Rules& rules, int index, Rng& dice, std::vector<GameLog::Round>* throw_off) {
  if (rules.opening == v1::OPENING_THROW_OFF) {
    while (true) {
      const int l = dice.Throw(rules);
      const int d = dice.Throw(rules);
      if (throw_off != nullptr) throw_off->push_back({l, d});
      if (l != d) return l > d ? kLight : kDark;
    }
  }
  return index % 2 == 0 ? kLight : kDark;
}

MatchResult PlayMatch(const Rules& rules, Bot& light, Bot& dark, const MatchOptions& options) {
  MatchResult match;
  Rng dice(options.seed);
  GameLog log;
  GameLog* logged = options.on_game ? &log : nullptr;
  for (int g = 0; g < options.games; ++g) {
    log = {};
    const Side first = FirstToThrow(rules, g, dice, logged ? &log.throw_off : nullptr);
    const GameResult game = PlayGame(rules, light, dark, first, dice, options.max_throws, logged);
    if (logged) options.on_game(g, game, log);
    ++match.games;
    ++match.first[first];
    if (game.winner) ++match.wins[*game.winner];
    else ++match.unfinished;
    match.throws += game.throws;
    match.moves += game.moves;
  }
  return match;
}

Interval WilsonInterval(long long successes, long long trials, double z) {
  if (trials <= 0) return Interval{0, 1};
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double z2 = z * z;
  const double center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  Interval interval{std::max(0.0, center - half), std::min(1.0, center + half)};
  // Exact at the ends: no successes (or no failures) puts the bound at 0 (1).
  if (successes == 0) interval.low = 0;
  if (successes == trials) interval.high = 1;
  return interval;
}

}  // namespace scribe
