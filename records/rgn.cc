#include "records/rgn.h"

#include <climits>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "engine/board.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"
#include "records/finding_codes.h"
#include "records/royalur.h"
#include "records/utf8.h"
#include "records/written_turns.h"

namespace scribe {
namespace {

// RoyalUr's line length: a turn (light's and dark's together) wraps to a
// new line before it reaches this many characters.
constexpr int kMaxTurnLineLength = 60;

// The lane letter of the tiles a side's pieces enter from and bear off to
// (off the board, on the side's own lane: A5, C5, ...).
char HomeLane(Side side) { return side == kLight ? 'A' : 'C'; }

bool IsLane(char c) { return (c >= 'A' && c <= 'C') || (c >= 'a' && c <= 'c'); }

// A tag name RGN can write and read back: printable ASCII but for spaces,
// brackets and quotes.
bool IsTagName(absl::string_view name) {
  if (name.empty()) return false;
  for (char ch : name) {
    // Unsigned: bytes 0x80 and up (UTF-8) are allowed, as the reader takes them.
    const auto c = static_cast<unsigned char>(ch);
    if (c <= ' ' || c == 0x7f || c == '[' || c == ']' || c == '"') return false;
  }
  return true;
}

// What RoyalUr writes unquoted: [A-Za-z][A-Za-z0-9_.-]*.
bool IsPlainValue(absl::string_view value) {
  if (value.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(value[0]))) return false;
  for (char c : value) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') return false;
  }
  return true;
}

