#include "cli/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/open_table.h"
#include "engine/ruleset.h"
#include "engine/search.h"
#include "engine/status_macros.h"
#include "records/utf8.h"

namespace scribe {

// Files larger than this are refused rather than read into memory.
constexpr std::streamoff kMaxFileBytes = 512ll * 1024 * 1024;

namespace {

// Reads `fd` to its end into `out`, in chunks: no more than kMaxFileBytes.
bool ReadAll(int fd, const std::string& path, std::string* out, std::string* error) {
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (st.st_size > kMaxFileBytes) {
      *error = absl::StrCat(path, ": ", st.st_size, " bytes is more than the ", kMaxFileBytes, " allowed");
      return false;
    }
    out->reserve(static_cast<size_t>(st.st_size));
  }
  constexpr size_t kChunk = 1 << 16;
  out->clear();
  for (;;) {
    const size_t at = out->size();
    out->resize(at + kChunk);
    const ssize_t n = ::read(fd, out->data() + at, kChunk);
    if (n < 0 && errno == EINTR) {
      out->resize(at);
      continue;
    }
    if (n < 0) {
      const int saved = errno;
      out->clear();
      *error = absl::StrCat(path, ": read failed: ", std::strerror(saved));
      return false;
    }
    out->resize(at + static_cast<size_t>(n));
    if (n == 0) return true;
    if (out->size() > static_cast<size_t>(kMaxFileBytes)) {
      out->clear();
      out->shrink_to_fit();
      *error = absl::StrCat(path, ": more than the ", kMaxFileBytes, " bytes allowed");
      return false;
    }
  }
}

}  // namespace

bool ReadFile(const std::string& path, std::string* out, std::string* error) {
  if (path == "-") return ReadAll(STDIN_FILENO, path, out, error);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    *error = absl::StrCat(path, ": is a directory");
    return false;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = absl::StrCat(path, ": cannot open: ", std::strerror(errno));
    return false;
  }
  const bool ok = ReadAll(fd, path, out, error);
  ::close(fd);
  return ok;
}

bool ReadRecordFile(const std::string& path, std::string* text) {
  std::string error;
  if (ReadFile(path, text, &error)) return true;
  std::cerr << "scribe: " << TerminalText(error) << "\n";
  return false;
}

bool IsReadableFile(const std::string& path) {
  std::ifstream in(path);
  return static_cast<bool>(in);
}

namespace {

// A folder walk takes the files whose name says they hold records.
bool IsRecordName(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".tsn" || ext == ".json" || ext == ".rgn";
}

const char* FileKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Why a symbolic link found by a walk leads nowhere (or "" when it leads
// to a file or a folder); *target_mode is what it leads to.
std::string BrokenLink(const std::string& path, mode_t* target_mode) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    *target_mode = st.st_mode;
    return "";
  }
  const int saved = errno;
  if (saved == ELOOP) return absl::StrCat(path, ": a loop of symbolic links: ", std::strerror(saved));
  std::error_code ec;
  const std::string target = std::filesystem::read_symlink(path, ec).string();
  if (saved == ENOENT) return absl::StrCat(path, ": a dangling symbolic link (to ", target, ", which does not exist)");
  return absl::StrCat(path, ": a symbolic link (to ", target, ") that cannot be followed: ", std::strerror(saved));
}

