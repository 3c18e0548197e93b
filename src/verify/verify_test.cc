#include "verify/verify.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/write_all.h"
#include "parse/fixtures.h"
#include "parse/lldpctl.h"
#include "parse/switch_lldp.h"
#include "plan/test_specs.h"
#include "util/input_error.h"
#include "verify/report.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// One SuperPOD scalable unit, planned and read back from plan.json as `verify` does.
class VerifyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("railyard-verify-" + std::to_string(::getpid())));
    PlanResult result = Plan(testing::ParseOrDie(testing::SuperPodYaml(31)));
    WritePlanOutputs(result, Catalog::Builtin(), dir_->string());
    plan_ = new PlannedFabric(LoadPlannedFabric((*dir_ / "plan.json").string()));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete plan_;
    delete dir_;
  }

  // Every planned link as its a end sees it (skipping the labels in `except`).
  std::vector<Adjacency> AsPlanned(const std::set<std::string, std::less<>>& except = {}) const {
    std::vector<Adjacency> out;
    for (const PlannedLink& l : plan_->links) {
      if (except.count(l.label)) continue;
      out.push_back(
          Seen(plan_->devices[l.a_device].name, std::string(l.a_port), plan_->devices[l.z_device].name, std::string(l.z_port)));
    }
    return out;
  }
  static Adjacency Seen(std::string a, std::string ap, std::string b, std::string bp) {
    Adjacency x;
    x.local_device = std::move(a);
    x.local_port = std::move(ap);
    x.remote_device = std::move(b);
    x.remote_port = std::move(bp);
    x.source = std::make_shared<const std::string>("test");
    return x;
  }
  VerifyResult Run(const std::vector<Adjacency>& seen, const std::vector<LabelScan>& labels = {}) const {
    NameResolver names(*plan_);
    return Verify(*plan_, names, seen, {}, labels);
  }
  static std::vector<const VerifyFinding*> Of(const VerifyResult& r, VerifyKind kind) {
    std::vector<const VerifyFinding*> out;
    for (const VerifyFinding& f : r.findings) {
      if (f.kind == kind) out.push_back(&f);
    }
    return out;
  }

  static fs::path* dir_;
  static PlannedFabric* plan_;
};
fs::path* VerifyTest::dir_ = nullptr;
PlannedFabric* VerifyTest::plan_ = nullptr;

TEST_F(VerifyTest, PlanReadBack) {
  EXPECT_EQ(plan_->links.size(), 508u);
  EXPECT_EQ(plan_->links[0].label, "COMP-000001");
  EXPECT_EQ(plan_->devices[plan_->links[0].a_device].name, "dgx001");
  EXPECT_EQ(plan_->links[0].a_port, "mlx5_0");
  EXPECT_EQ(plan_->links[0].rail, 1);
  EXPECT_EQ(plan_->devices[plan_->links[0].z_device].rail, 1);
}

TEST_F(VerifyTest, AsPlannedAllOk) {
  VerifyResult r = Run(AsPlanned());
  EXPECT_EQ(r.counts.ok, 508u);
  EXPECT_TRUE(r.findings.empty());
  // JSON contract keys.
  auto j = VerifyJson(r);
  EXPECT_EQ(j["schema"], "railyard.verify/1");
  EXPECT_EQ(j["links"]["planned"], 508);
  EXPECT_EQ(j["links"]["ok"], 508);
}

TEST_F(VerifyTest, OneSidedViewsAreEnough) {
  // Only the switches report (hosts without LLDP): every cable still matches.
  std::vector<Adjacency> seen;
  for (const Adjacency& a : AsPlanned()) seen.push_back(Seen(a.remote_device, a.remote_port, a.local_device, a.local_port));
  EXPECT_EQ(Run(seen).counts.ok, 508u);
}

TEST_F(VerifyTest, NothingReportedIsUnverifiedNotMissing) {
  VerifyResult r = Run({});
  EXPECT_EQ(r.counts.unverified, 508u);
  EXPECT_TRUE(r.findings.empty());
}

