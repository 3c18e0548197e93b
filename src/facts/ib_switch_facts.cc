#include "facts/ib_switch_facts.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

namespace railyard {
namespace {

// A node the scan calls a switch, or (line mode, which never says) one whose ports share its GUID:
// a CA's ports each carry their own.
bool IsSwitch(const IbLinkNode& n) { return n.type == "Switch" || (n.type.empty() && n.ports.size() >= 2); }

SwitchPortFacts PortFacts(const IbLinkPort& p, const std::string& source) {
  SwitchPortFacts f;
  f.name = std::to_string(p.port);
  f.status = p.state + "/" + p.physstate;
  f.oper = p.state == "Active" ? "up" : "down";
  f.admin = p.physstate == "Disabled" ? "down" : "up";
  if (p.physstate == "LinkUp" && p.state != "Active") {
    f.reason = fmt::format("the link trained but the port is {}: no subnet manager has brought it to Active", p.state);
  } else if (p.physstate == "Polling") {
    f.reason = "no signal from a far end (no cable, no module, or the far end down)";
  }
  f.speed_gbps = IbLinkGbps(p.width, p.lane_gbps, p.fdr10);
  f.speed_auto = true;  // InfiniBand links negotiate width and speed within what each end enables
  if (p.has_peer) f.peer = fmt::format("{} port {}", p.peer_desc, p.peer_port);
  f.could_be = p.could_be;
  f.line = p.line;
  f.source = source;
  return f;
}

// A GUID as a number in hex without leading zeros (ibqueryerrors drops them, iblinkinfo pads to 16
// digits): the key both are placed by. "" when not a GUID.
std::string GuidKey(std::string_view guid) {
  if (guid.size() < 3 || guid[0] != '0' || (guid[1] != 'x' && guid[1] != 'X')) return {};
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(guid.data() + 2, guid.data() + guid.size(), v, 16);
  if (ec != std::errc() || end != guid.data() + guid.size()) return {};
  return fmt::format("{:x}", v);
}

}  // namespace

std::string IbSwitchName(const std::string& desc) {
  const size_t semi = desc.find(';');
  if (semi == std::string::npos) return desc;
  const size_t colon = desc.find(':', semi);
  std::string name = desc.substr(semi + 1, colon == std::string::npos ? std::string::npos : colon - semi - 1);
  return name.empty() ? desc : name;
}

std::vector<SwitchFacts> IbSwitchFacts(const IblinkinfoPorts& links, const std::string& source,
                                       const std::vector<IbCountersFile>& counters,
                                       std::vector<SwitchFactsWarning>& fabric_warnings) {
  std::vector<SwitchFacts> out;
  std::map<std::string, int> names;  // how many switches describe themselves this way
  int ca_lines = 0, first_ca = 0;
  for (const IbLinkNode& n : links.nodes) {
    if (IsSwitch(n)) {
      ++names[IbSwitchName(n.desc)];
    } else {
      ca_lines += static_cast<int>(n.ports.size());
      if (!first_ca) first_ca = n.line;
    }
  }
  if (ca_lines) {
    fabric_warnings.push_back(
        {source, first_ca,
         fmt::format("{} CA (host) port line(s): the host end of links read here from their switch end; a host's own "
                     "ports are read by `railyard collect` on the host",
                     ca_lines)});
  }
  std::unordered_map<std::string, size_t> by_guid;  // switch GUID (lower case) -> index in out
  std::unordered_map<int, size_t> by_lid;
  for (const IbLinkNode& n : links.nodes) {
    if (!IsSwitch(n)) continue;
    SwitchFacts sw;
    sw.os = "ib";
    sw.guid = n.guid;
    for (char& c : sw.guid) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string name = IbSwitchName(n.desc);
    if (name.empty() || names[name] > 1) {
      sw.hostname = sw.guid;
      sw.warnings.push_back({source, n.line,
                             name.empty()
                                 ? std::string("the switch has no node description: named by its GUID")
                                 : fmt::format("{} switches describe themselves as '{}': named by GUID; give each its own node "
                                               "description (the plan's name)",
                                               names[name], name)});
    } else {
      sw.hostname = name;
    }
    sw.sources.push_back(source);
    for (const IbLinkPort& p : n.ports) sw.ports.push_back(PortFacts(p, source));
    if (std::string key = GuidKey(sw.guid); !key.empty()) by_guid[key] = out.size();
    if (!n.ports.empty()) by_lid[n.ports.front().lid] = out.size();
    out.push_back(std::move(sw));
  }
  for (const IbCountersFile& file : counters) {
    int unplaced = 0, first_unplaced = 0, hosts = 0, first_host = 0;
    for (const IbPortCounters& c : file.report.ports) {
      if (c.port < 0) continue;  // a node's aggregate: its ports follow one by one
      SwitchFacts* sw = nullptr;
      if (!c.node_guid.empty() && c.is_switch) {
        auto it = by_guid.find(GuidKey(c.node_guid));
        if (it != by_guid.end()) sw = &out[it->second];
      } else if (c.lid) {
        auto it = by_lid.find(c.lid);
        if (it != by_lid.end()) sw = &out[it->second];
      }
      if (!sw) {
        const bool host = !c.node_guid.empty() && !c.is_switch;
        int& count = host ? hosts : unplaced;
        if (count++ == 0) (host ? first_host : first_unplaced) = c.line;
        continue;
      }
      if (std::find(sw->sources.begin(), sw->sources.end(), file.source) == sw->sources.end()) sw->sources.push_back(file.source);
      const std::string port = std::to_string(c.port);
      auto it = std::find_if(sw->ports.begin(), sw->ports.end(), [&port](const SwitchPortFacts& p) { return p.name == port; });
      if (it == sw->ports.end()) {
        sw->warnings.push_back(
            {file.source, c.line, fmt::format("counters of port {}, which iblinkinfo does not list: not read", port)});
        continue;
      }
      it->errors_source = fmt::format("{}:{}", file.source, c.line);
      for (const auto& [counter, value] : c.counters) {
        std::string_view key = IbErrorKey(counter);
        if (!key.empty()) it->errors[std::string(key)] = value;
      }
    }
    if (hosts) {
      fabric_warnings.push_back(
          {file.source, first_host,
           fmt::format("{} CA (host) port counter line(s): a host's counters belong to its own facts; not read here", hosts)});
    }
    if (unplaced) {
      fabric_warnings.push_back(
          {file.source, first_unplaced,
           fmt::format("{} port counter block(s) of a switch GUID or LID that iblinkinfo.txt does not list: not read "
                       "(save both from the same fabric scan)",
                       unplaced)});
    }
  }
  return out;
}

}  // namespace railyard
