#include "doctor/switch_rules.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "config/switch_config.h"
#include "doctor/doctor.h"
#include "doctor/symptoms.h"
#include "export/write_all.h"
#include "facts/collect.h"
#include "facts/switch_facts.h"
#include "parse/fixtures.h"
#include "parse/qos.h"
#include "parse/running_config.h"
#include "parse/switch_modules.h"
#include "parse/switch_ports.h"
#include "parse/switch_qos.h"
#include "plan/planner.h"
#include "spec/spec.h"
#include "util/file.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string Fixture(const std::string& relative) { return ReadWholeFile(testing::FixturePath(relative).string()); }

const SwitchPortFacts* Port(const SwitchPortsReport& r, const std::string& name) {
  for (const SwitchPortFacts& p : r.ports) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

// --- Parsers, on the real outputs in tests/fixtures/switch (provenance in its SOURCES-*.md) ---

TEST(EosInterfacesStatus, EveryStatusNamesWithSpacesAndPortChannels) {
  SwitchPortsReport r =
      ParseEosInterfacesStatus(Fixture("switch/eos/show-interfaces-status-errdisabled-notconnect-disabled-inactive.txt"));
  ASSERT_EQ(r.ports.size(), 6u);
  EXPECT_TRUE(r.warnings.empty());
  const SwitchPortFacts* named = Port(r, "Et3/1/1");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->description, "I am a 40G port !! Hi");
  EXPECT_EQ(named->oper, "up");
  EXPECT_DOUBLE_EQ(named->speed_gbps, 40);
  EXPECT_TRUE(named->speed_auto);
  EXPECT_EQ(named->vlan_mode, "trunk");
  const SwitchPortFacts* err = Port(r, "Et3/2/2");
  ASSERT_TRUE(err);
  EXPECT_EQ(err->status, "errdisabled");
  EXPECT_EQ(err->access_vlan, 10);
  // A description holding "DISABLED routed (" is not the status or the VLAN.
  const SwitchPortFacts* tricky = Port(r, "Et3/2/4");
  ASSERT_TRUE(tricky);
  EXPECT_EQ(tricky->description, "- DISABLED routed (");
  EXPECT_EQ(tricky->admin, "down");
  EXPECT_EQ(tricky->vlan_mode, "routed");
  EXPECT_EQ(Port(r, "Et3/1/4")->status, "inactive");  // speed "unconf": no speed, no warning
}

TEST(EosInterfacesStatus, TablesThatLostTheirAlignment) {
  // Pasted with single spaces: the Status word anchors the row.
  SwitchPortsReport r = ParseEosInterfacesStatus(Fixture("switch/eos/show-interfaces-status-single-space-disabled-in-Po.txt"));
  ASSERT_EQ(r.ports.size(), 6u);
  EXPECT_EQ(Port(r, "Et1")->description, "Cust: (SERV-XXXXX");
  EXPECT_EQ(Port(r, "Et1")->admin, "down");
  EXPECT_EQ(Port(r, "Et49")->member_of, "Po49");
  EXPECT_FALSE(Port(r, "Et49")->module_present);
  EXPECT_DOUBLE_EQ(Port(r, "Ma1")->speed_gbps, 0.01);
  // The 7280SR2A capture: 56 rows, three errdisabled without a module.
  SwitchPortsReport big =
      ParseEosInterfacesStatus(Fixture("switch-interfaces/arista-eos-show-interfaces-status-errdisabled-not-present.txt"));
  EXPECT_EQ(big.ports.size(), 56u);
  size_t errdisabled = 0;
  for (const SwitchPortFacts& p : big.ports) errdisabled += p.status == "errdisabled";
  EXPECT_EQ(errdisabled, 3u);
  EXPECT_EQ(Port(big, "Et5")->member_of, "Po100");
}

TEST(EosInterfacesStatus, TheErrdisabledTableGivesTheCause) {
  SwitchPortsReport r =
      ParseEosInterfacesStatus(Fixture("switch/eos/show-interfaces-status-errdisabled-text-linkflap-speedmisconfig.txt"));
  ASSERT_EQ(r.ports.size(), 6u);
  EXPECT_EQ(Port(r, "Et23")->reason, "link-flap");
  EXPECT_EQ(Port(r, "Et33")->reason, "speed-misconfigured");
  EXPECT_EQ(Port(r, "Et33")->description, "Link-DCA-R1C20SW3B-E");
  // The prompt line before the table is a warning with its line, not a port.
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_EQ(r.warnings.front().line, 1);
}

TEST(SonicInterfacesStatus, ColumnsByTheDashesRowAndHeaderNames) {
  SwitchPortsReport r = ParseSonicInterfacesStatus(
      Fixture("switch/sonic/show-interfaces-status-unittest-fec-rs-na-auto-trunk-portchannel-oper-down.txt"));
  EXPECT_EQ(r.ports.size(), 15u);
  EXPECT_EQ(Port(r, "Ethernet0")->oper, "down");
  EXPECT_EQ(Port(r, "Ethernet0")->fec, "rs");
  EXPECT_EQ(Port(r, "Ethernet0")->mtu, 9100u);
  EXPECT_DOUBLE_EQ(Port(r, "Ethernet16")->speed_gbps, 0.1);
  // A Type with spaces, routed ports, a 400G QSFP-DD (issue 15148).
  SwitchPortsReport dd =
      ParseSonicInterfacesStatus(Fixture("switch/sonic/show-interfaces-status-issue-15148-multiasic-400g-qsfpdd-down.txt"));
  ASSERT_FALSE(dd.ports.empty());
  EXPECT_EQ(dd.ports[0].module_type, "QSFP-DD Double Density 8X Pluggable Transceiver");
  EXPECT_EQ(dd.ports[0].admin, "down");
  EXPECT_DOUBLE_EQ(dd.ports[0].speed_gbps, 400);
  // The older layout without FEC or Vlan, and a doc's "<continues ...>" line as a warning.
  SwitchPortsReport old =
      ParseSonicInterfacesStatus(Fixture("switch/sonic/show-interfaces-status-docexample-down-admin-down.txt"));
  EXPECT_EQ(old.ports.size(), 3u);
  EXPECT_EQ(old.warnings.size(), 1u);
  // Port-channel members (PR 9105).
  SwitchPortsReport pc =
      ParseSonicInterfacesStatus(Fixture("switch/sonic/show-interfaces-status-issue-pr9105-100g-rs-portchannel.txt"));
  EXPECT_EQ(Port(pc, "Ethernet0")->member_of, "PortChannel0002");
  // Markdown bold around a row (issue 17551): that row is a warning, the others read.
  SwitchPortsReport md =
      ParseSonicInterfacesStatus(Fixture("switch/sonic/show-interfaces-status-issue-17551-oper-NA-markdown-artifacts.txt"));
  EXPECT_FALSE(md.ports.empty());
  EXPECT_FALSE(md.warnings.empty());
  EXPECT_EQ(Port(md, "Ethernet8")->oper, "");  // "N/A": not said
}

