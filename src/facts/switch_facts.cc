#include "facts/switch_facts.h"
#include "util/input_error.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "facts/ib_switch_facts.h"
#include "parse/switch_modules.h"
#include "util/file.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

// The InfiniBand fabric's outputs: one run from any host sees every switch of the subnet.
bool IsIbFabricFile(const std::string& name) {
  return name == "iblinkinfo.txt" || name == "ibqueryerrors.txt" || name == "perfquery.txt";
}

json QosJson(const SwitchQos& q) {
  json j;
  if (!q.mode.empty()) j["mode"] = q.mode;
  if (!q.trust.empty()) j["trust"] = q.trust;
  if (q.pfc_read) j["pfc_priorities"] = q.pfc_priorities;
  if (q.ecn_read) j["ecn_tcs"] = q.ecn_tcs;
  if (!q.prio_to_tc.empty()) {
    json m = json::object();
    for (const auto& [prio, tc] : q.prio_to_tc) m[std::to_string(prio)] = tc;
    j["prio_to_tc"] = m;
  }
  j["source"] = q.line ? fmt::format("{}:{}", q.source, q.line) : q.source;
  return j;
}

SwitchQos QosFromJson(const nlohmann::json& j) {
  SwitchQos q;
  q.mode = j.value("mode", "");
  q.trust = j.value("trust", "");
  auto list = [&j](const char* key, bool& read, std::vector<int>& into) {
    if (!j.contains(key) || !j[key].is_array()) return;
    read = true;
    for (const auto& v : j[key]) {
      if (v.is_number_integer() && v.get<int>() >= 0 && v.get<int>() <= 7) into.push_back(v.get<int>());
    }
  };
  list("pfc_priorities", q.pfc_read, q.pfc_priorities);
  list("ecn_tcs", q.ecn_read, q.ecn_tcs);
  if (j.contains("prio_to_tc") && j["prio_to_tc"].is_object()) {
    for (auto it = j["prio_to_tc"].begin(); it != j["prio_to_tc"].end(); ++it) {
      if (it.value().is_number_integer() && it.key().size() == 1 && it.key()[0] >= '0' && it.key()[0] <= '7') {
        q.prio_to_tc[it.key()[0] - '0'] = it.value().get<int>();
      }
    }
  }
  q.source = j.value("source", "");  // "file:line" as written
  return q;
}

}  // namespace

