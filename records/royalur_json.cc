#include "records/royalur_json.h"

#include <nlohmann/json.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "engine/board.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"
#include "records/finding_codes.h"
#include "records/json_depth.h"
#include "records/json_keys.h"
#include "records/position_string.h"
#include "records/record_rules.h"
#include "records/royalur.h"
#include "records/utf8.h"
#include "records/written_turns.h"

namespace scribe {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

constexpr int kVersion = 2;

// Where each value of a JSON text starts, as a tree parallel to the parsed
// value (the parser does not say). Run on text the parser accepted.
struct Node {
  size_t offset = 0;
  // An object's members as two parallel lists (a vector of pairs holding
  // the still incomplete Node does not compile with clang 14).
  std::vector<std::string> member_keys;  // raw keys
  std::vector<Node> member_values;
  std::vector<Node> elements;  // an array's

  const Node* Member(absl::string_view key) const {
    const Node* found = nullptr;  // the last one, as the parser keeps
    for (size_t i = 0; i < member_keys.size(); ++i) {
      if (member_keys[i] == key) found = &member_values[i];
    }
    return found;
  }
  const Node* Element(size_t i) const { return i < elements.size() ? &elements[i] : nullptr; }
};

class Locator {
 public:
  explicit Locator(absl::string_view text) : text_(text) {}
  Node Locate() {
    SkipSpace();
    return Value(0);
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  // The raw text of a string (escapes left as written).
  std::string String() {
    const size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') pos_ += text_[pos_] == '\\' ? 2 : 1;
    const std::string raw(text_.substr(start, std::min(pos_, text_.size()) - start));
    ++pos_;
    return raw;
  }
  Node Value(int depth) {
    Node node;
    node.offset = pos_;
    if (pos_ >= text_.size() || depth > kMaxJsonDepth) return node;
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      while (true) {
        SkipSpace();
        if (pos_ >= text_.size() || text_[pos_] == '}') break;
        if (text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (text_[pos_] != '"') break;  // not JSON: the parser said so already
        std::string key = String();
        SkipSpace();
        if (pos_ < text_.size() && text_[pos_] == ':') ++pos_;
        SkipSpace();
        node.member_keys.push_back(std::move(key));
        node.member_values.push_back(Value(depth + 1));
      }
      ++pos_;
    } else if (c == '[') {
      ++pos_;
      while (true) {
        SkipSpace();
        if (pos_ >= text_.size() || text_[pos_] == ']') break;
        if (text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        const size_t before = pos_;
        node.elements.push_back(Value(depth + 1));
        if (pos_ == before) break;
      }
      ++pos_;
    } else if (c == '"') {
      String();
    } else {
      while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' && text_[pos_] != ']' &&
             text_[pos_] != ' ' && text_[pos_] != '\n' && text_[pos_] != '\t' && text_[pos_] != '\r') {
        ++pos_;
      }
    }
    return node;
  }

  absl::string_view text_;
  size_t pos_ = 0;
};

std::string TypeName(const Json& j) { return j.type_name(); }

char SideLetter(Side s) { return s == kLight ? 'L' : 'D'; }
std::optional<Side> SideFromLetter(const Json& j) {
  if (!j.is_string()) return std::nullopt;
  const std::string& s = j.get_ref<const std::string&>();
  if (s == "L") return kLight;
  if (s == "D") return kDark;
  return std::nullopt;
}

// "light resigned", "abandoned (timeout)", "dark abandoned": the tag
// Termination a RoyalUr control state becomes.
struct ControlState {
  std::string type;  // "resigned" | "abandoned"
  std::optional<Side> player;
  std::string reason;  // abandoned only
};

std::string TerminationText(const ControlState& c) {
  std::string out;
  if (c.player) absl::StrAppend(&out, SideName(*c.player), " ");
  absl::StrAppend(&out, c.type);
  if (!c.reason.empty()) absl::StrAppend(&out, " (", c.reason, ")");
  return out;
}

std::optional<ControlState> ParseTermination(absl::string_view text) {
  ControlState c;
  if (absl::ConsumePrefix(&text, "light ")) c.player = kLight;
  else if (absl::ConsumePrefix(&text, "dark ")) c.player = kDark;
  if (absl::ConsumePrefix(&text, "resigned")) {
    c.type = "resigned";
    if (!text.empty() || !c.player) return std::nullopt;
    return c;
  }
  if (!absl::ConsumePrefix(&text, "abandoned")) return std::nullopt;
  c.type = "abandoned";
  if (text.empty()) return std::nullopt;  // RoyalUr requires a reason
  if (!absl::ConsumePrefix(&text, " (") || !absl::ConsumeSuffix(&text, ")") || text.empty()) return std::nullopt;
  c.reason = std::string(text);
  return c;
}

constexpr absl::string_view kTermination = "Termination";

class GameReader {
 public:
  GameReader(absl::string_view text, const Json& game, const Node& node, const LineIndex& lines, int record_index,
             ParsedRecords* out)
      : text_(text), game_(game), node_(node), lines_(lines), record_index_(record_index), out_(out) {}

