#include "parse/switch_ports.h"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "parse/key_value.h"
#include "parse/tabulate.h"
#include "util/lines.h"

namespace railyard {
namespace {

// EOS's Status words and what they say about the port.
void SetEosStatus(SwitchPortFacts& p, std::string_view status) {
  p.status = std::string(status);
  if (status == "connected") {
    p.admin = "up";
    p.oper = "up";
  } else if (status == "disabled") {
    p.admin = "down";
    p.oper = "down";
  } else if (status == "errdisabled") {
    p.admin = "up";
    p.oper = "down";
  } else if (status == "notconnect" || status == "inactive" || status == "sfp-missing" || status == "down") {
    p.admin = "up";
    p.oper = "down";
  }
}

}  // namespace

bool ParseSwitchSpeed(std::string_view text, double& gbps, bool& negotiated) {
  negotiated = false;
  gbps = 0;
  if (text.starts_with("a-")) {
    negotiated = true;
    text.remove_prefix(2);
  }
  if (text == "auto") {
    negotiated = true;
    return true;
  }
  double scale = 0;
  if (text.ends_with("G") || text.ends_with("g"))
    scale = 1;
  else if (text.ends_with("M") || text.ends_with("m"))
    scale = 0.001;
  else if (text.ends_with("T"))
    scale = 1000;
  if (scale == 0) return false;
  text.remove_suffix(1);
  double v = 0;
  if (!WholeDouble(text, v) || v < 0 || v > 100000) return false;
  gbps = v * scale;
  return true;
}

namespace {

// The `| json` form: {"interfaceStatuses": {"Ethernet1": {linkStatus, lineProtocolStatus, bandwidth
// (bit/s, 0 when down), duplex (duplexFull...), interfaceType, description, autoNegotiateActive,
// vlanInformation {interfaceMode trunk|bridged|routed, vlanId}, interfaceDamped}}}; the errdisabled
// form's entries carry {status, causes[]} instead. Full port names (Ethernet1/2), not Et1/2.
SwitchPortsReport EosInterfacesStatusJson(std::string_view text) {
  SwitchPortsReport r;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("interfaceStatuses") || !j["interfaceStatuses"].is_object()) {
    r.warnings.push_back({1, "not `show interfaces status | json` output (no \"interfaceStatuses\" object)"});
    return r;
  }
  for (auto it = j["interfaceStatuses"].begin(); it != j["interfaceStatuses"].end(); ++it) {
    const nlohmann::json& e = it.value();
    if (!e.is_object()) {
      r.warnings.push_back({0, it.key() + ": not an object: not read"});
      continue;
    }
    SwitchPortFacts p;
    p.name = it.key();
    auto text_of = [&e](const char* key) {
      return e.contains(key) && e[key].is_string() ? e[key].get<std::string>() : std::string();
    };
    const std::string status = !text_of("linkStatus").empty() ? text_of("linkStatus") : text_of("status");
    if (status.empty()) {
      r.warnings.push_back({0, p.name + ": no linkStatus or status: not read"});
      continue;
    }
    SetEosStatus(p, status);
    p.description = text_of("description");
    if (e.contains("causes") && e["causes"].is_array()) {
      for (const auto& c : e["causes"]) {
        if (c.is_string()) p.reason += (p.reason.empty() ? "" : ",") + c.get<std::string>();
      }
    }
    if (e.value("interfaceDamped", false) == true)
      p.reason += std::string(p.reason.empty() ? "" : ",") + "link-flap damping holds it down";
    if (e.contains("bandwidth") && e["bandwidth"].is_number() && e["bandwidth"].get<double>() > 0)
      p.speed_gbps = e["bandwidth"].get<double>() / 1e9;
    p.speed_auto = e.value("autoNegotiateActive", false) == true;
    const std::string duplex = text_of("duplex");
    p.duplex = duplex == "duplexFull" ? "full" : duplex == "duplexHalf" ? "half" : "";
    p.module_type = text_of("interfaceType");
    if (p.module_type == "Not Present") p.module_present = false;
    if (e.contains("vlanInformation") && e["vlanInformation"].is_object()) {
      const nlohmann::json& v = e["vlanInformation"];
      const std::string mode = v.value("interfaceMode", "");
      if (mode == "trunk" || mode == "routed")
        p.vlan_mode = mode;
      else if (mode == "bridged")
        p.vlan_mode = "access";
      if (v.contains("vlanId") && v["vlanId"].is_number_integer()) p.access_vlan = v["vlanId"].get<int>();
    }
    r.ports.push_back(std::move(p));
  }
  return r;
}

}  // namespace

