// A stored game's bytes (games/store.h GameRow::identity and ::extra), and
// the decision of what is the same game.
//
// identity: the game itself, everything that decides its course:
//   u8 version (2; 1 in a database that keeps version 1, below)
//   u8 start          0: the rules' start with light to move, 1: with dark
//                     to move, 2: the position string (docs/notation.md)
//                     follows, as a string
//   varint rounds, then per round varint light, varint dark   the throw-off
//   varint actions, then the actions:
//   version 2: one number in mixed radix, least significant digit first,
//                     two digits an action: the throw's place among the
//                     throws the dice can give (radix: how many they can
//                     give; 5 for four binary dice), then the move's place
//                     among the throw's legal moves (LegalMoves order, by
//                     `from`; radix: how many there are, so no digit for a
//                     throw with one move or none, where none means the
//                     throw passed). Cut into 64-bit chunks, each written
//                     as 8 bytes low first: a chunk ends before the digit
//                     that would make its range overflow 64 bits; the last
//                     chunk is written without its high zero bytes. About
//                     4 bits an action: a finkel game of 150 actions is
//                     about 80 bytes.
//   version 1: per action one byte: throw << 4 | c, where c is 0
//                     for a throw with no move, 1..14 for the (c-1)th legal
//                     move of the throw, and
//                     15 followed by varint k for the kth (never for 7
//                     pieces; 15 pieces on many squares can need it): about
//                     155 bytes a finkel game.
// (string: varint length, bytes; varint: 7 bits a byte, low first.) A
// database keeps the version it was made with (Store setting "identity":
// schema migrations set it to 1 where games were stored before version 2
// existed, so that the same game is the same bytes in it); both are read.
//
// extra: what a record carries besides its course, for export: the ruleset
// reference as written, its digest field (a byte when it is empty or the
// rules' digest), the first-player field, the start
// position as written, the record's comment, every tag, every action's
// comment. Export rebuilds the record from both and writes it again.
//
// The same game: two legal records are one game when they have the same
// ruleset digest and the same identity, byte for byte (the same start,
// throw-off, throws and moves). Tags, comments and the format read do not
// count: the same game from a TSN file and a RoyalUr JSON file is one game
// with two sources. The FNV-1a 64 hash of digest and identity only finds
// the candidates; equality of the bytes decides.
#ifndef SCRIBE_GAMES_GAME_CODEC_H_
#define SCRIBE_GAMES_GAME_CODEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engine/types.h"
#include "records/judged.h"
#include "scribe/v1/record.pb.h"

namespace scribe::games {

// The tags a stored game keeps as columns of its own (store.h GameRow):
// Light, Dark, Event, and Date made ISO (IsoDate). A tag equal to its
// column is not written again in `extra` (a flag says so).
inline constexpr int kIdentityV1 = 1;
inline constexpr int kIdentityV2 = 2;

struct TagColumns {
  std::string light, dark, event, date;
};
TagColumns ColumnsOf(const v1::GameRecord& record);

struct EncodedGame {
  std::string identity;
  std::string extra;
  TagColumns columns;
};

// One action of a game.
struct PlayedAction {
  int roll = 0;
  bool moved = false;
  Move move;
};

// The bytes of a legal judged record whose verdict kept its positions
// (RefereeOptions::keep_positions). INVALID_ARGUMENT for anything else.
// With `actions`, also each action's throw and move, as ReplayIdentity
// would give them.
// `version`: kIdentityV2, or kIdentityV1 for a database that keeps that form.
absl::StatusOr<EncodedGame> EncodeGame(const JudgedRecord& judged, std::vector<PlayedAction>* actions = nullptr,
                                       int version = kIdentityV2);

// A game replayed from its identity: the positions (the start, then the
// one after each action) and the actions.
struct ReplayedGame {
  std::vector<Position> positions;
  std::vector<PlayedAction> actions;
  std::vector<std::pair<int, int>> opening;  // throw-off rounds (light, dark)
  std::optional<Side> winner;
  // Replayed only up to a position and the action from it (ReplayIdentity's
  // `until`): the rest of the bytes unread, `winner` unset.
  bool partial = false;
};

// DATA_LOSS when the bytes are not a game of these rules (a database
// altered by hand, or a bug): never a crash. With `until`, stops once the
// game has reached that position and the action from it is read (a game
// replayed for the ply it reached a position at: the explorer's and the
// position search's); the bytes after them are then not checked.
absl::StatusOr<ReplayedGame> ReplayIdentity(const Rules& rules, absl::string_view identity,
                                            const Position* until = nullptr);

// The record back: the course from `identity`, the rest from `extra` and
// the game's tag columns.
absl::StatusOr<v1::GameRecord> DecodeGame(const Rules& rules, absl::string_view identity, absl::string_view extra,
                                          const TagColumns& columns);

// FNV-1a 64 of the bytes, continuing from `hash`.
inline constexpr uint64_t kFnvOffset = 14695981039346656037ull;
uint64_t Fnv1a64(absl::string_view bytes, uint64_t hash = kFnvOffset);

// The hash a GameRow keeps: FNV-1a 64 of the digest, a 0 byte, the identity.
uint64_t IdentityHash(absl::string_view digest, absl::string_view identity);

// "2026-03-01" from a Date tag written 2026-03-01 or 2026.03.01 (PGN's
// form; "??" parts kept as they are); any other text as it is.
std::string IsoDate(absl::string_view date);

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_GAME_CODEC_H_