std::string TagValueText(absl::string_view value) {
  if (IsPlainValue(value)) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\r': out += "\\r"; break;
      case '\n': out += "\\n"; break;
      default: out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

class RgnReader {
 public:
  RgnReader(absl::string_view text, const RulesPolicy& policy)
      : text_(text), lines_(text), ruleset_(policy.ruleset), policy_(policy) {}

  ParsedRecords Read() {
    ResolveRules();
    while (true) {
      SkipBlankLines();
      if (AtEnd()) break;
      ReadGame();
    }
    out_.entries = game_index_ + 1;
    return std::move(out_);
  }

 private:
  // RGN names no ruleset: every game of the file is read under the rules
  // RulesFor gives a record that names none.
  void ResolveRules() {
    RecordRules decided = RulesFor(v1::GameRecord::default_instance(), policy_,
                                   absl::StrCat("RGN names no ruleset: say which with --ruleset, e.g. --ruleset "
                                                "finkel (RoyalUr's presets are ",
                                                RoyalUrPresetList(), ")"));
    rules_ = std::move(decided.rules);
    problem_ = std::move(decided.problem);
  }

  // --- low-level scanning -------------------------------------------------
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }
  bool AtTokenEnd() const { return AtEnd() || IsSpace(Peek()) || Peek() == '\n'; }
  // Moves past the end of the current line.
  void NextLine() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    if (pos_ < text_.size()) ++pos_;
  }
  // Whether the line starting at `at` holds only spaces.
  bool LineIsBlank(size_t at) const {
    while (at < text_.size() && IsSpace(text_[at])) ++at;
    return at >= text_.size() || text_[at] == '\n';
  }
  // Skips blank lines and the spaces that start the next line.
  void SkipBlankLines() {
    while (!AtEnd()) {
      size_t q = pos_;
      while (q < text_.size() && IsSpace(text_[q])) ++q;
      if (q < text_.size() && text_[q] == '\n') {
        pos_ = q + 1;
        continue;
      }
      pos_ = q;
      return;
    }
  }
  // Skips the rest of a game: its tag lines (when `in_tags`), then its
  // lines of moves up to a blank line or the next game's tags.
  void SkipGame(bool in_tags) {
    NextLine();
    if (in_tags) {
      while (!AtEnd() && !LineIsBlank(pos_)) NextLine();
      SkipBlankLines();
    }
    while (!AtEnd() && !LineIsBlank(pos_) && Peek() != '[') NextLine();
  }
  // Reads every digit at pos_: false when there is none. `digits` is the
  // number as written, for messages; one of more than kMaxDigits digits
  // reads as INT_MAX.
  static constexpr size_t kMaxDigits = 9;
  bool ReadNumber(int* value, absl::string_view* digits = nullptr) {
    const size_t start = pos_;
    int v = 0;
    while (pos_ < text_.size() && absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (pos_ - start < kMaxDigits) v = v * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    *value = pos_ - start > kMaxDigits ? INT_MAX : v;
    if (digits != nullptr) *digits = text_.substr(start, pos_ - start);
    return pos_ > start;
  }
  std::string Describe(size_t at) const { return DescribeAt(text_, at); }
  void Error(absl::string_view code, std::string message, size_t at) {
    out_.findings.push_back(MakeFinding(code, std::move(message), lines_, static_cast<uint32_t>(at), game_index_));
  }
  void SyntaxError(std::string message, size_t at) { Error(codes::kRgnSyntax, std::move(message), at); }

  // --- tags ----------------------------------------------------------------
  // [Name value] or [Name "value"], alone on its line; returns false after
  // a finding.
  bool ReadTag(v1::GameRecord* record, std::set<std::string>* seen) {
    const size_t start = pos_;
    ++pos_;  // '['
    const size_t name_start = pos_;
    while (!AtEnd() && !IsSpace(Peek()) && Peek() != '\n' && Peek() != ']' && Peek() != '"' && Peek() != '[') ++pos_;
    const std::string name(text_.substr(name_start, pos_ - name_start));
    if (name.empty()) {
      SyntaxError(absl::StrCat("expected a tag name after '[', found ", Describe(pos_)), pos_);
      return false;
    }
    if (!IsTagName(name)) {
      // Control bytes in a name: refused when read, as the writer refuses them.
      SyntaxError(absl::StrCat("tag name \"", absl::CHexEscape(name),
                               "\" has a control character; a tag name is printable, without spaces, brackets or quotes"),
                  name_start);
      return false;
    }
    if (!IsSpace(Peek())) {
      SyntaxError(absl::StrCat("expected a space and the tag's value after the name, found ", Describe(pos_)), pos_);
      return false;
    }
    while (IsSpace(Peek())) ++pos_;
    std::string value;
    if (Peek() == '"') {
      ++pos_;
      while (true) {
        if (AtEnd() || Peek() == '\n') {
          SyntaxError("the tag's value has no closing '\"'", start);
          return false;
        }
        char c = text_[pos_++];
        if (c == '"') break;
        if (c == '\\' && !AtEnd() && Peek() != '\n') {
          c = text_[pos_++];
          if (c == 'n') c = '\n';
          else if (c == 'r') c = '\r';
          else if (c == 't') c = '\t';
        }
        value.push_back(c);
      }
    } else {
      const size_t value_start = pos_;
      while (!AtEnd() && !IsSpace(Peek()) && Peek() != '\n' && Peek() != ']') ++pos_;
      value = std::string(text_.substr(value_start, pos_ - value_start));
      if (value.empty()) {
        SyntaxError(absl::StrCat("expected the tag's value (a word, or text in double quotes), found ",
                                 Describe(pos_)), pos_);
        return false;
      }
    }
    while (IsSpace(Peek())) ++pos_;
    if (Peek() != ']') {
      SyntaxError(absl::StrCat("expected ']' to close the tag, found ", Describe(pos_)), pos_);
      return false;
    }
    ++pos_;
    while (IsSpace(Peek())) ++pos_;
    if (!AtEnd() && Peek() != '\n') {
      SyntaxError(absl::StrCat("expected the end of the line after the tag, found ", Describe(pos_)), pos_);
      return false;
    }
    // The name and the value as written (escapes take out only ASCII
    // backslashes): UTF-8, like all record text.
    if (const size_t bad = FirstNonUtf8Byte(text_.substr(name_start, pos_ - name_start));
        bad != absl::string_view::npos) {
      Error(codes::kTextNotUtf8, NotUtf8Message(text_, name_start + bad, "the tag"), name_start + bad);
      return false;
    }
    if (!seen->insert(name).second) {
      SyntaxError(absl::StrCat("tag ", name, " appears twice in one game"), start);
      return false;
    }
    (*record->mutable_tags())[name] = std::move(value);
    return true;
  }

  // --- moves ------------------------------------------------------------------
  // The path indices of `tile` on `side`'s path.
  std::vector<int> IndicesOf(Side side, TileId tile) const {
    std::vector<int> out;
    for (int i = 1; i <= rules_->path_length; ++i) {
      if (rules_->tile[side][i] == tile) out.push_back(i);
    }
    return out;
  }

  // "B9 is not on light's path", and whose path it is on.
  std::string NotOnPath(Side side, TileId tile) const {
    std::string out = absl::StrCat(TileName(tile), " is not on ", SideName(side), "'s path");
    if (!IndicesOf(Other(side), tile).empty()) {
      absl::StrAppend(&out, " (it is on ", SideName(Other(side)), "'s: the turn is ", SideName(side), "'s)");
    }
    return out;
  }

  // A tile after its lane letter (at pos_ - 1), or -1 after a finding.
  int ReadTile(size_t lane_at, absl::string_view what) {
    const size_t digits = pos_;
    // Every digit: a tile named as written ("A99999" is not "A99").
    while (pos_ < text_.size() && absl::ascii_isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ == digits) {
      SyntaxError(absl::StrCat("expected ", what, " after the lane letter ", Describe(lane_at), ", found ",
                               Describe(pos_)), pos_);
      return -1;
    }
    const absl::string_view name = text_.substr(lane_at, pos_ - lane_at);
    const auto tile = ParseTileName(name);
    if (!tile) {
      Error(codes::kRgnMove, absl::StrCat("\"", name, "\" is not a tile"), lane_at);
      return -1;
    }
    return *tile;
  }

  // source tile + destination tile + "x" + "#", then " *" and "#"; returns
  // false after a finding.
  bool ReadMove(Side side, v1::Action* action, ActionSource* as) {
    const size_t start = pos_;
    const Side s = side;
    const Rules& r = *rules_;
    // Source.
    const char lane1 = absl::ascii_toupper(static_cast<unsigned char>(Peek()));
    ++pos_;
    std::vector<int> froms;
    if (Peek() == '@') {
      ++pos_;
      if (lane1 != HomeLane(s)) {
        Error(codes::kRgnMove,
              lane1 == HomeLane(Other(s))
                  ? absl::StrCat(std::string(1, lane1), "@ enters one of ", SideName(Other(s)),
                                 "'s pieces, but the turn is ", SideName(s), "'s (", SideName(s),
                                 "'s pieces enter with ", std::string(1, HomeLane(s)), "@)")
                  : absl::StrCat(SideName(s), "'s pieces enter from lane ", std::string(1, HomeLane(s)), " (",
                                 std::string(1, HomeLane(s)), "@), not ", std::string(1, lane1), "@"),
              start);
        return false;
      }
      froms.push_back(0);
    } else {
      const int tile = ReadTile(start, "a position (as in A4), or '@' to enter a piece (A@A4)");
      if (tile < 0) return false;
      froms = IndicesOf(s, tile);
      if (froms.empty()) {
        Error(codes::kRgnMove, NotOnPath(s, tile), start);
        return false;
      }
    }
    // Destination.
    const size_t dest = pos_;
    if (!IsLane(Peek())) {
      SyntaxError(absl::StrCat("expected the destination tile of the move (as in A2B2, or A8A+ to bear off), found ",
                               Describe(pos_)), pos_);
      return false;
    }
    const char lane2 = absl::ascii_toupper(static_cast<unsigned char>(Peek()));
    ++pos_;
    std::vector<int> tos;
    if (Peek() == '+') {
      ++pos_;
      const char last_lane = static_cast<char>('A' + TileLane(r.tile[s][r.path_length]));
      if (lane2 != HomeLane(s) && lane2 != last_lane) {
        Error(codes::kRgnMove, absl::StrCat(SideName(s), "'s pieces bear off to lane ", std::string(1, HomeLane(s)), " (",
                                       std::string(1, HomeLane(s)), "+), not ", std::string(1, lane2), "+"),
              dest);
        return false;
      }
      tos.push_back(r.off);
    } else {
      const int tile = ReadTile(dest, "a position (as in B2), or '+' to bear a piece off (A8A+)");
      if (tile < 0) return false;
      tos = IndicesOf(s, tile);
      if (tos.empty()) {
        Error(codes::kRgnMove, NotOnPath(s, tile), dest);
        return false;
      }
    }
    // Markers.
    if (Peek() == 'x') {
      ++pos_;
      as->markers |= kMarkCapture;
    }
    if (Peek() == '#') {
      ++pos_;
      as->markers |= kMarkEnd;
    }
    if (!AtTokenEnd()) {
      SyntaxError(absl::StrCat("unexpected ", Describe(pos_), " after the move"), pos_);
      return false;
    }
    const absl::string_view written = text_.substr(start, pos_ - start);
    size_t q = pos_;
    while (q < text_.size() && (text_[q] == ' ' || text_[q] == '\t')) ++q;
    if (q < text_.size() && text_[q] == '*') {
      pos_ = q + 1;
      as->markers |= kMarkExtra;
      if (Peek() == '#') {
        ++pos_;
        as->markers |= kMarkEnd;
      }
      if (!AtTokenEnd()) {
        SyntaxError(absl::StrCat("unexpected ", Describe(pos_), " after \" *\""), pos_);
        return false;
      }
    }
    // The squares: forward along the path; when a tile is on the path
    // twice, the pair a throw can make.
    std::vector<std::pair<int, int>> forward, reachable;
    for (int f : froms) {
      for (int t : tos) {
        if (t <= f) continue;
        forward.emplace_back(f, t);
        if (t - f <= r.max_roll) reachable.emplace_back(f, t);
      }
    }
    if (forward.empty()) {
      Error(codes::kRgnMove,
            absl::StrCat(written, " goes backwards along ", SideName(s), "'s path (from square ", froms.front(),
                         " to square ", tos.front(), ")"),
            start);
      return false;
    }
    const std::vector<std::pair<int, int>>& pairs = forward.size() == 1 ? forward : reachable;
    if (pairs.size() != 1) {
      std::vector<std::string> options;
      for (const auto& [f, t] : forward) options.push_back(absl::StrCat(f, "->", t));
      Error(codes::kRgnMove,
            absl::StrCat(written, " is ambiguous: ", SideName(s), "'s path passes its tiles more than once (",
                         absl::StrJoin(options, ", "), ")"),
            start);
      return false;
    }
    action->set_roll(pairs[0].second - pairs[0].first);
    action->set_from(pairs[0].first);
    action->set_to(pairs[0].second);
    return true;
  }

  // The moves of a game, up to a blank line, the next game's tags or the
  // end; returns false after a finding.
  bool ReadMoves(v1::GameRecord* record, RecordSource* source) {
    std::optional<Side> side;
    bool first_in_turn = false;
    bool turn_empty = false;  // a turn was opened and has no throw yet
    size_t turn_at = 0;
    int number = 0;  // the number of the last light turn
    while (true) {
      // Spaces, and line breaks inside the block.
      bool block_end = false;
      while (!AtEnd()) {
        const char c = Peek();
        if (IsSpace(c)) {
          ++pos_;
        } else if (c == '\n') {
          size_t q = pos_ + 1;
          while (q < text_.size() && IsSpace(text_[q])) ++q;
          if (q >= text_.size() || text_[q] == '\n' || text_[q] == '[') {
            block_end = true;
            break;
          }
          pos_ = q;
        } else {
          break;
        }
      }
      if (AtEnd() || block_end) break;
      const size_t start = pos_;
      const char c = Peek();
      const bool turn_mark = c == '/' || (absl::ascii_isdigit(static_cast<unsigned char>(c)) && [&] {
                               size_t q = pos_;
                               while (q < text_.size() && absl::ascii_isdigit(static_cast<unsigned char>(text_[q]))) ++q;
                               return q < text_.size() && text_[q] == '.';
                             }());
      if (turn_mark) {
        if (turn_empty) {
          SyntaxError("a turn needs at least one throw (a move such as A2B2, or \"2 --\")", turn_at);
          return false;
        }
        if (c == '/') {
          ++pos_;
          side = kDark;
        } else {
          absl::string_view digits;
          ReadNumber(&number, &digits);
          if (digits.size() > kMaxDigits) {
            SyntaxError(absl::StrCat("the turn number ", digits, " is too large (at most ", kMaxDigits, " digits)"),
                        start);
            return false;
          }
          ++pos_;  // '.'
          side = kLight;
        }
        if (record->actions_size() == 0 && side == kDark) record->set_first_player(v1::DARK);
        first_in_turn = true;
        turn_empty = true;
        turn_at = start;
        continue;
      }
      if (!side) {
        SyntaxError(absl::StrCat("the moves start with a turn: \"1. \" for light's, \"/ \" for dark's; found ",
                                 Describe(pos_)),
                    pos_);
        return false;
      }
      ActionSource as;
      as.offset = static_cast<uint32_t>(start);
      as.side = static_cast<uint8_t>(*side);
      as.first_in_turn = first_in_turn;
      as.turn = number;
      v1::Action action;
      if (absl::ascii_isdigit(static_cast<unsigned char>(c))) {
        // A throw with no move: "<throw> --".
        int roll = 0;
        absl::string_view digits;
        ReadNumber(&roll, &digits);
        if (digits.size() > 2) {
          SyntaxError(absl::StrCat("the throw ", digits, " is more than any dice give (a throw has 1 or 2 digits)"),
                      start);
          return false;
        }
        while (Peek() == ' ' || Peek() == '\t') ++pos_;
        if (text_.substr(pos_, 2) != "--") {
          SyntaxError(absl::StrCat("expected \"--\" after the throw ", roll, " (a throw with no move is written \"",
                                   roll, " --\"), or '.' after a turn number; found ", Describe(pos_)),
                      pos_);
          return false;
        }
        pos_ += 2;
        if (Peek() == '#') {
          ++pos_;
          as.markers |= kMarkEnd;
        }
        if (!AtTokenEnd()) {
          SyntaxError(absl::StrCat("unexpected ", Describe(pos_), " after \"", roll, " --\""), pos_);
          return false;
        }
        action.set_roll(roll);
      } else if (IsLane(c)) {
        if (!ReadMove(*side, &action, &as)) return false;
      } else {
        SyntaxError(absl::StrCat("expected a move (as in A2B2, A@A4 or A8A+), a throw with no move (\"2 --\"), "
                                 "or a turn (\"12.\" or \"/\"); found ",
                                 Describe(pos_)),
                    pos_);
        return false;
      }
      *record->add_actions() = std::move(action);
      source->actions.push_back(as);
      first_in_turn = false;
      turn_empty = false;
    }
    if (turn_empty) {
      SyntaxError("a turn needs at least one throw (a move such as A2B2, or \"2 --\")", turn_at);
      return false;
    }
    return true;
  }

  void ReadGame() {
    ++game_index_;
    v1::GameRecord record;
    RecordSource source;
    source.offset = static_cast<uint32_t>(pos_);
    std::set<std::string> seen;
    // Tags: lines starting with '[', up to a line that does not.
    while (Peek() == '[') {
      if (!ReadTag(&record, &seen)) {
        SkipGame(/*in_tags=*/true);
        return;
      }
      NextLine();
      while (IsSpace(Peek())) ++pos_;
    }
    SkipBlankLines();
    if (rules_ == nullptr) {
      Error(problem_.code(), problem_.message(), source.offset);
      // Past the moves, to the next game.
      while (!AtEnd() && !LineIsBlank(pos_) && Peek() != '[') NextLine();
      return;
    }
    if (!AtEnd() && Peek() != '[' && !ReadMoves(&record, &source)) {
      SkipGame(/*in_tags=*/false);
      return;
    }
    record.set_ruleset(ruleset_.empty() ? rules_->ruleset.id() : ruleset_);
    out_.records.push_back(std::move(record));
    out_.record_indices.push_back(game_index_);
    out_.sources.push_back(std::move(source));
  }

  absl::string_view text_;
  LineIndex lines_;
  std::string ruleset_;
  RulesPolicy policy_;
  std::shared_ptr<const Rules> rules_;
  // Why no game can be read when rules_ is null.
  v1::Finding problem_;
  size_t pos_ = 0;
  int game_index_ = -1;
  ParsedRecords out_;
};