SwitchPortsReport ParseEosInterfacesStatus(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return EosInterfacesStatusJson(text);
  // Anchored on the Status word rather than on column offsets: names may hold spaces and anything,
  // and pasted or re-spaced tables lose the alignment. The first status word after the port from
  // which the rest reads as Vlan Duplex Speed Type is the row's status; the name is what lies
  // between. `show interfaces status errdisabled` has a Reason instead of Vlan...Type.
  static const std::vector<std::string_view> kStatus = {"connected",   "notconnect", "disabled", "errdisabled", "inactive",
                                                        "sfp-missing", "monitoring", "down",     "up"};
  SwitchPortsReport r;
  LineReader reader(text);
  std::string_view line;
  bool header = false, reasons = false;
  while (reader.Next(line)) {
    const int n = reader.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.starts_with("Port ") && t.find("Status") != std::string_view::npos) {
      header = true;
      reasons = t.find("Reason") != std::string_view::npos;
      continue;
    }
    if (t.find_first_not_of("- ") == std::string_view::npos) continue;  // the dashes under a header
    if (!header) {
      r.warnings.push_back({n, "a line before the port table's header: not read"});
      continue;
    }
    std::vector<std::string_view> w = SplitWords(t);
    if (w.size() < 2 || !std::isalpha(static_cast<unsigned char>(w[0][0]))) {
      r.warnings.push_back({n, "not a port row: not read"});
      continue;
    }
    bool parsed = false;
    for (size_t k = 1; k < w.size() && !parsed; ++k) {
      if (std::find(kStatus.begin(), kStatus.end(), w[k]) == kStatus.end()) continue;
      SwitchPortFacts p;
      p.line = n;
      p.name = std::string(w[0]);
      const size_t name_from = static_cast<size_t>(w[0].data() + w[0].size() - t.data());
      const size_t name_to = static_cast<size_t>(w[k].data() - t.data());
      p.description = std::string(TrimView(t.substr(name_from, name_to - name_from)));
      SetEosStatus(p, w[k]);
      if (reasons) {
        if (k + 1 < w.size()) p.reason = std::string(TrimView(t.substr(static_cast<size_t>(w[k + 1].data() - t.data()))));
        r.ports.push_back(std::move(p));
        parsed = true;
        break;
      }
      // Vlan: "in Po49" (two words), else one word.
      size_t i = k + 1;
      if (i >= w.size()) continue;
      std::string_view vlan = w[i++];
      if (vlan == "in" && i < w.size()) {
        p.vlan_mode = "member";
        p.member_of = std::string(w[i++]);
      } else if (vlan == "routed" || vlan == "trunk") {
        p.vlan_mode = std::string(vlan);
      } else {
        uint64_t id = 0;
        if (!WholeUnsigned(vlan, id) || id < 1 || id > 4094) continue;  // not this status word
        p.vlan_mode = "access";
        p.access_vlan = static_cast<int>(id);
      }
      if (i + 1 >= w.size()) continue;
      std::string_view duplex = w[i++];
      std::string_view speed = w[i++];
      if (duplex.starts_with("a-")) duplex.remove_prefix(2);
      if (duplex != "full" && duplex != "half" && duplex != "auto" && duplex != "unconf" && duplex != "duplexUnknown") continue;
      p.duplex = duplex == "full" || duplex == "half" ? std::string(duplex) : "";
      if (speed != "unconf" && !ParseSwitchSpeed(speed, p.speed_gbps, p.speed_auto)) continue;
      if (i < w.size()) p.module_type = std::string(TrimView(t.substr(static_cast<size_t>(w[i].data() - t.data()))));
      // Flags and Encapsulation columns follow the Type; a Type is one or two words ("Not Present").
      p.module_present = !p.module_type.starts_with("Not Present");
      if (!p.module_present) p.module_type = "Not Present";
      r.ports.push_back(std::move(p));
      parsed = true;
    }
    if (!parsed)
      r.warnings.push_back({n, fmt::format("port {}: no Status word followed by Vlan, Duplex and Speed: not read", w[0])});
  }
  if (!header)
    r.warnings.push_back({reader.number(), "no port table header (Port ... Status ...): not `show interfaces status`"});
  return r;
}

