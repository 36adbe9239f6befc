// The turns of a record as its text wrote them, checked against the turns
// the referee's verdict implies: one walk for every format that says where
// its actions were written (TSN, RGN, RoyalUr JSON), each with its own
// messages and markers.
//
// The rules decide whose throw each action is: the previous move's extra
// throw keeps the turn, anything else passes it. The text says it too (a
// TSN line "12. L ...", RGN's "N." and "/", a RoyalUr state's "turn"). The
// walk compares the two, action by action up to the referee's first
// finding, and stops at the first action whose turn is written wrong: what
// follows would be judged against the wrong turns, so it is not reported
// too.
#ifndef SCRIBE_RECORDS_WRITTEN_TURNS_H_
#define SCRIBE_RECORDS_WRITTEN_TURNS_H_

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "records/finding_codes.h"
#include "records/parsed.h"
#include "records/referee.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// How an action's turn is written wrong.
enum class TurnBreak {
  kTurnSplit,          // the previous move earned the mover this throw; written as a new turn of theirs
  kMissingExtraThrow,  // the previous move earned the mover this throw; written as the other side's
  kTurnPassed,         // the turn passed; the throw is written in the turn that ended
  kWrongSide,          // a turn that starts here is written as the wrong side's
};

// One action, as the walk meets it.
struct WrittenAction {
  int index = 0;  // the action's index in the record
  const ActionSource& source;
  Side mover = kLight;    // whose throw it is, by the rules
  Side written = kLight;  // whose the text says it is
  bool extra = false;     // the previous move earned the mover this throw
};

// The findings of a walk, placed where each action was written.
class TurnFindings {
 public:
  TurnFindings(const RecordSource& source, const LineIndex& lines, int record_index)
      : source_(source), lines_(lines), record_index_(record_index) {}
  void Add(absl::string_view code, std::string message, int action) {
    out_.push_back(ActionFinding(code, std::move(message), lines_, source_, action, record_index_));
  }
  std::vector<v1::Finding>& out() { return out_; }

 private:
  const RecordSource& source_;
  const LineIndex& lines_;
  int record_index_;
  std::vector<v1::Finding> out_;
};

// What the walk found.
struct TurnsChecked {
  std::vector<v1::Finding> findings;
  // The walk stopped at an action whose turn is written wrong (a TurnBreak
  // or a turn number): a check of what the whole record says (TSN's
  // Result) is then not made.
  bool broken = false;
};

// Walks the written turns of a judged record (see above). `Form` is the
// format's part:
//   static constexpr bool kTurnsWritten: the text groups throws into turns
//     (TSN's lines, RGN's "N." and "/"), and ActionSource::first_in_turn
//     says where one starts; false when each action names only its side
//     (RoyalUr JSON's states): a turn starts where the side changes.
//   std::string Message(TurnBreak, const WrittenAction&): the finding's
//     message (its code is the TurnBreak's: turn-split,
//     missing-extra-throw, turn-passed, wrong-side).
//   std::optional<std::string> TurnNumber(const WrittenAction&): at an
//     action that starts a turn written as the right side's, the message
//     of a turn-number finding when its number is wrong (the walk stops);
//     nullopt otherwise.
//   void Markers(const WrittenAction&, const ActionOutcome&, TurnFindings&):
//     the markers written on an action the referee judged legal.
// Nothing is checked when the rules did not resolve or the record has no
// start (the referee said why).
template <class Form>
TurnsChecked CheckWrittenTurns(const RecordSource& source, const RefereeResult& result, const LineIndex& lines,
                               int record_index, Form& form) {
  TurnFindings findings(source, lines, record_index);
  if (result.rules == nullptr || !result.start) return {};
  const int judged = static_cast<int>(result.outcomes.size());
  const int n = std::min<int>(static_cast<int>(source.actions.size()), judged + (result.valid() ? 0 : 1));
  Side mover = result.start->to_move;
  for (int i = 0; i < n; ++i) {
    const ActionSource& as = source.actions[i];
    const bool extra = i > 0 && result.outcomes[i - 1].extra_roll;
    if (i > 0 && !extra) mover = Other(mover);
    const WrittenAction action{i, as, mover, static_cast<Side>(as.side), extra};
    bool first;
    if constexpr (Form::kTurnsWritten) {
      first = as.first_in_turn;
    } else {
      first = i == 0 || as.side != source.actions[i - 1].side;
    }
    std::optional<TurnBreak> broken;
    absl::string_view code;
    if (extra && first) {
      broken = action.written == mover ? TurnBreak::kTurnSplit : TurnBreak::kMissingExtraThrow;
      code = action.written == mover ? codes::kTurnSplit : codes::kMissingExtraThrow;
    } else if (!extra && !first) {
      broken = TurnBreak::kTurnPassed;
      code = codes::kTurnPassed;
    } else if (first && action.written != mover) {
      broken = TurnBreak::kWrongSide;
      code = codes::kWrongSide;
    }
    if (broken) {
      findings.Add(code, form.Message(*broken, action), i);
      return {std::move(findings.out()), true};
    }
    if (first) {
      if (std::optional<std::string> wrong = form.TurnNumber(action)) {
        findings.Add(codes::kTurnNumber, *std::move(wrong), i);
        return {std::move(findings.out()), true};
      }
    }
    if (i >= judged) break;
    form.Markers(action, result.outcomes[i], findings);
  }
  return {std::move(findings.out()), false};
}

}  // namespace scribe

#endif  // SCRIBE_RECORDS_WRITTEN_TURNS_H_
