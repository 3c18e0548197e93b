#include "plan/clos.h"

#include <gtest/gtest.h>

namespace railyard {
namespace {

// DGX SuperPOD compute fabric: 8 rails of 400G NDR, 32-node SUs, QM9700 (64 x 400G), 1:1.
ClosInput SuperPod(uint32_t nodes, bool ufm) {
  ClosInput in;
  in.nodes = nodes;
  if (ufm) in.extra_ports = {4};
  in.ports_per_node = 8;
  in.rail_optimized = true;
  in.nodes_per_su = 32;
  in.leaf_ports = 64;
  in.spine_ports = 64;
  in.core_ports = 64;
  return in;
}

// NVIDIA's table "Compute fabric component count", DGX SuperPOD H100 RA (see
// ../shared/reference/fabric-math.md): SU, nodes, leaf, spine, node+UFM->leaf, leaf-spine.
struct SuperPodRow {
  uint32_t su, nodes, leaves, spines, endpoint_links, leaf_spine_links;
};
class SuperPodTable : public ::testing::TestWithParam<SuperPodRow> {};

TEST_P(SuperPodTable, MatchesNvidiaPublishedCounts) {
  const SuperPodRow& row = GetParam();
  ClosShape s = SizeClos(SuperPod(row.nodes, true));
  ASSERT_TRUE(s.error.empty()) << s.error;
  EXPECT_EQ(s.tiers, 2u);
  EXPECT_EQ(s.groups, row.su);
  EXPECT_EQ(s.leaves, row.leaves);
  EXPECT_EQ(s.spines, row.spines);
  EXPECT_EQ(s.endpoints, row.endpoint_links);
  EXPECT_EQ(s.links_leaf_spine, row.leaf_spine_links);
  // Uniform striping: every leaf reaches every spine over the same number of links.
  EXPECT_EQ(s.leaf_up % s.spines, 0u);
}

INSTANTIATE_TEST_SUITE_P(H100, SuperPodTable,
                         ::testing::Values(SuperPodRow{1, 31, 8, 4, 252, 256}, SuperPodRow{2, 63, 16, 8, 508, 512},
                                           SuperPodRow{3, 95, 24, 16, 764, 768}, SuperPodRow{4, 127, 32, 16, 1020, 1024}));

TEST(Clos, B200EightSuIsTheTwoTierCeiling) {
  // B200 SuperPOD (switches.md): 8 SU = 64 leaf / 32 spine; 16 SU = 128 / 128 / 64 core.
  ClosShape eight = SizeClos(SuperPod(255, true));
  EXPECT_EQ(eight.tiers, 2u);
  EXPECT_EQ(eight.leaves, 64u);
  EXPECT_EQ(eight.spines, 32u);
  ClosShape sixteen = SizeClos(SuperPod(511, true));
  EXPECT_EQ(sixteen.tiers, 3u);
  EXPECT_EQ(sixteen.leaves, 128u);
  EXPECT_EQ(sixteen.spines, 128u);
  EXPECT_EQ(sixteen.cores, 64u);
  EXPECT_EQ(sixteen.pods, 4u);
  EXPECT_EQ(sixteen.links_spine_core, 4096u);
}

TEST(Clos, B200SixtyFourSu) {
  ClosShape s = SizeClos(SuperPod(64 * 32, false));
  ASSERT_TRUE(s.error.empty()) << s.error;
  EXPECT_EQ(s.tiers, 3u);
  EXPECT_EQ(s.leaves, 512u);
  EXPECT_EQ(s.pods, 16u);
  EXPECT_EQ(s.spines, 512u);
  EXPECT_EQ(s.cores, 256u);
  // Each core joins all 16 pods: 16 pods x (32 uplinks / 8 cores per group) = 64 ports.
  EXPECT_EQ(s.pods * s.links_per_spine_core_pair(), 64u);
}

TEST(Clos, B300XdrScalableUnit) {
  // B300 XDR SU: 72 nodes, Q3400-RA (144 x 800G), 8 leaf + 4 spine.
  ClosInput in = SuperPod(72, false);
  in.nodes_per_su = 72;
  in.leaf_ports = in.spine_ports = in.core_ports = 144;
  ClosShape s = SizeClos(in);
  EXPECT_EQ(s.leaves, 8u);
  EXPECT_EQ(s.spines, 4u);
}

TEST(Clos, RubinEightSuNeedsThirtySixSpines) {
  // Rubin NVL8, 8 SU / 576 nodes on Q3400-RA: 64 leaf + 36 spine. 72 uplinks per leaf, 36 is
  // the smallest divisor of 72 that holds 64 x 72 uplinks on 144-port spines.
  ClosInput in = SuperPod(576, false);
  in.nodes_per_su = 72;
  in.leaf_ports = in.spine_ports = in.core_ports = 144;
  ClosShape s = SizeClos(in);
  EXPECT_EQ(s.tiers, 2u);
  EXPECT_EQ(s.leaves, 64u);
  EXPECT_EQ(s.spines, 36u);
}

TEST(Clos, B300SpectrumXPerPlane) {
  // B300 Spectrum-X SU: 64 nodes, twin planes of 8 x 400G on SN5610 (128 x 400G): per plane
  // 8 leaves and 4 spines, 16 + 8 for the SU.
  ClosInput in = SuperPod(64, false);
  in.nodes_per_su = 64;
  in.leaf_ports = in.spine_ports = in.core_ports = 128;
  ClosShape s = SizeClos(in);
  EXPECT_EQ(s.leaves, 8u);
  EXPECT_EQ(s.spines, 4u);
}

TEST(Clos, AlFaresKaryFatTree) {
  // k = 48: k^3/4 = 27,648 hosts, 5k^2/4 = 2,880 switches (k^2/4 = 576 core).
  ClosInput in;
  in.nodes = 27648;
  in.ports_per_node = 1;
  in.leaf_ports = in.spine_ports = in.core_ports = 48;
  ClosShape s = SizeClos(in);
  ASSERT_TRUE(s.error.empty()) << s.error;
  EXPECT_EQ(s.tiers, 3u);
  EXPECT_EQ(s.pods, 48u);
  EXPECT_EQ(s.leaves, 1152u);
  EXPECT_EQ(s.spines, 1152u);
  EXPECT_EQ(s.cores, 576u);
  EXPECT_EQ(s.leaves + s.spines + s.cores, 2880u);
  // One more host does not fit three tiers of 48-port switches.
  in.nodes += 1;
  EXPECT_FALSE(SizeClos(in).error.empty());
}

TEST(Clos, PartialLastScalableUnit) {
  ClosShape s = SizeClos(SuperPod(100, false));  // 3 full SUs and 4 nodes
  EXPECT_EQ(s.groups, 4u);
  EXPECT_EQ(s.leaves, 32u);  // every rail of the last SU still gets its leaf
  ASSERT_EQ(s.leaves_in_group.size(), 4u);
  EXPECT_EQ(s.leaves_in_group[3], 1u);
}

TEST(Clos, OneTierWhenOneSwitchHoldsEverything) {
  ClosInput in = SuperPod(8, false);
  ClosShape s = SizeClos(in);
  EXPECT_EQ(s.tiers, 1u);
  EXPECT_EQ(s.leaves, 1u);
  EXPECT_EQ(s.spines, 0u);
  in.tiers = 2;  // asked for two tiers: one leaf per rail and spines
  ClosShape two = SizeClos(in);
  EXPECT_EQ(two.tiers, 2u);
  EXPECT_EQ(two.leaves, 8u);
}

TEST(Clos, OversubscriptionSplitsLeafPorts) {
  uint32_t down = 0, up = 0;
  SplitPorts(64, Ratio{1, 1}, &down, &up);
  EXPECT_EQ(down, 32u);
  EXPECT_EQ(up, 32u);
  SplitPorts(64, Ratio{2, 1}, &down, &up);
  EXPECT_EQ(down, 42u);
  EXPECT_EQ(up, 21u);
  SplitPorts(64, Ratio{3, 1}, &down, &up);
  EXPECT_EQ(down, 48u);
  EXPECT_EQ(up, 16u);
  SplitPorts(128, Ratio{2, 1}, &down, &up);  // 85 + 43 would force 43 spines: 84 + 42
  EXPECT_EQ(down, 84u);
  EXPECT_EQ(up, 42u);
  SplitPorts(64, Ratio{1.5, 1}, &down, &up);
  EXPECT_LE(down, 1.5 * up + 1e-9);
  EXPECT_LE(down + up, 64u);
  EXPECT_EQ(down, 38u);
}

TEST(Clos, DualHomedStoragePairs) {
  ClosInput in;
  in.nodes = 127;
  in.ports_per_node = 2;
  in.leaf_ports = in.spine_ports = 64;
  in.oversubscription = {Ratio{2, 1}};
  ClosShape s = SizeClos(in);
  EXPECT_EQ(s.rails, 2u);  // port 0 and port 1 of a node on different leaves
  EXPECT_EQ(s.groups, 4u);
  EXPECT_EQ(s.nodes_per_group, 32u);  // balanced, not 42 + 42 + 42 + 1
  EXPECT_EQ(s.leaves, 8u);
  EXPECT_EQ(s.spines, 3u);  // smallest divisor of 21 uplinks holding 8 x 21 links
}

TEST(Clos, SplitPortLeafUsesItsUplinkGroup) {
  ClosInput in;  // SN2201: 48 x 1G down, 4 x 100G up; spines at 100G
  in.nodes = 300;
  in.leaf_ports = 48;
  in.leaf_uplink_ports = 4;
  in.spine_ports = 64;
  ClosShape s = SizeClos(in);
  EXPECT_EQ(s.leaf_down, 48u);
  EXPECT_EQ(s.leaf_up, 4u);
  EXPECT_EQ(s.leaves, 7u);
  EXPECT_EQ(s.spines, 2u);
}

TEST(Clos, ErrorsInsteadOfBrokenPlans) {
  ClosInput in = SuperPod(32, false);
  in.leaf_ports = 0;
  EXPECT_FALSE(SizeClos(in).error.empty());
  in = SuperPod(10000, false);
  in.tiers = 2;
  EXPECT_NE(SizeClos(in).error.find("two tiers"), std::string::npos);
  in = SuperPod(0, false);
  EXPECT_FALSE(SizeClos(in).error.empty());
}

TEST(Clos, SmallestDivisor) {
  EXPECT_EQ(SmallestDivisorAtLeast(32, 12), 16u);
  EXPECT_EQ(SmallestDivisorAtLeast(72, 32), 36u);
  EXPECT_EQ(SmallestDivisorAtLeast(21, 3), 3u);
  EXPECT_EQ(SmallestDivisorAtLeast(21, 8), 21u);
  EXPECT_EQ(SmallestDivisorAtLeast(21, 22), 0u);
}

}  // namespace
}  // namespace railyard
