// Unsigned LEB128 varints (7 bits a byte, low first) and length-prefixed
// strings: the byte encodings of games/ (game_codec.h, postings.h).
#ifndef SCRIBE_GAMES_VARINT_H_
#define SCRIBE_GAMES_VARINT_H_

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"

namespace scribe::games {

// `v` into a buffer with room (10 bytes a varint at most); returns the end.
inline char* PutVarintAt(char* at, uint64_t v) {
  while (v >= 0x80) {
    *at++ = static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  *at++ = static_cast<char>(v);
  return at;
}

inline void PutVarint(std::string* out, uint64_t v) {
  char bytes[10];
  out->append(bytes, PutVarintAt(bytes, v));
}

inline void PutString(std::string* out, absl::string_view s) {
  PutVarint(out, s.size());
  out->append(s.data(), s.size());
}

// Reads from the front of `in`, consuming; false when the bytes run out or
// the varint is longer than 10 bytes.
class ByteReader {
 public:
  explicit ByteReader(absl::string_view in) : in_(in) {}
  bool Varint(uint64_t* v) {
    uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= in_.size()) return false;
      const uint8_t b = static_cast<uint8_t>(in_[pos_++]);
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        *v = result;
        return true;
      }
    }
    return false;
  }
  // Skips `n` varints without decoding them (a byte whose top bit is clear
  // ends one), eight bytes at a time where they hold fewer than the ends
  // still wanted; false where Varint would fail (the bytes run out, or a
  // varint is longer than 10 bytes).
  bool SkipVarints(uint64_t n) {
    constexpr uint64_t kTops = 0x8080808080808080ull;
    size_t run = 0;  // continuation bytes since the last end
    while (n > 0) {
      if (std::endian::native == std::endian::little && n > 8 && pos_ + 8 <= in_.size()) {
        uint64_t word;
        std::memcpy(&word, in_.data() + pos_, 8);
        const uint64_t ends = ~word & kTops;  // little-endian: byte i at bits 8i..8i+7
        if (ends == 0) {
          run += 8;
          if (run >= 10) return false;
        } else {
          if (run + static_cast<size_t>(std::countr_zero(ends)) / 8 >= 10) return false;
          run = static_cast<size_t>(std::countl_zero(ends)) / 8;
          n -= static_cast<uint64_t>(std::popcount(ends));  // at most 8 < n
        }
        pos_ += 8;
        continue;
      }
      if (pos_ >= in_.size()) return false;
      if ((static_cast<uint8_t>(in_[pos_++]) & 0x80) != 0) {
        if (++run >= 10) return false;
      } else {
        run = 0;
        --n;
      }
    }
    return true;
  }
  bool Byte(uint8_t* b) {
    if (pos_ >= in_.size()) return false;
    *b = static_cast<uint8_t>(in_[pos_++]);
    return true;
  }
  bool String(std::string* s) {
    uint64_t n;
    if (!Varint(&n) || n > in_.size() - pos_) return false;
    s->assign(in_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  bool done() const { return pos_ == in_.size(); }
  size_t pos() const { return pos_; }

 private:
  absl::string_view in_;
  size_t pos_ = 0;
};

}  // namespace scribe::games

#endif  // SCRIBE_GAMES_VARINT_H_