TEST_F(VerifyTest, MissingWhenAReporterDoesNotSeeIt) {
  VerifyResult r = Run(AsPlanned({"COMP-000001"}));
  auto missing = Of(r, VerifyKind::kMissing);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]->labels[0], "COMP-000001");
  EXPECT_EQ(missing[0]->planned_a, "dgx001:mlx5_0");
  EXPECT_EQ(missing[0]->severity, Severity::kError);
}

TEST_F(VerifyTest, MovedToAnotherRailIsMiswiredAndSaysCrossRail) {
  auto seen = AsPlanned({"COMP-000001"});
  seen.push_back(Seen("dgx001", "mlx5_0", "compute-leaf-su01-r6", "32"));  // port 32 is free on rail 6
  VerifyResult r = Run(seen);
  auto miswired = Of(r, VerifyKind::kMiswired);
  ASSERT_EQ(miswired.size(), 1u);
  EXPECT_EQ(miswired[0]->observed_b, "compute-leaf-su01-r6:32");
  EXPECT_NE(miswired[0]->message.find("cross-rail: a rail-1 port on a rail-6 leaf"), std::string::npos);
  EXPECT_EQ(miswired[0]->fix, "move the end in compute-leaf-su01-r6:32 to compute-leaf-su01-r1:1");
  EXPECT_EQ(r.counts.miswired, 1u);
}

TEST_F(VerifyTest, SwapIsOneFinding) {
  auto seen = AsPlanned({"COMP-000002", "COMP-000010"});  // dgx001 and dgx002 on rail 2
  seen.push_back(Seen("dgx001", "mlx5_1", "compute-leaf-su01-r2", "2"));
  seen.push_back(Seen("dgx002", "mlx5_1", "compute-leaf-su01-r2", "1"));
  VerifyResult r = Run(seen);
  ASSERT_EQ(r.findings.size(), 1u);
  const VerifyFinding& f = r.findings[0];
  EXPECT_EQ(f.kind, VerifyKind::kSwapped);
  EXPECT_EQ(f.labels, (std::vector<std::string>{"COMP-000002", "COMP-000010"}));
  EXPECT_EQ(f.fix, "exchange the plugs in compute-leaf-su01-r2:1 and compute-leaf-su01-r2:2");

  // The same finding in the shared forms: a Finding with the kind as its rule and the ends as evidence.
  Finding shared = ToFinding(f);
  EXPECT_EQ(shared.rule, "swapped");
  EXPECT_EQ(shared.severity, Severity::kError);
  EXPECT_EQ(shared.object, "cables COMP-000002 and COMP-000010");
  EXPECT_EQ(shared.fix, f.fix);
  std::string csv = VerifyRender(r, FindingsFormat::kCsv);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "rule,severity,host,object,message,fix,plane,labels,planned_a,planned_b,observed_a,observed_b");
  EXPECT_NE(csv.find(",compute,COMP-000002;COMP-000010,"), std::string::npos) << csv;
  std::string junit = VerifyRender(r, FindingsFormat::kJunit);
  EXPECT_NE(junit.find("<testcase classname=\"(verify)\" name=\"swapped\">"), std::string::npos) << junit;
  EXPECT_NE(junit.find("<testcase classname=\"(verify)\" name=\"missing\"/>"), std::string::npos);
  std::string prom = VerifyRender(r, FindingsFormat::kPrometheus);
  EXPECT_NE(prom.find("railyard_verify_rule_findings{rule=\"swapped\",severity=\"error\"} 1\n"), std::string::npos) << prom;
  EXPECT_NE(prom.find("railyard_verify_rule_findings{rule=\"missing\",severity=\"error\"} 0\n"), std::string::npos);
  EXPECT_NE(prom.find(fmt::format("railyard_verify_links{{plane=\"compute\",state=\"planned\"}} {}\n",
                                  r.per_plane.at("compute").planned)),
            std::string::npos);
}

