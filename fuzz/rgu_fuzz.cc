// Fuzzes the reader of RoyalUr's solved tables (.rgu, analysis/rgu.h).
//
// The input is the file. Properties, for any input of at most 64 KiB:
//  - RguTable::Open never crashes and refuses with INVALID_ARGUMENT (there
//    are no expected rules to disagree with);
//  - an accepted table holds a value in [0, 1] for every position of its
//    rules; written as an .rgu again (WriteRgu) it reads back to the same
//    stored value for every position, and that file is a fixed point
//    (written once more, the same bytes); written as a Scribe table
//    (WriteAsScribeTable) it reads back to the same values too.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "analysis/open_table.h"
#include "analysis/rgu.h"
#include "engine/state_index.h"
#include "fuzz/fuzz_util.h"

namespace scribe::fuzz {
namespace {

const char* const kScratchFiles[] = {"again.rgu", "twice.rgu", "as.tbl"};

// A directory of this process's own for the files written, removed at exit.
const std::string& Scratch() {
  static const std::string* dir = [] {
    auto* d = new std::string(absl::StrCat("/tmp/rgu_fuzz_", ::getpid()));
    ::mkdir(d->c_str(), 0700);
    std::atexit([] {
      for (const char* f : kScratchFiles) ::unlink(absl::StrCat(Scratch(), "/", f).c_str());
      ::rmdir(Scratch().c_str());
    });
    return d;
  }();
  return *dir;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every position's stored value agrees between two tables of the same rules.
void SameValues(const SolvedTable& a, const SolvedTable& b, const StateIndex& index, const char* what) {
  const int n = a.rules().pieces;
  for (int mo = 0; mo < n; ++mo) {
    for (int oo = 0; oo < n; ++oo) {
      index.ForEachInLayer(mo, oo, [&](uint64_t rank, uint32_t m, uint32_t o) {
        FUZZ_CHECK(a.Stored(m, mo, o, oo) == b.Stored(m, mo, o, oo), what, ": rank ", rank, " was ",
                   a.Stored(m, mo, o, oo), ", reads back ", b.Stored(m, mo, o, oo));
      });
    }
  }
}

int TestOne(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return kRejectInput;
  // The input as a file, without touching the disk.
  const int fd = ::memfd_create("rgu_fuzz", MFD_CLOEXEC);
  if (fd < 0) return 0;
  for (size_t done = 0; done < size;) {
    const ssize_t w = ::write(fd, data + done, size - done);
    if (w <= 0) {
      ::close(fd);
      return 0;
    }
    done += static_cast<size_t>(w);
  }
  const std::string path = absl::StrCat("/proc/self/fd/", fd);
  auto table = RguTable::Open(path);
  ::close(fd);
  if (!table.ok()) {
    FUZZ_CHECK(table.status().code() == absl::StatusCode::kInvalidArgument, "refused with INVALID_ARGUMENT: ",
               table.status().ToString());
    return 0;
  }
  const SolvedTable& t = **table;
  auto index = StateIndex::Create(t.rules());
  FUZZ_CHECK(index.ok(), "an accepted table's rules have an index: ", index.status().ToString());
  for (uint64_t r = 0; r < (*index)->size(); ++r) {
    const double v = t.Value((*index)->Unrank(r));
    FUZZ_CHECK(v >= 0 && v <= 1, "value of rank ", r, " in [0, 1]: ", v);
  }
  const std::string rgu = Scratch() + "/again.rgu", rgu2 = Scratch() + "/twice.rgu", tbl = Scratch() + "/as.tbl";
  const absl::Status written = WriteRgu(rgu, t);
  FUZZ_CHECK(written.ok(), "an accepted table writes as an .rgu: ", written.ToString());
  auto again = RguTable::Open(rgu);
  FUZZ_CHECK(again.ok(), "the .rgu written reads back: ", again.status().ToString());
  SameValues(t, **again, **index, "written as an .rgu");
  FUZZ_CHECK(WriteRgu(rgu2, **again).ok(), "the .rgu written writes again");
  FUZZ_CHECK(Slurp(rgu) == Slurp(rgu2), "an .rgu written is a fixed point");
  FUZZ_CHECK(WriteAsScribeTable(t, tbl).ok(), "an accepted table writes as a Scribe table");
  auto ours = OpenTable(tbl);
  FUZZ_CHECK(ours.ok(), "the Scribe table written reads back: ", ours.status().ToString());
  SameValues(t, **ours, **index, "written as a Scribe table");
  return 0;
}

}  // namespace
}  // namespace scribe::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return scribe::fuzz::TestOne(data, size);
}
