// The referee: replays a game record under its ruleset, judging every throw
// and move, and says exactly what went wrong and where.
//
// Judging stops at the first broken rule of a record (the root cause, not
// the cascade after it). Finding codes are stable; docs/validation.md lists
// them.
#ifndef SCRIBE_RECORDS_REFEREE_H_
#define SCRIBE_RECORDS_REFEREE_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/position.h"
#include "engine/rules.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// What one judged action did, kept compactly for every record (the full
// replay is built only on request).
struct ActionOutcome {
  Side mover = kLight;
  uint8_t captured = 0;
  // A move's place among the throw's legal moves, in LegalMoves' order,
  // and how many there were (the game codec's digits: no move listed).
  uint8_t choice = 0;
  uint8_t legal_moves = 0;
  bool moved = false;
  bool extra_roll = false;
  bool placed = false;
  bool won = false;
};

struct RefereeOptions {
  // Build `replay` (every legal move and the position after each action).
  // Validation alone does not need it.
  bool build_replay = true;
  // Keep `positions` (the start and the position after each legal action),
  // for callers that walk the game again: annotation, boards, pictures.
  bool keep_positions = false;
};

struct RefereeResult {
  std::shared_ptr<const Rules> rules;  // null when the ruleset did not resolve
  // With build_replay: every action judged legal, with what it did and the
  // position after it.
  v1::Replay replay;
  // One entry per action judged legal.
  std::vector<ActionOutcome> outcomes;
  // The position the record starts from, when it has one (its ruleset
  // resolved, its start position or throw-off not contradictory).
  std::optional<Position> start;
  // With keep_positions: `start`, then the position after each action
  // judged legal (outcomes.size() + 1 positions); empty without a start.
  std::vector<Position> positions;
  // Empty when the record is a legal game (finished or not).
  std::vector<v1::Finding> findings;
  Position final_position;
  std::optional<Side> winner;
  bool valid() const { return findings.empty(); }
};

// Resolves the record's ruleset reference (or uses `rules` when given, e.g.
// a user's ruleset file) and replays the record.
RefereeResult Referee(const v1::GameRecord& record, std::shared_ptr<const Rules> rules = nullptr,
                      const RefereeOptions& options = {});

// The position the record starts from: its start_position, or the start
// with the side the record says moves first. A finding when the record
// contradicts itself.
std::optional<v1::Finding> StartOfRecord(const Rules& rules, const v1::GameRecord& record,
                                         Position* start);

// Who moves first according to the record (throw-off or first_player),
// or a finding when the record contradicts itself.
std::optional<v1::Finding> DecideFirstPlayer(const Rules& rules, const v1::GameRecord& record,
                                             Side* first);

// The positions of a record: the start, then the position after each of
// its first `actions` actions (all of them when negative), stopping at the
// first action the rules do not allow; empty when the record has no start
// (its ruleset does not resolve, a bad start position or throw-off). The
// referee's positions, for callers that hold no verdict.
std::vector<Position> RecordPositions(const Rules& rules, const v1::GameRecord& record, int actions = -1);

// The replay of a judged record one step at a time: the steps its
// verdict's `replay` holds when judged with build_replay, made as they are
// asked for, so that no caller holds the replay of a long record whole.
// The moves are the verdict's legal ones, applied, not judged again. Both
// arguments must outlive it.
class ReplaySteps {
 public:
  ReplaySteps(const v1::GameRecord& record, const RefereeResult& verdict);
  // The next action's step; false after the last action judged legal.
  bool Next(v1::ReplayStep* step);

 private:
  const v1::GameRecord& record_;
  const RefereeResult& verdict_;
  Position pos_;
  size_t next_ = 0;
  MoveList legal_;
};

// The counts of a position per path index 0..L+1, as in replays.
v1::PositionCounts PositionToCounts(const Rules& rules, const Position& pos);

v1::Player ToPlayer(Side s);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_REFEREE_H_
