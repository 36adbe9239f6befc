// Table files (analysis/table.h): a solve written and mapped back to the
// same values as an independent brute force's (tests/common/exact_test_evaluator.h),
// a table for other rules refused, damaged files refused.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "analysis/table.h"
#include "engine/evaluator.h"
#include "gtest/gtest.h"
#include "tests/common/exact_test_evaluator.h"
#include "tests/common/test_rules.h"
#include "tests/engine/solved.h"

namespace scribe {
namespace {

class TableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/scribe_table_test_" + std::to_string(::getpid());
    std::string cmd = "mkdir -p " + dir_;
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  // Each test's tables go with it (a run leaves nothing in the temp folder).
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  std::string dir_;
};

TEST_F(TableTest, WritesAndMapsTheSameValues) {
  Solved s = SolveOrDie("blitz(pieces=2)");
  ASSERT_TRUE(WriteTable(Path("b2.tbl"), *s.rules, s.solution).ok());
  auto table = TableEvaluator::Open(Path("b2.tbl"));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE((*table)->exact());
  EXPECT_EQ((*table)->info().positions, s.index->size());
  EXPECT_EQ((*table)->info().digest, s.rules->digest);
  ExactTestEvaluator bf(s.rules);
  for (size_t i = 0; i < bf.positions().size(); ++i) {
    ASSERT_NEAR((*table)->Value(bf.positions()[i]), bf.value(i), 1.0 / 65535 + 1e-5);
  }
  // A table answers one ply deeper with its own values, up to rounding.
  for (size_t i = 0; i < bf.positions().size(); i += 7) {
    ASSERT_NEAR(ExpectedValueOverThrows(**table, bf.positions()[i]), (*table)->Value(bf.positions()[i]), 1e-4);
  }
}

TEST_F(TableTest, RefusesATableForOtherRules) {
  Solved s = SolveOrDie("finkel(pieces=2)");
  ASSERT_TRUE(WriteTable(Path("f2.tbl"), *s.rules, s.solution).ok());
  auto other = TableEvaluator::Open(Path("f2.tbl"), MustLoad("blitz(pieces=2)"));
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(other.status().message().find(s.rules->digest), absl::string_view::npos);
  auto same = TableEvaluator::Open(Path("f2.tbl"), MustLoad("finkel(pieces=2)"));
  EXPECT_TRUE(same.ok()) << same.status();
}

TEST_F(TableTest, RefusesDamagedFiles) {
  Solved s = SolveOrDie("finkel(pieces=1)");
  ASSERT_TRUE(WriteTable(Path("f1.tbl"), *s.rules, s.solution).ok());
  std::string bytes;
  {
    std::ifstream in(Path("f1.tbl"), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const auto write = [&](const std::string& name, const std::string& data) {
    std::ofstream out(Path(name), std::ios::binary);
    out << data;
  };
  write("truncated.tbl", bytes.substr(0, bytes.size() - 2));
  write("longer.tbl", bytes + "xx");
  std::string flipped = bytes;
  flipped[80] ^= 1;  // inside the ruleset text
  write("flipped.tbl", flipped);
  std::string magic = bytes;
  magic[0] = 'X';
  write("magic.tbl", magic);
  write("empty.tbl", "");
  for (const char* name : {"truncated.tbl", "longer.tbl", "flipped.tbl", "magic.tbl", "empty.tbl"}) {
    auto t = TableEvaluator::Open(Path(name));
    ASSERT_FALSE(t.ok()) << name;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << name << ": " << t.status();
  }
  auto missing = TableEvaluator::Open(Path("missing.tbl"));
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace scribe
