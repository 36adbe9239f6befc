// Where the tests find their data files (tests/data, in the repository so
// that a fresh clone runs every test).
#ifndef SCRIBE_TESTS_COMMON_TEST_DATA_H_
#define SCRIBE_TESTS_COMMON_TEST_DATA_H_

#include <fstream>
#include <sstream>
#include <string>

namespace scribe::testing {

inline std::string TestDataPath(const std::string& relative) {
  return std::string(SCRIBE_TEST_DATA_DIR) + "/" + relative;
}

inline std::string ReadTestFile(const std::string& relative) {
  std::ifstream in(TestDataPath(relative), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace scribe::testing

#endif  // SCRIBE_TESTS_COMMON_TEST_DATA_H_