// Adds the record files under `dir` to *out, and every entry the walk
// cannot take (a folder it cannot read, a record file's name on something
// that is no file) with why; goes on past each.
void Walk(const std::string& dir, std::vector<PathEntry>* out) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec) {
    out->push_back({dir, absl::StrCat(dir, ": cannot read the folder: ", ec.message())});
    return;
  }
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string path = it->path().string();
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) {
      out->push_back({path, absl::StrCat(path, ": cannot open: ", std::strerror(errno))});
      continue;
    }
    if (S_ISDIR(st.st_mode)) {
      Walk(path, out);
      continue;
    }
    if (!IsRecordName(it->path())) continue;
    mode_t mode = st.st_mode;
    if (S_ISLNK(mode)) {
      const std::string broken = BrokenLink(path, &mode);
      if (!broken.empty()) {
        out->push_back({path, broken});
        continue;
      }
      if (S_ISDIR(mode)) continue;  // links to folders are not followed (no loops)
    }
    if (!S_ISREG(mode)) {
      out->push_back({path, absl::StrCat(path, ": ", FileKind(mode), ", not a record file; a folder's walk reads "
                                               "regular files only")});
      continue;
    }
    out->push_back({path, ""});
  }
  if (ec) out->push_back({dir, absl::StrCat(dir, ": reading the folder failed: ", ec.message())});
}

}  // namespace

bool ExpandPaths(const std::vector<std::string>& paths, std::vector<PathEntry>* out) {
  bool ok = true;
  for (const std::string& path : paths) {
    struct stat st;
    if (path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::vector<PathEntry> found;
      Walk(path, &found);
      std::sort(found.begin(), found.end(),
                [](const PathEntry& a, const PathEntry& b) { return a.path < b.path; });
      for (const PathEntry& entry : found) ok = ok && entry.error.empty();
      out->insert(out->end(), found.begin(), found.end());
    } else {
      out->push_back({path, ""});
    }
  }
  return ok;
}

namespace {

// std::cout's buffer while a CheckedStandardOutput lives: writes to file
// descriptor 1 and keeps the first error's errno; after one, it writes
// nothing more (the stream is bad).
class StdoutBuffer : public std::streambuf {
 public:
  StdoutBuffer() : line_buffered_(isatty(STDOUT_FILENO)) { setp(buffer_, buffer_ + sizeof(buffer_)); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!Drain()) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    if (line_buffered_ && c == '\n' && !Drain()) return traits_type::eof();
    return c;
  }

  std::streamsize xsputn(const char* s, std::streamsize n) override {
    bool line_end = false;
    for (std::streamsize done = 0; done < n;) {
      if (pptr() == epptr() && !Drain()) return done;
      const std::streamsize k = std::min<std::streamsize>(n - done, epptr() - pptr());
      std::memcpy(pptr(), s + done, static_cast<size_t>(k));
      line_end = line_end || std::memchr(s + done, '\n', static_cast<size_t>(k)) != nullptr;
      pbump(static_cast<int>(k));
      done += k;
    }
    if (line_buffered_ && line_end && !Drain()) return 0;
    return n;
  }

  int sync() override { return Drain() ? 0 : -1; }

 private:
  bool Drain() {
    const char* at = pbase();
    while (error_ == 0 && at < pptr()) {
      const ssize_t n = ::write(STDOUT_FILENO, at, static_cast<size_t>(pptr() - at));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error_ = n < 0 ? errno : EIO;
      else at += n;
    }
    setp(buffer_, buffer_ + sizeof(buffer_));
    return error_ == 0;
  }

  char buffer_[1 << 16];
  const bool line_buffered_;
  int error_ = 0;
};

StdoutBuffer* checked_stdout = nullptr;

}  // namespace

CheckedStandardOutput::CheckedStandardOutput() {
  auto buffer = std::make_unique<StdoutBuffer>();
  checked_stdout = buffer.get();
  buffer_ = std::move(buffer);
  previous_ = std::cout.rdbuf(buffer_.get());
}

CheckedStandardOutput::~CheckedStandardOutput() {
  std::cout.flush();
  std::cout.rdbuf(previous_);
  checked_stdout = nullptr;
}

bool CheckStandardOutput(const std::string& command) {
  std::cout.flush();
  if (std::cout.good()) return true;
  const int error = checked_stdout != nullptr && checked_stdout->error() != 0 ? checked_stdout->error() : EIO;
  // The reader closed the pipe (`scribe replay big | head`) while SIGPIPE
  // is ignored: it wanted no more, and is not told so.
  if (error == EPIPE) return false;
  std::cerr << "scribe: " << command << ": cannot write standard output: " << std::strerror(error) << "\n";
  return false;
}