SwitchPortsReport ParseSonicInterfacesStatus(std::string_view text) {
  SwitchPortsReport r;
  LineReader reader(text);
  std::string_view line, header;
  int header_line = 0;
  TabulateColumns columns;
  auto column = [&columns](std::string_view row, const char* name) { return columns.Cell(row, name); };
  while (reader.Next(line)) {
    const int n = reader.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (columns.empty()) {
      if (IsDashesRow(t)) {
        if (header.empty()) {
          r.warnings.push_back({n, "a dashes row without a header above it"});
          continue;
        }
        columns.FromDashes(header, line);
        if (!columns.Has("Interface") || !columns.Has("Oper")) {
          r.warnings.push_back({header_line, "a table without Interface and Oper columns: not `show interfaces status`"});
          columns = TabulateColumns();
        }
        continue;
      }
      header = line;
      header_line = n;
      continue;
    }
    SwitchPortFacts p;
    p.line = n;
    p.name = std::string(column(line, "Interface"));
    const bool name_ok =
        !p.name.empty() && std::isalpha(static_cast<unsigned char>(p.name[0])) &&
        p.name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-") == std::string::npos;
    if (!name_ok) {
      r.warnings.push_back({n, "not a port row: not read"});
      continue;
    }
    auto state = [](std::string_view v) { return v == "up" || v == "down" ? std::string(v) : std::string(); };
    p.oper = state(column(line, "Oper"));
    p.admin = state(column(line, "Admin"));
    p.status = p.admin == "down"  ? "disabled"
               : p.oper == "up"   ? "connected"
               : p.oper == "down" ? "notconnect"
                                  : std::string(column(line, "Oper"));
    p.description = std::string(column(line, "Alias"));
    if (std::string_view speed = column(line, "Speed");
        !speed.empty() && speed != "N/A" && !ParseSwitchSpeed(speed, p.speed_gbps, p.speed_auto)) {
      r.warnings.push_back({n, fmt::format("port {}: speed '{}' not understood", p.name, speed)});
    }
    uint64_t mtu = 0;
    if (WholeUnsigned(column(line, "MTU"), mtu) && mtu < 1u << 20) p.mtu = static_cast<uint32_t>(mtu);
    if (std::string_view fec = column(line, "FEC"); fec != "N/A") p.fec = std::string(fec);
    std::string_view vlan = column(line, "Vlan");
    uint64_t id = 0;
    if (vlan == "routed" || vlan == "trunk") {
      p.vlan_mode = std::string(vlan);
    } else if (vlan.starts_with("PortChannel")) {
      p.vlan_mode = "member";
      p.member_of = std::string(vlan);
    } else if (WholeUnsigned(vlan, id) && id >= 1 && id <= 4094) {
      p.vlan_mode = "access";
      p.access_vlan = static_cast<int>(id);
    }
    std::string_view type = column(line, "Type");
    p.module_type = type == "N/A" ? "" : std::string(type);
    r.ports.push_back(std::move(p));
  }
  if (columns.empty())
    r.warnings.push_back({reader.number(), "no table (a header and its dashes row): not `show interfaces status`"});
  return r;
}