// A record's or an action's comment, unless it holds only what RoyalUr's
// own RGN leaves out too (times, state metadata).
absl::Status CheckNoComment(absl::string_view comment, absl::string_view what) {
  const RoyalUrNotes notes = ParseRoyalUrNotes(comment);
  if (notes.other.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("RGN has no comments: ", what, " has the comment \"",
                                                 absl::CHexEscape(notes.other), "\""));
}

absl::Status WriteGame(const JudgedRecord& judged, std::string* out) {
  SCRIBE_RETURN_IF_ERROR(RequireLegal(judged, "RGN"));
  SCRIBE_RETURN_IF_ERROR(RequireUtf8(judged.record, "RGN"));
  const v1::GameRecord& record = judged.record;
  const RefereeResult& result = judged.verdict;
  const Rules& rules = *result.rules;
  if (!RoyalUrPresetName(rules)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RGN names no ruleset, so its reader must be told one, and RoyalUr knows only its presets (",
        RoyalUrPresetList(), "): the record's ruleset \"", absl::CHexEscape(record.ruleset()), "\" (digest ",
        rules.digest, ") is none of them (write TSN or JSON)"));
  }
  if (rules.revisits || rules.stacking) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RGN writes a move as two tiles, which do not say the move under ruleset \"",
        absl::CHexEscape(record.ruleset()), "\": ",
        rules.revisits ? "its path passes a tile twice" : "its pieces stack"));
  }
  if (record.opening_size() > 0) {
    return absl::InvalidArgumentError(
        "RGN has no way to say an opening throw-off (write TSN or JSON to keep it)");
  }
  if (!record.start_position().empty()) {
    return absl::InvalidArgumentError(
        "RGN has no way to say a set-up position: its games start with every piece waiting (write TSN or JSON)");
  }
  SCRIBE_RETURN_IF_ERROR(CheckNoComment(record.comment(), "the record"));
  for (int i = 0; i < record.actions_size(); ++i) {
    SCRIBE_RETURN_IF_ERROR(CheckNoComment(record.actions(i).comment(), absl::StrCat("action ", i)));
  }
  std::string tags;
  for (const auto& [name, value] : RoyalUrTagOrder(record.tags())) {
    if (!IsTagName(name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tag \"", absl::CHexEscape(name),
          "\" cannot be written in RGN (a tag name is printable, without spaces, brackets or quotes)"));
    }
    absl::StrAppend(&tags, "[", name, " ", TagValueText(value), "]\n");
  }
  if (!tags.empty()) tags.push_back('\n');
  out->append(tags);

  // As RoyalUr's writer does: a light turn opens "N. ", a dark one "/ ";
  // light's and dark's turns share a line, wrapped before 60 characters;
  // every light turn starts a new line.
  const int n = record.actions_size();
  int turn = 0;
  std::optional<Side> turn_player;
  bool first = true;
  std::string turn_text;
  int turn_length = 0;
  for (int i = 0; i < n; ++i) {
    const v1::Action& a = record.actions(i);
    const ActionOutcome& o = result.outcomes[i];
    const Side s = o.mover;
    std::string action;
    if (turn_player != s) {
      ++turn;
      turn_player = s;
      action = s == kLight ? absl::StrCat((turn + 1) / 2, ". ") : "/ ";
    }
    if (!a.has_from()) {
      absl::StrAppend(&action, a.roll(), " --");
    } else {
      if (a.from() == 0) {
        absl::StrAppend(&action, std::string(1, HomeLane(s)), "@");
      } else {
        absl::StrAppend(&action, TileName(rules.tile[s][a.from()]));
      }
      if (a.to() == rules.off) {
        absl::StrAppend(&action, std::string(1, HomeLane(s)), "+");
      } else {
        absl::StrAppend(&action, TileName(rules.tile[s][a.to()]));
      }
      if (o.captured > 0) action.push_back('x');
      if (a.to() != rules.off && IsMarkedTile(rules.ruleset.board(), rules.tile[s][a.to()])) action += " *";
    }
    if (i == n - 1 && result.winner) action.push_back('#');
    const int length = static_cast<int>(action.size());
    turn_length += length;
    if (!turn_text.empty()) {
      if (turn_length + 1 < kMaxTurnLineLength) {
        turn_text.push_back(' ');
        turn_length += 1;
      } else {
        turn_text.push_back('\n');
        turn_length = length;
      }
    }
    turn_text += action;
    if (i + 1 >= n || (s != kLight && result.outcomes[i + 1].mover != s)) {
      if (!first) out->push_back('\n');
      first = false;
      out->append(turn_text);
      turn_text.clear();
      turn_length = 0;
    }
  }
  return absl::OkStatus();
}

}  // namespace

