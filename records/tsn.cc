#include "records/tsn.h"

#include <climits>
#include <map>
#include <memory>
#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "engine/board.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"
#include "records/finding_codes.h"
#include "records/utf8.h"
#include "records/written_turns.h"

namespace scribe {
namespace {

constexpr absl::string_view kVersion = "1";

// Tags that map to GameRecord fields rather than to `tags`.
constexpr absl::string_view kTagVersion = "TSN";
constexpr absl::string_view kTagRuleset = "Ruleset";
constexpr absl::string_view kTagDigest = "Digest";
constexpr absl::string_view kTagFirst = "First";
constexpr absl::string_view kTagThrowOff = "ThrowOff";
constexpr absl::string_view kTagPosition = "Position";

// The order the writer gives the tags it knows; the rest follow sorted.
const std::vector<std::string>& RosterOrder() {
  static const std::vector<std::string> kOrder = {"Event", "Site", "Date", "Round", "Light",
                                                  "Dark", "Result", "Termination", "Dice"};
  return kOrder;
}

// Path indices of each tile on each side's path, in order of visit: the
// n-th visit of a tile is written with n-1 primes (B4, B4').
struct TileIndex {
  int8_t index[2][kNumTileIds][4];
  explicit TileIndex(const Rules& rules) {
    for (auto& side : index)
      for (auto& tile : side)
        for (int8_t& i : tile) i = -1;
    for (int s = 0; s < 2; ++s) {
      for (int i = 1; i <= rules.path_length; ++i) {
        int8_t* visits = index[s][rules.tile[s][i]];
        for (int k = 0; k < 4; ++k) {
          if (visits[k] < 0) {
            visits[k] = static_cast<int8_t>(i);
            break;
          }
        }
      }
    }
  }
};

// In a comment a backslash escapes '}', itself, and whitespace (which is
// otherwise trimmed at the comment's ends).
inline bool IsCommentEscapable(char c) {
  return c == '}' || c == '\\' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

class TsnReader {
 public:
  using EachGame = absl::FunctionRef<void(v1::GameRecord& record, RecordSource& source, int index)>;

  // Every game is read under the rules RulesFor gives it under `policy`;
  // given rules read every game, even one its own rules will judge (the
  // judge reports the conflict).
  explicit TsnReader(absl::string_view text, const RulesPolicy& policy) : text_(text), policy_(policy) {
    policy_.conflict_is_finding = false;
  }

  // Reads every game, handing each one read to `each`; the record and the
  // source are reused for the next game (cleared, keeping their storage),
  // so `each` moves them out to keep them. Returns the findings and the
  // count of entries.
  ParsedRecords Read(EachGame each) {
    while (true) {
      SkipBlank();
      if (AtEnd()) break;
      ReadGame(each);
    }
    out_.entries = game_index_ + 1;
    return std::move(out_);
  }

 private:
  // Line starts are needed only for findings: built at the first one.
  const LineIndex& Lines() {
    if (!lines_) lines_.emplace(text_);
    return *lines_;
  }

  // --- low-level scanning -------------------------------------------------
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void SkipSpaces() {
    const char* const data = text_.data();
    const size_t size = text_.size();
    size_t pos = pos_;
    while (pos < size && (data[pos] == ' ' || data[pos] == '\t' || data[pos] == '\r')) ++pos;
    pos_ = pos;
  }
  void SkipBlank() {
    while (pos_ < text_.size() && absl::ascii_isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void SkipLine() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }
  // Skips the rest of a game after a finding, to the start of the next
  // game: a line starting with '[' that follows a blank line or a line of
  // moves (a '[' line right after a tag line is the same game's tag).
  void SkipGame() {
    // Whether the line the finding is on is a tag line.
    size_t line_start = pos_ > text_.size() ? text_.size() : pos_;
    while (line_start > 0 && text_[line_start - 1] != '\n') --line_start;
    while (line_start < text_.size() && (text_[line_start] == ' ' || text_[line_start] == '\t')) ++line_start;
    bool previous_is_tag = line_start < text_.size() && text_[line_start] == '[';
    SkipLine();
    while (!AtEnd()) {
      ++pos_;  // the newline
      SkipSpaces();
      const bool blank = AtEnd() || Peek() == '\n' || Peek() == '\r';
      if (!blank && Peek() == '[' && !previous_is_tag) return;
      previous_is_tag = !blank && Peek() == '[';
      SkipLine();
    }
  }
  // Reads every digit at pos_: false when there is none. `digits` is the
  // number as written, for messages; a number of more than kMaxDigits
  // digits reads as INT_MAX (too large for anything a record holds).
  static constexpr size_t kMaxDigits = 9;
  bool ReadNumber(int* value, absl::string_view* digits = nullptr) {
    const size_t start = pos_;
    int v = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (pos_ - start < kMaxDigits) v = v * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    *value = pos_ - start > kMaxDigits ? INT_MAX : v;
    if (digits != nullptr) *digits = text_.substr(start, pos_ - start);
    return pos_ > start;
  }
  std::string Describe(size_t at) const { return DescribeAt(text_, at); }

  void SyntaxError(std::string message, size_t at) {
    out_.findings.push_back(MakeFinding(codes::kTsnSyntax, std::move(message), Lines(),
                                        static_cast<uint32_t>(at), game_index_));
  }

  // Whether text_[from, to) (a tag's value or a comment as written) is
  // UTF-8; a finding at its first byte that is not, otherwise. Escapes
  // take out only ASCII backslashes, so what is read is UTF-8 too.
  bool Utf8Text(size_t from, size_t to, absl::string_view what) {
    const size_t bad = FirstNonUtf8Byte(text_.substr(from, to - from));
    if (bad == absl::string_view::npos) return true;
    out_.findings.push_back(MakeFinding(codes::kTextNotUtf8, NotUtf8Message(text_, from + bad, what), Lines(),
                                        static_cast<uint32_t>(from + bad), game_index_));
    return false;
  }

  // --- tags ----------------------------------------------------------------
  // [Name "value"]; returns false after a finding.
  bool ReadTag(absl::string_view* name, std::string* value) {
    const size_t start = pos_;
    ++pos_;  // '['
    SkipSpaces();
    const size_t name_start = pos_;
    while (pos_ < text_.size() && (absl::ascii_isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    if (pos_ == name_start || !absl::ascii_isalpha(static_cast<unsigned char>(text_[name_start]))) {
      // Point at the first character that cannot start a name.
      SyntaxError(absl::StrCat("expected a tag name after '[' (a letter, then letters, digits or _), found ",
                               Describe(name_start)),
                  name_start);
      return false;
    }
    *name = text_.substr(name_start, pos_ - name_start);
    SkipSpaces();
    if (Peek() != '"') {
      SyntaxError(absl::StrCat("expected the tag's value in double quotes, found ", Describe(pos_)), pos_);
      return false;
    }
    ++pos_;
    const size_t value_start = pos_;
    value->clear();
    while (true) {
      if (AtEnd() || Peek() == '\n') {
        SyntaxError("the tag's value has no closing '\"'", start);
        return false;
      }
      char c = text_[pos_++];
      if (c == '"') break;
      if (c == '\\') {
        if (AtEnd()) continue;
        c = text_[pos_++];
        if (c == 'n') c = '\n';
      }
      value->push_back(c);
    }
    if (!Utf8Text(value_start, pos_ - 1, "the tag's value")) return false;
    SkipSpaces();
    if (Peek() != ']') {
      SyntaxError(absl::StrCat("expected ']' to close the tag, found ", Describe(pos_)), pos_);
      return false;
    }
    ++pos_;
    SkipSpaces();
    if (!AtEnd() && Peek() != '\n') {
      SyntaxError(absl::StrCat("expected the end of the line after the tag, found ", Describe(pos_)), pos_);
      return false;
    }
    return true;
  }

  // { comment }, with \} and \\ escapes; returns false after a finding.
  bool ReadComment(std::string* out) {
    const size_t start = pos_;
    ++pos_;  // '{'
    std::string text;
    // Whitespace at the ends is layout, unless escaped: [first, last) of
    // `text` is what the comment keeps.
    size_t keep_from = std::string::npos, keep_to = 0;
    while (true) {
      if (AtEnd()) {
        SyntaxError("the comment has no closing '}'", start);
        return false;
      }
      char c = text_[pos_++];
      if (c == '}') break;
      bool escaped = false;
      if (c == '\\' && !AtEnd() && IsCommentEscapable(Peek())) {
        c = text_[pos_++];
        escaped = true;
      }
      text.push_back(c);
      if (escaped || !absl::ascii_isspace(static_cast<unsigned char>(c))) {
        if (keep_from == std::string::npos) keep_from = text.size() - 1;
        keep_to = text.size();
      }
    }
    if (!Utf8Text(start + 1, pos_ - 1, "the comment")) return false;
    if (keep_from == std::string::npos) return true;  // an empty comment adds nothing
    if (!out->empty()) out->push_back(' ');
    out->append(text, keep_from, keep_to - keep_from);
    return true;
  }

  // Applies the tags to the record; findings for known tags with bad values.
  bool ApplyTag(absl::string_view name, const std::string& value, size_t at, v1::GameRecord* record) {
    if (name == kTagVersion) {
      if (value != kVersion) {
        SyntaxError(absl::StrCat("TSN version \"", value, "\" is not one this reader knows (", kVersion, ")"), at);
        return false;
      }
    } else if (name == kTagRuleset) {
      record->set_ruleset(value);
    } else if (name == kTagDigest) {
      record->set_ruleset_digest(value);
    } else if (name == kTagFirst) {
      if (value == "light") {
        record->set_first_player(v1::LIGHT);
      } else if (value == "dark") {
        record->set_first_player(v1::DARK);
      } else {
        SyntaxError(absl::StrCat("First is \"", value, "\"; expected \"light\" or \"dark\""), at);
        return false;
      }
    } else if (name == kTagThrowOff) {
      for (absl::string_view round : absl::StrSplit(value, ' ', absl::SkipEmpty())) {
        std::vector<absl::string_view> pair = absl::StrSplit(round, '-');
        int light = 0, dark = 0;
        if (pair.size() != 2 || !absl::SimpleAtoi(pair[0], &light) || !absl::SimpleAtoi(pair[1], &dark)) {
          SyntaxError(absl::StrCat("ThrowOff round \"", round,
                                   "\" is not <light's throw>-<dark's throw>, e.g. \"2-2 3-1\""), at);
          return false;
        }
        v1::OpeningThrow* t = record->add_opening();
        t->set_light(light);
        t->set_dark(dark);
      }
    } else if (name == kTagPosition) {
      record->set_start_position(value);
    } else {
      (*record->mutable_tags())[std::string(name)] = value;
    }
    return true;
  }

  // --- squares and moves -------------------------------------------------------
  // A square of `side`'s path: a path number, '@' (waiting), "off", or a
  // tile name with primes. Returns -1 after a finding.
  int ReadSquare(Side side) {
    const size_t start = pos_;
    const char c = Peek();
    if (c >= '0' && c <= '9') {
      int v = 0;
      absl::string_view digits;
      ReadNumber(&v, &digits);
      if (v > rules_->off) {
        SyntaxError(absl::StrCat("square ", digits, " is past the end of the path (0 waiting, 1-",
                                 rules_->path_length, " on the board, ", rules_->off, " or \"off\" borne off)"),
                    start);
        return -1;
      }
      return v;
    }
    if (c == '@') {
      ++pos_;
      return 0;
    }
    if (text_.substr(pos_, 3) == "off") {
      pos_ += 3;
      return rules_->off;
    }
    if ((c >= 'A' && c <= 'C') || (c >= 'a' && c <= 'c')) {
      const size_t name_start = pos_;
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9' && pos_ - name_start < 3) ++pos_;
      const auto tile = ParseTileName(text_.substr(name_start, pos_ - name_start));
      int visit = 0;
      while (Peek() == '\'') {
        ++visit;
        ++pos_;
      }
      if (!tile) {
        SyntaxError(absl::StrCat("\"", text_.substr(name_start, pos_ - name_start), "\" is not a tile name"), start);
        return -1;
      }
      const int index = visit < 4 ? tiles_->index[side][*tile][visit] : -1;
      if (index < 0) {
        SyntaxError(absl::StrCat(TileName(*tile), std::string(visit, '\''), " is not on ", SideName(side),
                                 "'s path", visit > 0 ? " that many times" : ""),
                    start);
        return -1;
      }
      return index;
    }
    SyntaxError(absl::StrCat("expected a square (a path number, a tile such as A4, @ or off), found ",
                             Describe(pos_)),
                pos_);
    return -1;
  }

  // A path number of one or two digits that is on the path; false for
  // anything else (ReadSquare reads longer numbers).
  bool ReadPlainSquare(const char** at, const char* end, int* square) const {
    const char* p = *at;
    auto is_digit = [](char c) { return static_cast<unsigned char>(c - '0') <= 9; };
    if (p == end || !is_digit(*p)) return false;
    int v = *p++ - '0';
    if (p != end && is_digit(*p)) {
      v = v * 10 + (*p++ - '0');
      if (p != end && is_digit(*p)) return false;
    }
    if (v > rules_->off) return false;
    *at = p;
    *square = v;
    return true;
  }

  // The common action written with path numbers ("3:4-7*", "2:-"), read in
  // one pass. Anything else (tiles, '@', "off", anything wrong) returns
  // false having consumed nothing: ReadAction then reads it, or says what
  // is wrong. What this accepts, ReadAction reads the same way.
  bool ReadPlainAction(Side side, int turn, bool first_in_turn, v1::GameRecord* record, RecordSource* source) {
    const char* const begin = text_.data() + pos_;
    const char* const end = text_.data() + text_.size();
    auto is_digit = [](char c) { return static_cast<unsigned char>(c - '0') <= 9; };
    const char* p = begin;
    if (p == end || !is_digit(*p)) return false;
    int roll = *p++ - '0';
    if (p != end && is_digit(*p)) roll = roll * 10 + (*p++ - '0');
    if (p == end || *p != ':') return false;
    ++p;
    if (p == end) return false;
    int from = -1, to = -1;
    uint8_t markers = 0;
    int8_t captures = -1;
    if (*p == '-') {
      ++p;
    } else {
      if (!ReadPlainSquare(&p, end, &from)) return false;
      if (p == end || *p != '-') return false;
      ++p;
      if (!ReadPlainSquare(&p, end, &to)) return false;
      while (p != end) {
        const char m = *p;
        if (m == 'x') {
          ++p;
          markers |= kMarkCapture;
          const char* const digits = p;
          int n = 0;
          while (p != end && is_digit(*p) && p - digits < 9) n = n * 10 + (*p++ - '0');
          if (p != digits) captures = static_cast<int8_t>(n > 100 ? 100 : n);
        } else if (m == '*') {
          ++p;
          markers |= kMarkExtra;
        } else if (m == '+') {
          ++p;
          markers |= kMarkPlaced;
        } else if (m == '#') {
          ++p;
          markers |= kMarkEnd;
        } else {
          break;
        }
      }
    }
    if (p != end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && *p != '{') return false;
    ActionSource as;
    as.offset = static_cast<uint32_t>(pos_);
    as.side = static_cast<uint8_t>(side);
    as.first_in_turn = first_in_turn;
    as.markers = markers;
    as.captures = captures;
    as.turn = turn;
    v1::Action* action = record->add_actions();
    action->set_roll(roll);
    if (from >= 0) {
      action->set_from(from);
      action->set_to(to);
    }
    source->actions.push_back(as);
    pos_ = static_cast<size_t>(p - text_.data());
    return true;
  }

  // roll ':' ( '-' | square '-' square markers ). Returns false after a
  // finding.
  bool ReadAction(Side side, int turn, bool first_in_turn, v1::GameRecord* record, RecordSource* source) {
    const size_t start = pos_;
    int roll = 0;
    absl::string_view digits;
    if (!ReadNumber(&roll, &digits)) {
      SyntaxError(absl::StrCat("expected a throw (a number, then ':'), found ", Describe(start)), start);
      return false;
    }
    if (digits.size() > 2) {
      SyntaxError(absl::StrCat("the throw ", digits, " is more than any dice give (a throw has 1 or 2 digits)"),
                  start);
      return false;
    }
    if (Peek() != ':') {
      SyntaxError(absl::StrCat("expected ':' after the throw, found ", Describe(pos_)), pos_);
      return false;
    }
    ++pos_;
    ActionSource as;
    as.offset = static_cast<uint32_t>(start);
    as.side = static_cast<uint8_t>(side);
    as.first_in_turn = first_in_turn;
    as.turn = turn;
    v1::Action* action = record->add_actions();
    action->set_roll(roll);
    if (Peek() == '-') {
      ++pos_;
    } else {
      const int from = ReadSquare(side);
      if (from < 0) return false;
      if (Peek() != '-') {
        SyntaxError(absl::StrCat("expected '-' between the squares of a move, found ", Describe(pos_)), pos_);
        return false;
      }
      ++pos_;
      const int to = ReadSquare(side);
      if (to < 0) return false;
      action->set_from(from);
      action->set_to(to);
      while (true) {
        const char m = Peek();
        if (m == 'x') {
          ++pos_;
          as.markers |= kMarkCapture;
          int n = 0;
          const size_t digits_at = pos_;
          absl::string_view digits;
          if (ReadNumber(&n, &digits)) {
            if (digits.size() > kMaxDigits) {
              SyntaxError(absl::StrCat("the capture count ", digits, " is too large (at most ", kMaxDigits,
                                       " digits)"),
                          digits_at);
              return false;
            }
            as.captures = static_cast<int8_t>(n > 100 ? 100 : n);
          }
        } else if (m == '*') {
          ++pos_;
          as.markers |= kMarkExtra;
        } else if (m == '+') {
          ++pos_;
          as.markers |= kMarkPlaced;
        } else if (m == '#') {
          ++pos_;
          as.markers |= kMarkEnd;
        } else {
          break;
        }
      }
    }
    const char after = Peek();
    if (!AtEnd() && after != ' ' && after != '\t' && after != '\r' && after != '\n' && after != '{') {
      SyntaxError(absl::StrCat("unexpected ", Describe(pos_), " after the action"), pos_);
      return false;
    }
    source->actions.push_back(as);
    return true;
  }

  // N. S action action ... — returns false after a finding.
  bool ReadTurn(v1::GameRecord* record, RecordSource* source) {
    const size_t start = pos_;
    int turn = 0;
    absl::string_view digits;
    ReadNumber(&turn, &digits);
    if (digits.size() > kMaxDigits) {
      SyntaxError(absl::StrCat("the turn number ", digits, " is too large (at most ", kMaxDigits, " digits)"), start);
      return false;
    }
    if (Peek() != '.') {
      SyntaxError(absl::StrCat("expected '.' after the turn number, found ", Describe(pos_)), pos_);
      return false;
    }
    ++pos_;
    SkipSpaces();
    Side side;
    if (Peek() == 'L') {
      side = kLight;
    } else if (Peek() == 'D') {
      side = kDark;
    } else {
      SyntaxError(absl::StrCat("expected the side, L or D, found ", Describe(pos_)), pos_);
      return false;
    }
    ++pos_;
    bool first = true;
    while (true) {
      SkipSpaces();
      if (AtEnd() || Peek() == '\n') break;
      if (Peek() == '{') {
        std::string* target = record->actions_size() > 0
                                  ? record->mutable_actions(record->actions_size() - 1)->mutable_comment()
                                  : record->mutable_comment();
        if (!ReadComment(target)) return false;
        continue;
      }
      if (!ReadPlainAction(side, turn, first, record, source) &&
          !ReadAction(side, turn, first, record, source)) {
        return false;
      }
      first = false;
    }
    if (first) {
      SyntaxError("a turn needs at least one throw, e.g. \"3:0-3\" or \"0:-\"", start);
      return false;
    }
    return true;
  }

  void ReadGame(EachGame each) {
    ++game_index_;
    v1::GameRecord& record = record_;
    record.Clear();
    RecordSource& source = source_;
    source.offset = static_cast<uint32_t>(pos_);
    source.result_offset = 0;
    source.has_result = false;
    source.digest_offset = 0;
    source.has_digest = false;
    source.actions.clear();
    bool ok = true;
    size_t first_tag = pos_;
    // Tag section: the names seen (views into the text) and where.
    std::vector<std::pair<absl::string_view, size_t>>& seen = seen_;
    seen.clear();
    auto seen_at = [&seen](absl::string_view name) -> const size_t* {
      for (const auto& [n, at] : seen) {
        if (n == name) return &at;
      }
      return nullptr;
    };
    if (Peek() != '[') {
      SyntaxError(absl::StrCat("a game starts with its tags, e.g. [Ruleset \"finkel\"]; found ",
                               Describe(pos_)), pos_);
      SkipGame();
      return;
    }
    bool blank_before = false;
    while (ok && Peek() == '[') {
      const size_t at = pos_;
      absl::string_view name;
      std::string& value = tag_value_;
      ok = ReadTag(&name, &value);
      if (!ok) break;
      if (seen_at(name) != nullptr) {
        if (blank_before) {
          // A game with no moves, then the next game's tags.
          pos_ = at;
          break;
        }
        SyntaxError(absl::StrCat("tag ", name, " appears twice in one game"), at);
        ok = false;
        break;
      }
      seen.emplace_back(name, at);
      if (name == "Result") {
        source.has_result = true;
        source.result_offset = static_cast<uint32_t>(at);
      }
      if (name == kTagDigest) {
        source.has_digest = true;
        source.digest_offset = static_cast<uint32_t>(at);
      }
      ok = ApplyTag(name, value, at, &record);
      // Blank lines may stand between tags; a tag the game already has,
      // after a blank line, begins the next game (a game without moves).
      const size_t after_tag = pos_;
      SkipBlank();
      blank_before = absl::StrContains(text_.substr(after_tag, pos_ - after_tag), "\n\n") ||
                     absl::StrContains(text_.substr(after_tag, pos_ - after_tag), "\n\r\n");
    }
    if (ok) {
      RecordRules decided =
          RulesFor(record, policy_, "the game has no Ruleset tag, e.g. [Ruleset \"finkel\"]");
      if (decided.rules == nullptr) {
        // A ruleset that does not resolve is placed at its Ruleset tag; a
        // missing one (or policy.ruleset) where the tags start.
        const size_t* tag = decided.problem.code() == codes::kRulesetMissing ? nullptr : seen_at(kTagRuleset);
        out_.findings.push_back(MakeFinding(decided.problem.code(), decided.problem.message(), Lines(),
                                            static_cast<uint32_t>(tag != nullptr ? *tag : first_tag),
                                            game_index_));
        ok = false;
      } else {
        if (record.ruleset().empty()) record.set_ruleset(policy_.ruleset);
        if (rules_ != decided.rules) {
          rules_ = std::move(decided.rules);
          auto& cached = tile_indexes_[rules_.get()];
          if (!cached) cached = std::make_unique<TileIndex>(*rules_);
          tiles_ = cached.get();
        }
      }
    }
    // Comments and turns, up to the next tag section.
    while (ok) {
      SkipBlank();
      if (AtEnd() || Peek() == '[') break;
      if (Peek() == '{') {
        std::string* target = record.actions_size() > 0
                                  ? record.mutable_actions(record.actions_size() - 1)->mutable_comment()
                                  : record.mutable_comment();
        ok = ReadComment(target);
      } else if (Peek() >= '0' && Peek() <= '9') {
        ok = ReadTurn(&record, &source);
      } else {
        SyntaxError(absl::StrCat("expected a turn (\"12. L 3:4-7\"), a comment or the next game's tags, found ",
                                 Describe(pos_)), pos_);
        ok = false;
      }
    }
    if (!ok) {
      SkipGame();
      return;
    }
    each(record, source, game_index_);
  }

  absl::string_view text_;
  std::optional<LineIndex> lines_;
  size_t pos_ = 0;
  // Reused from game to game.
  v1::GameRecord record_;
  RecordSource source_;
  std::vector<std::pair<absl::string_view, size_t>> seen_;
  std::string tag_value_;
  int game_index_ = -1;
  std::shared_ptr<const Rules> rules_;
  const TileIndex* tiles_ = nullptr;
  std::map<const Rules*, std::unique_ptr<TileIndex>> tile_indexes_;
  ParsedRecords out_;
  RulesPolicy policy_;
};

std::string QuoteTag(absl::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string EscapeComment(absl::string_view text) {
  // Whitespace at either end would be read as layout: escape it.
  size_t first = 0, last = text.size();
  while (first < last && absl::ascii_isspace(static_cast<unsigned char>(text[first]))) ++first;
  while (last > first && absl::ascii_isspace(static_cast<unsigned char>(text[last - 1]))) --last;
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '}' || c == '\\' || ((i < first || i >= last) && IsCommentEscapable(c))) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

absl::Status WriteGame(const JudgedRecord& judged, const TsnWriteOptions& options, std::string* out) {
  SCRIBE_RETURN_IF_ERROR(RequireLegal(judged, "TSN"));
  SCRIBE_RETURN_IF_ERROR(RequireUtf8(judged.record, "TSN"));
  const v1::GameRecord& record = judged.record;
  const RefereeResult& result = judged.verdict;
  const Rules& rules = *result.rules;
  absl::StrAppend(out, "[TSN ", QuoteTag(kVersion), "]\n");
  absl::StrAppend(out, "[Ruleset ", QuoteTag(record.ruleset()), "]\n");
  if (!record.ruleset_digest().empty()) absl::StrAppend(out, "[Digest ", QuoteTag(record.ruleset_digest()), "]\n");
  for (const std::string& name : RosterOrder()) {
    auto it = record.tags().find(name);
    if (it != record.tags().end()) absl::StrAppend(out, "[", name, " ", QuoteTag(it->second), "]\n");
  }
  if (record.has_first_player()) {
    absl::StrAppend(out, "[First ", QuoteTag(record.first_player() == v1::DARK ? "dark" : "light"), "]\n");
  }
  if (record.opening_size() > 0) {
    std::vector<std::string> rounds;
    for (const v1::OpeningThrow& t : record.opening()) rounds.push_back(absl::StrCat(t.light(), "-", t.dark()));
    absl::StrAppend(out, "[ThrowOff ", QuoteTag(absl::StrJoin(rounds, " ")), "]\n");
  }
  if (!record.start_position().empty()) {
    absl::StrAppend(out, "[Position ", QuoteTag(record.start_position()), "]\n");
  }
  std::map<std::string, std::string> others;
  for (const auto& [name, value] : record.tags()) {
    bool known = false;
    for (const std::string& r : RosterOrder()) known = known || r == name;
    // A tag name that TSN cannot write, or that would be read back as a
    // record field, cannot round-trip: refuse rather than write it wrong.
    bool valid_name = !name.empty() && absl::ascii_isalpha(static_cast<unsigned char>(name[0]));
    for (char c : name) valid_name = valid_name && (absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!valid_name || name == kTagVersion || name == kTagRuleset || name == kTagDigest || name == kTagFirst ||
        name == kTagThrowOff || name == kTagPosition) {
      return absl::InvalidArgumentError(absl::StrCat("tag \"", absl::CHexEscape(name), "\" cannot be written in TSN"));
    }
    if (!known) others.emplace(name, value);
  }
  for (const auto& [name, value] : others) absl::StrAppend(out, "[", name, " ", QuoteTag(value), "]\n");
  out->push_back('\n');
  if (!record.comment().empty()) absl::StrAppend(out, "{", EscapeComment(record.comment()), "}\n");
  int turn = 0;
  bool line_open = false;
  for (int i = 0; i < record.actions_size(); ++i) {
    const v1::Action& a = record.actions(i);
    const ActionOutcome& o = result.outcomes[i];
    const bool continues = i > 0 && result.outcomes[i - 1].extra_roll;
    if (!continues) {
      if (line_open) out->push_back('\n');
      absl::StrAppend(out, ++turn, ". ", o.mover == kLight ? "L" : "D");
      line_open = true;
    }
    absl::StrAppend(out, " ", a.roll(), ":");
    if (!a.has_from()) {
      out->push_back('-');
    } else {
      absl::StrAppend(out, SquareText(rules, o.mover, a.from(), options.squares), "-",
                      SquareText(rules, o.mover, a.to(), options.squares));
      if (o.captured > 0) {
        out->push_back('x');
        if (o.captured > 1) absl::StrAppend(out, static_cast<int>(o.captured));
      }
      if (o.extra_roll) out->push_back('*');
      if (o.placed) out->push_back('+');
      if (o.won) out->push_back('#');
    }
    if (!a.comment().empty()) absl::StrAppend(out, " {", EscapeComment(a.comment()), "}");
  }
  if (line_open) out->push_back('\n');
  return absl::OkStatus();
}

}  // namespace

ParsedRecords ReadTsn(absl::string_view text, const RulesPolicy& policy) {
  std::vector<v1::GameRecord> records;
  std::vector<int> record_indices;
  std::vector<RecordSource> sources;
  ParsedRecords out = TsnReader(text, policy).Read([&](v1::GameRecord& record, RecordSource& source, int index) {
    records.push_back(std::move(record));
    record_indices.push_back(index);
    sources.push_back(std::move(source));
  });
  out.records = std::move(records);
  out.record_indices = std::move(record_indices);
  out.sources = std::move(sources);
  return out;
}

ParsedRecords ReadTsnEach(absl::string_view text,
                          absl::FunctionRef<void(v1::GameRecord& record, RecordSource& source, int index)> each,
                          const RulesPolicy& policy) {
  return TsnReader(text, policy).Read(each);
}

absl::StatusOr<std::string> WriteTsn(const std::vector<JudgedRecord>& records, const TsnWriteOptions& options) {
  std::string out;
  for (size_t k = 0; k < records.size(); ++k) {
    if (k > 0) out.push_back('\n');
    if (absl::Status s = WriteGame(records[k], options, &out); !s.ok()) return InRecord(s, k, records.size());
  }
  return out;
}

absl::StatusOr<std::string> WriteTsn(const std::vector<v1::GameRecord>& records,
                                     const TsnWriteOptions& options) {
  return WriteTsn(JudgeRecords(records), options);
}

namespace {

// TSN's part of the walk of written turns (records/written_turns.h): one
// line per turn, numbered 1, 2, ...; markers x (with a count), *, +, #.
struct TsnTurns {
  static constexpr bool kTurnsWritten = true;
  int last_turn = 0;
  bool seen_turn = false;

  std::string Message(TurnBreak broken, const WrittenAction& a) const {
    switch (broken) {
      case TurnBreak::kTurnSplit:
        return absl::StrCat("the previous move earned ", SideName(a.mover), " another throw: it belongs on the same line");
      case TurnBreak::kMissingExtraThrow:
        return absl::StrCat("the previous move earned ", SideName(a.mover),
                            " another throw, but this turn is written as ", SideName(a.written), "'s");
      case TurnBreak::kTurnPassed:
        return absl::StrCat("the previous throw ended ", SideName(Other(a.mover)),
                            "'s turn (it earned no other throw): this throw is ", SideName(a.mover),
                            "'s and starts a new line");
      case TurnBreak::kWrongSide:
        return absl::StrCat("it is ", SideName(a.mover), "'s turn, but the line says ",
                            a.written == kLight ? "L" : "D");
    }
    return "";
  }

  std::optional<std::string> TurnNumber(const WrittenAction& a) {
    if (seen_turn && a.source.turn != last_turn + 1) {
      // Turn lines left out (or numbered wrong): what follows is judged
      // against the wrong turns, so it is not reported too.
      return absl::StrCat("turn ", a.source.turn, " follows turn ", last_turn, "; expected ", last_turn + 1);
    }
    last_turn = a.source.turn;
    seen_turn = true;
    return std::nullopt;
  }

  void Markers(const WrittenAction& a, const ActionOutcome& o, TurnFindings& findings) const {
    const ActionSource& as = a.source;
    const int i = a.index;
    if ((as.markers & kMarkCapture) && (o.captured == 0 || (as.captures >= 0 && as.captures != o.captured))) {
      findings.Add(codes::kMarkerCapture,
                   o.captured == 0 ? std::string("x marks a capture, but the move captures nothing")
                                   : absl::StrCat("x", static_cast<int>(as.captures), " marks ",
                                                  static_cast<int>(as.captures), " captured, but the move captures ",
                                                  static_cast<int>(o.captured)),
                   i);
    }
    if ((as.markers & kMarkExtra) && !o.extra_roll) {
      findings.Add(codes::kMarkerExtra, "* marks another throw (a rosette), but the move earns none", i);
    }
    if ((as.markers & kMarkPlaced) && !o.placed) {
      findings.Add(codes::kMarkerPlaced, "+ marks a waiting piece placed on the board, but none is", i);
    }
    if ((as.markers & kMarkEnd) && !o.won) {
      findings.Add(codes::kMarkerEnd, "# marks the end of the game, but the game goes on", i);
    }
  }
};

}  // namespace

std::vector<v1::Finding> CheckTsnForm(const RecordSource& source, const RefereeResult& result,
                                      const v1::GameRecord& record, const LineIndex& lines,
                                      int record_index) {
  TsnTurns turns;
  TurnsChecked checked = CheckWrittenTurns(source, result, lines, record_index, turns);
  std::vector<v1::Finding>& out = checked.findings;
  if (!checked.broken && result.valid() && source.has_result) {
    auto it = record.tags().find("Result");
    const std::string value = it == record.tags().end() ? "" : it->second;
    const bool terminated = record.tags().count("Termination") > 0;
    std::string problem;
    if (value != "light" && value != "dark" && value != "*") {
      problem = absl::StrCat("Result \"", value, "\" is not \"light\", \"dark\" or \"*\"");
    } else if (result.winner) {
      if (value != SideName(*result.winner)) {
        problem = absl::StrCat("Result says \"", value, "\" but the moves end with ",
                               SideName(*result.winner), " bearing off every piece");
      }
    } else if (value != "*" && !terminated) {
      problem = absl::StrCat("Result says \"", value,
                             "\" but the game is unfinished (a Termination tag says why a game ended early)");
    }
    if (!problem.empty()) {
      out.push_back(MakeFinding(codes::kResultMismatch, problem, lines, source.result_offset, record_index));
    }
  }
  return std::move(out);
}

}  // namespace scribe