  // Adds the record, or a finding.
  void Read() {
    if (ReadGame()) {
      out_->records.push_back(std::move(record_));
      out_->record_indices.push_back(record_index_);
      out_->sources.push_back(std::move(source_));
    }
  }

 private:
  size_t At(const Node* n) const { return n != nullptr ? n->offset : node_.offset; }
  // An integer the reader can take: nlohmann keeps one past int64 as
  // unsigned, which get<int64_t> would wrap (2^64 - 1 read as -1).
  static bool IsInt(const Json& v) {
    return v.is_number_integer() && !(v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT64_MAX});
  }
  // What stands where an integer was wanted: a number as written, else its type.
  std::string Found(const Json& v, const Node* at) const {
    if (!v.is_number() || at == nullptr) return TypeName(v);
    size_t end = at->offset;
    while (end < text_.size() &&
           (absl::ascii_isdigit(static_cast<unsigned char>(text_[end])) || std::strchr("+-.eE", text_[end]) != nullptr)) {
      ++end;
    }
    return absl::StrCat(TypeName(v), " ", text_.substr(at->offset, end - at->offset));
  }
  bool Fail(absl::string_view code, std::string message, const Node* where) {
    out_->findings.push_back(MakeFinding(code, std::move(message), lines_, At(where), record_index_));
    return false;
  }
  bool Fail(std::string message, const Node* where) { return Fail(codes::kRoyalUrJson, std::move(message), where); }

  // An object's member of the wanted kind; nullptr after a finding.
  const Json* Get(const Json& object, const Node* node, absl::string_view key, absl::string_view path,
                  Json::value_t want, bool required = true) {
    auto it = object.find(std::string(key));
    const Node* at = node != nullptr ? node->Member(key) : nullptr;
    const std::string where = path.empty() ? std::string(key) : absl::StrCat(path, ".", key);
    if (it == object.end()) {
      if (required) Fail(absl::StrCat("\"", where, "\" is missing"), node);
      return nullptr;
    }
    const bool ok = want == Json::value_t::number_integer
                        ? IsInt(*it)
                        : (want == Json::value_t::boolean ? it->is_boolean()
                                                          : (want == Json::value_t::string
                                                                 ? it->is_string()
                                                                 : (want == Json::value_t::object ? it->is_object()
                                                                                                  : it->is_array())));
    if (!ok) {
      const char* wanted = want == Json::value_t::number_integer ? "an integer"
                           : want == Json::value_t::boolean      ? "true or false"
                           : want == Json::value_t::string       ? "a string"
                           : want == Json::value_t::object       ? "an object"
                                                                 : "an array";
      Fail(absl::StrCat("\"", where, "\" must be ", wanted, ", found ", Found(*it, at)), at);
      return nullptr;
    }
    return &*it;
  }
  const Node* NodeOf(const Node* node, absl::string_view key) const {
    return node != nullptr ? node->Member(key) : nullptr;
  }

  bool ReadSettings() {
    const Node* sn = NodeOf(&node_, "settings");
    const Json* settings = Get(game_, &node_, "settings", "", Json::value_t::object);
    if (settings == nullptr) return false;
    RoyalUrSettings s;
    const Json* v;
    if (!(v = Get(*settings, sn, "board_shape", "settings", Json::value_t::string))) return false;
    s.board_shape = v->get<std::string>();
    if (!(v = Get(*settings, sn, "paths", "settings", Json::value_t::string))) return false;
    s.paths = v->get<std::string>();
    if (!(v = Get(*settings, sn, "dice", "settings", Json::value_t::string))) return false;
    s.dice = v->get<std::string>();
    if (!(v = Get(*settings, sn, "start_pieces", "settings", Json::value_t::number_integer))) return false;
    const int64_t pieces = v->get<int64_t>();
    s.start_pieces = pieces < 0 || pieces > 1000 ? -1 : static_cast<int>(pieces);
    if (!(v = Get(*settings, sn, "safe_rosettes", "settings", Json::value_t::boolean))) return false;
    s.safe_rosettes = v->get<bool>();
    if (!(v = Get(*settings, sn, "rosettes_grant_rolls", "settings", Json::value_t::boolean))) return false;
    s.rosettes_grant_rolls = v->get<bool>();
    if (!(v = Get(*settings, sn, "captures_grant_rolls", "settings", Json::value_t::boolean))) return false;
    s.captures_grant_rolls = v->get<bool>();
    auto reference = RulesetReferenceForRoyalUrSettings(s);
    if (!reference.ok()) {
      return Fail(codes::kRulesetUnsupported,
                  absl::StrCat("Scribe cannot play these settings: ", reference.status().message()), sn);
    }
    // The settings name the record's ruleset; RulesFor resolves it as it
    // does every record's.
    record_.set_ruleset(*reference);
    RecordRules decided = RulesFor(record_, {});
    if (decided.rules == nullptr) {
      return Fail(codes::kRulesetUnsupported, std::string(decided.load_error.message()), sn);
    }
    rules_ = std::move(decided.rules);
    return true;
  }