TEST_F(VerifyTest, NarrowLinkIsDegraded) {
  auto seen = AsPlanned();
  seen[0].width = 1;
  seen[0].speed_gbps = 100;  // 1xNDR
  VerifyResult r = Run(seen);
  auto degraded = Of(r, VerifyKind::kDegraded);
  ASSERT_EQ(degraded.size(), 1u);
  EXPECT_EQ(degraded[0]->labels[0], "COMP-000001");
  EXPECT_EQ(r.counts.degraded, 1u);
  EXPECT_EQ(r.counts.ok, 508u);  // up, but degraded
  // Speed alone is not compared when the caller says so (simulators).
  seen[0].width = 4;
  NameResolver names(*plan_);
  VerifyOptions options;
  options.check_speed = false;
  EXPECT_TRUE(Verify(*plan_, names, seen, {}, {}, options).findings.empty());
  EXPECT_EQ(Run(seen).findings.size(), 1u);
}

TEST_F(VerifyTest, CouldBeFasterIsDegraded) {
  // iblinkinfo: up at 4x, but both ends could run faster than the link trained.
  auto seen = AsPlanned();
  seen[5].width = 4;
  seen[5].speed_gbps = 400;
  seen[5].could_be_gbps = 800;
  VerifyResult r = Run(seen);
  auto degraded = Of(r, VerifyKind::kDegraded);
  ASSERT_EQ(degraded.size(), 1u);
  EXPECT_NE(degraded[0]->message.find("both ends could run 800 Gb/s"), std::string::npos) << degraded[0]->message;
}

TEST_F(VerifyTest, ExtraCableIsUnexpected) {
  auto seen = AsPlanned();
  seen.push_back(Seen("compute-leaf-su01-r6", "32", "compute-leaf-su01-r7", "32"));
  VerifyResult r = Run(seen);
  auto unexpected = Of(r, VerifyKind::kUnexpected);
  ASSERT_EQ(unexpected.size(), 1u);
  EXPECT_EQ(unexpected[0]->observed_a, "compute-leaf-su01-r6:32");
  EXPECT_EQ(r.counts.unexpected, 1u);
}

TEST_F(VerifyTest, NamesFromTheField) {
  // FQDNs, case, IB descriptions and a --names map all resolve; the rest is unknown.
  std::vector<Adjacency> seen = {
      Seen("DGX001.cluster.local", "mlx5_0", "compute-leaf-su01-r1", "1"),
      Seen("MF0;compute-leaf-su01-r1:MQM9700/U1", "2", "dgx002 mlx5_0", "1"),
      Seen("leaf-03-rack-7", "3", "dgx003 mlx5_2", "1"),
      Seen("mystery-switch", "Ethernet1", "dgx004", "mlx5_0"),
  };
  NameResolver names(*plan_);
  names.LoadMapText("# observed,plan\nleaf-03-rack-7,compute-leaf-su01-r3\n", "names.csv");
  VerifyResult r = Verify(*plan_, names, seen, {}, {});
  EXPECT_EQ(r.counts.ok, 3u);
  auto unknown = Of(r, VerifyKind::kUnknownDevice);
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0]->observed_a, "mystery-switch");
  // dgx004 reported nothing and the switch that did is unknown: dgx004's links stay unverified.
  EXPECT_TRUE(Of(r, VerifyKind::kMissing).size() > 0);  // r1..r3 leaves reported and miss the rest
  // A bad names file is an input error at its line, whatever the row's fault.
  for (const char* bad : {"# header\na,b,c\n", "# header\nx,not-in-plan\n", "# header\ndgx001,dgx001\ndgx001,dgx002\n"}) {
    try {
      names.LoadMapText(bad, "bad.csv");
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), "bad.csv");
      EXPECT_GE(e.line(), 2) << e.what();
    }
  }
}

TEST(VerifyInputs, ALabelAuditWithoutItsColumnsIsAnInputErrorAtLineOne) {
  std::filesystem::path file = std::filesystem::temp_directory_path() / "railyard-label-audit-bad.csv";
  std::ofstream(file) << "serial,where\nA,B\n";
  try {
    LoadLabelAudit(file.string());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), file.string());
    EXPECT_EQ(e.line(), 1);
  }
  std::ofstream(file) << "device,port,label\ndgx001,\"mlx5_0\n";  // a quote never closed
  try {
    LoadLabelAudit(file.string());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2) << e.what();
    EXPECT_NE(std::string(e.what()).find("unterminated quoted field"), std::string::npos);
  }
  std::filesystem::remove(file);
  EXPECT_THROW(LoadLabelAudit(file.string()), InputError);
}

