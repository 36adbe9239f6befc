// What a reader got out of a file, in any format: the records it could
// read, where each part was written, and a finding for each part it could
// not read.
#ifndef SCRIBE_RECORDS_PARSED_H_
#define SCRIBE_RECORDS_PARSED_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "scribe/v1/record.pb.h"

namespace scribe {

// Markers written after a move in a text record.
enum MarkerBits : uint8_t {
  kMarkCapture = 1,  // x
  kMarkExtra = 2,    // *
  kMarkPlaced = 4,   // +
  kMarkEnd = 8,      // #
};

// Where and how one action was written.
struct ActionSource {
  uint32_t offset = 0;       // byte offset of the action in the text
  uint8_t side = 0;          // the side letter of its turn (0 light, 1 dark)
  bool first_in_turn = false;
  uint8_t markers = 0;       // MarkerBits written
  int8_t captures = -1;      // the count written after x, -1 when none
  int turn = 0;              // the turn number written
};

struct RecordSource {
  uint32_t offset = 0;  // where the record starts
  uint32_t result_offset = 0;
  bool has_result = false;
  // Where the ruleset digest was written (TSN's Digest tag), for a finding
  // that it is wrong.
  uint32_t digest_offset = 0;
  bool has_digest = false;
  std::vector<ActionSource> actions;
};

struct ParsedRecords {
  std::vector<v1::GameRecord> records;
  // records[k] came from entry record_indices[k] of the file.
  std::vector<int> record_indices;
  // For text formats, sources[k] says where records[k]'s parts were
  // written; empty for formats without positions.
  std::vector<RecordSource> sources;
  std::vector<v1::Finding> findings;
  // How many records (games) the file holds, read or not.
  int entries = 0;
};

// What stands at byte `at` of a text, for a reader's "expected X, found Y":
// a quoted character, a byte in hex, the end of the line or of the file.
inline std::string DescribeAt(absl::string_view text, size_t at) {
  if (at >= text.size()) return "the end of the file";
  const auto c = static_cast<unsigned char>(text[at]);
  if (c == '\n') return "the end of the line";
  if (c < 0x20 || c >= 0x7f) {
    static constexpr char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 15];
  }
  return std::string("'") + static_cast<char>(c) + "'";
}

// Byte offsets to 1-based line and column, by binary search over the line
// starts (built once per text).
class LineIndex {
 public:
  explicit LineIndex(absl::string_view text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(static_cast<uint32_t>(i + 1));
    }
  }
  void Locate(uint32_t offset, int* line, int* column) const {
    auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const size_t index = static_cast<size_t>(it - starts_.begin()) - 1;
    *line = static_cast<int>(index) + 1;
    *column = static_cast<int>(offset - starts_[index]) + 1;
  }

 private:
  std::vector<uint32_t> starts_;
};

// A finding with no place in a text (a record's rules, a structured
// record's field).
inline v1::Finding MakeFinding(absl::string_view code, std::string message) {
  v1::Finding f;
  f.set_code(std::string(code));
  f.set_message(std::move(message));
  return f;
}

// A reader's finding at byte `offset` of its text, with the line and
// column; record_index -1 when the finding belongs to no one record.
inline v1::Finding MakeFinding(absl::string_view code, std::string message, const LineIndex& lines,
                               size_t offset, int record_index) {
  v1::Finding f;
  f.set_code(std::string(code));
  f.set_message(std::move(message));
  int line, column;
  lines.Locate(static_cast<uint32_t>(offset), &line, &column);
  f.set_line(line);
  f.set_column(column);
  if (record_index >= 0) f.set_record_index(record_index);
  return f;
}

// A finding about action `action` of a record, placed where the source
// wrote it.
inline v1::Finding ActionFinding(absl::string_view code, std::string message, const LineIndex& lines,
                                 const RecordSource& source, int action, int record_index) {
  v1::Finding f = MakeFinding(code, std::move(message), lines, source.actions[action].offset, record_index);
  f.set_action_index(action);
  return f;
}

}  // namespace scribe

#endif  // SCRIBE_RECORDS_PARSED_H_
