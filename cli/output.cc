#include "cli/output.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "records/utf8.h"

namespace scribe {

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

}  // namespace scribe