std::string SwitchFactsJson(const SwitchFacts& f) {
  json j;
  j["schema"] = kSwitchFactsSchema;
  j["hostname"] = f.hostname;  // bytes that are not UTF-8 become U+FFFD in the dump below
  j["os"] = f.os;
  if (!f.guid.empty()) j["guid"] = f.guid;
  j["ports"] = json::array();
  for (const SwitchPortFacts& p : f.ports) {
    json x = {{"name", p.name}};
    auto put = [&](const char* key, const std::string& v) {
      if (!v.empty()) x[key] = v;
    };
    put("description", p.description);
    put("admin", p.admin);
    put("oper", p.oper);
    put("status", p.status);
    put("reason", p.reason);
    if (p.speed_gbps > 0) x["speed_gbps"] = p.speed_gbps;
    if (p.speed_auto) x["speed_auto"] = true;
    put("duplex", p.duplex);
    put("fec", p.fec);
    if (p.mtu) x["mtu"] = p.mtu;
    put("vlan_mode", p.vlan_mode);
    if (p.access_vlan) x["access_vlan"] = p.access_vlan;
    put("member_of", p.member_of);
    put("allowed_vlans", p.allowed_vlans);
    if (!p.errors.empty()) x["errors"] = p.errors;
    put("errors_source", p.errors_source);
    if (p.native_vlan) x["native_vlan"] = p.native_vlan;
    put("module_vendor", p.module_vendor);
    put("module_pn", p.module_pn);
    put("module_serial", p.module_serial);
    if (p.has_temp) x["module_temp_c"] = p.module_temp_c;
    if (p.has_rx_power) x["rx_power_dbm"] = p.rx_power_dbm;
    if (p.has_tx_power) x["tx_power_dbm"] = p.tx_power_dbm;
    if (p.has_tx_bias) x["tx_bias_ma"] = p.tx_bias_ma;
    put("module_source", p.module_source);
    if (p.qos) x["qos"] = QosJson(*p.qos);
    put("peer", p.peer);
    put("could_be", p.could_be);
    put("module_type", p.module_type);
    if (!p.module_present) x["module_present"] = false;
    put("source", p.source);
    if (p.line) x["line"] = p.line;
    j["ports"].push_back(std::move(x));
  }
  if (f.qos) j["qos"] = QosJson(*f.qos);
  if (!f.running_os.empty()) j["running_config"] = {{"os", f.running_os}, {"source", f.running_source}, {"entries", f.running}};
  j["warnings"] = json::array();
  for (const SwitchFactsWarning& w : f.warnings)
    j["warnings"].push_back({{"source", w.source}, {"line", w.line}, {"message", w.message}});
  j["sources"] = f.sources;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

SwitchFacts ParseSwitchFactsJson(const std::string& text, const std::string& source) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  auto fail = [&](const std::string& why) { throw InputError(source, 0, 0, "", why); };
  if (j.is_discarded() || !j.is_object()) fail("not JSON");
  if (!j.contains("schema") || j["schema"] != kSwitchFactsSchema) fail(fmt::format("not {}", kSwitchFactsSchema));
  SwitchFacts f;
  try {
    f.hostname = j.value("hostname", "");
    f.os = j.value("os", "");
    f.guid = j.value("guid", "");
    for (const auto& x : j.value("ports", nlohmann::json::array())) {
      SwitchPortFacts p;
      p.name = x.at("name").get<std::string>();
      p.description = x.value("description", "");
      p.admin = x.value("admin", "");
      p.oper = x.value("oper", "");
      p.status = x.value("status", "");
      p.reason = x.value("reason", "");
      p.speed_gbps = x.value("speed_gbps", 0.0);
      p.speed_auto = x.value("speed_auto", false);
      p.duplex = x.value("duplex", "");
      p.fec = x.value("fec", "");
      p.mtu = x.value("mtu", 0u);
      p.vlan_mode = x.value("vlan_mode", "");
      p.access_vlan = x.value("access_vlan", 0);
      p.member_of = x.value("member_of", "");
      p.allowed_vlans = x.value("allowed_vlans", "");
      if (x.contains("errors") && x["errors"].is_object()) {
        for (auto e = x["errors"].begin(); e != x["errors"].end(); ++e) {
          if (e.value().is_number_unsigned()) p.errors[e.key()] = e.value().get<uint64_t>();
        }
      }
      p.errors_source = x.value("errors_source", "");
      p.native_vlan = x.value("native_vlan", 0);
      p.module_vendor = x.value("module_vendor", "");
      p.module_pn = x.value("module_pn", "");
      p.module_serial = x.value("module_serial", "");
      auto reading = [&x](const char* key, bool& has, double& into) {
        if (x.contains(key) && x[key].is_number()) has = true, into = x[key].get<double>();
      };
      reading("module_temp_c", p.has_temp, p.module_temp_c);
      reading("rx_power_dbm", p.has_rx_power, p.rx_power_dbm);
      reading("tx_power_dbm", p.has_tx_power, p.tx_power_dbm);
      reading("tx_bias_ma", p.has_tx_bias, p.tx_bias_ma);
      p.module_source = x.value("module_source", "");
      if (x.contains("qos") && x["qos"].is_object()) p.qos = QosFromJson(x["qos"]);
      p.peer = x.value("peer", "");
      p.could_be = x.value("could_be", "");
      p.module_type = x.value("module_type", "");
      p.module_present = x.value("module_present", true);
      p.source = x.value("source", "");
      p.line = x.value("line", 0);
      f.ports.push_back(std::move(p));
    }
    if (j.contains("qos") && j["qos"].is_object()) f.qos = QosFromJson(j["qos"]);
    if (j.contains("running_config") && j["running_config"].is_object()) {
      const auto& rc = j["running_config"];
      f.running_os = rc.value("os", "");
      f.running_source = rc.value("source", "");
      if (rc.contains("entries") && rc["entries"].is_object()) {
        for (auto e = rc["entries"].begin(); e != rc["entries"].end(); ++e) {
          if (e.value().is_string()) f.running[e.key()] = e.value().get<std::string>();
        }
      }
    }
    for (const auto& w : j.value("warnings", nlohmann::json::array())) {
      f.warnings.push_back({w.value("source", ""), w.value("line", 0), w.value("message", "")});
    }
    f.sources = j.value("sources", std::vector<std::string>{});
  } catch (const nlohmann::json::exception& e) {
    fail(fmt::format("not a switch-facts document: {}", e.what()));
  }
  return f;
}

