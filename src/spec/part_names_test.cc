#include "spec/part_names.h"

#include <gtest/gtest.h>

#include "plan/planner.h"
#include "spec/spec.h"

namespace railyard {
namespace {

const Catalog& C() { return Catalog::Builtin(); }
std::string Opn(const PartResolution& r) { return r.index ? C().nics()[*r.index].opn : "(none: " + r.error + ")"; }
std::string Model(const PartResolution& r) { return r.index ? C().switches()[*r.index].model : "(none: " + r.error + ")"; }

TEST(PartNames, FamiliesNormalise) {
  EXPECT_EQ(NormalizedFamily("ConnectX-6 Dx"), "connectx6dx");
  EXPECT_EQ(NormalizedFamily("CX6DX"), "connectx6dx");
  EXPECT_EQ(NormalizedFamily("cx-7"), "connectx7");
  EXPECT_EQ(NormalizedFamily("BF3"), "bluefield3");
  EXPECT_EQ(NormalizedFamily("BlueField-3"), "bluefield3");
}

TEST(PartNames, ANicFamilyResolvesToThePartThatFitsThePlane) {
  // Exact OPNs stay as written, without a note.
  PartResolution exact = ResolveNic(C(), "mcx75310aas-neat", FabricKind::kInfiniband, 400, 8);
  EXPECT_EQ(Opn(exact), "MCX75310AAS-NEAT");
  EXPECT_EQ(exact.info, "");
  // Families: the preferred part of the plane's speed and link type, said in the note.
  for (const char* written : {"ConnectX-7", "CX7", "cx-7", "ConnectX7"}) {
    PartResolution r = ResolveNic(C(), written, FabricKind::kInfiniband, 400, 8);
    EXPECT_EQ(Opn(r), "MCX75310AAS-NEAT") << written;
    EXPECT_NE(r.info.find("MCX75310AAS-NEAT"), std::string::npos);
  }
  EXPECT_EQ(Opn(ResolveNic(C(), "ConnectX-7", FabricKind::kRoce, 200, 2)), "MCX755106AS-HEAT");
  EXPECT_EQ(Opn(ResolveNic(C(), "ConnectX-7", FabricKind::kRoce, 100, 2)), "MCX713106AS-CEAT");
  EXPECT_EQ(Opn(ResolveNic(C(), "CX6 Dx", FabricKind::kRoce, 100, 2)), "MCX623106AN-CDAT");
  // A VPI and an Ethernet-only preferred part at 100G Ethernet: the plane's own protocol wins.
  EXPECT_EQ(Opn(ResolveNic(C(), "ConnectX-5", FabricKind::kEthernet, 100, 2)), "MCX516A-CCAT");
  EXPECT_EQ(Opn(ResolveNic(C(), "ConnectX-5", FabricKind::kInfiniband, 100, 1)), "MCX555A-ECAT");
  EXPECT_EQ(Opn(ResolveNic(C(), "BlueField-3", FabricKind::kRoce, 400, 2)), "B3240");
}

TEST(PartNames, ANicThatCannotBeChosenSaysWhy) {
  PartResolution none = ResolveNic(C(), "ConnectX-4 Lx", FabricKind::kInfiniband, 100, 2);
  EXPECT_FALSE(none.index);
  EXPECT_NE(none.error.find("no ConnectX-4 Lx in the catalog runs InfiniBand at 100G"), std::string::npos) << none.error;
  PartResolution typo = ResolveNic(C(), "ConnectX-9", FabricKind::kInfiniband, 400, 8);
  EXPECT_NE(typo.error.find("did you mean 'ConnectX-7'"), std::string::npos) << typo.error;
}

TEST(PartNames, SwitchShortModelsAndSuggestionsByMeaning) {
  PartResolution q3400 = ResolveSwitch(C(), "Q3400", FabricKind::kInfiniband, 800);
  EXPECT_EQ(Model(q3400), "Q3400-RA");
  EXPECT_NE(q3400.info.find("Q3400-RA"), std::string::npos);
  EXPECT_EQ(Model(ResolveSwitch(C(), "qm9700", FabricKind::kInfiniband, 400)), "QM9700");
  EXPECT_EQ(Model(ResolveSwitch(C(), "MQM9700-NS2F", FabricKind::kInfiniband, 400)), "QM9700");
  // SN2700 is not in the catalog: on an InfiniBand plane only InfiniBand switches are offered,
  // never the Ethernet SN4700 its spelling is closest to.
  PartResolution ib = ResolveSwitch(C(), "SN2700", FabricKind::kInfiniband, 400);
  EXPECT_FALSE(ib.index);
  EXPECT_EQ(ib.error.find("SN4700"), std::string::npos) << ib.error;
  EXPECT_NE(ib.error.find("QM9700"), std::string::npos) << ib.error;
  PartResolution eth = ResolveSwitch(C(), "SN2700", FabricKind::kRoce, 100);
  EXPECT_NE(eth.error.find("did you mean 'SN2100'"), std::string::npos) << eth.error;
}

TEST(SpecNames, EngineersNamesPlanWithANoteForEachChoice) {
  Spec spec = ParseSpec(R"(name: t
nodes: {count: 8, gpus: 8, pcie: gen5, per_rack: 2}
planes:
  - {name: compute, kind: infiniband, nic: ConnectX-7, ports_per_node: 8, speed: NDR, switch: QM9700}
  - {name: storage, kind: roce, nic: CX7, ports_per_node: 2, speed: 200GbE, switch: SN5600}
  - {name: bmc, kind: ethernet, speed: 1G, switch: SN2201}
)",
                        "t.yaml");
  EXPECT_EQ(spec.planes[0].nic, "MCX75310AAS-NEAT");
  EXPECT_EQ(spec.planes[0].speed, 400u);
  EXPECT_EQ(spec.planes[1].nic, "MCX755106AS-HEAT");
  EXPECT_EQ(spec.planes[2].role, PlaneRole::kOob);  // "bmc" is out-of-band
  ASSERT_EQ(spec.notes.size(), 2u);
  EXPECT_EQ(spec.notes[0].key, "planes.compute.nic");
  EXPECT_EQ(spec.notes[0].mark.line, 4);
  PlanResult plan = Plan(spec);
  int resolved = 0;
  for (const Finding& f : plan.findings) resolved += f.rule == "spec-name-resolved" && f.severity == Severity::kInfo;
  EXPECT_EQ(resolved, 2);
}

TEST(SpecNames, SpeedNames) {
  for (auto [text, gbps] : std::vector<std::pair<const char*, Gbps>>{{"HDR100", 100},
                                                                     {"EDR", 100},
                                                                     {"HDR", 200},
                                                                     {"NDR200", 200},
                                                                     {"NDR", 400},
                                                                     {"XDR", 800},
                                                                     {"400GbE", 400},
                                                                     {"400G", 400}}) {
    EXPECT_EQ(ParseSpeed(text).value_or(0), gbps) << text;
  }
}

TEST(SpecErrors, AllAtOnceInLineOrder) {
  try {
    ParseSpec(R"(name: t
nodes: {count: 8, gpus: 8, pcie: gen7, per_rack: 2}
planes:
  - name: compute
    kind: infiniband
    nic: ConnectX-9
    ports_per_node: 8
    speed: NDR
    switch: SN2700
    tiers: 9
)",
              "t.yaml");
    FAIL() << "expected errors";
  } catch (const SpecError& e) {
    ASSERT_EQ(e.all().size(), 4u) << e.what();
    EXPECT_EQ(e.all()[0].mark().line, 2);
    EXPECT_EQ(e.all()[1].key(), "planes.compute.nic");
    EXPECT_EQ(e.all()[2].key(), "planes.compute.switch");
    EXPECT_EQ(e.all()[3].key(), "planes.compute.tiers");
    std::string text = e.what();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
    EXPECT_NE(text.find("\nt.yaml:10:12: planes.compute.tiers: 9 is out of range"), std::string::npos) << text;
  }
}

