#include <gtest/gtest.h>

#include "util/tar.h"

namespace railyard {
namespace {

std::string Archive(const std::string& path, const std::string& content) {
  std::string out;
  TarWriter tar([&out](std::string_view b) { out.append(b); }, 1700000000);
  tar.Add(path, 0600, content);
  tar.Finish();
  return out;
}

TEST(TarWriter, UstarHeaderSizesAndChecksum) {
  std::string a = Archive("dgx001/etc/netplan/60-railyard.yaml", "network: {}\n");
  ASSERT_EQ(a.size(), 512u + 512u + 1024u);  // header, one padded block, the end
  EXPECT_EQ(a.substr(0, 35), "dgx001/etc/netplan/60-railyard.yaml");
  EXPECT_EQ(a.substr(100, 7), "0000600");
  EXPECT_EQ(a.substr(124, 11), "00000000014");  // 12 bytes
  EXPECT_EQ(a.substr(257, 5), "ustar");
  uint32_t sum = 0;
  for (size_t i = 0; i < 512; ++i) sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(a[i]);
  EXPECT_EQ(std::stoul(a.substr(148, 6), nullptr, 8), sum);
  EXPECT_EQ(a.substr(512, 12), "network: {}\n");
}

TEST(TarWriter, LongPathsSplitAndBadPathsAreRefused) {
  std::string dir(120, 'd');
  std::string a = Archive(dir + "/file.txt", "x");
  EXPECT_EQ(a.substr(0, 8), "file.txt");
  EXPECT_EQ(a.substr(345, 120), dir);
  EXPECT_THROW(Archive("/etc/passwd", ""), std::invalid_argument);
  EXPECT_THROW(Archive("a/../../etc/passwd", ""), std::invalid_argument);
  EXPECT_THROW(Archive(std::string(300, 'a'), ""), std::invalid_argument);
  EXPECT_THROW(Archive(std::string(101, 'a'), ""), std::invalid_argument);  // nowhere to split
}

}  // namespace
}  // namespace railyard
