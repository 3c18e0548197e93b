#include "plan/planner.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "plan/test_specs.h"

namespace railyard {
namespace {

using testing::ParseOrDie;
using testing::SuperPodYaml;

// Invariants every plan must keep, whatever the spec.
void ExpectWellFormed(const Fabric& f) {
  std::set<std::pair<uint32_t, uint16_t>> used;
  for (const Link& l : f.links) {
    ASSERT_LT(l.a.device, f.devices.size());
    ASSERT_LT(l.z.device, f.devices.size());
    EXPECT_TRUE(used.insert({l.a.device, l.a.port}).second) << "port used twice: " << f.devices[l.a.device].name;
    EXPECT_TRUE(used.insert({l.z.device, l.z.port}).second) << "port used twice: " << f.devices[l.z.device].name;
    EXPECT_EQ(f.devices[l.z.device].role, DeviceRole::kSwitch);
  }
  std::set<std::string> names;
  for (const Device& d : f.devices) EXPECT_TRUE(names.insert(d.name).second) << d.name;
}

TEST(Planner, SuperPodFourSuCountsAndInvariants) {
  PlanResult r = Plan(ParseOrDie(SuperPodYaml(127)));
  const Fabric& f = r.fabric;
  ExpectWellFormed(f);
  const Plane& p = f.planes[0];
  EXPECT_EQ(p.tier[0].count, 32u);
  EXPECT_EQ(p.tier[1].count, 16u);
  EXPECT_EQ(p.links_per_level[0], 1020u);
  EXPECT_EQ(p.links_per_level[1], 1024u);
  EXPECT_DOUBLE_EQ(p.oversubscription[0], 1.0);
  EXPECT_DOUBLE_EQ(BisectionGbps(p), 1020 * 400 / 2.0);
  // Every QM9700 cage in use takes either one twin-port module or one copper assembly end:
  // 32 leaves x 32 cages + 16 spines x 32 cages = 1536 (NVIDIA's 4-SU BOM lists 1536
  // switch-side twin-port transceivers, all optical).
  uint64_t twin = 0;
  for (const BomLine& line : r.bom.lines) {
    if (line.opn == "MMA4Z00-NS") twin += line.quantity;
  }
  std::set<std::pair<uint32_t, uint32_t>> copper_cages;
  for (const Link& l : f.links) {
    if (l.media == Media::kOptical) continue;
    for (PortRef end : {l.a, l.z}) {
      if (f.devices[end.device].role == DeviceRole::kSwitch) copper_cages.insert({end.device, (end.port - 1u) / 2});
    }
  }
  EXPECT_EQ(twin + copper_cages.size(), 1536u) << "twin modules " << twin << ", copper cages " << copper_cages.size();
}

TEST(Planner, RailOptimized) {
  PlanResult r = Plan(ParseOrDie(SuperPodYaml(127)));
  const Fabric& f = r.fabric;
  for (const Link& l : f.links) {
    if (l.level != 0) continue;
    const Device& leaf = f.devices[l.z.device];
    const Device& node = f.devices[l.a.device];
    // NIC port r of every node reaches the rail-r leaf of the node's own SU.
    EXPECT_EQ(leaf.rail, static_cast<int16_t>(l.a.port)) << node.name;
    EXPECT_EQ(l.rail, leaf.rail);
    if (node.role == DeviceRole::kNode) {
      uint32_t index = l.a.device;
      EXPECT_EQ(leaf.group, static_cast<int32_t>(index / 32)) << node.name;
    }
  }
}

TEST(Planner, UplinksAreStripedUniformly) {
  for (int nodes : {31, 95, 511}) {
    SCOPED_TRACE(nodes);
    PlanResult r = Plan(ParseOrDie(SuperPodYaml(nodes)));
    const Fabric& f = r.fabric;
    ExpectWellFormed(f);
    // Count links per (lower, upper) switch pair by level.
    std::map<std::pair<uint32_t, uint32_t>, int> pairs[3];
    std::map<uint32_t, std::set<uint32_t>> reach[3];
    for (const Link& l : f.links) {
      if (l.level == 0) continue;
      pairs[l.level][{l.a.device, l.z.device}]++;
      reach[l.level][l.a.device].insert(l.z.device);
    }
    const Plane& p = f.planes[0];
    // Every leaf has the same number of links to every spine of its pod.
    std::set<int> counts;
    for (const auto& [pair, n] : pairs[1]) counts.insert(n);
    EXPECT_EQ(counts.size(), 1u);
    for (const auto& [leaf, spines] : reach[1]) EXPECT_EQ(spines.size(), p.spines_per_pod);
    if (p.tiers == 3) {
      std::set<int> core_counts;
      for (const auto& [pair, n] : pairs[2]) core_counts.insert(n);
      EXPECT_EQ(core_counts.size(), 1u);
      for (const auto& [spine, cores] : reach[2]) EXPECT_EQ(cores.size(), p.cores_per_group);
      // Spine j of every pod reaches the same core group.
      std::map<uint32_t, std::set<uint32_t>> group_of_index;
      for (const auto& [spine, cores] : reach[2]) {
        uint32_t j = (spine - (p.first_switch + p.tier[0].count)) % p.spines_per_pod;
        group_of_index[j].insert(cores.begin(), cores.end());
      }
      for (const auto& [j, cores] : group_of_index) EXPECT_EQ(cores.size(), p.cores_per_group);
    }
  }
}

TEST(Planner, OutOfBandCablesEveryBmcAndSwitch) {
  PlanResult r = Plan(ParseOrDie(SuperPodYaml(31, "  - {name: oob, kind: ethernet, speed: 1G, switch: SN2201}\n",
                                              "  oob: {prefix: 192.168.0.0/22, vlan: 10}\n")));
  const Fabric& f = r.fabric;
  ExpectWellFormed(f);
  const Plane& oob = f.planes[1];
  std::set<uint32_t> cabled;
  for (uint32_t i = oob.first_link; i < oob.first_link + oob.links_per_level[0]; ++i) cabled.insert(f.links[i].a.device);
  for (uint32_t d = 0; d < f.devices.size(); ++d) {
    const Device& dev = f.devices[d];
    bool expected = dev.role == DeviceRole::kNode || (dev.role == DeviceRole::kSwitch && dev.plane == 0);
    EXPECT_EQ(cabled.count(d) > 0, expected) << dev.name;
  }
  EXPECT_EQ(PortName(f, f.links[oob.first_link].a), "bmc");
}

TEST(Planner, IsDeterministic) {
  Spec spec = ParseOrDie(SuperPodYaml(95));
  PlanResult a = Plan(spec);
  PlanResult b = Plan(spec);
  ASSERT_EQ(a.fabric.links.size(), b.fabric.links.size());
  for (size_t i = 0; i < a.fabric.links.size(); ++i) {
    EXPECT_EQ(a.fabric.links[i].a, b.fabric.links[i].a);
    EXPECT_EQ(a.fabric.links[i].z, b.fabric.links[i].z);
    EXPECT_EQ(a.fabric.links[i].cable, b.fabric.links[i].cable);
  }
}

TEST(Planner, NamesPortsAsTheDevicesDo) {
  PlanResult r = Plan(
      ParseOrDie("name: t\nnodes: {count: 64}\nplanes:\n"
                 "  - {name: compute, kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: SN5600, "
                 "rail_optimized: true}\n"
                 "  - {name: storage, kind: roce, nic: MCX623106AN-CDAT, ports_per_node: 2, speed: 100G, switch: SN4600C}\n"));
  const Fabric& f = r.fabric;
  const Link& first = f.links[0];
  EXPECT_EQ(PortName(f, first.a), "mlx5_0");
  EXPECT_EQ(PortName(f, first.z), "swp1s0");  // SN5600 at 400G: two ports per OSFP cage
  const Plane& storage = f.planes[1];
  EXPECT_EQ(PortName(f, f.links[storage.first_link].a), "mlx5_8");
  EXPECT_EQ(PortName(f, f.links[storage.first_link].z), "swp1");
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(Planner, LeafPairDualHomesEveryNodeAndCablesThePeerLinks) {
  PlanResult r = Plan(testing::ParseOrDie(R"(name: lab
nodes: {count: 8, gpus: 8, pcie: gen5, per_rack: 2}
planes:
  - {name: compute, kind: infiniband, nic: ConnectX-7, ports_per_node: 8, speed: NDR, switch: QM9700, redundancy: leaf-pair, peer_links: 16}
  - {name: storage, kind: roce, nic: ConnectX-6 Dx, ports_per_node: 2, speed: 100G, switch: SN4600C, redundancy: leaf-pair}
)"));
  const Fabric& f = r.fabric;
  for (size_t p = 0; p < 2; ++p) {
    const Plane& plane = f.planes[p];
    SCOPED_TRACE(plane.name);
    EXPECT_EQ(plane.tiers, 1u);
    EXPECT_EQ(plane.tier[0].count, 2u);
    EXPECT_EQ(plane.tier[1].count, 0u);
    std::map<uint32_t, std::set<uint32_t>> leaves_of_node;
    uint32_t peer = 0;
    for (uint32_t i = plane.first_link; i < plane.first_link + plane.link_count; ++i) {
      const Link& l = f.links[i];
      if (l.level == 3) {
        ++peer;
        EXPECT_EQ(f.devices[l.a.device].role, DeviceRole::kSwitch);
        EXPECT_EQ(l.a.port, l.z.port);  // the same port on both leaves
      } else {
        leaves_of_node[l.a.device].insert(l.z.device);
      }
    }
    EXPECT_EQ(peer, p == 0 ? 16u : 2u);  // peer_links, default 2
    EXPECT_EQ(plane.links_per_level[3], peer);
    ASSERT_EQ(leaves_of_node.size(), 8u);
    for (const auto& [node, leaves] : leaves_of_node) EXPECT_EQ(leaves.size(), 2u) << f.devices[node].name;
  }
  for (const Finding& fi : r.findings) EXPECT_NE(fi.rule, "node-single-switch") << fi.message;
}

TEST(Planner, LeafPairThatCannotHoldThePlaneSaysSo) {
  PlanResult r = Plan(testing::ParseOrDie(R"(name: big
nodes: {count: 20, gpus: 8}
planes:
  - {name: compute, kind: infiniband, nic: ConnectX-7, ports_per_node: 8, speed: NDR, switch: QM9700, redundancy: leaf-pair}
)"));
  bool found = false;
  for (const Finding& fi : r.findings) found = found || (fi.rule == "plane-cannot-be-built" && fi.severity == Severity::kError);
  EXPECT_TRUE(found);
  EXPECT_THROW(testing::ParseOrDie("name: x\nnodes: {count: 2}\nplanes:\n  - {name: c, kind: roce, nic: CX7, speed: 100G, "
                                   "switch: SN4600C, redundancy: leaf-pair, rail_optimized: true, ports_per_node: 2}\n"),
               SpecError);
}

}  // namespace
}  // namespace railyard
