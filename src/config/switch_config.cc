#include "config/switch_config.h"
#include "model/schemas.h"
#include "util/input_error.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <simdjson.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "planfile/plan_sections.h"
#include "util/config_emit.h"
#include "util/csv.h"
#include "util/file.h"
#include "util/natural_order.h"
#include "util/terminal.h"
#include "util/yaml_emit.h"

namespace railyard {
namespace {

struct PlaneInfo {
  std::string kind, role, mode;
  int vlan = 0;
  RoceQos qos;
  bool qos_default = true;
};

// FEC for a port speed: the PAM4 rates (200/400/800G) have RS(544) as their only FEC (IEEE 802.3bs/cd/ck),
// so it is written; below, which FEC a link needs depends on the cable (a short DAC runs without,
// a long one needs RS(528)), which the switch reads from the module: `auto`, as the Cumulus Linux
// documentation advises.
std::string_view FecFor(uint32_t gbps) { return gbps >= 200 ? "rs" : "auto"; }

// Switch and port names come from the plan; they become YAML keys, so only what NVUE names are.
const std::regex& SafeKey() {
  static const std::regex kSafe("^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,63}$");
  return kSafe;
}

std::string Quoted(std::string_view s) { return YamlQuoted(s); }

}  // namespace

namespace {
SwitchConfigs ParsePadded(const simdjson::padded_string& padded, const std::string& source);
}  // namespace

SwitchConfigs ParseSwitchConfigs(std::string_view json, const std::string& source) {
  return ParsePadded(simdjson::padded_string(json), source);
}

namespace {

PlaneInfo PlaneInfoOf(const PlanPlaneRecord& r) {
  PlaneInfo p;
  p.kind = r.kind;
  p.role = r.role;
  p.mode = r.mode;
  p.vlan = static_cast<int>(r.vlan);
  p.qos = QosOf(r);
  const RoceQos d;
  p.qos_default = p.qos.priority == d.priority && p.qos.dscp == d.dscp && p.qos.cnp_dscp == d.cnp_dscp &&
                  p.qos.cnp_priority == d.cnp_priority;
  return p;
}

// What each Ethernet switch is configured with, from the plan's planes, switches and their links
// (planfile/plan_sections.h reads them).
SwitchConfigs ParsePadded(const simdjson::padded_string& padded, const std::string& source) {
  auto fail = [&](const std::string& why) { throw InputError(source, 0, 0, "", why); };
  SwitchConfigs out;
  out.source = source;
  std::unordered_map<std::string, PlaneInfo> planes;
  std::unordered_map<std::string, size_t> index;     // switch name -> out.switches
  std::unordered_map<std::string, uint64_t> asn_of;  // every switch with an ASN (routed planes)
  PlanSections sections;
  sections.name = [&](std::string_view name) { out.plan_name = std::string(name); };
  sections.plane = [&](const PlanPlaneRecord& r) { planes[std::string(r.name)] = PlaneInfoOf(r); };
  sections.device = [&](const PlanDeviceRecord& d) {
    if (d.role != "switch") return;
    SwitchConfig s;
    s.name = d.name;
    s.plane = d.plane;
    s.tier = d.tier;
    s.model = d.model;
    s.asn = d.asn;
    s.loopback = d.loopback;
    if (s.asn) asn_of[s.name] = s.asn;
    auto plane = planes.find(s.plane);
    if (plane == planes.end() || plane->second.kind == "infiniband") return;  // NVUE is for Ethernet switches
    if (!std::regex_match(s.name, SafeKey())) fail(fmt::format("switch '{}': not a name NVUE takes", s.name));
    s.kind = plane->second.kind;
    s.mode = plane->second.mode;
    s.vlan = plane->second.vlan;
    s.qos = plane->second.qos;
    s.qos_default = plane->second.qos_default;
    index[s.name] = out.switches.size();
    out.switches.push_back(std::move(s));
  };
  sections.link = [&](const PlanLinkRecord& l) {
    for (int end = 0; end < 2; ++end) {
      const PlanLinkEnd& own = end == 0 ? l.a : l.z;
      const PlanLinkEnd& peer = end == 0 ? l.z : l.a;
      auto it = index.find(std::string(own.device));
      // A switch's own plane's links: its management port (eth0, cabled on the out-of-band plane)
      // keeps the switch's management configuration.
      if (it == index.end() || out.switches[it->second].plane != l.plane) continue;
      SwitchPortConfig p;
      p.port = own.port;
      p.address = own.ip;
      p.peer_device = peer.device;
      p.peer_port = peer.port;
      p.peer_address = peer.ip.substr(0, peer.ip.find('/'));
      if (auto asn = asn_of.find(p.peer_device); asn != asn_of.end()) p.peer_asn = asn->second;
      p.label = l.label;
      p.speed_gbps = static_cast<uint32_t>(std::max<int64_t>(l.speed_gbps, 0));
      p.to_host = l.level == "endpoint-leaf";
      if (!std::regex_match(p.port, SafeKey())) fail(fmt::format("link {}: port '{}' is not a name NVUE takes", l.label, p.port));
      out.switches[it->second].ports.push_back(std::move(p));
    }
  };
  ReadPlanSections(padded, source, sections);
  if (out.switches.empty())
    fail("no Ethernet or RoCE switch in the plan (InfiniBand switches are configured by the subnet manager)");
  return out;
}

}  // namespace

SwitchConfigs ReadSwitchConfigs(const std::string& plan_json) {
  simdjson::padded_string padded;
  if (plan_json == "-" || simdjson::padded_string::load(plan_json).get(padded))
    return ParseSwitchConfigs(ReadWholeFile(plan_json), ShownPath(plan_json));
  return ParsePadded(padded, plan_json);
}

std::string NvueYaml(const SwitchConfig& sw, const std::string& plan_name) {
  if (sw.kind == "roce" && !sw.qos_default) {
    throw InputError(
        fmt::format("{}: plane {} sets qos: {{priority: {}, dscp: {}, cnp_dscp: {}, cnp_priority: {}}}; NVUE's `qos roce` "
                    "profile is priority "
                    "3, DSCP 26, CNP 48/6, and railyard does not yet write its explicit PFC/ECN maps",
                    sw.name, sw.plane, sw.qos.priority, sw.qos.dscp, sw.qos.cnp_dscp, sw.qos.cnp_priority));
  }
  if (auto m = Catalog::Builtin().FindSwitch(sw.model); m && Catalog::Builtin().switches()[*m].naming != PortNaming::kCumulus) {
    throw InputError(fmt::format("{}: a {} {} does not run Cumulus Linux (NVUE)", sw.name,
                                 Catalog::Builtin().switches()[*m].vendor, sw.model));
  }
  const bool routed = sw.mode == "p2p31";
  std::string y = fmt::format(
      "# railyard config switches: {} ({} plane, {}{}) from plan {}.\n"
      "# Apply on the switch: nv config replace {}.yaml && nv config apply -y (NVUE, Cumulus Linux 5.x).\n"
      "- set:\n    system:\n      hostname: {}\n    interface:\n",
      CommentText(sw.name), CommentText(sw.plane), CommentText(sw.tier), sw.model.empty() ? "" : CommentText(", " + sw.model),
      CommentText(plan_name), CommentText(sw.name), Quoted(sw.name));
  if (routed && !sw.loopback.empty()) {
    y += fmt::format("      lo:\n        type: loopback\n        ip:\n          address:\n            {}: {{}}\n",
                     YamlKey(sw.loopback + "/32"));
  }
  // Breakouts: sub-ports swpNsM need their parent split; the highest sub-port seen gives the count.
  std::map<std::string, int, bool (*)(std::string_view, std::string_view)> breakout(NaturalLess);
  static const std::regex kSub("^(swp[0-9]{1,4})s([0-9]{1,2})$");  // bounded: the numbers are parsed
  for (const SwitchPortConfig& p : sw.ports) {
    std::smatch m;
    if (std::regex_match(p.port, m, kSub)) breakout[m[1]] = std::max(breakout[m[1]], std::stoi(m[2]) + 1);
  }
  for (const auto& [parent, n] : breakout) {
    int lanes = n <= 2 ? 2 : n <= 4 ? 4 : 8;
    y += fmt::format("      {}:\n        type: swp\n        link:\n          breakout:\n            {}x: {{}}\n", YamlKey(parent),
                     lanes);
  }
  std::vector<const SwitchPortConfig*> ports;
  for (const SwitchPortConfig& p : sw.ports) ports.push_back(&p);
  std::sort(ports.begin(), ports.end(),
            [](const SwitchPortConfig* a, const SwitchPortConfig* b) { return NaturalLess(a->port, b->port); });
  bool any_l2 = false;
  for (const SwitchPortConfig* p : ports) {
    y += fmt::format(
        "      {}:\n        type: swp\n        description: {}\n        link:\n          state: up\n"
        "          speed: {}G\n          mtu: 9216\n          fec: {}\n",
        YamlKey(p->port), Quoted(fmt::format("{} {} {}", p->label, p->peer_device, p->peer_port)), p->speed_gbps,
        FecFor(p->speed_gbps));
    if (routed) {
      if (!p->address.empty()) y += fmt::format("        ip:\n          address:\n            {}: {{}}\n", YamlKey(p->address));
    } else if (sw.vlan > 0) {
      any_l2 = true;
      y += p->to_host
               ? fmt::format("        bridge:\n          domain:\n            br_default:\n              access: {}\n", sw.vlan)
               : fmt::format(
                     "        bridge:\n          domain:\n            br_default:\n              vlan:\n"
                     "                '{}': {{}}\n",
                     sw.vlan);
    }
  }
  if (any_l2)
    y += fmt::format("    bridge:\n      domain:\n        br_default:\n          vlan:\n            '{}': {{}}\n", sw.vlan);
  if (routed && sw.asn) {
    y += fmt::format("    router:\n      bgp:\n        enable: on\n        autonomous-system: {}\n{}", sw.asn,
                     sw.loopback.empty() ? "" : fmt::format("        router-id: {}\n", Quoted(sw.loopback)));
    y += "    vrf:\n      default:\n        router:\n          bgp:\n            enable: on\n            neighbor:\n";
    for (const SwitchPortConfig* p : ports) {
      if (p->to_host) continue;  // hosts are reached by the connected /31s
      y += fmt::format("              {}:\n                type: unnumbered\n                remote-as: external\n",
                       YamlKey(p->port));
    }
    y += "            address-family:\n              ipv4-unicast:\n                enable: on\n                redistribute:\n"
         "                  connected:\n                    enable: on\n";
  }
  if (sw.kind == "roce") y += "    qos:\n      roce:\n        enable: on\n        mode: lossless\n";
  return y;
}

namespace {

// A panel port of a model's default SONiC hwsku (data/catalog/sonic_ports.csv).
struct SonicPanelPort {
  uint32_t index = 0;  // N of EthernetN
  std::vector<std::string> lanes;
  std::string alias;
};

const std::map<std::string, std::map<uint32_t, SonicPanelPort>>& SonicPorts() {
  static const auto* table = [] {
    auto* out = new std::map<std::string, std::map<uint32_t, SonicPanelPort>>;
    CsvTable csv = ParseCsv(EmbeddedFile("sonic_ports.csv"), "sonic_ports.csv");
    const int model = csv.Column("model"), front = csv.Column("front_port"), name = csv.Column("name"),
              lanes = csv.Column("lanes"), alias = csv.Column("alias");
    for (const CsvRow& row : csv.rows) {
      SonicPanelPort p;
      const std::string& n = row.fields[static_cast<size_t>(name)];
      p.index = static_cast<uint32_t>(std::stoul(n.substr(std::string("Ethernet").size())));
      for (size_t start = 0; start <= row.fields[static_cast<size_t>(lanes)].size();) {
        const std::string& l = row.fields[static_cast<size_t>(lanes)];
        size_t comma = l.find(',', start);
        p.lanes.push_back(l.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      p.alias = row.fields[static_cast<size_t>(alias)];
      // A panel port the default hwsku already splits (SN4410) keeps its first row: breakouts are computed.
      (*out)[row.fields[static_cast<size_t>(model)]].emplace(
          static_cast<uint32_t>(std::stoul(row.fields[static_cast<size_t>(front)])), p);
    }
    return out;
  }();
  return *table;
}

// The sub-port counts a model's platform.json publishes for its panel ports (data/catalog/sonic_breakout.csv).
bool SonicBreakoutPublished(const std::string& model, uint32_t subports) {
  static const auto* table = [] {
    auto* out = new std::set<std::pair<std::string, uint32_t>>;
    CsvTable csv = ParseCsv(EmbeddedFile("sonic_breakout.csv"), "sonic_breakout.csv");
    const int model_col = csv.Column("model"), n = csv.Column("subports");
    for (const CsvRow& row : csv.rows) {
      out->insert(
          {row.fields[static_cast<size_t>(model_col)], static_cast<uint32_t>(std::stoul(row.fields[static_cast<size_t>(n)]))});
    }
    return out;
  }();
  return table->count({model, subports}) > 0;
}

struct SonicPortName {
  std::string name, alias, lanes;
};

// CONFIG_DB as JSON text, written directly: tables of keys of flat string fields, every level in
// byte order and indented by two, as nlohmann::json's dump(2) of the same tree would print it (it
// did, at 2.5x the time: a tree of maps per switch). An empty field value leaves the field out; a
// key given twice keeps its last fields. Strings are escaped by nlohmann::json where they need it
// (it also refuses invalid UTF-8).
class SonicDbWriter {
 public:
  using Fields = std::vector<std::pair<std::string, std::string>>;
  void Add(std::string_view table, std::string key, Fields fields) {
    tables_[table].push_back({std::move(key), std::move(fields)});
  }
  std::string Text() {
    std::string out = "{";
    const char* table_sep = "\n";
    for (auto& [table, entries] : tables_) {
      std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      out += table_sep;
      table_sep = ",\n";
      out += "  ";
      Quote(table, out);
      out += ": {";
      const char* entry_sep = "\n";
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i + 1 < entries.size() && entries[i + 1].first == entries[i].first) continue;  // the last one counts
        auto& [key, fields] = entries[i];
        out += entry_sep;
        entry_sep = ",\n";
        out += "    ";
        Quote(key, out);
        std::sort(fields.begin(), fields.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::string body;
        const char* field_sep = "\n";
        for (const auto& [name, value] : fields) {
          if (value.empty()) continue;
          body += field_sep;
          field_sep = ",\n";
          body += "      ";
          Quote(name, body);
          body += ": ";
          Quote(value, body);
        }
        out += body.empty() ? ": {}" : ": {" + body + "\n    }";
      }
      out += entries.empty() ? "}" : "\n  }";
    }
    out += tables_.empty() ? "}\n" : "\n}\n";
    return out;
  }

 private:
  static void Quote(std::string_view s, std::string& out) {
    bool plain = true;
    for (char c : s)
      plain = plain && c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f;
    if (plain) {
      out += '"';
      out += s;
      out += '"';
    } else {
      out += nlohmann::json(std::string(s)).dump();
    }
  }
  std::map<std::string_view, std::vector<std::pair<std::string, Fields>>> tables_;
};

// "swp33" -> {33, -1}, "swp33s1" -> {33, 1}; nullopt for anything else (at most 4 and 2 digits: the
// numbers are used as indexes).
std::optional<std::pair<uint32_t, int>> ParseSwp(std::string_view port) {
  if (!port.starts_with("swp")) return std::nullopt;
  size_t i = 3, panel_end = i;
  while (panel_end < port.size() && std::isdigit(static_cast<unsigned char>(port[panel_end]))) ++panel_end;
  if (panel_end == i || panel_end - i > 4) return std::nullopt;
  const uint32_t panel = static_cast<uint32_t>(std::stoul(std::string(port.substr(i, panel_end - i))));
  if (panel_end == port.size()) return std::pair<uint32_t, int>{panel, -1};
  if (port[panel_end] != 's') return std::nullopt;
  size_t sub_end = panel_end + 1;
  while (sub_end < port.size() && std::isdigit(static_cast<unsigned char>(port[sub_end]))) ++sub_end;
  if (sub_end == panel_end + 1 || sub_end - panel_end - 1 > 2 || sub_end != port.size()) return std::nullopt;
  return std::pair<uint32_t, int>{panel, std::stoi(std::string(port.substr(panel_end + 1)))};
}

}  // namespace

std::string SonicConfigDb(const SwitchConfig& sw, const std::string& plan_name) {
  auto model = SonicPorts().find(sw.model);
  if (model == SonicPorts().end()) {
    throw InputError(fmt::format("{}: no SONiC port map for model {} (data/catalog/sonic_ports.csv has {})", sw.name,
                                 sw.model.empty() ? "(none)" : sw.model, [] {
                                   std::string list;
                                   for (const auto& [m, ports] : SonicPorts()) list += (list.empty() ? "" : ", ") + m;
                                   return list;
                                 }()));
  }
  // Sub-ports per broken-out panel port, as the NVUE output counts them.
  std::map<uint32_t, uint32_t> subports;
  for (const SwitchPortConfig& p : sw.ports) {
    if (auto swp = ParseSwp(p.port); swp && swp->second >= 0) {
      subports[swp->first] = std::max(subports[swp->first], static_cast<uint32_t>(swp->second) + 1);
    }
  }
  for (auto& [panel, n] : subports) n = n <= 2 ? 2 : n <= 4 ? 4 : 8;
  auto sonic_name = [&](const std::string& port) -> SonicPortName {
    auto swp = ParseSwp(port);
    if (!swp) throw InputError(fmt::format("{}: port {} is not swpN or swpNsM", sw.name, port));
    const uint32_t panel = swp->first;
    auto it = model->second.find(panel);
    if (it == model->second.end()) throw InputError(fmt::format("{}: {} has no panel port {}", sw.name, sw.model, panel));
    const SonicPanelPort& pp = it->second;
    auto join = [](auto begin, auto end) {
      std::string out;
      for (auto i = begin; i != end; ++i) out += (out.empty() ? "" : ",") + *i;
      return out;
    };
    if (swp->second < 0) return {fmt::format("Ethernet{}", pp.index), pp.alias, join(pp.lanes.begin(), pp.lanes.end())};
    const uint32_t n = subports[panel], sub = static_cast<uint32_t>(swp->second);
    const uint32_t step = static_cast<uint32_t>(pp.lanes.size()) / n;
    if (step == 0 || !SonicBreakoutPublished(sw.model, n)) {
      throw InputError(
          fmt::format("{}: {} port {} in {} sub-ports: not a breakout SONiC publishes for it", sw.name, sw.model, panel, n));
    }
    // BreakoutCfg (sonic-config-engine portconfig.py): sub-port i of EthernetB is Ethernet(B + i*lanes/n),
    // its alias the i-th of etpNa, etpNb ...
    return {fmt::format("Ethernet{}", pp.index + sub * step), pp.alias + static_cast<char>('a' + sub),
            join(pp.lanes.begin() + sub * step, pp.lanes.begin() + (sub + 1) * step)};
  };
  const bool routed = sw.mode == "p2p31";
  SonicDbWriter db;
  const std::string none;
  db.Add("DEVICE_METADATA", "localhost",
         {{"bgp_asn", routed && sw.asn ? std::to_string(sw.asn) : none},
          {"hostname", sw.name},
          {"type", sw.tier == "leaf"    ? "ToRRouter"
                   : sw.tier == "spine" ? "LeafRouter"
                                        : "SpineRouter"}});
  if (routed && !sw.loopback.empty()) {
    db.Add("LOOPBACK_INTERFACE", "Loopback0", {});
    db.Add("LOOPBACK_INTERFACE", "Loopback0|" + sw.loopback + "/32", {});
  }
  std::vector<const SwitchPortConfig*> ports;
  for (const SwitchPortConfig& p : sw.ports) ports.push_back(&p);
  std::sort(ports.begin(), ports.end(),
            [](const SwitchPortConfig* a, const SwitchPortConfig* b) { return NaturalLess(a->port, b->port); });
  const bool roce = sw.kind == "roce";
  const std::string pfc = std::to_string(sw.qos.priority), map = "RAILYARD_ROCE";
  for (const SwitchPortConfig* p : ports) {
    SonicPortName n = sonic_name(p->port);
    db.Add("PORT", n.name,
           {{"admin_status", "up"},
            {"alias", n.alias},
            {"description", fmt::format("{} {} {}", p->label, p->peer_device, p->peer_port)},
            {"fec", std::string(FecFor(p->speed_gbps))},
            {"lanes", n.lanes},
            {"mtu", "9216"},
            {"speed", std::to_string(p->speed_gbps * 1000)}});
    if (routed && !p->address.empty()) {
      db.Add("INTERFACE", n.name, {});
      db.Add("INTERFACE", n.name + "|" + p->address, {});
      if (!p->to_host && p->peer_asn && !p->peer_address.empty()) {
        db.Add("BGP_NEIGHBOR", p->peer_address,
               {{"admin_status", "up"},
                {"asn", std::to_string(p->peer_asn)},
                {"local_addr", p->address.substr(0, p->address.find('/'))},
                {"name", p->peer_device}});
      }
    } else if (!routed && sw.vlan > 0) {
      db.Add("VLAN_MEMBER", fmt::format("Vlan{}|{}", sw.vlan, n.name), {{"tagging_mode", p->to_host ? "untagged" : "tagged"}});
    }
    if (roce) {
      db.Add("PORT_QOS_MAP", n.name,
             {{"dscp_to_tc_map", map}, {"pfc_enable", pfc}, {"tc_to_pg_map", map}, {"tc_to_queue_map", map}});
    }
  }
  if (!routed && sw.vlan > 0) db.Add("VLAN", fmt::format("Vlan{}", sw.vlan), {{"vlanid", std::to_string(sw.vlan)}});
  if (roce) {
    // The plane's class: its DSCP to its priority, the CNP's DSCP to the CNP priority, the rest best
    // effort; traffic class i in queue i; the lossless class in its own priority group.
    SonicDbWriter::Fields dscp, queue, pg;
    for (int d = 0; d < 64; ++d) {
      int tc = d == sw.qos.dscp ? sw.qos.priority : d == sw.qos.cnp_dscp ? sw.qos.cnp_priority : 0;
      dscp.push_back({std::to_string(d), std::to_string(tc)});
    }
    for (int tc = 0; tc < 8; ++tc) {
      queue.push_back({std::to_string(tc), std::to_string(tc)});
      pg.push_back({std::to_string(tc), tc == sw.qos.priority ? std::to_string(tc) : "0"});
    }
    db.Add("DSCP_TO_TC_MAP", map, std::move(dscp));
    db.Add("TC_TO_QUEUE_MAP", map, std::move(queue));
    db.Add("TC_TO_PRIORITY_GROUP_MAP", map, std::move(pg));
  }
  (void)plan_name;
  return db.Text();
}

namespace {

// "Ethernet33/5" -> {33, 5}; nullopt for anything else (bounded digit runs: the numbers are used).
std::optional<std::pair<uint32_t, uint32_t>> ParseEosPort(std::string_view port) {
  if (!port.starts_with("Ethernet")) return std::nullopt;
  auto number = [&](size_t& i, uint32_t& out) {
    size_t start = i;
    while (i < port.size() && i - start < 4 && std::isdigit(static_cast<unsigned char>(port[i]))) ++i;
    if (i == start) return false;
    out = static_cast<uint32_t>(std::stoul(std::string(port.substr(start, i - start))));
    return true;
  };
  size_t i = std::string_view("Ethernet").size();
  uint32_t cage = 0, lane = 0;
  if (!number(i, cage) || i >= port.size() || port[i] != '/') return std::nullopt;
  ++i;
  if (!number(i, lane) || i != port.size()) return std::nullopt;
  return std::pair<uint32_t, uint32_t>{cage, lane};
}

// EOS takes a description as the rest of its line: a line break or any byte it would not show would
// change the configuration, so such text is refused rather than written.
std::string EosText(const std::string& text, const SwitchConfig& sw, const std::string& what) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) {
      throw InputError(fmt::format("{}: {} has a character EOS cannot take in a description", sw.name, what));
    }
  }
  return text;
}

