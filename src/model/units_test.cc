#include "model/units.h"

#include <gtest/gtest.h>

namespace railyard {
namespace {

TEST(ParseSpeed, AcceptsUnitsAndInfinibandNames) {
  EXPECT_EQ(ParseSpeed("400G"), 400u);
  EXPECT_EQ(ParseSpeed("400g"), 400u);
  EXPECT_EQ(ParseSpeed("100"), 100u);
  EXPECT_EQ(ParseSpeed("1G"), 1u);
  EXPECT_EQ(ParseSpeed("800Gb/s"), 800u);
  EXPECT_EQ(ParseSpeed("1.6T"), 1600u);
  EXPECT_EQ(ParseSpeed("NDR"), 400u);
  EXPECT_EQ(ParseSpeed("hdr"), 200u);
  EXPECT_EQ(ParseSpeed("XDR"), 800u);
}

TEST(ParseSpeed, RejectsGarbage) {
  for (const char* bad : {"", "G", "fast", "0G", "-1G", "400X", "4 00G", "1e9G", "999999999G"}) {
    EXPECT_FALSE(ParseSpeed(bad)) << bad;
  }
}

TEST(FormatSpeed, RoundTrips) {
  EXPECT_EQ(FormatSpeed(400), "400G");
  EXPECT_EQ(FormatSpeed(1600), "1.6T");
  EXPECT_EQ(FormatSpeed(1000), "1T");
}

TEST(ParsePrefix, ValidatesHostBits) {
  auto p = ParsePrefix("10.0.0.0/12");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->length, 12);
  EXPECT_EQ(p->size(), 1u << 20);
  EXPECT_EQ(FormatPrefix(*p), "10.0.0.0/12");
  std::string why;
  EXPECT_FALSE(ParsePrefix("10.0.0.1/24", &why));
  EXPECT_NE(why.find("did you mean 10.0.0.0/24"), std::string::npos) << why;
  EXPECT_TRUE(ParsePrefix("0.0.0.0/0"));
  EXPECT_TRUE(ParsePrefix("10.1.2.3/32"));
  for (const char* bad : {"10.0.0.0", "10.0.0.0/33", "256.0.0.0/8", "10.0.0/8", "10.0.0.0/", "a.b.c.d/8", "10.0.0.0/8x"}) {
    EXPECT_FALSE(ParsePrefix(bad)) << bad;
  }
}

TEST(Prefix, ContainsAndOverlaps) {
  auto a = *ParsePrefix("10.0.0.0/12");
  auto b = *ParsePrefix("10.16.0.0/16");
  auto c = *ParsePrefix("10.8.0.0/16");
  EXPECT_FALSE(a.overlaps(b));
  EXPECT_TRUE(a.overlaps(c));
  EXPECT_TRUE(c.overlaps(a));
  EXPECT_TRUE(a.contains(*ParseIpv4("10.15.255.255")));
  EXPECT_FALSE(a.contains(*ParseIpv4("10.16.0.0")));
}

TEST(Ratio, ParsesDownToUp) {
  auto r = ParseRatio("2:1");
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->value(), 2.0);
  EXPECT_DOUBLE_EQ(ParseRatio("1.5:1")->value(), 1.5);
  EXPECT_DOUBLE_EQ(ParseRatio("5:3")->value(), 5.0 / 3);
  for (const char* bad : {"1:2", "0:1", "1", "1:0", "a:b", "2:1:1", "-2:1", "100:1"}) {
    EXPECT_FALSE(ParseRatio(bad)) << bad;
  }
  EXPECT_EQ(FormatRatio(1.0), "1:1");
  EXPECT_EQ(FormatRatio(2.0), "2:1");
  EXPECT_EQ(FormatRatio(0.12), "0.12:1");
}

TEST(Pcie, UsableBandwidthMatchesReferenceTable) {
  // ../shared/reference/fabric-math.md: Gen4 x16 ~252 Gb/s, Gen5 x16 ~504, Gen3 x16 ~126.
  EXPECT_NEAR(PcieGbps(4, 16), 252, 1);
  EXPECT_NEAR(PcieGbps(5, 16), 504, 1);
  EXPECT_NEAR(PcieGbps(3, 16), 126, 1);
  EXPECT_NEAR(PcieGbps(3, 8), 63, 1);
  EXPECT_LT(PcieGbps(4, 16), 400);  // a 400G NIC in Gen4 x16 cannot run at line rate
  EXPECT_GT(PcieGbps(5, 16), 400);
  EXPECT_EQ(PcieGbps(7, 16), 0);
}

}  // namespace
}  // namespace railyard
