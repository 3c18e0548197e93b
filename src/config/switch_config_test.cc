#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

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
      {"interface", "<interface-id>"}, {"domain", "<domain-id>"}, {"vlan", "<vid>"},        {"address", "<ip-prefix-id>"},
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
  for (const char* path :
       {"interface <interface-id> ip address <ip-prefix-id>", "vrf <vrf-id> router bgp neighbor <neighbor-id> type",
        "router bgp autonomous-system", "interface <interface-id> bridge domain <domain-id> access",
        "interface <interface-id> bridge domain <domain-id> vlan <vid>", "bridge domain <domain-id> vlan <vid>", "qos roce mode",
        "interface <interface-id> link breakout <mode-id>", "interface <interface-id> link fec"}) {
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
  const SwitchPortConfig& host_port =
      *std::find_if(leaf->ports.begin(), leaf->ports.end(), [](const SwitchPortConfig& p) { return p.to_host; });
  EXPECT_NE(y.find("description: \"" + host_port.label + " " + host_port.peer_device + " " + host_port.peer_port + "\""),
            std::string::npos);
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

namespace railyard {
namespace {

// The SONiC YANG models' CONFIG_DB tables, key forms and fields (tests/fixtures/sonic/
// config-db-yang-fields.txt, from sonic-buildimage; sources in its SOURCES.md).
struct YangField {
  std::string key_form, field, allowed;
};
std::multimap<std::string, YangField> SonicYang() {
  std::ifstream in(fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/sonic/config-db-yang-fields.txt");
  EXPECT_TRUE(in) << "tests/fixtures/sonic/config-db-yang-fields.txt";
  std::multimap<std::string, YangField> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    for (size_t s = 0, t;; s = t + 1) {
      t = line.find('\t', s);
      f.push_back(line.substr(s, t == std::string::npos ? std::string::npos : t - s));
      if (t == std::string::npos) break;
    }
    if (f.size() == 4) out.insert({f[0], {f[1], f[2], f[3]}});
  }
  return out;
}

size_t Parts(const std::string& key) { return static_cast<size_t>(std::count(key.begin(), key.end(), '|')) + 1; }

// Does `value` satisfy a YANG constraint as the fixture writes it? `db` resolves leafrefs.
bool Satisfies(const std::string& value, std::string allowed, const nlohmann::json& db) {
  if (allowed.starts_with("union(") && allowed.ends_with(")")) {
    std::string inner = allowed.substr(6, allowed.size() - 7);
    for (size_t s = 0; s <= inner.size();) {
      size_t t = inner.find("; ", s);
      if (Satisfies(value, inner.substr(s, t == std::string::npos ? std::string::npos : t - s), db)) return true;
      if (t == std::string::npos) break;
      s = t + 2;
    }
    return false;
  }
  static const std::regex kRange("^([0-9]+)-([0-9]+)$"), kLen("^string len ([0-9]+)-([0-9]+)$"),
      kIp("^([0-9]{1,3}\\.){3}[0-9]{1,3}$");
  std::smatch m;
  auto number = [&](uint64_t lo, uint64_t hi) {
    return !value.empty() && value.size() < 12 && value.find_first_not_of("0123456789") == std::string::npos &&
           std::stoull(value) >= lo && std::stoull(value) <= hi;
  };
  if (std::regex_match(allowed, m, kRange)) return number(std::stoull(m[1]), std::stoull(m[2]));
  if (std::regex_match(allowed, m, kLen)) return value.size() >= std::stoul(m[1]) && value.size() <= std::stoul(m[2]);
  if (allowed == "string") return true;
  if (allowed == "inet:ip-address") return std::regex_match(value, kIp);
  if (allowed == "stypes:sonic-ip4-prefix") {
    size_t slash = value.find('/');
    return slash != std::string::npos && std::regex_match(value.substr(0, slash), kIp) &&
           std::regex_match(value.substr(slash + 1), std::regex("^([0-9]|[12][0-9]|3[0-2])$"));
  }
  if (allowed == "stypes:sonic-ip6-prefix") return value.find(':') != std::string::npos && value.find('/') != std::string::npos;
  if (allowed == "inet:as-number") return number(0, 4294967295ull);
  if (allowed.starts_with("pattern:")) {
    std::string pattern = allowed.substr(8);
    size_t len = pattern.find(" len ");
    if (len != std::string::npos) pattern = pattern.substr(0, len);
    return std::regex_match(value, std::regex("^(?:" + pattern + ")$"));
  }
  if (allowed.starts_with("leafref:")) {
    std::string table = allowed.substr(8, allowed.find('/') - 8);
    return db.contains(table) && db[table].contains(value);
  }
  if (allowed == "global") return value == "global";
  // An enumeration: a|b|c.
  for (size_t s = 0; s <= allowed.size();) {
    size_t t = allowed.find('|', s);
    if (allowed.substr(s, t == std::string::npos ? std::string::npos : t - s) == value) return true;
    if (t == std::string::npos) break;
    s = t + 1;
  }
  return false;
}

TEST(SonicConfig, EveryTableKeyFieldAndValueIsOneTheYangModelsAllow) {
  SwitchConfigs configs = Configs();
  std::multimap<std::string, YangField> yang = SonicYang();
  ASSERT_GT(yang.size(), 100u);
  std::set<std::string> tables;
  size_t values = 0;
  for (const SwitchConfig& sw : configs.switches) {
    SCOPED_TRACE(sw.name);
    nlohmann::json db = nlohmann::json::parse(SonicConfigDb(sw, configs.plan_name));
    for (const auto& [table, entries] : db.items()) {
      tables.insert(table);
      auto [first, last] = yang.equal_range(table);
      ASSERT_NE(first, last) << "not a table of the YANG models: " << table;
      for (const auto& [key, fields] : entries.items()) {
        // The key form of this key's shape whose literal parts (localhost, Loopback0 ...) it has.
        // Named before the lambda: C++20 lets a lambda capture a structured binding, clang 14 not yet.
        const std::string full = table + "|" + key;
        auto matches = [&](const std::string& key_form) {
          if (Parts(key_form) != Parts(full)) return false;
          for (size_t a = 0, b = 0;;) {
            size_t ae = key_form.find('|', a), be = full.find('|', b);
            std::string lit = key_form.substr(a, ae == std::string::npos ? std::string::npos : ae - a);
            std::string got = full.substr(b, be == std::string::npos ? std::string::npos : be - b);
            if (lit.find('<') == std::string::npos && lit != got) return false;
            if (lit.find('<') != std::string::npos && lit.find('<') > 0 && !got.starts_with(lit.substr(0, lit.find('<'))))
              return false;
            if (ae == std::string::npos) return true;
            a = ae + 1;
            b = be + 1;
          }
        };
        std::string form;
        for (auto it = first; it != last; ++it) {
          if (form.empty() && matches(it->second.key_form)) form = it->second.key_form;
        }
        ASSERT_FALSE(form.empty()) << table << "|" << key << ": no key form of that shape";
        // Key parts: each checked against its @key leaf (leafrefs must name an entry that exists).
        std::vector<std::string> parts;
        for (size_t s = 0;;) {
          size_t t = key.find('|', s);
          parts.push_back(key.substr(s, t == std::string::npos ? std::string::npos : t - s));
          if (t == std::string::npos) break;
          s = t + 1;
        }
        size_t part = 0;
        for (auto it = first; it != last; ++it) {
          if (it->second.key_form != form || !it->second.field.starts_with("@key:")) continue;
          if (part < parts.size()) {
            EXPECT_TRUE(Satisfies(parts[part], it->second.allowed, db))
                << table << "|" << key << ": " << it->second.field << " " << it->second.allowed;
          }
          ++part;
        }
        for (const auto& [field, value] : fields.items()) {
          ++values;
          const std::string v = value.get<std::string>();
          const YangField* spec = nullptr;
          const YangField* name_rule = nullptr;
          for (auto it = first; it != last; ++it) {
            if (it->second.key_form != form) continue;
            if (it->second.field == field) spec = &it->second;
            if (it->second.field.starts_with("@fieldname:")) name_rule = &it->second;
            if (it->second.field.starts_with("<") && name_rule == nullptr) spec = spec ? spec : &it->second;
          }
          if (name_rule) {  // a QoS map: the field's name is a value too
            EXPECT_TRUE(Satisfies(field, name_rule->allowed, db)) << table << "|" << key << " field " << field;
            for (auto it = first; it != last; ++it) {
              if (it->second.key_form == form && it->second.field.starts_with("<")) spec = &it->second;
            }
          }
          ASSERT_NE(spec, nullptr) << table << "|" << key << ": no field " << field << " in the YANG models";
          EXPECT_TRUE(Satisfies(v, spec->allowed, db))
              << table << "|" << key << " " << field << " = " << v << " (" << spec->allowed << ")";
        }
      }
    }
  }
  EXPECT_GT(values, 1000u);
  for (const char* t : {"DEVICE_METADATA", "PORT", "INTERFACE", "LOOPBACK_INTERFACE", "BGP_NEIGHBOR", "VLAN", "VLAN_MEMBER",
                        "PORT_QOS_MAP", "DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP"}) {
    EXPECT_TRUE(tables.count(t)) << t;
  }
}

TEST(SonicConfig, PanelPortsAndBreakoutsAreTheModelsOwn) {
  SwitchConfigs configs = Configs();
  for (const SwitchConfig& sw : configs.switches) {
    if (sw.plane != "compute" || sw.tier != "leaf") continue;
    nlohmann::json db = nlohmann::json::parse(SonicConfigDb(sw, configs.plan_name));
    // SN5600 (ACS-SN5600): panel port p is Ethernet<8(p-1)> on 8 lanes; its 2x400G sub-ports are
    // Ethernet<8(p-1)> and +4 on 4 lanes each, aliases etp<p>a and etp<p>b.
    ASSERT_TRUE(db["PORT"].contains("Ethernet4")) << db["PORT"].dump();
    EXPECT_EQ(db["PORT"]["Ethernet4"]["alias"], "etp1b");
    EXPECT_EQ(db["PORT"]["Ethernet4"]["lanes"], "4,5,6,7");
    EXPECT_EQ(db["PORT"]["Ethernet4"]["speed"], "400000");
    EXPECT_EQ(db["DEVICE_METADATA"]["localhost"]["bgp_asn"], std::to_string(sw.asn));
    EXPECT_EQ(db["DSCP_TO_TC_MAP"]["RAILYARD_ROCE"]["26"], "3");
    EXPECT_EQ(db["DSCP_TO_TC_MAP"]["RAILYARD_ROCE"]["48"], "6");
    break;
  }
  SwitchConfig unknown = configs.switches.front();
  unknown.model = "SN9999";
  EXPECT_THROW(SonicConfigDb(unknown, configs.plan_name), std::runtime_error);
}

// The CONFIG_DB text is written directly, not dumped from a JSON tree: it must be valid JSON in the
// form nlohmann::json's dump(2) gives (keys in byte order at every level), for every switch of the
// example, and for descriptions with quotes, backslashes, control characters and UTF-8.
TEST(SonicConfig, TextIsTheCanonicalJsonOfItsContent) {
  SwitchConfigs configs = Configs();
  for (const SwitchConfig& sw : configs.switches) {
    const std::string text = SonicConfigDb(sw, configs.plan_name);
    EXPECT_EQ(nlohmann::json::parse(text).dump(2) + "\n", text) << sw.name;
  }
  SwitchConfig hostile = configs.switches.front();
  ASSERT_FALSE(hostile.ports.empty());
  hostile.ports.front().label = "A\"B\\C\tD\x01 \xc3\xa9";
  const std::string text = SonicConfigDb(hostile, configs.plan_name);
  nlohmann::json db = nlohmann::json::parse(text);
  EXPECT_EQ(db.dump(2) + "\n", text);
  bool found = false;
  for (const auto& [name, port] : db["PORT"].items())
    found = found || port["description"].get<std::string>().starts_with("A\"B\\C\tD\x01 \xc3\xa9 ");
  EXPECT_TRUE(found);
  hostile.ports.front().label = "\xff\xfe";  // not UTF-8: refused, not written
  EXPECT_ANY_THROW(SonicConfigDb(hostile, configs.plan_name));
}

// An Arista pod: 7060X6-64PE (64 x 800G OSFP) leaves and spines, a routed RoCE compute plane at
// 400G (2x400G per cage) and a host-mode storage plane at 200G (4x200G).
const char* kAristaSpec = R"(name: arista
nodes: {count: 32, gpus: 8, pcie: gen5, per_rack: 4}
planes:
  - {name: compute, kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: 7060X6-64PE,
     rail_optimized: true, nodes_per_su: 32}
  - {name: storage, kind: roce, nic: MCX755106AS-HEAT, ports_per_node: 2, speed: 200G, switch: 7060X6-64PE, tiers: 2}
addressing:
  compute: {prefix: 10.0.0.0/16, mode: p2p31, loopbacks: 10.255.0.0/24, asn_base: 4200000000}
  storage: {prefix: 10.16.0.0/16, vlan: 200}
)";

// An EOS line's form: addresses, numbers, free text and names abstracted, so a line railyard writes
// can be compared with the lines Arista's generator writes.
std::string EosForm(std::string line) {
  static const std::regex kText("^( *(description|hostname|name|service-profile|qos profile)) .*$");
  static const std::regex kNeighborText("^( *neighbor [^ ]+ description) .*$");
  static const std::regex kIp("[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+(/[0-9]+)?");
  static const std::regex kGroup("^( *(no )?neighbor) [A-Za-z][A-Za-z0-9_-]*");
  static const std::regex kGroupRef("peer group [A-Za-z][A-Za-z0-9_-]*");
  static const std::regex kEthernet("Ethernet[0-9/]+");
  static const std::regex kNumber("[0-9]+");
  line = line.substr(std::min(line.size(), line.find_first_not_of(' ')));  // the depth is in the parents
  line = std::regex_replace(line, kText, "$1 TEXT");
  line = std::regex_replace(line, kNeighborText, "$1 TEXT");
  line = std::regex_replace(line, kGroup, "$1 GROUP");  // before addresses: "neighbor IP" stays that
  line = std::regex_replace(line, kIp, "IP");
  line = std::regex_replace(line, kGroupRef, "peer group GROUP");
  line = std::regex_replace(line, kEthernet, "EthernetX");
  return std::regex_replace(line, kNumber, "N");
}

// Every configuration line as "parent form > ... > line form", by indentation (EOS indents by 3).
std::set<std::string> EosForms(std::istream& in) {
  std::set<std::string> out;
  std::vector<std::string> parents;
  for (std::string line; std::getline(in, line);) {
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos || line[indent] == '!' || line == "end") continue;
    parents.resize(std::min(parents.size(), indent / 3));
    std::string key;
    for (const std::string& p : parents) key += p + " > ";
    out.insert(key + EosForm(line));
    parents.push_back(EosForm(line));
  }
  return out;
}

TEST(EosConfig, EveryLineIsAFormAristasGeneratorWrites) {
  std::ifstream avd(fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/eos/avd-intended-configs.cfg");
  ASSERT_TRUE(avd) << "tests/fixtures/eos/avd-intended-configs.cfg";
  const std::set<std::string> published = EosForms(avd);
  ASSERT_GT(published.size(), 300u);
  SwitchConfigs configs = Configs(kAristaSpec);
  ASSERT_GE(configs.switches.size(), 14u);  // 8 rail leaves, 4 spines, storage leaves and spines
  std::set<std::string> written;
  for (const SwitchConfig& sw : configs.switches) {
    std::istringstream text(EosConfig(sw, configs.plan_name));
    for (const std::string& form : EosForms(text)) {
      EXPECT_TRUE(published.count(form)) << sw.name << ": no line of this form in Arista's generated configs: " << form;
      written.insert(form);
    }
  }
  // And the forms that matter were written at all.
  for (const char* want :
       {"interface EthernetX > speed Ng-N", "qos profile TEXT > priority-flow-control priority N no-drop",
        "qos profile TEXT > tx-queue N > random-detect ecn minimum-threshold N kbytes maximum-threshold N kbytes "
        "max-mark-probability N",
        "interface EthernetX > service-profile TEXT", "router bgp N > neighbor IP remote-as N",
        "interface EthernetX > switchport access vlan N", "interface EthernetX > switchport trunk allowed vlan N",
        "qos map dscp N to traffic-class N"}) {
    EXPECT_TRUE(written.count(want)) << want;
  }
}

TEST(EosConfig, PortsSpeedsAndAddressesFromThePlan) {
  SwitchConfigs configs = Configs(kAristaSpec);
  bool leaf = false, storage = false;
  for (const SwitchConfig& sw : configs.switches) {
    const std::string c = EosConfig(sw, configs.plan_name);
    if (sw.name == "compute-leaf-su01-r1") {
      leaf = true;
      // 2x400G per 800G OSFP: the interfaces of lanes 1 and 5, each on 4 lanes, RS-FEC, /31 routed.
      EXPECT_NE(c.find("interface Ethernet1/1\n   description COMP-000001 node001 mlx5_0\n   mtu 9214\n   speed 400g-4\n"
                       "   error-correction encoding reed-solomon\n   no switchport\n   ip address 10.0.0.0/31\n"),
                std::string::npos)
          << c;
      EXPECT_NE(c.find("interface Ethernet1/5\n"), std::string::npos);
      EXPECT_EQ(c.find("interface Ethernet1/2\n"), std::string::npos);
      EXPECT_NE(c.find(fmt::format("router bgp {}\n", sw.asn)), std::string::npos);
      EXPECT_NE(c.find("   priority-flow-control priority 3 no-drop\n"), std::string::npos);
      EXPECT_NE(c.find("qos map dscp 26 to traffic-class 3\n"), std::string::npos);
    }
    if (sw.name == "storage-leaf-001") {
      storage = true;
      // 4x200G: lanes 1, 3, 5, 7 on 2 lanes each; host ports untagged in the plane's VLAN.
      EXPECT_NE(c.find("interface Ethernet1/3\n"), std::string::npos) << c;
      EXPECT_NE(c.find("   speed 200g-2\n"), std::string::npos);
      EXPECT_NE(c.find("vlan 200\n   name storage\n"), std::string::npos);
      EXPECT_NE(c.find("   switchport access vlan 200\n"), std::string::npos);
      EXPECT_EQ(c.find("router bgp"), std::string::npos);
    }
  }
  EXPECT_TRUE(leaf && storage);
  // A description EOS would read as two lines is refused, not written.
  SwitchConfig hostile = configs.switches.front();
  hostile.ports.front().peer_device = "node001\ninterface Ethernet9/1\n   shutdown";
  EXPECT_THROW(EosConfig(hostile, configs.plan_name), std::runtime_error);
  hostile = configs.switches.front();
  hostile.ports.front().port = "swp1";
  EXPECT_THROW(EosConfig(hostile, configs.plan_name), std::runtime_error);
  // EOS runs on Arista's switches only, NVUE on NVIDIA's.
  EXPECT_THROW(NvueYaml(configs.switches.front(), configs.plan_name), std::runtime_error);
  SwitchConfig spectrum = Configs().switches.front();
  EXPECT_THROW(EosConfig(spectrum, "nvue"), std::runtime_error);
}

}  // namespace
}  // namespace railyard
