#include "plan/layout.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "plan/planner.h"
#include "plan/test_specs.h"

namespace railyard {
namespace {

using testing::ParseOrDie;
using testing::SuperPodYaml;

TEST(Layout, NodesFillRacksAndRows) {
  PlanResult r = Plan(ParseOrDie(SuperPodYaml(31)));
  const Fabric& f = r.fabric;
  // 31 DGX + UFM = 32 slots at 4 per rack = 8 GPU racks, 10 per row: one row.
  int gpu_racks = 0;
  for (const Rack& rack : f.racks) gpu_racks += rack.network ? 0 : 1;
  EXPECT_EQ(gpu_racks, 8);
  EXPECT_EQ(f.devices[0].u, 1);
  EXPECT_EQ(f.devices[1].u, 9);  // 8U nodes stack from the bottom
  EXPECT_EQ(f.racks[f.devices[4].rack].name, "r01-02");
}

TEST(Layout, EndOfRowNetworkRackFollowsTheGpuRacks) {
  PlanResult r = Plan(ParseOrDie(SuperPodYaml(31)));
  const Fabric& f = r.fabric;
  const Device& leaf = *std::find_if(f.devices.begin(), f.devices.end(), [](const Device& d) { return d.tier == Tier::kLeaf; });
  const Rack& rack = f.racks[leaf.rack];
  EXPECT_TRUE(rack.network);
  EXPECT_EQ(rack.row, 0);
  EXPECT_EQ(rack.position, 8);  // right after the 8 GPU racks (0..7) of a 10-rack row: no empty positions between
  EXPECT_EQ(rack.name, "r01-n1");
  // Two-tier spines sit in the hall's central row (here the only row), in a network rack.
  const Device& spine = *std::find_if(f.devices.begin(), f.devices.end(), [](const Device& d) { return d.tier == Tier::kSpine; });
  EXPECT_EQ(f.racks[spine.rack].row, 0);
  EXPECT_TRUE(f.racks[spine.rack].network);
}

TEST(Layout, ThreeTierSpinesStayWithTheirPodAndCoresInTheMiddle) {
  PlanResult r = Plan(ParseOrDie(SuperPodYaml(1279)));  // 40 SUs, 10 pods, 320 GPU racks, 32 rows
  const Fabric& f = r.fabric;
  ASSERT_EQ(f.planes[0].tiers, 3u);
  int gpu_rows = 0;
  for (const Rack& rack : f.racks) gpu_rows = rack.network ? gpu_rows : std::max(gpu_rows, rack.row + 1);
  ASSERT_EQ(gpu_rows, 32);
  std::map<int32_t, std::set<uint16_t>> leaf_rows;
  for (const Device& d : f.devices) {
    if (d.tier == Tier::kLeaf) leaf_rows[d.pod].insert(f.racks[d.rack].row);
  }
  for (const Device& d : f.devices) {
    if (d.tier == Tier::kSpine) {
      const auto& rows = leaf_rows[d.pod];
      uint16_t row = f.racks[d.rack].row;
      EXPECT_GE(row, *rows.begin()) << d.name;
      EXPECT_LE(row, *rows.rbegin()) << d.name;
    }
    if (d.tier == Tier::kCore) {
      // 256 1U cores fill 7 racks; a row takes at most 5 network racks, so the rest spill
      // to the row next to the central one.
      EXPECT_LE(std::abs(int(f.racks[d.rack].row) - gpu_rows / 2), 1) << d.name;
    }
  }
}

TEST(Layout, MiddleOfRowPushesLaterGpuRacksAlong) {
  PlanResult r = Plan(ParseOrDie(SuperPodYaml(31, "", "", "  network_racks: middle-of-row\n")));
  const Fabric& f = r.fabric;
  for (const Rack& rack : f.racks) {
    if (rack.row != 0) continue;
    if (rack.network) {
      EXPECT_EQ(rack.position, 4);  // the middle of the 8 GPU racks the row holds, not of a full 10-rack row
    } else if (rack.name == "r01-05") {
      EXPECT_EQ(rack.position, 5);  // the fifth GPU rack moved past the network rack
    } else if (rack.name == "r01-04") {
      EXPECT_EQ(rack.position, 3);
    }
  }
}

TEST(Layout, RouteLengthAddsDropsRunAndSlack) {
  Spec spec = ParseOrDie(SuperPodYaml(31));
  Fabric f;
  f.racks = {Rack{"a", 0, 0, false, 0}, Rack{"b", 0, 3, false, 0}, Rack{"c", 2, 3, false, 0}};
  f.devices.resize(4);
  f.devices[0].rack = 0;
  f.devices[0].u = 1;
  f.devices[1].rack = 0;
  f.devices[1].u = 41;
  f.devices[2].rack = 1;
  f.devices[2].u = 42;
  f.devices[3].rack = 2;
  f.devices[3].u = 42;
  // Same rack: 40U apart plus the in-rack slack (0.3 m default).
  EXPECT_NEAR(RouteLength(spec.layout, f, 0, 1), 40 * kRackUnitM + 0.3, 1e-9);
  // Same row, 3 positions apart: up to the tray (0.5 m above a 42U rack) at each end,
  // 3 x 0.6 m along the row, 1 m slack.
  EXPECT_NEAR(RouteLength(spec.layout, f, 1, 2), (2 * kRackUnitM + 0.5) + 1.8 + (kRackUnitM + 0.5) + 1.0, 1e-9);
  // Two rows apart at the same position: 2 x 2.4 m across.
  EXPECT_NEAR(RouteLength(spec.layout, f, 2, 3), 2 * (kRackUnitM + 0.5) + 4.8 + 1.0, 1e-9);
}

TEST(Layout, TopOfRackPutsLeavesInTheGpuRack) {
  std::string yaml =
      "name: tor\nnodes: {count: 128, per_rack: 16, height_u: 2}\nplanes:\n"
      "  - {name: storage, kind: roce, nic: MCX623106AN-CDAT, ports_per_node: 1, speed: 100G, switch: SN4600C}\n"
      "layout: {network_racks: top-of-rack}\n";
  PlanResult r = Plan(ParseOrDie(yaml));
  EXPECT_EQ(r.fabric.planes[0].tier[0].count, 4u);
  for (const Device& d : r.fabric.devices) {
    if (d.tier != Tier::kLeaf) continue;
    EXPECT_FALSE(r.fabric.racks[d.rack].network) << d.name;
    EXPECT_GE(d.u, 33) << d.name;  // above the 16 x 2U nodes
  }
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(Layout, RacksTakeTheHallsNames) {
  const std::string base =
      "name: hall\nnodes: {count: 8, gpus: 8, pcie: gen5, per_rack: 2}\nplanes:\n"
      "  - {name: compute, kind: infiniband, nic: ConnectX-7, ports_per_node: 8, speed: NDR, switch: QM9700, "
      "redundancy: leaf-pair, peer_links: 16}\nlayout: {network_racks: middle-of-row}\n";
  PlanResult r = Plan(testing::ParseOrDie(base + "racks: {r01-01: A01, r01-n1: A03-NET}\n"));
  std::set<std::string> names;
  for (const Rack& rack : r.fabric.racks) names.insert(rack.name);
  EXPECT_TRUE(names.count("A01") && names.count("A03-NET") && names.count("r01-02"));
  EXPECT_FALSE(names.count("r01-01"));
  try {
    Plan(testing::ParseOrDie(base + "racks: {r09-01: X}\n"));
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.key(), "racks.r09-01");
    EXPECT_EQ(e.mark().line, 6);
  }
  EXPECT_THROW(Plan(testing::ParseOrDie(base + "racks: {r01-01: r01-02}\n")), SpecError);  // two racks of one name
  EXPECT_THROW(testing::ParseOrDie(base + "racks: {r01-01: 'A 01,x'}\n"), SpecError);      // not CSV-safe
}

}  // namespace
}  // namespace railyard
