#include "engine/evaluate.h"

#include <algorithm>

namespace scribe {
namespace {

bool OnPath(const Rules& rules, int index) { return index >= 1 && index <= rules.path_length; }

// A safe square that the opponent's path also crosses (so standing there
// matters: elsewhere a piece is out of reach anyway).
bool SharedSafe(const Rules& rules, Side side, int index) {
  return OnPath(rules, index) && rules.IsSafe(index) && rules.opp_overlap[side][index] != 0;
}

}  // namespace

RaceStanding Race(const Rules& rules, const Position& pos) {
  int pips[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    for (int i = 0; i <= rules.path_length; ++i) pips[s] += pos.count[s][i] * (rules.off - i);
  }
  return RaceStanding{pips[kLight], pips[kDark]};
}

double MeanThrow(const Rules& rules) {
  int total = 0;
  for (const RollOutcome& o : rules.outcomes) total += o.roll * o.weight;
  return static_cast<double>(total) / static_cast<double>(1 << rules.dice_count);
}

int CaptureWeight(const Rules& rules, const Position& pos, Side attacker, int index) {
  if (!OnPath(rules, index) || IsOver(rules, pos)) return 0;
  Position as_attacker = pos;
  as_attacker.to_move = attacker;
  const uint32_t target = 1u << index;
  int weight = 0;
  MoveList moves;
  for (const RollOutcome& o : rules.outcomes) {
    if (o.roll <= 0) continue;
    LegalMoves(rules, as_attacker, o.roll, &moves);
    for (const Move& m : moves) {
      if (!OnPath(rules, m.to) || rules.IsSafe(m.to)) continue;
      if (rules.opp_overlap[attacker][m.to] & target) {
        weight += o.weight;
        break;
      }
    }
  }
  return weight;
}

int HomeStretchStart(const Rules& rules, Side side) {
  int last_contested = 0;
  for (int i = 1; i <= rules.path_length; ++i) {
    // The opponent's indices on this square (opp_overlap is in its index
    // space) where landing captures: safe_mask is by the mover's own index,
    // the opponent's when it moves.
    if ((rules.opp_overlap[side][i] & ~rules.safe_mask) != 0) last_contested = i;
  }
  return last_contested + 1;
}

MoveEvaluation EvaluateMove(const Rules& rules, const Position& pos, Move move,
                            const EvaluationWeights& weights) {
  MoveEvaluation e;
  e.move = move;
  const Side me = pos.to_move;
  const Side opp = Other(me);
  Position after = pos;
  const MoveResult result = ApplyMove(rules, &after, move);
  const RaceStanding before_race = Race(rules, pos);
  const RaceStanding after_race = Race(rules, after);
  const double mean = MeanThrow(rules);
  const double outcomes = static_cast<double>(1 << rules.dice_count);

  e.progress = weights.progress * (before_race.of(me) - after_race.of(me));
  e.capture = weights.capture * (after_race.of(opp) - before_race.of(opp));
  if (result.extra_roll) e.extra_throw = weights.extra_throw * mean;
  if (result.placed) e.placement = weights.placement * mean;
  e.safety = weights.safety * ((SharedSafe(rules, me, move.to) ? 1 : 0) -
                               (SharedSafe(rules, me, move.from) ? 1 : 0));
  // Expected pips the moved piece loses to the opponent's next throw: where
  // it stood (a risk the move removes) minus where it lands.
  int risk_before = 0, risk_after = 0;
  if (OnPath(rules, move.from)) risk_before = CaptureWeight(rules, pos, opp, move.from) * move.from;
  if (OnPath(rules, move.to)) risk_after = CaptureWeight(rules, after, opp, move.to) * move.to;
  e.exposure = weights.exposure * (risk_before - risk_after) / outcomes;
  const int borne_off = after.count[me][rules.off] - pos.count[me][rules.off];
  e.way_off = weights.bear_off * borne_off;
  const int home = HomeStretchStart(rules, me);
  if (OnPath(rules, move.to) && move.to >= home && move.from < home) e.way_off += weights.home;

  e.score = e.progress + e.capture + e.extra_throw + e.placement + e.safety + e.exposure + e.way_off;
  return e;
}

std::vector<MoveEvaluation> EvaluateMoves(const Rules& rules, const Position& pos, int roll,
                                          const EvaluationWeights& weights) {
  MoveList moves;
  LegalMoves(rules, pos, roll, &moves);
  std::vector<MoveEvaluation> out;
  out.reserve(moves.size());
  for (const Move& m : moves) out.push_back(EvaluateMove(rules, pos, m, weights));
  return out;
}

std::vector<MoveEvaluation> RankMoves(const Rules& rules, const Position& pos, int roll,
                                      const EvaluationWeights& weights) {
  std::vector<MoveEvaluation> out = EvaluateMoves(rules, pos, roll, weights);
  std::stable_sort(out.begin(), out.end(), [](const MoveEvaluation& a, const MoveEvaluation& b) {
    return a.score > b.score;
  });
  return out;
}

}  // namespace scribe
