// mlxlink, ibstat and ibdev2netdev on every real sample in tests/fixtures.
#include <gtest/gtest.h>

#include "parse/fixtures.h"
#include "parse/ibstat.h"
#include "parse/mlxlink.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

TEST(Mlxlink, EthernetPortWithNoIssue) {
  auto path = FixturePath("mlxlink/cx6dx-eth-100g-rs528-no-issue.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  MlxlinkReport r = ParseMlxlink(ReadText(path));
  ASSERT_EQ(r.ports.size(), 1u);
  const MlxlinkPort& p = r.ports[0];
  EXPECT_EQ(p.state, "Active");
  EXPECT_EQ(p.physical_state, "ETH_AN_FSM_ENABLE");
  EXPECT_EQ(p.speed, "100G");
  EXPECT_EQ(p.width, "4x");
  EXPECT_EQ(p.fec, "Standard RS-FEC - RS(528,514)");
  EXPECT_EQ(p.status_opcode, 0);
  EXPECT_EQ(p.recommendation, "No issue was observed");
  EXPECT_EQ(p.firmware_version, "22.36.1010");
  EXPECT_EQ(p.fields.at("Enabled Link Speed (Ext.)"), "0x000007f2 (100G_2X,100G_4X,50G_1X,50G_2X,40G,25G,10G,1G)");
}

TEST(Mlxlink, EightHcasOfBerCountersInOneCapture) {
  auto path = FixturePath("mlxlink/cx6-ib-hdr-show-counters-grep-filtered-8hca-raw-ber.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  MlxlinkReport r = ParseMlxlink(ReadText(path));
  ASSERT_EQ(r.ports.size(), 8u);
  EXPECT_EQ(r.ports[0].device, "mlx5_0");
  EXPECT_DOUBLE_EQ(*r.ports[0].raw_ber, 1e-8);
  EXPECT_DOUBLE_EQ(*r.ports[0].effective_ber, 15e-255);  // mlxlink's "no error seen" floor
  EXPECT_EQ(*r.ports[0].effective_errors, 0u);
  EXPECT_EQ(r.ports[0].raw_errors_per_lane, (std::vector<uint64_t>{3183333, 242074}));
  EXPECT_DOUBLE_EQ(*r.ports[3].raw_ber, 1e-7);  // the worst of the eight
  EXPECT_EQ(r.ports[7].device, "mlx5_7");
}

TEST(Mlxlink, IbHdrAndExtendedSpeedMasks) {
  for (const char* f :
       {"mlxlink/cx6-ib-hdr-2x-hdr100-ber-monitor-unsupported.txt", "mlxlink/cx7-eth-100g-dac-rs528-ext-speed-masks.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  MlxlinkReport hdr = ParseMlxlink(ReadText(FixturePath("mlxlink/cx6-ib-hdr-2x-hdr100-ber-monitor-unsupported.txt")));
  ASSERT_EQ(hdr.ports.size(), 1u);
  EXPECT_EQ(hdr.ports[0].speed, "IB-HDR");
  EXPECT_EQ(hdr.ports[0].width, "2x");  // HDR100: two lanes
  MlxlinkReport cx7 = ParseMlxlink(ReadText(FixturePath("mlxlink/cx7-eth-100g-dac-rs528-ext-speed-masks.txt")));
  EXPECT_EQ(cx7.ports[0].firmware_version, "28.47.1088");
}

TEST(Mlxlink, ColoursAndGarbage) {
  MlxlinkReport r = ParseMlxlink("State                           : \x1b[1;32mActive\x1b[0m\n");
  ASSERT_EQ(r.ports.size(), 1u);
  EXPECT_EQ(r.ports[0].state, "Active");
  EXPECT_EQ(ParseMlxlink("-E- Failed to open device\n").warnings.size(), 1u);
  // Found by the fuzzer: a rule of '=' alone once threw std::out_of_range.
  EXPECT_NO_THROW(ParseMlxlink("Speed : IB-HDR\n==========\nWidth : 4x\n"));
  EXPECT_EQ(ParseMlxlink("==========\n=====\n").warnings.size(), 1u);
}

TEST(Ibstat, H100WithCx7IbAndEthernetPorts) {
  auto path = FixturePath("ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  IbstatReport r = ParseIbstat(ReadText(path));
  ASSERT_GE(r.cas.size(), 3u);
  const IbstatCa& cx7 = r.cas[0];
  EXPECT_EQ(cx7.name, "mlx5_0");
  EXPECT_EQ(cx7.ca_type, "MT4129");
  EXPECT_EQ(cx7.firmware_version, "28.39.1002");
  EXPECT_EQ(cx7.node_guid, "0x946dae0300cde72c");
  ASSERT_EQ(cx7.ports.size(), 1u);
  EXPECT_EQ(cx7.ports[0].state, "Active");
  EXPECT_EQ(cx7.ports[0].physical_state, "LinkUp");
  EXPECT_EQ(cx7.ports[0].rate, 400u);
  EXPECT_EQ(cx7.ports[0].link_layer, "InfiniBand");
  EXPECT_EQ(r.cas[1].ports[0].link_layer, "Ethernet");
  int down = 0;
  for (const IbstatCa& ca : r.cas) {
    for (const IbstatPort& p : ca.ports) down += p.state == "Down" ? 1 : 0;
  }
  EXPECT_GT(down, 0);  // the Ethernet ports that are down
}

TEST(Ibstat, A100HdrAndCx3Vpi) {
  for (const char* f : {"ibstat/a100-node-8x-cx6-hdr100-rate100.txt", "ibstat/cx3-mlx4-vpi-both-ports-ethernet-rate40.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  IbstatReport a100 = ParseIbstat(ReadText(FixturePath("ibstat/a100-node-8x-cx6-hdr100-rate100.txt")));
  EXPECT_GE(a100.cas.size(), 8u);
  EXPECT_EQ(a100.cas[0].ports[0].rate, 100u);  // HDR100
  IbstatReport cx3 = ParseIbstat(ReadText(FixturePath("ibstat/cx3-mlx4-vpi-both-ports-ethernet-rate40.txt")));
  ASSERT_EQ(cx3.cas.size(), 1u);
  ASSERT_EQ(cx3.cas[0].ports.size(), 2u);
  EXPECT_EQ(cx3.cas[0].ports[1].rate, 40u);
  EXPECT_EQ(ParseIbstat("nothing").warnings.size(), 2u);
}

TEST(Ibdev2netdev, VerboseAndPlain) {
  for (const char* f :
       {"ibdev2netdev/mixed-cx4lx-cx5-cx6-socket-direct-vf-verbose.txt", "ibdev2netdev/mixed-cx4lx-cx5-cx6-vf-plain.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  const Parsed<RdmaNetdev> verbose =
      ParseIbdev2netdev(ReadText(FixturePath("ibdev2netdev/mixed-cx4lx-cx5-cx6-socket-direct-vf-verbose.txt")));
  EXPECT_TRUE(verbose.warnings.empty());
  const std::vector<RdmaNetdev>& v = verbose.rows;
  ASSERT_GE(v.size(), 8u);
  EXPECT_EQ(v[2].pci_bdf, "0000:4b:00.0");
  EXPECT_EQ(v[2].rdma_device, "mlx5_2");
  EXPECT_EQ(v[2].part, "MCX515A-CCAT");
  EXPECT_EQ(v[2].firmware, "16.27.1016");
  EXPECT_EQ(v[2].port_state, "ACTIVE");
  EXPECT_EQ(v[2].netdev, "ens6");
  EXPECT_EQ(v[2].netdev_state, "Up");
  EXPECT_EQ(v[5].description, "ConnectX-6 VPI adapter card, HDR IB (200Gb/s) and 200GbE, single-port QSFP56, Socket Direct");
  EXPECT_EQ(v[5].netdev, "ib0");
  EXPECT_EQ(v[6].part, "NA");  // a VF: no part
  EXPECT_EQ(v[6].description, "");
  auto plain = ParseIbdev2netdev(ReadText(FixturePath("ibdev2netdev/mixed-cx4lx-cx5-cx6-vf-plain.txt"))).rows;
  ASSERT_GE(plain.size(), 8u);
  EXPECT_EQ(plain[0].rdma_device, "mlx5_0");
  EXPECT_EQ(plain[0].netdev, "ens4f0");
  EXPECT_EQ(plain[0].netdev_state, "Down");
  const Parsed<RdmaNetdev> junk = ParseIbdev2netdev("junk\n");
  EXPECT_EQ(junk.rows.size(), 0u);
  EXPECT_EQ(junk.warnings.size(), 1u);
}

TEST(RdmaLink, NewAndOldIproute2Forms) {
  std::vector<ParseWarning> w;
  auto read = [&](const char* name) {
    std::string text = ReadText(FixturePath(std::string("rdma-link/") + name));
    EXPECT_FALSE(text.empty()) << name;
    Parsed<RdmaLink> parsed = ParseRdmaLink(text);
    w.insert(w.end(), parsed.warnings.begin(), parsed.warnings.end());
    return parsed.rows;
  };
  std::vector<RdmaLink> ib;
  ib = read("dgx-spark-ib-port1-active-port2-down-polling-trailing-space.txt");
  ASSERT_EQ(ib.size(), 2u);
  EXPECT_EQ(ib[1].rdma_device, "ibp195s0");
  EXPECT_EQ(ib[1].port, 2);
  EXPECT_EQ(ib[1].state, "DOWN");
  EXPECT_EQ(ib[1].physical_state, "POLLING");
  EXPECT_EQ(ib[1].netdev, "ibp195s0d1");
  EXPECT_EQ(ib[0].lid, 2);
  std::vector<RdmaLink> old;
  old = read("pfc-setup-doc-old-iproute2-i40iw-mlx5-down-disabled.txt");
  ASSERT_EQ(old.size(), 4u);
  EXPECT_EQ(old[2].rdma_device, "mlx5_0");
  EXPECT_EQ(old[2].physical_state, "DISABLED");
  EXPECT_EQ(old[2].netdev, "ens803f0");
  EXPECT_EQ(old[0].lid, -1);  // iWARP/RoCE: no LID
  for (const char* f : {"dgx-spark-gb10-roce-padded-columns.txt", "linux-rdma-rxe-two-soft-roce-links.txt",
                        "rccl-issue-ib-mlx5_7-active-linkup-3.txt", "rccl-issue-ib-mlx5_7-down-linkup-2.txt",
                        "rccl-issue-ib-mlx5_7-down-polling-1.txt"}) {
    std::vector<RdmaLink> l;
    l = read(f);
    EXPECT_FALSE(l.empty()) << f;
  }
  EXPECT_TRUE(w.empty());
  const Parsed<RdmaLink> bad = ParseRdmaLink("mlx5_0 port 1 ==> ib0 (Up)\n");
  EXPECT_TRUE(bad.rows.empty());
  EXPECT_EQ(bad.warnings.size(), 1u);
}

TEST(Mlxlink, ModuleInfoOfThirdPartyCables) {
  // An FS passive NDR DAC coded with NVIDIA's OUI: identity, type, length with its unit, per-lane flags, and a
  // sensorless "0 [0..0]" temperature that must not read as 0 °C.
  MlxlinkReport r = ParseMlxlink(ReadText(FixturePath("mlxlink/cx7-osfp-ndr-fs-passive-copper-rx-los-cdr-lol-linkup.txt")));
  ASSERT_EQ(r.ports.size(), 1u);
  const MlxlinkPort& p = r.ports[0];
  EXPECT_EQ(p.module_vendor, "FS");
  EXPECT_EQ(p.module_part_number, "OSFPFL-400G-PC01");
  EXPECT_EQ(p.module_serial, "C2604279049-2");
  EXPECT_EQ(p.module_oui, "Nvidia");
  EXPECT_EQ(p.cable_type, "Passive copper cable");
  EXPECT_EQ(p.cable_length, "1 m");
  EXPECT_EQ(p.rx_los, (std::vector<int>{1, 0, 1, 1}));
  EXPECT_EQ(p.rx_cdr_lol, (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(p.tx_fault, (std::vector<int>{0, 0, 0, 0}));
  EXPECT_FALSE(p.module_temperature_c.has_value());
  EXPECT_EQ(p.state, "Active");
  // A BlueField-3 with an FS QSFP28 DAC: "Temperature [C] : N/A" is unknown too.
  MlxlinkReport bf3 =
      ParseMlxlink(ReadText(FixturePath("mlxlink/bluefield3-qsfp28-fs-passive-dac-temperature-na-with-counters.txt")));
  ASSERT_EQ(bf3.ports.size(), 1u);
  EXPECT_FALSE(bf3.ports[0].module_temperature_c.has_value());
  EXPECT_EQ(bf3.ports[0].module_oui, "Other");
  EXPECT_EQ(bf3.ports[0].cable_length, "3 m");
}

TEST(Ibstat, ToolErrorsAreWarningsThatSayWhy) {
  for (const char* f : {"ibstat/ibstat-in-container-without-ib-devices-ibpanic-indented.txt",
                        "ibstat/ibstat-netdev-name-instead-of-ca-ibpanic.txt",
                        "ibstat/ibstat-no-ib-umad-module-ibwarn-ibpanic-mail-wrapped.txt"}) {
    IbstatReport r = ParseIbstat(ReadText(FixturePath(f)));
    EXPECT_TRUE(r.cas.empty()) << f;
    ASSERT_FALSE(r.warnings.empty()) << f;
    EXPECT_TRUE(r.warnings[0].message.starts_with("ibstat reported an error: ")) << f;
    EXPECT_NE(r.warnings.back().message.find("ibstat failed"), std::string::npos) << f;
  }
  // A real ibstat followed by a tool error (appended in memory): the CAs before it are kept.
  std::string text = ReadText(FixturePath("ibstat/a100-node-8x-cx6-hdr100-rate100.txt")) +
                     "ibwarn: [4260] umad_init: can't read ABI version from /sys/class/infiniband_mad/abi_version\n";
  IbstatReport kept = ParseIbstat(text);
  EXPECT_EQ(kept.cas.size(), 8u);
  ASSERT_EQ(kept.warnings.size(), 1u);
  EXPECT_TRUE(kept.warnings[0].message.starts_with("ibstat reported an error"));
  // States beyond Active/Down: Initializing with LID 65535, a VF down while the physical link is up.
  IbstatReport init = ParseIbstat(ReadText(FixturePath("ibstat/ibstat-cx6-mlx5-initializing-lid-65535.txt")));
  ASSERT_EQ(init.cas.size(), 1u);
  EXPECT_EQ(init.cas[0].ports.at(0).state, "Initializing");
}

}  // namespace
}  // namespace railyard
