// Loading rules and positions in tests: a failure is a test failure (with
// the reason), never a crash, and the test goes on with null rules or an
// empty position.
#ifndef SCRIBE_TESTS_COMMON_TEST_RULES_H_
#define SCRIBE_TESTS_COMMON_TEST_RULES_H_

#include <memory>
#include <string>

#include "engine/position.h"
#include "engine/rules.h"
#include "engine/ruleset.h"
#include "gtest/gtest.h"

namespace scribe {

inline std::shared_ptr<const Rules> MustLoad(const std::string& reference) {
  auto r = LoadRuleset(reference);
  EXPECT_TRUE(r.ok()) << reference << ": " << r.status();
  return r.ok() ? *r : nullptr;
}

}  // namespace scribe

#endif  // SCRIBE_TESTS_COMMON_TEST_RULES_H_
