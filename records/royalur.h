// What RoyalUr's two formats (RGN and RoyalUr JSON, records/rgn.h and
// records/royalur_json.h) share: RoyalUr's game settings and how they map to
// Scribe's rulesets, RoyalUr's presets, the order RoyalUr's metadata is
// written in, and the annotations that keep RoyalUr's per-state data (times,
// state metadata) in a record's comments.
#ifndef SCRIBE_RECORDS_ROYALUR_H_
#define SCRIBE_RECORDS_ROYALUR_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/rules.h"
#include "google/protobuf/map.h"
#include "scribe/v1/ruleset.pb.h"

namespace scribe {

// RoyalUr's game settings, as RoyalUr JSON's "settings" writes them.
struct RoyalUrSettings {
  std::string board_shape;  // "standard" | "aseb"
  std::string paths;        // "bell" | "masters" | "murray" | "skiriuk" | "aseb"
  std::string dice;         // "four_binary" | "three_binary_0eq4"
  int start_pieces = 0;
  bool safe_rosettes = false;
  bool rosettes_grant_rolls = false;
  bool captures_grant_rolls = false;
};

// The rules the settings play, as a resolved ruleset (no id); an
// INVALID_ARGUMENT error says which setting Scribe cannot play.
absl::StatusOr<v1::Ruleset> RulesetFromRoyalUrSettings(const RoyalUrSettings& settings);

// A ruleset reference that resolves to the settings' rules: a preset when
// one has the same digest (e.g. "sawah-tablet" for RoyalUr's Aseb), else
// the preset of the settings' path with overrides, e.g. "finkel(pieces=5)".
absl::StatusOr<std::string> RulesetReferenceForRoyalUrSettings(const RoyalUrSettings& settings);

// The settings that play exactly `rules` (same digest); INVALID_ARGUMENT,
// saying what RoyalUr lacks, when there are none.
absl::StatusOr<RoyalUrSettings> RoyalUrSettingsForRules(const Rules& rules);

// RoyalUr's presets, which RGN (naming no ruleset) is limited to: the name
// RoyalUr gives `rules` ("finkel", "masters", "blitz", "aseb") when they are
// one of them by digest.
std::optional<std::string> RoyalUrPresetName(const Rules& rules);
// "finkel, masters, blitz and aseb, which is sawah-tablet", for messages.
std::string RoyalUrPresetList();

// Tags in the order RoyalUr writes its metadata: Light, Dark, StartTime,
// EndTime, TimeControl, then the rest sorted. (RoyalUr itself keeps its
// metadata in a hash map, so its order varies from file to file.)
std::vector<std::pair<std::string, std::string>> RoyalUrTagOrder(
    const google::protobuf::Map<std::string, std::string>& tags);

// RoyalUr's per-state data, kept in comments as annotations:
//   [%time 1200]            the state's time (ms since the game started), when not 0
//   [%end-time 1500]        the time of the state that ends the game (win,
//                           resignation), when not the last action's
//   [%metadata {"k":"v"}]   the state's own metadata, as a JSON object
struct RoyalUrNotes {
  int64_t time = 0;
  std::optional<int64_t> end_time;
  std::vector<std::pair<std::string, std::string>> metadata;
  // Whatever else the comment says (text, other annotations).
  std::string other;
};

RoyalUrNotes ParseRoyalUrNotes(absl::string_view comment);
// The annotations for `notes` (not `other`), space-separated; "" when none.
std::string FormatRoyalUrNotes(const RoyalUrNotes& notes);

}  // namespace scribe

#endif  // SCRIBE_RECORDS_ROYALUR_H_
