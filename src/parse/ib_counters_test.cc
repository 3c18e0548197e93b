#include "parse/ib_counters.h"

#include <gtest/gtest.h>

#include "parse/fixtures.h"
#include "util/file.h"

namespace railyard {
namespace {

// Real outputs in tests/fixtures/switch/ib and tests/fixtures/perfquery (provenance in their SOURCES).
std::string Text(const std::string& name) { return ReadWholeFile(testing::FixturePath(name).string()); }

const IbPortCounters* At(const IbCountersReport& r, int port, const std::string& guid = "") {
  for (const IbPortCounters& p : r.ports) {
    if (p.port == port && (guid.empty() || p.node_guid == guid)) return &p;
  }
  return nullptr;
}

TEST(Ibqueryerrors, SaturatedCountersSwitchesAndCas) {
  IbCountersReport r = ParseIbqueryerrors(Text("switch/ib/ibqueryerrors-sx6036-saturated-counters-xmitdiscards-many-ports.txt"));
  EXPECT_EQ(r.ports_checked, 43);
  ASSERT_EQ(r.warnings.size(), 1u);  // the "# ibqueryerrors" prompt line
  const IbPortCounters* p5 = At(r, 5, "0x2c903006e29b0");
  ASSERT_TRUE(p5);
  EXPECT_TRUE(p5->is_switch);
  EXPECT_EQ(p5->node_desc, "MF0;ys23ib4:SX6036/U1");
  EXPECT_EQ(p5->counters.at("SymbolErrorCounter"), 65535u);
  EXPECT_EQ(p5->counters.at("PortXmitDiscards"), 649u);
  EXPECT_EQ(p5->counters.at("PortXmitWait"), 84704351u);
  EXPECT_EQ(IbCounterMax(IbErrorKey("SymbolErrorCounter")), 65535u);
  const IbPortCounters* all = At(r, -1, "0x2c903006e29b0");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->counters.at("LinkDownedCounter"), 48u);
  // A CA is named by its description; its port GUID is its own.
  const IbPortCounters* ca = At(r, 2, "0x7cfe900300179b32");
  ASSERT_TRUE(ca);
  EXPECT_FALSE(ca->is_switch);
  EXPECT_EQ(ca->node_desc, "dl380g7 mlx4_0");
}

TEST(Ibqueryerrors, SimulatedFabricAndACutOutput) {
  IbCountersReport r = ParseIbqueryerrors(Text("switch/ib/ibqueryerrors-ibsim-lab8-symbol-linkdowned-xmitdiscards.txt"));
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.ports_checked, 193);
  ASSERT_EQ(r.ports.size(), 4u);
  EXPECT_EQ(At(r, 3)->counters.at("SymbolErrorCounter"), 250u);
  EXPECT_EQ(At(r, 5)->counters.at("PortXmitDiscards"), 2000u);
  // No summary: the output was cut, which is said.
  IbCountersReport cut =
      ParseIbqueryerrors("Errors for 0x2 \"s\"\n   GUID 0x2 port 3: [SymbolErrorCounter == 2]\n   GUID 0x2 port 4: [Symbol");
  ASSERT_EQ(cut.ports.size(), 1u);
  ASSERT_EQ(cut.warnings.size(), 2u);
  EXPECT_EQ(cut.warnings[0].line, 3);
  EXPECT_NE(cut.warnings[1].message.find("cut short"), std::string::npos);
}

TEST(Perfquery, ExtendedBaseAndLegacyLayouts) {
  IbCountersReport x = ParsePerfquery(Text("switch/ib/perfquery-x-switchport-edr-xmitdiscards-linkdowned.txt"));
  EXPECT_TRUE(x.warnings.empty());
  ASSERT_EQ(x.ports.size(), 1u);
  EXPECT_EQ(x.ports[0].lid, 2052);
  EXPECT_EQ(x.ports[0].port, 1);
  EXPECT_EQ(x.ports[0].counters.at("PortXmitDiscards"), 20046u);
  EXPECT_EQ(x.ports[0].counters.at("PortXmitData"), 178791657177235u);
  EXPECT_EQ(x.ports[0].counters.count("CounterSelect"), 0u);  // a mask, not a count
  IbCountersReport two = ParsePerfquery(Text("switch/ib/perfquery-x-switch-2ports-healthy-xmitwait.txt"));
  ASSERT_EQ(two.ports.size(), 2u);
  EXPECT_EQ(two.ports[1].port, 2);
  IbCountersReport base = ParsePerfquery(Text("switch/ib/perfquery-ibsim-lab8-leaf1-port3-symbol-250.txt"));
  ASSERT_EQ(base.ports.size(), 1u);
  EXPECT_EQ(base.ports[0].counters.at("SymbolErrorCounter"), 250u);
  IbCountersReport watch = ParsePerfquery(Text("switch/ib/perfquery-plain-hca-fdr-2014-watch-capmask-0x1400.txt"));
  ASSERT_EQ(watch.ports.size(), 1u);
  EXPECT_EQ(watch.warnings.size(), 1u);  // watch's banner
  IbCountersReport details = ParsePerfquery(Text("switch/ib/perfquery-E-rcverrordetails-switchport.txt"));
  ASSERT_EQ(details.ports.size(), 1u);
  EXPECT_TRUE(details.warnings.empty());
  EXPECT_EQ(IbErrorKey("XmtDiscards"), "xmit_discards");  // releases before 1.5
  EXPECT_EQ(IbErrorKey("PortXmitData"), "");
  EXPECT_EQ(ParsePerfquery("ibwarn: mad_rpc failed\n").warnings.size(), 2u);
}

}  // namespace
}  // namespace railyard
