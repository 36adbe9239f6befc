// CheckRuleset: the checks every ruleset must pass before it is played
// (docs/rulesets.md, "Errors"): the board, the paths, the dice, index
// lists, and squares that are safe for one piece and not for another.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "engine/board.h"
#include "engine/rules.h"
#include "engine/ruleset.h"

namespace scribe {
namespace {

void CheckIndexList(const google::protobuf::RepeatedField<int32_t>& list, absl::string_view field,
                    int lo, int hi, std::vector<FieldProblem>* out) {
  std::set<int> seen;
  for (int k = 0; k < list.size(); ++k) {
    const int v = list[k];
    const std::string where = absl::StrCat(field, "[", k, "]");
    if (v < lo || v > hi) {
      out->push_back({where, absl::StrCat(v, " is out of range: a path index from ", lo, " to ", hi)});
    } else if (!seen.insert(v).second) {
      out->push_back({where, absl::StrCat(v, " is listed twice")});
    }
  }
}

void CheckPath(const v1::Ruleset& r, const google::protobuf::RepeatedPtrField<std::string>& path,
               absl::string_view field, std::vector<FieldProblem>* out) {
  // The tile before, when it was on the board.
  bool has_prev = false;
  TileId prev{};
  for (int i = 0; i < path.size(); ++i) {
    const std::string where = absl::StrCat(field, "[", i, "]");
    const auto tile = ParseTileName(path[i]);
    if (!tile || !OnBoard(r.board(), *tile)) {
      out->push_back({where, absl::StrCat("\"", absl::CHexEscape(path[i]), "\" is not a tile of the ",
                                          BoardName(r.board()), " board")});
      has_prev = false;
      continue;
    }
    if (has_prev && !Adjacent(prev, *tile)) {
      out->push_back({where, absl::StrCat(TileName(*tile), " does not touch ", TileName(prev),
                                          ": a path steps only to a neighbouring tile")});
    }
    prev = *tile;
    has_prev = true;
  }
}

// The light and dark paths: their lengths, and each a walk over the
// board's tiles, one neighbour to the next.
void CheckPaths(const v1::Ruleset& r, std::vector<FieldProblem>* out) {
  const int len = r.path_size();
  if (len < 1 || len > kMaxPathLength) {
    out->push_back({"path", absl::StrCat("has ", len, " squares; a path has 1 to ", kMaxPathLength)});
  }
  CheckPath(r, r.path(), "path", out);
  bool mirrored = r.dark_path_size() == len;
  for (int i = 0; mirrored && i < len; ++i) {
    const auto light = ParseTileName(r.path(i));
    mirrored = light && r.dark_path(i) == TileName(MirrorTile(*light));
  }
  if (r.dark_path_size() != len) {
    out->push_back({"dark_path", absl::StrCat("has ", r.dark_path_size(),
                                              " squares but light's path has ", len)});
  }
  // A mirrored dark path has the light path's problems; say them once.
  if (!mirrored) CheckPath(r, r.dark_path(), "dark_path", out);
}

// The dice: how many, and the throw for each count of marks; *rolls gets
// the set of throws they can give (bit v for a throw of v). True when some
// throw moves a piece.
bool CheckDice(const v1::Dice& dice, uint32_t* rolls, std::vector<FieldProblem>* out) {
  bool dice_ok = false;
  if (dice.count() < 1 || dice.count() > kMaxDice) {
    out->push_back({"dice.count", absl::StrCat(dice.count(), " is out of range: 1 to ", kMaxDice)});
  } else if (dice.roll_for_marks_size() != dice.count() + 1) {
    out->push_back({"dice.roll_for_marks",
                    absl::StrCat("has ", dice.roll_for_marks_size(), " entries; ", dice.count(),
                                 " dice need ", dice.count() + 1, " (one for 0 to ", dice.count(),
                                 " marks)")});
  } else {
    for (int k = 0; k < dice.roll_for_marks_size(); ++k) {
      const int v = dice.roll_for_marks(k);
      if (v < 0 || v > kMaxRoll) {
        out->push_back({absl::StrCat("dice.roll_for_marks[", k, "]"),
                        absl::StrCat(v, " is out of range: a throw is 0 to ", kMaxRoll)});
      } else {
        *rolls |= 1u << v;
      }
    }
    dice_ok = *rolls != 0;
    if ((*rolls & ~1u) == 0) {
      out->push_back({"dice.roll_for_marks", "no throw ever moves a piece"});
      dice_ok = false;
    }
  }
  return dice_ok;
}

// Contradictions: one square that is safe for one piece and not for
// another would make "can this piece be captured" depend on who asks.
void CheckContradictions(const v1::Ruleset& r, std::vector<FieldProblem>* out) {
  const int len = r.path_size();
  const Rules probe(r, "");
  std::set<int> reported_tiles;  // one problem per tile, not per pair of indices
  auto contradiction = [&](Side s, int i, Side t, int j) {
    if (!reported_tiles.insert(probe.tile[s][i]).second) return;
    out->push_back({"safe_squares",
                    absl::StrCat("tile ", probe.TileNameAt(s, i), " is index ", i, " of ",
                                 SideName(s), "'s path and index ", j, " of ", SideName(t),
                                 "'s path, but only one of them is safe")});
  };
  for (int i = 1; i <= len; ++i) {
    for (int j = 1; j <= len; ++j) {
      if (probe.IsSafe(i) == probe.IsSafe(j)) continue;
      if ((probe.opp_overlap[kLight][i] >> j) & 1u) contradiction(kLight, i, kDark, j);
      for (Side s : {kLight, kDark}) {
        if (j > i && ((probe.own_overlap[s][i] >> j) & 1u)) contradiction(s, i, s, j);
      }
    }
  }
}

}  // namespace

std::vector<FieldProblem> CheckRuleset(const v1::Ruleset& r) {
  std::vector<FieldProblem> out;
  if (r.board() != v1::BOARD_UR && r.board() != v1::BOARD_EGYPTIAN) {
    out.push_back({"board", "must be BOARD_UR or BOARD_EGYPTIAN"});
    return out;
  }
  const int len = r.path_size();
  CheckPaths(r, &out);
  const bool tiles_ok = out.empty();
  if (r.pieces() < 1 || r.pieces() > kMaxPieces) {
    out.push_back({"pieces", absl::StrCat(r.pieces(), " is out of range: 1 to ", kMaxPieces)});
  }
  const v1::Dice& dice = r.dice();
  uint32_t rolls = 0;
  const bool dice_ok = CheckDice(dice, &rolls, &out);
  const bool path_ok = len >= 1 && len <= kMaxPathLength;
  if (!path_ok) return out;  // the index checks below need a path length

  int max_roll = 0;
  for (int v : dice.roll_for_marks()) max_roll = std::max(max_roll, v);
  if (dice_ok && max_roll > len) {
    out.push_back({"path", absl::StrCat("has ", len, " squares, fewer than the largest throw (",
                                        max_roll, ")")});
  }
  CheckIndexList(r.extra_roll_squares(), "extra_roll_squares", 1, len, &out);
  CheckIndexList(r.safe_squares(), "safe_squares", 1, len, &out);
  CheckIndexList(r.auto_place_squares(), "auto_place_squares", 1, len, &out);
  CheckIndexList(r.phase_starts(), "phase_starts", 2, len, &out);
  for (int k = 0; dice_ok && k < r.entry_rolls_size(); ++k) {
    const int v = r.entry_rolls(k);
    if (v <= 0 || v > kMaxRoll || !((rolls >> v) & 1u)) {
      out.push_back({absl::StrCat("entry_rolls[", k, "]"),
                     absl::StrCat(v, " is not a non-zero throw these dice can give")});
    }
  }
  if (r.auto_place_to() < 1 || r.auto_place_to() > len) {
    out.push_back({"auto_place_to", absl::StrCat(r.auto_place_to(),
                                                 " is out of range: a path index from 1 to ", len)});
  }
  if (r.bear_off() == v1::BEAR_OFF_STACK_FROM_LAST) {
    const int v = r.bear_off_roll();
    if (dice_ok && (v <= 0 || v > kMaxRoll || !((rolls >> v) & 1u))) {
      out.push_back({"bear_off_roll", absl::StrCat(v, " is not a non-zero throw these dice can give")});
    }
  } else if (r.bear_off() == v1::BEAR_OFF_EXACT) {
    if (r.bear_off_roll() != 0) {
      out.push_back({"bear_off_roll", "must be 0 (unset) with bear_off: BEAR_OFF_EXACT; it is the throw "
                                      "that bears off with BEAR_OFF_STACK_FROM_LAST"});
    }
  } else {
    out.push_back({"bear_off", "must be BEAR_OFF_EXACT or BEAR_OFF_STACK_FROM_LAST"});
  }
  if (r.opening() != v1::OPENING_AGREED && r.opening() != v1::OPENING_THROW_OFF) {
    out.push_back({"opening", "must be OPENING_AGREED or OPENING_THROW_OFF"});
  }
  // The contradiction check builds the tables, which needs every part sound.
  if (!out.empty() || !tiles_ok || !dice_ok) return out;

  CheckContradictions(r, &out);
  return out;
}

}  // namespace scribe