  bool ReadMetadata() {
    auto it = game_.find("metadata");
    if (it == game_.end()) return true;  // RoyalUr leaves it out when empty
    const Node* mn = NodeOf(&node_, "metadata");
    if (!it->is_object()) return Fail(absl::StrCat("\"metadata\" must be an object, found ", TypeName(*it)), mn);
    for (const auto& item : it->items()) {
      if (!item.value().is_string()) {
        return Fail(absl::StrCat("metadata \"", absl::CHexEscape(item.key()), "\" must be a string, found ",
                                 TypeName(item.value())),
                    NodeOf(mn, item.key()));
      }
      (*record_.mutable_tags())[item.key()] = item.value().get<std::string>();
    }
    return true;
  }

  bool ReadPlayers(const Json& players, const Node* pn, Side side, int* pieces, int* score) {
    const std::string key(1, SideLetter(side));
    const Json* p = Get(players, pn, key, "initial_state.players", Json::value_t::object);
    if (p == nullptr) return false;
    const Node* n = NodeOf(pn, key);
    const std::string path = absl::StrCat("initial_state.players.", key);
    const Json* v;
    if (!(v = Get(*p, n, "pieces", path, Json::value_t::number_integer))) return false;
    const int64_t a = v->get<int64_t>();
    if (!(v = Get(*p, n, "score", path, Json::value_t::number_integer))) return false;
    const int64_t b = v->get<int64_t>();
    if (a < 0 || b < 0 || a + b > rules_->pieces) {
      return Fail(absl::StrCat(path, ": ", a, " pieces waiting and ", b, " borne off do not fit ",
                               rules_->pieces, " pieces a side"),
                  n);
    }
    *pieces = static_cast<int>(a);
    *score = static_cast<int>(b);
    return true;
  }

  bool ReadInitialState() {
    const Node* in = NodeOf(&node_, "initial_state");
    const Json* initial = Get(game_, &node_, "initial_state", "", Json::value_t::object);
    if (initial == nullptr) return false;
    const Json* type = Get(*initial, in, "type", "initial_state", Json::value_t::string);
    if (type == nullptr) return false;
    if (*type != "wait4roll") {
      return Fail(codes::kRoyalUrUnsupported,
                  absl::StrCat("the initial state is \"", absl::CHexEscape(type->get<std::string>()),
                               "\"; Scribe reads games that start waiting for a throw (\"wait4roll\")"),
                  NodeOf(in, "type"));
    }
    const Json* turn = Get(*initial, in, "turn", "initial_state", Json::value_t::string);
    if (turn == nullptr) return false;
    const std::optional<Side> first = SideFromLetter(*turn);
    if (!first) return Fail("\"initial_state.turn\" must be \"L\" or \"D\"", NodeOf(in, "turn"));
    int64_t time = 0;
    if (initial->contains("time")) {
      const Json* t = Get(*initial, in, "time", "initial_state", Json::value_t::number_integer);
      if (t == nullptr) return false;
      time = t->get<int64_t>();
    }
    const Json* board = Get(*initial, in, "board", "initial_state", Json::value_t::object);
    if (board == nullptr) return false;
    const Node* bn = NodeOf(in, "board");
    const Json* pieces = Get(*board, bn, "pieces", "initial_state.board", Json::value_t::object);
    if (pieces == nullptr) return false;
    const Json* players = Get(*initial, in, "players", "initial_state", Json::value_t::object);
    if (players == nullptr) return false;
    const Node* pn = NodeOf(in, "players");
    Position pos;
    pos.to_move = *first;
    int waiting[2], score[2];
    if (!ReadPlayers(*players, pn, kLight, &waiting[kLight], &score[kLight]) ||
        !ReadPlayers(*players, pn, kDark, &waiting[kDark], &score[kDark])) {
      return false;
    }
    const Rules& r = *rules_;
    for (Side s : {kLight, kDark}) {
      pos.count[s][0] = static_cast<uint8_t>(waiting[s]);
      pos.count[s][r.off] = static_cast<uint8_t>(score[s]);
    }
    const Node* pieces_node = NodeOf(bn, "pieces");
    for (const auto& item : pieces->items()) {
      const Node* at = NodeOf(pieces_node, item.key());
      const auto tile = ParseTileName(item.key());
      if (!tile || !OnBoard(r.ruleset.board(), *tile) || item.key() != TileName(*tile)) {
        return Fail(absl::StrCat("initial_state.board.pieces: \"", absl::CHexEscape(item.key()),
                                 "\" is not a tile of the board"),
                    at);
      }
      if (!IsInt(item.value())) {
        return Fail(absl::StrCat("initial_state.board.pieces.", item.key(), " must be a piece (+/-path index), found ",
                                 Found(item.value(), at)),
                    at);
      }
      const int64_t v = item.value().get<int64_t>();
      const Side s = v > 0 ? kLight : kDark;
      const int64_t index = v > 0 ? v : -v;
      if (index < 1 || index > r.path_length || r.tile[s][index] != *tile) {
        return Fail(absl::StrCat("initial_state.board.pieces.", item.key(), ": ", v, " is not a piece of ",
                                 SideName(s), "'s on ", item.key()),
                    at);
      }
      ++pos.count[s][index];
      pos.occ[s] |= 1u << index;
    }
    for (Side s : {kLight, kDark}) {
      int total = 0;
      for (int i = 0; i <= r.off; ++i) total += pos.count[s][i];
      if (total != r.pieces) {
        return Fail(absl::StrCat("initial_state: ", SideName(s), " has ", total, " pieces (waiting, on the board and "
                                 "borne off), not the ", r.pieces, " of start_pieces"),
                    in);
      }
    }
    if (const std::string problem = CheckPosition(r, pos); !problem.empty()) {
      return Fail(absl::StrCat("initial_state: ", problem), in);
    }
    if (pos == StartPosition(r, *first)) {
      if (*first == kDark) record_.set_first_player(v1::DARK);
    } else {
      record_.set_start_position(PositionToString(r, pos));
    }
    if (time != 0) {
      RoyalUrNotes notes;
      notes.time = time;
      record_.set_comment(FormatRoyalUrNotes(notes));
    }
    return true;
  }

