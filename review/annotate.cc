#include "review/annotate.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/board.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"
#include "records/referee.h"

namespace scribe {
namespace {

std::string Counted(absl::string_view word, int n) {
  return n > 1 ? absl::StrCat(word, ":", n) : std::string(word);
}

}  // namespace

absl::Status CheckAnnotatable(const JudgedRecord& judged) {
  const RefereeResult& verdict = judged.verdict;
  if (!verdict.valid()) {
    const v1::Finding& f = verdict.findings.front();
    return absl::InvalidArgumentError(absl::StrCat(
        "not a legal record: ", f.has_action_index() ? absl::StrCat("action ", f.action_index(), ": ") : "",
        f.message(), " [", f.code(), "]"));
  }
  if (verdict.positions.size() != static_cast<size_t>(judged.record.actions_size()) + 1) {
    return absl::InternalError("the record was judged without its positions (RefereeOptions::keep_positions)");
  }
  return absl::OkStatus();
}

ActionAnnotation AnnotateAction(const JudgedRecord& judged, int i, const EvaluationWeights& weights,
                                bool score_moves) {
  const RefereeResult& verdict = judged.verdict;
  const Rules& r = *verdict.rules;
  const v1::Action& a = judged.record.actions(i);
  const Position& pos = verdict.positions[i];
  const Position& after = verdict.positions[i + 1];
  const ActionOutcome& outcome = verdict.outcomes[i];
  ActionAnnotation an;
  an.index = i;
  an.player = pos.to_move;
  an.roll = a.roll();
  std::vector<MoveEvaluation> ranked;
  if (score_moves) {
    ranked = RankMoves(r, pos, a.roll(), weights);
    an.alternatives = static_cast<int>(ranked.size());
  } else {
    MoveList moves;
    LegalMoves(r, pos, a.roll(), &moves);
    an.alternatives = static_cast<int>(moves.size());
  }
  if (!a.has_from()) {
    an.did.emplace_back(kDidPass);
  } else {
    const Move m{static_cast<uint8_t>(a.from()), static_cast<uint8_t>(a.to())};
    an.move = m;
    if (score_moves) {
      for (const MoveEvaluation& e : ranked) {
        if (e.move == m) an.score = e.score;
      }
      // Competition ranking: a move the evaluation scores as high as the
      // best is rank 1, and then no other move is called better.
      an.rank = 1;
      for (const MoveEvaluation& e : ranked) an.rank += e.score > an.score ? 1 : 0;
      an.best_score = ranked.front().score;
      if (ranked.front().score > an.score) an.best = ranked.front().move;
    }
    const int borne_off = after.count[an.player][r.off] - pos.count[an.player][r.off];
    an.captured = outcome.captured;
    if (m.from == 0) an.did.emplace_back(kDidEntered);
    if (outcome.captured > 0) an.did.push_back(Counted(kDidCaptured, outcome.captured));
    if (m.to <= r.path_length && (r.GivesExtraRoll(m.to) || ((r.auto_place_mask >> m.to) & 1u))) {
      an.did.emplace_back(kDidRosette);
    }
    if (outcome.extra_roll) an.did.emplace_back(kDidExtraThrow);
    if (outcome.placed) an.did.emplace_back(kDidPlaced);
    if (borne_off > 0) an.did.push_back(Counted(kDidBoreOff, borne_off));
    if (outcome.won) an.did.emplace_back(kDidWon);
    if (an.alternatives == 1) an.did.emplace_back(kDidForced);
  }
  an.race = Race(r, after);
  return an;
}

absl::StatusOr<AnnotatedRecord> AnnotateRecord(const JudgedRecord& judged, const EvaluationWeights& weights,
                                               const StopCheck& stop, bool score_moves) {
  SCRIBE_RETURN_IF_ERROR(CheckAnnotatable(judged));
  const RefereeResult& verdict = judged.verdict;
  AnnotatedRecord out;
  out.rules = verdict.rules;
  out.positions = verdict.positions;
  out.first_player = out.positions.front().to_move;
  out.start_race = Race(*verdict.rules, out.positions.front());
  out.actions.reserve(judged.record.actions_size());
  for (int i = 0; i < judged.record.actions_size(); ++i) {
    // A few microseconds an action: polled once in 256.
    if (i % 256 == 255 && StopRequested(stop)) return Stopped();
    out.actions.push_back(AnnotateAction(judged, i, weights, score_moves));
  }
  out.winner = verdict.winner;
  return out;
}

absl::StatusOr<AnnotatedRecord> AnnotateRecord(const v1::GameRecord& record, std::shared_ptr<const Rules> rules,
                                               const EvaluationWeights& weights) {
  RulesPolicy io;
  io.rules = std::move(rules);
  return AnnotateRecord(Judge(record, io, {.build_replay = false, .keep_positions = true}), weights);
}

std::string MarkForLoss(double loss, const MarkThresholds& thresholds) {
  if (loss >= thresholds.blunder) return std::string(kMarkBlunder);
  if (loss >= thresholds.mistake) return std::string(kMarkMistake);
  if (loss >= thresholds.doubtful) return std::string(kMarkDoubtful);
  return "";
}

namespace {

// The mover's chance before the throw: the evaluator's value when exact;
// else the average over the dice of what each throw is worth, so that the
// luck of the throws averages to zero. A finished game: 1 to its winner.
double ChanceBefore(const Evaluator& evaluator, const Position& pos) {
  const Rules& rules = evaluator.rules();
  if (IsOver(rules, pos)) return FinishedValue(rules, pos);
  return evaluator.exact() ? evaluator.Value(pos) : ExpectedValueOverThrows(evaluator, pos);
}

}  // namespace

absl::Status CheckEvaluator(const Evaluator& evaluator, const Rules& rules) {
  if (evaluator.rules().digest == rules.digest) return absl::OkStatus();
  const auto name = [](const Rules& r) { return absl::StrCat(RulesetName(r), " (digest ", r.digest, ")"); };
  return absl::FailedPreconditionError(absl::StrCat("the evaluator (", evaluator.name(), ") answers for ",
                                                    name(evaluator.rules()), ", the record is played under ",
                                                    name(rules)));
}

ActionValues ValueAction(const Evaluator& evaluator, const Position& pos, const ActionAnnotation& an,
                         const MarkThresholds& thresholds, PlayerSummary* p) {
  ActionValues v;
  v.before = ChanceBefore(evaluator, pos);
  const std::vector<ValuedMove> ranked = RankMovesByValue(evaluator, pos, an.roll);
  ++p->throws;
  if (!an.move) {
    v.throw_value = v.after = ranked.empty() ? ValueAfterPass(evaluator, pos) : ranked.front().value;
  } else {
    v.throw_value = ranked.front().value;
    v.after = PlayedValue(ranked, *an.move);
    v.loss = std::max(0.0, v.throw_value - v.after);
    if (v.throw_value > v.after) v.best = ranked.front().move;
    v.mark = MarkForLoss(v.loss, thresholds);
    ++p->moves;
    if (ranked.size() >= 2) ++p->decisions;
    p->total_loss += v.loss;
    p->doubtful += v.mark == kMarkDoubtful;
    p->mistakes += v.mark == kMarkMistake;
    p->blunders += v.mark == kMarkBlunder;
  }
  v.luck = v.throw_value - v.before;
  p->total_luck += v.luck;
  return v;
}

double PlayedValue(const std::vector<ValuedMove>& ranked, const Move& played) {
  double value = ranked.front().value;
  for (const ValuedMove& m : ranked) {
    if (m.move == played) value = m.value;
  }
  return value;
}

double EndLightChance(const Evaluator& evaluator, const Position& end) {
  const double end_mover = ChanceBefore(evaluator, end);
  return end.to_move == kLight ? end_mover : 1.0 - end_mover;
}

absl::Status AddWinningChances(const v1::GameRecord& record, const Evaluator& evaluator,
                               AnnotatedRecord* annotated, const MarkThresholds& thresholds, const StopCheck& stop) {
  if (annotated->rules == nullptr) return absl::InvalidArgumentError("the annotation has no rules");
  SCRIBE_RETURN_IF_ERROR(CheckEvaluator(evaluator, *annotated->rules));
  const std::vector<Position>& positions = annotated->positions;
  if (static_cast<size_t>(record.actions_size()) != annotated->actions.size() ||
      positions.size() != annotated->actions.size() + 1) {
    return absl::InvalidArgumentError("the annotation is not of this record");
  }
  ValuesSummary summary;
  summary.evaluator = evaluator.name();
  summary.exact = evaluator.exact();
  summary.thresholds = thresholds;
  for (ActionAnnotation& an : annotated->actions) {
    if (StopRequested(stop)) {
      for (ActionAnnotation& a : annotated->actions) a.values.reset();
      return Stopped();
    }
    an.values = ValueAction(evaluator, positions[an.index], an, thresholds, &summary.players[an.player]);
  }
  const double end_light = EndLightChance(evaluator, positions.back());
  if (StopRequested(stop)) {
    for (ActionAnnotation& a : annotated->actions) a.values.reset();
    return Stopped();
  }
  summary.end_light = end_light;
  annotated->values = std::move(summary);
  return absl::OkStatus();
}

absl::StatusOr<AnnotatedRecord> AnnotateWithValues(const v1::GameRecord& record, const Evaluator& evaluator,
                                                   std::shared_ptr<const Rules> rules,
                                                   const MarkThresholds& thresholds,
                                                   const EvaluationWeights& weights) {
  absl::StatusOr<AnnotatedRecord> annotated = AnnotateRecord(record, std::move(rules), weights);
  if (!annotated.ok()) return annotated;
  SCRIBE_RETURN_IF_ERROR(AddWinningChances(record, evaluator, &*annotated, thresholds));
  return annotated;
}

std::vector<double> LightChances(const AnnotatedRecord& annotated) {
  std::vector<double> out;
  if (!annotated.values) return out;
  for (const ActionAnnotation& an : annotated.actions) {
    const double before = an.values ? an.values->before : 0.5;
    out.push_back(an.player == kLight ? before : 1.0 - before);
  }
  out.push_back(annotated.values->end_light);
  return out;
}

}  // namespace scribe
