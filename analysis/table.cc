#include "analysis/table.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/ruleset.h"

namespace scribe {
namespace {

constexpr char kMagic[8] = {'S', 'C', 'R', 'I', 'B', 'E', 'T', 'B'};
constexpr uint32_t kVersion = 1;
constexpr size_t kFixedHeader = 72;
constexpr size_t kAlign = 64;
constexpr uint32_t kMaxRulesetText = 1 << 20;

// The fixed header, little-endian on disk (the only byte order Scribe
// builds for; checked below).
struct Header {
  char magic[8];
  uint32_t version;
  uint32_t header_bytes;  // fixed header + ruleset text, padded to kAlign
  uint64_t positions;
  char digest[16];
  double tolerance;
  double seconds;
  uint32_t ruleset_bytes;
  uint32_t source;        // TableSource: 0 solved by Scribe, 1 RoyalUr's
  uint64_t check;         // FNV-1a of the fields above and the ruleset text
};
static_assert(sizeof(Header) == kFixedHeader);
static_assert(std::endian::native == std::endian::little, "tables are little-endian");

uint64_t Fnv1a(const void* data, size_t n, uint64_t h = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

uint64_t HeaderCheck(const Header& h, absl::string_view ruleset_text) {
  return Fnv1a(ruleset_text.data(), ruleset_text.size(), Fnv1a(&h, offsetof(Header, check)));
}

bool WriteAll(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

namespace {

// Writes the header and then the values `fill(begin, n, out)` gives, by rank.
template <typename Fill>
absl::Status WriteTableWith(const std::string& path, const Rules& rules, uint64_t positions,
                            const TableProvenance& provenance, Fill fill) {
  const std::string text = RulesetToText(rules.ruleset);
  if (text.size() > kMaxRulesetText) return absl::InvalidArgumentError("ruleset text too long for a table");
  Header h;
  std::memset(&h, 0, sizeof(h));
  std::memcpy(h.magic, kMagic, sizeof(kMagic));
  h.version = kVersion;
  const size_t header_bytes = (kFixedHeader + text.size() + kAlign - 1) / kAlign * kAlign;
  h.header_bytes = static_cast<uint32_t>(header_bytes);
  h.positions = positions;
  if (rules.digest.size() != sizeof(h.digest)) return absl::InternalError("unexpected digest length");
  std::memcpy(h.digest, rules.digest.data(), sizeof(h.digest));
  h.tolerance = provenance.tolerance;
  h.seconds = provenance.seconds;
  h.ruleset_bytes = static_cast<uint32_t>(text.size());
  h.source = static_cast<uint32_t>(provenance.source);
  h.check = HeaderCheck(h, text);

  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::UnavailableError(absl::StrCat(tmp, ": cannot create: ", std::strerror(errno)));
  std::vector<char> head(header_bytes, 0);
  std::memcpy(head.data(), &h, sizeof(h));
  std::memcpy(head.data() + kFixedHeader, text.data(), text.size());
  bool ok = WriteAll(fd, head.data(), head.size());
  std::vector<uint16_t> chunk(1 << 20);
  for (uint64_t i = 0; ok && i < positions; i += chunk.size()) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(chunk.size(), positions - i));
    fill(i, n, chunk.data());
    ok = WriteAll(fd, chunk.data(), n * sizeof(uint16_t));
  }
  const int saved = errno;
  if (::close(fd) != 0 && ok) ok = false;
  if (!ok) {
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

}  // namespace

absl::Status WriteTable(const std::string& path, const Rules& rules, const Solution& solution) {
  const TableProvenance provenance{TableSource::kSolved, solution.residual, solution.seconds};
  return WriteTableWith(path, rules, solution.values.size(), provenance, [&](uint64_t begin, size_t n, uint16_t* out) {
    for (size_t k = 0; k < n; ++k) {
      const double v = std::clamp(static_cast<double>(solution.values[begin + k]), 0.0, 1.0);
      out[k] = static_cast<uint16_t>(std::lround(v * 65535.0));
    }
  });
}

absl::Status WriteTableValues(const std::string& path, const Rules& rules, const std::vector<uint16_t>& values,
                              const TableProvenance& provenance) {
  return WriteTableWith(path, rules, values.size(), provenance, [&](uint64_t begin, size_t n, uint16_t* out) {
    std::memcpy(out, values.data() + begin, n * sizeof(uint16_t));
  });
}

absl::StatusOr<std::unique_ptr<TableEvaluator>> TableEvaluator::Open(const std::string& path,
                                                                     std::shared_ptr<const Rules> expected) {
  const auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a usable Scribe table: ", why));
  };
  auto file = MappedFile::Open(path, kFixedHeader, "a table's header");
  if (!file.ok()) return absl::IsInvalidArgument(file.status()) ? bad(file.status().message()) : file.status();
  const void* map = file->data();
  const uint64_t file_bytes = file->size();
  auto table = std::unique_ptr<TableEvaluator>(new TableEvaluator());

  Header h;
  std::memcpy(&h, map, sizeof(h));
  if (std::memcmp(h.magic, kMagic, sizeof(kMagic)) != 0) {
    return bad("wrong magic (neither a Scribe table, SCRIBETB, nor a RoyalUr table, RGU)");
  }
  if (h.version != kVersion) return bad(absl::StrCat("format version ", h.version, ", this build reads ", kVersion));
  if (h.ruleset_bytes > kMaxRulesetText || h.header_bytes < kFixedHeader + h.ruleset_bytes ||
      h.header_bytes > file_bytes) {
    return bad("damaged header");
  }
  const absl::string_view text(static_cast<const char*>(map) + kFixedHeader, h.ruleset_bytes);
  if (HeaderCheck(h, text) != h.check) return bad("damaged header (checksum)");
  if (h.source > static_cast<uint32_t>(TableSource::kRoyalUr)) return bad(absl::StrCat("unknown source ", h.source));
  if (h.positions > (file_bytes - h.header_bytes) / 2 || file_bytes != h.header_bytes + h.positions * 2) {
    return bad(absl::StrFormat("%d bytes, expected %d for %d positions (truncated?)", file_bytes,
                               h.header_bytes + h.positions * 2, h.positions));
  }
  const std::string digest(h.digest, sizeof(h.digest));
  auto rules = LoadRulesetText(text);
  if (!rules.ok()) return bad(absl::StrCat("its ruleset does not load: ", rules.status().message()));
  if ((*rules)->digest != digest) return bad("its ruleset does not match its digest");
  if (expected != nullptr && expected->digest != digest) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": the table is for ruleset ", digest, " (",
                                                      (*rules)->ruleset.id(), "), not ", expected->digest, " (",
                                                      expected->ruleset.id(), ")"));
  }
  auto index = StateIndex::Create(**rules);
  if (!index.ok()) return bad(index.status().message());
  if ((*index)->size() != h.positions) {
    return bad(absl::StrCat("holds ", h.positions, " positions; its ruleset has ", (*index)->size()));
  }
  table->rules_ = expected != nullptr ? expected : *rules;
  table->index_ = std::move(*index);
  table->values_ = reinterpret_cast<const uint16_t*>(static_cast<const char*>(map) + h.header_bytes);
  table->info_.digest = digest;
  table->info_.ruleset_text = std::string(text);
  table->info_.positions = h.positions;
  table->info_.tolerance = h.tolerance;
  table->info_.seconds = h.seconds;
  table->info_.file_bytes = file_bytes;
  table->info_.source = static_cast<TableSource>(h.source);
  table->info_.format = absl::StrCat("Scribe table, version ", kVersion);
  table->info_.entries = h.positions;
  table->file_ = std::move(*file);
  return table;
}

std::string SolvedTable::name() const {
  return absl::StrCat("table ", RulesetName(*rules_), " ", info_.digest, " (exact)");
}

}  // namespace scribe
