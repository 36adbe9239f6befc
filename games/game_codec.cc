#include "games/game_codec.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/numeric/bits.h"
#include "absl/strings/str_cat.h"
#include "games/varint.h"
#include "records/position_string.h"
#include "records/referee.h"

namespace scribe::games {
namespace {

constexpr uint8_t kExtraVersion = 1;
constexpr int kChoiceFollows = 15;

// Version 2's actions: each throw a digit of radix the number of throws
// the dice can give (its place among them), each move a digit of radix
// the throw's legal moves (none when there is one, or none), packed as a
// mixed-radix number into 64-bit chunks.
class DigitWriter {
 public:
  explicit DigitWriter(std::string* out) : out_(out) {}
  void Put(uint64_t digit, uint64_t radix) {
    if (radix <= 1) return;
    if (mult_ > UINT64_MAX / radix) Write(8);
    acc_ += digit * mult_;
    mult_ *= radix;
  }
  // The last chunk without its high zero bytes.
  void Finish() {
    int bytes = 0;
    for (uint64_t v = acc_; v != 0; v >>= 8) ++bytes;
    Write(bytes);
  }

 private:
  void Write(int bytes) {
    for (int i = 0; i < bytes; ++i) out_->push_back(static_cast<char>(acc_ >> (8 * i)));
    acc_ = 0;
    mult_ = 1;
  }
  std::string* out_;
  uint64_t acc_ = 0, mult_ = 1;
};

class DigitReader {
 public:
  explicit DigitReader(absl::string_view in) : in_(in) { Load(); }
  bool Get(uint64_t radix, uint64_t* digit) {
    *digit = 0;
    if (radix <= 1) return true;
    if (mult_ > UINT64_MAX / radix) {
      if (acc_ != 0) return false;  // more than the chunk's digits hold
      Load();
    }
    *digit = acc_ % radix;
    acc_ /= radix;
    mult_ *= radix;
    return true;
  }
  // Every byte read and every digit taken.
  bool Done() const { return in_.empty() && acc_ == 0; }