ParsedRecords ReadRgn(absl::string_view text, const RulesPolicy& policy) {
  return RgnReader(text, policy).Read();
}

absl::StatusOr<std::string> WriteRgn(const std::vector<v1::GameRecord>& records) {
  return WriteRgn(JudgeRecords(records));
}

absl::StatusOr<std::string> WriteRgn(const std::vector<JudgedRecord>& records) {
  std::string out;
  for (size_t k = 0; k < records.size(); ++k) {
    const v1::GameRecord& record = records[k].record;
    if (k > 0 && record.tags().empty() && records[k - 1].record.actions_size() == 0) {
      // A game without tags right after a game without moves would be read
      // back as that game's moves.
      return absl::InvalidArgumentError(absl::StrCat(
          "record ", k, ": a game without tags cannot follow a game without moves in RGN (it would be "
          "read back as that game's moves); give it a tag such as Light or Dark"));
    }
    if (records.size() > 1 && record.tags().empty() && record.actions_size() == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "record ", k, ": an empty game (no tags, no actions) writes nothing in RGN and would be lost"));
    }
    if (k > 0) out += "\n\n";
    if (absl::Status s = WriteGame(records[k], &out); !s.ok()) return InRecord(s, k, records.size());
  }
  return out;
}

namespace {

// RGN's part of the walk of written turns (records/written_turns.h): a
// light turn starts "N." (numbered 1, 2, ...), a dark one "/"; markers x,
// * (landing on a rosette), #.
struct RgnTurns {
  static constexpr bool kTurnsWritten = true;
  const Rules& rules;
  const v1::GameRecord& record;
  int light_turns = 0;

