#include "parse/iproute.h"

#include <gtest/gtest.h>

#include "parse/fixtures.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

std::string Project(const std::string& name) {
  return ReadText(std::string(RAILYARD_SOURCE_DIR) + "/tests/fixtures/iproute2/" + name);
}

const IpLink* Find(const IpLinkReport& r, const std::string& name) {
  for (const IpLink& l : r.links) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

TEST(IpLinkText, BondSlaveBondAndVlanOnBond) {
  auto path = FixturePath("ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  IpLinkReport r = ParseIpLinkText(ReadText(path));
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.links.size(), 3u);
  const IpLink* slave = Find(r, "enp59s0f0");
  ASSERT_TRUE(slave);
  EXPECT_EQ(slave->index, 6);
  EXPECT_EQ(slave->master, "bond1");
  EXPECT_EQ(slave->mtu, 9000u);
  EXPECT_TRUE(slave->HasFlag("SLAVE"));
  EXPECT_EQ(slave->slave_kind, "bond");
  EXPECT_EQ(slave->slave_state, "ACTIVE");
  EXPECT_EQ(slave->slave_mii_status, "UP");
  EXPECT_EQ(slave->slave_link_failure_count, 0);
  EXPECT_EQ(slave->tx_queues, 480);
  EXPECT_EQ(slave->rx_queues, 60);
  EXPECT_EQ(slave->rx_bytes, 566216505914u);
  EXPECT_EQ(slave->tx_packets, 226755877u);
  const IpLink* bond = Find(r, "bond1");
  ASSERT_TRUE(bond);
  EXPECT_EQ(bond->kind, "bond");
  EXPECT_EQ(bond->bond_mode, "802.3ad");
  EXPECT_EQ(bond->xmit_hash_policy, "layer2");
  EXPECT_EQ(bond->lacp_rate, "fast");
  EXPECT_EQ(bond->ad_partner_mac, "44:39:39:ff:40:09");
  const IpLink* vlan = Find(r, "bond1.4003");
  ASSERT_TRUE(vlan);
  EXPECT_EQ(vlan->link, "bond1");
  EXPECT_EQ(vlan->kind, "vlan");
  EXPECT_EQ(vlan->vlan_id, 4003);
  EXPECT_EQ(vlan->mac, "ac:1f:6b:9e:d8:44");
}

TEST(IpLinkText, SwitchdevPfWithDisabledVfAndItsRepresentor) {
  auto pf_path = FixturePath("ip-link/ip-d-link-cx4lx-switchdev-pf-portname-switchid-vf0-link-state-disable.txt");
  auto rep_path = FixturePath("ip-link/ip-d-link-cx4lx-switchdev-vf-representor-pf0vf0.txt");
  RAILYARD_REQUIRE_FIXTURE(pf_path);
  IpLinkReport pf = ParseIpLinkText(ReadText(pf_path));
  EXPECT_TRUE(pf.warnings.empty());
  ASSERT_EQ(pf.links.size(), 1u);
  EXPECT_EQ(pf.links[0].name, "enp1s0f0np0");
  EXPECT_EQ(pf.links[0].portname, "p0");
  EXPECT_EQ(pf.links[0].switchid, "fa67c3ffffc94094");
  EXPECT_EQ(pf.links[0].parentdev, "0000:01:00.0");
  EXPECT_EQ(pf.links[0].tx_queues, 256);
  EXPECT_FALSE(pf.links[0].rx_bytes.has_value());  // no -s
  ASSERT_EQ(pf.links[0].vfs.size(), 1u);
  EXPECT_EQ(pf.links[0].vfs[0].vf, 0);
  EXPECT_EQ(pf.links[0].vfs[0].mac, "00:00:00:00:00:00");
  EXPECT_EQ(pf.links[0].vfs[0].link_state, "disable");
  EXPECT_EQ(pf.links[0].vfs[0].spoof_check, "off");
  EXPECT_EQ(pf.links[0].vfs[0].trust, "off");
  IpLinkReport rep = ParseIpLinkText(ReadText(rep_path));
  ASSERT_EQ(rep.links.size(), 1u);
  EXPECT_EQ(rep.links[0].portname, "pf0vf0");
  EXPECT_EQ(rep.links[0].switchid, pf.links[0].switchid);  // same eswitch
}

// The text and JSON forms of one namespace's interfaces say the same thing.
TEST(IpLink, TextAndJsonAgreeOnARealNamespace) {
  IpLinkReport text = ParseIpLinkText(Project("ip-d-s-link-veth-bridge-macvlan.txt"));
  IpLinkReport json = ParseIpLinkJson(Project("ip-j-d-s-link-veth-bridge-macvlan.json"));
  EXPECT_TRUE(text.warnings.empty());
  EXPECT_TRUE(json.warnings.empty());
  ASSERT_EQ(text.links.size(), 7u);
  ASSERT_EQ(json.links.size(), 7u);
  for (size_t i = 0; i < text.links.size(); ++i) {
    const IpLink& t = text.links[i];
    const IpLink& j = json.links[i];
    SCOPED_TRACE(t.name);
    EXPECT_EQ(t.name, j.name);
    EXPECT_EQ(t.index, j.index);
    EXPECT_EQ(t.link, j.link);
    EXPECT_EQ(t.flags, j.flags);
    EXPECT_EQ(t.mtu, j.mtu);
    EXPECT_EQ(t.master, j.master);
    EXPECT_EQ(t.state, j.state);
    EXPECT_EQ(t.mac, j.mac);
    EXPECT_EQ(t.promiscuity, j.promiscuity);
    EXPECT_EQ(t.kind, j.kind);
    EXPECT_EQ(t.slave_kind, j.slave_kind);
    EXPECT_EQ(t.tx_queues, j.tx_queues);
    EXPECT_EQ(t.rx_bytes, j.rx_bytes);
    EXPECT_EQ(t.tx_dropped, j.tx_dropped);
  }
  const IpLink* eth2 = Find(text, "eth2");
  ASSERT_TRUE(eth2);
  EXPECT_EQ(eth2->master, "br0");
  EXPECT_EQ(eth2->state, "LOWERLAYERDOWN");
  EXPECT_TRUE(eth2->HasFlag("NO-CARRIER"));
  EXPECT_EQ(Find(text, "eth1")->promiscuity, 1);  // the macvlan on it
  EXPECT_EQ(Find(text, "macv0")->kind, "macvlan");
  EXPECT_EQ(Find(text, "br0")->tx_dropped, 1u);
}

TEST(IpAddr, AddressesPerInterface) {
  IpAddrReport r = ParseIpAddrJson(Project("ip-j-addr-veth-bridge-macvlan.json"));
  EXPECT_TRUE(r.warnings.empty());
  ASSERT_EQ(r.interfaces.size(), 7u);
  const IpAddrInterface& eth1 = r.interfaces[2];
  EXPECT_EQ(eth1.name, "eth1");
  ASSERT_EQ(eth1.addresses.size(), 3u);
  EXPECT_EQ(eth1.addresses[0].family, "inet");
  EXPECT_EQ(eth1.addresses[0].address, "10.10.0.5");
  EXPECT_EQ(eth1.addresses[0].prefix_length, 24);
  EXPECT_EQ(eth1.addresses[1].address, "fd00::5");
  EXPECT_EQ(eth1.addresses[2].scope, "link");
  EXPECT_EQ(r.interfaces[5].addresses[0].address, "192.168.50.2");
  EXPECT_EQ(r.interfaces[5].addresses[0].prefix_length, 31);
}

TEST(IpLink, BadInputWarnsNeverThrows) {
  std::string text = Project("ip-d-s-link-veth-bridge-macvlan.txt");
  IpLinkReport cut = ParseIpLinkText(text.substr(0, text.find("RX:") + 10));
  ASSERT_EQ(cut.links.size(), 1u);
  EXPECT_FALSE(cut.links[0].rx_bytes.has_value());
  EXPECT_FALSE(ParseIpLinkText("Settings for eth0:\n").warnings.empty());
  EXPECT_FALSE(ParseIpLinkJson("[{\"ifname\": ").warnings.empty());
  EXPECT_FALSE(ParseIpLinkJson("{\"ifname\": \"x\"}").warnings.empty());
  IpLinkReport odd = ParseIpLinkJson(R"([{"ifname": 5, "mtu": "big", "flags": [1, "UP"]}, 7])");
  EXPECT_EQ(odd.links.size(), 0u);
  EXPECT_EQ(odd.warnings.size(), 2u);
  EXPECT_FALSE(ParseIpAddrJson("[{\"addr_info\": 3}]").warnings.empty());
}

}  // namespace
}  // namespace railyard
