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
  bool moved = false;
  bool extra_roll = false;
  bool placed = false;
  bool won = false;
};

struct RefereeOptions {
  // Build `replay` (every legal move and the position after each action).
  // Validation alone does not need it.
  bool build_replay = true;
};

struct RefereeResult {
  std::shared_ptr<const Rules> rules;  // null when the ruleset did not resolve
  // With build_replay: every action judged legal, with what it did and the
  // position after it.
  v1::Replay replay;
  // One entry per action judged legal.
  std::vector<ActionOutcome> outcomes;
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

// The counts of a position per path index 0..L+1, as in replays.
v1::PositionCounts PositionToCounts(const Rules& rules, const Position& pos);

// "0->3, 2->5" style list of moves, for messages.
std::string DescribeMoves(const MoveList& moves);

v1::Player ToPlayer(Side s);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_REFEREE_H_
