#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "parse/fixtures.h"
#include "parse/ibnetdiscover.h"
#include "parse/lldpctl.h"
#include "parse/switch_lldp.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

AdjacencyReport IbFixture(const std::string& name) {
  return ParseIbnetdiscover(ReadText(FixturePath("ibnetdiscover/" + name)), name);
}

TEST(Ibnetdiscover, DgxH100SwitchBlocks) {
  auto path = FixturePath("ibnetdiscover/dgx-h100-ndr-qm9701-fabric-first-4-switches.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  AdjacencyReport r = IbFixture("dgx-h100-ndr-qm9701-fabric-first-4-switches.txt");
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.adjacencies.size(), 136u);  // every "[port]" line of the four switch blocks
  const Adjacency& first = r.adjacencies.front();
  EXPECT_EQ(first.local_device, "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1");
  EXPECT_EQ(first.local_guid, "0x2c5eab0300b87b40");
  EXPECT_EQ(first.local_port, "1");
  EXPECT_EQ(first.remote_device, "a08-p1-dgx-04-c01 mlx5_5");
  EXPECT_EQ(first.remote_guid, "0xe09d7303007a4bd8");
  EXPECT_EQ(first.remote_port, "1");
  EXPECT_EQ(first.width, 4);
  EXPECT_EQ(first.speed_gbps, 400u);  // 4xNDR
  EXPECT_EQ(first.line, 11);
  const Adjacency& last = r.adjacencies.back();  // port 65: the SHARP aggregation node
  EXPECT_EQ(last.local_port, "65");
  EXPECT_EQ(last.remote_device, "Mellanox Technologies Aggregation Node");
}

