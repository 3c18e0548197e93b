// lldpctl's text output forms (keyvalue, plain, xml): one Adjacency per neighbour, as the JSON reader
// makes them. Samples: tests/fixtures/lldpd/lldpctl-*-host-veth-to-leaf-ifname-portid.* (the same neighbour in
// all five forms, from real lldpd) and tests/fixtures/lldpctl/ (Cisco, Juniper, Cumulus neighbours with VLANs).
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "parse/key_value.h"
#include "parse/lldpctl.h"
#include "util/lines.h"

namespace railyard {
namespace {

// One neighbour being read, whatever the form.
struct Pending {
  std::string local_port;
  std::string chassis_name, chassis_id;
  std::string port_id_type, port_id, port_descr;
  int vlan = -1;
  bool vlan_is_pvid = false;
  int line = 0;
};

void Emit(Pending& n, std::string_view local_device, const std::shared_ptr<const std::string>& file, AdjacencyReport& report) {
  if (n.local_port.empty()) return;
  Adjacency a;
  a.local_device = std::string(local_device);
  a.local_port = n.local_port;
  a.remote_device = !n.chassis_name.empty() ? n.chassis_name : n.chassis_id;
  if (n.chassis_name.empty()) a.remote_guid = n.chassis_id;
  bool id_is_name = n.port_id_type == "ifname" || n.port_id_type == "local" || n.port_id_type == "ifalias";
  a.remote_port = id_is_name || n.port_descr.empty() ? n.port_id : n.port_descr;
  a.pvid = n.vlan;
  a.medium = Medium::kEthernet;
  a.source = file;
  a.line = n.line;
  if (a.remote_device.empty() || a.remote_port.empty()) {
    report.warnings.push_back({n.line, fmt::format("neighbour on {} without a chassis name or port", n.local_port)});
  } else {
    report.adjacencies.push_back(std::move(a));
  }
  n = Pending{};
}

void NoteVlan(Pending& n, int id, bool pvid) {
  if (id < 0) return;
  if (n.vlan < 0 || (pvid && !n.vlan_is_pvid)) {
    n.vlan = id;
    n.vlan_is_pvid = pvid;
  }
}

int ToInt(std::string_view s) {
  int v = 0;
  bool any = false;
  for (char c : s) {
    if (c < '0' || c > '9') break;
    v = v * 10 + (c - '0');
    any = true;
    if (v > 1'000'000) return -1;
  }
  return any ? v : -1;
}

}  // namespace

AdjacencyReport ParseLldpctlKeyValue(std::string_view text, std::string_view local_device, std::string_view source) {
  AdjacencyReport report;
  auto file = std::make_shared<const std::string>(source);
  Pending n;
  LineReader lines(text);
  std::string_view line;
  int read = 0;
  while (lines.Next(line)) {
    if (line.empty()) continue;
    if (!line.starts_with("lldp.")) continue;  // the continuation of a multi-line value (a SysDescr)
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      report.warnings.push_back({lines.number(), "a `lldp.` line without '='"});
      continue;
    }
    ++read;
    std::string_view key = line.substr(5, eq - 5), value = line.substr(eq + 1);
    size_t dot = key.find('.');
    if (dot == std::string_view::npos) continue;
    std::string_view iface = key.substr(0, dot), field = key.substr(dot + 1);
    // A neighbour starts at its interface's first key; "via" (each neighbour's first key) again on the same
    // interface is the next neighbour there.
    if (iface != n.local_port || (field == "via" && !(n.chassis_name.empty() && n.chassis_id.empty()))) {
      Emit(n, local_device, file, report);
      n.local_port = std::string(iface);
      n.line = lines.number();
    }
    if (field == "chassis.name")
      n.chassis_name = std::string(value);
    else if (field == "chassis.mac" || field == "chassis.local" || field == "chassis.ip")
      n.chassis_id = std::string(value);
    else if (field == "port.ifname" || field == "port.local" || field == "port.mac" || field == "port.ifalias" ||
             field == "port.ip") {
      n.port_id_type = std::string(field.substr(5));
      n.port_id = std::string(value);
    } else if (field == "port.descr")
      n.port_descr = std::string(value);
    else if (field == "vlan.vlan-id")
      NoteVlan(n, ToInt(value), false);
    else if (field == "vlan.pvid" && value == "yes" && n.vlan >= 0)
      n.vlan_is_pvid = true;
  }
  Emit(n, local_device, file, report);
  if (read == 0 && text.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    report.warnings.push_back({1, "no `lldp.IF.key=value` line: not `lldpctl -f keyvalue` output"});
  }
  return report;
}