TEST(NvueInterfaceJson, SwitchPortsOfTheDocumentAndCutOnesRefused) {
  // Every published `nv show interface -o json` railyard found is cut short ("..."): a warning, no port.
  SwitchPortsReport cut =
      ParseNvueInterfaceJson(Fixture("switch/nvue/nv-interface-json-rest-capture-2026-admin-oper-status-truncated.txt"));
  EXPECT_TRUE(cut.ports.empty());
  ASSERT_EQ(cut.warnings.size(), 1u);
  // The one whole capture is a single interface (`nv show interface swp1 -o json`): keyed by its name
  // here, as the whole-table form keys it.
  const std::string swp1 = Fixture("switch/nvue/nv-interface-json-rest-swp1-jq-capture.txt");
  SwitchPortsReport r =
      ParseNvueInterfaceJson("{\"swp1\": " + swp1 + ", \"eth0\": {\"type\": \"eth\", \"link\": {\"state\": {\"up\": {}}}}}");
  ASSERT_EQ(r.ports.size(), 1u);  // eth0 is the management port, not a switch port
  EXPECT_EQ(r.ports[0].name, "swp1");
  EXPECT_EQ(r.ports[0].oper, "up");
  EXPECT_EQ(r.ports[0].mtu, 9216u);
  EXPECT_DOUBLE_EQ(r.ports[0].speed_gbps, 1);
  EXPECT_EQ(r.ports[0].duplex, "full");
}

// --- Collect and the rules ---

struct TempDir {
  fs::path path = fs::temp_directory_path() / fmt::format("railyard-switch-{}-{}", ::getpid(), counter++);
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  void Put(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
  static inline int counter = 0;
};

TEST(SwitchFacts, CollectMergesTheErrdisabledCauseAndRoundTrips) {
  // The same 7050SX3 (sw-core-01): its Et21 status, and the errdisabled table naming the cause.
  TempDir d;
  d.Put("hostname.txt", "sw-core-01\n");
  d.Put("eos-show-interfaces-status.txt", Fixture("switch-interfaces/arista-eos-7050sx3-et21-errdisabled-25gbase-sr.txt"));
  d.Put("eos-show-interfaces-status-errdisabled.txt",
        Fixture("switch/eos/show-interfaces-status-errdisabled-text-xcvr-unsupported-ABRIDGED.txt"));
  d.Put("notes.txt", "not a command output\n");
  fs::create_symlink("/etc/passwd", d.path / "sonic-show-interfaces-status.txt");
  SwitchFacts f = CollectSwitchFrom(d.path.string());
  EXPECT_EQ(f.hostname, "sw-core-01");
  EXPECT_EQ(f.os, "eos");
  ASSERT_EQ(f.ports.size(), 1u);
  EXPECT_EQ(f.ports[0].reason, "xcvr-unsupported");
  bool said_notes = false;
  bool said_link = false;
  for (const SwitchFactsWarning& w : f.warnings) {
    said_notes = said_notes || w.source.ends_with("notes.txt");
    said_link =
        said_link || (w.source.ends_with("sonic-show-interfaces-status.txt") && w.message.find("symlink") != std::string::npos);
  }
  EXPECT_TRUE(said_notes);  // nothing dropped in silence
  EXPECT_TRUE(said_link);   // and a planted link is not followed
  SwitchFacts back = ParseSwitchFactsJson(SwitchFactsJson(f), "sw.json");
  ASSERT_EQ(back.ports.size(), 1u);
  EXPECT_EQ(back.ports[0].reason, "xcvr-unsupported");
  EXPECT_EQ(back.ports[0].module_type, "25GBASE-SR");
  // The rule: a module the switch refuses (not also an errdisabled finding), and a fix that speaks of the module.
  std::vector<Finding> found = RunSwitchRules(back, DoctorPolicy{}, nullptr);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "switch-module-not-supported");
  EXPECT_NE(found[0].message.find("xcvr-unsupported"), std::string::npos);
  EXPECT_NE(found[0].fix.find("module"), std::string::npos);
  EXPECT_THROW(ParseSwitchFactsJson("{\"schema\": \"railyard.host-facts/1\"}", "x.json"), std::runtime_error);
}

// The Arista example's plan, and a leaf's `show interfaces status` in the real EOS layout (the
// header and row format of the 7280SR2A capture) with the plan's ports.
const char* kAristaSpec = R"(name: arista
nodes: {count: 32, gpus: 8, pcie: gen5, per_rack: 4}
planes:
  - {name: compute, kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: 7060X6-64PE,
     rail_optimized: true, nodes_per_su: 32}
addressing:
  compute: {prefix: 10.0.0.0/16, mode: p2p31, loopbacks: 10.255.0.0/24, asn_base: 4200000000}
)";

TEST(SwitchRules, WithThePlanBothEndsOfEachCable) {
  TempDir d;
  WritePlanOutputs(Plan(ParseSpec(kAristaSpec, "arista.yaml")), Catalog::Builtin(), (d.path / "plan").string());
  auto plan = std::make_shared<HostPlan>(LoadPlannedFabric((d.path / "plan" / "plan.json").string(), true));
  // compute-leaf-su01-r1: Et1/1 (node001) up at 400G, Et1/5 (node002) no module, Et2/1 (node003)
  // forced to 200G, Et2/5 (node004) shut down, Et3/1 errdisabled.
  const std::string status =
      "Port       Name        Status       Vlan     Duplex Speed  Type         Flags Encapsulation\n"
      "Et1/1      COMP-000001 connected    routed   full   400G   400GBASE-SR4                   \n"
      "Et1/5      COMP-000009 notconnect   routed   full   400G   Not Present                    \n"
      "Et2/1      COMP-000017 connected    routed   full   200G   400GBASE-SR4                   \n"
      "Et2/5      COMP-000025 disabled     routed   full   400G   400GBASE-SR4                   \n"
      "Et3/1      COMP-000033 errdisabled  routed   full   400G   400GBASE-SR4                   \n";
  TempDir sw;
  sw.Put("hostname.txt", "compute-leaf-su01-r1\n");
  sw.Put("eos-show-interfaces-status.txt", status);
  SwitchFacts leaf = CollectSwitchFrom(sw.path.string());
  ASSERT_EQ(leaf.ports.size(), 5u);
  // node003's mlx5_0 up at 200G (ibstat): the two ends agree with each other but not with the plan;
  // node001's at 100G: the ends disagree.
  auto host = [](const std::string& name, uint32_t rate) {
    HostFacts h;
    h.hostname = name;
    RdmaFacts r;
    r.ca.name = "mlx5_0";
    IbstatPort port;
    port.number = 1;
    port.state = "Active";
    port.rate = rate;
    r.ca.ports = {port};
    h.rdma = {r};
    return h;
  };
  Doctor doctor(DoctorPolicy{}, plan);
  doctor.AddHost(host("node001", 100));
  doctor.AddHost(host("node003", 200));
  doctor.AddSwitch(leaf);
  DoctorReport report = doctor.Finish();
  std::map<std::string, std::vector<const Finding*>> by_rule;
  for (const Finding& f : report.findings) by_rule[f.rule].push_back(&f);
  ASSERT_EQ(by_rule["switch-planned-port-down"].size(), 1u) << DoctorTable(report);
  EXPECT_EQ(by_rule["switch-planned-port-down"][0]->object, "port Et1/5");
  EXPECT_NE(by_rule["switch-planned-port-down"][0]->message.find("no module"), std::string::npos);
  EXPECT_NE(by_rule["switch-planned-port-down"][0]->message.find("node002 mlx5_0"), std::string::npos);
  ASSERT_EQ(by_rule["switch-port-forced-speed"].size(), 1u);
  EXPECT_EQ(by_rule["switch-port-forced-speed"][0]->object, "port Et2/1");
  ASSERT_EQ(by_rule["switch-port-admin-down"].size(), 1u);
  EXPECT_EQ(by_rule["switch-port-admin-down"][0]->severity, Severity::kError);  // a planned cable
  ASSERT_EQ(by_rule["switch-port-errdisabled"].size(), 1u);
  ASSERT_EQ(by_rule["link-end-mismatch"].size(), 1u) << DoctorTable(report);
  EXPECT_EQ(by_rule["link-end-mismatch"][0]->host, "node001");
  EXPECT_NE(by_rule["link-end-mismatch"][0]->message.find("compute-leaf-su01-r1 Et1/1 at 400 Gb/s"), std::string::npos);
  EXPECT_EQ(report.switches, std::vector<std::string>{"compute-leaf-su01-r1"});
}

