// RoyalUr's solved tables (.rgu), read and written: the format RoyalUr-Java's
// lookup tables (net.royalur.lut.Lut) use, which its site, its Python library
// and its agents read.
//
// File format, big-endian (docs/analysis.md, "RoyalUr's tables"):
//   "RGU", version byte 0,
//   uint32 metadata length, the metadata: a JSON object with "game_settings"
//     (RoyalUr's settings, engine/royalur_settings.h), "value_type"
//     ("percent16" when absent) and any other keys (RoyalUr's trainer writes
//     "target-precision" and "training-precision", in percentage points),
//   uint32 map count, one uint32 entry count per map,
//   every map's keys (uint32, ascending: the low 32 bits of the key,
//     analysis/rgu_keys.h; map i holds the keys whose upper bits are i),
//   then every map's values (uint16 percent16: light's chance * 65535,
//     rounded, light to move).
//
// A file is read whole and refused, never misread, with the reason: a bad
// magic or version, metadata that is not JSON or whose settings Scribe
// cannot play, maps that do not fit the file (truncated, trailing bytes),
// keys out of order or that are no position, or not exactly the positions
// of its rules.
#ifndef SCRIBE_ANALYSIS_RGU_H_
#define SCRIBE_ANALYSIS_RGU_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/mapped_file.h"
#include "analysis/rgu_keys.h"
#include "analysis/table.h"

namespace scribe {

inline constexpr char kRguMagic[3] = {'R', 'G', 'U'};

// An exact evaluator over a memory-mapped .rgu file; a value is found by a
// binary search of its map's keys.
class RguTable : public SolvedTable {
 public:
  // Maps and checks `path`. With `expected` rules, a table whose settings
  // play other rules is refused (FAILED_PRECONDITION naming both); without,
  // the settings' rules are loaded. INVALID_ARGUMENT, with the reason, for a
  // file that is not an .rgu or is damaged; NOT_FOUND when it does not exist.
  static absl::StatusOr<std::unique_ptr<RguTable>> Open(const std::string& path,
                                                        std::shared_ptr<const Rules> expected = nullptr);

  uint16_t Stored(uint32_t mover_occ, int mover_off, uint32_t opp_occ, int opp_off) const override;
  // The stored value of a key (light to move); false when the file has none.
  bool Lookup(uint64_t key, uint16_t* value) const;
  const RoyalUrKeys& keys() const { return keys_; }
  const std::string& metadata() const { return metadata_; }

 private:
  explicit RguTable(RoyalUrKeys keys) : keys_(std::move(keys)) {}
  struct Map {
    const unsigned char* keys = nullptr;    // big-endian uint32
    const unsigned char* values = nullptr;  // big-endian uint16
    uint32_t entries = 0;
  };
  RoyalUrKeys keys_;
  std::string metadata_;
  std::vector<Map> maps_;
  MappedFile file_;  // the file the pointers above point into
};

// Writes `table`'s values as an .rgu that RoyalUr's tools read: RoyalUr's
// settings for its rules (FAILED_PRECONDITION when RoyalUr has none), its
// keys, percent16 values; the metadata also records the table's source,
// residual and solve time ("scribe-source", "scribe-residual",
// "scribe-solve-seconds"), so that importing the file gives the same table
// byte for byte. Atomic (a temporary file renamed into place).
absl::Status WriteRgu(const std::string& path, const SolvedTable& table);

}  // namespace scribe

#endif  // SCRIBE_ANALYSIS_RGU_H_
