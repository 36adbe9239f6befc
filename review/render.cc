#include "review/render.h"

#include <algorithm>
#include <array>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "engine/board.h"
#include "engine/ruleset.h"

namespace scribe {
namespace {

constexpr int kLanes = 3;

// The pieces standing on one tile, in four groups: light on the way up,
// light on the way down, dark up, dark down. Rulesets without phases have
// only the "up" groups.
struct TilePieces {
  std::array<int, 4> count = {0, 0, 0, 0};
  bool empty() const { return count[0] + count[1] + count[2] + count[3] == 0; }
};

int GroupOf(Side s, bool down) { return (s == kLight ? 0 : 2) + (down ? 1 : 0); }
Side GroupSide(int group) { return group < 2 ? kLight : kDark; }
bool GroupDown(int group) { return group % 2 == 1; }

bool HasPhases(const Rules& rules) { return rules.ruleset.phase_starts_size() > 0; }

std::array<TilePieces, kNumTileIds> PiecesByTile(const Rules& rules, const Position& pos) {
  std::array<TilePieces, kNumTileIds> out;
  const bool phases = HasPhases(rules);
  for (Side s : {kLight, kDark}) {
    for (int i = 1; i <= rules.path_length; ++i) {
      if (pos.count[s][i] == 0) continue;
      out[rules.tile[s][i]].count[GroupOf(s, phases && rules.phase[i] > 0)] += pos.count[s][i];
    }
  }
  return out;
}

std::string GroupText(int group, int n) {
  char letter = GroupSide(group) == kLight ? 'L' : 'D';
  if (GroupDown(group)) letter = static_cast<char>(letter - 'A' + 'a');
  return n > 1 ? absl::StrCat(n, std::string(1, letter)) : std::string(1, letter);
}

std::string TileText(const TilePieces& pieces) {
  std::string out;
  for (int g = 0; g < 4; ++g) {
    if (pieces.count[g] > 0) out += GroupText(g, pieces.count[g]);
  }
  return out;
}

std::string Center(const std::string& text, int width, char fill = ' ') {
  const int pad = std::max(0, width - static_cast<int>(text.size()));
  return std::string(pad / 2, fill) + text + std::string(pad - pad / 2, fill);
}

std::string SideLine(const Rules& rules, const Position& pos, Side s) {
  return absl::StrFormat("%-6s waiting %d  off %d", SideName(s), pos.count[s][0], pos.count[s][rules.off]);
}

std::string StatusLine(const Rules& rules, const Position& pos) {
  if (auto winner = Winner(rules, pos)) return absl::StrCat(SideName(*winner), " has won");
  return absl::StrCat(SideName(pos.to_move), " to throw");
}

std::string RStrip(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// --- SVG ---------------------------------------------------------------------

std::string XmlEscape(const std::string& text) {
  return absl::StrReplaceAll(text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}});
}

// Numbers in SVG attributes: at most two decimals, no trailing zeros.
std::string Num(double v) {
  std::string s = absl::StrFormat("%.2f", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

constexpr char kFont[] = "DejaVu Sans, Verdana, Arial, sans-serif";
constexpr char kFrame[] = "#1f3b63";       // lapis lazuli
constexpr char kFrameEdge[] = "#0f2340";
constexpr char kTile[] = "#efe2c4";        // shell
constexpr char kTileEdge[] = "#9c7a45";
constexpr char kPetal[] = "#b8322a";       // red limestone
constexpr char kPetalEdge[] = "#6e1a14";
constexpr char kHeart[] = "#f2c84b";
constexpr char kLightPiece[] = "#fbf7ec";
constexpr char kLightEdge[] = "#3a3a3a";
constexpr char kDarkPiece[] = "#262626";
constexpr char kDarkEdge[] = "#d9d2c0";

class SvgWriter {
 public:
  void Line(const std::string& s) { absl::StrAppend(&out_, indent_, s, "\n"); }
  void Open(const std::string& s) {
    Line(s);
    indent_ += "  ";
  }
  void Close(const std::string& s) {
    indent_.resize(indent_.size() - 2);
    Line(s);
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
  std::string indent_;
};

void Rosette(SvgWriter* w, double cx, double cy, double size, const std::string& tile) {
  w->Open(absl::StrCat("<g class=\"rosette\" transform=\"translate(", Num(cx), " ", Num(cy), ")\">"));
  w->Line(absl::StrCat("<title>rosette ", tile, "</title>"));
  w->Line(absl::StrCat("<circle r=\"", Num(size * 0.43), "\" fill=\"none\" stroke=\"", kPetalEdge,
                       "\" stroke-width=\"1.5\"/>"));
  for (int k = 0; k < 8; ++k) {
    w->Line(absl::StrCat("<ellipse cx=\"0\" cy=\"", Num(-size * 0.22), "\" rx=\"", Num(size * 0.085), "\" ry=\"",
                         Num(size * 0.18), "\" transform=\"rotate(", k * 45, ")\" fill=\"", kPetal,
                         "\" stroke=\"", kPetalEdge, "\" stroke-width=\"1\"/>"));
  }
  w->Line(absl::StrCat("<circle r=\"", Num(size * 0.1), "\" fill=\"", kHeart, "\" stroke=\"", kPetalEdge,
                       "\" stroke-width=\"1\"/>"));
  w->Close("</g>");
}

// One disc (a piece or a stack of `n`), centre (cx, cy), radius r.
void Disc(SvgWriter* w, Side side, bool down, int n, double cx, double cy, double r, const std::string& where,
          const std::string& title) {
  const bool light = side == kLight;
  w->Open(absl::StrCat("<g class=\"piece ", SideName(side), " ", where, "\">"));
  w->Line(absl::StrCat("<title>", XmlEscape(title), "</title>"));
  // A shadow, then the disc.
  w->Line(absl::StrCat("<circle cx=\"", Num(cx + r * 0.08), "\" cy=\"", Num(cy + r * 0.12), "\" r=\"", Num(r),
                       "\" fill=\"#000000\" fill-opacity=\"0.3\"/>"));
  w->Line(absl::StrCat("<circle cx=\"", Num(cx), "\" cy=\"", Num(cy), "\" r=\"", Num(r), "\" fill=\"",
                       light ? kLightPiece : kDarkPiece, "\" stroke=\"", light ? kLightEdge : kDarkEdge,
                       "\" stroke-width=\"", Num(std::max(1.0, r * 0.08)), "\"/>"));
  if (down) {
    // Turned over: the marked face, five dots like the pieces from Ur.
    const double d = r * 0.45, dot = r * 0.12;
    const double spots[5][2] = {{0, 0}, {-d, -d}, {d, -d}, {-d, d}, {d, d}};
    for (const auto& s : spots) {
      w->Line(absl::StrCat("<circle cx=\"", Num(cx + s[0]), "\" cy=\"", Num(cy + s[1]), "\" r=\"", Num(dot),
                           "\" fill=\"", light ? kLightEdge : kDarkEdge, "\"/>"));
    }
  }
  if (n > 1) {
    const double font = r * (n >= 10 ? 0.95 : 1.15);
    w->Line(absl::StrCat("<text class=\"count\" x=\"", Num(cx), "\" y=\"", Num(cy + font * 0.36),
                         "\" text-anchor=\"middle\" font-family=\"", kFont, "\" font-weight=\"bold\" font-size=\"",
                         Num(font), "\" fill=\"", light ? "#1a1a1a" : "#f5f0e0",
                         down ? "\" stroke=\"" : "", down ? (light ? kLightPiece : kDarkPiece) : "",
                         down ? "\" stroke-width=\"0.6" : "", "\">", n, "</text>"));
  }
  w->Close("</g>");
}

}  // namespace

std::string TextBoard(const Rules& rules, const Position& pos) {
  const v1::Board board = rules.ruleset.board();
  const int length = BoardLength(board);
  const auto pieces = PiecesByTile(rules, pos);
  auto exists = [&](int lane, int position) {
    return lane >= 0 && lane < kLanes && position >= 1 && position <= length &&
           OnBoard(board, MakeTile(lane, position));
  };
  // Wide enough for a stack or two colours on a square where the rules
  // allow them, so that the board keeps its size through a game.
  int width = rules.stacking || rules.safe_shared ? 5 : 3;
  for (TileId t : BoardTiles(board)) {
    width = std::max(width, static_cast<int>(TileText(pieces[t]).size()) + 2);
  }
  const std::string margin = "  ";
  const int board_width = 1 + length * (width + 1);
  std::string out;
  // Position numbers.
  std::string header = margin;
  for (int p = 1; p <= length; ++p) absl::StrAppend(&header, " ", Center(absl::StrCat(p), width));
  absl::StrAppend(&out, RStrip(header), "\n");
  auto border = [&](int lane_below) {
    std::string line = margin;
    for (int p = 1; p <= length + 1; ++p) {
      const bool corner = exists(lane_below - 1, p - 1) || exists(lane_below - 1, p) ||
                          exists(lane_below, p - 1) || exists(lane_below, p);
      line.push_back(corner ? '+' : ' ');
      if (p <= length) {
        const bool edge = exists(lane_below - 1, p) || exists(lane_below, p);
        line += std::string(width, edge ? '-' : ' ');
      }
    }
    return RStrip(line);
  };
  for (int lane = 0; lane < kLanes; ++lane) {
    absl::StrAppend(&out, border(lane), "\n");
    std::string row = absl::StrCat(std::string(1, static_cast<char>('A' + lane)), " ");
    for (int p = 1; p <= length + 1; ++p) {
      row.push_back(exists(lane, p - 1) || exists(lane, p) ? '|' : ' ');
      if (p > length) break;
      if (!exists(lane, p)) {
        row += std::string(width, ' ');
        continue;
      }
      const TileId t = MakeTile(lane, p);
      const std::string text = TileText(pieces[t]);
      if (IsMarkedTile(board, t)) {
        row += Center(text.empty() ? "*" : absl::StrCat("*", text, "*"), width);
      } else {
        row += Center(text, width);
      }
    }
    if (lane != 1) {
      row.resize(margin.size() + board_width, ' ');
      absl::StrAppend(&row, "   ", SideLine(rules, pos, lane == 0 ? kLight : kDark));
    }
    absl::StrAppend(&out, RStrip(row), "\n");
  }
  absl::StrAppend(&out, border(kLanes), "\n");
  absl::StrAppend(&out, StatusLine(rules, pos), "\n");
  return out;
}

std::string SvgBoard(const Rules& rules, const Position& pos, const SvgOptions& options) {
  const v1::Board board = rules.ruleset.board();
  const int length = BoardLength(board);
  const double s = std::max(16, options.square);
  const double gap = s * 0.06;          // between squares: the frame shows through
  const double frame = s * 0.22;        // the frame's border around the squares
  const double strip = s * 0.9;         // the rows of waiting and borne-off pieces
  const double caption_height = s * (HasPhases(rules) ? 0.85 : 0.5);
  const double pitch = s + gap;
  const double board_w = length * pitch - gap;
  const double board_h = kLanes * pitch - gap;
  const double left = frame + s * 0.3;
  const double top = strip + frame;
  const double width = left * 2 + board_w;
  const double height = top + board_h + frame + strip + caption_height;
  const auto pieces = PiecesByTile(rules, pos);
  const std::string caption =
      options.caption.empty()
          ? absl::StrCat(RulesetName(rules), " \xE2\x80\x94 ",
                         StatusLine(rules, pos))
          : options.caption;
  const std::string legend = HasPhases(rules) ? "pieces with five dots are turned over, on the way down" : "";
  auto tile_x = [&](TileId t) { return left + (TilePosition(t) - 1) * pitch; };
  auto tile_y = [&](TileId t) { return top + TileLane(t) * pitch; };

  SvgWriter w;
  w.Line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
  w.Open(absl::StrCat("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"", Num(width),
                      "\" height=\"", Num(height), "\" viewBox=\"0 0 ", Num(width), " ", Num(height), "\">"));
  w.Line(absl::StrCat("<title>", XmlEscape(caption), "</title>"));
  w.Line(absl::StrCat("<desc>", XmlEscape(absl::StrCat(
                                    BoardName(board), " board; light ", static_cast<int>(pos.count[kLight][0]),
                                    " waiting, ", static_cast<int>(pos.count[kLight][rules.off]),
                                    " off; dark ", static_cast<int>(pos.count[kDark][0]), " waiting, ",
                                    static_cast<int>(pos.count[kDark][rules.off]), " off")),
                      "</desc>"));
  w.Line(absl::StrCat("<rect x=\"0\" y=\"0\" width=\"", Num(width), "\" height=\"", Num(height),
                      "\" fill=\"#f6f1e4\"/>"));

  // The frame follows the board's shape: a block round every tile, the
  // blocks overlapping into one outline.
  w.Open("<g class=\"frame\">");
  for (TileId t : BoardTiles(board)) {
    w.Line(absl::StrCat("<rect x=\"", Num(tile_x(t) - frame), "\" y=\"", Num(tile_y(t) - frame), "\" width=\"",
                        Num(s + 2 * frame), "\" height=\"", Num(s + 2 * frame), "\" fill=\"", kFrameEdge,
                        "\"/>"));
  }
  for (TileId t : BoardTiles(board)) {
    const double inset = frame * 0.35;
    w.Line(absl::StrCat("<rect x=\"", Num(tile_x(t) - frame + inset), "\" y=\"", Num(tile_y(t) - frame + inset),
                        "\" width=\"", Num(s + 2 * (frame - inset)), "\" height=\"", Num(s + 2 * (frame - inset)),
                        "\" fill=\"", kFrame, "\"/>"));
  }
  w.Close("</g>");

  // The squares, the rosettes on the marked ones, then the pieces.
  w.Open("<g class=\"squares\">");
  for (TileId t : BoardTiles(board)) {
    const double x = tile_x(t), y = tile_y(t);
    w.Line(absl::StrCat("<rect class=\"tile\" x=\"", Num(x), "\" y=\"", Num(y), "\" width=\"", Num(s),
                        "\" height=\"", Num(s), "\" rx=\"", Num(s * 0.05), "\" fill=\"", kTile, "\" stroke=\"",
                        kTileEdge, "\" stroke-width=\"1.5\"><title>", TileName(t), "</title></rect>"));
    w.Line(absl::StrCat("<rect x=\"", Num(x + s * 0.08), "\" y=\"", Num(y + s * 0.08), "\" width=\"",
                        Num(s * 0.84), "\" height=\"", Num(s * 0.84), "\" fill=\"none\" stroke=\"", kTileEdge,
                        "\" stroke-opacity=\"0.45\" stroke-width=\"1\"/>"));
  }
  w.Close("</g>");
  w.Open("<g class=\"rosettes\">");
  for (TileId t : BoardTiles(board)) {
    if (IsMarkedTile(board, t)) Rosette(&w, tile_x(t) + s / 2, tile_y(t) + s / 2, s, TileName(t));
  }
  w.Close("</g>");

  w.Open("<g class=\"pieces\">");
  for (TileId t : BoardTiles(board)) {
    const TilePieces& here = pieces[t];
    if (here.empty()) continue;
    std::vector<int> groups;
    for (int g = 0; g < 4; ++g) {
      if (here.count[g] > 0) groups.push_back(g);
    }
    const double cx = tile_x(t) + s / 2, cy = tile_y(t) + s / 2;
    const int n = static_cast<int>(groups.size());
    const double r = n == 1 ? s * 0.32 : n == 2 ? s * 0.19 : s * 0.19;
    for (int k = 0; k < n; ++k) {
      double dx = 0, dy = 0;
      if (n == 2) {
        dx = (k == 0 ? -1 : 1) * s * 0.24;
      } else if (n > 2) {
        dx = (k % 2 == 0 ? -1 : 1) * s * 0.22;
        dy = (k < 2 ? -1 : 1) * s * 0.22;
      }
      const int g = groups[k];
      const int count = here.count[g];
      const std::string title =
          absl::StrCat(count, " ", SideName(GroupSide(g)), count == 1 ? " piece" : " pieces", " on ", TileName(t),
                       GroupDown(g) ? ", turned over (on the way down)" : "");
      Disc(&w, GroupSide(g), GroupDown(g), count, cx + dx, cy + dy, r, "board", title);
    }
  }
  w.Close("</g>");

  // Waiting and borne-off pieces beside each side's own lane.
  for (Side side : {kLight, kDark}) {
    const double row_y = side == kLight ? strip * 0.5 : top + board_h + frame + strip * 0.5;
    const double r = s * 0.15;
    const double half = width / 2;
    const int waiting = pos.count[side][0];
    const int off = pos.count[side][rules.off];
    w.Open(absl::StrCat("<g class=\"beside ", SideName(side), "\">"));
    for (int part = 0; part < 2; ++part) {
      const int n = part == 0 ? waiting : off;
      const double x0 = part == 0 ? left : half + s * 0.2;
      const double label_w = part == 0 ? s * 1.95 : s * 1.5;
      const std::string label = part == 0 ? absl::StrCat(SideName(side), " waiting") : "borne off";
      w.Line(absl::StrCat("<text x=\"", Num(x0), "\" y=\"", Num(row_y + s * 0.07), "\" font-family=\"", kFont,
                          "\" font-size=\"", Num(s * 0.2), "\" fill=\"#3b2f1e\">", XmlEscape(label), " ", n,
                          "</text>"));
      // The discs in a row after the label, closer together when many.
      const double first = x0 + label_w + r;
      const double last = (part == 0 ? half - s * 0.3 : width - left) - r;
      const double step = n > 1 ? std::min(2 * r + s * 0.06, (last - first) / (n - 1)) : 0;
      for (int k = 0; k < n; ++k) {
        Disc(&w, side, false, 1, first + k * step, row_y, r, part == 0 ? "waiting" : "off",
             absl::StrCat(SideName(side), part == 0 ? " piece waiting" : " piece borne off"));
      }
    }
    w.Close("</g>");
  }
  w.Line(absl::StrCat("<text x=\"", Num(width / 2), "\" y=\"", Num(top + board_h + frame + strip + s * 0.32),
                      "\" text-anchor=\"middle\" font-family=\"", kFont, "\" font-size=\"", Num(s * 0.24),
                      "\" fill=\"#3b2f1e\">", XmlEscape(caption), "</text>"));
  if (!legend.empty()) {
    w.Line(absl::StrCat("<text x=\"", Num(width / 2), "\" y=\"", Num(top + board_h + frame + strip + s * 0.64),
                        "\" text-anchor=\"middle\" font-family=\"", kFont, "\" font-size=\"", Num(s * 0.18),
                        "\" fill=\"#6b5a40\">", XmlEscape(legend), "</text>"));
  }
  w.Close("</svg>");
  return w.Take();
}

absl::StatusOr<std::string> SvgChanceGraph(const AnnotatedRecord& annotated, const ChanceGraphOptions& options) {
  if (!annotated.values) return absl::InvalidArgumentError("the record is not annotated with winning chances");
  const ValuesSummary& values = *annotated.values;
  const std::vector<double> chances = LightChances(annotated);
  const int plies = static_cast<int>(chances.size()) - 1;
  const double left = 56, right = 24, top = 44, bottom = 58;
  const double plot_w = std::max(320.0, static_cast<double>(std::max(1, options.ply_width)) * std::max(1, plies));
  const double plot_h = std::max(80, options.plot_height);
  const double width = left + plot_w + right;
  const double height = top + plot_h + bottom;
  auto x = [&](int ply) { return left + plot_w * ply / std::max(1, plies); };
  auto y = [&](double chance) { return top + plot_h * (1.0 - std::clamp(chance, 0.0, 1.0)); };
  const std::string kind = values.exact ? "exact" : "estimate";
  // The evaluator's name says whether its values are exact or an estimate.
  const std::string title = absl::StrCat("light's winning chance \xE2\x80\x94 ", values.evaluator);
  const std::string caption = options.caption.empty() ? title : options.caption;

  SvgWriter w;
  w.Line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
  w.Open(absl::StrCat("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"", Num(width),
                      "\" height=\"", Num(height), "\" viewBox=\"0 0 ", Num(width), " ", Num(height), "\">"));
  w.Line(absl::StrCat("<title>", XmlEscape(title), "</title>"));
  w.Line(absl::StrCat("<desc>", XmlEscape(absl::StrCat(
                                    "values ", kind, " from ", values.evaluator, "; ", plies, " actions; ",
                                    annotated.winner ? absl::StrCat(SideName(*annotated.winner), " won")
                                                     : std::string("unfinished"))),
                      "</desc>"));
  w.Line(absl::StrCat("<rect x=\"0\" y=\"0\" width=\"", Num(width), "\" height=\"", Num(height),
                      "\" fill=\"#f6f1e4\"/>"));
  w.Line(absl::StrCat("<text x=\"", Num(width / 2), "\" y=\"26\" text-anchor=\"middle\" font-family=\"", kFont,
                      "\" font-size=\"15\" fill=\"#3b2f1e\">", XmlEscape(caption), "</text>"));
  // The plot: light's half above 50%, dark's below.
  w.Line(absl::StrCat("<rect class=\"plot\" x=\"", Num(left), "\" y=\"", Num(top), "\" width=\"", Num(plot_w),
                      "\" height=\"", Num(plot_h), "\" fill=\"#fffdf7\" stroke=\"#9c7a45\" stroke-width=\"1\"/>"));
  w.Open("<g class=\"grid\">");
  for (int p = 0; p <= 100; p += 25) {
    const double gy = y(p / 100.0);
    if (p != 50) {
      w.Line(absl::StrCat("<line x1=\"", Num(left), "\" y1=\"", Num(gy), "\" x2=\"", Num(left + plot_w),
                          "\" y2=\"", Num(gy), "\" stroke=\"#e4d9bf\" stroke-width=\"1\"/>"));
    }
    w.Line(absl::StrCat("<text x=\"", Num(left - 6), "\" y=\"", Num(gy + 4), "\" text-anchor=\"end\" font-family=\"",
                        kFont, "\" font-size=\"11\" fill=\"#3b2f1e\">", p, "%</text>"));
  }
  // Ply ticks: at most about a dozen, on round numbers.
  int tick = 1;
  for (int step : {1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000}) {
    tick = step;
    if (plies / step <= 12) break;
  }
  for (int k = 0; k <= plies; k += tick) {
    w.Line(absl::StrCat("<text x=\"", Num(x(k)), "\" y=\"", Num(top + plot_h + 16),
                        "\" text-anchor=\"middle\" font-family=\"", kFont, "\" font-size=\"11\" fill=\"#3b2f1e\">", k,
                        "</text>"));
  }
  w.Line(absl::StrCat("<text x=\"", Num(left + plot_w / 2), "\" y=\"", Num(top + plot_h + 32),
                      "\" text-anchor=\"middle\" font-family=\"", kFont,
                      "\" font-size=\"11\" fill=\"#6b5a40\">actions played (ply)</text>"));
  w.Close("</g>");
  w.Line(absl::StrCat("<line class=\"even\" x1=\"", Num(left), "\" y1=\"", Num(y(0.5)), "\" x2=\"",
                      Num(left + plot_w), "\" y2=\"", Num(y(0.5)),
                      "\" stroke=\"#6b5a40\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>"));
  std::string points;
  for (int k = 0; k <= plies; ++k) {
    absl::StrAppend(&points, k == 0 ? "" : " ", Num(x(k)), ",", Num(y(chances[k])));
  }
  w.Line(absl::StrCat("<polyline class=\"chance\" points=\"", points, "\" fill=\"none\" stroke=\"", kFrame,
                      "\" stroke-width=\"2\" stroke-linejoin=\"round\"/>"));
  const double dot = std::clamp(options.ply_width * 0.22, 1.2, 3.0);
  for (int k = 0; k <= plies; ++k) {
    w.Open(absl::StrCat("<circle class=\"ply\" cx=\"", Num(x(k)), "\" cy=\"", Num(y(chances[k])), "\" r=\"",
                        Num(dot), "\" fill=\"", kFrame, "\">"));
    w.Line(absl::StrCat("<title>", k == 0 ? std::string("the start") : absl::StrCat("after ", k, " actions"),
                        ": light ", absl::StrFormat("%.1f", chances[k] * 100), "%</title>"));
    w.Close("</circle>");
  }
  // The marks, at the point after the marked move.
  for (const ActionAnnotation& an : annotated.actions) {
    if (!an.values || an.values->mark.empty() || !an.move) continue;
    const std::string& mark = an.values->mark;
    const char* name = mark == kMarkBlunder ? "blunder" : mark == kMarkMistake ? "mistake" : "doubtful";
    const char* colour = mark == kMarkBlunder ? "#c0201a" : mark == kMarkMistake ? "#e06c00" : "#d4a017";
    const int k = an.index + 1;
    const double mx = x(k), my = y(chances[k]);
    // Above the line for light's mistakes, below for dark's: towards the
    // side that lost.
    const double label_y = an.player == kLight ? my - 9 : my + 17;
    w.Open(absl::StrCat("<g class=\"mark ", name, " ", SideName(an.player), "\">"));
    std::string best;
    if (an.values->best) best = absl::StrCat(", best ", an.values->best->from, "-", an.values->best->to);
    w.Line(absl::StrCat("<title>", XmlEscape(absl::StrCat(
                                       "action ", an.index, ": ", SideName(an.player), " ", an.roll, ":",
                                       an.move->from, "-", an.move->to, " ", mark, " loses ",
                                       absl::StrFormat("%.1f", an.values->loss * 100), " points", best)),
                        "</title>"));
    w.Line(absl::StrCat("<circle cx=\"", Num(mx), "\" cy=\"", Num(my), "\" r=\"", Num(dot + 2.5),
                        "\" fill=\"none\" stroke=\"", colour, "\" stroke-width=\"2\"/>"));
    w.Line(absl::StrCat("<text x=\"", Num(mx), "\" y=\"", Num(label_y), "\" text-anchor=\"middle\" font-family=\"",
                        kFont, "\" font-size=\"11\" font-weight=\"bold\" fill=\"", colour, "\">", XmlEscape(mark),
                        "</text>"));
    w.Close("</g>");
  }
  // The legend.
  w.Line(absl::StrCat("<text x=\"", Num(left), "\" y=\"", Num(height - 8), "\" font-family=\"", kFont,
                      "\" font-size=\"11\" fill=\"#6b5a40\">",
                      XmlEscape(absl::StrCat("above 50%: light ahead; marks: ?! doubtful (loss \xE2\x89\xA5 ",
                                             Num(values.thresholds.doubtful * 100), "), ? mistake (\xE2\x89\xA5 ",
                                             Num(values.thresholds.mistake * 100), "), ?? blunder (\xE2\x89\xA5 ",
                                             Num(values.thresholds.blunder * 100), " points)")),
                      "</text>"));
  w.Close("</svg>");
  return w.Take();
}

}  // namespace scribe