TEST(SwitchRules, DoctorTakesSwitchFactsBesideHostFacts) {
  TempDir d;
  SwitchFacts f;
  f.hostname = "leaf-a";
  f.os = "eos";
  f.ports =
      ParseEosInterfacesStatus(Fixture("switch-interfaces/arista-eos-show-interfaces-status-errdisabled-not-present.txt")).ports;
  d.Put("switches.ndjson", SwitchFactsJson(f) + "\n" + SwitchFactsJson(f) + "\n");
  size_t switches = 0;
  ForEachFacts(
      {(d.path / "switches.ndjson").string()}, [](HostFacts&&) { FAIL(); },
      [&](SwitchFacts&& s) { switches += s.ports.size() == 56; });
  EXPECT_EQ(switches, 2u);
  // Where only host facts are expected, a switch document is an error naming the file.
  EXPECT_THROW(ForEachFacts({(d.path / "switches.ndjson").string()}, [](HostFacts&&) {}), FactsInputError);
}

TEST(EosSwitchport, TextBlocksAndJsonGiveModeAndAllowedVlans) {
  SwitchPortsReport text =
      ParseEosSwitchport(Fixture("switch/eos/show-interfaces-switchport-text-trunk-range-and-NONE-EMULATOR.txt"));
  ASSERT_GE(text.ports.size(), 2u);
  EXPECT_EQ(text.ports[0].name, "Et1");
  EXPECT_EQ(text.ports[0].vlan_mode, "trunk");
  EXPECT_EQ(text.ports[0].allowed_vlans, "13-14");
  EXPECT_EQ(text.ports[1].allowed_vlans, "NONE");
  SwitchPortsReport json = ParseEosSwitchport(Fixture("switch/eos/show-interfaces-switchport-json-7160-trunk-ALL-access.json"));
  const SwitchPortFacts* e1 = Port(json, "Ethernet1");
  ASSERT_TRUE(e1);
  EXPECT_EQ(e1->vlan_mode, "trunk");
  EXPECT_EQ(e1->allowed_vlans, "ALL");
  EXPECT_EQ(e1->native_vlan, 1);
  EXPECT_EQ(VlanListHas("13-14", 14), true);
  EXPECT_EQ(VlanListHas("13-14,200", 4003), false);
  EXPECT_EQ(VlanListHas("ALL", 4003), true);
  EXPECT_EQ(VlanListHas("NONE", 1), false);
  EXPECT_FALSE(VlanListHas("13-", 13));
}

TEST(EosCountersErrors, TextAndJsonAndTheRule) {
  // A 100M port with millions of FCS and symbol errors (text), and a 7160's JSON with FCS and
  // alignment errors on a 100G port.
  SwitchPortsReport text =
      ParseEosCountersErrors(Fixture("switch/eos/show-interfaces-counters-errors-text-100M-port-fcs-symbol-runts.txt"));
  ASSERT_EQ(text.ports.size(), 4u);
  EXPECT_EQ(Port(text, "Et6")->errors.at("fcs"), 7846661u);
  EXPECT_EQ(Port(text, "Et6")->errors.at("symbol"), 7831865u);
  EXPECT_EQ(Port(text, "Et2")->errors.at("fcs"), 0u);
  SwitchPortsReport json =
      ParseEosCountersErrors(Fixture("switch/eos/show-interfaces-counters-errors-json-7160-fcs-align-on-100G.json"));
  ASSERT_FALSE(json.ports.empty());
  size_t with_errors = 0;
  for (const SwitchPortFacts& p : json.ports) with_errors += p.errors.count("fcs") && p.errors.at("fcs") > 0;
  EXPECT_GE(with_errors, 1u);
  // Through collect and the rule: only the port with errors.
  TempDir d;
  d.Put("hostname.txt", "leaf9\n");
  d.Put("eos-show-interfaces-counters-errors.txt",
        Fixture("switch/eos/show-interfaces-counters-errors-text-100M-port-fcs-symbol-runts.txt"));
  SwitchFacts f = ParseSwitchFactsJson(SwitchFactsJson(CollectSwitchFrom(d.path.string())), "leaf9.json");
  std::vector<Finding> found = RunSwitchRules(f, DoctorPolicy{}, nullptr);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "port-error-counters-high");
  EXPECT_EQ(found[0].object, "port Et6");
  EXPECT_NE(found[0].message.find("7846661 fcs"), std::string::npos) << found[0].message;
}

TEST(SonicVlanBrief, MembershipFromTheGridWithContinuationRows) {
  SwitchPortsReport r =
      ParseSonicVlanBrief(Fixture("switch/sonic/show-vlan-brief-unittest-untagged-and-tagged-same-portchannel.txt"));
  EXPECT_TRUE(r.warnings.empty());
  const SwitchPortFacts* pc = Port(r, "PortChannel1001");
  ASSERT_TRUE(pc);
  EXPECT_EQ(pc->vlan_mode, "trunk");  // tagged in 4000, untagged in 1000
  EXPECT_EQ(pc->allowed_vlans, "4000");
  EXPECT_EQ(pc->native_vlan, 1000);
  ASSERT_TRUE(Port(r, "Ethernet28"));
  EXPECT_EQ(Port(r, "Ethernet28")->vlan_mode, "access");
  EXPECT_EQ(Port(r, "Ethernet28")->access_vlan, 2000);  // a continuation row of VLAN 2000
  // 2018's layout has no Port Tagging: a warning, no guessed membership.
  SwitchPortsReport old = ParseSonicVlanBrief(Fixture("switch/sonic/show-vlan-brief-issue-pr355-legacy-4col-no-tagging.txt"));
  EXPECT_TRUE(old.ports.empty());
  ASSERT_EQ(old.warnings.size(), 1u);
  EXPECT_EQ(VlanListHas(pc->allowed_vlans, 4000), true);
  EXPECT_EQ(VlanListHas(pc->allowed_vlans, 1000), false);
}

