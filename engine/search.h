// An estimate of winning chances for any ruleset: an expectimax search over
// the exact chances of the dice, a chosen number of throws deep, with a
// heuristic estimate at its leaves (docs/suggest.md).
//
// Depth is counted in throws. The value of a position at depth 0 is the
// leaf estimate alone; at depth d > 0 it is the expected value, over the
// dice's outcomes with their exact weights, of the best move's value for
// the side to move, where a move's value is
//   1                        for a move that wins the game,
//   V(d-1, after)            when it earns another throw (the mover keeps
//                            the dice),
//   1 - V(d-1, after)        otherwise (the other side is to move),
// and a throw with no move (a 0, or nothing legal) is worth
// 1 - V(d-1, same position with the other side to move). A finished game is
// worth FinishedValue, exactly, at any depth. So
//   SearchEvaluator(d + 1).Value(p) == ExpectedValueOverThrows(
//       SearchEvaluator(d), p)
// (engine/evaluator.h), up to rounding: the tests check it.
//
// The leaf estimate (LeafValue) is a logistic function of a lead in pips,
// over a spread that grows while the two sides can still meet:
//
//   lead    = Race(opponent) - Race(mover) + tempo * mean
//             + threat * (Threat(mover) - Threat(opponent))
//             - risk * (Risk(mover) - Risk(opponent))
//   race    = sd^2 * (Race(mover) + Race(opponent)) / mean
//   contact = (K / mean) * (H / mean)^2 * min(Behind(mover), Behind(opponent)) / pieces
//   leaf    = 1 / (1 + exp(-lead / (scale * sqrt(race * (1 + c * contact)))))
//
// Race is engine/evaluate.h's race standing (pips a side still needs); mean
// and sd are the mean and standard deviation of one throw of the rules'
// dice (0s included).
//  - The lead: the race, the side to move's head start of a fraction of a
//    throw (the tempo), the captures each side threatens (Threat: the pips
//    it would send back with its next throw, the best capture for each
//    throw weighted by the throw's chance, ignoring what blocks the way),
//    and the pips each side has standing where it can be captured (Risk:
//    the sum of the path indices of its pieces on squares shared with the
//    other side's path and not safe, while the other side has pieces that
//    may still come up behind them).
//  - The spread: `race` is the variance of a pure race's lead over the
//    throws the race still needs (about (a + b) / (2 mean) a side). The
//    contact term widens it while the sides can still meet: K is the number
//    of squares of a side's path where it can be captured, so K / mean is
//    about how many throws a piece spends within reach; H is where the last
//    stretch that no opponent can attack starts (HomeStretchStart), so a
//    capture costs up to H pips; Behind(s) is how many of s's pieces have
//    yet to reach that stretch (waiting pieces included). K and H are the
//    means over both sides. Once one side has no piece behind, it is a
//    pure race.
// The five constants (kLeafScale, kLeafTempo, kLeafContact, kLeafThreat,
// kLeafRisk) were fitted by maximum likelihood to the outcomes of
// heuristic-against-heuristic games in every preset, each preset weighing
// the same (bench/calibrate_leaf.cc; docs/suggest.md has the fit and how
// well predicted chances match outcomes). A finished game is never a leaf:
// it is worth exactly 1 or 0.
//
// A search given a StopCheck (engine/stop.h) polls it every few hundred
// positions and, once it says stop, returns at once a value of no meaning:
// the caller, who asked to stop, drops it.
//
// Values are computed afresh for each call, with a table of positions
// already searched within the call (transpositions: passes, moves in
// another order, captures that bring a position back); nothing is kept
// between calls, so an evaluator may be shared between threads.
//
// Nothing here reads files.
#ifndef SCRIBE_ENGINE_SEARCH_H_
#define SCRIBE_ENGINE_SEARCH_H_

#include <memory>
#include <string>

#include "engine/evaluator.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/stop.h"

namespace scribe {

// The leaf estimate's constants (see above and docs/suggest.md).
inline constexpr double kLeafScale = 1.275;
inline constexpr double kLeafTempo = 0.629;
inline constexpr double kLeafContact = 0.082;
inline constexpr double kLeafThreat = 0.858;
inline constexpr double kLeafRisk = 0.077;

struct LeafParameters {
  double scale = kLeafScale;
  double tempo = kLeafTempo;
  double contact = kLeafContact;
  double threat = kLeafThreat;
  double risk = kLeafRisk;
};

// What the leaf estimate reads from a position, and the estimate from them
// (for the calibration: bench/calibrate_leaf.cc).
struct LeafFeatures {
  double mine = 0;    // Race of the side to move
  double theirs = 0;  // Race of the other side
  double behind_mine = 0;
  double behind_theirs = 0;
  // Expected pips the side would capture if it threw now (the best capture
  // for each throw, weighted by the throw's chance).
  double threat_mine = 0;
  double threat_theirs = 0;
  // Pips the side has on squares where it can be captured (the sum of those
  // pieces' path indices), while the other side has pieces that may still
  // come up behind them.
  double risk_mine = 0;
  double risk_theirs = 0;
};

// The deepest search the bots' parser accepts: each throw deeper costs
// about (outcomes x moves) times as much (docs/suggest.md has timings).
inline constexpr int kMaxSearchDepth = 6;

class SearchEvaluator : public Evaluator {
 public:
  // depth >= 0 throws.
  SearchEvaluator(std::shared_ptr<const Rules> rules, int depth, LeafParameters leaf = {}, StopCheck stop = {});

  double Value(const Position& pos) const override;
  bool exact() const override { return false; }
  // "search depth 2 + race estimate (an estimate)".
  std::string name() const override;
  const Rules& rules() const override { return *rules_; }

  int depth() const { return depth_; }
  const LeafParameters& leaf_parameters() const { return leaf_; }

  // The leaf estimate of a game that goes on; FinishedValue for a finished
  // one. In [0, 1].
  double LeafValue(const Position& pos) const;
  LeafFeatures Features(const Position& pos) const;
  double LeafFromFeatures(const LeafFeatures& f, const LeafParameters& leaf) const;

  // What the last Value call on this thread did (for benchmarks): inner
  // positions searched, leaf estimates taken, positions found already
  // searched in the call's table.
  struct Stats {
    long long nodes = 0;
    long long leaves = 0;
    long long memo_hits = 0;
  };
  static Stats LastStats();

 private:
  class Search;
  std::shared_ptr<const Rules> rules_;
  int depth_;
  LeafParameters leaf_;
  StopCheck stop_;
  double mean_ = 0;  // the dice's mean throw
  double sd_ = 0;    // and its standard deviation
  double contact_ = 0;  // (K / mean) * (H / mean)^2 / pieces
  int home_[2] = {0, 0};  // HomeStretchStart of each side
  uint32_t contested_[2] = {0, 0};  // indices where the side can be captured

  double Threat(const Position& pos, Side attacker) const;
};

}  // namespace scribe

#endif  // SCRIBE_ENGINE_SEARCH_H_
