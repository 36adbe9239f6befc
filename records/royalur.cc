#include "records/royalur.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "engine/board.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"

namespace scribe {

std::vector<std::pair<std::string, std::string>> RoyalUrTagOrder(
    const google::protobuf::Map<std::string, std::string>& tags) {
  static const char* const kKnown[] = {"Light", "Dark", "StartTime", "EndTime", "TimeControl"};
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* name : kKnown) {
    auto it = tags.find(name);
    if (it != tags.end()) out.emplace_back(it->first, it->second);
  }
  std::map<std::string, std::string> rest;
  for (const auto& entry : tags) {
    // (No structured binding: clang 14 cannot capture one in a lambda.)
    const std::string& name = entry.first;
    if (std::find_if(std::begin(kKnown), std::end(kKnown), [&name](const char* k) { return name == k; }) ==
        std::end(kKnown)) {
      rest.emplace(name, entry.second);
    }
  }
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

RoyalUrNotes ParseRoyalUrNotes(absl::string_view comment) {
  RoyalUrNotes notes;
  // The comment's text and the annotations kept in it, in order.
  std::vector<absl::string_view> kept;
  bool any_taken = false;
  size_t i = 0;
  while (i < comment.size()) {
    const size_t open = comment.find("[%", i);
    const size_t close = open == absl::string_view::npos ? open : comment.find(']', open);
    if (close == absl::string_view::npos) {
      kept.push_back(comment.substr(i));
      break;
    }
    const absl::string_view body = comment.substr(open + 2, close - open - 2);
    const size_t space = body.find(' ');
    const absl::string_view key = body.substr(0, space);
    const absl::string_view value =
        space == absl::string_view::npos ? absl::string_view() : absl::StripAsciiWhitespace(body.substr(space + 1));
    bool taken = false;
    int64_t n = 0;
    if (key == "time" && absl::SimpleAtoi(value, &n)) {
      notes.time = n;
      taken = true;
    } else if (key == "end-time" && absl::SimpleAtoi(value, &n)) {
      notes.end_time = n;
      taken = true;
    } else if (key == "metadata") {
      const nlohmann::json j = nlohmann::json::parse(value.begin(), value.end(), nullptr, false);
      if (j.is_object() && std::all_of(j.begin(), j.end(), [](const nlohmann::json& v) { return v.is_string(); })) {
        // nlohmann's objects iterate sorted; the order does not matter.
        for (const auto& item : j.items()) notes.metadata.emplace_back(item.key(), item.value().get<std::string>());
        taken = true;
      }
    }
    kept.push_back(comment.substr(i, open - i));
    if (!taken) kept.push_back(comment.substr(open, close + 1 - open));
    any_taken = any_taken || taken;
    i = close + 1;
  }
  if (!any_taken) {
    notes.other = std::string(absl::StripAsciiWhitespace(comment));
    return notes;
  }
  std::vector<absl::string_view> parts;
  for (absl::string_view part : kept) {
    part = absl::StripAsciiWhitespace(part);
    if (!part.empty()) parts.push_back(part);
  }
  notes.other = absl::StrJoin(parts, " ");
  return notes;
}

std::string FormatRoyalUrNotes(const RoyalUrNotes& notes) {
  std::vector<std::string> parts;
  if (notes.time != 0) parts.push_back(absl::StrCat("[%time ", notes.time, "]"));
  if (notes.end_time) parts.push_back(absl::StrCat("[%end-time ", *notes.end_time, "]"));
  if (!notes.metadata.empty()) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [key, value] : notes.metadata) j[key] = value;
    // An annotation ends at the first ']': write any inside the strings
    // as \u005d.
    parts.push_back(absl::StrCat(
        "[%metadata ",
        absl::StrReplaceAll(j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace),
                            {{"]", "\\u005d"}}),
        "]"));
  }
  return absl::StrJoin(parts, " ");
}

}  // namespace scribe
