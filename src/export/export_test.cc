#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/exporters.h"
#include "export/plan_outputs.h"
#include "export/summary.h"
#include "export/write_all.h"
#include "plan/test_specs.h"
#include "util/csv.h"
#include "util/hostlist.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("railyard-export-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    result_ = Plan(testing::ParseOrDie(testing::SuperPodYaml(63, "  - {name: oob, kind: ethernet, speed: 1G, switch: SN2201}\n",
                                                             "  oob: {prefix: 192.168.0.0/22, vlan: 10}\n")));
    files_ = WritePlanOutputs(result_, Catalog::Builtin(), dir_.string());
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  PlanResult result_;
  std::vector<std::string> files_;
};

// The writer writes exactly the table's files (a per-plane row once per InfiniBand plane) and the
// manifest, and leaves nothing else in the directory: no temporaries, no file the table does not name.
TEST_F(ExportTest, WritesExactlyTheDeclaredOutputsAndNoTemporaries) {
  std::set<std::string> want = {kPlanManifest};
  for (const PlanOutput& row : PlanOutputs()) {
    if (row.scope != OutputScope::kPerInfinibandPlane) want.insert(row.name);
    for (const Plane& plane : result_.fabric.planes) {
      if (row.scope == OutputScope::kPerInfinibandPlane && plane.kind == FabricKind::kInfiniband)
        want.insert(PlanOutputName(row, plane.name));
    }
  }
  EXPECT_TRUE(want.count("ibnetdiscover-compute.topo"));
  EXPECT_EQ(std::set<std::string>(files_.begin(), files_.end()), want);
  std::set<std::string> present;
  for (const auto& entry : fs::directory_iterator(dir_)) present.insert(entry.path().filename().string());
  EXPECT_EQ(present, want);
}

TEST_F(ExportTest, PlanJsonIsTheWholeFabric) {
  auto j = nlohmann::json::parse(Read(dir_ / "plan.json"));
  EXPECT_EQ(j["schema"], "railyard.plan/1");
  EXPECT_EQ(j["links"].size(), result_.fabric.links.size());
  EXPECT_EQ(j["devices"].size(), result_.fabric.devices.size());
  EXPECT_EQ(j["planes"][0]["switches"]["leaf"]["count"], 16);
  EXPECT_EQ(j["planes"][0]["switches"]["spine"]["count"], 8);
  EXPECT_EQ(j["planes"][0]["links"]["endpoint-leaf"], 508);
  const auto& link = j["links"][0];
  EXPECT_EQ(link["label"], "COMP-000001");
  EXPECT_EQ(link["a"]["device"], "dgx001");
  EXPECT_EQ(link["a"]["port"], "mlx5_0");
  EXPECT_EQ(link["z"]["device"], "compute-leaf-su01-r1");
  EXPECT_TRUE(link.contains("length_m"));
  std::set<std::string> labels;
  for (const auto& l : j["links"]) EXPECT_TRUE(labels.insert(l["label"].get<std::string>()).second);
}

// plan.html's data blocks: each parses as JSON and holds the whole plan; the cables point at devices
// and strings that exist.
std::string Block(const std::string& html, const std::string& id) {
  const std::string open = "<script type=\"application/json\" id=\"" + id + "\">";
  const size_t from = html.find(open);
  if (from == std::string::npos) return {};
  const size_t start = from + open.size();
  return html.substr(start, html.find("</script>", start) - start);
}

