// RecordFileMap (cli/record_file_map.h): the import's record files, mapped
// and given back page by page.
#include "cli/record_file_map.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/input_files.h"
#include "gtest/gtest.h"

namespace scribe {
namespace {

class RecordFileMapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("record_file_map_test." + std::to_string(::getpid()) + "." +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::filesystem::path dir_;
};

// The process's resident memory now, in KiB (VmRSS).
long ResidentKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

TEST_F(RecordFileMapTest, MapsTheFileAndKeepsItsBytesAfterARelease) {
  std::string bytes;
  for (int i = 0; i < 100000; ++i) bytes += "[TSN \"1\"] " + std::to_string(i) + "\n";
  const std::string path = Write("records.tsn", bytes);
  RecordFileMap file;
  std::string error;
  ASSERT_TRUE(file.Open(path, &error)) << error;
  EXPECT_EQ(file.text(), bytes);
  file.Release();
  EXPECT_EQ(file.text(), bytes);  // read again from the file
  EXPECT_FALSE(file.Shrank());
}

TEST_F(RecordFileMapTest, ReleaseGivesTheReadPagesBack) {
  const std::string path = Write("big.tsn", std::string(size_t{64} << 20, 'x'));
  RecordFileMap file;
  std::string error;
  ASSERT_TRUE(file.Open(path, &error)) << error;
  const long before = ResidentKib();
  long sum = 0;
  for (size_t i = 0; i < file.text().size(); i += 4096) sum += file.text()[i];
  EXPECT_EQ(sum, static_cast<long>('x') * static_cast<long>(file.text().size() / 4096));
  const long touched = ResidentKib();
  EXPECT_GT(touched - before, 48 * 1024) << "reading 64 MiB of the mapping made it resident";
  file.Release();
  EXPECT_LT(ResidentKib() - before, 16 * 1024) << "after Release the pages are no longer this process's";
}

TEST_F(RecordFileMapTest, AFileCutShortReadsAsZerosAndSaysSo) {
  const std::string bytes(size_t{1} << 20, 'a');
  const std::string path = Write("cut.tsn", bytes);
  RecordFileMap file;
  std::string error;
  ASSERT_TRUE(file.Open(path, &error)) << error;
  ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
  file.Release();  // the pages past the cut are read again: past the file's end
  EXPECT_EQ(file.text()[0], 'a');
  EXPECT_EQ(file.text()[4095], 'a');
  EXPECT_EQ(file.text()[8192], '\0');  // no SIGBUS: a page of zeros
  EXPECT_EQ(file.text()[bytes.size() - 1], '\0');
  EXPECT_TRUE(file.Shrank());
  // The next file starts afresh.
  const std::string other = Write("other.tsn", "abc");
  ASSERT_TRUE(file.Open(other, &error)) << error;
  EXPECT_EQ(file.text(), "abc");
  EXPECT_FALSE(file.Shrank());
}

TEST_F(RecordFileMapTest, RefusesWhatReadFileRefusesWithItsWords) {
  RecordFileMap file;
  std::string error;
  EXPECT_FALSE(file.Open((dir_ / "missing.tsn").string(), &error));
  EXPECT_NE(error.find("missing.tsn: cannot open"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(file.Open(dir_.string(), &error));
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
  const std::string huge = Write("huge.tsn", "");
  ASSERT_EQ(::truncate(huge.c_str(), kMaxFileBytes + 1), 0);  // sparse: no disk used
  error.clear();
  EXPECT_FALSE(file.Open(huge, &error));
  EXPECT_NE(error.find("is more than the 536870912 allowed"), std::string::npos) << error;
}

TEST_F(RecordFileMapTest, AnEmptyFileOrAPipeIsReadWhole) {
  RecordFileMap file;
  std::string error;
  ASSERT_TRUE(file.Open(Write("empty.tsn", ""), &error)) << error;
  EXPECT_EQ(file.text(), "");
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::FILE* writer = ::popen(("printf 'through a pipe' > " + fifo).c_str(), "r");
  ASSERT_NE(writer, nullptr);
  ASSERT_TRUE(file.Open(fifo, &error)) << error;
  EXPECT_EQ(file.text(), "through a pipe");
  ::pclose(writer);
}

}  // namespace
}  // namespace scribe
