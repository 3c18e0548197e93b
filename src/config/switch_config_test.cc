#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "config/switch_config.h"
#include "export/write_all.h"
#include "plan/planner.h"
#include "spec/spec.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// A routed (p2p31, BGP) RoCE compute plane, a host-mode storage plane on a VLAN, out-of-band.
const char* kSpec = R"(name: nvue
nodes: {count: 16, gpus: 8, pcie: gen5, per_rack: 4, name_prefix: gpu}
planes:
  - {name: compute, kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: SN5600,
     rail_optimized: true, tiers: 2}
  - {name: storage, kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 1, speed: 400G, switch: SN5600, tiers: 2}
  - {name: oob, kind: ethernet, speed: 1G, switch: SN2201}
addressing:
  compute: {prefix: 10.0.0.0/16, mode: p2p31, loopbacks: 10.254.0.0/24}
  storage: {prefix: 10.32.0.0/16, vlan: 200}
  oob: {prefix: 172.16.0.0/20, vlan: 10}
)";

SwitchConfigs Configs(const std::string& spec = kSpec) {
  const fs::path dir = fs::temp_directory_path() / ("railyard-nvue-" + std::to_string(::getpid()));
  WritePlanOutputs(Plan(ParseSpec(spec, "nvue.yaml")), Catalog::Builtin(), dir.string());
  SwitchConfigs c = ReadSwitchConfigs((dir / "plan.json").string());
  fs::remove_all(dir);
  return c;
}

// NVIDIA's published `nv set` paths (tests/fixtures/nvue/nv-set-paths-cl5.txt, with its sources):
// path -> the values the documentation allows ("" = not listed).
std::map<std::string, std::string> PublishedPaths() {
  std::ifstream in(fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/nvue/nv-set-paths-cl5.txt");
  EXPECT_TRUE(in) << "tests/fixtures/nvue/nv-set-paths-cl5.txt";
  std::map<std::string, std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    out[line.substr(0, tab)] = tab == std::string::npos ? "" : line.substr(tab + 1);
  }
  return out;
}