SwitchPortsReport ParseNvueInterfaceJson(std::string_view json) {
  SwitchPortsReport r;
  nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.warnings.push_back({1, "not JSON (a cut `nv show interface -o json`?): not read"});
    return r;
  }
  auto text = [](const nlohmann::json& o, const char* key) -> std::string {
    if (!o.is_object() || !o.contains(key)) return "";
    const nlohmann::json& v = o[key];
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
    if (v.is_object() && !v.empty()) return v.begin().key();  // NVUE's set form: {"up": {}}
    return "";
  };
  for (auto it = j.begin(); it != j.end(); ++it) {
    const nlohmann::json& x = it.value();
    if (!x.is_object()) continue;
    const std::string type = text(x, "type");
    if (type != "swp" && !(type.empty() && it.key().starts_with("swp"))) continue;  // switch ports only
    const nlohmann::json& link = x.contains("link") ? x["link"] : nlohmann::json::object();
    SwitchPortFacts p;
    p.name = it.key();
    p.description = text(x, "description");
    // Newer NVUE: admin-status / oper-status; older: link.state {up|down}; protodown holds it down.
    p.admin = text(link, "admin-status");
    p.oper = text(link, "oper-status");
    const std::string state = text(link, "state");
    if (p.oper.empty() && (state == "up" || state == "down")) p.oper = state;
    if (p.admin.empty() && state == "up") p.admin = "up";
    if (p.oper == "unknown") p.oper.clear();
    const std::string protodown = text(link, "protodown");
    if (protodown == "enabled" || protodown == "on") {
      p.status = "errdisabled";  // the switch holds it down itself, as EOS's errdisabled
      p.reason = "protodown" + (text(link, "protodown-reason").empty() ? "" : ": " + text(link, "protodown-reason"));
    } else {
      p.status = p.admin == "down" ? "disabled" : p.oper == "up" ? "connected" : p.oper == "down" ? "notconnect" : "";
    }
    if (std::string speed = text(link, "speed"); !speed.empty() && !ParseSwitchSpeed(speed, p.speed_gbps, p.speed_auto)) {
      r.warnings.push_back({0, fmt::format("port {}: speed '{}' not understood", p.name, speed)});
    }
    if (text(link, "auto-negotiate") == "on" || text(link, "auto-negotiate") == "enabled") p.speed_auto = true;
    uint64_t mtu = 0;
    if (WholeUnsigned(text(link, "mtu"), mtu) && mtu < 1u << 20) p.mtu = static_cast<uint32_t>(mtu);
    p.fec = text(link, "fec");
    p.duplex = text(link, "duplex");
    r.ports.push_back(std::move(p));
  }
  if (r.ports.empty()) r.warnings.push_back({1, "no switch port (type swp) in the document"});
  return r;
}

std::optional<bool> VlanListHas(std::string_view list, int vlan) {
  list = TrimView(list);
  if (list == "ALL") return true;
  if (list == "NONE" || list.empty()) return list == "NONE" ? std::optional<bool>(false) : std::nullopt;
  bool has = false;
  for (std::string_view part : SplitWords(list, ',')) {
    const size_t dash = part.find('-');
    uint64_t lo = 0, hi = 0;
    if (!WholeUnsigned(part.substr(0, dash), lo)) return std::nullopt;
    hi = lo;
    if (dash != std::string_view::npos && !WholeUnsigned(part.substr(dash + 1), hi)) return std::nullopt;
    if (hi < lo || hi > 4095) return std::nullopt;
    has = has || (static_cast<uint64_t>(vlan) >= lo && static_cast<uint64_t>(vlan) <= hi);
  }
  return has;
}