  // A piece of `side`'s: +/-(path index) on the board. -1 after a finding.
  int Piece(const Json& move, const Node* mn, absl::string_view key, Side side, size_t state_index) {
    const Json& v = move[std::string(key)];
    const Node* at = NodeOf(mn, key);
    const std::string where = absl::StrCat("states[", state_index, "].move.", key);
    if (!IsInt(v)) {
      Fail(absl::StrCat(where, " must be a piece (+/-path index), found ", Found(v, at)), at);
      return -1;
    }
    const int64_t value = v.get<int64_t>();
    const Side owner = value > 0 ? kLight : kDark;
    const int64_t index = value > 0 ? value : -value;
    if (index < 1 || index > rules_->path_length) {
      Fail(absl::StrCat(where, " is ", value, ": a piece on the board is 1 to ", rules_->path_length,
                        " (light) or -1 to -", rules_->path_length, " (dark)"),
           at);
      return -1;
    }
    if (owner != side) {
      Fail(absl::StrCat(where, " is ", value, ", a piece of ", SideName(owner), "'s, but the state's turn is ",
                        SideName(side), "'s"),
           at);
      return -1;
    }
    return static_cast<int>(index);
  }

  bool ReadStates() {
    const Node* sn = NodeOf(&node_, "states");
    const Json* states = Get(game_, &node_, "states", "", Json::value_t::array);
    if (states == nullptr) return false;
    const Rules& r = *rules_;
    std::optional<Side> last_side;
    std::optional<int64_t> last_time;
    bool ended = false;
    for (size_t k = 0; k < states->size(); ++k) {
      const Json& state = (*states)[k];
      const Node* node = sn != nullptr ? sn->Element(k) : nullptr;
      const std::string where = absl::StrCat("states[", k, "]");
      if (!state.is_object()) return Fail(absl::StrCat(where, " must be an object, found ", TypeName(state)), node);
      const Json* type = Get(state, node, "type", where, Json::value_t::string);
      if (type == nullptr) return false;
      const std::string& t = type->get_ref<const std::string&>();
      int64_t time = 0;
      if (state.contains("time")) {
        const Json* tj = Get(state, node, "time", where, Json::value_t::number_integer);
        if (tj == nullptr) return false;
        time = tj->get<int64_t>();
      }
      RoyalUrNotes notes;
      notes.time = time;
      if (state.contains("metadata")) {
        const Json* mj = Get(state, node, "metadata", where, Json::value_t::object);
        if (mj == nullptr) return false;
        for (const auto& item : mj->items()) {
          if (!item.value().is_string()) {
            return Fail(absl::StrCat(where, ".metadata \"", absl::CHexEscape(item.key()), "\" must be a string"),
                        NodeOf(NodeOf(node, "metadata"), item.key()));
          }
          notes.metadata.emplace_back(item.key(), item.value().get<std::string>());
        }
      }
      if (ended) {
        return Fail(absl::StrCat(where, " (\"", absl::CHexEscape(t), "\") comes after the state that ended the game"),
                    node);
      }
      if (t == "wait4roll") continue;
      if (t == "win" || t == "resigned" || t == "abandoned") {
        ended = true;
        std::optional<Side> player;
        const char* key = t == "win" ? "winner" : "player";
        if (state.contains(key)) {
          player = SideFromLetter(state[key]);
          if (!player) return Fail(absl::StrCat(where, ".", key, " must be \"L\" or \"D\""), NodeOf(node, key));
        }
        if (t == "win") {
          if (record_.actions_size() == 0) return Fail(absl::StrCat(where, ": a win before any move"), node);
          if (player && *player != *last_side) {
            return Fail(codes::kMarkerEnd,
                        absl::StrCat(where, " names ", SideName(*player), " the winner, but ", SideName(*last_side),
                                     " made the last move"),
                        node);
          }
          source_.actions.back().markers |= kMarkEnd;
        } else {
          ControlState c;
          c.type = t;
          c.player = player;
          if (t == "resigned" && !player) return Fail(absl::StrCat(where, ": a resignation names its \"player\""), node);
          if (t == "abandoned") {
            const Json* reason = Get(state, node, "reason", where, Json::value_t::string);
            if (reason == nullptr) return false;
            c.reason = reason->get<std::string>();
            if (c.reason.empty() || absl::StrContains(c.reason, ")")) {
              return Fail(codes::kRoyalUrUnsupported,
                          absl::StrCat(where, ".reason \"", absl::CHexEscape(c.reason),
                                       "\" is not one Scribe can keep (a word, without ')')"),
                          NodeOf(node, "reason"));
            }
          }
          if (record_.tags().count(std::string(kTermination)) > 0) {
            return Fail(codes::kRoyalUrUnsupported,
                        absl::StrCat(where, " (\"", t, "\") would be kept as the tag Termination, but the metadata "
                                     "has one already"),
                        node);
          }
          (*record_.mutable_tags())[std::string(kTermination)] = TerminationText(c);
        }
        if (record_.actions_size() > 0) {
          // The end state's time, when it is not the last action's.
          v1::Action* last = record_.mutable_actions(record_.actions_size() - 1);
          if (time != last_time.value_or(0)) {
            RoyalUrNotes last_notes = ParseRoyalUrNotes(last->comment());
            last_notes.end_time = time;
            last->set_comment(FormatRoyalUrNotes(last_notes));
          }
        } else if (time != 0) {
          return Fail(codes::kRoyalUrUnsupported, absl::StrCat(where, ": the time of an end state before any move"), node);
        }
        continue;
      }
      if (t == "wait4move") {
        return Fail(codes::kRoyalUrUnsupported,
                    absl::StrCat(where, " is a throw waiting for its move, which a Scribe record cannot hold"), node);
      }
      if (t != "move" && t != "roll") {
        return Fail(absl::StrCat(where, ".type \"", absl::CHexEscape(t),
                                 "\" is not a state type (move, roll, win, resigned, abandoned, wait4roll)"),
                    NodeOf(node, "type"));
      }
      const Json* turn = Get(state, node, "turn", where, Json::value_t::string);
      if (turn == nullptr) return false;
      const std::optional<Side> side = SideFromLetter(*turn);
      if (!side) return Fail(absl::StrCat(where, ".turn must be \"L\" or \"D\""), NodeOf(node, "turn"));
      const Json* roll = Get(state, node, "roll", where, Json::value_t::object);
      if (roll == nullptr) return false;
      const Json* value = Get(*roll, NodeOf(node, "roll"), "value", absl::StrCat(where, ".roll"),
                              Json::value_t::number_integer);
      if (value == nullptr) return false;
      const int64_t roll_value = value->get<int64_t>();
      if (roll_value < 0 || roll_value > kMaxRoll) {
        return Fail(absl::StrCat(where, ".roll.value ", roll_value, " is not a throw (0 to ", kMaxRoll, ")"),
                    NodeOf(NodeOf(node, "roll"), "value"));
      }
      ActionSource as;
      as.offset = static_cast<uint32_t>(At(node));
      as.side = static_cast<uint8_t>(*side);
      as.first_in_turn = last_side != side;
      as.turn = record_.actions_size() + 1;
      v1::Action action;
      action.set_roll(static_cast<int>(roll_value));
      if (t == "move") {
        const Json* move = Get(state, node, "move", where, Json::value_t::object);
        if (move == nullptr) return false;
        const Node* mn = NodeOf(node, "move");
        const bool has_src = move->contains("src") && !(*move)["src"].is_null();
        const bool has_dest = move->contains("dest") && !(*move)["dest"].is_null();
        if (!has_src && !has_dest) {
          return Fail(absl::StrCat(where, ".move has neither \"src\" nor \"dest\" (a piece entering has a dest, "
                                   "one bearing off a src)"),
                      mn);
        }
        const int from = has_src ? Piece(*move, mn, "src", *side, k) : 0;
        if (from < 0) return false;
        const int to = has_dest ? Piece(*move, mn, "dest", *side, k) : r.off;
        if (to < 0) return false;
        if (move->contains("captured") && !(*move)["captured"].is_null()) {
          const Json& cj = (*move)["captured"];
          const Node* cn = NodeOf(mn, "captured");
          if (!IsInt(cj)) {
            return Fail(absl::StrCat(where, ".move.captured must be a piece (+/-path index), found ", Found(cj, cn)),
                        cn);
          }
          const int64_t c = cj.get<int64_t>();
          const Side owner = c > 0 ? kLight : kDark;
          const int64_t index = c > 0 ? c : -c;
          if (owner == *side || index < 1 || index > r.path_length || to == r.off ||
              r.square[owner][index] != r.square[*side][to]) {
            std::string there = "the move bears off";
            if (to != r.off) {
              there = absl::StrCat("the move's destination is ", r.TileNameAt(*side, to));
              for (int j = 1; j <= r.path_length; ++j) {
                if (r.square[Other(*side)][j] == r.square[*side][to]) {
                  absl::StrAppend(&there, ", where ", SideName(Other(*side)), "'s piece would be ",
                                  *side == kLight ? -j : j);
                }
              }
            }
            return Fail(codes::kMarkerCapture, absl::StrCat(where, ".move.captured is ", c, ", but ", there), cn);
          }
          as.markers |= kMarkCapture;
        }
        action.set_from(from);
        action.set_to(to);
      }
      action.set_comment(FormatRoyalUrNotes(notes));
      *record_.add_actions() = std::move(action);
      source_.actions.push_back(as);
      last_side = side;
      last_time = time;
    }
    return true;
  }