TEST(SpecErrors, CapAtTwenty) {
  std::string yaml = "name: t\nnodes: {count: 8}\nplanes:\n";
  for (int i = 0; i < 25; ++i)
    yaml += fmt::format("  - {{name: p{}, kind: infiniband, nic: X{}, speed: 400G, switch: QM9700}}\n", i, i);
  try {
    ParseSpec(yaml, "t.yaml");
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.all().size(), 25u);
    std::string text = e.what();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 20);
    EXPECT_NE(text.find("... and 5 more"), std::string::npos);
  }
}

TEST(SpecErrors, RackOverfillAndNameCollisions) {
  try {
    ParseSpec(
        "name: t\nnodes: {count: 8, per_rack: 8, height_u: 8}\nplanes:\n  - {name: compute, kind: infiniband, nic: ConnectX-7, "
        "speed: 400G, switch: QM9700}\n",
        "t.yaml");
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.key(), "nodes.per_rack");
    EXPECT_NE(std::string(e.what()).find("need 64U; a rack has 42U"), std::string::npos) << e.what();
  }
  Spec collide = ParseSpec(
      "name: t\nnodes: {count: 4, name_prefix: compute-leaf-}\nplanes:\n  - {name: compute, kind: infiniband, nic: ConnectX-7, "
      "speed: 400G, switch: QM9700}\n",
      "t.yaml");
  try {
    Plan(collide);
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.key(), "nodes.name_prefix");
    EXPECT_NE(std::string(e.what()).find("'compute-leaf-001' is both"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace railyard