  static std::string TurnText(Side side, int number) {
    return side == kLight ? absl::StrCat("\"", number, ".\"") : std::string("\"/\"");
  }

  std::string Message(TurnBreak broken, const WrittenAction& a) const {
    switch (broken) {
      case TurnBreak::kTurnSplit:
        return absl::StrCat("the previous move earned ", SideName(a.mover),
                            " another throw: it stays in the same turn, without a new ",
                            TurnText(a.written, a.source.turn));
      case TurnBreak::kMissingExtraThrow:
        return absl::StrCat("the previous move earned ", SideName(a.mover), " another throw, but this turn (",
                            TurnText(a.written, a.source.turn), ") is ", SideName(a.written), "'s");
      case TurnBreak::kTurnPassed:
        return absl::StrCat("the previous throw ended ", SideName(Other(a.mover)),
                            "'s turn (it earned no other throw): this throw is ", SideName(a.mover),
                            "'s and starts a new turn with ", a.mover == kLight ? "\"N.\"" : "\"/\"");
      case TurnBreak::kWrongSide:
        return absl::StrCat("it is ", SideName(a.mover), "'s turn, but the turn is written as ",
                            SideName(a.written), "'s (", TurnText(a.written, a.source.turn), ")");
    }
    return "";
  }

  std::optional<std::string> TurnNumber(const WrittenAction& a) {
    if (a.written != kLight) return std::nullopt;
    ++light_turns;
    if (a.source.turn == light_turns) return std::nullopt;
    // A turn line left out (or numbered wrong): what follows is judged
    // against the wrong turns, so it is not reported too.
    return absl::StrCat("light's turn ", light_turns, " is numbered ", a.source.turn, "; expected \"", light_turns,
                        ".\"");
  }