TEST(SwitchRules, VlanUnreachableNamesTheSwitchPortAndTheMissingVlan) {
  // The host: the real capture of an 802.3ad bond with VLAN 4003 on it (ip -d -s link); its members'
  // LLDP neighbour joined in memory: the real switch whose Et1 trunk carries VLANs 13-14 only.
  TempDir cap;
  cap.Put("hostname.txt", "gpu007\n");
  cap.Put("ip-d-link.txt", Fixture("ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt"));
  HostFacts host = BuildHostFacts(ReadCaptureDir(cap.path.string()));
  bool member = false;
  for (const NetdevFacts& n : host.netdevs) member = member || (n.name == "enp59s0f0" && n.master == "bond1");
  ASSERT_TRUE(member);
  LldpNeighbor l;
  l.local_port = "enp59s0f0";
  l.remote_device = "my_arista";
  l.remote_port = "Ethernet1";
  host.lldp = {l};
  TempDir sw;
  sw.Put("hostname.txt", "my_arista\n");
  sw.Put("eos-show-interfaces-switchport.txt",
         Fixture("switch/eos/show-interfaces-switchport-text-trunk-range-and-NONE-EMULATOR.txt"));
  SwitchFacts arista = CollectSwitchFrom(sw.path.string());
  std::vector<StepResult> steps = RunSymptom("vlan-unreachable", host, DoctorPolicy{}, {arista});
  ASSERT_FALSE(steps.empty());
  const StepResult& last = steps.back();
  EXPECT_EQ(last.step, "the switch port carries the VLAN");
  EXPECT_EQ(last.status, StepStatus::kFailed);
  EXPECT_NE(last.detail.find("bond1.4003 tags VLAN 4003 out of enp59s0f0, whose switch port (LLDP) is my_arista Ethernet1"),
            std::string::npos)
      << last.detail;
  // The capture shows Et1 twice, reconfigured in between: the later state (NONE) is the one that counts.
  EXPECT_NE(last.detail.find("allowed VLANs (NONE) do not include 4003"), std::string::npos) << last.detail;
  EXPECT_NE(last.fix.find("switchport trunk allowed vlan add 4003"), std::string::npos);
  // Without the switch's facts the step is not guessed: unknown, with the command that tells.
  std::vector<StepResult> alone = RunSymptom("vlan-unreachable", host, DoctorPolicy{});
  EXPECT_EQ(alone.back().status, StepStatus::kUnknown);
  // And the doctor's rule says the same.
  Doctor doctor{DoctorPolicy{}};
  doctor.AddHost(host);
  doctor.AddSwitch(arista);
  DoctorReport report = doctor.Finish();
  size_t vlan = 0;
  for (const Finding& f : report.findings) vlan += f.rule == "vlan-not-allowed-on-trunk";
  EXPECT_EQ(vlan, 1u) << DoctorTable(report);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// The whole InfiniBand fabric from one host's saved outputs: ibsim running the lab-8-node plan's
// topology under opensm, with faults injected on the ibsim console (tests/fixtures/switch/SOURCES-eos-ib.md):
// symbol errors and link downs on compute-leaf-001 port 3, transmit discards on compute-leaf-002
// port 5, compute-leaf-001 port 7 unlinked.
TEST(IbSwitchFacts, OneDocumentPerSwitchWithCountersAndTheRules) {
  TempDir fabric;
  fabric.Put("iblinkinfo.txt", Fixture("switch/ib/iblinkinfo-ibsim-lab8-leaf-port7-unlinked.txt"));
  fabric.Put("ibqueryerrors.txt", Fixture("switch/ib/ibqueryerrors-ibsim-lab8-symbol-linkdowned-xmitdiscards.txt"));
  SwitchFactsSet set = CollectSwitchesFrom(fabric.path.string());
  ASSERT_EQ(set.switches.size(), 2u);
  ASSERT_EQ(set.warnings.size(), 1u);  // the 63 CA lines, said once
  EXPECT_NE(set.warnings[0].message.find("63 CA"), std::string::npos);
  const SwitchFacts* leaf1 = nullptr;
  for (const SwitchFacts& s : set.switches) {
    if (s.hostname == "compute-leaf-001") leaf1 = &s;
  }
  ASSERT_TRUE(leaf1);
  EXPECT_EQ(leaf1->os, "ib");
  EXPECT_EQ(leaf1->guid, "0x0002c90300000800");
  ASSERT_EQ(leaf1->ports.size(), 64u);
  const SwitchPortFacts& p3 = leaf1->ports[2];
  EXPECT_EQ(p3.name, "3");
  EXPECT_EQ(p3.status, "Active/LinkUp");
  EXPECT_EQ(p3.peer, "lab001 mlx5_4 port 1");
  EXPECT_EQ(p3.errors.at("symbol"), 250u);
  EXPECT_EQ(p3.errors.at("link_downed"), 3u);
  EXPECT_NE(p3.errors_source.find("ibqueryerrors.txt:"), std::string::npos);
  EXPECT_EQ(leaf1->ports[6].status, "Down/Polling");
  // The documents round-trip through railyard.switch-facts/1.
  SwitchFacts back = ParseSwitchFactsJson(SwitchFactsJson(*leaf1), "leaf1.json");
  EXPECT_EQ(back.guid, leaf1->guid);
  EXPECT_EQ(back.ports[2].errors_source, p3.errors_source);
  EXPECT_EQ(back.ports[2].could_be, "12X, 10.0 Gbps");

  // With the plan: the unlinked port is a planned cable down; the counters are over Azure's limits.
  TempDir d;
  WritePlanOutputs(Plan(ParseSpec(ReadWholeFile(std::string(RAILYARD_SOURCE_DIR) + "/examples/lab-8-node.yaml"), "lab.yaml")),
                   Catalog::Builtin(), (d.path / "plan").string());
  auto plan = std::make_shared<HostPlan>(LoadPlannedFabric((d.path / "plan" / "plan.json").string(), true));
  DoctorPolicy policy;
  policy.disabled_rules.insert("ib-link-degraded");  // ibsim trains every link at 4X SDR
  Doctor doctor(policy, plan);
  for (const SwitchFacts& s : set.switches) doctor.AddSwitch(s);
  DoctorReport report = doctor.Finish();
  std::map<std::string, std::vector<const Finding*>> by_rule;
  for (const Finding& f : report.findings) by_rule[f.rule].push_back(&f);
  ASSERT_EQ(report.findings.size(), 3u) << DoctorTable(report);
  ASSERT_EQ(by_rule["switch-planned-port-down"].size(), 1u);
  const Finding& down = *by_rule["switch-planned-port-down"][0];
  EXPECT_EQ(down.host, "compute-leaf-001");
  EXPECT_EQ(down.object, "port 7");
  EXPECT_NE(down.message.find("lab002 mlx5_4"), std::string::npos) << down.message;
  ASSERT_EQ(by_rule["port-error-counters-high"].size(), 2u);
  for (const Finding* f : by_rule["port-error-counters-high"]) {
    EXPECT_TRUE(f->object == "port 3" || f->object == "port 5") << f->object;
  }
  // Every ibsim link runs below what its ends support and below the plan's 400G.
  std::vector<Finding> all = RunSwitchRules(*leaf1, DoctorPolicy{}, plan.get());
  size_t degraded = 0;
  for (const Finding& f : all) degraded += f.rule == "ib-link-degraded" && f.severity == Severity::kError;
  EXPECT_EQ(degraded, 31u);  // the 32 host ports but the unlinked one
}

TEST(IbSwitchFacts, RealCapturesSaturatedCountersAndSharedDescriptions) {
  // The SX6036's ibqueryerrors beside an iblinkinfo naming that switch: counters at 65535 are saturated.
  TempDir fabric;
  fabric.Put("iblinkinfo.txt",
             "Switch: 0x0002c903006e29b0 MF0;ys23ib4:SX6036/U1:\n"
             "           2    5[  ] ==( 4X          14.0625 Gbps Active/  LinkUp)==>       7    1[  ] \"dl380g7 mlx4_0\" ( )\n"
             "           2    9[  ] ==( 4X          14.0625 Gbps Active/  LinkUp)==>       8    1[  ] \"rd240 mlx4_0\" ( )\n"
             "Switch: 0x0002c903006e29c0 Infiniscale-IV Mellanox Technologies:\n"
             "           3    1[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n"
             "Switch: 0x0002c903006e29d0 Infiniscale-IV Mellanox Technologies:\n"
             "           4    1[  ] ==(                Down/Disabled)==>             [  ] \"\" ( )\n");
  fabric.Put("ibqueryerrors.txt", Fixture("switch/ib/ibqueryerrors-sx6036-saturated-counters-xmitdiscards-many-ports.txt"));
  SwitchFactsSet set = CollectSwitchesFrom(fabric.path.string());
  ASSERT_EQ(set.switches.size(), 3u);
  EXPECT_EQ(set.switches[0].hostname, "ys23ib4");
  EXPECT_EQ(set.switches[1].hostname, "0x0002c903006e29c0");  // two switches, one factory description
  EXPECT_EQ(set.switches[1].warnings.size(), 1u);
  EXPECT_EQ(set.switches[2].ports[0].admin, "down");
  std::vector<Finding> found = RunSwitchRules(set.switches[0], DoctorPolicy{}, nullptr);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].object, "port 5");
  EXPECT_NE(found[0].message.find("at least 65535 symbol"), std::string::npos) << found[0].message;
  // Counters for ports iblinkinfo does not list (1-4, 6-8) and for the CAs are said, not dropped.
  EXPECT_FALSE(set.switches[0].warnings.empty());
  bool hosts_said = false;
  for (const SwitchFactsWarning& w : set.warnings)
    hosts_said = hosts_said || w.message.find("CA (host) port counter") != std::string::npos;
  EXPECT_TRUE(hosts_said);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// --- Modules: EOS `show interfaces transceiver` (text, json), SONiC presence and eeprom ---