TEST_F(VerifyTest, LabelAudit) {
  std::vector<LabelScan> scans = {
      {"dgx001", "mlx5_0", "COMP-000001", "audit.csv", 2},            // right
      {"compute-leaf-su01-r1", "1", "COMP-000009", "audit.csv", 3},   // wrong label
      {"compute-leaf-su01-r6", "32", "COMP-000777", "audit.csv", 4},  // no cable planned there
  };
  VerifyResult r = Run(AsPlanned(), scans);
  auto mismatches = Of(r, VerifyKind::kLabelMismatch);
  ASSERT_EQ(mismatches.size(), 2u);
  EXPECT_NE(mismatches[0]->message.find("where the plan has COMP-000001 (audit.csv:3)"), std::string::npos)
      << mismatches[0]->message;
  EXPECT_NE(mismatches[1]->message.find("where the plan has no cable"), std::string::npos);
}

TEST_F(VerifyTest, FindingsAreSortedByLocation) {
  auto seen = AsPlanned({"COMP-000100", "COMP-000003"});
  VerifyResult r = Run(seen);
  ASSERT_EQ(r.findings.size(), 2u);
  // dgx001 (COMP-000003) sits in the first rack, dgx013 (COMP-000100) further along the row.
  EXPECT_EQ(r.findings[0].labels[0], "COMP-000003");
  EXPECT_EQ(r.findings[1].labels[0], "COMP-000100");
}

TEST(VerifyRealCapture, GpuHostRailNicsAgainstAMatchingPlan) {
  // The shared fixture (a real lldpctl -f json0 from a GPU host) against a plan written to match
  // it, names mapped by a --names file (tests/fixtures/match/).
  auto fixture = testing::FixturePath("lldpctl/json0-gpu-host-rail-nics-to-sonic-leafs.json");
  RAILYARD_REQUIRE_FIXTURE(fixture);
  const fs::path match = fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/match";
  const fs::path dir = fs::temp_directory_path() / ("railyard-match-" + std::to_string(::getpid()));
  WritePlanOutputs(Plan(LoadSpec((match / "gpu-host-rails.yaml").string())), Catalog::Builtin(), dir.string());
  PlannedFabric plan = LoadPlannedFabric((dir / "plan.json").string());
  fs::remove_all(dir);
  NameResolver names(plan);
  names.LoadMap((match / "gpu-host-rails.names.csv").string());
  AdjacencyReport seen = ParseLldpctlJson(testing::ReadText(fixture), "gpu-host", fixture.string());
  VerifyResult r = Verify(plan, names, seen.adjacencies, {"gpu-host"});
  EXPECT_EQ(r.counts.ok, 5u);                            // four rails and the storage NIC
  EXPECT_EQ(r.counts.unverified, r.counts.planned - 5);  // leaf-spine links: no switch reported
  EXPECT_TRUE(r.findings.empty());
  // Without the map the field's names are unknown, and said so.
  NameResolver bare(plan);
  VerifyResult unmapped = Verify(plan, bare, seen.adjacencies, {"gpu-host"});
  EXPECT_EQ(unmapped.counts.ok, 0u);
  EXPECT_FALSE(unmapped.findings.empty());
}

