// What the storage tests share: assertions on absl::Status and StatusOr,
// and the comparison of two stored games field by field.
#ifndef SCRIBE_TESTS_STORAGE_STORE_TEST_UTIL_H_
#define SCRIBE_TESTS_STORAGE_STORE_TEST_UTIL_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "games/store.h"
#include "gtest/gtest.h"

#define ASSERT_OK(expr)                                     \
  do {                                                      \
    const ::absl::Status assert_ok_status = (expr);         \
    ASSERT_TRUE(assert_ok_status.ok()) << assert_ok_status; \
  } while (0)
#define EXPECT_OK(expr)                                     \
  do {                                                      \
    const ::absl::Status expect_ok_status = (expr);         \
    EXPECT_TRUE(expect_ok_status.ok()) << expect_ok_status; \
  } while (0)
#define STORE_TEST_CONCAT_INNER(a, b) a##b
#define STORE_TEST_CONCAT(a, b) STORE_TEST_CONCAT_INNER(a, b)
#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  ASSERT_OK_AND_ASSIGN_IMPL(STORE_TEST_CONCAT(status_or_, __LINE__), lhs, expr)
#define ASSERT_OK_AND_ASSIGN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  ASSERT_TRUE(tmp.ok()) << tmp.status();          \
  lhs = std::move(tmp).value()

namespace scribe::storage {

// Every field of a GameRow, figures included.
inline void ExpectSameGame(const games::GameRow& got, const games::GameRow& want) {
  EXPECT_EQ(got.id, want.id);
  EXPECT_EQ(got.ruleset, want.ruleset);
  EXPECT_EQ(got.identity, want.identity);
  EXPECT_EQ(got.identity_hash, want.identity_hash);
  EXPECT_EQ(got.extra, want.extra);
  EXPECT_EQ(got.light, want.light);
  EXPECT_EQ(got.dark, want.dark);
  EXPECT_EQ(got.event, want.event);
  EXPECT_EQ(got.date, want.date);
  EXPECT_EQ(got.result, want.result);
  EXPECT_EQ(got.plies, want.plies);
  for (int side = 0; side < 2; ++side) {
    ASSERT_EQ(got.figures[side].has_value(), want.figures[side].has_value()) << "side " << side;
    if (!want.figures[side]) continue;
    EXPECT_EQ(got.figures[side]->accuracy, want.figures[side]->accuracy);
    EXPECT_EQ(got.figures[side]->error_rate, want.figures[side]->error_rate);
    EXPECT_EQ(got.figures[side]->performance, want.figures[side]->performance);
  }
}

}  // namespace scribe::storage

#endif  // SCRIBE_TESTS_STORAGE_STORE_TEST_UTIL_H_