namespace {

// The saved outputs of one switch, read file by file: the status table's ports first-class, the other
// outputs (VLANs, counters, transceivers, QoS, errdisabled reasons) kept aside and merged into them by
// port name at the end, whatever order the files came in.
class SwitchCaptureReader {
 public:
  // Reads one file by its name; false when railyard reads no file of that name.
  bool Read(const fs::path& p) {
    const std::string name = p.filename().string(), source = p.string();
    if (name == "hostname.txt") {
      std::string h = Text(p);
      h.erase(h.find_last_not_of(" \t\r\n") + 1);
      f_.hostname = h.substr(0, h.find('\n'));
    } else if (name == "eos-show-interfaces-status.txt" || name == "eos-show-interfaces-status.json") {
      AddStatus(ParseEosInterfacesStatus(Text(p)), "eos", source);
    } else if (name == "eos-show-interfaces-status-errdisabled.txt" || name == "eos-show-interfaces-status-errdisabled.json") {
      std::vector<SwitchPortFacts> table;  // the Reason table: merged at the end
      Supplement(ParseEosInterfacesStatus(Text(p)), "eos", source, table);
      for (const SwitchPortFacts& port : table) reasons_[port.name] = {port.reason, source + ":" + std::to_string(port.line)};
    } else if (name == "eos-show-interfaces-switchport.txt" || name == "eos-show-interfaces-switchport.json") {
      Supplement(ParseEosSwitchport(Text(p)), "eos", source, vlans_);
    } else if (name == "eos-show-interfaces-counters-errors.txt" || name == "eos-show-interfaces-counters-errors.json") {
      Tagged(ParseEosCountersErrors(Text(p)), "eos", source, counters_);
    } else if (name == "eos-show-interfaces-transceiver.txt" || name == "eos-show-interfaces-transceiver.json") {
      Tagged(ParseEosTransceiver(Text(p)), "eos", source, modules_);
    } else if (name == "sonic-show-interfaces-transceiver-presence.txt") {
      Tagged(ParseSonicTransceiverPresence(Text(p)), "sonic", source, modules_);
    } else if (name == "sonic-show-interfaces-transceiver-eeprom.txt") {
      Tagged(ParseSonicTransceiverEeprom(Text(p)), "sonic", source, modules_);
    } else if (name == "nvue-show-qos-roce.txt") {
      ReadNvueQos(Text(p), source);
    } else if (name == "eos-show-qos-interfaces.txt") {
      ReadEosQos(Text(p), source);
    } else if (name == "eos-show-running-config.txt" || name == "sonic-config-db.json" || name == "nvue-config.yaml") {
      ReadRunningConfig(name.starts_with("eos") ? "eos" : name.starts_with("sonic") ? "sonic" : "nvue", Text(p), source);
    } else if (name == "sonic-show-interfaces-counters.txt" || name == "sonic-show-interfaces-counters-errors.txt" ||
               name == "sonic-show-interfaces-counters-fec-stats.txt") {
      Tagged(ParseSonicCounters(Text(p)), "sonic", source, counters_);
    } else if (name == "sonic-show-vlan-brief.txt") {
      Supplement(ParseSonicVlanBrief(Text(p)), "sonic", source, vlans_);
    } else if (name == "sonic-show-interfaces-status.txt") {
      AddStatus(ParseSonicInterfacesStatus(Text(p)), "sonic", source);
    } else if (name == "nvue-show-interface.json") {
      AddStatus(ParseNvueInterfaceJson(Text(p)), "nvue", source);
    } else {
      return false;
    }
    return true;
  }