SwitchPortsReport ParseEosSwitchport(std::string_view text) {
  SwitchPortsReport r;
  auto mode_of = [](std::string_view m) -> std::string {
    if (m == "trunk") return "trunk";
    if (m == "access" || m == "static access") return "access";
    if (m == "routed") return "routed";
    return std::string(m);
  };
  if (TrimView(text).starts_with("{")) {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("switchports") || !j["switchports"].is_object()) {
      r.warnings.push_back({1, "not the JSON of `show interfaces switchport | json` (no \"switchports\")"});
      return r;
    }
    for (auto it = j["switchports"].begin(); it != j["switchports"].end(); ++it) {
      const nlohmann::json& info =
          it.value().is_object() && it.value().contains("switchportInfo") ? it.value()["switchportInfo"] : nlohmann::json();
      if (!info.is_object()) {
        r.warnings.push_back({0, fmt::format("{}: no switchportInfo", it.key())});
        continue;
      }
      SwitchPortFacts p;
      p.name = it.key();
      if (info.contains("mode") && info["mode"].is_string()) p.vlan_mode = mode_of(info["mode"].get<std::string>());
      if (info.contains("accessVlanId") && info["accessVlanId"].is_number_integer())
        p.access_vlan = info["accessVlanId"].get<int>();
      if (info.contains("trunkAllowedVlans") && info["trunkAllowedVlans"].is_string())
        p.allowed_vlans = info["trunkAllowedVlans"].get<std::string>();
      if (info.contains("trunkingNativeVlanId") && info["trunkingNativeVlanId"].is_number_integer())
        p.native_vlan = info["trunkingNativeVlanId"].get<int>();
      r.ports.push_back(std::move(p));
    }
    return r;
  }
  LineReader reader(text);
  std::string_view line;
  SwitchPortFacts* current = nullptr;
  UnreadLines unread;
  while (reader.Next(line)) {
    const int n = reader.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    const size_t colon = t.find(':');
    std::string_view key = colon == std::string_view::npos ? t : TrimView(t.substr(0, colon));
    std::string_view value = colon == std::string_view::npos ? std::string_view() : TrimView(t.substr(colon + 1));
    if (key == "Name") {
      r.ports.push_back({});
      current = &r.ports.back();
      current->name = std::string(value);
      current->line = n;
      continue;
    }
    if (!current) {
      unread.Note(n, t);
      continue;
    }
    uint64_t id = 0;
    auto leading_id = [&](std::string_view v) { return WholeUnsigned(v.substr(0, v.find(' ')), id) && id <= 4095; };
    if (key == "Operational Mode") {
      current->vlan_mode = mode_of(value);
    } else if (key == "Access Mode VLAN" && leading_id(value)) {
      current->access_vlan = static_cast<int>(id);
    } else if (key == "Trunking Native Mode VLAN" && leading_id(value)) {
      current->native_vlan = static_cast<int>(id);
    } else if (key == "Trunking VLANs Enabled") {
      current->allowed_vlans = std::string(value);
    } else if (colon == std::string_view::npos) {
      unread.Note(n, t);  // a prompt, "... (more ports)"
    }
  }
  unread.Warn(r.warnings, "`show interfaces switchport` blocks");
  if (r.ports.empty()) r.warnings.push_back({reader.number(), "no \"Name:\" block: not `show interfaces switchport`"});
  return r;
}

