// How deep a JSON text nests, for the JSON readers (ours and RoyalUr's):
// records nest a few levels deep, and anything deeper is refused before a
// recursive parser or printer could exhaust the stack.
#ifndef SCRIBE_RECORDS_JSON_DEPTH_H_
#define SCRIBE_RECORDS_JSON_DEPTH_H_

#include <cstddef>

#include "absl/strings/string_view.h"

namespace scribe {

inline constexpr int kMaxJsonDepth = 32;

// The depth of the deepest nesting of [ and { outside strings; `deep_at`
// is set to where it first passes kMaxJsonDepth (left alone when it never
// does).
inline int JsonDepth(absl::string_view text, size_t* deep_at) {
  int depth = 0, max_depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        max_depth = depth;
        if (depth == kMaxJsonDepth + 1) *deep_at = i;
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

}  // namespace scribe

#endif  // SCRIBE_RECORDS_JSON_DEPTH_H_