TEST(SwitchModules, EosTransceiverTextAndJson) {
  SwitchPortsReport text = ParseEosTransceiver(Fixture("switch/eos/show-interfaces-transceiver-NA-rows.txt"));
  EXPECT_TRUE(text.warnings.empty());
  ASSERT_EQ(text.ports.size(), 5u);
  const SwitchPortFacts* sr = Port(text, "Et3/1/1");
  ASSERT_TRUE(sr);
  EXPECT_FALSE(sr->has_tx_power);  // N/A
  EXPECT_DOUBLE_EQ(sr->rx_power_dbm, -2.39);
  EXPECT_DOUBLE_EQ(sr->module_temp_c, 27.92);
  const SwitchPortFacts* none = Port(text, "Et5/29/1");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_rx_power || none->has_temp);
  // The 7050SX3 whose module EOS refused: its laser off (tx -30.00 dBm, bias 0.00 mA), light received.
  SwitchPortsReport dark =
      ParseEosTransceiver(Fixture("switch/eos/show-interfaces-transceiver-text-25G-SR-tx-dark-xcvr-unsupported.txt"));
  const SwitchPortFacts* et21 = Port(dark, "Et21");
  ASSERT_TRUE(et21);
  EXPECT_DOUBLE_EQ(et21->tx_power_dbm, -30);
  EXPECT_DOUBLE_EQ(et21->tx_bias_ma, 0);
  EXPECT_DOUBLE_EQ(et21->rx_power_dbm, -0.28);
  SwitchPortsReport json =
      ParseEosTransceiver(Fixture("switch/eos/show-interfaces-transceiver-json-7160-CWDM4-empty-cages.json"));
  EXPECT_TRUE(json.warnings.empty());
  const SwitchPortFacts* cwdm = Port(json, "Ethernet49/2");
  ASSERT_TRUE(cwdm);
  EXPECT_EQ(cwdm->module_type, "100GBASE-CWDM4");
  EXPECT_NEAR(cwdm->rx_power_dbm, -3.816, 0.001);
  const SwitchPortFacts* empty = Port(json, "Ethernet50/1");
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty->has_rx_power);
  EXPECT_EQ(
      Port(ParseEosTransceiver(Fixture("switch/eos/show-interfaces-transceiver-json-40G-SR4-lanes-2016.json")), "Ethernet3/1/2")
          ->module_serial,
      "XMD1401000RP");
  EXPECT_FALSE(ParseEosTransceiver("{\"interfaces\": 3}").warnings.empty());
}

TEST(SwitchModules, SonicPresenceAndEeprom) {
  SwitchPortsReport presence =
      ParseSonicTransceiverPresence(Fixture("switch/sonic/show-interfaces-transceiver-presence-unittest-not-present.txt"));
  EXPECT_TRUE(presence.warnings.empty());
  ASSERT_EQ(presence.ports.size(), 3u);
  EXPECT_FALSE(Port(presence, "Ethernet4")->module_present);
  EXPECT_TRUE(Port(presence, "Ethernet64")->module_present);
  // The "..." a user left where rows were cut is not a port and not a warning; the rows are.
  EXPECT_EQ(
      ParseSonicTransceiverPresence(Fixture("switch/sonic/show-interfaces-transceiver-presence-issue-5978-all-not-present.txt"))
          .ports.size(),
      8u);
  SwitchPortsReport eeprom = ParseSonicTransceiverEeprom(
      Fixture("switch/sonic/show-interfaces-transceiver-eeprom-unittest-qsfp28-notdetected-cmis.txt"));
  EXPECT_TRUE(eeprom.warnings.empty());
  const SwitchPortFacts* aoc = Port(eeprom, "Ethernet0");
  ASSERT_TRUE(aoc);
  EXPECT_EQ(aoc->module_vendor, "Mellanox");
  EXPECT_EQ(aoc->module_pn, "MFA1A00-C003");
  EXPECT_EQ(aoc->module_serial, "MT1706FT02064");
  EXPECT_FALSE(Port(eeprom, "Ethernet4")->module_present);
  // The --dom form of older builds ("Key : value"): the lowest lane's power and the temperature.
  SwitchPortsReport dom = ParseSonicTransceiverEeprom(
      Fixture("switch/sonic/show-interfaces-transceiver-eeprom-dom-docexample-qsfp-legacy-spaced-colon.txt"));
  const SwitchPortFacts* qsfp = Port(dom, "Ethernet0");
  ASSERT_TRUE(qsfp);
  EXPECT_DOUBLE_EQ(qsfp->rx_power_dbm, -1.1936);
  EXPECT_DOUBLE_EQ(qsfp->module_temp_c, 1.1111);
  EXPECT_EQ(qsfp->module_type, "QSFP+");
  double v = 0;
  EXPECT_TRUE(ParseDomValue("-inf", v));
  EXPECT_FALSE(ParseDomValue("N/A", v));
}

TEST(SwitchModules, MergedIntoThePortsAndJudged) {
  // sw-core-01's Et21 (7050SX3): the status table, and its transceiver row with the laser off. Without
  // the errdisabled table's cause, the dark transmitter alone says the switch does not drive the module.
  TempDir d;
  d.Put("hostname.txt", "sw-core-01\n");
  d.Put("eos-show-interfaces-status.txt", Fixture("switch-interfaces/arista-eos-7050sx3-et21-errdisabled-25gbase-sr.txt"));
  d.Put("eos-show-interfaces-transceiver.txt",
        Fixture("switch/eos/show-interfaces-transceiver-text-25G-SR-tx-dark-xcvr-unsupported.txt"));
  SwitchFacts f = CollectSwitchFrom(d.path.string());
  ASSERT_EQ(f.ports.size(), 1u);
  EXPECT_DOUBLE_EQ(f.ports[0].tx_power_dbm, -30);
  EXPECT_NE(f.ports[0].module_source.find("eos-show-interfaces-transceiver.txt:"), std::string::npos);
  SwitchFacts back = ParseSwitchFactsJson(SwitchFactsJson(f), "x");
  EXPECT_TRUE(back.ports[0].has_tx_bias);
  EXPECT_DOUBLE_EQ(back.ports[0].rx_power_dbm, -0.28);
  std::vector<Finding> found = RunSwitchRules(back, DoctorPolicy{}, nullptr);
  // errdisabled without a cause: an errdisabled finding; the dark laser alone does not say why.
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "switch-port-errdisabled");
  // The same module on a port that is not errdisabled: the switch is not driving it.
  back.ports[0].status = "notconnect";
  back.ports[0].oper = "down";
  found = RunSwitchRules(back, DoctorPolicy{}, nullptr);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "switch-module-not-supported");
  EXPECT_NE(found[0].message.find("does not drive the transmitter"), std::string::npos) << found[0].message;
  // A hot module: warning at the policy's 70 °C, error at 80 °C.
  back.ports[0].module_temp_c = 81;
  DoctorPolicy policy;
  policy.disabled_rules.insert("switch-module-not-supported");
  found = RunSwitchRules(back, policy, nullptr);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule, "switch-module-temperature-high");
  EXPECT_EQ(found[0].severity, Severity::kError);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// --- RoCE QoS: the switch's (NVUE nv show qos roce, EOS show qos interfaces) against the host's ---

