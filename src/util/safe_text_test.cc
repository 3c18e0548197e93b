#include "util/safe_text.h"

#include <gtest/gtest.h>

#include "util/input_error.h"

namespace railyard {
namespace {

TEST(SafeText, NamesAndPortsAreWhatThePlannerWrites) {
  for (const char* ok : {"node001", "compute-leaf-su01-r1", "r01-n1", "a.b_c-d"})
    EXPECT_TRUE(Conforms(TextRule::kName, ok)) << ok;
  for (const char* bad : {"", "-rf", ".hidden", "..", "../x", "a/b", "a b", "a\nb", "$(reboot)", "a'b", "x\xe2\x80\x8b"})
    EXPECT_FALSE(Conforms(TextRule::kName, bad)) << bad;
  for (const char* ok : {"Ethernet1/1", "P16.0", "IB1/33", "swp17s1", "mlx5_0", "eth1/1/1"})
    EXPECT_TRUE(Conforms(TextRule::kPort, ok)) << ok;
  EXPECT_FALSE(Conforms(TextRule::kPort, "swp1;reboot"));
  EXPECT_TRUE(Conforms(TextRule::kIfname, "enp24s0np0"));
  EXPECT_FALSE(Conforms(TextRule::kIfname, "enp24s0np0-toolong"));
  EXPECT_FALSE(Conforms(TextRule::kName, std::string(65, 'a')));
}

TEST(SafeText, AddressesAreParsedNotPatternMatched) {
  for (const char* ok : {"10.0.0.1", "10.0.0.1/31", "fd00::1/127", "::1", "10.16.0.0/16"})
    EXPECT_TRUE(Conforms(TextRule::kAddress, ok)) << ok;
  for (const char* bad : {"10.0.0.256", "10.0.0.1/33", "10.0.0.1/", "10.0.0.1/3a", "1.2.3.4\n", "fd00::1/129", "host"})
    EXPECT_FALSE(Conforms(TextRule::kAddress, bad)) << bad;
  EXPECT_TRUE(Conforms(TextRule::kPrefix, "10.0.0.0/12"));
  EXPECT_FALSE(Conforms(TextRule::kPrefix, "10.0.0.0"));
}

TEST(SafeText, FreeTextRefusesWhatBreaksOrHidesALine) {
  EXPECT_TRUE(Conforms(TextRule::kText, "SuperPOD H100 (4 SU) — 北京"));
  for (const char* bad : {"a\nb", "a\rb", "a\x1b[2Jb", "a\xc2\x85z", "a\xe2\x80\xa8z", "a\xe2\x80\xaez", "\xff\xfe", ""})
    EXPECT_FALSE(Conforms(TextRule::kText, bad)) << bad;
  EXPECT_FALSE(Conforms(TextRule::kText, std::string(257, 'a')));
}

TEST(SafeText, VersionsDevicesImagesAndDigests) {
  EXPECT_TRUE(Conforms(TextRule::kVersion, "28.43.2026"));
  EXPECT_FALSE(Conforms(TextRule::kVersion, "28.43.2026$(id)"));
  EXPECT_TRUE(Conforms(TextRule::kDevice, "0000:1a:00.0"));
  EXPECT_TRUE(Conforms(TextRule::kDevice, "/dev/mst/mt4129_pciconf0"));
  EXPECT_FALSE(Conforms(TextRule::kDevice, "-y"));
  EXPECT_TRUE(Conforms(TextRule::kImage, "cx7/fw-ConnectX7-rel-28_43_2026.bin"));
  EXPECT_FALSE(Conforms(TextRule::kImage, "../../etc/shadow"));
  EXPECT_FALSE(Conforms(TextRule::kImage, "/etc/shadow"));
  EXPECT_TRUE(Conforms(TextRule::kSha256, std::string(64, 'a')));
  EXPECT_FALSE(Conforms(TextRule::kSha256, std::string(63, 'a')));
}

TEST(SafeText, TheErrorNamesFilePlaceValueAndRuleOnOneLine) {
  try {
    RequireText(TextRule::kName, "x\n$(reboot)", "plan.json", "/devices/3/name");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "plan.json");
    EXPECT_EQ(e.key(), "/devices/3/name");
    const std::string what = e.what();
    EXPECT_NE(what.find("'x\\x0a$(reboot)' is not a name"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
  EXPECT_NO_THROW(RequireTextOrEmpty(TextRule::kName, "", "f", "k"));
}

}  // namespace
}  // namespace railyard
