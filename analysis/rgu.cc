#include "analysis/rgu.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/mapped_file.h"
#include "engine/royalur_settings.h"
#include "engine/ruleset.h"
#include "engine/status_macros.h"

namespace scribe {
namespace {

using Json = nlohmann::ordered_json;

constexpr uint8_t kRguVersion = 0;
constexpr uint32_t kMaxMetadata = 1 << 20;
constexpr int kMaxJsonDepth = 64;
constexpr uint32_t kMaxMaps = 64;  // RoyalUr's trainer's limit

uint32_t Be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
uint16_t Be16(const unsigned char* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }

// Deeper nesting than any metadata needs (the JSON parser recurses).
struct Metadata {
  RoyalUrSettings settings;
  std::string value_type = "percent16";
  Json json;
};

// The metadata's settings; an error says what is wrong with it.
absl::StatusOr<Metadata> ParseMetadata(absl::string_view text) {
  const auto bad = [](absl::string_view why) { return absl::InvalidArgumentError(why); };
  Metadata m;
  // The parser reports each value's depth: deeper than any metadata is
  // refused as it is met.
  struct TooDeep {};
  try {
    m.json = Json::parse(text.begin(), text.end(), [](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxJsonDepth) throw TooDeep();
      return true;
    });
  } catch (const TooDeep&) {
    return bad(absl::StrCat("metadata nests deeper than ", kMaxJsonDepth, " levels"));
  } catch (const Json::exception& e) {
    return bad(absl::StrCat("metadata is not JSON (", e.what(), ")"));
  }
  if (!m.json.is_object()) return bad("metadata is not a JSON object");
  if (m.json.contains("value_type")) {
    if (!m.json["value_type"].is_string()) return bad("metadata: value_type is not a string");
    m.value_type = m.json["value_type"].get<std::string>();
  }
  if (m.value_type != "percent16") {
    return bad(absl::StrCat("value_type \"", absl::CHexEscape(m.value_type), "\": Scribe reads percent16 tables only"));
  }
  if (!m.json.contains("game_settings") || !m.json["game_settings"].is_object()) {
    return bad("metadata has no game_settings object");
  }
  const Json& g = m.json["game_settings"];
  const auto text_field = [&](const char* key, std::string* out) -> absl::Status {
    if (!g.contains(key) || !g[key].is_string()) return bad(absl::StrCat("game_settings.", key, ": missing or not a string"));
    *out = g[key].get<std::string>();
    return absl::OkStatus();
  };
  const auto bool_field = [&](const char* key, bool* out) -> absl::Status {
    if (!g.contains(key) || !g[key].is_boolean()) return bad(absl::StrCat("game_settings.", key, ": missing or not true/false"));
    *out = g[key].get<bool>();
    return absl::OkStatus();
  };
  RoyalUrSettings& s = m.settings;
  SCRIBE_RETURN_IF_ERROR(text_field("board_shape", &s.board_shape));
  SCRIBE_RETURN_IF_ERROR(text_field("paths", &s.paths));
  SCRIBE_RETURN_IF_ERROR(text_field("dice", &s.dice));
  if (!g.contains("start_pieces") || !g["start_pieces"].is_number_integer()) {
    return bad("game_settings.start_pieces: missing or not a whole number");
  }
  const int64_t pieces = g["start_pieces"].get<int64_t>();
  if (pieces < 1 || pieces > 7) return bad(absl::StrCat("game_settings.start_pieces ", pieces, ": RoyalUr's tables hold 1 to 7"));
  s.start_pieces = static_cast<int>(pieces);
  SCRIBE_RETURN_IF_ERROR(bool_field("safe_rosettes", &s.safe_rosettes));
  SCRIBE_RETURN_IF_ERROR(bool_field("rosettes_grant_rolls", &s.rosettes_grant_rolls));
  SCRIBE_RETURN_IF_ERROR(bool_field("captures_grant_rolls", &s.captures_grant_rolls));
  return m;
}

double NumberOr(const Json& j, const char* key, double fallback) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

std::string SettingsText(const RoyalUrSettings& s) {
  return absl::StrFormat("%s board, %s paths, %s dice, %d pieces, rosettes %s%s, captures %s", s.board_shape, s.paths,
                         s.dice, s.start_pieces, s.safe_rosettes ? "safe" : "not safe",
                         s.rosettes_grant_rolls ? " and give a throw" : "",
                         s.captures_grant_rolls ? "give a throw" : "give no throw");
}

// The rules of RoyalUr's settings, and in *reference_out the reference that
// names them; an error says why there are none.
absl::StatusOr<std::shared_ptr<const Rules>> RulesOfSettings(const RoyalUrSettings& settings,
                                                             std::string* reference_out) {
  auto reference = RulesetReferenceForRoyalUrSettings(settings);
  if (!reference.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("its settings (", SettingsText(settings), "): ", reference.status().message()));
  }
  auto rules = LoadRuleset(*reference);
  if (!rules.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("its settings' rules do not load: ", rules.status().message()));
  }
  // A preset with only its piece count changed is the clearer name
  // ("blitz(pieces=2)", not masters with three overrides).
  if (reference->find('(') != std::string::npos) {
    for (const PresetInfo& preset : Presets()) {
      const std::string name = absl::StrCat(preset.id, "(pieces=", settings.start_pieces, ")");
      auto other = LoadRuleset(name);
      if (other.ok() && (*other)->digest == (*rules)->digest) {
        *reference = name;
        rules = std::move(other);
        break;
      }
    }
  }
  *reference_out = *std::move(reference);
  return rules;
}

