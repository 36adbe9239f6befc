// Parsing position strings in tests (records/position_string.h): a string
// that does not parse is a test failure with the reason.
#ifndef SCRIBE_TESTS_COMMON_TEST_POSITIONS_H_
#define SCRIBE_TESTS_COMMON_TEST_POSITIONS_H_

#include <string>

#include "engine/position.h"
#include "engine/rules.h"
#include "gtest/gtest.h"
#include "records/position_string.h"

namespace scribe {

inline Position MustParse(const Rules& rules, const std::string& text) {
  auto pos = ParsePositionString(rules, text);
  EXPECT_TRUE(pos.ok()) << text << ": " << pos.status();
  return pos.ok() ? *pos : Position();
}

}  // namespace scribe

#endif  // SCRIBE_TESTS_COMMON_TEST_POSITIONS_H_