  SwitchFacts& facts() { return f_; }

  // The outputs kept aside, merged into the status table's ports.
  SwitchFacts Finish() {
    ApplyErrdisabledReasons();
    Merge(vlans_, [](SwitchPortFacts& port, const SwitchPortFacts& v) {
      if (!v.vlan_mode.empty()) port.vlan_mode = v.vlan_mode;
      if (v.access_vlan) port.access_vlan = v.access_vlan;
      port.allowed_vlans = v.allowed_vlans;
      port.native_vlan = v.native_vlan;
    });
    Merge(modules_, MergeModule);
    Merge(qos_ports_, [](SwitchPortFacts& port, const SwitchPortFacts& q) { port.qos = q.qos; });
    Merge(counters_, [](SwitchPortFacts& port, const SwitchPortFacts& c) {
      for (const auto& [key, value] : c.errors) port.errors[key] = value;  // several counter outputs add up to one view
      port.errors_source = c.line ? fmt::format("{}:{}", c.source, c.line) : c.source;
    });
    return std::move(f_);
  }

 private:
  static std::string Text(const fs::path& p) { return ReadWholeFile(p.string()); }  // names the file when unreadable

  void SetOs(const std::string& os) {
    if (f_.os.empty()) f_.os = os;
  }

  void Warn(const std::string& source, const std::vector<ParseWarning>& warnings) {
    for (const ParseWarning& w : warnings) f_.warnings.push_back({source, w.line, w.message});
  }

  // The status table: the switch's ports.
  void AddStatus(const SwitchPortsReport& r, const std::string& os, const std::string& source) {
    SetOs(os);
    for (SwitchPortFacts p : r.ports) {
      p.source = source;
      f_.ports.push_back(std::move(p));
    }
    Warn(source, r.warnings);
  }

  // An output that adds to the status table's ports: its ports kept aside, its warnings.
  void Supplement(SwitchPortsReport r, const std::string& os, const std::string& source, std::vector<SwitchPortFacts>& into) {
    SetOs(os);
    for (SwitchPortFacts& port : r.ports) into.push_back(std::move(port));
    Warn(source, r.warnings);
  }

  // A supplement whose ports remember the file they came from (the status table's ports keep theirs).
  void Tagged(SwitchPortsReport r, const std::string& os, const std::string& source, std::vector<SwitchPortFacts>& into) {
    for (SwitchPortFacts& port : r.ports) port.source = source;
    Supplement(std::move(r), os, source, into);
  }

  // NVUE's `qos roce`: the switch-wide profile.
  void ReadNvueQos(const std::string& text, const std::string& source) {
    SwitchQosReport r = ParseNvueQosRoce(text);
    SetOs("nvue");
    Warn(source, r.warnings);
    if (auto it = r.ports.find(""); it != r.ports.end()) {
      f_.qos = it->second;
      f_.qos->source = source;
    }
  }