SwitchPortsReport ParseSonicVlanBrief(std::string_view text) {
  SwitchPortsReport r;
  LineReader reader(text);
  std::string_view line;
  std::vector<std::string> names;
  int vlan = 0;
  std::map<std::string, std::pair<std::vector<int>, int>> member;  // port -> tagged VLANs, untagged VLAN
  std::vector<std::string> order;
  bool no_tagging_said = false;
  auto cells = [](std::string_view row) {
    std::vector<std::string_view> out;
    size_t start = row.find('|');
    while (start != std::string_view::npos) {
      size_t end = row.find('|', start + 1);
      if (end == std::string_view::npos) break;
      out.push_back(TrimView(row.substr(start + 1, end - start - 1)));
      start = end;
    }
    return out;
  };
  while (reader.Next(line)) {
    const int n = reader.number();
    std::string_view t = TrimView(line);
    if (t.empty() || t.starts_with("+")) continue;  // borders, the === under the header
    if (!t.starts_with("|")) {
      r.warnings.push_back({n, "not a row of the grid: not read"});
      continue;
    }
    std::vector<std::string_view> c = cells(t);
    if (names.empty()) {
      for (std::string_view name : c) names.emplace_back(name);
      if (std::find(names.begin(), names.end(), "VLAN ID") == names.end() ||
          std::find(names.begin(), names.end(), "Ports") == names.end()) {
        r.warnings.push_back({n, "a grid without VLAN ID and Ports columns: not `show vlan brief`"});
        return r;
      }
      continue;
    }
    auto cell = [&](const char* name) -> std::string_view {
      for (size_t i = 0; i < names.size() && i < c.size(); ++i) {
        if (names[i] == name) return c[i];
      }
      return {};
    };
    if (std::string_view id = cell("VLAN ID"); !id.empty()) {
      uint64_t v = 0;
      if (!WholeUnsigned(id, v) || v < 1 || v > 4094) {
        r.warnings.push_back({n, fmt::format("VLAN ID '{}' not understood: its rows not read", id)});
        vlan = 0;
        continue;
      }
      vlan = static_cast<int>(v);
    }
    std::string_view port = cell("Ports");
    if (port.empty() || vlan == 0) continue;
    const bool has_tagging = std::find(names.begin(), names.end(), "Port Tagging") != names.end();
    if (!has_tagging) {
      if (!no_tagging_said) r.warnings.push_back({n, "no Port Tagging column (an old layout): the ports' VLANs are not read"});
      no_tagging_said = true;
      continue;
    }
    std::string_view tagging = cell("Port Tagging");
    auto [it, fresh] = member.try_emplace(std::string(port));
    if (fresh) order.push_back(std::string(port));
    if (tagging == "tagged")
      it->second.first.push_back(vlan);
    else if (tagging == "untagged")
      it->second.second = vlan;
    else
      r.warnings.push_back({n, fmt::format("{}: tagging '{}' not understood", port, tagging)});
  }
  for (const std::string& name : order) {
    const auto& [tagged, untagged] = member[name];
    SwitchPortFacts p;
    p.name = name;
    if (!tagged.empty()) {
      p.vlan_mode = "trunk";
      for (int v : tagged) p.allowed_vlans += (p.allowed_vlans.empty() ? "" : ",") + std::to_string(v);
      p.native_vlan = untagged;
    } else {
      p.vlan_mode = "access";
      p.access_vlan = untagged;
    }
    r.ports.push_back(std::move(p));
  }
  if (names.empty()) r.warnings.push_back({reader.number(), "no grid header: not `show vlan brief`"});
  return r;
}

SwitchPortsReport ParseEosCountersErrors(std::string_view text) {
  SwitchPortsReport r;
  if (TrimView(text).starts_with("{")) {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("interfaceErrorCounters") || !j["interfaceErrorCounters"].is_object()) {
      r.warnings.push_back({1, "not the JSON of `show interfaces counters errors | json` (no \"interfaceErrorCounters\")"});
      return r;
    }
    static const std::vector<std::pair<const char*, const char*>> kKeys = {
        {"fcsErrors", "fcs"},        {"alignmentErrors", "align"}, {"symbolErrors", "symbol"}, {"inErrors", "rx"},
        {"frameTooShorts", "runts"}, {"frameTooLongs", "giants"},  {"outErrors", "tx"}};
    for (auto it = j["interfaceErrorCounters"].begin(); it != j["interfaceErrorCounters"].end(); ++it) {
      if (!it.value().is_object()) continue;
      SwitchPortFacts p;
      p.name = it.key();
      for (const auto& [key, name] : kKeys) {
        if (it.value().contains(key) && it.value()[key].is_number_unsigned()) p.errors[name] = it.value()[key].get<uint64_t>();
      }
      r.ports.push_back(std::move(p));
    }
    return r;
  }
  LineReader reader(text);
  std::string_view line;
  std::vector<std::string> columns;
  UnreadLines unread;
  while (reader.Next(line)) {
    const int n = reader.number();
    std::vector<std::string_view> w = SplitWords(line);
    if (w.empty()) continue;
    if (w[0] == "Port") {
      columns.clear();
      for (size_t i = 1; i < w.size(); ++i) {
        std::string c(w[i]);
        for (char& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        columns.push_back(c);
      }
      continue;
    }
    if (columns.empty() || w.size() != columns.size() + 1) {
      unread.Note(n, TrimView(line));
      continue;
    }
    SwitchPortFacts p;
    p.name = std::string(w[0]);
    p.line = n;
    bool ok = true;
    for (size_t i = 0; i < columns.size() && ok; ++i) {
      uint64_t v = 0;
      ok = WholeUnsigned(w[i + 1], v);
      p.errors[columns[i]] = v;
    }
    if (!ok) {
      r.warnings.push_back({n, fmt::format("port {}: a counter that is not a number: not read", p.name)});
      continue;
    }
    r.ports.push_back(std::move(p));
  }
  unread.Warn(r.warnings, "`show interfaces counters errors` rows");
  if (columns.empty())
    r.warnings.push_back({reader.number(), "no header (Port FCS Align ...): not `show interfaces counters errors`"});
  return r;
}

}  // namespace railyard