  bool ReadGame() {
    source_.offset = static_cast<uint32_t>(node_.offset);
    if (!game_.is_object()) {
      return Fail(absl::StrCat("expected a RoyalUr game (a JSON object), found ", TypeName(game_)), &node_);
    }
    const Json* version = Get(game_, &node_, "notation_version", "", Json::value_t::number_integer);
    if (version == nullptr) return false;
    if (*version != 1 && *version != 2) {
      return Fail(absl::StrCat("notation_version ", version->dump(), " is not one Scribe reads (1 or 2)"),
                  NodeOf(&node_, "notation_version"));
    }
    if (!ReadSettings()) return false;
    if (const Node* sn = NodeOf(&node_, "settings")) source_.offset = static_cast<uint32_t>(sn->offset);
    return ReadMetadata() && ReadInitialState() && ReadStates();
  }

  absl::string_view text_;
  const Json& game_;
  const Node& node_;
  const LineIndex& lines_;
  const int record_index_;
  ParsedRecords* out_;
  std::shared_ptr<const Rules> rules_;
  v1::GameRecord record_;
  RecordSource source_;
};

// --- writing ------------------------------------------------------------------

absl::Status GameToJson(const JudgedRecord& judged, OrderedJson* out) {
  SCRIBE_RETURN_IF_ERROR(RequireLegal(judged, "RoyalUr JSON"));
  SCRIBE_RETURN_IF_ERROR(RequireUtf8(judged.record, "RoyalUr JSON"));
  const v1::GameRecord& record = judged.record;
  const RefereeResult& result = judged.verdict;
  const Rules& r = *result.rules;
  SCRIBE_ASSIGN_OR_RETURN(const RoyalUrSettings settings, RoyalUrSettingsForRules(r));
  if (record.opening_size() > 0) {
    return absl::InvalidArgumentError(
        "RoyalUr JSON has no way to say an opening throw-off (write TSN or JSON to keep it)");
  }
  const RoyalUrNotes record_notes = ParseRoyalUrNotes(record.comment());
  if (!record_notes.other.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("RoyalUr JSON has no comments: the record has the comment \"",
                                                   absl::CHexEscape(record_notes.other), "\""));
  }
  std::vector<RoyalUrNotes> notes;
  for (int i = 0; i < record.actions_size(); ++i) {
    notes.push_back(ParseRoyalUrNotes(record.actions(i).comment()));
    if (!notes.back().other.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("RoyalUr JSON has no comments: action ", i,
                                                     " has the comment \"", absl::CHexEscape(notes.back().other),
                                                     "\""));
    }
  }
  // A Termination tag that says a resignation or an abandoned game is that
  // state; the game must not have been won.
  std::optional<ControlState> control;
  if (auto it = record.tags().find(std::string(kTermination)); it != record.tags().end() && !result.winner) {
    control = ParseTermination(it->second);
  }

  OrderedJson& g = *out;
  g["notation_version"] = kVersion;
  OrderedJson metadata = OrderedJson::object();
  for (const auto& [name, value] : RoyalUrTagOrder(record.tags())) {
    if (control && name == kTermination) continue;
    metadata[name] = value;
  }
  if (!metadata.empty()) g["metadata"] = std::move(metadata);
  g["settings"] = {{"board_shape", settings.board_shape},
                   {"paths", settings.paths},
                   {"dice", settings.dice},
                   {"start_pieces", settings.start_pieces},
                   {"safe_rosettes", settings.safe_rosettes},
                   {"rosettes_grant_rolls", settings.rosettes_grant_rolls},
                   {"captures_grant_rolls", settings.captures_grant_rolls}};
  Position pos = *result.start;  // a legal record has one
  OrderedJson board_pieces = OrderedJson::object();
  for (TileId tile : BoardTiles(r.ruleset.board())) {
    for (Side s : {kLight, kDark}) {
      for (int i = 1; i <= r.path_length; ++i) {
        if (r.tile[s][i] == tile && pos.count[s][i] > 0) board_pieces[TileName(tile)] = s == kLight ? i : -i;
      }
    }
  }
  OrderedJson initial;
  initial["board"] = {{"pieces", std::move(board_pieces)}};
  initial["players"] = {
      {"L", {{"pieces", static_cast<int>(pos.count[kLight][0])}, {"score", static_cast<int>(pos.count[kLight][r.off])}}},
      {"D", {{"pieces", static_cast<int>(pos.count[kDark][0])}, {"score", static_cast<int>(pos.count[kDark][r.off])}}},
  };
  initial["type"] = "wait4roll";
  initial["time"] = record_notes.time;
  initial["turn"] = std::string(1, SideLetter(pos.to_move));
  g["initial_state"] = std::move(initial);

  OrderedJson states = OrderedJson::array();
  auto state_head = [](absl::string_view type, int64_t time, const RoyalUrNotes* n) {
    OrderedJson s;
    s["type"] = std::string(type);
    s["time"] = time;
    if (n != nullptr && !n->metadata.empty()) {
      OrderedJson m = OrderedJson::object();
      for (const auto& [k, v] : n->metadata) m[k] = v;
      s["metadata"] = std::move(m);
    }
    return s;
  };
  for (int i = 0; i < record.actions_size(); ++i) {
    const v1::Action& a = record.actions(i);
    const Side me = pos.to_move;
    OrderedJson s = state_head(a.has_from() ? "move" : "roll", notes[i].time, &notes[i]);
    s["turn"] = std::string(1, SideLetter(me));
    s["roll"] = {{"value", a.roll()}};
    if (!a.has_from()) {
      s["moves"] = OrderedJson::array();
      PassTurn(&pos);
    } else {
      const int sign = me == kLight ? 1 : -1;
      OrderedJson move = OrderedJson::object();
      if (a.from() != 0) move["src"] = sign * a.from();
      if (a.to() != r.off) move["dest"] = sign * a.to();
      if (result.outcomes[i].captured > 0) {
        const uint32_t hit = pos.occ[Other(me)] & r.opp_overlap[me][a.to()];
        move["captured"] = -sign * std::countr_zero(hit);
      }
      s["move"] = std::move(move);
      ApplyMove(r, &pos, Move{static_cast<uint8_t>(a.from()), static_cast<uint8_t>(a.to())});
    }
    states.push_back(std::move(s));
  }
  if (result.winner || control) {
    const int n = record.actions_size();
    const int64_t end_time = n == 0 ? 0 : notes[n - 1].end_time.value_or(notes[n - 1].time);
    if (result.winner) {
      OrderedJson s = state_head("win", end_time, nullptr);
      s["winner"] = std::string(1, SideLetter(*result.winner));
      states.push_back(std::move(s));
    } else {
      OrderedJson s = state_head(control->type, end_time, nullptr);
      if (control->player) s["player"] = std::string(1, SideLetter(*control->player));
      if (control->type == "abandoned") s["reason"] = control->reason;
      states.push_back(std::move(s));
    }
  }
  g["states"] = std::move(states);
  return absl::OkStatus();
}

