// The finding codes (records/finding_codes.h) and their documentation
// (docs/validation.md) list the same codes, each once: a code added to one
// and not the other fails here.
#include "records/finding_codes.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace scribe {
namespace {

std::string ReadDoc(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The codes in the first column of docs/validation.md's code table: rows
// "| `code` | scope | ...".
std::set<std::string> DocumentedCodes() {
  const std::string doc = ReadDoc(std::string(SCRIBE_TEST_DATA_DIR) + "/../../docs/validation.md");
  EXPECT_FALSE(doc.empty()) << "docs/validation.md not found";
  std::set<std::string> out;
  const std::regex row(R"(\n\| `([a-z0-9-]+)` \| (file|record|action) \|)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), row); it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(out.insert((*it)[1]).second) << "documented twice: " << (*it)[1];
  }
  return out;
}

TEST(FindingCodesTest, EachCodeOnceAndWellFormed) {
  std::set<std::string> seen;
  for (absl::string_view code : codes::kAll) {
    EXPECT_TRUE(seen.insert(std::string(code)).second) << "listed twice: " << code;
    EXPECT_TRUE(std::regex_match(std::string(code), std::regex("[a-z]+(-[a-z0-9]+)*"))) << code;
  }
}

TEST(FindingCodesTest, TheDocsListExactlyTheCodes) {
  const std::set<std::string> documented = DocumentedCodes();
  std::set<std::string> declared;
  for (absl::string_view code : codes::kAll) declared.insert(std::string(code));
  for (const std::string& code : declared) EXPECT_TRUE(documented.count(code)) << code << " is not in validation.md";
  for (const std::string& code : documented) EXPECT_TRUE(declared.count(code)) << code << " is not a named constant";
  EXPECT_GE(documented.size(), 40u);
}

}  // namespace
}  // namespace scribe
