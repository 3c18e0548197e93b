#include "plan/checks.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "plan/planner.h"
#include "plan/test_specs.h"

namespace railyard {
namespace {

using testing::ParseOrDie;

std::vector<Finding> FindingsOf(const std::string& yaml) { return Plan(ParseOrDie(yaml)).findings; }

const Finding* Find(const std::vector<Finding>& findings, const std::string& rule) {
  for (const Finding& f : findings) {
    if (f.rule == rule) return &f;
  }
  return nullptr;
}

std::string Evidence(const Finding& f, const std::string& key) {
  for (const auto& [k, v] : f.evidence) {
    if (k == key) return v;
  }
  return "";
}

// One compute plane with the given fields changed.
std::string Plane(const std::string& fields, const std::string& nodes = "count: 64, pcie: gen5, per_rack: 4") {
  return "name: t\nnodes: {" + nodes + "}\nplanes:\n  - {name: compute, " + fields + "}\n";
}
const std::string kGood =
    "kind: infiniband, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: QM9700, rail_optimized: true";

TEST(Checks, HealthyReferenceDesignHasNoWarnings) {
  auto findings = FindingsOf(testing::SuperPodYaml(127));
  for (const Finding& f : findings) EXPECT_EQ(f.severity, Severity::kInfo) << f.rule << ": " << f.message;
}

TEST(Checks, NicInGen4SlotCannotRunAt400G) {
  auto findings = FindingsOf(Plane(kGood, "count: 64, pcie: gen4, per_rack: 4"));
  const Finding* f = Find(findings, "nic-pcie-below-line-rate");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(Evidence(*f, "slot"), "Gen4 x16");
  EXPECT_EQ(Evidence(*f, "pcie_usable_gbps"), "252.1");
  EXPECT_NE(f->fix.find("Gen5 x16"), std::string::npos) << f->fix;
  EXPECT_FALSE(Find(FindingsOf(Plane(kGood)), "nic-pcie-below-line-rate"));
  // Narrow slot: Gen5 x8 is also short of 400G.
  EXPECT_TRUE(Find(FindingsOf(Plane(kGood, "count: 64, pcie: gen5, pcie_width: 8, per_rack: 4")), "nic-pcie-below-line-rate"));
}

TEST(Checks, NicSlowerThanThePlane) {
  auto findings = FindingsOf(
      Plane("kind: infiniband, nic: MCX653105A-HDAT, ports_per_node: 8, speed: 400G, switch: QM9700, rail_optimized: true"));
  ASSERT_TRUE(Find(findings, "nic-speed-unsupported"));
  EXPECT_FALSE(Find(FindingsOf(Plane(kGood)), "nic-speed-unsupported"));
}

TEST(Checks, InfinibandAndEthernetMixed) {
  // An Ethernet-only ConnectX-6 Dx on an InfiniBand plane, and a Spectrum switch on it.
  auto nic = FindingsOf(Plane("kind: infiniband, nic: MCX623106AN-CDAT, ports_per_node: 2, speed: 100G, switch: QM9700"));
  const Finding* f = Find(nic, "plane-mixes-ib-and-ethernet");
  ASSERT_TRUE(f);
  EXPECT_NE(f->message.find("Ethernet only"), std::string::npos);
  auto sw = FindingsOf(Plane("kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: QM9700"));
  EXPECT_TRUE(Find(sw, "plane-mixes-ib-and-ethernet"));
  EXPECT_FALSE(Find(FindingsOf(Plane(kGood)), "plane-mixes-ib-and-ethernet"));
}

TEST(Checks, OversubscribedComputePlane) {
  auto findings = FindingsOf(Plane(kGood + ", oversubscription: \"2:1\""));
  const Finding* f = Find(findings, "oversubscribed-compute-plane");
  ASSERT_TRUE(f);
  EXPECT_EQ(Evidence(*f, "oversubscription"), "2:1");
  // A storage plane at 2:1 is a normal design.
  auto storage = FindingsOf(
      "name: t\nnodes: {count: 64}\nplanes:\n  - {name: storage, kind: roce, nic: MCX623106AN-CDAT,"
      " ports_per_node: 2, speed: 100G, switch: SN4600C, oversubscription: \"2:1\"}\n");
  EXPECT_FALSE(Find(storage, "oversubscribed-compute-plane"));
}

TEST(Checks, MixedTrafficOnOnePlane) {
  EXPECT_TRUE(Find(FindingsOf(Plane(kGood + ", carries: [compute, storage]")), "plane-carries-mixed-traffic"));
  EXPECT_FALSE(Find(FindingsOf(Plane(kGood + ", carries: [compute]")), "plane-carries-mixed-traffic"));
}

TEST(Checks, NodeWhosePortsAllLandOnOneSwitch) {
  auto one = FindingsOf(
      Plane("kind: infiniband, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: QM9700", "count: 8, per_rack: 2"));
  const Finding* f = Find(one, "node-single-switch");
  ASSERT_TRUE(f);
  EXPECT_EQ(Evidence(*f, "nodes"), "8");
  EXPECT_FALSE(Find(FindingsOf(Plane(kGood + ", tiers: 2", "count: 8, per_rack: 2")), "node-single-switch"));
}

TEST(Checks, CableBeyondReach) {
  // Rows 10 m apart and 2 m racks: the spine row is out of reach of every 1G copper run.
  std::string yaml =
      "name: t\nnodes: {count: 4000, per_rack: 1}\nplanes:\n"
      "  - {name: oob, kind: ethernet, speed: 1G, switch: SN2201, manage_switches: false}\n"
      "layout: {racks_per_row: 200, rack_width_m: 2.0, row_pitch_m: 10}\n";
  const Finding* f = nullptr;
  auto findings = FindingsOf(yaml);
  f = Find(findings, "cable-beyond-reach");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_FALSE(Find(FindingsOf(Plane(kGood)), "cable-beyond-reach"));
}

TEST(Checks, SwitchWithoutThePlaneSpeed) {
  auto findings = FindingsOf(Plane("kind: infiniband, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 800G, switch: QM9700"));
  EXPECT_TRUE(Find(findings, "switch-speed-unsupported"));
}

TEST(Checks, PlaneTooBigForThreeTiers) {
  auto findings = FindingsOf(Plane(kGood + ", tiers: 2", "count: 2000, per_rack: 4"));
  const Finding* f = Find(findings, "plane-cannot-be-built");
  ASSERT_TRUE(f);
  EXPECT_NE(f->message.find("two tiers"), std::string::npos) << f->message;
}

TEST(Checks, SingleSpine) {
  // 63:1 leaves one uplink per leaf, so one spine carries the plane.
  auto one = FindingsOf(
      "name: t\nnodes: {count: 100}\nplanes:\n  - {name: storage, kind: roce, nic: MCX623106AN-CDAT,"
      " ports_per_node: 1, speed: 100G, switch: SN4600C, oversubscription: \"63:1\"}\n");
  ASSERT_TRUE(Find(one, "single-spine"));
  // Two or more uplinks always get at least two spines.
  auto two = FindingsOf(
      "name: t\nnodes: {count: 100}\nplanes:\n"
      "  - {name: oob, kind: ethernet, speed: 1G, switch: SN2201, manage_switches: false}\n");
  EXPECT_FALSE(Find(two, "single-spine"));
}

TEST(Checks, PartialScalableUnitAndUnderusedTiers) {
  auto findings = FindingsOf(testing::SuperPodYaml(100));
  const Finding* f = Find(findings, "partial-scalable-unit");
  ASSERT_TRUE(f);
  EXPECT_EQ(Evidence(*f, "slots_in_last_group"), "5");
  EXPECT_FALSE(Find(FindingsOf(testing::SuperPodYaml(127)), "partial-scalable-unit"));
  // 40 SUs in 10 pods: cores sized by divisors of 32 use 40 of their 64 ports.
  auto big = FindingsOf(Plane(kGood + ", nodes_per_su: 32", "count: 1280, per_rack: 4"));
  const Finding* under = Find(big, "tier-underused");
  ASSERT_TRUE(under);
  EXPECT_EQ(Evidence(*under, "tier"), "core");
  EXPECT_EQ(Evidence(*under, "down_ports_used"), "40");
}

TEST(Checks, UnknownSwitchHeightIsSaid) {
  auto findings = FindingsOf(
      "name: t\nnodes: {count: 64}\nplanes:\n  - {name: compute, kind: roce, nic: MCX75310AAS-NEAT,"
      " ports_per_node: 8, speed: 400G, switch: DS5000, rail_optimized: true}\n");
  EXPECT_TRUE(Find(findings, "switch-facts-missing"));
}

TEST(Checks, EveryRuleIsListed) {
  std::set<std::string> ids;
  for (const DesignRule& r : DesignRules()) EXPECT_TRUE(ids.insert(r.id).second) << r.id;
  EXPECT_GE(ids.size(), 16u);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(Checks, DriverStackPlannedForTheServersMustSupportTheCards) {
  // A ConnectX-8 (XDR) plane on servers planned with MLNX_OFED: never supported (data/catalog/driver_stacks.csv).
  std::string cx8 =
      "kind: infiniband, nic: 900-9X81E-00EX-ST0, ports_per_node: 8, speed: 800G, switch: Q3400-RA, rail_optimized: true";
  auto findings = FindingsOf(Plane(cx8, "count: 64, pcie: gen6, per_rack: 4, driver_stack: mlnx_ofed 24.10"));
  const Finding* f = Find(findings, "driver-stack-unsupported");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->message.find("ConnectX-8"), std::string::npos) << f->message;
  EXPECT_EQ(Find(FindingsOf(Plane(cx8, "count: 64, pcie: gen6, per_rack: 4, driver_stack: doca_ofed 25.04")),
                 "driver-stack-unsupported"),
            nullptr);
  EXPECT_EQ(Find(FindingsOf(Plane(kGood, "count: 64, pcie: gen5, per_rack: 4, driver_stack: mlnx_ofed 24.10")),
                 "driver-stack-unsupported"),
            nullptr);  // ConnectX-7 is the last generation MLNX_OFED supports
  try {
    ParseSpec(Plane(kGood, "count: 64, driver_stack: ofed 5.8"), "s.yaml");
    ADD_FAILURE() << "no error";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.key(), "nodes.driver_stack");
    EXPECT_EQ(e.mark().line, 2);
  }
}

TEST(Checks, CompatibilityMatrixBesideTheSpec) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("railyard-compat-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "compat.csv") << "server,nic,bios_min,os,stack,stack_min\n"
                                       "PowerEdge XE9680,ConnectX-7,1.3.6,ubuntu 22.04,doca_ofed,24.07\n"
                                       "PowerEdge R750,MCX623106AN-CDAT,,,,\n";
  auto plan = [&](const std::string& nodes) {
    std::string yaml = Plane(kGood, nodes) + "compatibility: compat.csv\n";
    return Plan(ParseSpec(yaml, (dir / "spec.yaml").string())).findings;
  };
  // Listed, and the planned BIOS/OS/stack fit: nothing to say.
  EXPECT_EQ(Find(plan("count: 64, model: PowerEdge XE9680, bios: 1.4.0, os: ubuntu 22.04, driver_stack: doca_ofed 24.10"),
                 "server-nic-unsupported"),
            nullptr);
  // A BIOS below the floor and an older stack: each difference named with the row.
  auto low = plan("count: 64, model: PowerEdge XE9680, bios: 1.2.0, os: ubuntu 22.04, driver_stack: doca_ofed 24.04");
  const Finding* f = Find(low, "server-nic-unsupported");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->message.find("BIOS 1.2.0 is below 1.3.6; doca_ofed 24.04 is below 24.07"), std::string::npos) << f->message;
  EXPECT_NE(Evidence(*f, "row").find("compat.csv:2"), std::string::npos);
  // The R750 lists only a ConnectX-6 Dx.
  auto r750 = plan("count: 64, model: PowerEdge R750");
  f = Find(r750, "server-nic-unsupported");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("does not list the MCX75310AAS-NEAT for the PowerEdge R750 (it lists MCX623106AN-CDAT)"),
            std::string::npos)
      << f->message;
  // No model: said once, as info.
  auto no_model = plan("count: 64");
  f = Find(no_model, "server-nic-unsupported");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
  // A bad matrix row is a spec error at the CSV's file and line.
  std::ofstream(dir / "compat.csv") << "server,nic,stack\nPowerEdge R750,ConnectX-7,ofed\n";
  try {
    plan("count: 64, model: PowerEdge R750");
    ADD_FAILURE() << "no error";
  } catch (const SpecError& e) {
    EXPECT_NE(e.file().find("compat.csv"), std::string::npos);
    EXPECT_EQ(e.mark().line, 2);
    EXPECT_NE(e.message().find("'ofed' is not inbox"), std::string::npos) << e.message();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace railyard