std::string Dump(const OrderedJson& j) { return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace); }

}  // namespace

bool LooksLikeRoyalUrJson(absl::string_view text) {
  // A key "notation_version" of the top-level object, or of an object in
  // the top-level array.
  int depth = 0;
  bool root_array = false;
  bool expect_key = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
      if (end >= text.size()) return false;
      const bool at_game = depth == (root_array ? 2 : 1);
      if (expect_key && at_game && text.substr(i + 1, end - i - 1) == "notation_version") return true;
      expect_key = false;
      i = end;
    } else if (c == '{') {
      ++depth;
      expect_key = true;
    } else if (c == '[') {
      if (depth == 0 && i == text.find_first_not_of(" \t\r\n")) root_array = true;
      ++depth;
      expect_key = false;
    } else if (c == '}' || c == ']') {
      --depth;
      expect_key = false;
    } else if (c == ',') {
      expect_key = true;
    } else if (c == ':') {
      expect_key = false;
    }
  }
  return false;
}

ParsedRecords ReadRoyalUrJson(absl::string_view text) {
  ParsedRecords out;
  const LineIndex lines(text);
  auto whole_file = [&](absl::string_view code, std::string message, size_t at) {
    out.findings.push_back(MakeFinding(code, std::move(message), lines, at, -1));
    out.entries = 1;
    return std::move(out);
  };
  if (const size_t nul = text.find('\0'); nul != absl::string_view::npos) {
    return whole_file(codes::kJsonSyntax, "not valid JSON: a NUL byte (is this a binary file?)", nul);
  }
  if (const size_t bad = FirstNonUtf8Byte(text); bad != absl::string_view::npos) {
    return whole_file(codes::kTextNotUtf8, NotUtf8Message(text, bad, "the JSON file"), bad);
  }
  size_t deep_at = 0;
  if (JsonDepth(text, &deep_at) > kMaxJsonDepth) {
    return whole_file(codes::kRoyalUrJson, absl::StrCat("not a RoyalUr game: nested more than ", kMaxJsonDepth,
                                                   " levels deep"),
                      deep_at);
  }
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    const std::string what = e.what();
    const auto at = what.find("parse error");
    size_t offset = 0;
    if (const auto* pe = dynamic_cast<const Json::parse_error*>(&e); pe != nullptr && pe->byte > 0) {
      offset = std::min(pe->byte - 1, text.size());
    }
    return whole_file(codes::kJsonSyntax,
                      absl::StrCat("not valid JSON: ", at == std::string::npos ? what : what.substr(at)), offset);
  }
  const Node root = Locator(text).Locate();
  std::vector<std::pair<const Json*, const Node*>> games;
  if (doc.is_array()) {
    for (size_t k = 0; k < doc.size(); ++k) {
      const Node* node = root.Element(k);
      games.emplace_back(&doc[k], node != nullptr ? node : &root);
    }
    if (games.empty()) {
      out.findings.push_back(MakeFinding(codes::kNoRecords, "the file holds an empty array: no games", lines, 0, -1));
    }
  } else {
    games.emplace_back(&doc, &root);
  }
  out.entries = static_cast<int>(games.size());
  // A game with a key twice is not read: the parser kept one value only.
  const std::vector<JsonDuplicateKey> duplicates = FindJsonDuplicateKeys(text);
  auto duplicate = duplicates.begin();
  for (size_t k = 0; k < games.size(); ++k) {
    if (duplicate != duplicates.end() && duplicate->entry == static_cast<int>(k)) {
      out.findings.push_back(MakeFinding(codes::kJsonDuplicateKey, DuplicateKeyMessage(duplicate->key), lines,
                                         duplicate->offset, static_cast<int>(k)));
      ++duplicate;
      continue;
    }
    try {
      GameReader(text, *games[k].first, *games[k].second, lines, static_cast<int>(k), &out).Read();
    } catch (const Json::exception& e) {
      // Not expected (every access is checked first); never let one out.
      out.findings.push_back(MakeFinding(codes::kRoyalUrJson, absl::StrCat("not a RoyalUr game: ", e.what()), lines,
                                         games[k].second->offset, static_cast<int>(k)));
    }
  }
  return out;
}

