// RoyalUr's game settings (its board shape, paths, dice, pieces and three
// rules flags) and how they map to Scribe's rulesets, both ways; RoyalUr's
// presets. Its record formats (records/royalur.h) and its solved tables
// (analysis/rgu.h) carry these settings. Nothing here reads files.
#ifndef SCRIBE_ENGINE_ROYALUR_SETTINGS_H_
#define SCRIBE_ENGINE_ROYALUR_SETTINGS_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "engine/rules.h"
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

}  // namespace scribe

#endif  // SCRIBE_ENGINE_ROYALUR_SETTINGS_H_