// What the metadata says of a table: where it came from, its tolerance and
// solve time (Scribe's keys, else RoyalUr's training precision), and notes
// with the settings and the keys.
void DescribeFromMetadata(const Metadata& meta, const RoyalUrKeys& keys, TableInfo* info) {
  const std::string source = meta.json.contains("scribe-source") && meta.json["scribe-source"].is_string()
                                 ? meta.json["scribe-source"].get<std::string>()
                                 : "";
  info->source = source == "solved" ? TableSource::kSolved : TableSource::kRoyalUr;
  info->tolerance = NumberOr(meta.json, "scribe-residual", NumberOr(meta.json, "training-precision", 0) / 100);
  info->seconds = NumberOr(meta.json, "scribe-solve-seconds", 0);
  info->format = "RoyalUr .rgu, version 0, percent16 values";
  info->notes = absl::StrCat("RoyalUr settings ", SettingsText(meta.settings), "; keys: ", keys.Describe());
}

}  // namespace

absl::StatusOr<std::unique_ptr<RguTable>> RguTable::Open(const std::string& path,
                                                         std::shared_ptr<const Rules> expected) {
  const auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a usable RoyalUr table (.rgu): ", why));
  };
  auto file = MappedFile::Open(path, 8, "the magic, version and metadata length");
  if (!file.ok()) return absl::IsInvalidArgument(file.status()) ? bad(file.status().message()) : file.status();
  const unsigned char* p = file->data();
  const uint64_t size = file->size();

  if (std::memcmp(p, kRguMagic, 3) != 0) return bad("wrong magic (not RGU)");
  if (p[3] != kRguVersion) return bad(absl::StrCat("format version ", int{p[3]}, ", this build reads 0"));
  const uint32_t meta_bytes = Be32(p + 4);
  if (meta_bytes > kMaxMetadata) return bad(absl::StrCat("metadata of ", meta_bytes, " bytes (at most ", kMaxMetadata, ")"));
  uint64_t at = 8 + uint64_t{meta_bytes};
  if (at + 4 > size) return bad(absl::StrCat("the metadata (", meta_bytes, " bytes) runs past the end of the file (truncated?)"));
  const absl::string_view meta_text(reinterpret_cast<const char*>(p + 8), meta_bytes);
  auto meta = ParseMetadata(meta_text);
  if (!meta.ok()) return bad(meta.status().message());
  std::string reference;
  auto rules = RulesOfSettings(meta->settings, &reference);
  if (!rules.ok()) return bad(rules.status().message());
  if (expected != nullptr && expected->digest != (*rules)->digest) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": the table is for ruleset ", (*rules)->digest, " (", reference, ": RoyalUr's ",
        SettingsText(meta->settings), "), not ", expected->digest, " (", RulesetName(*expected), ")"));
  }
  auto keys = RoyalUrKeys::Create(**rules);
  if (!keys.ok()) return bad(keys.status().message());
  auto index = StateIndex::Create(**rules);
  if (!index.ok()) return bad(index.status().message());

  const uint32_t maps = Be32(p + at);
  at += 4;
  if (maps == 0 || maps > kMaxMaps) return bad(absl::StrCat(maps, " maps (RoyalUr writes 1 to ", kMaxMaps, ")"));
  if (at + 4ull * maps > size) return bad("the map sizes run past the end of the file (truncated?)");
  std::vector<uint32_t> entries(maps);
  uint64_t total = 0;
  for (uint32_t i = 0; i < maps; ++i) total += entries[i] = Be32(p + at + 4ull * i);
  at += 4ull * maps;
  const uint64_t expected_bytes = at + 6 * total;
  if (size < expected_bytes) {
    return bad(absl::StrFormat("%d bytes, expected %d for %d entries (truncated?)", size, expected_bytes, total));
  }
  if (size > expected_bytes) {
    return bad(absl::StrFormat("%d bytes, expected %d for %d entries (%d bytes after the values)", size,
                               expected_bytes, total, size - expected_bytes));
  }
  auto table = std::unique_ptr<RguTable>(new RguTable(std::move(*keys)));
  const RoyalUrKeys& k = table->keys_;
  if (static_cast<int>(maps) != k.maps()) {
    return bad(absl::StrCat(maps, " maps; keys of its rules need ", k.maps()));
  }
  const unsigned char* key_at = p + at;
  const unsigned char* value_at = p + at + 4 * total;
  for (uint32_t i = 0; i < maps; ++i) {
    Map m{key_at, value_at, entries[i]};
    for (uint32_t j = 0; j < m.entries; ++j) {
      const uint32_t key = Be32(m.keys + 4ull * j);
      if (j > 0 && key <= Be32(m.keys + 4ull * (j - 1))) {
        return bad(absl::StrFormat("map %d: keys not in ascending order at entry %d (0x%08x after 0x%08x)", i, j, key,
                                   Be32(m.keys + 4ull * (j - 1))));
      }
      if (!k.Valid((uint64_t{i} << 32) | key)) {
        return bad(absl::StrFormat("map %d: key 0x%08x (entry %d) is no position of %s", i, key, j, reference));
      }
    }
    table->maps_.push_back(m);
    key_at += 4ull * m.entries;
    value_at += 2ull * m.entries;
  }
  // Distinct keys, each a position: all of them exactly when the count agrees.
  if (total != k.count()) {
    return bad(absl::StrFormat("holds %d entries; %s has %d (%d positions and %d won by the side to move)", total,
                               reference, k.count(), (*index)->size(), k.won_positions()));
  }
  table->rules_ = expected != nullptr ? expected : *rules;
  table->metadata_ = std::string(meta_text);
  TableInfo& info = table->info_;
  info.digest = (*rules)->digest;
  info.ruleset_text = RulesetToText((*rules)->ruleset);
  info.positions = (*index)->size();
  info.file_bytes = size;
  info.entries = total;
  DescribeFromMetadata(*meta, k, &info);
  table->file_ = std::move(*file);
  return table;
}

