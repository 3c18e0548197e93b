#include "plan/bom.h"

#include <set>

#include <gtest/gtest.h>

#include "plan/planner.h"
#include "plan/test_specs.h"

namespace railyard {
namespace {

uint64_t Quantity(const Bom& bom, const std::string& opn) {
  uint64_t q = 0;
  for (const BomLine& line : bom.lines) q += line.opn == opn ? line.quantity : 0;
  return q;
}

TEST(Bom, SuperPodFourSu) {
  PlanResult r = Plan(testing::ParseOrDie(testing::SuperPodYaml(127)));
  const Bom& bom = r.bom;
  EXPECT_EQ(Quantity(bom, "MQM9700-NS2F"), 48u);        // 32 leaves + 16 spines
  EXPECT_EQ(Quantity(bom, "MCX75310AAS-NEAT"), 1016u);  // 127 nodes x 8 single-port cards
  EXPECT_EQ(bom.totals.switches, 48u);
  EXPECT_DOUBLE_EQ(bom.totals.switch_typical_w, 48 * 747.0);  // QM9700 typical, passive cables
  EXPECT_DOUBLE_EQ(bom.totals.switch_max_w, 48 * 1720.0);
  // Every physical assembly once; every optical link one fibre; NIC-side modules one per port.
  std::set<uint32_t> assemblies;
  uint64_t optical = 0, nic_modules = 0;
  for (const Link& l : r.fabric.links) {
    if (l.media == Media::kOptical) {
      ++optical;
      nic_modules += l.level == 0 ? 1 : 0;
    } else {
      assemblies.insert(l.assembly);
    }
  }
  uint64_t cables = 0, fibres = 0;
  for (const BomLine& line : bom.lines) {
    if (line.category == "cable") cables += line.quantity;
    if (line.category == "fibre") fibres += line.quantity;
  }
  EXPECT_EQ(cables, assemblies.size());
  EXPECT_EQ(fibres, optical);
  EXPECT_EQ(Quantity(bom, "MMA4Z00-NS400"), nic_modules);
  EXPECT_EQ(bom.totals.cables, cables + fibres);
  // Lines are ordered switches, NICs, cables, transceivers, fibres.
  EXPECT_EQ(bom.lines.front().category, "switch");
  EXPECT_EQ(bom.lines.back().category, "fibre");
}

TEST(Bom, SplitterFibresCountOncePerPair) {
  // NDR200: 200G ports on QM9700 (4 per cage) reach OSFP NICs over 1:2 splitter fibres.
  PlanResult r = Plan(testing::ParseOrDie(
      "name: t\nnodes: {count: 64, per_rack: 4}\nplanes:\n"
      "  - {name: compute, kind: infiniband, nic: MCX75310AAS-HEAT, ports_per_node: 2, speed: 200G, switch: QM9700}\n"
      "layout: {racks_per_row: 16}\n"));
  uint64_t split_links = 0;
  for (const Link& l : r.fabric.links) {
    if (l.media == Media::kOptical && Catalog::Builtin().cables()[l.cable].medium == "mmf-split") ++split_links;
  }
  ASSERT_GT(split_links, 0u);
  uint64_t split_fibres = 0;
  for (const BomLine& line : r.bom.lines) {
    if (line.opn.rfind("MFP7E20", 0) == 0) split_fibres += line.quantity;
  }
  EXPECT_EQ(split_fibres * 2, split_links);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(Bom, SparesPerCategoryAndPowerNeverGuessed) {
  PlanResult r = Plan(testing::ParseOrDie(R"(name: t
nodes: {count: 8, gpus: 8, pcie: gen5, per_rack: 2}
planes:
  - {name: compute, kind: infiniband, nic: ConnectX-7, ports_per_node: 8, speed: NDR, switch: QM9700, redundancy: leaf-pair, peer_links: 16}
spares: {transceiver: 5, fibre: 10, nic: 0}
)"));
  bool saw_nic = false, saw_xcvr = false;
  for (const BomLine& line : r.bom.lines) {
    SCOPED_TRACE(line.opn);
    if (line.category == "transceiver") {
      saw_xcvr = true;
      EXPECT_EQ(line.spares, (line.quantity * 5 + 99) / 100);  // 5 %, rounded up
    } else if (line.category == "fibre") {
      EXPECT_EQ(line.spares, (line.quantity * 10 + 99) / 100);
    } else {
      EXPECT_EQ(line.spares, 0u);
    }
    if (line.category == "nic") {
      saw_nic = true;
      EXPECT_FALSE(line.power_known);  // the catalog has no NIC power: unknown, not 0 W
    }
    if (line.category == "fibre") {
      EXPECT_TRUE(line.power_known);
    }
  }
  EXPECT_TRUE(saw_nic && saw_xcvr);
  EXPECT_THROW(testing::ParseOrDie("name: t\nnodes: {count: 2}\nplanes:\n  - {name: c, kind: infiniband, nic: CX7, speed: NDR, "
                                   "switch: QM9700}\nspares: {cables: 2}\n"),
               SpecError);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(Bom, SwitchOpnFollowsTheHallsAirflow) {
  auto plan = [](const std::string& airflow, const std::string& sw) {
    return Plan(testing::ParseOrDie(
        "name: t\nnodes: {count: 8, gpus: 8, pcie: gen6, per_rack: 2}\nplanes:\n"
        "  - {name: compute, kind: infiniband, nic: ConnectX-" +
        std::string(sw == "Q3400" ? "8" : "7") + ", ports_per_node: 8, speed: " + (sw == "Q3400" ? "XDR" : "NDR") +
        ", switch: " + sw + ", redundancy: leaf-pair, peer_links: 16}\nlayout: {airflow: " + airflow + "}\n"));
  };
  auto switch_line = [](const PlanResult& r) {
    for (const BomLine& l : r.bom.lines) {
      if (l.category == "switch") return l;
    }
    return BomLine{};
  };
  PlanResult c2p = plan("c2p", "QM9700");
  EXPECT_EQ(switch_line(c2p).opn, "MQM9700-NS2R");
  EXPECT_NE(switch_line(c2p).description.find("C2P airflow"), std::string::npos);
  EXPECT_EQ(switch_line(plan("p2c", "QM9700")).opn, "MQM9700-NS2F");
  // Q3400-RA is C2P only in the catalog: a P2C hall gets the OPN there is and a warning.
  PlanResult p2c = plan("p2c", "Q3400");
  EXPECT_EQ(switch_line(p2c).opn, "920-9B36F-00RX-8S0");
  bool warned = false;
  for (const Finding& f : p2c.findings) warned = warned || (f.rule == "airflow-unavailable" && f.severity == Severity::kWarning);
  EXPECT_TRUE(warned);
  EXPECT_THROW(testing::ParseOrDie("name: t\nnodes: {count: 2}\nplanes:\n  - {name: c, kind: infiniband, nic: CX7, speed: NDR, "
                                   "switch: QM9700}\nlayout: {airflow: sideways}\n"),
               SpecError);
}

}  // namespace
}  // namespace railyard
