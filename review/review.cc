#include "review/review.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/status_macros.h"
#include "records/position_string.h"
#include "records/referee.h"

namespace scribe {

double DecisionAccuracy(double loss) {
  const double points = 100.0 * std::max(0.0, loss);
  return std::clamp(100.0 * std::exp(-points / kAccuracyScale), 0.0, 100.0);
}

double PerformanceRating(double error_rate) {
  const double points = 100.0 * std::max(0.0, error_rate);
  return std::max(kRatingFloor, kRatingPerfect - kRatingScale * std::pow(points, kRatingExponent));
}

namespace {

bool Has(const std::vector<std::string>& did, absl::string_view what) {
  for (const std::string& d : did) {
    if (d == what || absl::StartsWith(d, absl::StrCat(what, ":"))) return true;
  }
  return false;
}

// A player's figures from their decisions' count, summed loss and summed
// DecisionAccuracy: ReviewGame's and PlayersFigures'.
PlayerFigures FiguresOf(int decisions, double total_loss, double accuracy_sum) {
  PlayerFigures f;
  f.decisions = decisions;
  if (decisions > 0) {
    f.accuracy = accuracy_sum / decisions;
    f.error_rate = total_loss / decisions;
  }
  f.rating = PerformanceRating(f.error_rate);
  return f;
}

void Count(const Rules& rules, const AnnotatedRecord& annotated, GameReview* review) {
  for (Side side : {kLight, kDark}) {
    GameCounts& c = review->players[side].counts;
    for (const RollOutcome& o : rules.outcomes) c.throws_by_value.push_back({o.roll, 0, 0.0});
  }
  const double total = static_cast<double>(1u << rules.dice_count);
  std::optional<Side> previous;
  for (const ActionAnnotation& an : annotated.actions) {
    GameCounts& mine = review->players[an.player].counts;
    GameCounts& theirs = review->players[Other(an.player)].counts;
    if (previous != an.player) ++mine.turns;
    previous = an.player;
    ++mine.throws;
    for (ThrowCount& t : mine.throws_by_value) t.count += t.roll == an.roll;
    if (!an.move) {
      ++mine.passes;
      continue;
    }
    ++mine.moves;
    mine.captures_made += an.captured;
    theirs.captures_suffered += an.captured;
    mine.rosette_landings += Has(an.did, kDidRosette);
    const Position& before = annotated.positions[an.index];
    const Position& after = annotated.positions[an.index + 1];
    mine.borne_off += after.count[an.player][rules.off] - before.count[an.player][rules.off];
  }
  for (Side side : {kLight, kDark}) {
    GameCounts& c = review->players[side].counts;
    for (ThrowCount& t : c.throws_by_value) {
      for (const RollOutcome& o : rules.outcomes) {
        if (o.roll == t.roll) t.expected = c.throws * o.weight / total;
      }
    }
  }
}

}  // namespace

absl::StatusOr<GameReview> ReviewGame(const v1::GameRecord& record, const AnnotatedRecord& annotated,
                                      const ReviewOptions& options) {
  if (!annotated.values || annotated.rules == nullptr) {
    return absl::InvalidArgumentError("a review needs winning chances: annotate with a table or a search first");
  }
  if (static_cast<size_t>(record.actions_size()) != annotated.actions.size() ||
      annotated.positions.size() != annotated.actions.size() + 1) {
    return absl::InvalidArgumentError("the annotation is not of this record");
  }
  const Rules& rules = *annotated.rules;
  const ValuesSummary& values = *annotated.values;
  GameReview review;
  review.evaluator = values.evaluator;
  review.exact = values.exact;
  review.ruleset = record.ruleset();
  review.winner = annotated.winner;
  review.actions = static_cast<int>(annotated.actions.size());
  const std::vector<double> light = LightChances(annotated);
  review.start_light = light.front();
  review.end_light = light.back();
  for (Side side : {kLight, kDark}) {
    PlayerReview& p = review.players[side];
    p.side = side;
    const auto tag = record.tags().find(side == kLight ? "Light" : "Dark");
    if (tag != record.tags().end()) p.name = tag->second;
  }
  Count(rules, annotated, &review);

  double accuracy_sum[2] = {0, 0};
  // Every candidate, then only the few asked for are kept in the review (a
  // collection keeps thousands of reviews: no spare capacity in them).
  std::vector<KeyMove> key_moves;
  std::vector<TurningPoint> turning_points;
  for (const ActionAnnotation& an : annotated.actions) {
    const ActionValues& v = *an.values;
    PlayerReview& p = review.players[an.player];
    p.luck += v.luck;
    if (!an.move) continue;
    if (an.alternatives < 2) {
      ++p.forced;
      continue;
    }
    ++p.decisions;
    p.total_loss += v.loss;
    accuracy_sum[an.player] += DecisionAccuracy(v.loss);
    p.doubtful += v.mark == kMarkDoubtful;
    p.mistakes += v.mark == kMarkMistake;
    p.blunders += v.mark == kMarkBlunder;
    if (v.best && v.loss > 0 && options.key_moves > 0) {
      key_moves.push_back({an.index, an.player, an.roll, annotated.positions[an.index], *an.move, *v.best,
                                  v.loss, v.mark, v.before, v.throw_value, v.after});
    }
  }
  const double end_light = review.winner ? (*review.winner == kLight ? 1.0 : 0.0) : review.end_light;
  for (Side side : {kLight, kDark}) {
    PlayerReview& p = review.players[side];
    const PlayerFigures f = FiguresOf(p.decisions, p.total_loss, accuracy_sum[side]);
    p.accuracy = f.accuracy;
    p.error_rate = f.error_rate;
    p.rating = f.rating;
    p.result = side == kLight ? end_light : 1.0 - end_light;
  }
  // The luck-adjusted result, as GNU Backgammon has it: the result less
  // the luck (own luck - the opponent's). With exact chances it is also the
  // start chance - own total loss + the opponent's total loss; an
  // estimate's chances do not add up exactly from ply to ply, so there the
  // two differ (docs/review.md).
  for (Side side : {kLight, kDark}) {
    PlayerReview& p = review.players[side];
    p.luck_adjusted_result = p.result - (p.luck - review.players[Other(side)].luck);
  }

  // The costliest decisions first; equal losses in game order.
  std::stable_sort(key_moves.begin(), key_moves.end(),
                   [](const KeyMove& a, const KeyMove& b) { return a.loss > b.loss; });
  key_moves.resize(std::min(key_moves.size(), static_cast<size_t>(std::max(0, options.key_moves))));
  review.key_moves.assign(key_moves.begin(), key_moves.end());

  for (const ActionAnnotation& an : annotated.actions) {
    if (options.turning_points <= 0) break;
    const ActionValues& v = *an.values;
    TurningPoint t;
    t.index = an.index;
    t.player = an.player;
    t.roll = an.roll;
    // The change the action made, from the mover's chance before the throw
    // to after its move: luck - loss, exactly.
    t.light_before = an.player == kLight ? v.before : 1.0 - v.before;
    t.light_after = an.player == kLight ? v.after : 1.0 - v.after;
    t.luck = v.luck;
    t.loss = v.loss;
    t.by_dice = std::abs(v.luck) > v.loss;
    // Only swings, never a still action.
    if (t.light_after != t.light_before) turning_points.push_back(t);
  }
  const auto swing = [](const TurningPoint& t) { return std::abs(t.light_after - t.light_before); };
  std::stable_sort(turning_points.begin(), turning_points.end(),
                   [&](const TurningPoint& a, const TurningPoint& b) { return swing(a) > swing(b); });
  turning_points.resize(std::min(turning_points.size(), static_cast<size_t>(std::max(0, options.turning_points))));
  review.turning_points.assign(turning_points.begin(), turning_points.end());
  return review;
}

}  // namespace scribe

