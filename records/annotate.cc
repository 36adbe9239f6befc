#include "records/annotate.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/board.h"
#include "records/referee.h"

namespace scribe {
namespace {

// The keys this file writes, in the order it writes them: an action's, then
// a record's (its own comment, with winning chances).
constexpr absl::string_view kKeys[] = {"did",   "alts", "rank", "best",   "score",     "race",
                                       "wc",    "wt",   "wca",  "bestv",  "loss",      "mark",
                                       "luck",  "values", "evaluator", "sum-light", "sum-dark"};
constexpr absl::string_view kRecordKeys[] = {"values", "evaluator", "sum-light", "sum-dark"};

bool IsOurKey(absl::string_view key) {
  return std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys);
}

std::string MoveText(const Rules& rules, Side side, Move m, SquareStyle style) {
  return MoveText(rules, side, m.from, m.to, style);
}

// Scores are multiples of 1/2^dice_count: ten decimals print them exactly,
// then trailing zeros go.
std::string ScoreText(double score) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.10f", score);
  std::string s = buffer;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

// A chance in [0, 1] as percent with three decimals: "51.857".
std::string PercentText(double chance) {
  std::string s = absl::StrFormat("%.3f", chance * 100);
  if (s == "-0.000") s = "0.000";
  return s;
}

// A difference of chances as signed percent: "+8.393", "-0.500", "0.000".
std::string SignedPercentText(double chance) {
  std::string s = absl::StrFormat("%+.3f", chance * 100);
  if (s == "+0.000" || s == "-0.000") s = "0.000";
  return s;
}

// A value's text inside [%key value]: no ']' (it would end the annotation)
// and no line breaks.
std::string AnnotationValue(absl::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == ']') c = ')';
    if (c == '[') c = '(';
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return out;
}

std::string Counted(absl::string_view word, int n) {
  return n > 1 ? absl::StrCat(word, ":", n) : std::string(word);
}

// Calls f(key, value, begin, end) for every [%key value] in a comment.
template <typename F>
void ForEachAnnotation(absl::string_view comment, F f) {
  size_t pos = 0;
  while ((pos = comment.find("[%", pos)) != absl::string_view::npos) {
    const size_t close = comment.find(']', pos);
    if (close == absl::string_view::npos) return;
    absl::string_view body = comment.substr(pos + 2, close - pos - 2);
    const size_t space = body.find_first_of(" \t");
    absl::string_view key = body.substr(0, space);
    absl::string_view value =
        space == absl::string_view::npos ? absl::string_view() : absl::StripAsciiWhitespace(body.substr(space));
    f(key, value, pos, close + 1);
    pos = close + 1;
  }
}

}  // namespace

