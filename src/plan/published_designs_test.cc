// NVIDIA's published DGX SuperPOD compute-fabric tables, planned from specs written as engineers
// write them (`nic: ConnectX-8`, `switch: Q3400`, `speed: XDR`), must come out exact.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "plan/planner.h"
#include "spec/spec.h"

namespace railyard {
namespace {

struct Row {
  uint32_t su, leaf, spine, core;
};

PlanResult PlanSuperPod(uint32_t nodes, uint32_t per_su, const char* nic, const char* speed, const char* sw, const char* pcie) {
  return Plan(ParseSpec(fmt::format("name: superpod\nnodes: {{count: {}, gpus: 8, pcie: {}, per_rack: 4, name_prefix: dgx}}\n"
                                    "planes:\n  - {{name: compute, kind: infiniband, nic: {}, ports_per_node: 8, speed: {}, "
                                    "switch: {}, rail_optimized: true, nodes_per_su: {}}}\n",
                                    nodes, pcie, nic, speed, sw, per_su),
                        "superpod.yaml"));
}

void ExpectTableRow(const PlanResult& r, const Row& row, uint32_t nodes) {
  const Plane& p = r.fabric.planes[0];
  EXPECT_EQ(p.tier[0].count, row.leaf);
  EXPECT_EQ(p.tier[1].count, row.spine);
  EXPECT_EQ(p.tier[2].count, row.core);
  EXPECT_EQ(p.links_per_level[0], nodes * 8);  // node-leaf cables: one per GPU
  EXPECT_EQ(p.links_per_level[1], nodes * 8);  // leaf-spine: 1:1
  EXPECT_EQ(p.links_per_level[2], row.core ? nodes * 8 : 0u);
  for (const Finding& f : r.findings) {
    EXPECT_LT(f.severity, Severity::kWarning) << f.rule << ": " << f.message;
  }
}

// RA-11339-001 (DGX SuperPOD B300, Quantum-X800 XDR), Table 3 "Example Compute Fabric Components":
// https://docs.nvidia.com/dgx-superpod/reference-architecture/scalable-infrastructure-b300-xdr/latest/dgx-superpod-architecture.html
// 72 nodes per SU, two tiers up to 18 SU. (The 18-SU row gives 9,216 GPUs for 1,296 nodes and
// 10,368 cables per level: 10,368 is 1,296 x 8; the GPU cell is a typo.)
TEST(PublishedDesigns, DgxB300XdrSuperPod) {
  for (const Row& row : {Row{1, 8, 4, 0}, Row{2, 16, 8, 0}, Row{4, 32, 18, 0}, Row{8, 64, 36, 0}, Row{18, 144, 72, 0}}) {
    SCOPED_TRACE(fmt::format("{} SU", row.su));
    uint32_t nodes = row.su * 72;
    PlanResult r = PlanSuperPod(nodes, 72, "ConnectX-8", "XDR", "Q3400", "gen6");
    ExpectTableRow(r, row, nodes);
    // XDR is single-mode optics or linear active copper only: every part on the plane runs 800G.
    const Catalog& c = Catalog::Builtin();
    for (const Link& l : r.fabric.links) {
      ASSERT_NE(l.cable, kNoItem);
      EXPECT_TRUE(l.media == Media::kOptical || l.media == Media::kAcc) << ToString(l.media);
      for (uint16_t part : {l.xcvr_a, l.xcvr_z}) {
        if (part != kNoItem) {
          EXPECT_EQ(c.cables()[part].speed, 800u) << c.cables()[part].opn;
        }
      }
      if (l.media == Media::kOptical) {
        EXPECT_EQ(c.cables()[l.cable].medium.rfind("smf", 0), 0u) << c.cables()[l.cable].opn;
      } else {
        EXPECT_EQ(c.cables()[l.cable].speed, 800u) << c.cables()[l.cable].opn;
      }
    }
    EXPECT_EQ(c.nics()[r.fabric.planes[0].nic].ports, 1u);  // one SuperNIC per GPU
  }
}

// DGX SuperPOD B200 (NDR, QM9700), "Compute fabric component counts": 32 nodes per SU, a core tier
// from 16 SU.
// https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200/latest/dgx-superpod-architecture.html
TEST(PublishedDesigns, DgxB200NdrSuperPod) {
  for (const Row& row : {Row{2, 16, 8, 0}, Row{4, 32, 16, 0}, Row{8, 64, 32, 0}, Row{16, 128, 128, 64}, Row{32, 256, 256, 128},
                         Row{64, 512, 512, 256}}) {
    SCOPED_TRACE(fmt::format("{} SU", row.su));
    uint32_t nodes = row.su * 32;
    ExpectTableRow(PlanSuperPod(nodes, 32, "ConnectX-7", "NDR", "QM9700", "gen5"), row, nodes);
  }
}

}  // namespace
}  // namespace railyard
