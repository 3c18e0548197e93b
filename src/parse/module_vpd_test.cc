// ethtool -m, ethtool -S and binary sysfs VPD.
#include <gtest/gtest.h>

#include "parse/fixtures.h"
#include "parse/module.h"
#include "parse/vpd.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

TEST(EthtoolModule, SfpWithDigitalDiagnostics) {
  auto path = FixturePath("ethtool/m-sfp-1000base-sx-sff8472-dom-thresholds.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  ModuleInfo m = ParseEthtoolModule(ReadText(path));
  EXPECT_TRUE(m.readable);
  EXPECT_EQ(m.identifier, "0x03 (SFP)");
  EXPECT_EQ(m.vendor_name, "JDSU");  // trailing padding trimmed
  EXPECT_EQ(m.vendor_oui, "00:01:9c");
  EXPECT_EQ(m.vendor_pn, "PLRXPL-VI-S24-22");
  EXPECT_DOUBLE_EQ(*m.temperature_c, 41.70);
  EXPECT_DOUBLE_EQ(*m.voltage_v, 3.2947);
  EXPECT_EQ(m.transceiver_types.size(), 7u);
  EXPECT_EQ(m.transceiver_types[0], "Ethernet: 1000BASE-SX");
  EXPECT_EQ(m.lengths.at("Length (50um)"), "300m");
  EXPECT_TRUE(m.alarms_on.empty());
}

TEST(EthtoolModule, QsfpDdNvidiaDac) {
  auto path = FixturePath("ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  ModuleInfo m = ParseEthtoolModule(ReadText(path));
  EXPECT_EQ(m.vendor_name, "Mellanox");
  EXPECT_EQ(m.vendor_oui, "00:02:c9");
  EXPECT_EQ(m.vendor_pn, "MCP1660-W00AE30");
  EXPECT_EQ(m.vendor_sn, "MT2019VS04757");
  EXPECT_DOUBLE_EQ(*m.cable_length_m, 0.5);  // printed "0.50km"
  EXPECT_EQ(m.transmitter_technology, "0x0a (Copper cable, unequalized)");
}

TEST(EthtoolModule, UnreadableEeprom) {
  auto path = FixturePath("ethtool/m-cx3pro-40g-netlink-input-output-error.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  ModuleInfo m = ParseEthtoolModule(ReadText(path));
  EXPECT_FALSE(m.readable);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].message.find("Input/output error"), std::string::npos);
}

TEST(EthtoolStats, Mlx5CountersUnderXdpLoad) {
  auto path = FixturePath("ethtool/S-mlx5-kernel-5.15-xdp-load-rx-discards-phy-out-of-buffer-pause.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  NicCounters c = ParseEthtoolStats(ReadText(path));
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(c.Get("rx_packets"), 333854100u);
  EXPECT_EQ(c.Get("rx_out_of_buffer"), 990473555u);
  EXPECT_GT(c.values.size(), 50u);
  EXPECT_EQ(c.Get("no_such_counter"), 0u);
  EXPECT_EQ(ParseEthtoolStats("rx_packets: 1\n").warnings.size(), 1u);
}

// No real binary VPD dump is among the shared samples: this image is built from the decoded
// VPD of the real ConnectX-7 in lspci/cx7-ndr-osfp-gen5-x16-vpd.txt, laid out as PCI 3.0 §6.4
// specifies, with its checksum computed the way the card's is.
std::string Cx7VpdImage() {
  std::string out;
  auto large = [&](uint8_t tag, const std::string& body) {
    out.push_back(static_cast<char>(tag));
    out.push_back(static_cast<char>(body.size() & 0xFF));
    out.push_back(static_cast<char>(body.size() >> 8));
    out += body;
  };
  auto field = [](const std::string& key, const std::string& value) { return key + static_cast<char>(value.size()) + value; };
  large(0x82, "NVIDIA ConnectX-7 HHHL Adapter card, 400GbE / NDR IB (default mode), Single-port OSFP");
  std::string ro = field("PN", "MCX75310AAS-NEAT         ") + field("EC", "AA") + field("V2", "MCX75310AAS-NEAT         ") +
                   field("SN", "MT2347J0100T   ") + field("V0", "PCIeGen5 x16 ") + field("VU", "MT2347J0100TMLNXS0D0F0 ");
  // RV: checksum byte plus one reserved byte; the checksum makes everything so far sum to zero.
  std::string rv_head = "RV" + std::string(1, '\x02');
  std::string head = out + std::string(1, '\x90') + std::string(2, '\0') + ro + rv_head;
  size_t ro_len = ro.size() + 3 + 2;
  head[out.size() + 1] = static_cast<char>(ro_len & 0xFF);
  head[out.size() + 2] = static_cast<char>(ro_len >> 8);
  uint8_t sum = 0;
  for (char c : head) sum = static_cast<uint8_t>(sum + static_cast<uint8_t>(c));
  out = head + std::string(1, static_cast<char>(static_cast<uint8_t>(-sum))) + std::string(1, '\0');
  large(0x91, field("V1", "N/A") + field("RW", std::string(4, '\0')));
  out.push_back('\x78');
  return out;
}

TEST(BinaryVpd, DecodesAndVerifiesTheChecksum) {
  BinaryVpd v = ParseBinaryVpd(Cx7VpdImage());
  EXPECT_TRUE(v.warnings.empty()) << v.warnings[0].message;
  EXPECT_EQ(v.product_name.rfind("NVIDIA ConnectX-7", 0), 0u);
  EXPECT_EQ(v.read_only.at("PN"), "MCX75310AAS-NEAT");
  EXPECT_EQ(v.read_only.at("SN"), "MT2347J0100T");
  EXPECT_EQ(v.read_only.at("V0"), "PCIeGen5 x16");
  EXPECT_EQ(v.read_write.at("V1"), "N/A");
  EXPECT_TRUE(v.has_rv);
  EXPECT_TRUE(v.checksum_ok);
  EXPECT_TRUE(v.has_end);
}

TEST(BinaryVpd, OneChangedByteBreaksTheChecksum) {
  // A re-flashed serial number that did not fix the checksum: what "刷号卡" often look like.
  std::string image = Cx7VpdImage();
  size_t sn = image.find("MT2347J0100T ");
  image[sn + 11] = 'X';
  BinaryVpd v = ParseBinaryVpd(image);
  EXPECT_EQ(v.read_only.at("SN"), "MT2347J0100X");
  EXPECT_FALSE(v.checksum_ok);
  EXPECT_NE(v.checksum_sum, 0);
}

TEST(BinaryVpd, TruncatedAndGarbage) {
  std::string image = Cx7VpdImage();
  for (size_t cut = 0; cut < image.size(); ++cut) ParseBinaryVpd(image.substr(0, cut));  // never a crash
  BinaryVpd half = ParseBinaryVpd(image.substr(0, 60));
  EXPECT_FALSE(half.warnings.empty());
  EXPECT_FALSE(ParseBinaryVpd("\x01\x02\x03").warnings.empty());
  EXPECT_FALSE(ParseBinaryVpd("").has_rv);
}

}  // namespace
}  // namespace railyard