bool RguTable::Lookup(uint64_t key, uint16_t* value) const {
  const uint64_t upper = key >> 32;
  if (upper >= maps_.size()) return false;
  const Map& m = maps_[upper];
  const uint32_t want = static_cast<uint32_t>(key);
  uint32_t lo = 0, hi = m.entries;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (Be32(m.keys + 4ull * mid) < want) lo = mid + 1;
    else hi = mid;
  }
  if (lo == m.entries || Be32(m.keys + 4ull * lo) != want) return false;
  *value = Be16(m.values + 2ull * lo);
  return true;
}

uint16_t RguTable::Stored(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off) const {
  uint16_t v = 0;
  // Open checked that the file holds every position's key.
  const bool found = Lookup(keys_.Key(mover_occ, mover_off, opp_occ, opp_off), &v);
  (void)found;
  return v;
}

absl::Status WriteRgu(const std::string& path, const SolvedTable& table) {
  const Rules& rules = table.rules();
  auto settings = RoyalUrSettingsForRules(rules);
  if (!settings.ok()) return absl::FailedPreconditionError(settings.status().message());
  SCRIBE_ASSIGN_OR_RETURN(const RoyalUrKeys keys, RoyalUrKeys::Create(rules));
  const TableInfo& info = table.info();
  Json meta = Json::object();
  meta["value_type"] = "percent16";
  if (info.source == TableSource::kRoyalUr && info.tolerance > 0) meta["training-precision"] = info.tolerance * 100;
  meta["scribe-source"] = info.source == TableSource::kSolved ? "solved" : "royalur";
  meta["scribe-residual"] = info.tolerance;
  meta["scribe-solve-seconds"] = info.seconds;
  const RoyalUrSettings& s = *settings;
  meta["game_settings"] = Json{{"board_shape", s.board_shape},
                               {"paths", s.paths},
                               {"dice", s.dice},
                               {"start_pieces", s.start_pieces},
                               {"safe_rosettes", s.safe_rosettes},
                               {"rosettes_grant_rolls", s.rosettes_grant_rolls},
                               {"captures_grant_rolls", s.captures_grant_rolls}};
  const std::string text = meta.dump();

  std::vector<uint32_t> entries(keys.maps(), 0);
  keys.ForEach([&](uint64_t key, uint32_t, int, uint32_t, int) { ++entries[key >> 32]; });

  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wbe");
  if (f == nullptr) return absl::UnavailableError(absl::StrCat(tmp, ": cannot create: ", std::strerror(errno)));
  std::vector<char> buffer(1 << 20);
  std::setvbuf(f, buffer.data(), _IOFBF, buffer.size());
  const auto put32 = [&](uint32_t v) {
    const unsigned char b[4] = {static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
                                static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
    std::fwrite(b, 1, 4, f);
  };
  std::fwrite(kRguMagic, 1, 3, f);
  std::fputc(kRguVersion, f);
  put32(static_cast<uint32_t>(text.size()));
  std::fwrite(text.data(), 1, text.size(), f);
  put32(static_cast<uint32_t>(entries.size()));
  for (uint32_t n : entries) put32(n);
  // Keys come in ascending order, so map by map.
  keys.ForEach([&](uint64_t key, uint32_t, int, uint32_t, int) { put32(static_cast<uint32_t>(key)); });
  const int n = rules.pieces;
  keys.ForEach([&](uint64_t, uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off) {
    const uint16_t v = mover_off == n ? 65535 : table.Stored(mover_occ, mover_off, opp_occ, opp_off);
    const unsigned char b[2] = {static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
    std::fwrite(b, 1, 2, f);
  });
  const bool write_failed = std::ferror(f) != 0;
  const int saved = errno;
  if (std::fclose(f) != 0 || write_failed) {
    ::unlink(tmp.c_str());
    return absl::UnavailableError(absl::StrCat(tmp, ": write failed: ", std::strerror(saved)));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return absl::UnavailableError(absl::StrCat(path, ": cannot rename into place: ", std::strerror(e)));
  }
  return absl::OkStatus();
}

}  // namespace scribe