TEST_F(ExportTest, PlanHtmlCarriesTheWholePlanInItsDataBlocks) {
  const std::string html = Read(dir_ / "plan.html");
  ASSERT_FALSE(html.empty());
  EXPECT_EQ(html.find("@DATA@"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);  // self-contained: nothing to fetch
  auto cables = nlohmann::json::parse(Block(html, "rd-cables"));
  auto devices = nlohmann::json::parse(Block(html, "rd-devices"));
  auto strings = nlohmann::json::parse(Block(html, "rd-strings"));
  auto summary = nlohmann::json::parse(Block(html, "rd-summary"));
  ASSERT_EQ(cables.size(), result_.fabric.links.size());
  ASSERT_EQ(devices.size(), result_.fabric.devices.size());
  EXPECT_EQ(nlohmann::json::parse(Block(html, "rd-racks")).size(), result_.fabric.racks.size());
  EXPECT_EQ(nlohmann::json::parse(Block(html, "rd-bom")).size(), result_.bom.lines.size());
  EXPECT_EQ(summary["planes"].size(), result_.fabric.planes.size());
  EXPECT_EQ(cables[0][0], "COMP-000001");
  EXPECT_EQ(devices[cables[0][3].get<size_t>()][0], "dgx001");
  EXPECT_EQ(strings[cables[0][4].get<size_t>()], "mlx5_0");
  for (const auto& c : cables) {
    ASSERT_LT(c[3].get<size_t>(), devices.size());
    ASSERT_LT(c[9].get<size_t>(), strings.size());
  }
}

TEST(PlanHtml, AHostileStringCannotCloseItsScriptBlock) {
  PlanResult result = Plan(testing::ParseOrDie(testing::SuperPodYaml(4, "", "")));
  Finding f;
  f.rule = "x";
  f.severity = Severity::kWarning;
  f.message = "</script><script>alert(1)</script><!--";
  result.findings.push_back(f);
  const fs::path dir = fs::temp_directory_path() / ("railyard-html-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  WritePlanOutputs(result, Catalog::Builtin(), dir.string());
  const std::string html = Read(dir / "plan.html");
  fs::remove_all(dir);
  const std::string findings = Block(html, "rd-findings");
  EXPECT_EQ(findings.find('<'), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(findings).back()["message"], f.message);  // the text survives, as text
  EXPECT_EQ(html.find("alert(1)</script>"), std::string::npos);
}

TEST_F(ExportTest, CutsheetHasEachLinkOnce) {
  CsvTable t = ParseCsv(Read(dir_ / "cutsheet.csv"), "cutsheet.csv");
  EXPECT_EQ(t.rows.size(), result_.fabric.links.size());
  int cable = t.Column("cable");
  int length = t.Column("length_m");
  for (const CsvRow& row : t.rows) {
    EXPECT_FALSE(row.fields[static_cast<size_t>(cable)].empty()) << row.line;
    EXPECT_GT(std::stod(row.fields[static_cast<size_t>(length)]), 0) << row.line;
  }
}

TEST_F(ExportTest, LabelsCarryTheSameIdAtBothEnds) {
  CsvTable t = ParseCsv(Read(dir_ / "labels.csv"), "labels.csv");
  ASSERT_EQ(t.rows.size(), 2 * result_.fabric.links.size());
  std::map<std::string, std::set<std::string>> ends;
  for (const CsvRow& row : t.rows) ends[row.fields[0]].insert(row.fields[1]);
  for (const auto& [label, e] : ends) EXPECT_EQ(e, (std::set<std::string>{"A", "Z"})) << label;
  // The A end's flag names the Z end, and the other way round.
  // A flag holds at most 40 printable characters: the far end by device, cage/lane, rack and U as fits.
  int text = t.Column("text"), peer_cage = t.Column("peer_cage"), cable = t.Column("cable"), length = t.Column("length_m");
  ASSERT_GE(text, 0);
  EXPECT_EQ(t.rows[0].fields[static_cast<size_t>(text)], "COMP-000001 > compute-leaf-su01-r1:1/1");
  EXPECT_EQ(t.rows[0].fields[static_cast<size_t>(peer_cage)], "1/1");
  EXPECT_EQ(t.rows[1].fields[static_cast<size_t>(text)], "COMP-000001 > dgx001:mlx5_0 r01-01 U1");
  for (const CsvRow& row : t.rows) {
    const std::string& flag = row.fields[static_cast<size_t>(text)];
    EXPECT_LE(flag.size(), 40u) << flag;
    EXPECT_TRUE(std::all_of(flag.begin(), flag.end(), [](char c) { return c >= 0x20 && c < 0x7f; })) << flag;
    EXPECT_FALSE(row.fields[static_cast<size_t>(cable)].empty()) << row.line;
    EXPECT_GT(std::stod(row.fields[static_cast<size_t>(length)]), 0) << row.line;
  }
}

TEST_F(ExportTest, SlurmTreeHasOneSwitchPerScalableUnit) {
  std::string conf = Read(dir_ / "topology.conf");
  EXPECT_NE(conf.find("SwitchName=compute-su01 Nodes=dgx[001-032]\n"), std::string::npos) << conf;
  EXPECT_NE(conf.find("SwitchName=compute-su02 Nodes=dgx[033-063]\n"), std::string::npos) << conf;
  EXPECT_NE(conf.find("SwitchName=compute-spine Switches=compute-su[01-02]\n"), std::string::npos) << conf;
  EXPECT_EQ(conf.find("ufm"), std::string::npos);  // appliances are not Slurm nodes
}

TEST_F(ExportTest, IbnetdiscoverListsEverySwitchAndCaPort) {
  std::string topo = Read(dir_ / "ibnetdiscover-compute.topo");
  size_t switches = 0, cas = 0, pos = 0;
  while ((pos = topo.find("\nSwitch\t", pos)) != std::string::npos) ++switches, ++pos;
  pos = 0;
  while ((pos = topo.find("\nCa\t", pos)) != std::string::npos) ++cas, ++pos;
  EXPECT_EQ(switches, 24u);
  EXPECT_EQ(cas, 63u * 8 + 4);
  EXPECT_NE(topo.find("# \"dgx001 mlx5_0\""), std::string::npos);
}

TEST_F(ExportTest, DotAndNetbox) {
  std::string dot = Read(dir_ / "topology.dot");
  EXPECT_EQ(dot.rfind("graph \"test\" {\n", 0), 0u);
  // Host edges are matched by port description (hosts send a MAC port id); switch-to-switch edges by ifname.
  EXPECT_NE(dot.find("    \"dgx001\":\"mlx5_0\" -- \"compute-leaf-su01-r1\":\"1\" [LLDP=\"match_type=portdescr\"]\n"),
            std::string::npos);
  size_t spine = dot.find("-- \"compute-spine-");
  ASSERT_NE(spine, std::string::npos);
  EXPECT_EQ(dot.substr(spine, dot.find('\n', spine) - spine).find("LLDP"), std::string::npos);
  CsvTable nb = ParseCsv(Read(dir_ / "netbox-8-cables.csv"), "netbox-8-cables.csv");
  EXPECT_EQ(nb.header[0], "side_a_device");
  EXPECT_EQ(nb.rows.size(), result_.fabric.links.size());
  EXPECT_EQ(nb.rows[0].fields[1], "dcim.interface");
}

TEST_F(ExportTest, IpPlanHasManagementAddresses) {
  CsvTable ip = ParseCsv(Read(dir_ / "ip-plan.csv"), "ip-plan.csv");
  size_t mgmt = 0;
  for (const CsvRow& row : ip.rows) mgmt += row.fields[1] == "mgmt" ? 1 : 0;
  // 63 BMCs + 24 compute switches + the out-of-band switches themselves.
  EXPECT_EQ(mgmt, 63u + 24 + result_.fabric.planes[1].switch_count);
}

TEST(Export, FailsCleanlyWhenTheDirectoryCannotBeMade) {
  PlanResult r = Plan(testing::ParseOrDie(testing::SuperPodYaml(31)));
  fs::path file = fs::temp_directory_path() / ("railyard-not-a-dir-" + std::to_string(::getpid()));
  std::ofstream(file) << "x";
  EXPECT_THROW(WritePlanOutputs(r, Catalog::Builtin(), (file / "sub").string()), std::runtime_error);
  fs::remove(file);
}

TEST(Export, CompressHostlist) {
  EXPECT_EQ(CompressHostlist({"node001", "node002", "node003"}), "node[001-003]");
  EXPECT_EQ(CompressHostlist({"n1", "n2", "n4", "n5", "x"}), "n[1-2,4-5],x");
  EXPECT_EQ(CompressHostlist({"a01"}), "a01");
  EXPECT_EQ(CompressHostlist({"a9", "a10"}), "a9,a10");  // widths differ: no common range
}

TEST(Export, SummaryJsonHasTheContractKeys) {
  PlanResult r = Plan(testing::ParseOrDie(testing::SuperPodYaml(127)));
  auto j = PlanSummaryJson(r, Catalog::Builtin());
  const auto& p = j["planes"][0];
  EXPECT_EQ(p["name"], "compute");
  EXPECT_EQ(p["endpoints"], 1020);
  EXPECT_EQ(p["switches"]["leaf"], 32);
  EXPECT_EQ(p["switches"]["spine"], 16);
  EXPECT_EQ(p["switches"]["core"], 0);
  EXPECT_EQ(p["links"]["endpoint-leaf"], 1020);
  EXPECT_EQ(p["links"]["leaf-spine"], 1024);
  EXPECT_EQ(p["links"]["spine-core"], 0);
  EXPECT_EQ(p["oversubscription"]["leaf"], "1:1");
  EXPECT_EQ(p["bisection_gbps"], 204000.0);
  EXPECT_EQ(j["bom"]["switches"], 48);
}

TEST(Export, JsonEscapesHostileStrings) { EXPECT_EQ(JsonQuote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\""); }

TEST(OutputSet, AllOrNothingWhenARenameFails) {
  fs::path dir = fs::temp_directory_path() / ("railyard-commitall-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* name : {"a.txt", "b.txt", "c.txt"}) std::ofstream(dir / name) << "old " << name;
  {
    OutputFile a((dir / "a.txt").string()), b((dir / "b.txt").string()), c((dir / "c.txt").string());
    a.Append("new a");
    b.Append("new b");
    c.Append("new c");
    int calls = 0;
    // The third file's rename into place fails: the first two must be the old files again.
    auto failing = [&](const char* from, const char* to) {
      if (std::string_view(to).ends_with("c.txt") && ++calls == 1) {
        errno = EIO;
        return -1;
      }
      return std::rename(from, to);
    };
    EXPECT_THROW(CommitAll({&a, &b, &c}, failing), std::runtime_error);
  }
  auto read = [&](const char* name) {
    std::ifstream in(dir / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  EXPECT_EQ(read("a.txt"), "old a.txt");
  EXPECT_EQ(read("b.txt"), "old b.txt");
  EXPECT_EQ(read("c.txt"), "old c.txt");
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 3u);  // no temporary or backup left behind
  {
    OutputFile a((dir / "a.txt").string());
    a.Append("new a");
    CommitAll({&a});
  }
  EXPECT_EQ(read("a.txt"), "new a");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// Interface names in netbox-8-cables.csv follow the NetBox device-type library for the switch model
// (catalog column netbox_interface): the names the imported device type's interfaces carry.
std::map<std::string, std::string> NetboxNames(const std::string& yaml) {
  PlanResult r = Plan(testing::ParseOrDie(yaml));
  ExportContext ctx(r, Catalog::Builtin());
  std::map<std::string, std::string> names;  // "device:plan port" -> NetBox interface
  for (const Link& l : r.fabric.links) {
    for (PortRef ref : {l.a, l.z}) names[r.fabric.devices[ref.device].name + ":" + ctx.ports(ref)] = NetboxInterface(ctx, ref);
  }
  return names;
}

std::string OneLeaf(const std::string& nic, const std::string& speed, const std::string& sw) {
  return "name: t\nnodes: {count: 4, gpus: 8, pcie: gen5, per_rack: 2}\nplanes:\n  - {name: compute, kind: infiniband, nic: " +
         nic + ", ports_per_node: 8, speed: " + speed + ", switch: " + sw + "}\n";
}

TEST(NetboxInterfaces, FollowTheDeviceTypeLibraryPerModel) {
  // QM9700 (nvidia-qm9700): P<cage-1>.<lane-1>; IB port 1 is cage 1 lane 1, port 32 cage 16 lane 2.
  auto qm9700 = NetboxNames(OneLeaf("MCX75310AAS-NEAT", "400G", "QM9700"));
  EXPECT_EQ(qm9700.at("compute-leaf-001:1"), "P0.0");
  EXPECT_EQ(qm9700.at("compute-leaf-001:32"), "P15.1");
  // QM8700 (mellanox-qm8700): IB1/<port>.
  auto qm8700 = NetboxNames(OneLeaf("MCX653105A-HDAT", "200G", "QM8700"));
  EXPECT_EQ(qm8700.at("compute-leaf-001:7"), "IB1/7");
  // QM8790 (mellanox-qm8790): swp<port>.
  auto qm8790 = NetboxNames(OneLeaf("MCX653105A-HDAT", "200G", "QM8790"));
  EXPECT_EQ(qm8790.at("compute-leaf-001:7"), "swp7");
  // A QM9700 split to 200G (4 ports per cage) has no such interfaces in the library: the plan's names stand.
  auto split = NetboxNames(OneLeaf("MCX653105A-HDAT", "200G", "QM9700"));
  EXPECT_EQ(split.at("compute-leaf-001:7"), "7");
  // Hosts keep their RDMA device names.
  EXPECT_EQ(qm9700.at("node001:mlx5_0"), "mlx5_0");
}

TEST(NetboxInterfaces, CatalogRejectsAnUnknownPlaceholder) {
  const std::string sw =
      "model,opns,vendor,fabric,port_naming,cages,cage,ports,uplink_cage,uplink_ports,rack_units,typical_power_w,"
      "max_power_w,airflow,netbox_device_type,netbox_interface,source,confidence\n"
      "X,,V,infiniband,ib,32,osfp,400:64,,,1,,,,x,P{slot}.{lane},src,H\n";
  try {
    Catalog::FromCsv(sw, "opn\n", "opn\n");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("switches.csv:2: column netbox_interface"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

std::string LabYaml(const std::string& kind, const std::string& pcie) {
  return "name: lab\nnodes: {count: 8, gpus: 8, pcie: " + pcie +
         ", per_rack: 2}\nplanes:\n"
         "  - {name: compute, kind: " +
         kind +
         ", nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: " + (kind == "infiniband" ? "QM9700" : "SN5600") +
         "}\n";
}

TEST(PlanOutputSet, ReplanningRemovesWhatTheLastPlanWroteAndNothingElse) {
  const fs::path dir = fs::temp_directory_path() / ("railyard-replan-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  WritePlanOutputs(Plan(testing::ParseOrDie(LabYaml("infiniband", "gen5"))), Catalog::Builtin(), dir.string());
  ASSERT_TRUE(fs::exists(dir / "ibnetdiscover-compute.topo"));
  ASSERT_TRUE(fs::exists(dir / "opensm-root-guids-compute.txt"));
  std::ofstream(dir / "notes.txt") << "the architect's own file\n";
  // The same plane as RoCE: no InfiniBand exports any more.
  auto files = WritePlanOutputs(Plan(testing::ParseOrDie(LabYaml("roce", "gen5"))), Catalog::Builtin(), dir.string());
  EXPECT_FALSE(fs::exists(dir / "ibnetdiscover-compute.topo"));
  EXPECT_FALSE(fs::exists(dir / "opensm-root-guids-compute.txt"));
  EXPECT_FALSE(fs::exists(dir / "opensm-cn-guids-compute.txt"));
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));  // never listed in a manifest: never removed
  // The manifest lists exactly the files now there, with their sizes.
  std::ifstream manifest(dir / kPlanManifest);
  std::string line;
  size_t listed = 0;
  while (std::getline(manifest, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string name = line.substr(0, line.find('\t'));
    size_t bytes = std::stoul(line.substr(line.find('\t') + 1));
    EXPECT_EQ(fs::file_size(dir / name), bytes) << name;
    ++listed;
  }
  EXPECT_EQ(listed + 1, files.size());  // every file but the manifest itself
  // A manifest naming a path outside the directory removes nothing there.
  std::ofstream(dir / kPlanManifest, std::ios::app) << "../outside.txt\t1\t0\n";
  std::ofstream(dir.parent_path() / "outside.txt") << "x";
  WritePlanOutputs(Plan(testing::ParseOrDie(LabYaml("roce", "gen5"))), Catalog::Builtin(), dir.string());
  EXPECT_TRUE(fs::exists(dir.parent_path() / "outside.txt"));
  fs::remove(dir.parent_path() / "outside.txt");
  fs::remove_all(dir);
}

TEST(PlanOutputSet, ForcedFilesSayNotForOrderingFirst) {
  const fs::path dir = fs::temp_directory_path() / ("railyard-force-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  PlanResult bad = Plan(testing::ParseOrDie(LabYaml("infiniband", "gen3")));  // 400G on Gen3: an error finding
  ASSERT_TRUE(AnyAtOrAbove(bad.findings, Severity::kError));
  WriteOptions force;
  force.not_for_ordering = "written with --force despite 1 error finding(s)";
  auto files = WritePlanOutputs(bad, Catalog::Builtin(), dir.string(), force);
  for (const std::string& name : files) {
    std::string text = Read(dir / name);
    SCOPED_TRACE(name);
    if (name == "plan.json") {
      EXPECT_EQ(nlohmann::json::parse(text)["not_for_ordering"], force.not_for_ordering);
    } else if (name == "plan.index") {
      EXPECT_NE(text.find("\n# NOT FOR ORDERING: "), std::string::npos);
    } else {
      EXPECT_NE(text.find("NOT FOR ORDERING: written with --force"), std::string::npos);
      EXPECT_LT(text.find("NOT FOR ORDERING"), text.find('\n'));  // on the first line
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// NetBox 4.6.8's bulk-import forms (netbox/dcim/forms/bulk_import.py at 43fe81f9e833, the Meta
// `fields` of each form) and the columns a create needs; choice values from netbox/dcim/choices.py.
struct ImportForm {
  const char* file;
  std::set<std::string> fields;
  std::set<std::string> required;
};

const std::vector<ImportForm>& NetboxForms() {
  static const std::vector<ImportForm> forms = {
      {"netbox-1-sites.csv",
       {"name", "slug", "status", "region", "group", "tenant", "facility", "time_zone", "description", "physical_address",
        "shipping_address", "latitude", "longitude", "owner", "comments", "tags"},
       {"name", "slug", "status"}},
      {"netbox-2-racks.csv",
       {"site",       "location",    "group",        "name",        "facility_id", "tenant",         "status",
        "role",       "rack_type",   "form_factor",  "serial",      "asset_tag",   "width",          "u_height",
        "desc_units", "outer_width", "outer_height", "outer_depth", "outer_unit",  "mounting_depth", "airflow",
        "weight",     "max_weight",  "weight_unit",  "description", "owner",       "comments",       "tags"},
       {"site", "name", "status", "width", "u_height"}},  // width and u_height: no rack_type given
      {"netbox-3-manufacturers.csv", {"name", "slug", "description", "owner", "comments", "tags"}, {"name", "slug"}},
      {"netbox-4-device-types.csv",
       {"manufacturer", "default_platform", "model", "slug", "part_number", "u_height", "exclude_from_utilization",
        "is_full_depth", "subdevice_role", "airflow", "description", "weight", "weight_unit", "owner", "comments", "tags"},
       {"manufacturer", "model", "slug", "u_height"}},
      {"netbox-5-device-roles.csv",
       {"name", "slug", "parent", "color", "vm_role", "config_template", "description", "owner", "comments", "tags"},
       {"name", "slug", "color"}},
      {"netbox-6-devices.csv",
       {"name",        "role",      "tenant",      "manufacturer",    "device_type", "platform",        "serial",
        "asset_tag",   "status",    "site",        "location",        "rack",        "position",        "face",
        "latitude",    "longitude", "parent",      "device_bay",      "airflow",     "virtual_chassis", "vc_position",
        "vc_priority", "cluster",   "description", "config_template", "owner",       "comments",        "tags"},
       {"role", "manufacturer", "device_type", "status", "site", "name", "rack", "position", "face"}},
      {"netbox-7-interfaces.csv",
       {"device",
        "name",
        "label",
        "parent",
        "bridge",
        "lag",
        "type",
        "speed",
        "duplex",
        "enabled",
        "mark_connected",
        "wwn",
        "vdcs",
        "mtu",
        "mgmt_only",
        "description",
        "poe_mode",
        "poe_type",
        "mode",
        "vlan_group",
        "untagged_vlan",
        "tagged_vlans",
        "qinq_svlan",
        "vrf",
        "rf_role",
        "rf_channel",
        "rf_channel_frequency",
        "rf_channel_width",
        "tx_power",
        "owner",
        "tags"},
       {"device", "name", "type"}},
      {"netbox-8-cables.csv",
       {"side_a_site",
        "side_a_device",
        "side_a_power_panel",
        "side_a_type",
        "side_a_name",
        "side_b_site",
        "side_b_device",
        "side_b_power_panel",
        "side_b_type",
        "side_b_name",
        "type",
        "status",
        "profile",
        "tenant",
        "bundle",
        "label",
        "color",
        "length",
        "length_unit",
        "description",
        "owner",
        "comments",
        "tags"},
       {"side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name"}},
  };
  return forms;
}

const std::map<std::string, std::set<std::string>>& NetboxChoices() {
  static const std::map<std::string, std::set<std::string>> choices = {
      {"netbox-1-sites.csv:status", {"planned", "staging", "active", "decommissioning", "retired"}},
      {"netbox-2-racks.csv:status", {"reserved", "available", "planned", "active", "deprecated"}},
      {"netbox-2-racks.csv:width", {"10", "19", "21", "23"}},
      {"netbox-6-devices.csv:status", {"offline", "active", "planned", "staged", "failed", "inventory", "decommissioning"}},
      {"netbox-6-devices.csv:face", {"front", "rear"}},
      {"netbox-6-devices.csv:airflow", {"", "front-to-rear", "rear-to-front"}},
      {"netbox-7-interfaces.csv:type",
       {"infiniband-edr", "infiniband-hdr", "infiniband-ndr", "infiniband-xdr", "1000base-t", "10gbase-t", "10gbase-x-sfpp",
        "25gbase-x-sfp28", "100gbase-x-qsfp28", "200gbase-x-qsfp56", "400gbase-x-qsfp112", "400gbase-x-qsfpdd", "400gbase-x-osfp",
        "800gbase-x-osfp", "other"}},
      {"netbox-7-interfaces.csv:mgmt_only", {"true", "false"}},
      {"netbox-8-cables.csv:status", {"connected", "planned", "decommissioning"}},
      {"netbox-8-cables.csv:type", {"cat6", "dac-active", "dac-passive", "mmf-om4", "smf-os2", "aoc"}},
      {"netbox-8-cables.csv:side_a_type", {"dcim.interface"}},
      {"netbox-8-cables.csv:side_b_type", {"dcim.interface"}},
      {"netbox-8-cables.csv:length_unit", {"km", "m", "cm", "mi", "ft", "in"}},
  };
  return choices;
}

TEST(NetboxImport, EveryFileHasTheColumnsAndValuesNetBoxTakes) {
  const fs::path dir = fs::temp_directory_path() / ("railyard-netbox-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  WritePlanOutputs(
      Plan(testing::ParseOrDie(testing::SuperPodYaml(63, "  - {name: oob, kind: ethernet, speed: 1G, switch: SN2201}\n",
                                                     "  oob: {prefix: 192.168.0.0/22, vlan: 10}\n"))),
      Catalog::Builtin(), dir.string());
  std::map<std::string, std::set<std::string>> names;  // file -> first column values (the names later files refer to)
  for (const ImportForm& form : NetboxForms()) {
    SCOPED_TRACE(form.file);
    CsvTable t = ParseCsv(Read(dir / form.file), form.file);
    ASSERT_FALSE(t.rows.empty());
    std::set<std::string> header(t.header.begin(), t.header.end());
    for (const std::string& column : header) EXPECT_TRUE(form.fields.count(column)) << "not a NetBox import column: " << column;
    for (const std::string& column : form.required) EXPECT_TRUE(header.count(column)) << "missing required column: " << column;
    for (const CsvRow& row : t.rows) {
      ASSERT_EQ(row.fields.size(), t.header.size()) << row.line;
      for (size_t c = 0; c < t.header.size(); ++c) {
        auto allowed = NetboxChoices().find(std::string(form.file) + ":" + t.header[c]);
        if (allowed != NetboxChoices().end()) {
          EXPECT_TRUE(allowed->second.count(row.fields[c])) << t.header[c] << " = '" << row.fields[c] << "' line " << row.line;
        }
        if (form.required.count(t.header[c])) {
          EXPECT_FALSE(row.fields[c].empty()) << t.header[c] << " line " << row.line;
        }
      }
      names[form.file].insert(row.fields[0]);
    }
  }
  // Every reference resolves to an object an earlier file created.
  CsvTable devices = ParseCsv(Read(dir / "netbox-6-devices.csv"), "devices");
  for (const CsvRow& row : devices.rows) {
    EXPECT_TRUE(names["netbox-5-device-roles.csv"].count(row.fields[static_cast<size_t>(devices.Column("role"))]));
    EXPECT_TRUE(names["netbox-2-racks.csv"].count(row.fields[static_cast<size_t>(devices.Column("site"))]));
  }
  CsvTable interfaces = ParseCsv(Read(dir / "netbox-7-interfaces.csv"), "interfaces");
  std::set<std::pair<std::string, std::string>> made;
  for (const CsvRow& row : interfaces.rows) {
    EXPECT_TRUE(names["netbox-6-devices.csv"].count(row.fields[0])) << row.fields[0];
    EXPECT_TRUE(made.insert({row.fields[0], row.fields[1]}).second)
        << "interface twice: " << row.fields[0] << " " << row.fields[1];
  }
  CsvTable cables = ParseCsv(Read(dir / "netbox-8-cables.csv"), "cables");
  for (const CsvRow& row : cables.rows) {
    EXPECT_TRUE(made.count({row.fields[0], row.fields[2]})) << row.fields[0] << " " << row.fields[2];
    EXPECT_TRUE(made.count({row.fields[3], row.fields[5]})) << row.fields[3] << " " << row.fields[5];
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace railyard
