// Pictures of a position (review/render.h): the text board of known
// positions, character for character, and the SVG picture: well-formed XML
// with an SVG root, a rosette on every marked tile and a disc for every
// piece (stacks counted).
#include <cctype>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/board.h"
#include "engine/position.h"
#include "engine/ruleset.h"
#include "gtest/gtest.h"
#include "records/position_string.h"
#include "review/render.h"
#include "tests/common/test_positions.h"
#include "tests/common/test_rules.h"

namespace scribe {
namespace {

// --- the text board ---------------------------------------------------------------

TEST(TextBoardTest, FinkelStart) {
  auto rules = MustLoad("finkel");
  EXPECT_EQ(TextBoard(*rules, StartPosition(*rules)),
            "    1   2   3   4   5   6   7   8\n"
            "  +---+---+---+---+       +---+---+\n"
            "A | * |   |   |   |       | * |   |   light  waiting 7  off 0\n"
            "  +---+---+---+---+---+---+---+---+\n"
            "B |   |   |   | * |   |   |   |   |\n"
            "  +---+---+---+---+---+---+---+---+\n"
            "C | * |   |   |   |       | * |   |   dark   waiting 7  off 0\n"
            "  +---+---+---+---+       +---+---+\n"
            "light to throw\n");
}

TEST(TextBoardTest, FinkelPieces) {
  auto rules = MustLoad("finkel");
  // Light on A3 (2) and the central rosette B4 (8); dark on B6 (its 10) and
  // two borne off.
  const Position pos = MustParse(*rules, "5:.1.....1......:0/4:.........1....:2 D");
  EXPECT_EQ(TextBoard(*rules, pos),
            "    1   2   3   4   5   6   7   8\n"
            "  +---+---+---+---+       +---+---+\n"
            "A | * |   | L |   |       | * |   |   light  waiting 5  off 0\n"
            "  +---+---+---+---+---+---+---+---+\n"
            "B |   |   |   |*L*|   | D |   |   |\n"
            "  +---+---+---+---+---+---+---+---+\n"
            "C | * |   |   |   |       | * |   |   dark   waiting 4  off 2\n"
            "  +---+---+---+---+       +---+---+\n"
            "dark to throw\n");
}

TEST(TextBoardTest, TurnoverStacksAndTurnedOverPieces) {
  auto rules = MustLoad("turnover");
  // Light: two on A1 (1), one turned over on B5 (16). Dark: one going up on
  // B4 (5), one coming down on B4 (17); they do not meet.
  const Position pos = MustParse(*rules, "4:2..............1....:0/5:....1...........1...:0 L");
  EXPECT_EQ(TextBoard(*rules, pos),
            "     1     2     3     4     5     6     7     8\n"
            "  +-----+-----+-----+-----+           +-----+-----+\n"
            "A |*2L* |     |     |     |           |  *  |     |   light  waiting 4  off 0\n"
            "  +-----+-----+-----+-----+-----+-----+-----+-----+\n"
            "B |     |     |     |*Dd* |  l  |     |     |     |\n"
            "  +-----+-----+-----+-----+-----+-----+-----+-----+\n"
            "C |  *  |     |     |     |           |  *  |     |   dark   waiting 5  off 0\n"
            "  +-----+-----+-----+-----+           +-----+-----+\n"
            "light to throw\n");
}

TEST(TextBoardTest, EgyptianBoardAndAWinner) {
  auto rules = MustLoad("sawah");
  const Position pos = MustParse(*rules, "0:................:7/3:...1.......1....:2 D");
  EXPECT_EQ(TextBoard(*rules, pos),
            "    1   2   3   4   5   6   7   8   9  10  11  12\n"
            "  +---+---+---+---+\n"
            "A | * |   |   |   |                                   light  waiting 0  off 7\n"
            "  +---+---+---+---+---+---+---+---+---+---+---+---+\n"
            "B |   |   |   | * |   |   |   |*D*|   |   |   | * |\n"
            "  +---+---+---+---+---+---+---+---+---+---+---+---+\n"
            "C |*D*|   |   |   |                                   dark   waiting 3  off 2\n"
            "  +---+---+---+---+\n"
            "light has won\n");
}

// --- the SVG picture ----------------------------------------------------------------

// A small XML reader, enough to say an SVG is well formed: one root
// element, every element closed in order, attributes quoted and not
// repeated, only the predefined entities and character references.
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;  // the character data directly inside
  std::vector<int> children;
};

class XmlReader {
 public:
  explicit XmlReader(const std::string& text) : text_(text) {}