namespace scribe {
namespace {

void SetMove(Move m, v1::Move* out) {
  out->set_from(m.from);
  out->set_to(m.to);
}

void PlayerToProto(const PlayerReview& p, v1::PlayerReview* out) {
  out->set_player(ToPlayer(p.side));
  out->set_name(p.name);
  out->set_decisions(p.decisions);
  out->set_forced(p.forced);
  out->set_accuracy(p.accuracy);
  out->set_error_rate(p.error_rate);
  out->set_total_loss(p.total_loss);
  out->set_doubtful(p.doubtful);
  out->set_mistakes(p.mistakes);
  out->set_blunders(p.blunders);
  out->set_rating(p.rating);
  out->set_luck(p.luck);
  out->set_result(p.result);
  out->set_luck_adjusted_result(p.luck_adjusted_result);
  v1::GameCounts* c = out->mutable_counts();
  c->set_turns(p.counts.turns);
  c->set_throws(p.counts.throws);
  c->set_moves(p.counts.moves);
  c->set_passes(p.counts.passes);
  c->set_captures_made(p.counts.captures_made);
  c->set_captures_suffered(p.counts.captures_suffered);
  c->set_rosette_landings(p.counts.rosette_landings);
  c->set_borne_off(p.counts.borne_off);
  for (const ThrowCount& t : p.counts.throws_by_value) {
    v1::ThrowCount* tc = c->add_throws_by_value();
    tc->set_roll(t.roll);
    tc->set_count(t.count);
    tc->set_expected(t.expected);
  }
}

}  // namespace

absl::StatusOr<std::array<PlayerFigures, 2>> PlayersFigures(const JudgedRecord& judged, const Evaluator& evaluator,
                                                            const StopCheck& stop) {
  SCRIBE_RETURN_IF_ERROR(CheckAnnotatable(judged));
  const Rules& rules = *judged.verdict.rules;
  SCRIBE_RETURN_IF_ERROR(CheckEvaluator(evaluator, rules));
  int decisions[2] = {0, 0};
  double total_loss[2] = {0, 0}, accuracy_sum[2] = {0, 0};
  MoveList legal;
  for (int i = 0; i < judged.record.actions_size(); ++i) {
    if (i % 16 == 15 && StopRequested(stop)) return Stopped();
    const v1::Action& a = judged.record.actions(i);
    if (!a.has_from()) continue;  // a pass
    const Position& pos = judged.verdict.positions[i];
    LegalMoves(rules, pos, a.roll(), &legal);
    if (legal.size() < 2) continue;  // forced
    // ValueAction's loss: the best move's value less the played one's.
    const std::vector<ValuedMove> ranked = RankMovesByValue(evaluator, pos, a.roll());
    const Move played{static_cast<uint8_t>(a.from()), static_cast<uint8_t>(a.to())};
    const double loss = std::max(0.0, ranked.front().value - PlayedValue(ranked, played));
    const Side side = pos.to_move;
    ++decisions[side];
    total_loss[side] += loss;
    accuracy_sum[side] += DecisionAccuracy(loss);
  }
  if (StopRequested(stop)) return Stopped();
  std::array<PlayerFigures, 2> figures;
  for (Side side : {kLight, kDark}) figures[side] = FiguresOf(decisions[side], total_loss[side], accuracy_sum[side]);
  return figures;
}

v1::Review ReviewToProto(const GameReview& review, const Rules& rules) {
  v1::Review out;
  out.set_evaluator(review.evaluator);
  out.set_exact(review.exact);
  out.set_ruleset(review.ruleset);
  out.set_start_light_chance(review.start_light);
  out.set_end_light_chance(review.end_light);
  if (review.winner) out.set_winner(ToPlayer(*review.winner));
  out.set_actions(review.actions);
  PlayerToProto(review.players[kLight], out.mutable_light());
  PlayerToProto(review.players[kDark], out.mutable_dark());
  for (const KeyMove& k : review.key_moves) {
    v1::KeyMove* m = out.add_key_moves();
    m->set_action_index(k.index);
    m->set_player(ToPlayer(k.player));
    m->set_roll(k.roll);
    m->set_position(PositionToString(rules, k.position));
    SetMove(k.played, m->mutable_played());
    SetMove(k.best, m->mutable_best());
    m->set_loss(k.loss);
    m->set_mark(k.mark);
    m->set_chance_before(k.chance_before);
    m->set_best_value(k.best_value);
    m->set_played_value(k.played_value);
  }
  for (const TurningPoint& t : review.turning_points) {
    v1::TurningPoint* p = out.add_turning_points();
    p->set_action_index(t.index);
    p->set_player(ToPlayer(t.player));
    p->set_roll(t.roll);
    p->set_light_before(t.light_before);
    p->set_light_after(t.light_after);
    p->set_luck(t.luck);
    p->set_loss(t.loss);
    p->set_cause(t.by_dice ? "dice" : "skill");
  }
  return out;
}

}  // namespace scribe
