#include "review/annotation_text.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/status_macros.h"
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

namespace {

void SetMove(const Move& m, v1::Move* out) {
  out->set_from(m.from);
  out->set_to(m.to);
}

v1::AnnotatedAction ActionToProto(const ActionAnnotation& an) {
  v1::AnnotatedAction a;
  a.set_index(an.index);
  a.set_player(ToPlayer(an.player));
  a.set_roll(an.roll);
  for (const std::string& d : an.did) a.add_did(d);
  a.set_alternatives(an.alternatives);
  if (an.move) {
    SetMove(*an.move, a.mutable_move());
    a.set_captured(an.captured);
    if (an.rank > 0) {  // (0: annotated without the heuristic's scores)
      a.set_rank(an.rank);
      a.set_score(an.score);
      a.set_best_score(an.best_score);
      if (an.best) SetMove(*an.best, a.mutable_best());
    }
  }
  a.set_race_light(an.race.light);
  a.set_race_dark(an.race.dark);
  if (an.values) {
    const ActionValues& v = *an.values;
    a.set_chance_before(v.before);
    a.set_throw_value(v.throw_value);
    a.set_chance_after(v.after);
    if (v.best) SetMove(*v.best, a.mutable_best_by_value());
    if (an.move) a.set_loss(v.loss);
    a.set_mark(v.mark);
    a.set_luck(v.luck);
  }
  return a;
}

// The fields before the actions.
v1::Annotation AnnotationHead(const Rules& rules, const std::string& ruleset, Side first, const RaceStanding& race) {
  v1::Annotation out;
  out.set_ruleset(ruleset);
  out.set_ruleset_digest(rules.digest);
  out.set_first_player(ToPlayer(first));
  out.set_start_race_light(race.light);
  out.set_start_race_dark(race.dark);
  return out;
}

// The fields after the actions (light's chances appended by the caller).
void AnnotationTail(std::optional<Side> winner, const ValuesSummary* values, v1::Annotation* out) {
  if (winner) out->set_winner(ToPlayer(*winner));
  if (values == nullptr) return;
  const ValuesSummary& v = *values;
  out->set_evaluator(v.evaluator);
  out->set_exact(v.exact);
  out->mutable_thresholds()->set_doubtful(v.thresholds.doubtful);
  out->mutable_thresholds()->set_mistake(v.thresholds.mistake);
  out->mutable_thresholds()->set_blunder(v.thresholds.blunder);
  for (Side s : {kLight, kDark}) {
    const PlayerSummary& p = v.players[s];
    v1::PlayerSummary* summary = s == kLight ? out->mutable_summary_light() : out->mutable_summary_dark();
    summary->set_throws(p.throws);
    summary->set_moves(p.moves);
    summary->set_decisions(p.decisions);
    summary->set_total_loss(p.total_loss);
    summary->set_doubtful(p.doubtful);
    summary->set_mistakes(p.mistakes);
    summary->set_blunders(p.blunders);
    summary->set_total_luck(p.total_luck);
  }
}

}  // namespace

v1::Annotation AnnotationToProto(const AnnotatedRecord& annotated, const std::string& ruleset) {
  v1::Annotation out = AnnotationHead(*annotated.rules, ruleset, annotated.first_player, annotated.start_race);
  for (const ActionAnnotation& an : annotated.actions) *out.add_actions() = ActionToProto(an);
  AnnotationTail(annotated.winner, annotated.values ? &*annotated.values : nullptr, &out);
  if (annotated.values) {
    for (double c : LightChances(annotated)) out.add_light_chance(c);
  }
  return out;
}

absl::StatusOr<std::unique_ptr<AnnotationSteps>> AnnotationSteps::Start(const JudgedRecord& judged,
                                                                       const Evaluator* evaluator,
                                                                       const MarkThresholds& thresholds,
                                                                       const EvaluationWeights& weights) {
  SCRIBE_RETURN_IF_ERROR(CheckAnnotatable(judged));
  if (evaluator != nullptr) SCRIBE_RETURN_IF_ERROR(CheckEvaluator(*evaluator, *judged.verdict.rules));
  auto steps = std::unique_ptr<AnnotationSteps>(new AnnotationSteps(judged, evaluator, thresholds, weights));
  if (evaluator != nullptr) {
    steps->values_.emplace();
    steps->values_->evaluator = evaluator->name();
    steps->values_->exact = evaluator->exact();
    steps->values_->thresholds = thresholds;
    steps->light_chances_.reserve(judged.record.actions_size() + 1);
  }
  return steps;
}

AnnotationSteps::AnnotationSteps(const JudgedRecord& judged, const Evaluator* evaluator,
                                 const MarkThresholds& thresholds, const EvaluationWeights& weights)
    : judged_(judged), evaluator_(evaluator), thresholds_(thresholds), weights_(weights) {}

v1::Annotation AnnotationSteps::Head() const {
  const RefereeResult& verdict = judged_.verdict;
  return AnnotationHead(*verdict.rules, judged_.record.ruleset(), verdict.positions.front().to_move,
                        Race(*verdict.rules, verdict.positions.front()));
}

bool AnnotationSteps::Next(v1::AnnotatedAction* action) {
  if (next_ >= judged_.record.actions_size()) return false;
  const int i = next_++;
  ActionAnnotation an = AnnotateAction(judged_, i, weights_);
  if (evaluator_ != nullptr) {
    an.values = ValueAction(*evaluator_, judged_.verdict.positions[i], an, thresholds_,
                            &values_->players[an.player]);
    light_chances_.push_back(an.player == kLight ? an.values->before : 1.0 - an.values->before);
  }
  *action = ActionToProto(an);
  return true;
}

v1::Annotation AnnotationSteps::Tail() const {
  v1::Annotation out;
  std::optional<ValuesSummary> values = values_;
  if (values) values->end_light = EndLightChance(*evaluator_, judged_.verdict.positions.back());
  AnnotationTail(judged_.verdict.winner, values ? &*values : nullptr, &out);
  if (values) {
    for (double c : light_chances_) out.add_light_chance(c);
    out.add_light_chance(values->end_light);
  }
  return out;
}

}  // namespace scribe
