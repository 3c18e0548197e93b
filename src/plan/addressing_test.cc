#include "plan/addressing.h"

#include <set>

#include <gtest/gtest.h>

#include "plan/planner.h"
#include "plan/test_specs.h"

namespace railyard {
namespace {

std::string RoceYaml(const std::string& addressing) {
  return "name: roce\nnodes: {count: 64, per_rack: 4}\nplanes:\n"
         "  - {name: compute, kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: SN5600,"
         " rail_optimized: true}\n"
         "  - {name: oob, kind: ethernet, speed: 1G, switch: SN2201}\n"
         "addressing:\n" +
         addressing;
}

TEST(Addressing, P2p31PerLinkWithLoopbacksAndAsns) {
  PlanResult r = Plan(testing::ParseOrDie(
      RoceYaml("  compute: {prefix: 10.0.0.0/16, mode: p2p31, loopbacks: 10.255.0.0/24, asn_base: 4200000000}\n"
               "  oob: {prefix: 192.168.0.0/24}\n")));
  const Fabric& f = r.fabric;
  const Plane& compute = f.planes[0];
  std::set<Ipv4> seen;
  for (uint32_t i = compute.first_link; i < compute.first_link + compute.link_count; ++i) {
    const Link& l = f.links[i];
    ASSERT_EQ(l.ip_length, 31);
    EXPECT_EQ(l.ip_z % 2, 0u);  // the switch end takes the even address of the /31
    EXPECT_EQ(l.ip_a, l.ip_z + 1);
    EXPECT_TRUE(seen.insert(l.ip_z).second);
  }
  EXPECT_EQ(FormatIpv4(f.links[compute.first_link].ip_z), "10.0.0.0");
  // RFC 7938: each leaf its own ASN, spines one shared ASN.
  std::set<uint32_t> leaf_asns, spine_asns;
  for (uint32_t d = compute.first_switch; d < compute.first_switch + compute.switch_count; ++d) {
    const Device& dev = f.devices[d];
    EXPECT_TRUE(ParsePrefix("10.255.0.0/24")->contains(dev.loopback)) << dev.name;
    (dev.tier == Tier::kLeaf ? leaf_asns : spine_asns).insert(dev.asn);
  }
  EXPECT_EQ(leaf_asns.size(), compute.tier[0].count);
  EXPECT_EQ(spine_asns.size(), 1u);
  EXPECT_GE(*leaf_asns.begin(), 4200000000u);
  // Out-of-band: every BMC and every switch management port has an address.
  for (const Device& d : f.devices) {
    if (d.role == DeviceRole::kNode || (d.role == DeviceRole::kSwitch && d.plane == 0)) {
      EXPECT_TRUE(ParsePrefix("192.168.0.0/24")->contains(d.mgmt_ip)) << d.name;
    }
  }
}

TEST(Addressing, LoopbacksDefaultToTheTopOfThePrefix) {
  PlanResult r = Plan(testing::ParseOrDie(RoceYaml("  compute: {prefix: 10.0.0.0/16, mode: p2p31}\n")));
  const Fabric& f = r.fabric;
  const Plane& compute = f.planes[0];
  const Device& last = f.devices[compute.first_switch + compute.switch_count - 1];
  EXPECT_EQ(FormatIpv4(last.loopback), "10.0.255.255");
}

TEST(Addressing, TooSmallAPrefixIsAFindingWithTheSizeNeeded) {
  PlanResult r = Plan(testing::ParseOrDie(RoceYaml("  compute: {prefix: 10.0.0.0/24, mode: p2p31}\n")));
  auto it = std::find_if(r.findings.begin(), r.findings.end(),
                         [](const Finding& f) { return f.rule == "addressing-prefix-too-small"; });
  ASSERT_NE(it, r.findings.end());
  EXPECT_EQ(it->severity, Severity::kError);
  EXPECT_NE(it->fix.find("/20"), std::string::npos) << it->fix;  // 1024 links x 2 + switches
}

TEST(Addressing, HostModeGivesEachPortAnAddressAfterTheGateway) {
  PlanResult r = Plan(testing::ParseOrDie(testing::SuperPodYaml(
      31, "  - {name: storage, kind: roce, nic: MCX623106AN-CDAT, ports_per_node: 2, speed: 100G, switch: SN4600C}\n",
      "  storage: {prefix: 10.16.0.0/16, vlan: 200}\n")));
  const Plane& storage = r.fabric.planes[1];
  const Link& first = r.fabric.links[storage.first_link];
  EXPECT_EQ(FormatIpv4(first.ip_a), "10.16.0.2");
  EXPECT_EQ(first.ip_length, 16);
  EXPECT_EQ(storage.addressing.vlan, 200);
}

}  // namespace
}  // namespace railyard
