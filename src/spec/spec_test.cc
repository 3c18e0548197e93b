#include "spec/spec.h"

#include <fstream>

#include <gtest/gtest.h>

namespace railyard {
namespace {

const char* kValid = R"(name: lab
nodes:
  count: 8
  gpus: 8
  pcie: gen5
  per_rack: 2
planes:
  - name: compute
    kind: infiniband
    nic: MCX75310AAS-NEAT
    ports_per_node: 8
    speed: 400G
    switch: QM9700
    rail_optimized: true
  - name: oob
    kind: ethernet
    speed: 1G
    switch: SN2201
addressing:
  oob: {prefix: 192.168.0.0/24, vlan: 10}
)";

// Parses `yaml` and returns the error, or fails the test if there is none.
SpecError ErrorOf(const std::string& yaml) {
  try {
    ParseSpec(yaml, "cluster.yaml");
  } catch (const SpecError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a SpecError for:\n" << yaml;
  return SpecError("", {}, "", "");
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

TEST(Spec, ParsesTheContractShape) {
  Spec s = ParseSpec(kValid, "cluster.yaml");
  EXPECT_EQ(s.name, "lab");
  EXPECT_EQ(s.nodes.count, 8u);
  EXPECT_EQ(s.nodes.pcie_gen, 5);
  ASSERT_EQ(s.planes.size(), 2u);
  const PlaneSpec& c = s.planes[0];
  EXPECT_EQ(c.kind, FabricKind::kInfiniband);
  EXPECT_EQ(c.role, PlaneRole::kCompute);
  EXPECT_EQ(c.speed, 400u);
  EXPECT_TRUE(c.rail_optimized);
  ASSERT_EQ(c.oversubscription.size(), 1u);
  EXPECT_DOUBLE_EQ(c.oversubscription[0].value(), 1.0);
  EXPECT_EQ(c.mark.line, 8);
  EXPECT_EQ(s.planes[1].role, PlaneRole::kOob);
  EXPECT_TRUE(s.planes[1].manage_switches);
  EXPECT_EQ(s.addressing.at("oob").plane.vlan, 10);
  EXPECT_EQ(s.layout.racks_per_row, 10u);  // default
}

TEST(Spec, BundledExamplesParse) {
  for (const char* file : {"superpod-h100-4su.yaml", "ib-10k-gpu.yaml", "roce-16k-gpu.yaml", "lab-8-node.yaml",
                           "superpod-b300-xdr-4su.yaml", "arista-roce-pod.yaml"}) {
    SCOPED_TRACE(file);
    EXPECT_NO_THROW(LoadSpec(std::string(RAILYARD_SOURCE_DIR) + "/examples/" + file));
  }
}

TEST(Spec, UnknownKeySuggestsTheIntendedOne) {
  SpecError e = ErrorOf(Replace(kValid, "    rail_optimized: true", "    rail_optimised: true"));
  EXPECT_EQ(e.mark().line, 14);
  EXPECT_EQ(e.mark().column, 5);
  EXPECT_EQ(e.key(), "planes.compute.rail_optimised");
  EXPECT_NE(e.message().find("did you mean 'rail_optimized'"), std::string::npos) << e.what();
  EXPECT_EQ(std::string(e.what()).substr(0, 19), "cluster.yaml:14:5: ");
}

TEST(Spec, UnknownOpnSuggestsTheClosest) {
  SpecError e = ErrorOf(Replace(kValid, "MCX75310AAS-NEAT", "MCX75310AAS-NEAX"));
  EXPECT_EQ(e.mark().line, 10);
  EXPECT_EQ(e.key(), "planes.compute.nic");
  EXPECT_NE(e.message().find("did you mean 'MCX75310AAS-NEAT'"), std::string::npos) << e.what();
  SpecError sw = ErrorOf(Replace(kValid, "switch: QM9700", "switch: QM9070"));
  EXPECT_NE(sw.message().find("did you mean 'QM9700'"), std::string::npos) << sw.what();
}

TEST(Spec, BadValuesNameTheKey) {
  struct Case {
    const char* from;
    const char* to;
    const char* key;
    const char* says;
  };
  const Case cases[] = {
      {"speed: 400G", "speed: fast", "planes.compute.speed", "expected a speed"},
      {"count: 8", "count: -3", "nodes.count", "whole number"},
      {"count: 8", "count: 0", "nodes.count", "out of range"},
      {"pcie: gen5", "pcie: gen9", "nodes.pcie", "gen3, gen4, gen5, gen6"},
      {"kind: infiniband", "kind: fibrechannel", "planes.compute.kind", "infiniband, roce or ethernet"},
      {"    rail_optimized: true", "    rail_optimized: maybe", "planes.compute.rail_optimized", "true or false"},
      {"    rail_optimized: true", "    oversubscription: \"1:2\"", "planes.compute.oversubscription", "down >= up"},
      {"192.168.0.0/24", "192.168.0.1/24", "addressing.oob.prefix", "host bits set"},
      {"  oob: {prefix", "  obb: {prefix", "addressing.obb", "did you mean 'oob'"},
      {"name: lab", "name: \"a\\\"b\"", "name", "without quotes"},
      {"  - name: compute", "  - name: \"Compute Plane!\"", "planes[0].name", "plane names"},
      {"    rail_optimized: true", "    mtu: 9000", "planes.compute.mtu", "out of range [1280, 4092]"},  // IPoIB datagram
      {"    rail_optimized: true", "    qos: {priority: 3}", "planes.compute.qos", "for kind: roce planes"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.to);
    SpecError e = ErrorOf(Replace(kValid, c.from, c.to));
    EXPECT_EQ(e.key(), c.key) << e.what();
    EXPECT_NE(e.message().find(c.says), std::string::npos) << e.what();
    EXPECT_GT(e.mark().line, 0) << e.what();
  }
}

TEST(Spec, RoceQosAndMtuPerPlane) {
  const std::string roce = Replace(Replace(kValid, "kind: infiniband", "kind: roce"), "switch: QM9700", "switch: SN5600");
  Spec spec = ParseSpec(
      Replace(roce, "    rail_optimized: true", "    rail_optimized: true\n    mtu: 4200\n    qos: {priority: 4, dscp: 34}"),
      "cluster.yaml");
  EXPECT_EQ(spec.planes[0].mtu, 4200u);
  EXPECT_EQ(spec.planes[0].qos.priority, 4);
  EXPECT_EQ(spec.planes[0].qos.tos(), 34 * 4 + 2);  // DSCP << 2 | ECT(0)
  EXPECT_EQ(spec.planes[0].qos.cnp_dscp, 48);       // the default
  SpecError same = ErrorOf(Replace(roce, "    rail_optimized: true", "    qos: {priority: 6}"));
  EXPECT_EQ(same.key(), "planes.compute.qos.cnp_priority") << same.what();
  SpecError range = ErrorOf(Replace(roce, "    rail_optimized: true", "    qos: {dscp: 64}"));
  EXPECT_EQ(range.key(), "planes.compute.qos.dscp") << range.what();
  SpecError typo = ErrorOf(Replace(roce, "    rail_optimized: true", "    qos: {prio: 3}"));
  EXPECT_NE(std::string(typo.what()).find("prio"), std::string::npos) << typo.what();
}

TEST(Spec, BondsNeedALeafPairAndEthernet) {
  const std::string pair = Replace(Replace(Replace(kValid, "kind: infiniband", "kind: roce"), "switch: QM9700", "switch: SN5600"),
                                   "    rail_optimized: true", "    redundancy: leaf-pair");
  Spec spec =
      ParseSpec(Replace(pair, "    redundancy: leaf-pair", "    redundancy: leaf-pair\n    bond: 802.3ad"), "cluster.yaml");
  EXPECT_TRUE(spec.planes[0].bond);
  SpecError alone = ErrorOf(Replace(pair, "    redundancy: leaf-pair", "    bond: 802.3ad"));
  EXPECT_EQ(alone.key(), "planes.compute.bond") << alone.what();
  EXPECT_NE(alone.message().find("redundancy: leaf-pair"), std::string::npos) << alone.what();
  SpecError mode = ErrorOf(Replace(pair, "    redundancy: leaf-pair", "    redundancy: leaf-pair\n    bond: active-backup"));
  EXPECT_NE(mode.message().find("802.3ad"), std::string::npos) << mode.what();
  SpecError ib = ErrorOf(Replace(kValid, "    rail_optimized: true", "    redundancy: leaf-pair\n    bond: 802.3ad"));
  EXPECT_NE(std::string(ib.what()).find("IPoIB"), std::string::npos) << ib.what();
}

TEST(Spec, MissingRequiredKeys) {
  EXPECT_EQ(ErrorOf("name: x\nplanes: []\n").key(), "nodes");
  EXPECT_EQ(ErrorOf("name: x\nnodes: {count: 2}\n").key(), "planes");
  EXPECT_EQ(ErrorOf(Replace(kValid, "    nic: MCX75310AAS-NEAT\n", "")).key(), "planes.compute.nic");
  EXPECT_EQ(ErrorOf(Replace(kValid, "    switch: QM9700\n", "")).key(), "planes.compute.switch");
}

TEST(Spec, StructuralErrors) {
  EXPECT_EQ(ErrorOf("").key(), "(top level)");
  EXPECT_EQ(ErrorOf("- just\n- a list\n").key(), "(top level)");
  SpecError syntax = ErrorOf("name: x\nnodes: {count: 2\n");
  EXPECT_EQ(syntax.key(), "(syntax)");
  EXPECT_GT(syntax.mark().line, 0);
  const std::string twice =
      "  - {name: compute, kind: infiniband, nic: MCX75310AAS-NEAT, speed: 400G, switch: QM9700}\n  - name: oob";
  SpecError dup = ErrorOf(Replace(kValid, "  - name: oob", twice));
  EXPECT_EQ(dup.message(), "plane 'compute' is defined twice");
  EXPECT_EQ(dup.mark().line, 15);
  SpecError overlap =
      ErrorOf(Replace(kValid, "addressing:\n", "addressing:\n  compute: {prefix: 192.168.0.0/16, mode: ipoib}\n"));
  EXPECT_NE(overlap.message().find("overlaps"), std::string::npos) << overlap.what();
  EXPECT_NE(ErrorOf(Replace(kValid, "    speed: 1G\n", "    speed: 1G\n    nic: MCX75310AAS-NEAT\n")).message().find("BMC"),
            std::string::npos);
}

TEST(Spec, HostileInputIsRejectedNotCrashed) {
  // Deep nesting, huge numbers, binary junk and anchors never crash the parser.
  std::string deep(2000, '[');
  EXPECT_THROW(ParseSpec(deep, "x.yaml"), SpecError);
  EXPECT_THROW(ParseSpec("name: x\nnodes: {count: 99999999999999999999999}\nplanes: []\n", "x.yaml"), SpecError);
  EXPECT_THROW(ParseSpec(std::string("\x00\xff\xfe garbage", 12), "x.yaml"), SpecError);
  EXPECT_THROW(ParseSpec("name: &a [*a]\n", "x.yaml"), SpecError);
}

TEST(Spec, LoadSpecReportsUnreadableFile) {
  try {
    LoadSpec("/nonexistent/cluster.yaml");
    FAIL();
  } catch (const SpecError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/cluster.yaml");
    EXPECT_EQ(e.message(), "cannot read the file");
  }
}

}  // namespace
}  // namespace railyard