absl::StatusOr<AnnotatedRecord> AnnotateRecord(const v1::GameRecord& record,
                                               std::shared_ptr<const Rules> rules,
                                               const EvaluationWeights& weights) {
  RefereeOptions options;
  options.build_replay = false;
  const RefereeResult judged = Referee(record, rules, options);
  if (!judged.valid()) {
    const v1::Finding& f = judged.findings.front();
    return absl::InvalidArgumentError(absl::StrCat(
        "not a legal record: ", f.has_action_index() ? absl::StrCat("action ", f.action_index(), ": ") : "",
        f.message(), " [", f.code(), "]"));
  }
  AnnotatedRecord out;
  out.rules = judged.rules;
  const Rules& r = *judged.rules;
  Position pos;
  if (auto finding = StartOfRecord(r, record, &pos)) {
    return absl::InvalidArgumentError(finding->message());  // the referee said it first
  }
  out.first_player = pos.to_move;
  out.start_race = Race(r, pos);
  for (int i = 0; i < record.actions_size(); ++i) {
    const v1::Action& a = record.actions(i);
    ActionAnnotation an;
    an.index = i;
    an.player = pos.to_move;
    an.roll = a.roll();
    const std::vector<MoveEvaluation> ranked = RankMoves(r, pos, a.roll(), weights);
    an.alternatives = static_cast<int>(ranked.size());
    if (!a.has_from()) {
      an.did.emplace_back(kDidPass);
      PassTurn(&pos);
    } else {
      const Move m{static_cast<uint8_t>(a.from()), static_cast<uint8_t>(a.to())};
      an.move = m;
      for (const MoveEvaluation& e : ranked) {
        if (e.move == m) an.score = e.score;
      }
      // Competition ranking: a move the evaluation scores as high as the
      // best is rank 1, and then no other move is called better.
      an.rank = 1;
      for (const MoveEvaluation& e : ranked) an.rank += e.score > an.score ? 1 : 0;
      an.best_score = ranked.front().score;
      if (ranked.front().score > an.score) an.best = ranked.front().move;
      const int borne_before = pos.count[an.player][r.off];
      const MoveResult result = ApplyMove(r, &pos, m);
      an.captured = result.captured;
      if (m.from == 0) an.did.emplace_back(kDidEntered);
      if (result.captured > 0) an.did.push_back(Counted(kDidCaptured, result.captured));
      if (m.to <= r.path_length && (r.GivesExtraRoll(m.to) || ((r.auto_place_mask >> m.to) & 1u))) {
        an.did.emplace_back(kDidRosette);
      }
      if (result.extra_roll) an.did.emplace_back(kDidExtraThrow);
      if (result.placed) an.did.emplace_back(kDidPlaced);
      if (result.bore_off) {
        an.did.push_back(Counted(kDidBoreOff, pos.count[an.player][r.off] - borne_before));
      }
      if (result.won) an.did.emplace_back(kDidWon);
      if (ranked.size() == 1) an.did.emplace_back(kDidForced);
    }
    an.race = Race(r, pos);
    out.actions.push_back(std::move(an));
  }
  out.winner = Winner(r, pos);
  return out;
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

absl::Status AddWinningChances(const v1::GameRecord& record, const Evaluator& evaluator,
                               AnnotatedRecord* annotated, const MarkThresholds& thresholds) {
  if (annotated->rules == nullptr) return absl::InvalidArgumentError("the annotation has no rules");
  const Rules& rules = *annotated->rules;
  if (evaluator.rules().digest != rules.digest) {
    const auto name = [](const Rules& r) {
      return absl::StrCat(r.ruleset.id().empty() ? "custom rules" : r.ruleset.id(), " (digest ", r.digest, ")");
    };
    return absl::FailedPreconditionError(
        absl::StrCat("the evaluator (", evaluator.name(), ") answers for ", name(evaluator.rules()),
                     ", the record is played under ", name(rules)));
  }
  const std::vector<Position> positions = RecordPositions(rules, record);
  if (positions.size() != annotated->actions.size() + 1) {
    return absl::InvalidArgumentError("the annotation is not of this record");
  }
  ValuesSummary summary;
  summary.evaluator = evaluator.name();
  summary.exact = evaluator.exact();
  summary.thresholds = thresholds;
  for (ActionAnnotation& an : annotated->actions) {
    const Position& pos = positions[an.index];
    ActionValues v;
    v.before = ChanceBefore(evaluator, pos);
    const std::vector<ValuedMove> ranked = RankMovesByValue(evaluator, pos, an.roll);
    PlayerSummary& p = summary.players[an.player];
    ++p.throws;
    if (!an.move) {
      v.throw_value = v.after = ranked.empty() ? ValueAfterPass(evaluator, pos) : ranked.front().value;
    } else {
      v.throw_value = ranked.front().value;
      v.after = v.throw_value;
      for (const ValuedMove& m : ranked) {
        if (m.move == *an.move) v.after = m.value;
      }
      v.loss = std::max(0.0, v.throw_value - v.after);
      if (v.throw_value > v.after) v.best = ranked.front().move;
      v.mark = MarkForLoss(v.loss, thresholds);
      ++p.moves;
      if (ranked.size() >= 2) ++p.decisions;
      p.total_loss += v.loss;
      p.doubtful += v.mark == kMarkDoubtful;
      p.mistakes += v.mark == kMarkMistake;
      p.blunders += v.mark == kMarkBlunder;
    }
    v.luck = v.throw_value - v.before;
    p.total_luck += v.luck;
    an.values = std::move(v);
  }
  const Position& end = positions.back();
  const double end_mover = ChanceBefore(evaluator, end);
  summary.end_light = end.to_move == kLight ? end_mover : 1.0 - end_mover;
  annotated->values = std::move(summary);
  return absl::OkStatus();
}

absl::StatusOr<AnnotatedRecord> AnnotateWithValues(const v1::GameRecord& record, const Evaluator& evaluator,
                                                   std::shared_ptr<const Rules> rules,
                                                   const MarkThresholds& thresholds,
                                                   const EvaluationWeights& weights) {
  absl::StatusOr<AnnotatedRecord> annotated = AnnotateRecord(record, std::move(rules), weights);
  if (!annotated.ok()) return annotated;
  if (absl::Status s = AddWinningChances(record, evaluator, &*annotated, thresholds); !s.ok()) return s;
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

std::string AnnotationText(const Rules& rules, const ActionAnnotation& action, SquareStyle style) {
  std::vector<std::string> parts;
  if (!action.did.empty()) parts.push_back(absl::StrCat("[%did ", absl::StrJoin(action.did, ","), "]"));
  parts.push_back(absl::StrCat("[%alts ", action.alternatives, "]"));
  if (action.move) {
    parts.push_back(absl::StrCat("[%rank ", action.rank, "/", action.alternatives, "]"));
    if (action.best) parts.push_back(absl::StrCat("[%best ", MoveText(rules, action.player, *action.best, style), "]"));
    parts.push_back(absl::StrCat("[%score ", ScoreText(action.score), "]"));
  }
  parts.push_back(absl::StrCat("[%race ", action.race.light, "-", action.race.dark, "]"));
  if (action.values) {
    const ActionValues& v = *action.values;
    parts.push_back(absl::StrCat("[%wc ", PercentText(v.before), "]"));
    parts.push_back(absl::StrCat("[%wt ", PercentText(v.throw_value), "]"));
    parts.push_back(absl::StrCat("[%wca ", PercentText(v.after), "]"));
    if (v.best) {
      parts.push_back(absl::StrCat("[%bestv ", MoveText(rules, action.player, *v.best, style), " ",
                                   PercentText(v.throw_value), "]"));
    }
    if (action.move) parts.push_back(absl::StrCat("[%loss ", PercentText(v.loss), "]"));
    if (!v.mark.empty()) parts.push_back(absl::StrCat("[%mark ", v.mark, "]"));
    parts.push_back(absl::StrCat("[%luck ", SignedPercentText(v.luck), "]"));
  }
  return absl::StrJoin(parts, " ");
}

std::string RecordAnnotationText(const AnnotatedRecord& annotated) {
  if (!annotated.values) return "";
  const ValuesSummary& v = *annotated.values;
  std::vector<std::string> parts;
  parts.push_back(absl::StrCat("[%values ", v.exact ? "exact" : "estimate", "]"));
  parts.push_back(absl::StrCat("[%evaluator ", AnnotationValue(v.evaluator), "]"));
  for (Side s : {kLight, kDark}) {
    const PlayerSummary& p = v.players[s];
    parts.push_back(absl::StrCat("[%sum-", SideName(s), " moves=", p.moves, " decisions=", p.decisions,
                                 " loss=", PercentText(p.total_loss), " doubtful=", p.doubtful,
                                 " mistakes=", p.mistakes, " blunders=", p.blunders,
                                 " luck=", SignedPercentText(p.total_luck), "]"));
  }
  return absl::StrJoin(parts, " ");
}

std::string StripAnnotations(absl::string_view comment) {
  std::string kept;
  size_t last = 0;
  ForEachAnnotation(comment, [&](absl::string_view key, absl::string_view, size_t begin, size_t end) {
    if (!IsOurKey(key)) return;
    absl::StrAppend(&kept, comment.substr(last, begin - last), " ");
    last = end;
  });
  absl::StrAppend(&kept, comment.substr(last));
  // Collapse the spaces the removed keys leave.
  std::vector<absl::string_view> words = absl::StrSplit(kept, ' ', absl::SkipEmpty());
  return absl::StrJoin(words, " ");
}

std::map<std::string, std::string> ReadAnnotations(absl::string_view comment) {
  std::map<std::string, std::string> out;
  ForEachAnnotation(comment, [&](absl::string_view key, absl::string_view value, size_t, size_t) {
    out[std::string(key)] = std::string(value);
  });
  return out;
}

v1::GameRecord WithAnnotations(const v1::GameRecord& record, const AnnotatedRecord& annotated,
                               SquareStyle style) {
  v1::GameRecord out = record;
  // The record's own comment changes only with winning chances, or to drop
  // stale ones (so that annotating without an evaluator never leaves a
  // claim about values that are gone).
  const std::string record_keys = RecordAnnotationText(annotated);
  bool stale = false;
  ForEachAnnotation(record.comment(), [&](absl::string_view key, absl::string_view, size_t, size_t) {
    stale = stale || std::find(std::begin(kRecordKeys), std::end(kRecordKeys), key) != std::end(kRecordKeys);
  });
  if (!record_keys.empty() || stale) {
    std::string comment = StripAnnotations(record.comment());
    if (!record_keys.empty()) comment = comment.empty() ? record_keys : absl::StrCat(comment, " ", record_keys);
    out.set_comment(comment);
  }
  for (const ActionAnnotation& an : annotated.actions) {
    v1::Action* a = out.mutable_actions(an.index);
    std::string comment = StripAnnotations(a->comment());
    const std::string keys = AnnotationText(*annotated.rules, an, style);
    a->set_comment(comment.empty() ? keys : absl::StrCat(comment, " ", keys));
  }
  return out;
}

v1::Annotation AnnotationToProto(const AnnotatedRecord& annotated, const std::string& ruleset) {
  v1::Annotation out;
  out.set_ruleset(ruleset);
  out.set_ruleset_digest(annotated.rules->digest);
  out.set_first_player(ToPlayer(annotated.first_player));
  out.set_start_race_light(annotated.start_race.light);
  out.set_start_race_dark(annotated.start_race.dark);
  for (const ActionAnnotation& an : annotated.actions) {
    v1::AnnotatedAction* a = out.add_actions();
    a->set_index(an.index);
    a->set_player(ToPlayer(an.player));
    a->set_roll(an.roll);
    for (const std::string& d : an.did) a->add_did(d);
    a->set_alternatives(an.alternatives);
    if (an.move) {
      a->mutable_move()->set_from(an.move->from);
      a->mutable_move()->set_to(an.move->to);
      a->set_captured(an.captured);
      a->set_rank(an.rank);
      a->set_score(an.score);
      a->set_best_score(an.best_score);
      if (an.best) {
        a->mutable_best()->set_from(an.best->from);
        a->mutable_best()->set_to(an.best->to);
      }
    }
    a->set_race_light(an.race.light);
    a->set_race_dark(an.race.dark);
    if (an.values) {
      const ActionValues& v = *an.values;
      a->set_chance_before(v.before);
      a->set_throw_value(v.throw_value);
      a->set_chance_after(v.after);
      if (v.best) {
        a->mutable_best_by_value()->set_from(v.best->from);
        a->mutable_best_by_value()->set_to(v.best->to);
      }
      if (an.move) a->set_loss(v.loss);
      a->set_mark(v.mark);
      a->set_luck(v.luck);
    }
  }
  if (annotated.winner) out.set_winner(ToPlayer(*annotated.winner));
  if (annotated.values) {
    const ValuesSummary& v = *annotated.values;
    out.set_evaluator(v.evaluator);
    out.set_exact(v.exact);
    out.mutable_thresholds()->set_doubtful(v.thresholds.doubtful);
    out.mutable_thresholds()->set_mistake(v.thresholds.mistake);
    out.mutable_thresholds()->set_blunder(v.thresholds.blunder);
    for (Side s : {kLight, kDark}) {
      const PlayerSummary& p = v.players[s];
      v1::PlayerSummary* summary = s == kLight ? out.mutable_summary_light() : out.mutable_summary_dark();
      summary->set_throws(p.throws);
      summary->set_moves(p.moves);
      summary->set_decisions(p.decisions);
      summary->set_total_loss(p.total_loss);
      summary->set_doubtful(p.doubtful);
      summary->set_mistakes(p.mistakes);
      summary->set_blunders(p.blunders);
      summary->set_total_luck(p.total_luck);
    }
    for (double c : LightChances(annotated)) out.add_light_chance(c);
  }
  return out;
}

std::vector<Position> RecordPositions(const Rules& rules, const v1::GameRecord& record, int actions) {
  std::vector<Position> out;
  Position pos;
  if (StartOfRecord(rules, record, &pos)) return out;
  out.push_back(pos);
  const int n = actions < 0 ? record.actions_size() : std::min(actions, record.actions_size());
  MoveList legal;
  for (int i = 0; i < n; ++i) {
    const v1::Action& a = record.actions(i);
    if (IsOver(rules, pos) || !a.has_roll() || !rules.CanRoll(a.roll()) || a.has_from() != a.has_to()) break;
    LegalMoves(rules, pos, a.roll(), &legal);
    if (!a.has_from()) {
      if (!legal.empty()) break;
      PassTurn(&pos);
    } else {
      const Move m{static_cast<uint8_t>(a.from() < 0 || a.from() > 31 ? 255 : a.from()),
                   static_cast<uint8_t>(a.to() < 0 || a.to() > 31 ? 255 : a.to())};
      if (std::find(legal.begin(), legal.end(), m) == legal.end()) break;
      ApplyMove(rules, &pos, m);
    }
    out.push_back(pos);
  }
  return out;
}

}  // namespace scribe