TEST(SwitchQos, NvueQosRoceLosslessLossyAndPerPort) {
  SwitchQosReport lossless = ParseNvueQosRoce(Fixture("switch/nvue/nv-show-qos-roce-cl515-lossless-single-ipool.txt"));
  EXPECT_TRUE(lossless.warnings.empty()) << lossless.warnings[0].message;
  ASSERT_EQ(lossless.ports.count(""), 1u);
  const SwitchQos& q = lossless.ports.at("");
  EXPECT_EQ(q.mode, "lossless-single-ipool");
  EXPECT_EQ(q.trust, "pcp,dscp");
  EXPECT_TRUE(q.pfc_read);
  EXPECT_EQ(q.pfc_priorities, std::vector<int>{3});
  EXPECT_EQ(q.ecn_tcs, (std::vector<int>{0, 3}));
  bool assumed = true;
  EXPECT_EQ(q.TcOf(6, assumed), 6);
  EXPECT_FALSE(assumed);  // the SP->TC table was read
  const SwitchQos lossy = ParseNvueQosRoce(Fixture("switch/nvue/nv-show-qos-roce-ref-lossy-pfc-dash-4pools.txt")).ports.at("");
  EXPECT_EQ(lossy.mode, "lossy");
  EXPECT_TRUE(lossy.pfc_read);
  EXPECT_TRUE(lossy.pfc_priorities.empty());  // "-"
  const SwitchQos port = ParseNvueQosRoce(Fixture("switch/nvue/nv-show-interface-swp16-qos-roce-status-cl515.txt")).ports.at("");
  EXPECT_EQ(port.mode, "lossless");
  EXPECT_EQ(port.pfc_priorities, std::vector<int>{3});
  EXPECT_EQ(port.ecn_tcs, (std::vector<int>{0, 3}));  // "ecn, absolute"
  EXPECT_EQ(port.prio_to_tc.at(3), 3);
  EXPECT_FALSE(ParseNvueQosRoce("hello\n").warnings.empty());
}

TEST(SwitchQos, EosQosInterfacesTrustAndEcnQueues) {
  SwitchQosReport r = ParseEosQosInterfaces(Fixture("switch/eos/show-qos-interfaces-portchannel-trust-dscp-shaping-DOC.txt"));
  ASSERT_EQ(r.ports.count("Port-Channel33"), 1u);
  const SwitchQos& q = r.ports.at("Port-Channel33");
  EXPECT_EQ(q.trust, "dscp");
  EXPECT_TRUE(q.ecn_read);
  EXPECT_TRUE(q.ecn_tcs.empty());    // every queue "D"
  EXPECT_FALSE(q.pfc_read);          // EOS prints PFC elsewhere
  ASSERT_EQ(r.warnings.size(), 1u);  // the "router#sh qos int po33" prompt
  EXPECT_EQ(r.warnings[0].line, 1);
}

TEST(SwitchRules, RoceQosMismatchBetweenTheHostAndItsSwitchPort) {
  TempDir d;
  WritePlanOutputs(Plan(ParseSpec(kAristaSpec, "arista.yaml")), Catalog::Builtin(), (d.path / "plan").string());
  auto plan = std::make_shared<HostPlan>(LoadPlannedFabric((d.path / "plan" / "plan.json").string(), true));
  // node001's mlx5_0 (cable to compute-leaf-su01-r1 Et1/1): a ConnectX-5's real mlnx_qos, trust DSCP and PFC on 3.
  HostFacts host;
  host.hostname = "node001";
  RdmaFacts rdma;
  rdma.ca.name = "mlx5_0";
  rdma.netdev = "ens1f0np0";
  host.rdma = {rdma};
  NetdevFacts nd;
  nd.name = "ens1f0np0";
  nd.kind = "physical";
  nd.qos = ParseMlnxQos(Fixture("mlnx_qos/cx5-os-controlled-dscp-pfc3-vendor-tsa.txt"));
  ASSERT_EQ(nd.qos->trust, "dscp");
  ASSERT_EQ(nd.qos->PfcPriorities(), std::vector<int>{3});
  host.netdevs = {nd};
  auto leaf = [](const std::string& qos_file, const std::string& qos_text) {
    TempDir sw;
    sw.Put("hostname.txt", "compute-leaf-su01-r1\n");
    sw.Put("eos-show-interfaces-status.txt",
           "Port       Name        Status       Vlan     Duplex Speed  Type         Flags Encapsulation\n"
           "Et1/1      COMP-000001 connected    routed   full   400G   400GBASE-SR4                   \n");
    sw.Put(qos_file, qos_text);
    return CollectSwitchFrom(sw.path.string());
  };
  auto run = [&](const SwitchFacts& sw) {
    Doctor doctor(DoctorPolicy{}, plan);
    doctor.AddHost(host);
    doctor.AddSwitch(sw);
    std::vector<Finding> out;
    for (const Finding& f : doctor.Finish().findings) {
      if (f.rule == "roce-qos-mismatch") out.push_back(f);
    }
    return out;
  };
  // EOS: Et1/1 trusts DSCP but marks ECN in no queue (the DOC layout, for Et1/1).
  std::string eos = Fixture("switch/eos/show-qos-interfaces-portchannel-trust-dscp-shaping-DOC.txt");
  eos.replace(eos.find("Port-Channel33:"), 15, "Ethernet1/1:");
  SwitchFacts arista = leaf("eos-show-qos-interfaces.txt", eos);
  ASSERT_TRUE(arista.ports[0].qos);
  std::vector<Finding> found = run(arista);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].host, "node001");
  EXPECT_EQ(found[0].object, "port mlx5_0");
  EXPECT_NE(found[0].message.find("marks no ECN in traffic class 3"), std::string::npos) << found[0].message;
  EXPECT_EQ(found[0].message.find("PFC"), std::string::npos);  // EOS PFC was not read: not judged
  // The switch-wide NVUE QoS, lossy (PFC "-"): the PFC priorities disagree; ECN on 0,3 agrees.
  SwitchFacts lossy = leaf("nvue-show-qos-roce.txt", Fixture("switch/nvue/nv-show-qos-roce-ref-lossy-pfc-dash-4pools.txt"));
  ASSERT_TRUE(lossy.qos);
  found = run(lossy);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("PFC is on priorities 3 at the host and none at the switch"), std::string::npos)
      << found[0].message;
  // The lossless NVUE QoS on PFC 3 with ECN on TC 3: the ends agree, no finding.
  EXPECT_TRUE(
      run(leaf("nvue-show-qos-roce.txt", Fixture("switch/nvue/nv-show-qos-roce-cl515-lossless-single-ipool.txt"))).empty());
  // The QoS round-trips through the switch facts document.
  SwitchFacts back = ParseSwitchFactsJson(SwitchFactsJson(lossy), "x");
  ASSERT_TRUE(back.qos);
  EXPECT_TRUE(back.qos->pfc_read);
  EXPECT_EQ(back.qos->ecn_tcs, (std::vector<int>{0, 3}));
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// --- switch-config-drift: the running configuration against what `railyard config switches` writes ---

