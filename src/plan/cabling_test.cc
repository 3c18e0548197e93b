#include "plan/cabling.h"

#include <gtest/gtest.h>

#include "plan/planner.h"
#include "plan/test_specs.h"

namespace railyard {
namespace {

const Catalog& C() { return Catalog::Builtin(); }
std::string Opn(uint16_t item) { return item == kNoItem ? "" : C().cables()[item].opn; }

TEST(ChooseCable, NodeToLeafByReach) {
  // 400G NDR from a QM9700 twin-port cage to a ConnectX-7 OSFP: splitter DAC to 3 m, splitter
  // ACC to 5 m, then SR4 optics and multimode fibre to 50 m, DR4 and single-mode to 100 m.
  struct Case {
    double route;
    Media media;
    const char* cable;
    const char* xcvr_a;
    const char* xcvr_z;
    double length;
  };
  const Case cases[] = {
      {0.8, Media::kDac, "MCP7Y00-N001", "", "", 1},
      {2.9, Media::kDac, "MCP7Y00-N003", "", "", 3},
      {4.2, Media::kAcc, "MCA7J60-N005", "", "", 5},
      {12.0, Media::kOptical, "MFP7E10-N015", "MMA4Z00-NS400", "MMA4Z00-NS", 15},
      {50.0, Media::kOptical, "MFP7E10-N050", "MMA4Z00-NS400", "MMA4Z00-NS", 50},
      {80.0, Media::kOptical, "MFP7E30-N100", "MMS4X00-NS400", "MMS4X00-NS", 100},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.route);
    CableChoice x = ChooseCable(C(), 400, "osfp", "osfp-twin", false, c.route);
    EXPECT_EQ(x.media, c.media);
    EXPECT_EQ(Opn(x.cable), c.cable);
    EXPECT_EQ(Opn(x.xcvr_a), c.xcvr_a);
    EXPECT_EQ(Opn(x.xcvr_z), c.xcvr_z);
    EXPECT_EQ(x.length_m, c.length);
  }
  // No single-port NDR optic reaches 150 m: nothing to order, and the checks will say so.
  EXPECT_EQ(ChooseCable(C(), 400, "osfp", "osfp-twin", false, 150).media, Media::kNone);
}

TEST(ChooseCable, SwitchToSwitchTwinPorts) {
  // Both ports of a cage to the same peer cage: a straight twin DAC; else optics.
  EXPECT_EQ(Opn(ChooseCable(C(), 400, "osfp-twin", "osfp-twin", true, 1.7).cable), "MCP4Y10-N002");
  EXPECT_EQ(Opn(ChooseCable(C(), 400, "osfp-twin", "osfp-twin", true, 4.5).cable), "MCA4J80-N005");
  EXPECT_EQ(ChooseCable(C(), 400, "osfp-twin", "osfp-twin", false, 1.7).media, Media::kOptical);
  // Long runs between halls: DR4 500 m, then FR4 2 km over duplex single-mode.
  EXPECT_EQ(Opn(ChooseCable(C(), 400, "osfp-twin", "osfp-twin", true, 300).xcvr_a), "MMS4X00-NM");
  CableChoice fr4 = ChooseCable(C(), 400, "osfp-twin", "osfp-twin", true, 1500);
  EXPECT_EQ(Opn(fr4.xcvr_a), "MMS4X50-NM");
  EXPECT_EQ(fr4.length_m, 2000);
  EXPECT_EQ(ChooseCable(C(), 400, "osfp-twin", "osfp-twin", true, 2500).media, Media::kNone);
}

TEST(ChooseCable, EthernetAndManagement) {
  EXPECT_EQ(Opn(ChooseCable(C(), 100, "qsfp28", "qsfp28", false, 2.5).cable), "MCP1600-C003E26N");
  EXPECT_EQ(ChooseCable(C(), 100, "qsfp28", "qsfp28", false, 25).media, Media::kAoc);
  EXPECT_EQ(Opn(ChooseCable(C(), 1, "rj45", "rj45", false, 12).cable), "CAT6-UTP-15M");
  EXPECT_EQ(ChooseCable(C(), 1, "rj45", "rj45", false, 120).media, Media::kNone);  // beyond 1000BASE-T
}

TEST(Cabling, TwinCagesShareOneAssemblyOrTransceiver) {
  PlanResult r = Plan(testing::ParseOrDie(testing::SuperPodYaml(31)));
  const Fabric& f = r.fabric;
  // Every link has a way to be made, and an orderable length at least its route.
  for (const Link& l : f.links) {
    ASSERT_NE(l.media, Media::kNone);
    EXPECT_GE(l.length_m + 1e-6, l.route_m);
  }
  // Links sharing an assembly share the same cable OPN and the same z-end switch cage.
  std::map<uint32_t, std::vector<const Link*>> by_assembly;
  for (const Link& l : f.links) by_assembly[l.assembly].push_back(&l);
  for (const auto& [id, links] : by_assembly) {
    ASSERT_LE(links.size(), 2u);
    if (links.size() == 2) {
      EXPECT_EQ(links[0]->cable, links[1]->cable);
      EXPECT_EQ(links[0]->z.device, links[1]->z.device);
      EXPECT_EQ((links[0]->z.port - 1) / 2, (links[1]->z.port - 1) / 2);
    }
  }
  // The 100G NIC cage of a ConnectX-6 Dx (QSFP56) takes QSFP28 cables.
  Fabric g;
  g.planes.resize(1);
  g.planes[0].nic = *C().FindNic("MCX623106AN-CDAT");
  g.planes[0].ports_per_node = 2;
  g.planes[0].speed = 100;
  g.devices.resize(1);
  EXPECT_EQ(EndForm(C(), g, PortRef{0, 1}), "qsfp28");
}

}  // namespace
}  // namespace railyard