 private:
  void Load() {
    const size_t bytes = std::min<size_t>(8, in_.size());
    acc_ = 0;
    for (size_t i = 0; i < bytes; ++i) acc_ |= static_cast<uint64_t>(static_cast<uint8_t>(in_[i])) << (8 * i);
    in_.remove_prefix(bytes);
    mult_ = 1;
  }
  absl::string_view in_;
  uint64_t acc_ = 0, mult_ = 1;
};

// A throw's digit: its place among the throws the dice can give.
int RollRadix(const Rules& rules) { return absl::popcount(rules.possible_rolls); }
int RollDigit(const Rules& rules, int roll) { return absl::popcount(rules.possible_rolls & ((1u << roll) - 1)); }
int RollOfDigit(const Rules& rules, uint64_t digit) {
  for (int roll = 0; roll <= kMaxRoll; ++roll) {
    if (rules.CanRoll(roll) && digit-- == 0) return roll;
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

absl::StatusOr<EncodedGame> EncodeGame(const JudgedRecord& judged, std::vector<PlayedAction>* actions,
                                       int version) {
  const RefereeResult& verdict = judged.verdict;
  const v1::GameRecord& record = judged.record;
  if (!verdict.valid() || verdict.rules == nullptr || !verdict.start.has_value()) {
    return absl::InvalidArgumentError("only a legal record is stored");
  }
  if (verdict.positions.size() != static_cast<size_t>(record.actions_size()) + 1 ||
      verdict.outcomes.size() != static_cast<size_t>(record.actions_size())) {
    return absl::InvalidArgumentError("the verdict kept no positions (RefereeOptions::keep_positions)");
  }
  if (version != kIdentityV1 && version != kIdentityV2) {
    return absl::InvalidArgumentError(absl::StrCat("no identity version ", version));
  }
  const Rules& rules = *verdict.rules;
  EncodedGame out;
  std::string& id = out.identity;
  id.push_back(static_cast<char>(version));
  PutStart(&id, rules, *verdict.start);
  PutVarint(&id, record.opening_size());
  for (const v1::OpeningThrow& round : record.opening()) {
    PutVarint(&id, static_cast<uint64_t>(round.light()));
    PutVarint(&id, static_cast<uint64_t>(round.dark()));
  }
  PutVarint(&id, record.actions_size());
  DigitWriter digits(&id);
  const int roll_radix = RollRadix(rules);
  for (int i = 0; i < record.actions_size(); ++i) {
    const v1::Action& action = record.actions(i);
    const int roll = action.roll();
    if (!rules.CanRoll(roll)) return absl::InvalidArgumentError(absl::StrCat("action ", i + 1, ": no throw"));
    PlayedAction played;
    played.roll = roll;
    // The move by its place among the throw's legal moves, as the referee
    // found it (a legal move's from and to are squares).
    int choice = -1, legal_moves = 0;
    const ActionOutcome& outcome = verdict.outcomes[i];
    if (outcome.moved) {
      choice = outcome.choice;
      legal_moves = outcome.legal_moves;
      if (choice >= legal_moves) return absl::InvalidArgumentError(absl::StrCat("action ", i + 1, ": no legal move"));
      played.move = Move{static_cast<uint8_t>(action.from()), static_cast<uint8_t>(action.to())};
      played.moved = true;
    }
    if (version == kIdentityV1) {
      if (choice < 0) {
        id.push_back(static_cast<char>(roll << 4));
      } else {
        PutAction(&id, roll, choice);
      }
    } else {
      digits.Put(RollDigit(rules, roll), roll_radix);
      if (choice >= 0) digits.Put(choice, legal_moves);
    }
    if (actions != nullptr) actions->push_back(played);
  }
  if (version == kIdentityV2) digits.Finish();
  out.columns = ColumnsOf(record);
  out.extra = EncodeExtra(rules, record, out.columns);
  return out;
}

absl::StatusOr<ReplayedGame> ReplayIdentity(const Rules& rules, absl::string_view identity, const Position* until) {
  ByteReader in(identity);
  uint8_t version = 0, kind = 0;
  uint64_t rounds = 0, actions = 0;
  if (!in.Byte(&version) || (version != kIdentityV1 && version != kIdentityV2)) {
    return Corrupt("unknown identity version");
  }
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
  // Each action takes a byte in version 1, and at least a bit in version 2
  // where the dice can give two throws or more (dice of one throw: a
  // bound all the same, so that damaged bytes cannot ask for endless passes).
  const uint64_t most_actions = version == kIdentityV1 ? identity.size()
                                : RollRadix(rules) >= 2 ? 8 * uint64_t{identity.size()}
                                                        : uint64_t{1} << 20;
  if (!in.Varint(&actions) || actions > most_actions) return Corrupt("identity cut short");
  game.positions.reserve(std::min<uint64_t>(actions, 4096) + 1);
  game.actions.reserve(std::min<uint64_t>(actions, 4096));
  game.positions.push_back(*pos);
  Position p = *pos;
  MoveList legal;
  DigitReader digits(identity.substr(in.pos()));
  const int roll_radix = RollRadix(rules);
  // The ply `until` is first reached at (-1: not yet).
  int64_t reached = until != nullptr && p == *until ? 0 : -1;
  for (uint64_t i = 0; i < actions; ++i) {
    if (reached >= 0 && static_cast<int64_t>(i) > reached) {
      game.partial = true;  // `until` and the action from it: enough
      return game;
    }
    PlayedAction a;
    uint64_t choice = 0;  // version 1: 0 a pass, else the move's place + 1
    if (version == kIdentityV1) {
      uint8_t b = 0;
      if (!in.Byte(&b)) return Corrupt("actions cut short");
      a.roll = b >> 4;
      choice = b & 0x0f;
    } else {
      uint64_t digit = 0;
      if (!digits.Get(roll_radix, &digit)) return Corrupt("actions cut short");
      a.roll = RollOfDigit(rules, digit);
    }
    if (IsOver(rules, p)) return Corrupt("an action after the end of the game");
    if (!rules.CanRoll(a.roll)) return Corrupt("a throw these dice cannot give");
    LegalMoves(rules, p, a.roll, &legal);
    if (version == kIdentityV2 && !legal.empty()) {
      if (!digits.Get(static_cast<uint64_t>(legal.size()), &choice)) return Corrupt("actions cut short");
      ++choice;
    }
    if (choice == 0) {
      if (!legal.empty()) return Corrupt("a throw passed with a move to make");
      PassTurn(&p);
    } else {
      if (version == kIdentityV1 && choice == kChoiceFollows) {
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
    if (until != nullptr && reached < 0 && p == *until) reached = static_cast<int64_t>(i) + 1;
  }
  if (version == kIdentityV1 ? !in.done() : !digits.Done()) return Corrupt("bytes after the last action");
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
