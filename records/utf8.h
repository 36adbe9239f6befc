// UTF-8 for proto3 string fields: a parser refuses a whole message whose
// string field holds bytes that are not UTF-8, so text that quotes a user's
// bytes (a reader's "last read: ...") is made valid before it goes into a
// message someone else will parse. Record text itself (tags, comments, any
// string of a record) must be UTF-8 in every format: readers refuse other
// bytes with a finding (codes::kTextNotUtf8), writers with an error.
#ifndef SCRIBE_RECORDS_UTF8_H_
#define SCRIBE_RECORDS_UTF8_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace scribe {

// The length of the UTF-8 sequence at text[i] (1 to 4), 0 when the bytes
// there are not one: a stray continuation byte, a truncated or overlong
// sequence, a surrogate, or past U+10FFFF.
inline size_t Utf8SequenceAt(absl::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
  const unsigned c = byte(0);
  const auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xbf) { return byte(k) >= lo && byte(k) <= hi; };
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c == 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (c == 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c >= 0xe1 && c <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

// The offset of the first byte of `text` that is not part of a UTF-8
// sequence; npos when the text is all UTF-8.
inline size_t FirstNonUtf8Byte(absl::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceAt(text, i);
    if (n == 0) return i;
    i += n;
  }
  return absl::string_view::npos;
}

inline bool IsValidUtf8(absl::string_view text) { return FirstNonUtf8Byte(text) == absl::string_view::npos; }

// A reader's message for the byte at text[at] that is not UTF-8, in `what`
// ("the tag's value", "the comment", "the JSON file").
inline std::string NotUtf8Message(absl::string_view text, size_t at, absl::string_view what) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto c = at < text.size() ? static_cast<unsigned char>(text[at]) : 0u;
  std::string out(what);
  out += " is not UTF-8 text: byte 0x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
  out += " (record text is UTF-8; a Latin-1 file converts with iconv -f latin1 -t utf-8)";
  return out;
}

// The text with every byte that is not part of a UTF-8 sequence replaced
// by U+FFFD (as nlohmann's dump and most decoders do).
inline std::string ValidUtf8(absl::string_view text) {
  if (IsValidUtf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8SequenceAt(text, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";
      ++i;
    } else {
      out.append(text.data() + i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace scribe

#endif  // SCRIBE_RECORDS_UTF8_H_
