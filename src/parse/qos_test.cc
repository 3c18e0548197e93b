#include "parse/qos.h"

#include <gtest/gtest.h>

#include "parse/fixtures.h"

namespace railyard {
namespace {

using testing::ReadText;

std::string QosFixture(const std::string& name) {
  return ReadText(std::string(RAILYARD_SOURCE_DIR) + "/tests/fixtures/mlnx_qos/" + name);
}

TEST(MlnxQos, OsControlledDscpTrustWithPfcOnPriority3) {
  MlnxQos q = ParseMlnxQos(QosFixture("cx5-os-controlled-dscp-pfc3-vendor-tsa.txt"));
  EXPECT_TRUE(q.warnings.empty());
  EXPECT_EQ(q.dcbx_mode, "OS controlled");
  EXPECT_EQ(q.trust, "dscp");
  // The default table: eight consecutive DSCPs per priority; RoCE's DSCP 26 lands on priority 3
  // and the CNP DSCP 48 on priority 6.
  EXPECT_EQ(q.dscp_to_priority[26], 3);
  EXPECT_EQ(q.dscp_to_priority[48], 6);
  EXPECT_EQ(q.dscp_to_priority[0], 0);
  EXPECT_EQ(q.dscp_to_priority[63], 7);
  EXPECT_EQ(q.cable_length_m, 7);
  EXPECT_EQ(q.PfcPriorities(), std::vector<int>{3});
  EXPECT_EQ(q.pfc_buffer[3], -1);  // this version prints no buffer row
  EXPECT_TRUE(q.receive_buffer_bytes.empty());
  ASSERT_EQ(q.traffic_classes.size(), 8u);
  EXPECT_EQ(q.traffic_classes[0].tc, 0);
  EXPECT_EQ(q.traffic_classes[0].tsa, "vendor");
  EXPECT_EQ(q.traffic_classes[0].rate_limit, "unlimited");
  EXPECT_EQ(q.traffic_classes[0].priorities, std::vector<int>{1});
  EXPECT_EQ(q.traffic_classes[1].priorities, std::vector<int>{0});
  EXPECT_FALSE(q.traffic_classes[3].bandwidth_percent.has_value());
}

TEST(MlnxQos, FirmwareDcbxWithBuffersAndEts) {
  MlnxQos q = ParseMlnxQos(QosFixture("firmware-dcbx-dscp-pfc3-buffers-ets.txt"));
  EXPECT_TRUE(q.warnings.empty());
  EXPECT_EQ(q.dcbx_mode, "Firmware controlled");
  EXPECT_EQ(q.receive_buffer_bytes, (std::vector<uint64_t>{130944, 130944, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(q.max_buffer_bytes, 262016u);
  EXPECT_EQ(q.PfcPriorities(), std::vector<int>{3});
  EXPECT_EQ(q.pfc_buffer, (PerPriority{0, 0, 0, 1, 0, 0, 0, 0}));
  ASSERT_EQ(q.traffic_classes.size(), 3u);
  EXPECT_EQ(q.traffic_classes[0].bandwidth_percent, 50);
  EXPECT_EQ(q.traffic_classes[0].priorities, (std::vector<int>{0, 1, 2, 4, 5, 7}));
  EXPECT_EQ(q.traffic_classes[1].tc, 3);
  EXPECT_EQ(q.traffic_classes[1].tsa, "ets");
  EXPECT_EQ(q.traffic_classes[2].tc, 6);
  EXPECT_EQ(q.traffic_classes[2].tsa, "vendor");
}

TEST(MlnxQos, TruncatedAndForeignTextWarn) {
  std::string text = QosFixture("firmware-dcbx-dscp-pfc3-buffers-ets.txt");
  MlnxQos cut = ParseMlnxQos(text.substr(0, text.find("enabled") + 20));
  EXPECT_EQ(cut.trust, "dscp");
  EXPECT_EQ(cut.pfc_enabled[3], -1);
  EXPECT_FALSE(cut.warnings.empty());  // the half row is named, not read as zeros
  MlnxQos foreign = ParseMlnxQos("Settings for eth0:\n\tSpeed: 100000Mb/s\n");
  ASSERT_FALSE(foreign.warnings.empty());
  EXPECT_NE(foreign.warnings.back().message.find("not mlnx_qos"), std::string::npos);
}

TEST(Ecn, GrepOutputOfTheSysfsSwitches) {
  EcnState e = ParseEcnGrep(
      "/sys/class/net/eth0/ecn/roce_np/enable/0:0\n"
      "/sys/class/net/eth0/ecn/roce_np/enable/3:1\n"
      "/sys/class/net/eth0/ecn/roce_rp/enable/3:1\n"
      "/sys/class/net/eth0/ecn/roce_rp/enable/5:0\n"
      "/sys/class/net/eth0/ecn/roce_np/cnp_dscp:48\n"
      "/sys/class/net/eth0/ecn/roce_rp/enable/9:1\n");
  EXPECT_EQ(e.np_enabled, (PerPriority{0, -1, -1, 1, -1, -1, -1, -1}));
  EXPECT_EQ(e.rp_enabled, (PerPriority{-1, -1, -1, 1, -1, 0, -1, -1}));
  ASSERT_EQ(e.warnings.size(), 1u);  // priority 9
  EXPECT_EQ(e.warnings[0].line, 6);
  EXPECT_TRUE(e.Known());
  EXPECT_FALSE(EcnState().Known());
}

}  // namespace
}  // namespace railyard