TEST(ConfigDrift, EosEntriesNestBlocksAndSkipComments) {
  ConfigEntries avd = EosConfigEntries(Fixture("eos/avd-intended-configs.cfg"));
  EXPECT_EQ(avd.count("router bgp 65101 > router-id 192.168.42.42"), 1u);
  for (const auto& [key, value] : avd) EXPECT_NE(key[0], '!') << key;
  ConfigEntries nested = EosConfigEntries(
      "qos profile P\n   qos trust dscp\n   !\n   tx-queue 3\n      random-detect ecn\n   priority-flow-control on\n!\nend\n");
  EXPECT_EQ(nested.count("qos profile P > tx-queue 3 > random-detect ecn"), 1u);
  EXPECT_EQ(nested.count("qos profile P > priority-flow-control on"), 1u);
  EXPECT_EQ(nested.size(), 5u);
}

TEST(SwitchRules, ConfigDriftOnEosSonicAndNvue) {
  TempDir d;
  WritePlanOutputs(Plan(ParseSpec(kAristaSpec, "arista.yaml")), Catalog::Builtin(), (d.path / "plan").string());
  const std::string plan_json = (d.path / "plan" / "plan.json").string();
  auto plan = std::make_shared<HostPlan>(LoadPlannedFabric(plan_json, true));
  SwitchConfigs configs = ReadSwitchConfigs(plan_json);
  const SwitchConfig& leaf = configs.switches.front();
  ASSERT_EQ(leaf.name, "compute-leaf-su01-r1");
  // The running configuration EOS would print after `configure replace` of railyard's file: no
  // "no shutdown" (a default), the site's own lines added. Then Et1/5's MTU changed by hand and the
  // PFC no-drop line removed.
  std::string eos = EosConfig(leaf, configs.plan_name);
  for (size_t at; (at = eos.find("   no shutdown\n")) != std::string::npos;) eos.erase(at, 15);
  eos += "ntp server 10.1.1.1\n";
  auto run = [&](const std::string& running, const std::string& os) {
    TempDir sw;
    sw.Put("hostname.txt", "compute-leaf-su01-r1\n");
    sw.Put("eos-show-interfaces-status.txt",
           "Port       Name        Status       Vlan     Duplex Speed  Type         Flags Encapsulation\n"
           "Et1/1      COMP-000001 connected    routed   full   400G   400GBASE-SR4                   \n");
    sw.Put(os == "eos" ? "eos-show-running-config.txt" : os == "sonic" ? "sonic-config-db.json" : "nvue-config.yaml", running);
    SwitchFacts f = CollectSwitchFrom(sw.path.string());
    Doctor doctor(DoctorPolicy{}, plan);
    doctor.SetSwitchConfigPlan(plan_json);
    doctor.AddSwitch(ParseSwitchFactsJson(SwitchFactsJson(f), "x"));  // through the document, as doctor reads it
    std::vector<Finding> out;
    for (const Finding& x : doctor.Finish().findings) {
      if (x.rule == "switch-config-drift") out.push_back(x);
    }
    return out;
  };
  EXPECT_TRUE(run(eos, "eos").empty());  // as applied: no drift, defaults and the site's lines are no drift
  std::string changed = eos;
  const size_t et15 = changed.find("interface Ethernet1/5\n");
  ASSERT_NE(et15, std::string::npos);
  changed.replace(changed.find("mtu 9214", et15), 8, "mtu 1500");
  changed.erase(changed.find("   priority-flow-control priority 3 no-drop\n"), 44);
  std::vector<Finding> found = run(changed, "eos");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("2 of what the plan's configuration sets differ"), std::string::npos) << found[0].message;
  bool mtu = false, pfc = false;
  for (const auto& [key, value] : found[0].evidence) {
    mtu = mtu || key == "interface Ethernet1/5 > mtu 9214";
    pfc = pfc || key == "qos profile RAILYARD-ROCE > priority-flow-control priority 3 no-drop";
  }
  EXPECT_TRUE(mtu && pfc);
  // A running configuration of another OS than railyard writes for this switch (NVUE on an Arista):
  // said as not compared, not passed as clean.
  found = run("- set:\n    system:\n      hostname: x\n", "nvue");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kInfo);
  // A plan that yields no switch configuration (here: none can be read): the running configuration
  // is said as not compared, with why, not passed as clean.
  {
    TempDir sw;
    sw.Put("hostname.txt", "compute-leaf-su01-r1\n");
    sw.Put("eos-show-interfaces-status.txt",
           "Port       Name        Status       Vlan     Duplex Speed  Type         Flags Encapsulation\n"
           "Et1/1      COMP-000001 connected    routed   full   400G   400GBASE-SR4                   \n");
    sw.Put("eos-show-running-config.txt", eos);
    Doctor doctor(DoctorPolicy{}, plan);
    doctor.SetSwitchConfigPlan((d.path / "no-such-plan.json").string());
    doctor.AddSwitch(CollectSwitchFrom(sw.path.string()));
    std::vector<Finding> unchecked;
    for (const Finding& x : doctor.Finish().findings) {
      if (x.rule == "switch-config-drift") unchecked.push_back(x);
    }
    ASSERT_EQ(unchecked.size(), 1u);
    EXPECT_EQ(unchecked[0].severity, Severity::kInfo);
    EXPECT_NE(unchecked[0].message.find("was not compared"), std::string::npos) << unchecked[0].message;
  }
}