namespace railyard {

SwitchPortsReport ParseSonicCounters(std::string_view text) {
  static const std::pair<const char*, const char*> kColumns[] = {{"RX_ERR", "rx"},
                                                                 {"TX_ERR", "tx"},
                                                                 {"RX_DRP", "rx_drop"},
                                                                 {"TX_DRP", "tx_drop"},
                                                                 {"RX_OVR", "rx_overrun"},
                                                                 {"TX_OVR", "tx_overrun"},
                                                                 {"FEC_CORR", "fec_corrected"},
                                                                 {"FEC_UNCORR", "fec_uncorrected"},
                                                                 {"FEC_SYMBOL_ERR", "fec_symbol"}};
  SwitchPortsReport r;
  UnreadLines unread;
  LineReader reader(text);
  std::string_view line, header;
  int header_line = 0;
  TabulateColumns columns;
  bool any_table = false;
  while (reader.Next(line)) {
    const int n = reader.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.starts_with("IFACE ")) {  // a (new) table's header: its dashes row, if any, follows
      header = line;
      header_line = n;
      columns.FromHeader(line);  // until the dashes row says better
      any_table = true;
      continue;
    }
    if (IsDashesRow(t)) {
      if (!header.empty() && header_line == n - 1) columns.FromDashes(header, line);
      continue;
    }
    if (columns.empty() || t.starts_with("Last cached time") || t.starts_with("Reminder:") || t.starts_with("Time Since")) {
      if (!t.starts_with("Last cached time") && !t.starts_with("Reminder:")) unread.Note(n, t);
      continue;
    }
    const std::string_view name = columns.Cell(line, "IFACE");
    if (!name.starts_with("Ethernet") && !name.starts_with("PortChannel")) {
      unread.Note(n, t);  // a prompt, the next command's echo
      continue;
    }
    SwitchPortFacts p;
    p.name = std::string(name);
    p.line = n;
    bool ok = true;
    for (const auto& [column, key] : kColumns) {
      if (!columns.Has(column)) continue;
      std::string_view cell = columns.Cell(line, column);
      if (cell == "N/A" || cell.empty()) continue;
      std::string digits;
      for (char c : cell) {
        if (c != ',') digits += c;
      }
      uint64_t v = 0;
      if (!WholeUnsigned(digits, v)) {
        ok = false;
        break;
      }
      p.errors[key] = v;
    }
    if (!ok) {
      unread.Note(n, t);
      continue;
    }
    r.ports.push_back(std::move(p));
  }
  unread.Warn(r.warnings, "portstat rows (IFACE STATE ... counters)");
  if (!any_table) r.warnings.push_back({0, "no \"IFACE  STATE\" header: not `show interfaces counters` output"});
  return r;
}

}  // namespace railyard