AdjacencyReport ParseLldpctlPlain(std::string_view text, std::string_view local_device, std::string_view source) {
  AdjacencyReport report;
  auto file = std::make_shared<const std::string>(source);
  Pending n;
  LineReader lines(text);
  std::string_view line;
  bool any = false;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.starts_with("Interface:")) {
      Emit(n, local_device, file, report);
      any = true;
      std::string_view rest = TrimView(t.substr(10));
      n.local_port = std::string(rest.substr(0, rest.find(',')));
      n.line = lines.number();
      continue;
    }
    if (n.local_port.empty()) continue;
    auto value = [&](size_t key_len) { return TrimView(t.substr(key_len)); };
    if (t.starts_with("SysName:"))
      n.chassis_name = std::string(value(8));
    else if (t.starts_with("ChassisID:")) {
      std::string_view v = value(10);  // "mac 00:1c:b0:49:c8:08"
      n.chassis_id = std::string(v.find(' ') == std::string_view::npos ? v : TrimView(v.substr(v.find(' '))));
    } else if (t.starts_with("PortID:")) {
      std::string_view v = value(7);  // "ifname swp7", "local Fa0/8", "mac 06:c1:…"
      size_t space = v.find(' ');
      n.port_id_type = std::string(v.substr(0, space));
      n.port_id = space == std::string_view::npos ? std::string() : std::string(TrimView(v.substr(space)));
    } else if (t.starts_with("PortDescr:"))
      n.port_descr = std::string(value(10));
    else if (t.starts_with("VLAN:")) {
      std::string_view v = value(5);  // "12, pvid: yes" or "100, pvid: no VLAN100"
      NoteVlan(n, ToInt(v), v.find("pvid: yes") != std::string_view::npos);
    }
  }
  Emit(n, local_device, file, report);
  if (!any && text.find_first_not_of(" \t\r\n-") != std::string_view::npos &&
      text.find("LLDP neighbors") == std::string_view::npos) {
    report.warnings.push_back({1, "no `Interface:` block: not `lldpctl` output"});
  }
  return report;
}

namespace {

// The value of attribute `name` in one XML start tag ("<id label=\"PortID\" type=\"ifname\">").
std::string Attribute(std::string_view tag, std::string_view name) {
  std::string key = " " + std::string(name) + "=\"";
  size_t at = tag.find(key);
  if (at == std::string_view::npos) return {};
  size_t start = at + key.size(), end = tag.find('"', start);
  return end == std::string_view::npos ? std::string() : std::string(tag.substr(start, end - start));
}

std::string Unescape(std::string_view s) {
  static const std::pair<std::string_view, char> kEntities[] = {
      {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}, {"&amp;", '&'}};
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    bool done = false;
    if (s[i] == '&') {
      for (const auto& [entity, c] : kEntities) {
        if (s.substr(i).starts_with(entity)) {
          out += c;
          i += entity.size() - 1;
          done = true;
          break;
        }
      }
    }
    if (!done) out += s[i];
  }
  return out;
}

}  // namespace

AdjacencyReport ParseLldpctlXml(std::string_view text, std::string_view local_device, std::string_view source) {
  AdjacencyReport report;
  auto file = std::make_shared<const std::string>(source);
  Pending n;
  enum { kNone, kChassis, kPort } section = kNone;
  bool any = false;
  size_t pos = 0;
  while ((pos = text.find('<', pos)) != std::string_view::npos) {
    size_t close = text.find('>', pos);
    if (close == std::string_view::npos) {
      report.warnings.push_back(
          {1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n')),
           "truncated XML: a tag without '>'"});
      break;
    }
    std::string_view tag = text.substr(pos, close - pos + 1);
    auto element_text = [&]() {
      size_t end = text.find('<', close + 1);
      return Unescape(text.substr(close + 1, end == std::string_view::npos ? std::string_view::npos : end - close - 1));
    };
    if (tag.starts_with("<interface ")) {
      Emit(n, local_device, file, report);
      any = true;
      n.local_port = Attribute(tag, "name");
      n.line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    } else if (tag.starts_with("<chassis")) {
      section = kChassis;
    } else if (tag.starts_with("<port")) {
      section = kPort;
    } else if (tag.starts_with("</chassis") || tag.starts_with("</port")) {
      section = kNone;
    } else if (tag.starts_with("<name") && section == kChassis) {
      n.chassis_name = element_text();
    } else if (tag.starts_with("<id") && section == kChassis) {
      n.chassis_id = element_text();
    } else if (tag.starts_with("<id") && section == kPort) {
      n.port_id_type = Attribute(tag, "type");
      n.port_id = element_text();
    } else if (tag.starts_with("<descr") && section == kPort) {
      n.port_descr = element_text();
    } else if (tag.starts_with("<vlan ")) {
      NoteVlan(n, ToInt(Attribute(tag, "vlan-id")), Attribute(tag, "pvid") == "yes");
    }
    pos = close + 1;
  }
  Emit(n, local_device, file, report);
  if (!any && text.find("<lldp") == std::string_view::npos)
    report.warnings.push_back({1, "no <lldp> document: not `lldpctl -f xml` output"});
  return report;
}

AdjacencyReport ParseLldpctl(std::string_view text, std::string_view local_device, std::string_view source) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    // Nothing at all: `lldpctl -f keyvalue` on a device with no neighbour, or a capture that failed
    // (ssh timed out, the file truncated). Taken as "no neighbour", a failed capture would report every
    // cable of the device missing; said instead, so the caller can tell.
    AdjacencyReport report;
    report.warnings.push_back({1,
                               "empty: no lldpctl output (a failed capture?); `lldpctl -f json` says \"no neighbour\" as "
                               "{\"lldp\": {}}, which is read as such"});
    return report;
  }
  if (text[first] == '{' || text[first] == '[') return ParseLldpctlJson(text, local_device, source);
  if (text[first] == '<') return ParseLldpctlXml(text, local_device, source);
  if (text.substr(first).starts_with("lldp.")) return ParseLldpctlKeyValue(text, local_device, source);
  return ParseLldpctlPlain(text, local_device, source);
}

}  // namespace railyard
