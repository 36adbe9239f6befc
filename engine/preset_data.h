// The preset ruleset files (engine/presets/*.textproto), compiled in.
#ifndef SCRIBE_ENGINE_PRESET_DATA_H_
#define SCRIBE_ENGINE_PRESET_DATA_H_

#include <string>
#include <vector>

namespace scribe {

struct PresetText {
  std::string file_id;  // the file name without extension
  std::string text;     // protobuf text format
};

const std::vector<PresetText>& PresetTexts();

}  // namespace scribe

#endif  // SCRIBE_ENGINE_PRESET_DATA_H_
