#include "cli/common.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"

namespace scribe {

// Files larger than this are refused rather than read into memory.
constexpr std::streamoff kMaxFileBytes = 512ll * 1024 * 1024;

bool ReadFile(const std::string& path, std::string* out, std::string* error) {
  if (path == "-") {
    out->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *error = absl::StrCat(path, ": is a directory");
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = absl::StrCat(path, ": cannot open: ", std::strerror(errno));
    return false;
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) {
    *error = absl::StrCat(path, ": cannot read (not a regular file?)");
    return false;
  }
  if (size > kMaxFileBytes) {
    *error = absl::StrCat(path, ": ", size, " bytes is more than the ", kMaxFileBytes, " allowed");
    return false;
  }
  in.seekg(0, std::ios::beg);
  out->resize(static_cast<size_t>(size));
  in.read(out->data(), size);
  if (!in) {
    *error = absl::StrCat(path, ": read failed");
    return false;
  }
  return true;
}

bool ReadRecordFile(const std::string& path, std::string* text) {
  std::string error;
  if (ReadFile(path, text, &error)) return true;
  std::cerr << "scribe: " << error << "\n";
  return false;
}

bool IsReadableFile(const std::string& path) {
  std::ifstream in(path);
  return static_cast<bool>(in);
}

bool ExpandPaths(const std::vector<std::string>& paths, std::vector<std::string>* out) {
  bool ok = true;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path != "-" && std::filesystem::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
           !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const std::string ext = it->path().extension().string();
        if (ext == ".tsn" || ext == ".json" || ext == ".rgn") found.push_back(it->path().string());
      }
      if (ec) {
        std::cerr << "scribe: " << path << ": " << ec.message() << "\n";
        ok = false;
      }
      std::sort(found.begin(), found.end());
      out->insert(out->end(), found.begin(), found.end());
    } else {
      out->push_back(path);
    }
  }
  return ok;
}

Format InputFormat(const std::string& from, const std::string& path, absl::string_view text) {
  if (!from.empty()) return *FormatFromName(from);
  return DetectFormat(path, text);
}

// --ruleset: a ruleset file when such a file exists, else a reference.
absl::StatusOr<std::shared_ptr<const Rules>> CliRuleset(const std::string& ref) {
  if (ref.find('(') == std::string::npos && IsReadableFile(ref)) {
    std::string text, error;
    if (!ReadFile(ref, &text, &error)) return absl::InvalidArgumentError(error);
    auto rules = LoadRulesetText(text);
    if (!rules.ok()) {
      return absl::Status(rules.status().code(),
                          absl::StrCat(ref, ": ", rules.status().message()));
    }
    return rules;
  }
  return LoadRuleset(ref);
}

absl::StatusOr<RecordIo> ReaderOptions(const std::string& ruleset_ref, bool tile_names) {
  RecordIo io;
  io.tile_names = tile_names;
  if (ruleset_ref.empty()) return io;
  SCRIBE_ASSIGN_OR_RETURN(io.rules, CliRuleset(ruleset_ref));
  io.ruleset = RulesetReference(*io.rules, ruleset_ref);
  return io;
}

int RulesetError(const absl::Status& status) {
  std::cerr << "scribe: ruleset: " << status.message() << "\n";
  return kExitUsage;
}

}  // namespace scribe
