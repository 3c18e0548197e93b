#include "util/content_hash.h"

#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>

namespace railyard {
namespace {

std::string Bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

TEST(ContentHash, TheSameBytesGiveTheSameDigestHoweverTheyAreSplit) {
  std::mt19937 rng(7);
  for (size_t n : {0u, 1u, 31u, 32u, 33u, 64u, 1000u, 100003u}) {
    std::string data = Bytes(n, static_cast<uint32_t>(n));
    ContentHash whole;
    whole.Update(data);
    for (int trial = 0; trial < 20; ++trial) {
      ContentHash pieces;
      for (size_t at = 0; at < n;) {
        size_t take = std::min(n - at, static_cast<size_t>(rng() % 97));
        pieces.Update(std::string_view(data).substr(at, take));
        at += take;
      }
      ASSERT_EQ(pieces.Digest(), whole.Digest()) << n;
      ASSERT_EQ(pieces.size(), n);
    }
  }
}

TEST(ContentHash, AnyOneByteChangeOrLengthChangeIsSeen) {
  std::string data = Bytes(4099, 1);
  ContentHash base;
  base.Update(data);
  for (size_t at = 0; at < data.size(); at += 37) {
    std::string changed = data;
    changed[at] = static_cast<char>(changed[at] ^ 1);
    ContentHash h;
    h.Update(changed);
    ASSERT_NE(h.Digest(), base.Digest()) << at;
  }
  ContentHash shorter, longer;
  shorter.Update(std::string_view(data).substr(0, data.size() - 1));
  longer.Update(data + '\0');
  EXPECT_NE(shorter.Digest(), base.Digest());
  EXPECT_NE(longer.Digest(), base.Digest());
}

TEST(ContentHash, HashFileAgreesWithTheBytes) {
  std::string data = Bytes(3 << 20, 2);  // more than one 1 MiB read
  auto path = std::filesystem::temp_directory_path() / ("railyard-hash-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << data;
  uint64_t digest = 0, size = 0;
  ASSERT_TRUE(HashFile(path.string(), digest, size));
  ContentHash h;
  h.Update(data);
  EXPECT_EQ(digest, h.Digest());
  EXPECT_EQ(size, data.size());
  std::filesystem::remove(path);
  EXPECT_FALSE(HashFile(path.string(), digest, size));
  EXPECT_EQ(HexDigest(0xabcull), "0000000000000abc");
}

}  // namespace
}  // namespace railyard