TEST(VerifyRealCapture, CumulusLeafTableAgainstAMatchingPlan) {
  // The shared Cumulus `net show lldp` capture (a VX leaf with two spine uplinks) against the
  // one-leaf, two-spine plan of the LLDP peer test. The lab's leaf has no hosts: the two node
  // cables the plan gives it are missing, and said so; the uplinks are ok.
  auto fixture = testing::FixturePath("switch-lldp/cumulus-net-show-lldp-vx.txt");
  RAILYARD_REQUIRE_FIXTURE(fixture);
  const fs::path root(RAILYARD_SOURCE_DIR);
  const fs::path dir = fs::temp_directory_path() / ("railyard-cumulus-" + std::to_string(::getpid()));
  WritePlanOutputs(Plan(LoadSpec((root / "tests/integration/lldp-fabric.yaml").string())), Catalog::Builtin(), dir.string());
  PlannedFabric plan = LoadPlannedFabric((dir / "plan.json").string());
  fs::remove_all(dir);
  NameResolver names(plan);
  names.LoadMap((root / "tests/fixtures/match/cumulus-vx.names.csv").string());
  AdjacencyReport seen = ParseSwitchLldpTable(testing::ReadText(fixture), "leaf01", fixture.string());
  VerifyResult r = Verify(plan, names, seen.adjacencies, {"leaf01"});
  EXPECT_EQ(r.counts.ok, 2u);
  EXPECT_EQ(r.counts.missing, 2u);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].kind, VerifyKind::kMissing);
  EXPECT_EQ(r.findings[0].planned_b, "storage-leaf-001:swp1");
}

TEST(PlannedFabric, RejectsWhatIsNotAPlan) {
  EXPECT_THROW(ParsePlannedFabric("{", "x.json"), std::runtime_error);
  EXPECT_THROW(ParsePlannedFabric("{\"schema\": \"other\"}", "x.json"), std::runtime_error);
  try {
    ParsePlannedFabric(
        R"({"schema":"railyard.plan/1","devices":[{"name":"a"}],"links":[{"label":"L1","a":{"device":"a","port":"1"},"z":{"device":"b","port":"2"}}]})",
        "p.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "p.json: link L1 names unknown device 'b'");
    EXPECT_EQ(e.file(), "p.json");
  }
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// A uniform fleet's netdevs in the spec: LLDP from hosts naming ports ens1f0np0 verifies with no
// ibdev2netdev captures, from plan.json and from plan.index alike.
TEST(VerifyHostNetdevs, TheSpecsNetdevsNameHostPorts) {
  const fs::path dir = fs::temp_directory_path() / ("railyard-netdevs-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  PlanResult planned = Plan(testing::ParseOrDie(R"(name: t
nodes: {count: 2, gpus: 8, pcie: gen5, per_rack: 2, name_prefix: gpu}
planes:
  - name: storage
    kind: roce
    nic: ConnectX-6 Dx
    ports_per_node: 2
    speed: 100G
    switch: SN4600C
    redundancy: leaf-pair
    netdevs: [ens1f0np0, ens1f1np1]
    slots: [PCIe 1, PCIe 1]
)"));
  WritePlanOutputs(planned, Catalog::Builtin(), dir.string());
  for (bool use_index : {true, false}) {
    SCOPED_TRACE(use_index ? "plan.index" : "plan.json");
    if (!use_index) fs::remove(dir / "plan.index");
    PlannedFabric plan = LoadPlannedFabric((dir / "plan.json").string());
    EXPECT_EQ(plan.host_netdevs.at("ens1f1np1"), "mlx5_1");
    NameResolver names(plan);
    std::vector<Adjacency> seen;
    for (const PlannedLink& l : plan.links) {
      if (l.level != "endpoint-leaf") continue;
      std::string netdev = l.a_port == "mlx5_0" ? "ens1f0np0" : "ens1f1np1";
      Adjacency a;
      a.local_device = plan.devices[l.a_device].name;
      a.local_port = netdev;
      a.remote_device = plan.devices[l.z_device].name;
      a.remote_port = std::string(l.z_port);
      a.medium = Medium::kEthernet;
      a.source = std::make_shared<const std::string>("lldp");
      seen.push_back(a);
    }
    VerifyResult r = Verify(plan, names, seen, {"gpu001", "gpu002"});
    EXPECT_EQ(r.counts.ok, 4u);
    for (const VerifyFinding& f : r.findings) ADD_FAILURE() << ToString(f.kind) << ": " << f.message;
  }
  // The cut sheet names the host end by its slot.
  std::ifstream cutsheet(dir / "cutsheet.csv");
  std::string header, first;
  std::getline(cutsheet, header);
  std::getline(cutsheet, first);
  EXPECT_NE(first.find(",mlx5_0,PCIe 1,"), std::string::npos) << first;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace railyard