bool WriteOutputFile(const std::string& command, const std::string& path, absl::string_view contents) {
  std::ofstream out(path, std::ios::binary);
  if (out) out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (out) out.flush();
  const int after_write = errno;
  out.close();
  if (out) return true;
  const int saved = errno != 0 ? errno : after_write != 0 ? after_write : EIO;
  std::cerr << "scribe: " << command << ": cannot write " << TerminalText(path) << ": " << std::strerror(saved)
            << "\n";
  return false;
}

std::string TerminalText(absl::string_view text, bool keep_newlines) {
  const auto is_control = [&](unsigned char c) { return (c < 0x20 && !(keep_newlines && c == '\n')) || c == 0x7f; };
  bool clean = true;
  for (char c : text) clean = clean && !is_control(c) && static_cast<unsigned char>(c) < 0x80 && c != '\\';
  if (clean) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = text[i];
    const size_t n = c < 0x80 ? 1 : Utf8SequenceAt(text, i);
    if (n == 0) {
      // Not UTF-8: a raw C1 control is escaped, any other byte kept.
      if (c <= 0x9f) absl::StrAppendFormat(&out, "\\x%02x", c);
      else out.push_back(static_cast<char>(c));
      ++i;
    } else if (n == 1 && is_control(c)) {
      absl::StrAppendFormat(&out, "\\x%02x", c);
      ++i;
    } else if (c == '\\') {
      // Doubled, so that an escape written here is never mistaken for the
      // same characters in the text ("\x1b" as typed prints as \\x1b).
      out += "\\\\";
      ++i;
    } else if (n == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned char>(text[i + 1]));
      i += 2;
    } else {
      out.append(text.data() + i, n);
      i += n;
    }
  }
  return out;
}

Format InputFormat(const std::string& from, const std::string& path, absl::string_view text) {
  if (!from.empty()) return *FormatFromName(from);
  return DetectFormat(path, text);
}

// --ruleset: a ruleset file when such a file exists, else a reference. A
// reference that can only be a path (a '/' or a '.' outside overrides: no
// preset's id has either) is a file, and when it cannot be read that is
// what is said, not "unknown ruleset".
absl::StatusOr<std::shared_ptr<const Rules>> CliRuleset(const std::string& ref) {
  const bool no_overrides = ref.find('(') == std::string::npos;
  const bool path_like = no_overrides && ref.find_first_of("/.") != std::string::npos;
  if (no_overrides && (path_like || IsReadableFile(ref))) {
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

absl::StatusOr<RulesPolicy> ReaderOptions(const std::string& ruleset_ref) {
  RulesPolicy io;
  if (ruleset_ref.empty()) return io;
  SCRIBE_ASSIGN_OR_RETURN(io.rules, CliRuleset(ruleset_ref));
  io.ruleset = RulesetReference(*io.rules, ruleset_ref);
  io.conflict_is_finding = true;  // --ruleset is for records that name none
  return io;
}

int RulesetError(const absl::Status& status) {
  std::cerr << "scribe: ruleset: " << TerminalText(status.message(), /*keep_newlines=*/true) << "\n";
  return kExitUsage;
}

absl::StatusOr<std::shared_ptr<const Evaluator>> OpenTableFor(const std::string& path,
                                                              std::shared_ptr<const Rules> rules) {
  auto table = OpenTable(path, std::move(rules));
  if (!table.ok()) return absl::Status(table.status().code(), absl::StrCat("--table: ", table.status().message()));
  return std::shared_ptr<const Evaluator>(std::move(*table));
}

absl::StatusOr<std::shared_ptr<const Evaluator>> TableOrSearch(const std::string& table, int depth,
                                                               std::shared_ptr<const Rules> rules) {
  if (!table.empty()) return OpenTableFor(table, std::move(rules));
  return std::shared_ptr<const Evaluator>(std::make_shared<SearchEvaluator>(std::move(rules), depth));
}

}  // namespace scribe
