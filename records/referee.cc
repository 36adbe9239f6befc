#include "records/referee.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/ruleset.h"
#include "records/finding_codes.h"
#include "records/position_string.h"
#include "records/record_rules.h"
#include "records/squares.h"

namespace scribe {
namespace {

v1::Finding MakeFinding(absl::string_view code, std::string message,
                        std::optional<int> action_index = std::nullopt) {
  v1::Finding f;
  f.set_code(std::string(code));
  f.set_message(std::move(message));
  if (action_index) f.set_action_index(*action_index);
  return f;
}

std::string DescribeRolls(const Rules& rules) {
  std::vector<std::string> rolls;
  for (const RollOutcome& o : rules.outcomes) rolls.push_back(absl::StrCat(o.roll));
  return absl::StrJoin(rolls, ", ");
}

// Why a move that is not among the legal ones is illegal, as a user would
// say it; sets the finding code.
std::string ExplainIllegalMove(const Rules& r, const Position& pos, int from, int to, int roll,
                               absl::string_view* code) {
  const Side me = pos.to_move;
  *code = codes::kMoveIllegal;
  for (int index : {from, to}) {
    if (index < 0 || index > r.off) {
      if (index > r.off && from >= 0 && from <= r.off) {
        return absl::StrCat(index, " is past the end of the path (", r.off,
                            " is borne off): bearing off needs the exact throw");
      }
      return absl::StrCat(index, " is not a path index (0 waiting, 1-", r.path_length, " on the board, ", r.off,
                          " borne off)");
    }
  }
  if (roll == 0) {
    *code = codes::kMoveRollMismatch;
    return "a throw of 0 moves nothing";
  }
  if (to <= from) return "pieces move forward only";
  if (to - from != roll && !(r.bear_off_stack && from == r.path_length && to == r.off)) {
    *code = codes::kMoveRollMismatch;
    if (to == r.off && !r.bear_off_stack) {
      return absl::StrCat("bearing off from ", from, " needs exactly ", r.off - from);
    }
    return absl::StrCat("it moves ", to - from, " squares, not ", roll);
  }
  if (from == 0 && pos.count[me][0] == 0) return absl::StrCat(SideName(me), " has no piece waiting");
  if (from > 0 && pos.count[me][from] == 0) return absl::StrCat(SideName(me), " has no piece on ", from);
  if (from == 0 && !((r.entry_roll_mask >> roll) & 1u)) return absl::StrCat("a throw of ", roll, " cannot bring a piece on");
  if (r.bear_off_stack) {
    if (from == r.path_length) {
      *code = codes::kMoveRollMismatch;
      return absl::StrCat("from the last square only a throw of ", r.bear_off_roll, " bears off");
    }
    if (to == r.off) return absl::StrCat("a piece must land exactly on the last square (", r.path_length, ") first");
  }
  if (to != r.off) {
    if (!r.stacking && (pos.occ[me] & ~(1u << from) & r.own_overlap[me][to])) {
      return absl::StrCat("it would land on ", SideName(me), "'s own piece");
    }
    if ((pos.occ[Other(me)] & r.opp_overlap[me][to]) && r.IsSafe(to) && !r.safe_shared) {
      return absl::StrCat(SideName(Other(me)), "'s piece there is on a safe square");
    }
  }
  return "not allowed by the rules";
}

}  // namespace

v1::Player ToPlayer(Side s) { return s == kLight ? v1::LIGHT : v1::DARK; }

std::vector<Position> RecordPositions(const Rules& rules, const v1::GameRecord& record, int actions) {
  RefereeOptions options;
  options.build_replay = false;
  options.keep_positions = true;
  // The referee asks for the rules as a shared pointer; these are borrowed.
  std::shared_ptr<const Rules> borrowed(std::shared_ptr<const Rules>(), &rules);
  std::vector<Position> out = Referee(record, borrowed, options).positions;
  if (actions >= 0 && out.size() > static_cast<size_t>(actions) + 1) out.resize(actions + 1);
  return out;
}

namespace {

// A replay step's start: the action, who threw, the throw and its legal
// moves (listed in `legal`).
void StartStep(const Rules& r, const Position& pos, int index, int roll, MoveList* legal, v1::ReplayStep* step) {
  LegalMoves(r, pos, roll, legal);
  step->set_index(index);
  step->set_player(ToPlayer(pos.to_move));
  step->set_roll(roll);
  for (const Move& m : *legal) {
    v1::Move* lm = step->add_legal();
    lm->set_from(m.from);
    lm->set_to(m.to);
  }
}

// What the move of a step did.
void MoveOfStep(const Move& m, const MoveResult& mr, v1::ReplayStep* step) {
  v1::Move* mv = step->mutable_move();
  mv->set_from(m.from);
  mv->set_to(m.to);
  step->set_captured(mr.captured);
  step->set_extra_roll(mr.extra_roll);
  if (mr.placed) step->set_placed(true);
}

}  // namespace

ReplaySteps::ReplaySteps(const v1::GameRecord& record, const RefereeResult& verdict)
    : record_(record), verdict_(verdict) {
  if (verdict.start) pos_ = *verdict.start;
}

bool ReplaySteps::Next(v1::ReplayStep* step) {
  step->Clear();
  if (verdict_.rules == nullptr || !verdict_.start || next_ >= verdict_.outcomes.size()) return false;
  const Rules& r = *verdict_.rules;
  const int i = static_cast<int>(next_++);
  const v1::Action& a = record_.actions(i);
  StartStep(r, pos_, i, a.roll(), &legal_, step);
  if (!a.has_from()) {
    PassTurn(&pos_);
  } else {
    // Judged legal: the move is applied, not judged again.
    const Move m{static_cast<uint8_t>(a.from()), static_cast<uint8_t>(a.to())};
    MoveOfStep(m, ApplyMove(r, &pos_, m), step);
  }
  *step->mutable_position() = PositionToCounts(r, pos_);
  return true;
}

v1::PositionCounts PositionToCounts(const Rules& rules, const Position& pos) {
  v1::PositionCounts counts;
  for (int i = 0; i <= rules.off; ++i) {
    counts.add_light(pos.count[kLight][i]);
    counts.add_dark(pos.count[kDark][i]);
  }
  return counts;
}

std::optional<v1::Finding> DecideFirstPlayer(const Rules& rules, const v1::GameRecord& record,
                                             Side* first) {
  std::optional<Side> by_throw;
  for (int k = 0; k < record.opening_size(); ++k) {
    const v1::OpeningThrow& t = record.opening(k);
    if (by_throw) {
      return MakeFinding(codes::kOpeningAfterDecided,
                         absl::StrCat("opening throw ", k + 1, " comes after round ", k,
                                      " already decided who starts (throws are repeated only on a tie)"));
    }
    if (!t.has_light() || !t.has_dark()) {
      return MakeFinding(codes::kOpeningIncomplete,
                         absl::StrCat("opening throw ", k + 1, " needs both a light and a dark throw"));
    }
    for (int roll : {t.light(), t.dark()}) {
      if (!rules.CanRoll(roll)) {
        return MakeFinding(codes::kOpeningImpossibleRoll,
                           absl::StrCat("opening throw ", k + 1, ": ", roll,
                                        " is not a throw these dice can give (", DescribeRolls(rules), ")"));
      }
    }
    if (t.light() != t.dark()) by_throw = t.light() > t.dark() ? kLight : kDark;
  }
  if (record.opening_size() > 0 && !by_throw) {
    return MakeFinding(codes::kOpeningUndecided,
                       "the opening throw-off ends on a tie: equal throws are thrown again");
  }
  std::optional<Side> stated;
  if (record.has_first_player()) {
    if (record.first_player() == v1::LIGHT) stated = kLight;
    else if (record.first_player() == v1::DARK) stated = kDark;
    else return MakeFinding(codes::kFirstPlayerInvalid, "first_player must be LIGHT or DARK");
  }
  if (by_throw && stated && *by_throw != *stated) {
    return MakeFinding(codes::kOpeningFirstPlayerMismatch,
                       absl::StrCat("the throw-off was won by ", SideName(*by_throw),
                                    " but the record says ", SideName(*stated), " moved first"));
  }
  *first = by_throw ? *by_throw : stated.value_or(kLight);
  return std::nullopt;
}

std::optional<v1::Finding> StartOfRecord(const Rules& rules, const v1::GameRecord& record,
                                         Position* start) {
  if (!record.start_position().empty()) {
    if (record.opening_size() > 0) {
      return MakeFinding(codes::kStartPositionConflict,
                         "a record that starts from a set-up position carries no opening throw-off");
    }
    auto pos = ParsePositionString(rules, record.start_position());
    if (!pos.ok()) {
      return MakeFinding(codes::kStartPositionInvalid,
                         absl::StrCat("the start position: ", pos.status().message()));
    }
    if (record.has_first_player() && ToPlayer(pos->to_move) != record.first_player()) {
      return MakeFinding(codes::kStartPositionConflict,
                         absl::StrCat("the start position has ", SideName(pos->to_move),
                                      " to move but the record says the other side moved first"));
    }
    *start = *pos;
    return std::nullopt;
  }
  Side first = kLight;
  if (auto f = DecideFirstPlayer(rules, record, &first)) return f;
  *start = StartPosition(rules, first);
  return std::nullopt;
}

namespace {

// What makes action i unplayable before its move is looked at: the game
// is over, or the action has no roll, a roll these dice cannot give, or
// half a move.
std::optional<v1::Finding> UnplayableAction(const Rules& r, const Position& pos, const v1::Action& a, int i) {
  if (IsOver(r, pos)) {
    return MakeFinding(
        codes::kActionAfterEnd,
        absl::StrCat("the game ended (", SideName(*Winner(r, pos)),
                     " bore off every piece) before this action"), i);
  }
  if (!a.has_roll()) {
    return MakeFinding(codes::kRollMissing, "the action has no roll", i);
  }
  if (!r.CanRoll(a.roll())) {
    return MakeFinding(
        codes::kRollImpossible,
        absl::StrCat(a.roll(), " is not a throw these dice can give (", DescribeRolls(r), ")"), i);
  }
  if (a.has_from() != a.has_to()) {
    return MakeFinding(
        codes::kMoveIncomplete, "a move needs both \"from\" and \"to\" (neither, for a pass)", i);
  }
  return std::nullopt;
}

// The finding of action i, a move that is not legal in `pos`: why, and
// what was legal (*legal gets the legal moves).
v1::Finding IllegalMoveFinding(const Rules& r, const Position& pos, const v1::Action& a, int i, MoveList* legal) {
  const Side mover = pos.to_move;
  LegalMoves(r, pos, a.roll(), legal);
  const std::string expected =
      legal->empty() ? absl::StrCat("no move is legal for ", SideName(mover), "'s throw of ",
                                    a.roll(), ": expected a pass (no \"from\"/\"to\")")
                     : absl::StrCat("expected one of ", DescribeMoves(*legal));
  absl::string_view code;
  const std::string why = ExplainIllegalMove(r, pos, a.from(), a.to(), a.roll(), &code);
  return MakeFinding(
      code, absl::StrCat(SideName(mover), "'s move ", a.from(), "->", a.to(), " with a throw of ",
                         a.roll(), ": ", why, "; ", expected), i);
}

}  // namespace

RefereeResult Referee(const v1::GameRecord& record, std::shared_ptr<const Rules> rules,
                      const RefereeOptions& options) {
  RefereeResult result;
  if (rules == nullptr) {
    RecordRules decided = RulesFor(record, {});
    if (decided.rules == nullptr) {
      result.findings.push_back(std::move(decided.problem));
      return result;
    }
    rules = std::move(decided.rules);
  }
  result.rules = rules;
  const Rules& r = *rules;
  result.replay.set_ruleset(record.ruleset().empty() ? r.ruleset.id() : record.ruleset());
  result.replay.set_ruleset_digest(r.digest);
  if (!record.ruleset_digest().empty() && record.ruleset_digest() != r.digest) {
    result.findings.push_back(MakeFinding(
        codes::kRulesetDigestMismatch,
        absl::StrCat("the record says the rules have digest ", record.ruleset_digest(), " but \"",
                     result.replay.ruleset(), "\" resolves to ", r.digest)));
    return result;
  }
  Position pos;
  if (auto f = StartOfRecord(r, record, &pos)) {
    result.findings.push_back(*f);
    return result;
  }
  result.replay.set_first_player(ToPlayer(pos.to_move));
  result.start = pos;
  const bool build = options.build_replay;
  result.outcomes.reserve(record.actions_size());
  if (options.keep_positions) {
    result.positions.reserve(record.actions_size() + 1);
    result.positions.push_back(pos);
  }
  MoveList legal;
  // The replay step, only when building the replay (validation alone does
  // not pay for a message per action).
  std::optional<v1::ReplayStep> built;
  for (int i = 0; i < record.actions_size(); ++i) {
    const v1::Action& a = record.actions(i);
    if (auto f = UnplayableAction(r, pos, a, i)) {
      result.findings.push_back(*f);
      break;
    }
    const Side mover = pos.to_move;
    // The legal moves as a set; listed only for the replay or a message.
    const LegalSet legal_set = LegalDestinations(r, pos, a.roll());
    ActionOutcome outcome;
    outcome.mover = mover;
    if (build) StartStep(r, pos, i, a.roll(), &legal, &built.emplace());
    if (!a.has_from()) {
      if (!legal_set.empty()) {
        LegalMoves(r, pos, a.roll(), &legal);
        result.findings.push_back(MakeFinding(
            codes::kPassWithLegalMove,
            absl::StrCat(SideName(mover), " passed a throw of ", a.roll(),
                         " but a move was legal: expected one of ", DescribeMoves(legal)), i));
        break;
      }
      PassTurn(&pos);
    } else {
      const Move m{static_cast<uint8_t>(a.from() < 0 || a.from() > 31 ? 255 : a.from()),
                   static_cast<uint8_t>(a.to() < 0 || a.to() > 31 ? 255 : a.to())};
      if (!IsLegalMove(r, legal_set, a.roll(), m)) {
        result.findings.push_back(IllegalMoveFinding(r, pos, a, i, &legal));
        break;
      }
      outcome.choice = static_cast<uint8_t>(LegalMoveIndex(r, legal_set, a.roll(), m));
      outcome.legal_moves = static_cast<uint8_t>(LegalCount(legal_set));
      const MoveResult mr = ApplyMove(r, &pos, m);
      outcome.moved = true;
      outcome.captured = static_cast<uint8_t>(mr.captured);
      outcome.extra_roll = mr.extra_roll;
      outcome.placed = mr.placed;
      outcome.won = mr.won;
      if (build) MoveOfStep(m, mr, &*built);
    }
    result.outcomes.push_back(outcome);
    if (options.keep_positions) result.positions.push_back(pos);
    if (build) {
      *built->mutable_position() = PositionToCounts(r, pos);
      *result.replay.add_actions() = *std::move(built);
    }
  }
  result.final_position = pos;
  result.winner = Winner(r, pos);
  if (result.winner && result.findings.empty()) result.replay.set_winner(ToPlayer(*result.winner));
  return result;
}

}  // namespace scribe
