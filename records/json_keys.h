// Keys given twice in one JSON object, for the JSON readers (ours and
// RoyalUr's): a parser keeps one of the values and drops the other without
// a word, so a reader reports the second key instead
// (codes::kJsonDuplicateKey).
#ifndef SCRIBE_RECORDS_JSON_KEYS_H_
#define SCRIBE_RECORDS_JSON_KEYS_H_

#include <nlohmann/json.hpp>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace scribe {

struct JsonDuplicateKey {
  size_t offset = 0;  // where the second key's opening quote stands
  std::string key;    // the key, its escapes decoded
  int entry = 0;      // the element of the top-level array holding it (0 when the top is not an array)
};

// A reader's message for a key given twice.
inline std::string DuplicateKeyMessage(absl::string_view key) {
  std::string shown;
  for (const char c : key) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) shown += '?';
    else shown += c;
  }
  return "the key \"" + shown + "\" is given twice in one object (a reader would keep one of its values and drop the other)";
}

// The first key given twice in one object, for each top-level entry that
// has one, in order. Run on text the parser accepted (valid JSON, nested at
// most kMaxJsonDepth deep); keys compare after their escapes are decoded
// ("a" and "\u0061" are the same key).
inline std::vector<JsonDuplicateKey> FindJsonDuplicateKeys(absl::string_view text) {
  struct Frame {
    bool object = false;
    bool expect_key = false;
    std::set<std::string> keys;
  };
  std::vector<JsonDuplicateKey> out;
  std::vector<Frame> stack;
  bool root_array = false;
  int entry = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      size_t end = i + 1;
      bool escaped = false;
      while (end < text.size() && text[end] != '"') {
        if (text[end] == '\\') {
          escaped = true;
          ++end;
        }
        ++end;
      }
      if (!stack.empty() && stack.back().object && stack.back().expect_key) {
        stack.back().expect_key = false;
        std::string key(text.substr(i + 1, end - i - 1));
        if (escaped) {
          try {
            key = nlohmann::json::parse(text.substr(i, end - i + 1)).get<std::string>();
          } catch (const nlohmann::json::exception&) {
            // Not reached on text the parser accepted; compare as written.
          }
        }
        if (!stack.back().keys.insert(key).second && (out.empty() || out.back().entry != entry)) {
          out.push_back({i, std::move(key), entry});
        }
      }
      i = end;
    } else if (c == '{' || c == '[') {
      if (stack.empty() && c == '[') root_array = true;
      stack.push_back({c == '{', c == '{', {}});
    } else if (c == '}' || c == ']') {
      if (!stack.empty()) stack.pop_back();
    } else if (c == ',') {
      if (!stack.empty() && stack.back().object) stack.back().expect_key = true;
      if (root_array && stack.size() == 1) ++entry;
    }
  }
  return out;
}

}  // namespace scribe

#endif  // SCRIBE_RECORDS_JSON_KEYS_H_
