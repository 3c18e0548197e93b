#include "parse/iblinkinfo.h"

#include <gtest/gtest.h>

#include "parse/fixtures.h"
#include "util/file.h"

namespace railyard {
namespace {

// Real outputs in tests/fixtures/switch/ib (provenance in tests/fixtures/switch/SOURCES-eos-ib.md).
IblinkinfoPorts Read(const std::string& name) {
  return ParseIblinkinfoPorts(ReadWholeFile(testing::FixturePath("switch/ib/" + name).string()));
}

const IbLinkPort* PortOf(const IbLinkNode& n, int port) {
  for (const IbLinkPort& p : n.ports) {
    if (p.port == port) return &p;
  }
  return nullptr;
}

TEST(IblinkinfoPorts, QuantumSwitchEdrLinksThatCouldBeHdr) {
  IblinkinfoPorts r = Read("iblinkinfo-S-hdr-quantum-edr-speed-could-be-53.txt");
  ASSERT_EQ(r.nodes.size(), 1u);
  ASSERT_EQ(r.warnings.size(), 1u);  // the shell prompt, said with its line
  EXPECT_EQ(r.warnings[0].line, 1);
  const IbLinkNode& sw = r.nodes[0];
  EXPECT_EQ(sw.type, "Switch");
  EXPECT_EQ(sw.guid, "0x08c0eb0300add04e");
  EXPECT_EQ(sw.desc, "Quantum Mellanox Technologies");
  EXPECT_EQ(sw.ports.size(), 41u);
  const IbLinkPort* down = PortOf(sw, 1);
  ASSERT_TRUE(down);
  EXPECT_EQ(down->state, "Down");
  EXPECT_EQ(down->physstate, "Polling");
  EXPECT_FALSE(down->has_peer);
  const IbLinkPort* edr = PortOf(sw, 21);
  ASSERT_TRUE(edr);
  EXPECT_EQ(edr->lid, 10);
  EXPECT_EQ(edr->width, 4);
  EXPECT_DOUBLE_EQ(edr->lane_gbps, 25.78125);
  EXPECT_DOUBLE_EQ(IbLinkGbps(edr->width, edr->lane_gbps, edr->fdr10), 100);
  EXPECT_EQ(edr->state, "Active");
  EXPECT_EQ(edr->peer_desc, "node3 HCA-2");
  EXPECT_EQ(edr->peer_lid, 40);
  EXPECT_EQ(edr->peer_port, 1);
  EXPECT_EQ(edr->could_be, "53.125 Gbps");  // "( Could be 53.125 Gbps)": only the speed is short
  const IbLinkPort* isl = PortOf(sw, 40);
  ASSERT_TRUE(isl);
  EXPECT_DOUBLE_EQ(IbLinkGbps(isl->width, isl->lane_gbps, isl->fdr10), 200);  // HDR
  EXPECT_EQ(isl->peer_desc, "MF0;d32-03-1:MQM8700/U1");
  EXPECT_EQ(isl->could_be, "");
}

TEST(IblinkinfoPorts, CaLinesCarryThePortGuidAndTheirOwnLid) {
  IblinkinfoPorts r = Read("iblinkinfo-qdr-infiniscale-iv-dualport-ca-down-polling.txt");
  EXPECT_TRUE(r.warnings.empty());
  int cas = 0;
  for (const IbLinkNode& n : r.nodes) cas += n.type == "CA";
  EXPECT_EQ(cas, 8);
  // The dual-port CA: two port lines under one header, each with its own GUID and LID.
  const IbLinkNode* teaker9 = nullptr;
  for (const IbLinkNode& n : r.nodes) {
    if (n.desc == "teaker-9 HCA-1") teaker9 = &n;
  }
  ASSERT_TRUE(teaker9);
  ASSERT_EQ(teaker9->ports.size(), 2u);
  EXPECT_EQ(teaker9->ports[1].port_guid, "0xf45214030091ba52");
  EXPECT_EQ(teaker9->ports[1].lid, 4);
  EXPECT_EQ(teaker9->ports[1].port, 2);
  EXPECT_EQ(teaker9->ports[1].peer_port, 14);
}

TEST(IblinkinfoPorts, LegacyHeadersAndStaleWidthOnDownPorts) {
  IblinkinfoPorts r = Read("iblinkinfo-legacy-2010-mixed-sdr-ddr-qdr-down-disabled.txt");
  ASSERT_EQ(r.nodes.size(), 2u);  // two runs (-P 1, -P 2), "Switch 0x... desc:" without the colon
  EXPECT_EQ(r.nodes[0].type, "Switch");
  EXPECT_EQ(r.nodes[0].desc, "IBM HSSM");
  EXPECT_EQ(r.nodes[1].desc, "Topspin Switch");
  ASSERT_EQ(r.warnings.size(), 1u);  // the two prompts, counted into one warning
  const IbLinkPort* disabled = PortOf(r.nodes[0], 3);
  ASSERT_TRUE(disabled);
  EXPECT_EQ(disabled->physstate, "Disabled");
  EXPECT_EQ(disabled->width, 0);                            // "4X 2.5 Gbps   Down/Disabled": not valid data on a down port
  EXPECT_DOUBLE_EQ(PortOf(r.nodes[0], 1)->lane_gbps, 5.0);  // DDR
}

TEST(IblinkinfoPorts, LineModeGroupsASwitchByItsGuid) {
  IblinkinfoPorts r = Read("iblinkinfo-l-ibsim-lab8-line-mode.txt");
  EXPECT_TRUE(r.warnings.empty());
  int switches = 0, cas = 0;
  for (const IbLinkNode& n : r.nodes) {
    EXPECT_EQ(n.type, "");  // line mode never says
    (n.ports.size() > 1 ? switches : cas) += 1;
    if (n.ports.size() > 1) {
      EXPECT_TRUE(n.desc == "compute-leaf-001" || n.desc == "compute-leaf-002") << n.desc;
    }
  }
  EXPECT_EQ(switches, 2);
  EXPECT_EQ(cas, 63);
  const IbLinkPort& p = r.nodes[0].ports[0];
  EXPECT_EQ(p.peer_guid, "0x0002c90300000900");
  EXPECT_EQ(p.could_be, "12X, 10.0 Gbps");
}

TEST(IblinkinfoPorts, ReindentedCapturesStillRead) {
  IblinkinfoPorts r = Read("iblinkinfo-qdr-is4-36port-ca-lines-reindented.txt");
  ASSERT_EQ(r.warnings.size(), 1u);  // "$ iblinkinfo"
  EXPECT_EQ(r.nodes.back().ports.size(), 36u);
  EXPECT_EQ(r.nodes.front().ports[0].physstate, "LinkUp");
}

TEST(IblinkinfoPorts, BrokenLinesAreCountedNotDropped) {
  IblinkinfoPorts r = ParseIblinkinfoPorts(
      "Switch: 0x0002c90300000800 leaf01:\n"
      "        1081    1[  ] ==( 4X           2.5 Gbps Active/  LinkUp)==>      13    1[  ] \"h1 mlx5_0\" ( )\n"
      "        1081    2[  ] ==( 4X           2.5 Gbps Active/  LinkUp)==>      13\n"
      "        1081   x[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n"
      "        1081    4[  ] ==( 4X          10.0 Gbps (FDR10) Active/  LinkUp)==>  5 1[  ] \"h2 mlx5_0\" (  Could be FDR10)\n");
  ASSERT_EQ(r.nodes.size(), 1u);
  ASSERT_EQ(r.nodes[0].ports.size(), 2u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].line, 3);
  EXPECT_NE(r.warnings[0].message.find("2 line(s)"), std::string::npos);
  EXPECT_TRUE(r.nodes[0].ports[1].fdr10);
  EXPECT_EQ(r.nodes[0].ports[1].could_be, "FDR10");
  EXPECT_EQ(ParseIblinkinfoPorts("hello\n").warnings.size(), 2u);  // an unread line, and "not iblinkinfo output"
}

TEST(Iblinkinfo, AdjacenciesForVerifyIncludeCaEndsByPortNumber) {
  IblinkinfoReport r = ParseIblinkinfo(
      ReadWholeFile(testing::FixturePath("switch/ib/iblinkinfo-edr-sb7700-down-polling-2hosts.txt").string()), "f");
  EXPECT_EQ(r.ports_down, 16);
  ASSERT_EQ(r.links.adjacencies.size(), 4u);  // 2 CA ends + 2 switch ends
  EXPECT_EQ(r.links.adjacencies[0].local_device, "n02 HCA-1");
  EXPECT_EQ(r.links.adjacencies[0].local_port, "1");  // the CA's port, not its LID (4)
  EXPECT_EQ(r.links.adjacencies[0].remote_port, "17");
  // "Could be 12X Could be 10.0 Gbps" is a width and a speed: 12 x QDR.
  IblinkinfoReport sim = ParseIblinkinfo(
      ReadWholeFile(testing::FixturePath("switch/ib/iblinkinfo-ibsim-lab8-leaf-port7-unlinked.txt").string()), "f");
  ASSERT_FALSE(sim.links.adjacencies.empty());
  EXPECT_EQ(sim.links.adjacencies[0].speed_gbps, 8u);
  EXPECT_EQ(sim.links.adjacencies[0].could_be_gbps, 96u);
}

}  // namespace
}  // namespace railyard
