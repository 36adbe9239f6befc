#include "games/game_codec.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "games/varint.h"
#include "records/position_string.h"
#include "records/referee.h"

namespace scribe::games {
namespace {

constexpr uint8_t kIdentityVersion = 1;
constexpr uint8_t kExtraVersion = 1;
constexpr int kChoiceFollows = 15;

// The index of the move that took `before` to `after` among the throw's
// legal moves; -1 when none did.
int ChoiceOf(const Rules& rules, const Position& before, const Position& after, int roll,
             const v1::Action& action, Move* move) {
  MoveList legal;
  LegalMoves(rules, before, roll, &legal);
  for (int k = 0; k < legal.size(); ++k) {
    if (action.has_from() && legal[k].from != action.from()) continue;
    if (action.has_to() && legal[k].to != action.to()) continue;
    // A throw's legal moves have one `from` each: the record's `from`
    // names the move the referee played (and `after` is its result).
    if (action.has_from()) {
      *move = legal[k];
      return k;
    }
    Position p = before;
    ApplyMove(rules, &p, legal[k]);
    if (p == after) {
      *move = legal[k];
      return k;
    }
  }
  return -1;
}

// The start: 0 or 1 for the rules' start with light or dark to move, else
// 2 and the position string.
enum StartKind : uint8_t { kStartLight = 0, kStartDark = 1, kStartGiven = 2 };

void PutStart(std::string* out, const Rules& rules, const Position& start) {
  if (start == StartPosition(rules, start.to_move)) {
    out->push_back(static_cast<char>(start.to_move == kLight ? kStartLight : kStartDark));
    return;
  }
  out->push_back(static_cast<char>(kStartGiven));
  PutString(out, PositionToString(rules, start));
}

void PutAction(std::string* out, int roll, int choice) {
  if (choice + 1 < kChoiceFollows) {
    out->push_back(static_cast<char>(roll << 4 | (choice + 1)));
  } else {
    out->push_back(static_cast<char>(roll << 4 | kChoiceFollows));
    PutVarint(out, choice);
  }
}

// The digest field: 0 none, 1 the rules' digest, 2 another, written.
void PutDigest(std::string* out, const Rules& rules, const std::string& digest) {
  if (digest.empty() || digest == rules.digest) {
    out->push_back(static_cast<char>(digest.empty() ? 0 : 1));
    return;
  }
  out->push_back(2);
  PutString(out, digest);
}

constexpr const char* kColumnTags[4] = {"Light", "Dark", "Event", "Date"};

std::string EncodeExtra(const Rules& rules, const v1::GameRecord& record, const TagColumns& columns) {
  std::string out;
  out.push_back(static_cast<char>(kExtraVersion));
  PutString(&out, record.ruleset());
  PutDigest(&out, rules, record.ruleset_digest());
  out.push_back(static_cast<char>(record.has_first_player() ? 1 + static_cast<int>(record.first_player()) : 0));
  PutString(&out, record.start_position());
  PutString(&out, record.comment());
  std::map<std::string, std::string> tags(record.tags().begin(), record.tags().end());
  // A bit per column tag written as its column: left out of the list.
  const std::string* column[4] = {&columns.light, &columns.dark, &columns.event, &columns.date};
  uint8_t flags = 0;
  for (int i = 0; i < 4; ++i) {
    auto it = tags.find(kColumnTags[i]);
    if (it != tags.end() && it->second == *column[i]) {
      flags |= static_cast<uint8_t>(1 << i);
      tags.erase(it);
    }
  }
  out.push_back(static_cast<char>(flags));
  PutVarint(&out, tags.size());
  for (const auto& [k, v] : tags) {
    PutString(&out, k);
    PutString(&out, v);
  }
  int comments = 0;
  for (const v1::Action& a : record.actions()) comments += !a.comment().empty();
  PutVarint(&out, comments);
  for (int i = 0; i < record.actions_size(); ++i) {
    if (record.actions(i).comment().empty()) continue;
    PutVarint(&out, i);
    PutString(&out, record.actions(i).comment());
  }
  return out;
}

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("a stored game is damaged: ", what));
}