TEST(Ibnetdiscover, DgxH100CaBlocks) {
  auto path = FixturePath("ibnetdiscover/dgx-h100-ndr-qm9701-fabric-last-ca-blocks.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  AdjacencyReport r = IbFixture("dgx-h100-ndr-qm9701-fabric-last-ca-blocks.txt");
  ASSERT_EQ(r.adjacencies.size(), 13u);
  const Adjacency& a = r.adjacencies.front();
  EXPECT_EQ(a.local_device, "b05-p1-dgx-05-c13 HCA-6");
  EXPECT_EQ(a.local_port, "1");
  EXPECT_EQ(a.remote_device, "MF0;B09-P1-IBLEAF-04-05:MQM9701/U1");  // last quoted name in the comment
  EXPECT_EQ(a.remote_port, "13");
  EXPECT_EQ(a.width, 4);
}

TEST(Ibnetdiscover, IsolatedCaHasNoLinks) {
  auto path = FixturePath("ibnetdiscover/gb200-isolated-ca-no-links.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  AdjacencyReport r = IbFixture("gb200-isolated-ca-no-links.txt");
  EXPECT_TRUE(r.adjacencies.empty());
  EXPECT_TRUE(r.warnings.empty());
}

TEST(Ibnetdiscover, MalformedLinesWarnAndNeverThrow) {
  AdjacencyReport r = ParseIbnetdiscover(
      "[1]\t\"H-1\"[1]\n"         // port line outside a node
      "Switch\t36 S-no-quotes\n"  // header without a quoted id
      "Switch\t36 \"S-0001\"\t\t# \"sw\"\n"
      "[x]\t\"H-1\"[1]\n"     // bad port number
      "[2]\tH-unquoted[1]\n"  // remote id not quoted
      "[3]\t\"H-2\"[9\n"      // unclosed remote port
      "[4]\t\"H-3\"[1]\t\t# \"host mlx5_0\" lid 1 4xNDR\n"
      "garbage line\n",
      "bad.topo");
  ASSERT_EQ(r.adjacencies.size(), 1u);
  EXPECT_EQ(r.adjacencies[0].remote_device, "host mlx5_0");
  EXPECT_EQ(r.warnings.size(), 6u);
  EXPECT_EQ(r.warnings[0].line, 1);
  // Truncated anywhere: never a crash.
  std::string text = ReadText(FixturePath("ibnetdiscover/dgx-h100-ndr-qm9701-fabric-first-4-switches.txt"));
  for (size_t cut = 0; cut < text.size(); cut += 97) ParseIbnetdiscover(text.substr(0, cut), "cut");
}

TEST(Lldpctl, Json0GpuHostRailNics) {
  auto path = FixturePath("lldpctl/json0-gpu-host-rail-nics-to-sonic-leafs.json");
  RAILYARD_REQUIRE_FIXTURE(path);
  AdjacencyReport r = ParseLldpctlJson(ReadText(path), "gpu-host", "json0.json");
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.adjacencies.size(), 5u);
  EXPECT_EQ(r.adjacencies[0].local_device, "gpu-host");
  EXPECT_EQ(r.adjacencies[0].local_port, "ens1np0");
  EXPECT_EQ(r.adjacencies[0].remote_device, "StorageSW");
  EXPECT_EQ(r.adjacencies[0].remote_port, "Ethernet120");  // port id subtype local
  EXPECT_EQ(r.adjacencies[0].file(), "json0.json");
  EXPECT_EQ(r.adjacencies[4].local_port, "ens108np0");
  EXPECT_EQ(r.adjacencies[4].remote_device, "LEAF01");
}

TEST(Lldpctl, Json0H3cAndHostPeersWithUnknownTlvs) {
  auto path = FixturePath("lldpctl/json0-h3c-access-and-host-peers-unknown-tlv.json");
  RAILYARD_REQUIRE_FIXTURE(path);
  AdjacencyReport r = ParseLldpctlJson(ReadText(path), "h", "h3c.json");
  ASSERT_EQ(r.adjacencies.size(), 3u);
  EXPECT_EQ(r.adjacencies[0].remote_device, "DaoCloud_ShangPu_H3C_D01_AccessSwitch");
  EXPECT_EQ(r.adjacencies[0].remote_port, "GigabitEthernet1/0/17");  // subtype ifname
  // A host peer sends a MAC port id; its port description names the interface.
  EXPECT_EQ(r.adjacencies[1].remote_device, "10-20-1-50");
  EXPECT_EQ(r.adjacencies[1].remote_port, "enp5s0f0np0");
}

TEST(Lldpctl, DefaultJsonFromRealLldpd) {
  // Captured from lldpd 1.0.16 in network namespaces (tests/fixtures/lldpd/SOURCES.md).
  const std::string dir = std::string(RAILYARD_SOURCE_DIR) + "/tests/fixtures/lldpd/";
  AdjacencyReport host = ParseLldpctlJson(ReadText(dir + "json-host-one-neighbour.json"), "node001", "host.json");
  EXPECT_TRUE(host.warnings.empty());
  ASSERT_EQ(host.adjacencies.size(), 1u);  // single interface: {"interface": {"mlx5_0": {...}}}
  EXPECT_EQ(host.adjacencies[0].local_port, "mlx5_0");
  EXPECT_EQ(host.adjacencies[0].remote_device, "storage-leaf-001");  // chassis keyed by system name
  EXPECT_EQ(host.adjacencies[0].remote_port, "swp1");                // port id subtype ifname
  AdjacencyReport leaf = ParseLldpctlJson(ReadText(dir + "json-leaf-four-neighbours.json"), "storage-leaf-001", "leaf.json");
  ASSERT_EQ(leaf.adjacencies.size(), 4u);  // several interfaces: {"interface": [{"swp1": ...}, ...]}
  EXPECT_EQ(leaf.adjacencies[0].local_port, "swp1");
  EXPECT_EQ(leaf.adjacencies[0].remote_device, "node001");
  EXPECT_EQ(leaf.adjacencies[0].remote_port, "mlx5_0");  // MAC port id: the description names the port
  EXPECT_EQ(leaf.adjacencies[3].local_port, "swp16");
  EXPECT_EQ(leaf.adjacencies[3].remote_device, "storage-spine-02");
}

TEST(Lldpctl, EveryOutputFormOfOneRealNeighbour) {
  // The same neighbour printed by real lldpd in its five forms: every reader gives the same adjacency.
  for (const char* f : {"json", "json0", "keyvalue", "plain", "xml"}) {
    std::string ext = std::string(f).starts_with("json") ? "json" : std::string(f) == "xml" ? "xml" : "txt";
    std::string name = fmt::format("lldpd/lldpctl-{}-host-veth-to-leaf-ifname-portid.{}", f, ext);
    AdjacencyReport r = ParseLldpctl(ReadText(FixturePath(name)), "gpu-node-001", name);
    EXPECT_TRUE(r.warnings.empty()) << f;
    ASSERT_EQ(r.adjacencies.size(), 1u) << f;
    EXPECT_EQ(r.adjacencies[0].local_port, "ens1f0np0") << f;
    EXPECT_EQ(r.adjacencies[0].remote_device, "leaf-r01-01") << f;
    EXPECT_EQ(r.adjacencies[0].remote_port, "swp7") << f;
  }
}

TEST(Lldpctl, NoNeighbourInEveryFormAndTheEmptyOneThatCannotSaySo) {
  // Real lldpd with no neighbour: json, json0, plain and xml say so and read as no adjacency, no
  // warning; keyvalue prints nothing at all, which a failed capture also is: a warning, so that verify
  // does not call every cable of the device missing.
  for (const char* f : {"json", "json0", "plain", "xml"}) {
    const std::string name = fmt::format("lldpd/lldpctl-{}-no-neighbour.txt", f);
    AdjacencyReport r = ParseLldpctl(ReadText(FixturePath(name)), "leaf01", name);
    EXPECT_TRUE(r.warnings.empty()) << f << ": " << (r.warnings.empty() ? "" : r.warnings[0].message);
    EXPECT_TRUE(r.adjacencies.empty()) << f;
  }
  AdjacencyReport empty = ParseLldpctl(ReadText(FixturePath("lldpd/lldpctl-keyvalue-no-neighbour.txt")), "leaf01", "kv");
  EXPECT_TRUE(empty.adjacencies.empty());
  ASSERT_EQ(empty.warnings.size(), 1u);
  EXPECT_NE(empty.warnings[0].message.find("empty"), std::string::npos);
  EXPECT_EQ(ParseLldpctl(" \n\n", "leaf01", "blank").warnings.size(), 1u);
}

TEST(Lldpctl, TextFormsWithVlansAndSeveralNeighbours) {
  // keyvalue: a Cisco switch whose SysDescr spans four lines, VLAN 140 as pvid.
  AdjacencyReport cisco =
      ParseLldpctl(ReadText(FixturePath("lldpctl/keyvalue-cisco-c2960x-multiline-descr-vlan-pvid.txt")), "h", "kv");
  ASSERT_EQ(cisco.adjacencies.size(), 1u);
  EXPECT_EQ(cisco.adjacencies[0].local_port, "eno1");
  EXPECT_EQ(cisco.adjacencies[0].remote_device, "s35-b12.dc3");
  EXPECT_EQ(cisco.adjacencies[0].remote_port, "Gi1/0/29");
  EXPECT_EQ(cisco.adjacencies[0].pvid, 140);
  // keyvalue: two Juniper neighbours.
  AdjacencyReport juniper =
      ParseLldpctl(ReadText(FixturePath("lldpctl/keyvalue-two-juniper-qfx5100-neighbors-vlan-name-unknown-tlv.txt")), "h", "kv");
  EXPECT_EQ(juniper.adjacencies.size(), 2u);
  // plain: two neighbours on one port (a switch and an IP phone); the switch's VLAN 12 is its pvid.
  AdjacencyReport plain = ParseLldpctl(
      ReadText(FixturePath("lldpctl/plain-two-neighbors-same-port-cisco-c2960-and-ip-phone-vlan-pvid.txt")), "h", "p");
  ASSERT_EQ(plain.adjacencies.size(), 2u);
  EXPECT_EQ(plain.adjacencies[0].remote_device, "cabinetIT4.7.cisco.com");
  EXPECT_EQ(plain.adjacencies[0].remote_port, "Fa0/8");
  EXPECT_EQ(plain.adjacencies[0].pvid, 12);
  EXPECT_EQ(plain.adjacencies[1].remote_port, "eth0");
  // xml: two routers whose MAC port ids leave the description as the port.
  AdjacencyReport xml =
      ParseLldpctl(ReadText(FixturePath("lldpctl/xml-two-neighbors-debian-jessie-routers-no-vlan.txt")), "h", "x");
  ASSERT_EQ(xml.adjacencies.size(), 2u);
  EXPECT_EQ(xml.adjacencies[0].remote_device, "d1-p1-l2-r1");
  EXPECT_EQ(xml.adjacencies[0].remote_port, "eth1");
  EXPECT_EQ(xml.adjacencies[0].pvid, -1);
  // Every lldpctl sample in the corpus reads without a warning in its own form.
  for (const auto& entry : std::filesystem::directory_iterator(FixturePath("lldpctl"))) {
    AdjacencyReport r = ParseLldpctl(ReadText(entry.path()), "h", entry.path().string());
    EXPECT_FALSE(r.adjacencies.empty()) << entry.path();
  }
  // Garbage in each text form warns.
  EXPECT_FALSE(ParseLldpctlKeyValue("hello\n", "h", "x").warnings.empty());
  EXPECT_FALSE(ParseLldpctlPlain("hello\n", "h", "x").warnings.empty());
  EXPECT_FALSE(ParseLldpctlXml("hello\n", "h", "x").warnings.empty());
}

AdjacencyReport SwitchTable(const std::string& name) {
  return ParseSwitchLldpTable(ReadText(FixturePath("switch-lldp/" + name)), "sw", name);
}

TEST(SwitchLldp, ColumnsByHeaderNameNotPosition) {
  // Older NCLU prints RemoteHost before RemotePort; Cumulus VX after. Both read right.
  AdjacencyReport older = SwitchTable("cumulus-nclu-net-show-lldp-hcs-nutanix-bondmember-duplicate-localport-indented.txt");
  ASSERT_EQ(older.adjacencies.size(), 7u);
  EXPECT_EQ(older.adjacencies[0].local_port, "swp1");
  EXPECT_EQ(older.adjacencies[0].remote_device, "NTNX-e08c61ec-A");
  EXPECT_EQ(older.adjacencies[0].remote_port, "ens3");
  EXPECT_EQ(older.adjacencies[6].remote_device, "spine02");  // swp52 twice: two neighbours on one port, both kept
  AdjacencyReport vx = SwitchTable("cumulus-net-show-lldp-vx.txt");
  ASSERT_EQ(vx.adjacencies.size(), 2u);
  EXPECT_EQ(vx.adjacencies[0].remote_device, "CumulusVX-spine1");
  EXPECT_EQ(vx.adjacencies[0].remote_port, "swp1");
  AdjacencyReport apstra = SwitchTable("cumulus-nclu-net-show-lldp-apstra-leaf03-100m-mgmt-numeric-remote-port.txt");
  ASSERT_FALSE(apstra.adjacencies.empty());
  EXPECT_EQ(apstra.adjacencies[0].remote_port, "21");
  EXPECT_EQ(apstra.adjacencies[0].remote_device, "lab-hrm-flr0-10-60-0-109");
}

TEST(SwitchLldp, SonicPortNamesWithSpacesAndLldpctlBlocks) {
  // SONiC's table: the dashed rule gives each column its extent, so "GigabitEthernet 0/2" stays whole.
  AdjacencyReport table = SwitchTable("sonic-show-lldp-table-doc-port-name-with-space.txt");
  ASSERT_EQ(table.adjacencies.size(), 3u);
  EXPECT_EQ(table.adjacencies[2].remote_port, "GigabitEthernet 0/2");
  // `show lldp neighbors` (SONiC) and `net show lldp swp1` (NCLU) print lldpctl's own blocks.
  AdjacencyReport blocks = SwitchTable("sonic-show-lldp-neighbors-doc-force10-port-name-with-space.txt");
  ASSERT_EQ(blocks.adjacencies.size(), 2u);
  EXPECT_EQ(blocks.adjacencies[0].remote_port, "GigabitEthernet 0/2");
  EXPECT_EQ(blocks.adjacencies[0].pvid, 162);
  AdjacencyReport detail = SwitchTable("cumulus-nclu-net-show-lldp-swp1-detail-nutanix-indented.txt");
  ASSERT_EQ(detail.adjacencies.size(), 1u);
  EXPECT_EQ(detail.adjacencies[0].remote_device, "NTNX-e08c61ec-A");
  // An author's "..." row is skipped with a warning, not read as a neighbour called "...".
  AdjacencyReport elided = SwitchTable("sonic-lldpshow-docstring-arista-style-remote-ports-anonymized-partial.txt");
  EXPECT_EQ(elided.warnings.size(), 1u);
  for (const Adjacency& a : elided.adjacencies) EXPECT_NE(a.local_port, "...");
  // Every switch table in the corpus yields neighbours and no warning beyond that elision.
  for (const auto& entry : std::filesystem::directory_iterator(FixturePath("switch-lldp"))) {
    AdjacencyReport r = ParseSwitchLldpTable(ReadText(entry.path()), "sw", entry.path().string());
    EXPECT_FALSE(r.adjacencies.empty()) << entry.path();
  }
}

TEST(Lldpctl, BadJsonWarns) {
  EXPECT_EQ(ParseLldpctlJson("{\"lldp\": ", "h", "x").warnings.size(), 1u);
  EXPECT_EQ(ParseLldpctlJson("{\"other\": 1}", "h", "x").warnings.size(), 1u);
  EXPECT_TRUE(ParseLldpctlJson("{\"lldp\": {}}", "h", "x").adjacencies.empty());
  EXPECT_TRUE(ParseLldpctlJson("{\"lldp\": {\"interface\": 7}}", "h", "x").adjacencies.empty());
  AdjacencyReport r = ParseLldpctlJson("{\"lldp\": {\"interface\": {\"eth0\": {\"chassis\": {}}}}}", "h", "x");
  EXPECT_TRUE(r.adjacencies.empty());
  EXPECT_EQ(r.warnings.size(), 1u);
}

TEST(SwitchLldp, AristaTables) {
  for (const char* name : {"arista-eos-show-lldp-neighbors.txt", "arista-eos-show-lldp-neighbors-dashed-header.txt",
                           "arista-eos-show-lldp-neighbors-eantc-with-table-counters.txt"}) {
    auto path = FixturePath(std::string("switch-lldp/") + name);
    RAILYARD_REQUIRE_FIXTURE(path);
  }
  AdjacencyReport a = ParseSwitchLldpTable(ReadText(FixturePath("switch-lldp/arista-eos-show-lldp-neighbors.txt")), "sw1", "a");
  ASSERT_EQ(a.adjacencies.size(), 4u);
  EXPECT_EQ(a.adjacencies[2].local_port, "Et3/1");
  EXPECT_EQ(a.adjacencies[2].remote_device, "tg104.sjc.aristanetworks.com");
  EXPECT_EQ(a.adjacencies[2].remote_port, "Ethernet3/2");
  AdjacencyReport dashed =
      ParseSwitchLldpTable(ReadText(FixturePath("switch-lldp/arista-eos-show-lldp-neighbors-dashed-header.txt")), "sw", "b");
  EXPECT_EQ(dashed.adjacencies.size(), 6u);
  EXPECT_TRUE(dashed.warnings.empty());
  AdjacencyReport eantc = ParseSwitchLldpTable(
      ReadText(FixturePath("switch-lldp/arista-eos-show-lldp-neighbors-eantc-with-table-counters.txt")), "pe", "c");
  ASSERT_EQ(eantc.adjacencies.size(), 3u);
  EXPECT_EQ(eantc.adjacencies[2].local_port, "Ma1");
  EXPECT_EQ(eantc.adjacencies[2].remote_port, "25");
}

TEST(SwitchLldp, CumulusNetShowLldp) {
  auto path = FixturePath("switch-lldp/cumulus-net-show-lldp-vx.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  AdjacencyReport r = ParseSwitchLldpTable(ReadText(path), "leaf01", "c");
  ASSERT_EQ(r.adjacencies.size(), 2u);
  EXPECT_EQ(r.adjacencies[1].local_port, "swp2");
  EXPECT_EQ(r.adjacencies[1].remote_device, "CumulusVX-spine2");
  EXPECT_EQ(r.adjacencies[1].remote_port, "swp1");
}

TEST(SwitchLldp, SonicShowLldpTable) {
  // The example in sonic-utilities scripts/lldpshow (tests/fixtures/sonic/SOURCES.md).
  std::string text = ReadText(std::string(RAILYARD_SOURCE_DIR) + "/tests/fixtures/sonic/show-lldp-table.txt");
  AdjacencyReport r = ParseSwitchLldpTable(text, "leaf", "s");
  ASSERT_EQ(r.adjacencies.size(), 3u);
  EXPECT_EQ(r.adjacencies[0].local_port, "Ethernet0");
  EXPECT_EQ(r.adjacencies[0].remote_device, "<neighbor0_hostname>");
  EXPECT_EQ(r.adjacencies[2].remote_port, "Ethernet1/51");
}

TEST(SwitchLldp, NvueInterfaceLldpTable) {
  // The NVUE reference's example (tests/fixtures/nvue/SOURCES.md): two-word column names.
  std::string text = ReadText(std::string(RAILYARD_SOURCE_DIR) + "/tests/fixtures/nvue/nv-show-interface-lldp-cumulus5.txt");
  AdjacencyReport r = ParseSwitchLldpTable(text, "leaf01", "nv");
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.adjacencies.size(), 10u);
  EXPECT_EQ(r.adjacencies[0].local_port, "eth0");
  EXPECT_EQ(r.adjacencies[0].remote_device, "oob-mgmt-switch");
  EXPECT_EQ(r.adjacencies[0].remote_port, "swp10");
  EXPECT_EQ(r.adjacencies[1].remote_device, "server01");
  EXPECT_EQ(r.adjacencies[1].remote_port, "48:b0:2d:76:ee:8e");  // a host that sends its MAC as port ID
  EXPECT_EQ(r.adjacencies[9].local_port, "swp54");
  EXPECT_EQ(r.adjacencies[9].remote_device, "spine04");
  EXPECT_EQ(r.adjacencies[9].line, 12);
}

TEST(SwitchLldp, UnknownFormatWarns) {
  AdjacencyReport r = ParseSwitchLldpTable("hello\nworld\n", "x", "u");
  EXPECT_TRUE(r.adjacencies.empty());
  EXPECT_EQ(r.warnings.size(), 1u);
}

}  // namespace
}  // namespace railyard