absl::StatusOr<std::string> WriteRoyalUrJson(const std::vector<v1::GameRecord>& records) {
  return WriteRoyalUrJson(JudgeRecords(records));
}

absl::StatusOr<std::string> WriteRoyalUrJson(const std::vector<JudgedRecord>& records) {
  std::vector<std::string> games;
  for (size_t k = 0; k < records.size(); ++k) {
    OrderedJson g;
    if (absl::Status s = GameToJson(records[k], &g); !s.ok()) return InRecord(s, k, records.size());
    games.push_back(Dump(g));
  }
  if (games.size() == 1) return games[0];
  return absl::StrCat("[", absl::StrJoin(games, ",\n"), "]");
}

namespace {

// RoyalUr JSON's part of the walk of written turns
// (records/written_turns.h): each state names the side whose it is, no
// turn is numbered; markers: "captured" exactly on a capture, a win state
// after the winning move.
struct RoyalUrTurns {
  static constexpr bool kTurnsWritten = false;
  const RecordSource& source;

  std::string Message(TurnBreak broken, const WrittenAction& a) const {
    const std::string says = absl::StrCat("this state's turn is \"", std::string(1, SideLetter(a.written)), "\"");
    switch (broken) {
      case TurnBreak::kWrongSide:  // only the first state: a turn starts where the side changes
        return absl::StrCat(SideName(a.mover), " moves first (the initial state's turn), but ", says);
      case TurnBreak::kMissingExtraThrow:
      case TurnBreak::kTurnSplit:  // not met: a state of the same side continues its turn
        return absl::StrCat("the previous move earned ", SideName(a.mover), " another throw, but ", says);
      case TurnBreak::kTurnPassed:
        return absl::StrCat("the previous throw ended ", SideName(a.written),
                            "'s turn (it earned no other throw), but ", says);
    }
    return "";
  }