bool Allowed(const std::string& value, const std::string& allowed) {
  if (allowed.empty()) return true;
  static const std::regex kRange("^([0-9]+)-([0-9]+)$");
  size_t start = 0;
  while (start <= allowed.size()) {
    size_t bar = allowed.find('|', start);
    std::string alt = allowed.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    std::smatch m;
    if (alt == value) return true;
    if (std::regex_match(alt, m, kRange) && !value.empty() && value.find_first_not_of("0123456789") == std::string::npos) {
      uint64_t v = std::stoull(value);
      if (v >= std::stoull(m[1]) && v <= std::stoull(m[2])) return true;
    }
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return false;
}

// Every leaf of an NVUE YAML document as `nv set` words, identifiers as the documentation writes them.
void Flatten(const YAML::Node& node, std::vector<std::string> path, std::vector<std::pair<std::string, std::string>>& out) {
  static const std::map<std::string, std::string> kIdentifier = {
      {"interface", "<interface-id>"}, {"domain", "<domain-id>"}, {"vlan", "<vid>"}, {"address", "<ip-prefix-id>"},
      {"neighbor", "<neighbor-id>"},   {"vrf", "<vrf-id>"},       {"breakout", "<mode-id>"}};
  auto join = [](const std::vector<std::string>& p) {
    std::string s;
    for (const std::string& w : p) s += (s.empty() ? "" : " ") + w;
    return s;
  };
  if (node.IsMap() && node.size() > 0) {
    auto id = path.empty() ? kIdentifier.end() : kIdentifier.find(path.back());
    const bool keyed = id != kIdentifier.end() && !(path.size() >= 2 && path[path.size() - 2] == "link" && path.back() == "vlan");
    for (auto it = node.begin(); it != node.end(); ++it) {
      std::vector<std::string> next = path;
      const std::string key = it->first.Scalar();
      if (keyed) {
        next.push_back(id->second);
        // An identifier with nothing under it is the setting itself (an address, a VLAN, a breakout
        // mode): its value is the identifier.
        if (it->second.IsMap() && it->second.size() == 0) {
          out.push_back({join(next), key});
          continue;
        }
      } else {
        next.push_back(key);
      }
      Flatten(it->second, next, out);
    }
    return;
  }
  out.push_back({join(path), node.IsScalar() ? node.Scalar() : ""});
}

TEST(NvueConfig, EveryPathAndValueIsOneNvidiaPublishes) {
  SwitchConfigs configs = Configs();
  std::map<std::string, std::string> published = PublishedPaths();
  ASSERT_GT(published.size(), 30u);
  std::set<std::string> used;
  size_t leaves = 0;
  for (const SwitchConfig& sw : configs.switches) {
    SCOPED_TRACE(sw.name);
    YAML::Node doc = YAML::Load(NvueYaml(sw, configs.plan_name));
    ASSERT_TRUE(doc.IsSequence());
    ASSERT_EQ(doc.size(), 1u);
    std::vector<std::pair<std::string, std::string>> flat;
    Flatten(doc[0]["set"], {}, flat);
    for (const auto& [path, value] : flat) {
      ++leaves;
      used.insert(path);
      auto it = published.find(path);
      ASSERT_NE(it, published.end()) << "not a published nv set path: " << path;
      EXPECT_TRUE(Allowed(value, it->second)) << path << " = " << value << " (published: " << it->second << ")";
    }
  }
  EXPECT_GT(leaves, 1000u);
  // The plan's features are all there: routed ports, BGP, VLAN access and trunks, RoCE, breakouts.
  for (const char* path : {"interface <interface-id> ip address <ip-prefix-id>", "vrf <vrf-id> router bgp neighbor <neighbor-id> type",
                           "router bgp autonomous-system", "interface <interface-id> bridge domain <domain-id> access",
                           "interface <interface-id> bridge domain <domain-id> vlan <vid>", "bridge domain <domain-id> vlan <vid>",
                           "qos roce mode", "interface <interface-id> link breakout <mode-id>", "interface <interface-id> link fec"}) {
    EXPECT_TRUE(used.count(path)) << path;
  }
}

TEST(NvueConfig, PortsFromThePlanWithTheirCableAndAddressing) {
  SwitchConfigs configs = Configs();
  const SwitchConfig* leaf = nullptr;
  const SwitchConfig* storage = nullptr;
  for (const SwitchConfig& sw : configs.switches) {
    if (!leaf && sw.plane == "compute" && sw.tier == "leaf") leaf = &sw;
    if (!storage && sw.plane == "storage" && sw.tier == "leaf") storage = &sw;
    for (const SwitchPortConfig& p : sw.ports) EXPECT_NE(p.port, "eth0") << sw.name;  // management stays management
  }
  ASSERT_NE(leaf, nullptr);
  ASSERT_NE(storage, nullptr);
  std::string y = NvueYaml(*leaf, configs.plan_name);
  EXPECT_NE(y.find("fec: rs"), std::string::npos);  // 400G: RS(544)
  EXPECT_NE(y.find("autonomous-system: " + std::to_string(leaf->asn)), std::string::npos);
  const SwitchPortConfig& host_port = *std::find_if(leaf->ports.begin(), leaf->ports.end(), [](const SwitchPortConfig& p) { return p.to_host; });
  EXPECT_NE(y.find("description: \"" + host_port.label + " " + host_port.peer_device + " " + host_port.peer_port + "\""), std::string::npos);
  EXPECT_NE(y.find(host_port.address + ": {}"), std::string::npos);
  std::string s = NvueYaml(*storage, configs.plan_name);
  EXPECT_NE(s.find("access: 200"), std::string::npos);
  EXPECT_EQ(s.find("router:"), std::string::npos);  // one L2 subnet: no BGP
}

TEST(NvueConfig, WhatNvueCannotSayIsRefused) {
  std::string spec = kSpec;
  spec.replace(spec.find("switch: SN5600,\n     rail_optimized"), std::string("switch: SN5600,\n     rail_optimized").size(),
               "switch: SN5600, qos: {priority: 4, dscp: 34},\n     rail_optimized");
  SwitchConfigs configs = Configs(spec);
  bool refused = false;
  for (const SwitchConfig& sw : configs.switches) {
    if (sw.plane != "compute") continue;
    try {
      NvueYaml(sw, configs.plan_name);
    } catch (const std::runtime_error& e) {
      refused = std::string(e.what()).find("qos roce") != std::string::npos;
    }
    break;
  }
  EXPECT_TRUE(refused);
  EXPECT_THROW(ParseSwitchConfigs(R"({"schema":"railyard.plan/1","planes":[],"devices":[],"links":[]})", "plan.json"),
               std::runtime_error);
}

}  // namespace
}  // namespace railyard
