// What RoyalUr's two formats (RGN and RoyalUr JSON, records/rgn.h and
// records/royalur_json.h) share: RoyalUr's game settings and how they map to
// Scribe's rulesets (engine/royalur_settings.h, which its solved tables share
// too), the order RoyalUr's metadata is written in, and the annotations that
// keep RoyalUr's per-state data (times, state metadata) in a record's comments.
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
#include "engine/royalur_settings.h"
#include "engine/rules.h"
#include "google/protobuf/map.h"
#include "scribe/v1/ruleset.pb.h"

namespace scribe {

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
