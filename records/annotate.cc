#include "records/annotate.h"

#include <algorithm>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/board.h"
#include "records/referee.h"

namespace scribe {
namespace {

// The keys this file writes, in the order it writes them.
constexpr absl::string_view kKeys[] = {"did", "alts", "rank", "best", "score", "race"};

bool IsOurKey(absl::string_view key) {
  return std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys);
}

// A square as TSN writes it (records/tsn.cc): a path number, or a tile name
// with a prime for each earlier visit of the tile; "off" for borne off and,
// with tiles, "@" for waiting.
std::string SquareText(const Rules& rules, Side side, int index, SquareStyle style) {
  if (index == rules.off) return "off";
  if (style == SquareStyle::kPathNumbers) return absl::StrCat(index);
  if (index == 0) return "@";
  const TileId tile = rules.tile[side][index];
  int visit = 0;
  for (int i = 1; i < index; ++i) visit += rules.tile[side][i] == tile;
  return absl::StrCat(TileName(tile), std::string(visit, '\''));
}

std::string MoveText(const Rules& rules, Side side, Move m, SquareStyle style) {
  return absl::StrCat(SquareText(rules, side, m.from, style), "-", SquareText(rules, side, m.to, style));
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
  }
  if (annotated.winner) out.set_winner(ToPlayer(*annotated.winner));
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