  // Empty when well formed, else what is wrong and where.
  std::string Read() {
    SkipSpace();
    if (Starts("<?xml")) {
      const size_t end = text_.find("?>", pos_);
      if (end == std::string::npos) return Error("unclosed XML declaration");
      pos_ = end + 2;
    }
    SkipMisc();
    if (!Starts("<")) return Error("no root element");
    if (std::string e = ReadElement(-1); !e.empty()) return e;
    SkipMisc();
    if (pos_ != text_.size()) return Error("content after the root element");
    return "";
  }
  const std::vector<Element>& elements() const { return elements_; }

 private:
  bool Starts(const char* s) const { return text_.compare(pos_, std::char_traits<char>::length(s), s) == 0; }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void SkipMisc() {
    while (true) {
      SkipSpace();
      if (Starts("<!--")) {
        const size_t end = text_.find("-->", pos_);
        pos_ = end == std::string::npos ? text_.size() : end + 3;
      } else {
        return;
      }
    }
  }
  std::string Error(const std::string& what) const { return absl::StrCat(what, " at byte ", pos_); }
  static bool NameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.';
  }
  std::string ReadName() {
    const size_t start = pos_;
    while (pos_ < text_.size() && NameChar(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  // Checks the entity references of character data or an attribute value.
  std::string CheckText(const std::string& s) const {
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '<') return Error("'<' in text");
      if (s[i] != '&') continue;
      const size_t semi = s.find(';', i);
      if (semi == std::string::npos) return Error("unterminated entity");
      const std::string name = s.substr(i + 1, semi - i - 1);
      if (name != "amp" && name != "lt" && name != "gt" && name != "quot" && name != "apos" &&
          !(name.size() > 1 && name[0] == '#')) {
        return Error(absl::StrCat("unknown entity &", name, ";"));
      }
    }
    return "";
  }
  std::string ReadElement(int parent) {
    ++pos_;  // '<'
    Element e;
    e.name = ReadName();
    if (e.name.empty()) return Error("element without a name");
    while (true) {
      SkipSpace();
      if (Starts("/>") || Starts(">")) break;
      const std::string attr = ReadName();
      if (attr.empty()) return Error(absl::StrCat("bad attribute in <", e.name, ">"));
      SkipSpace();
      if (!Starts("=")) return Error("attribute without '='");
      ++pos_;
      SkipSpace();
      if (!Starts("\"")) return Error("attribute value not in double quotes");
      const size_t end = text_.find('"', pos_ + 1);
      if (end == std::string::npos) return Error("unclosed attribute value");
      const std::string value = text_.substr(pos_ + 1, end - pos_ - 1);
      if (std::string err = CheckText(value); !err.empty()) return err;
      if (!e.attributes.emplace(attr, value).second) return Error(absl::StrCat("attribute ", attr, " twice"));
      pos_ = end + 1;
    }
    const int index = static_cast<int>(elements_.size());
    elements_.push_back(e);
    if (parent >= 0) elements_[parent].children.push_back(index);
    if (Starts("/>")) {
      pos_ += 2;
      return "";
    }
    ++pos_;  // '>'
    while (true) {
      const size_t lt = text_.find('<', pos_);
      if (lt == std::string::npos) return Error(absl::StrCat("<", e.name, "> is never closed"));
      const std::string chars = text_.substr(pos_, lt - pos_);
      if (std::string err = CheckText(chars); !err.empty()) return err;
      elements_[index].text += chars;
      pos_ = lt;
      if (Starts("</")) {
        pos_ += 2;
        const std::string name = ReadName();
        if (name != e.name) return Error(absl::StrCat("</", name, "> closes <", e.name, ">"));
        SkipSpace();
        if (!Starts(">")) return Error("bad closing tag");
        ++pos_;
        return "";
      }
      if (Starts("<!--")) {
        SkipMisc();
        continue;
      }
      if (std::string err = ReadElement(index); !err.empty()) return err;
    }
  }

  const std::string& text_;
  size_t pos_ = 0;
  std::vector<Element> elements_;
};

bool HasClass(const Element& e, const std::string& cls) {
  auto it = e.attributes.find("class");
  if (it == e.attributes.end()) return false;
  for (absl::string_view c : absl::StrSplit(it->second, ' ')) {
    if (c == cls) return true;
  }
  return false;
}

struct SvgCounts {
  int rosettes = 0;
  int tiles = 0;
  // Pieces per side on the board (stacks counted), waiting, borne off.
  int board[2] = {0, 0};
  int waiting[2] = {0, 0};
  int off[2] = {0, 0};
  int turned_over_discs = 0;
};

SvgCounts CountSvg(const std::string& svg) {
  XmlReader reader(svg);
  const std::string error = reader.Read();
  EXPECT_EQ(error, "") << svg;
  SvgCounts c;
  const auto& elements = reader.elements();
  if (!error.empty() || elements.empty()) return c;
  const Element& root = elements[0];
  EXPECT_EQ(root.name, "svg");
  EXPECT_EQ(root.attributes.at("xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_EQ(root.attributes.at("version"), "1.1");
  EXPECT_TRUE(root.attributes.count("viewBox"));
  for (const Element& e : elements) {
    if (HasClass(e, "rosette")) {
      ++c.rosettes;
      int petals = 0;
      for (int child : e.children) petals += elements[child].name == "ellipse";
      EXPECT_EQ(petals, 8) << "a rosette has eight petals";
    }
    if (HasClass(e, "tile")) ++c.tiles;
    if (!HasClass(e, "piece")) continue;
    const int side = HasClass(e, "light") ? 0 : 1;
    EXPECT_TRUE(HasClass(e, side == 0 ? "light" : "dark"));
    int count = 1, circles = 0;
    for (int child : e.children) {
      const Element& k = elements[child];
      if (k.name == "circle") ++circles;
      if (k.name == "text" && HasClass(k, "count")) {
        EXPECT_TRUE(absl::SimpleAtoi(k.text, &count)) << k.text;
      }
    }
    if (circles > 2) ++c.turned_over_discs;  // the disc, its shadow, five dots
    if (HasClass(e, "board")) c.board[side] += count;
    if (HasClass(e, "waiting")) c.waiting[side] += count;
    if (HasClass(e, "off")) c.off[side] += count;
  }
  return c;
}

int PiecesOnBoard(const Rules& rules, const Position& pos, Side s) {
  int n = 0;
  for (int i = 1; i <= rules.path_length; ++i) n += pos.count[s][i];
  return n;
}

void ExpectPicture(const std::string& preset, const std::string& position, int turned_over = 0) {
  SCOPED_TRACE(preset + " " + position);
  auto rules = MustLoad(preset);
  const Position pos = MustParse(*rules, position);
  const std::string svg = SvgBoard(*rules, pos);
  const SvgCounts c = CountSvg(svg);
  int marked = 0;
  for (TileId t : BoardTiles(rules->ruleset.board())) marked += IsMarkedTile(rules->ruleset.board(), t);
  EXPECT_EQ(c.rosettes, marked);
  EXPECT_EQ(c.rosettes, 5);  // both boards have five
  EXPECT_EQ(c.tiles, static_cast<int>(BoardTiles(rules->ruleset.board()).size()));
  for (Side s : {kLight, kDark}) {
    EXPECT_EQ(c.board[s], PiecesOnBoard(*rules, pos, s)) << SideName(s);
    EXPECT_EQ(c.waiting[s], pos.count[s][0]) << SideName(s);
    EXPECT_EQ(c.off[s], pos.count[s][rules->off]) << SideName(s);
  }
  EXPECT_EQ(c.turned_over_discs, turned_over);
}

TEST(SvgBoardTest, UrBoard) {
  ExpectPicture("finkel", "7:..............:0/7:..............:0 L");
  ExpectPicture("finkel", "5:.1.....1......:0/4:.........1....:2 D");
  ExpectPicture("masters", "0:.1.....1.......1:4/3:.........1....11:1 L");
}

TEST(SvgBoardTest, EgyptianBoard) {
  EXPECT_EQ(BoardTiles(v1::BOARD_EGYPTIAN).size(), 20u);
  ExpectPicture("sawah", "0:................:7/3:...1.......1....:2 D");
  ExpectPicture("sawah-tablet", "2:1..1............:1/1:.1...1.....1....:1 L");
}

TEST(SvgBoardTest, TurnoverStacksAndTurnedOverPieces) {
  // Two light on A1, one light turned over on B5; dark up and dark down on
  // B4: two discs drawn turned over.
  ExpectPicture("turnover", "4:2..............1....:0/5:....1...........1...:0 L", 2);
  // A stack of five on the last square.
  ExpectPicture("turnover", "0:...................5:2/7:....................:0 L", 1);
}

TEST(SvgBoardTest, TitleEscapesAndCaption) {
  auto rules = MustLoad("finkel");
  SvgOptions options;
  options.caption = "Ann & Bo <game 1>";
  const std::string svg = SvgBoard(*rules, StartPosition(*rules), options);
  EXPECT_TRUE(absl::StrContains(svg, "Ann &amp; Bo &lt;game 1&gt;"));
  CountSvg(svg);
  // The default caption names the rules and who throws.
  EXPECT_TRUE(absl::StrContains(SvgBoard(*rules, StartPosition(*rules, kDark)), "finkel \xE2\x80\x94 dark to throw"));
}

}  // namespace
}  // namespace scribe