// An address or name EOS takes as one word of a command: PlainWord (util/config_emit.h), else refused
// with what it is.
std::string EosWord(const std::string& text, const SwitchConfig& sw, const std::string& what) {
  try {
    return PlainWord(what, text);
  } catch (const EmitError&) {
    throw InputError(fmt::format("{}: {} '{}' is not one word EOS can take", sw.name, what, TerminalSafe(text)));
  }
}

}  // namespace

std::string EosConfig(const SwitchConfig& sw, const std::string& plan_name) {
  // The speed line of a broken-out port needs the model's cage: lanes per cage and native speed.
  const SwitchModel* model = nullptr;
  if (auto m = Catalog::Builtin().FindSwitch(sw.model)) model = &Catalog::Builtin().switches()[*m];
  Gbps native = 0;
  if (model) {
    for (const SpeedCount& sc : model->ports) native = std::max(native, sc.speed);
  }
  if (model && model->naming != PortNaming::kEos) {
    throw InputError(
        fmt::format("{}: a {} {} does not run Arista EOS (--os nvue or sonic for it)", sw.name, model->vendor, sw.model));
  }
  const uint32_t cage_lanes = model ? CageLanes(model->cage) : 0;
  const bool routed = sw.mode == "p2p31", roce = sw.kind == "roce";
  std::string c = fmt::format(
      "! railyard config switches: {} ({} plane, {}{}) from plan {}.\n"
      "! Apply on the switch (Arista EOS): copy it to flash:{}.cfg, then `configure replace flash:{}.cfg`.\n"
      "hostname {}\n!\nservice routing protocols model multi-agent\n!\n",
      CommentText(sw.name), CommentText(sw.plane), CommentText(sw.tier), sw.model.empty() ? "" : CommentText(", " + sw.model),
      CommentText(plan_name), CommentText(sw.name), CommentText(sw.name), EosText(sw.name, sw, "the switch name"));
  if (!model)
    c += fmt::format("! {} is not in railyard's catalog: broken-out ports are written without a speed line.\n!\n", sw.model);
  if (!routed && sw.vlan > 0) c += fmt::format("vlan {}\n   name {}\n!\n", sw.vlan, EosText(sw.plane, sw, "the plane name"));
  if (roce) {
    // The plane's class: its DSCP to its traffic class, the CNP's DSCP to the CNP's; then one QoS
    // profile every port takes: DSCP trusted, PFC no-drop on the class, ECN marking on its queue
    // from 150 KB to 1,500 KB of queue, at most every packet (NVIDIA's roce profile values by
    // default, so Arista and NVIDIA switches of one fabric treat RoCE alike; docs/config.md).
    c += fmt::format("qos map dscp {} to traffic-class {}\nqos map dscp {} to traffic-class {}\n!\n", sw.qos.dscp,
                     sw.qos.priority, sw.qos.cnp_dscp, sw.qos.cnp_priority);
    c += fmt::format(
        "qos profile RAILYARD-ROCE\n   qos trust dscp\n   !\n   tx-queue {0}\n"
        "      random-detect ecn minimum-threshold 150 kbytes maximum-threshold 1500 kbytes max-mark-probability 100\n   !\n"
        "   priority-flow-control on\n   priority-flow-control priority {0} no-drop\n!\n",
        sw.qos.priority);
  }
  std::vector<const SwitchPortConfig*> ports;
  for (const SwitchPortConfig& p : sw.ports) ports.push_back(&p);
  std::sort(ports.begin(), ports.end(),
            [](const SwitchPortConfig* a, const SwitchPortConfig* b) { return NaturalLess(a->port, b->port); });
  size_t fabric = 0;
  for (const SwitchPortConfig* p : ports) {
    if (!ParseEosPort(p->port)) throw InputError(fmt::format("{}: port {} is not an EOS EthernetN/M name", sw.name, p->port));
    c += fmt::format("interface {}\n   description {}\n   mtu 9214\n", p->port,
                     EosText(fmt::format("{} {} {}", p->label, p->peer_device, p->peer_port), sw, "port " + p->port));
    // A port below the cage's native speed is a breakout: EOS wants its rate and lane count,
    // <rate>g-<lanes> on PAM4 lanes (50G and up: 400g-4 is 2x400G of an 800G OSFP, 200g-2, 100g-1),
    // the older forced <rate>gfull below (EOS manual "Octal Port Renumber"; docs/config.md).
    if (model && native > p->speed_gbps && p->speed_gbps > 0 && cage_lanes > 1) {
      const uint32_t per_cage = static_cast<uint32_t>(native / p->speed_gbps);
      const uint32_t lanes = std::max<uint32_t>(1, cage_lanes / std::max<uint32_t>(1, per_cage));
      c += p->speed_gbps / lanes >= 50 ? fmt::format("   speed {}g-{}\n", p->speed_gbps, lanes)
                                       : fmt::format("   speed forced {}gfull\n", p->speed_gbps);
    }
    // RS-FEC where IEEE 802.3 makes it the only FEC (the PAM4 rates); below, the module decides.
    if (p->speed_gbps >= 200) c += "   error-correction encoding reed-solomon\n";
    if (routed) {
      c += "   no switchport\n";
      if (!p->address.empty()) c += fmt::format("   ip address {}\n", EosWord(p->address, sw, "port " + p->port + "'s address"));
    } else if (sw.vlan > 0) {
      c += p->to_host ? fmt::format("   switchport access vlan {}\n", sw.vlan)
                      : fmt::format("   switchport mode trunk\n   switchport trunk allowed vlan {}\n", sw.vlan);
    }
    if (roce) c += "   service-profile RAILYARD-ROCE\n";
    c += "   no shutdown\n!\n";
    fabric += !p->to_host && p->peer_asn && !p->peer_address.empty();
  }
  if (routed && !sw.loopback.empty())
    c += fmt::format("interface Loopback0\n   ip address {}/32\n!\nip routing\n!\n", EosWord(sw.loopback, sw, "the loopback"));
  else if (routed)
    c += "ip routing\n!\n";
  if (routed && sw.asn) {
    // Numbered eBGP to each fabric neighbour (the /31s of the IP plan), hosts reached by the connected
    // routes, which are announced; ECMP over every uplink.
    c += fmt::format("router bgp {}\n", sw.asn);
    if (!sw.loopback.empty()) c += fmt::format("   router-id {}\n", EosWord(sw.loopback, sw, "the loopback"));
    const size_t paths = std::clamp<size_t>(fabric, 1, 128);
    c +=
        fmt::format("   no bgp default ipv4-unicast\n   maximum-paths {} ecmp {}\n   neighbor FABRIC peer group\n", paths, paths);
    for (const SwitchPortConfig* p : ports) {
      if (p->to_host || !p->peer_asn || p->peer_address.empty()) continue;
      c += fmt::format("   neighbor {0} peer group FABRIC\n   neighbor {0} remote-as {1}\n   neighbor {0} description {2}\n",
                       EosWord(p->peer_address, sw, "port " + p->port + "'s peer address"), p->peer_asn,
                       EosText(fmt::format("{}_{}", p->peer_device, p->peer_port), sw, "port " + p->port + "'s peer"));
    }
    c += "   redistribute connected\n   !\n   address-family ipv4\n      neighbor FABRIC activate\n!\n";
  }
  return c + "end\n";
}