  void Markers(const WrittenAction& w, const ActionOutcome& o, TurnFindings& findings) const {
    const ActionSource& as = w.source;
    const int i = w.index;
    const v1::Action& a = record.actions(i);
    if ((as.markers & kMarkCapture) && o.captured == 0) {
      findings.Add(codes::kMarkerCapture, "x marks a capture, but the move captures nothing", i);
    }
    if (as.markers & kMarkExtra) {
      const bool rosette = a.has_to() && a.to() >= 1 && a.to() <= rules.path_length &&
                           IsMarkedTile(rules.ruleset.board(), rules.tile[o.mover][a.to()]);
      if (!rosette) {
        findings.Add(codes::kMarkerRosette,
                     a.has_to() && a.to() >= 1 && a.to() <= rules.path_length
                         ? absl::StrCat("* marks landing on a rosette, but ", rules.TileNameAt(o.mover, a.to()),
                                        " is not one")
                         : std::string("* marks landing on a rosette, but the move lands on no tile"),
                     i);
      }
    }
    if ((as.markers & kMarkEnd) && !o.won) {
      findings.Add(codes::kMarkerEnd, "# marks the end of the game, but the game goes on", i);
    }
  }
};

}  // namespace

std::vector<v1::Finding> CheckRgnForm(const RecordSource& source, const RefereeResult& result,
                                      const v1::GameRecord& record, const LineIndex& lines,
                                      int record_index) {
  if (result.rules == nullptr) return {};
  RgnTurns turns{*result.rules, record};
  return CheckWrittenTurns(source, result, lines, record_index, turns).findings;
}

}  // namespace scribe