  std::optional<std::string> TurnNumber(const WrittenAction&) const { return std::nullopt; }

  void Markers(const WrittenAction& a, const ActionOutcome& o, TurnFindings& findings) const {
    const ActionSource& as = a.source;
    const int i = a.index;
    if ((as.markers & kMarkCapture) && o.captured == 0) {
      findings.Add(codes::kMarkerCapture, "the state has \"captured\", but the move captures nothing", i);
    } else if (!(as.markers & kMarkCapture) && o.captured > 0) {
      findings.Add(codes::kMarkerCapture,
                   absl::StrCat("the move captures ", SideName(Other(a.mover)),
                                "'s piece, but the state has no \"captured\""),
                   i);
    }
    if ((as.markers & kMarkEnd) && !o.won) {
      findings.Add(codes::kMarkerEnd, "a win state follows, but the game goes on", i);
    }
    if (o.won && !(as.markers & kMarkEnd) && i == static_cast<int>(source.actions.size()) - 1) {
      findings.Add(codes::kMarkerEnd,
                   absl::StrCat("the move wins the game for ", SideName(a.mover), ", but no win state follows"), i);
    }
  }
};

}  // namespace

std::vector<v1::Finding> CheckRoyalUrJsonForm(const RecordSource& source, const RefereeResult& result,
                                              const v1::GameRecord& /*record*/, const LineIndex& lines,
                                              int record_index) {
  RoyalUrTurns turns{source};
  return CheckWrittenTurns(source, result, lines, record_index, turns).findings;
}

}  // namespace scribe