size_t WriteSwitchConfigs(const SwitchConfigs& configs, const std::string& glob, const std::string& dir, const std::string& os) {
  if (os != "nvue" && os != "sonic" && os != "eos") throw UsageError(fmt::format("--os: '{}': nvue, sonic or eos", os));
  std::vector<HostFile> files;
  for (const SwitchConfig& sw : configs.switches) {
    if (!glob.empty() && fnmatch(glob.c_str(), sw.name.c_str(), 0) != 0) continue;
    try {
      if (os == "sonic") {
        files.push_back({sw.name + ".json", 0644, SonicConfigDb(sw, configs.plan_name)});
      } else if (os == "eos") {
        files.push_back({sw.name + ".cfg", 0644, EosConfig(sw, configs.plan_name)});
      } else {
        files.push_back({sw.name + ".yaml", 0644, NvueYaml(sw, configs.plan_name)});
      }
    } catch (const std::runtime_error& e) {
      // What a switch's configuration cannot be made from (a port the OS does not name so, a model
      // that does not run it) is in the plan: the error names it.
      if (configs.source.empty()) throw;
      throw InputError(fmt::format("{}: {}", configs.source, e.what()));
    }
  }
  if (files.empty()) throw UsageError(fmt::format("no Ethernet switch of the plan matches '{}'", glob));
  WriteFileTree(files, dir);
  return files.size();
}

}  // namespace railyard