TEST(ConfigDrift, SonicAndNvueEntriesCompareByValue) {
  std::string error;
  ConfigEntries expected = SonicConfigEntries(
      R"({"PORT": {"Ethernet0": {"mtu": "9100", "fec": "rs"}}, "INTERFACE": {"Ethernet0|10.0.0.1/31": {}}})", error);
  ConfigEntries running = SonicConfigEntries(
      R"({"PORT": {"Ethernet0": {"mtu": "1500", "fec": "rs", "admin_status": "up"}}, "INTERFACE": {}})", error);
  EXPECT_TRUE(error.empty());
  std::vector<DriftItem> drift = ConfigDrift(expected, running);
  ASSERT_EQ(drift.size(), 2u);
  EXPECT_EQ(drift[0].key, "INTERFACE > Ethernet0|10.0.0.1/31");
  EXPECT_TRUE(drift[0].missing);
  EXPECT_EQ(drift[1].key, "PORT > Ethernet0 > mtu");
  EXPECT_EQ(drift[1].running, "1500");
  // NVUE: `nv config show -o yaml` puts a header item before the set tree.
  ConfigEntries nv = NvueConfigEntries(
      "- header:\n    model: SN5600\n- set:\n    interface:\n      swp1:\n        link:\n          mtu: 9216\n      lo:\n        "
      "ip:\n          address:\n            10.255.0.0/32: {}\n",
      error);
  EXPECT_EQ(nv.at("interface > swp1 > link > mtu"), "9216");
  EXPECT_EQ(nv.count("interface > lo > ip > address > 10.255.0.0/32"), 1u);
  EXPECT_EQ(nv.count("model"), 0u);
  SonicConfigEntries("[1, 2]", error);
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// The no-link-light walk on the ibsim capture: lab002's mlx5_4 is dark; with the plan the walk knows
// its cable goes to compute-leaf-001 port 7 and finds that port Down/Polling in the fabric's iblinkinfo.
TEST(SwitchRules, NoLinkLightWalkNamesTheSwitchEnd) {
  TempDir fabric;
  fabric.Put("iblinkinfo.txt", Fixture("switch/ib/iblinkinfo-ibsim-lab8-leaf-port7-unlinked.txt"));
  fabric.Put("ibqueryerrors.txt", Fixture("switch/ib/ibqueryerrors-ibsim-lab8-symbol-linkdowned-xmitdiscards.txt"));
  std::vector<SwitchFacts> switches = CollectSwitchesFrom(fabric.path.string()).switches;
  TempDir d;
  WritePlanOutputs(Plan(ParseSpec(ReadWholeFile(std::string(RAILYARD_SOURCE_DIR) + "/examples/lab-8-node.yaml"), "lab.yaml")),
                   Catalog::Builtin(), (d.path / "plan").string());
  std::shared_ptr<const HostPlan> plan =
      std::make_shared<HostPlan>(LoadPlannedFabric((d.path / "plan" / "plan.json").string(), true));
  HostFacts lab002;
  lab002.hostname = "lab002";
  RdmaFacts dark;
  dark.ca.name = "mlx5_4";
  IbstatPort port;
  port.number = 1;
  port.state = "Down";
  port.physical_state = "Polling";
  dark.ca.ports = {port};
  lab002.rdma = {dark};
  DoctorPolicy policy;
  policy.disabled_rules.insert("ib-link-degraded");  // ibsim trains every link at 4X SDR
  std::vector<StepResult> steps = RunSymptom("no-link-light", lab002, policy, switches, plan);
  const StepResult& end = steps.back();
  EXPECT_EQ(end.status, StepStatus::kFailed) << end.detail;
  EXPECT_NE(end.detail.find("compute-leaf-001 port 7"), std::string::npos) << end.detail;
  EXPECT_NE(end.detail.find("lab002 mlx5_4"), std::string::npos) << end.detail;
  // lab001, whose switch ends are up (port 3 has errors: a bandwidth matter, not a dark link).
  HostFacts lab001 = lab002;
  lab001.hostname = "lab001";
  steps = RunSymptom("no-link-light", lab001, policy, switches, plan);
  EXPECT_EQ(steps.back().status, StepStatus::kPassed) << steps.back().detail;
  steps = RunSymptom("bandwidth-below-rated", lab001, policy, switches, plan);
  EXPECT_EQ(steps.back().status, StepStatus::kFailed);
  EXPECT_NE(steps.back().detail.find("compute-leaf-001 port 3"), std::string::npos) << steps.back().detail;
  // Without switch facts for its ports: unknown, with the command.
  steps = RunSymptom("no-link-light", lab002, policy, {}, plan);
  EXPECT_EQ(steps.back().status, StepStatus::kUnknown);
  EXPECT_FALSE(steps.back().command.empty());
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(SonicCounters, PortstatTablesErrorsAndFec) {
  SwitchPortsReport big = ParseSonicCounters(Fixture("switch/sonic/show-interfaces-counters-docexample-large-comma-MBps.txt"));
  ASSERT_EQ(big.warnings.size(), 1u);  // the prompt between the two runs
  const SwitchPortFacts* e0 = Port(big, "Ethernet0");
  ASSERT_TRUE(e0);
  EXPECT_EQ(e0->errors.at("rx_drop"), 18682u);  // "18,682"; "653.87 MB/s" does not shift the columns
  EXPECT_EQ(e0->errors.at("rx"), 0u);
  // No dashes row under the header (pasted into an issue): the header words' edges place the cells.
  SwitchPortsReport bare =
      ParseSonicCounters(Fixture("switch/sonic/show-interfaces-counters-issue-9193-tx-drp-no-underline.txt"));
  ASSERT_EQ(bare.ports.size(), 1u);
  EXPECT_EQ(bare.ports[0].errors.at("tx_drop"), 9268210u);
  // N/A cells are not counters (the chassis supervisor's rows).
  SwitchPortsReport na =
      ParseSonicCounters(Fixture("switch/sonic/show-interfaces-counters-unittest-chassis-sup-all-NA-rows.txt"));
  EXPECT_TRUE(Port(na, "Ethernet11/1")->errors.empty());
  // fec-stats: a header cell with a space ("FLR(P) (Accuracy)") is read from the dashes row.
  TempDir d;
  d.Put("hostname.txt", "sonic-leaf\n");
  d.Put("sonic-show-interfaces-counters-fec-stats.txt", Fixture("switch/sonic/show-interfaces-counters-fec-stats-unittest.txt"));
  d.Put("sonic-show-interfaces-counters-errors.txt",
        Fixture("switch/sonic/show-interfaces-counters-unittest-state-D-NA-units.txt"));
  SwitchFacts f = CollectSwitchFrom(d.path.string());
  EXPECT_TRUE(f.warnings.empty());
  const SwitchPortFacts* fec = nullptr;
  for (const SwitchPortFacts& p : f.ports) {
    if (p.name == "Ethernet0") fec = &p;
  }
  ASSERT_TRUE(fec);
  EXPECT_EQ(fec->errors.at("fec_uncorrected"), 3u);  // both outputs' counters on one port
  EXPECT_EQ(fec->errors.at("rx_drop"), 100u);
  std::vector<Finding> found = RunSwitchRules(f, DoctorPolicy{}, nullptr);
  size_t uncorrected = 0;
  for (const Finding& x : found)
    uncorrected += x.rule == "port-error-counters-high" && x.message.find("fec_uncorrected") != std::string::npos;
  EXPECT_EQ(uncorrected, 2u);  // Ethernet0 (3) and Ethernet4 (1); drops are congestion, not judged
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(EosInterfacesStatus, TheJsonFormsAndTheirCauses) {
  SwitchPortsReport r =
      ParseEosInterfacesStatus(Fixture("switch/eos/show-interfaces-status-json-7160-notconnect-notpresent-breakout.json"));
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.ports.size(), 62u);
  size_t connected = 0, absent = 0;
  for (const SwitchPortFacts& p : r.ports) {
    connected += p.status == "connected";
    absent += !p.module_present;
  }
  EXPECT_EQ(connected, 3u);
  EXPECT_EQ(absent, 3u);  // "Not Present"
  const SwitchPortFacts* e1 = Port(r, "Ethernet1");
  ASSERT_TRUE(e1);
  EXPECT_EQ(e1->oper, "down");
  EXPECT_EQ(e1->vlan_mode, "trunk");
  EXPECT_EQ(e1->module_type, "10GBASE-T");
  SwitchPortsReport veos =
      ParseEosInterfacesStatus(Fixture("switch/eos/show-interfaces-status-json-veos-4.33-interfaceDamped-notconnect.json"));
  const SwitchPortFacts* e2 = Port(veos, "Ethernet2");
  ASSERT_TRUE(e2);
  EXPECT_DOUBLE_EQ(e2->speed_gbps, 1);  // bandwidth 1000000000 bit/s
  EXPECT_EQ(e2->duplex, "full");
  EXPECT_EQ(e2->vlan_mode, "access");
  EXPECT_EQ(e2->access_vlan, 1);
  // The errdisabled form (ANTA's test data: one case per document) gives status and causes.
  nlohmann::json cases = nlohmann::json::parse(Fixture("switch/eos/show-interfaces-status-errdisabled-json-causes-FIXTURE.json"));
  SwitchPortsReport bpdu = ParseEosInterfacesStatus(cases["bpduguard_case"].dump());
  ASSERT_EQ(bpdu.ports.size(), 1u);
  EXPECT_EQ(bpdu.ports[0].status, "errdisabled");
  EXPECT_EQ(bpdu.ports[0].reason, "bpduguard");
  // Merged by the long name into a text status table's short one.
  TempDir d;
  d.Put("eos-show-interfaces-status.txt",
        "Port       Name   Status       Vlan     Duplex Speed  Type         Flags Encapsulation\n"
        "Et2                errdisabled  1        full   10G    10GBASE-SR                     \n");
  d.Put("eos-show-interfaces-status-errdisabled.json", cases["bpduguard_case"].dump());
  SwitchFacts f = CollectSwitchFrom(d.path.string());
  ASSERT_EQ(f.ports.size(), 1u);
  EXPECT_EQ(f.ports[0].reason, "bpduguard");
  EXPECT_FALSE(ParseEosInterfacesStatus("{\"x\": 1}").warnings.empty());
}

}  // namespace
}  // namespace railyard
