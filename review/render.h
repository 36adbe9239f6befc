// Pictures of a position: a text board for the terminal and an SVG picture
// of the real board (docs/annotation.md shows both); and a graph of the
// winning chances over an annotated game.
//
// Both draw the board of the rules (engine/board.h) with lanes as rows, A
// (light's own lane) on top, B in the middle, C (dark's own lane) below,
// and positions 1.. from left to right, as the tiles are named. The Ur
// board has no tiles at positions 5-6 of lanes A and C; the Egyptian board's
// lanes A and C stop at position 4.
//
// Text board (finkel: light on A3 and on the central rosette B4, dark on
// B6 and two borne off):
//
//       1   2   3   4   5   6   7   8
//     +---+---+---+---+       +---+---+
//   A | * |   | L |   |       | * |   |   light  waiting 5  off 0
//     +---+---+---+---+---+---+---+---+
//   B |   |   |   |*L*|   | D |   |   |
//     +---+---+---+---+---+---+---+---+
//   C | * |   |   |   |       | * |   |   dark   waiting 4  off 2
//     +---+---+---+---+       +---+---+
//   dark to throw
//
// A marked tile (rosette) shows '*', or its pieces between '*'s. Pieces are
// L (light) and D (dark), with their count before the letter when several
// stand together ("3L"); in rulesets with phases (turnover), a piece turned
// over for the way down is written in lower case (l, d), so a tile can
// show "L2d".
#ifndef SCRIBE_REVIEW_RENDER_H_
#define SCRIBE_REVIEW_RENDER_H_

#include <string>

#include "absl/status/statusor.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "review/annotate.h"

namespace scribe {

// The text board, every line ending in '\n'.
std::string TextBoard(const Rules& rules, const Position& pos);

struct SvgOptions {
  // A caption under the board; empty for "<ruleset> - <side> to throw".
  std::string caption;
  // The side of one square, in SVG user units (pixels).
  int square = 64;
};

// A standalone SVG 1.1 document of the position: the board's squares on a
// lapis frame, eight-petal rosettes on the marked tiles, pieces as light and
// dark discs (a stack shows its count; a turned-over piece shows five dots,
// as the real pieces do), each side's waiting and borne-off pieces in a row
// beside its own lane (light above the board, dark below).
//
// Elements carry classes a program can count: "tile", "rosette", and
// "piece light|dark board|waiting|off" (a board disc's <text class="count">
// holds its count when more than one).
std::string SvgBoard(const Rules& rules, const Position& pos, const SvgOptions& options = {});

struct ChanceGraphOptions {
  // A title over the graph; empty for "light's winning chance - <evaluator>
  // (exact|estimate)". The evaluator and its exactness are always in the
  // document's <title>, whatever the caption.
  std::string caption;
  // Horizontal room per ply, in SVG user units (the plot is at least 320
  // wide), and the plot's height.
  int ply_width = 10;
  int plot_height = 240;
};

// A standalone SVG 1.1 graph of light's winning chance over a record
// annotated with winning chances (AnnotateWithValues): one point per ply
// (the start, then after each action: LightChances), joined by a line, a
// 50% line, and a mark ("?!", "?", "??") at the point after each marked
// move, coloured by the mark. INVALID_ARGUMENT without winning chances.
//
// Classes for programs: "chance" (the <polyline>), "ply" (one <circle> per
// point, its <title> "after N actions: light 51.9%"), "even" (the 50%
// line), "mark doubtful|mistake|blunder light|dark" (one <g> per marked
// move).
absl::StatusOr<std::string> SvgChanceGraph(const AnnotatedRecord& annotated, const ChanceGraphOptions& options = {});

}  // namespace scribe

#endif  // SCRIBE_REVIEW_RENDER_H_