absl::Status DecodeExtra(const Rules& rules, absl::string_view extra, const TagColumns& columns,
                         v1::GameRecord* record) {
  ByteReader in(extra);
  uint8_t version = 0, first = 0, digest_kind = 0;
  std::string reference, digest, start, comment;
  if (!in.Byte(&version) || version != kExtraVersion) return Corrupt("unknown extra version");
  if (!in.String(&reference) || !in.Byte(&digest_kind) || digest_kind > 2) return Corrupt("extra cut short");
  if (digest_kind == 1) digest = rules.digest;
  if (digest_kind == 2 && !in.String(&digest)) return Corrupt("extra cut short");
  if (!in.Byte(&first) || first > 3 || !in.String(&start) || !in.String(&comment)) {
    return Corrupt("extra cut short");
  }
  record->set_ruleset(reference);
  record->set_ruleset_digest(digest);
  if (first != 0) record->set_first_player(static_cast<v1::Player>(first - 1));
  record->set_start_position(start);
  record->set_comment(comment);
  uint8_t flags = 0;
  if (!in.Byte(&flags) || flags > 15) return Corrupt("extra cut short");
  const std::string* column[4] = {&columns.light, &columns.dark, &columns.event, &columns.date};
  for (int i = 0; i < 4; ++i) {
    if (flags & (1 << i)) (*record->mutable_tags())[kColumnTags[i]] = *column[i];
  }
  uint64_t n = 0;
  if (!in.Varint(&n)) return Corrupt("extra cut short");
  for (uint64_t i = 0; i < n; ++i) {
    std::string k, v;
    if (!in.String(&k) || !in.String(&v)) return Corrupt("tags cut short");
    (*record->mutable_tags())[k] = v;
  }
  if (!in.Varint(&n)) return Corrupt("extra cut short");
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t index = 0;
    std::string text;
    if (!in.Varint(&index) || !in.String(&text)) return Corrupt("comments cut short");
    if (index >= static_cast<uint64_t>(record->actions_size())) return Corrupt("a comment past the last action");
    record->mutable_actions(static_cast<int>(index))->set_comment(text);
  }
  if (!in.done()) return Corrupt("bytes after the extra");
  return absl::OkStatus();
}

}  // namespace