  // EOS's `show qos interfaces`: per port.
  void ReadEosQos(const std::string& text, const std::string& source) {
    SwitchQosReport r = ParseEosQosInterfaces(text);
    SetOs("eos");
    Warn(source, r.warnings);
    for (auto& [port_name, q] : r.ports) {
      SwitchPortFacts port;
      port.name = port_name;
      port.qos = q;
      port.qos->source = source;
      qos_ports_.push_back(std::move(port));
    }
  }

  // The saved running configuration, for switch-config-drift.
  void ReadRunningConfig(const std::string& os, const std::string& text, const std::string& source) {
    std::string error;
    ConfigEntries entries = ConfigEntriesOf(os, text, error);
    if (!error.empty() || entries.empty()) {
      f_.warnings.push_back({source, 0, error.empty() ? "no configuration line read" : error + ": not read"});
      return;
    }
    SetOs(os);
    f_.running_os = os;
    f_.running = std::move(entries);
    f_.running_source = source;
  }

  // Each errdisabled port's cause on its status-table port; a port the table lacks is said.
  void ApplyErrdisabledReasons() {
    for (const auto& [errdisabled_port, why] : reasons_) {
      const std::string& port = errdisabled_port;  // a plain reference: lambdas cannot capture structured bindings (clang)
      auto it = std::find_if(f_.ports.begin(), f_.ports.end(), [&port](const SwitchPortFacts& x) {
        return x.name == port || EosLongPortName(x.name) == EosLongPortName(port);
      });
      if (it != f_.ports.end()) {
        it->reason = why.first;
      } else {
        f_.warnings.push_back(
            {why.second, 0, fmt::format("{} is errdisabled ({}) but not in the status table: not read", port, why.first)});
      }
    }
  }

  // A supplementary port merged into the status table's port of the same name (the switchport and
  // counters outputs name ports in full, Ethernet1, where the status table is short, Et1), or kept on
  // its own when the table does not list it.
  void Merge(const std::vector<SwitchPortFacts>& extra,
             const std::function<void(SwitchPortFacts&, const SwitchPortFacts&)>& apply) {
    for (const SwitchPortFacts& e : extra) {
      const std::string& name = e.name;
      auto it = std::find_if(f_.ports.begin(), f_.ports.end(), [&name](const SwitchPortFacts& x) {
        return x.name == name || EosLongPortName(x.name) == EosLongPortName(name);
      });
      if (it == f_.ports.end()) {
        f_.ports.push_back(e);
      } else {
        apply(*it, e);
      }
    }
  }

  static void MergeModule(SwitchPortFacts& port, const SwitchPortFacts& m) {
    if (!m.module_present) {
      port.module_present = false;
      port.module_type = "Not Present";
    }
    if (port.module_type.empty() || port.module_type == "N/A") port.module_type = m.module_type;
    auto text = [](std::string& into, const std::string& from) {
      if (!from.empty()) into = from;
    };
    text(port.module_vendor, m.module_vendor);
    text(port.module_pn, m.module_pn);
    text(port.module_serial, m.module_serial);
    auto reading = [](bool& has, double& into, bool from_has, double from) {
      if (from_has) has = true, into = from;
    };
    reading(port.has_temp, port.module_temp_c, m.has_temp, m.module_temp_c);
    reading(port.has_rx_power, port.rx_power_dbm, m.has_rx_power, m.rx_power_dbm);
    reading(port.has_tx_power, port.tx_power_dbm, m.has_tx_power, m.tx_power_dbm);
    reading(port.has_tx_bias, port.tx_bias_ma, m.has_tx_bias, m.tx_bias_ma);
    port.module_source = m.line ? fmt::format("{}:{}", m.source, m.line) : m.source;
  }

  SwitchFacts f_;
  std::map<std::string, std::pair<std::string, std::string>> reasons_;  // errdisabled port -> cause, where
  std::vector<SwitchPortFacts> vlans_;      // from the switchport output: VLAN mode, access, allowed, native
  std::vector<SwitchPortFacts> counters_;   // from the error counters output
  std::vector<SwitchPortFacts> modules_;    // from the transceiver outputs
  std::vector<SwitchPortFacts> qos_ports_;  // from show qos interfaces
};

}  // namespace

SwitchFacts CollectSwitchFrom(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, 0, 0, "", "not a directory of saved switch outputs");
  SwitchCaptureReader reader;
  SwitchFacts& f = reader.facts();
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_symlink()) {
      f.warnings.push_back(
          {e.path().string(), 0, "a symlink: not followed (the directory holds what was saved from the switch)"});
    } else if (e.is_regular_file()) {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    if (reader.Read(p)) {
      f.sources.push_back(p.string());
    } else if (!IsIbFabricFile(p.filename().string())) {  // the fabric's switches: CollectSwitchesFrom
      f.warnings.push_back({p.string(), 0, "not a file railyard reads (docs/switch.md lists the names): not read"});
    }
  }
  SwitchFacts out = reader.Finish();
  if (out.hostname.empty()) out.hostname = fs::path(dir).lexically_normal().filename().string();
  return out;
}

SwitchFactsSet CollectSwitchesFrom(const std::string& dir) {
  SwitchFactsSet set;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, 0, 0, "", "not a directory of saved switch outputs");
  bool ethernet = false;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!IsIbFabricFile(e.path().filename().string())) {
      ethernet = true;
    } else if (e.is_symlink()) {
      set.warnings.push_back(
          {e.path().string(), 0, "a symlink: not followed (the directory holds what was saved from the fabric)"});
    }
  }
  const fs::path links = fs::path(dir) / "iblinkinfo.txt";
  if (fs::is_regular_file(links, ec) && !fs::is_symlink(links, ec)) {
    auto warn = [&set](const std::vector<ParseWarning>& warnings, const std::string& source) {
      for (const ParseWarning& w : warnings) set.warnings.push_back({source, w.line, w.message});
    };
    IblinkinfoPorts ports = ParseIblinkinfoPorts(ReadWholeFile(links.string()));
    warn(ports.warnings, links.string());
    std::vector<IbCountersFile> counters;
    for (const char* name : {"ibqueryerrors.txt", "perfquery.txt"}) {
      const fs::path p = fs::path(dir) / name;
      if (!fs::is_regular_file(p, ec) || fs::is_symlink(p, ec)) continue;
      IbCountersFile c{std::string(name) == "perfquery.txt" ? ParsePerfquery(ReadWholeFile(p.string()))
                                                            : ParseIbqueryerrors(ReadWholeFile(p.string())),
                       p.string()};
      warn(c.report.warnings, c.source);
      counters.push_back(std::move(c));
    }
    for (SwitchFacts& sw : IbSwitchFacts(ports, links.string(), counters, set.warnings)) set.switches.push_back(std::move(sw));
  } else {
    for (const char* name : {"ibqueryerrors.txt", "perfquery.txt"}) {
      if (fs::exists(fs::path(dir) / name, ec)) {
        set.warnings.push_back({(fs::path(dir) / name).string(), 0,
                                "InfiniBand counters without iblinkinfo.txt cannot be placed on a switch: not read"});
      }
    }
  }
  if (ethernet) {
    SwitchFacts sw = CollectSwitchFrom(dir);
    if (!sw.ports.empty() || set.switches.empty()) {
      set.switches.push_back(std::move(sw));
    } else {
      for (SwitchFactsWarning& w : sw.warnings) set.warnings.push_back(std::move(w));  // other files beside a fabric scan
    }
  }
  return set;
}

std::string EosLongPortName(const std::string& name) {
  if (name.starts_with("Et") && !name.starts_with("Ethernet")) return "Ethernet" + name.substr(2);
  if (name.starts_with("Po") && !name.starts_with("Port-Channel")) return "Port-Channel" + name.substr(2);
  if (name.starts_with("Ma") && !name.starts_with("Management")) return "Management" + name.substr(2);
  return name;
}

}  // namespace railyard