uint64_t Fnv1a64(absl::string_view bytes, uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

uint64_t IdentityHash(absl::string_view digest, absl::string_view identity) {
  uint64_t h = Fnv1a64(digest);
  h = Fnv1a64(absl::string_view("\0", 1), h);
  return Fnv1a64(identity, h);
}

absl::StatusOr<EncodedGame> EncodeGame(const JudgedRecord& judged, std::vector<PlayedAction>* actions) {
  const RefereeResult& verdict = judged.verdict;
  const v1::GameRecord& record = judged.record;
  if (!verdict.valid() || verdict.rules == nullptr || !verdict.start.has_value()) {
    return absl::InvalidArgumentError("only a legal record is stored");
  }
  if (verdict.positions.size() != static_cast<size_t>(record.actions_size()) + 1) {
    return absl::InvalidArgumentError("the verdict kept no positions (RefereeOptions::keep_positions)");
  }
  const Rules& rules = *verdict.rules;
  EncodedGame out;
  std::string& id = out.identity;
  id.push_back(static_cast<char>(kIdentityVersion));
  PutStart(&id, rules, *verdict.start);
  PutVarint(&id, record.opening_size());
  for (const v1::OpeningThrow& round : record.opening()) {
    PutVarint(&id, static_cast<uint64_t>(round.light()));
    PutVarint(&id, static_cast<uint64_t>(round.dark()));
  }
  PutVarint(&id, record.actions_size());
  for (int i = 0; i < record.actions_size(); ++i) {
    const v1::Action& action = record.actions(i);
    const int roll = action.roll();
    if (roll < 0 || roll > kMaxRoll) return absl::InvalidArgumentError(absl::StrCat("action ", i + 1, ": no throw"));
    PlayedAction played;
    played.roll = roll;
    if (!verdict.outcomes[i].moved) {
      out.identity.push_back(static_cast<char>(roll << 4));
      if (actions != nullptr) actions->push_back(played);
      continue;
    }
    const int choice = ChoiceOf(rules, verdict.positions[i], verdict.positions[i + 1], roll, action, &played.move);
    if (choice < 0) return absl::InvalidArgumentError(absl::StrCat("action ", i + 1, ": the move is not legal"));
    PutAction(&id, roll, choice);
    played.moved = true;
    if (actions != nullptr) actions->push_back(played);
  }
  out.columns = ColumnsOf(record);
  out.extra = EncodeExtra(rules, record, out.columns);
  return out;
}

absl::StatusOr<ReplayedGame> ReplayIdentity(const Rules& rules, absl::string_view identity) {
  ByteReader in(identity);
  uint8_t version = 0, kind = 0;
  uint64_t rounds = 0, actions = 0;
  if (!in.Byte(&version) || version != kIdentityVersion) return Corrupt("unknown identity version");
  if (!in.Byte(&kind) || kind > kStartGiven) return Corrupt("identity cut short");
  absl::StatusOr<Position> pos = StartPosition(rules, kind == kStartDark ? kDark : kLight);
  if (kind == kStartGiven) {
    std::string start;
    if (!in.String(&start)) return Corrupt("identity cut short");
    pos = ParsePositionString(rules, start);
    if (!pos.ok()) return Corrupt(absl::StrCat("its start: ", pos.status().message()));
  }
  ReplayedGame game;
  if (!in.Varint(&rounds) || rounds > identity.size()) return Corrupt("identity cut short");
  for (uint64_t r = 0; r < rounds; ++r) {
    uint64_t light = 0, dark = 0;
    if (!in.Varint(&light) || !in.Varint(&dark) || light > kMaxRoll || dark > kMaxRoll) {
      return Corrupt("throw-off cut short");
    }
    game.opening.emplace_back(static_cast<int>(light), static_cast<int>(dark));
  }
  if (!game.opening.empty()) {
    // The throw-off decides who starts: the referee's rules, and the start
    // must be the rules' own with that side to move.
    v1::GameRecord opening;
    for (const auto& [light, dark] : game.opening) {
      v1::OpeningThrow* round = opening.add_opening();
      round->set_light(light);
      round->set_dark(dark);
    }
    Side first = kLight;
    if (auto finding = DecideFirstPlayer(rules, opening, &first)) return Corrupt(finding->message());
    if (kind == kStartGiven || first != pos->to_move) return Corrupt("its throw-off and its start disagree");
  }
  if (!in.Varint(&actions) || actions > identity.size()) return Corrupt("identity cut short");
  game.positions.reserve(actions + 1);
  game.actions.reserve(actions);
  game.positions.push_back(*pos);
  Position p = *pos;
  MoveList legal;
  for (uint64_t i = 0; i < actions; ++i) {
    uint8_t b = 0;
    if (!in.Byte(&b)) return Corrupt("actions cut short");
    PlayedAction a;
    a.roll = b >> 4;
    uint64_t choice = b & 0x0f;
    if (IsOver(rules, p)) return Corrupt("an action after the end of the game");
    if (!rules.CanRoll(a.roll)) return Corrupt("a throw these dice cannot give");
    LegalMoves(rules, p, a.roll, &legal);
    if (choice == 0) {
      if (!legal.empty()) return Corrupt("a throw passed with a move to make");
      PassTurn(&p);
    } else {
      if (choice == kChoiceFollows) {
        if (!in.Varint(&choice)) return Corrupt("actions cut short");
      } else {
        --choice;
      }
      if (choice >= static_cast<uint64_t>(legal.size())) return Corrupt("a move the throw does not allow");
      a.moved = true;
      a.move = legal[static_cast<int>(choice)];
      ApplyMove(rules, &p, a.move);
    }
    game.actions.push_back(a);
    game.positions.push_back(p);
  }
  if (!in.done()) return Corrupt("bytes after the last action");
  game.winner = Winner(rules, p);
  return game;
}

absl::StatusOr<v1::GameRecord> DecodeGame(const Rules& rules, absl::string_view identity, absl::string_view extra,
                                          const TagColumns& columns) {
  absl::StatusOr<ReplayedGame> game = ReplayIdentity(rules, identity);
  if (!game.ok()) return game.status();
  v1::GameRecord record;
  for (const auto& [light, dark] : game->opening) {
    v1::OpeningThrow* round = record.add_opening();
    round->set_light(light);
    round->set_dark(dark);
  }
  for (const PlayedAction& a : game->actions) {
    v1::Action* action = record.add_actions();
    action->set_roll(a.roll);
    if (a.moved) {
      action->set_from(a.move.from);
      action->set_to(a.move.to);
    }
  }
  absl::Status extra_ok = DecodeExtra(rules, extra, columns, &record);
  if (!extra_ok.ok()) return extra_ok;
  // The start the record says (its start position or first player, as
  // written) is the one the course was played from.
  Position start;
  if (StartOfRecord(rules, record, &start).has_value() || start != game->positions[0]) {
    return Corrupt("its record and its course start from different positions");
  }
  return record;
}

TagColumns ColumnsOf(const v1::GameRecord& record) {
  auto tag = [&record](const char* name) {
    auto it = record.tags().find(name);
    return it == record.tags().end() ? std::string() : it->second;
  };
  return TagColumns{tag("Light"), tag("Dark"), tag("Event"), IsoDate(tag("Date"))};
}

std::string IsoDate(absl::string_view date) {
  std::string out(date);
  if (out.size() == 10 && out[4] == '.' && out[7] == '.') {
    out[4] = '-';
    out[7] = '-';
  }
  return out;
}

}  // namespace scribe::games
