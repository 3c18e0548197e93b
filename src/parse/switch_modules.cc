#include "parse/switch_modules.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

// Keeps the lowest reading of a module's lanes: one dark lane is what breaks a link.
void Lowest(bool& has, double& into, double value) {
  if (!has || value < into) into = value;
  has = true;
}

}  // namespace

bool ParseDomValue(std::string_view t, double& value) {
  t = TrimView(t);
  if (t == "-inf" || t == "-infdBm") {  // no light, as SONiC's sfputil prints log10(0)
    value = -40;
    return true;
  }
  size_t end = 0;
  while (end < t.size() && (std::isdigit(static_cast<unsigned char>(t[end])) || t[end] == '.' || t[end] == '-' || t[end] == '+'))
    ++end;
  std::string_view unit = t.substr(end);
  if (!unit.empty() && unit != "dBm" && unit != "C" && unit != "mA" && unit != "Volts" && unit != "V" && unit != "mW")
    return false;
  return WholeDouble(t.substr(0, end), value) && std::isfinite(value);
}

SwitchPortsReport ParseEosTransceiver(std::string_view text) {
  SwitchPortsReport r;
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("interfaces") || !j["interfaces"].is_object()) {
      r.warnings.push_back({1, "not `show interfaces transceiver | json` output (no \"interfaces\" object)"});
      return r;
    }
    for (auto it = j["interfaces"].begin(); it != j["interfaces"].end(); ++it) {
      SwitchPortFacts p;
      p.name = it.key();
      const nlohmann::json& m = it.value();
      if (!m.is_object()) {
        r.warnings.push_back({0, p.name + ": not an object: not read"});
        continue;
      }
      auto number = [&m](const char* key, bool& has, double& into) {
        if (m.contains(key) && m[key].is_number() && std::isfinite(m[key].get<double>())) Lowest(has, into, m[key].get<double>());
      };
      number("rxPower", p.has_rx_power, p.rx_power_dbm);
      number("txPower", p.has_tx_power, p.tx_power_dbm);
      number("txBias", p.has_tx_bias, p.tx_bias_ma);
      number("temperature", p.has_temp, p.module_temp_c);
      if (m.contains("mediaType") && m["mediaType"].is_string()) p.module_type = m["mediaType"].get<std::string>();
      if (m.contains("vendorSn") && m["vendorSn"].is_string()) p.module_serial = m["vendorSn"].get<std::string>();
      r.ports.push_back(std::move(p));  // an empty object: a cage without a module or without DOM, said by nothing set
    }
    return r;
  }
  UnreadLines unread;
  LineReader lines(text);
  std::string_view line;
  bool table = false;
  while (lines.Next(line)) {
    const int n = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t.starts_with("-----")) {
      table = true;
      continue;
    }
    std::vector<std::string_view> w = SplitWords(t);
    // Legend and header lines before the dashes; a new header (a second command) starts over.
    if (!table || t.starts_with("Port ") || w.size() < 6) {
      if (t.starts_with("Port ")) table = false;
      if (table) unread.Note(n, t);
      continue;
    }
    SwitchPortFacts p;
    p.name = std::string(w[0]);
    p.line = n;
    double v = 0;
    bool ok = true;
    auto cell = [&](std::string_view c, bool& has, double& into) {
      if (c == "N/A") return;
      if (ParseDomValue(c, v))
        Lowest(has, into, v);
      else
        ok = false;
    };
    double voltage = 0;
    bool has_voltage = false;
    cell(w[1], p.has_temp, p.module_temp_c);
    cell(w[2], has_voltage, voltage);
    cell(w[3], p.has_tx_bias, p.tx_bias_ma);
    cell(w[4], p.has_tx_power, p.tx_power_dbm);
    cell(w[5], p.has_rx_power, p.rx_power_dbm);
    if (!ok || !(p.name.starts_with("Et") || p.name.starts_with("Ethernet"))) {
      unread.Note(n, t);
      continue;
    }
    r.ports.push_back(std::move(p));
  }
  unread.Warn(r.warnings, "transceiver rows (Port Temp Voltage Bias TxPower RxPower ...)");
  if (r.ports.empty() && !table) r.warnings.push_back({0, "no dashed header rule: not `show interfaces transceiver` output"});
  return r;
}

SwitchPortsReport ParseSonicTransceiverPresence(std::string_view text) {
  SwitchPortsReport r;
  UnreadLines unread;
  LineReader lines(text);
  std::string_view line;
  bool header = false;
  while (lines.Next(line)) {
    const int n = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty() || t == "..." || t.find_first_not_of("- ") == std::string_view::npos) continue;
    if (t.starts_with("Port") && t.find("Presence") != std::string_view::npos) {
      header = true;
      continue;
    }
    std::vector<std::string_view> w = SplitWords(t);
    SwitchPortFacts p;
    p.line = n;
    if (!header || w.size() < 2 || !w[0].starts_with("Ethernet")) {
      unread.Note(n, t);
      continue;
    }
    p.name = std::string(w[0]);
    std::string_view state = TrimView(t.substr(w[0].size()));
    if (state == "Present") {
      p.module_present = true;
    } else if (state == "Not present") {
      p.module_present = false;
      p.module_type = "Not Present";
    } else {
      unread.Note(n, t);
      continue;
    }
    r.ports.push_back(std::move(p));
  }
  unread.Warn(r.warnings, "presence rows (EthernetN Present | Not present)");
  if (!header) r.warnings.push_back({0, "no \"Port  Presence\" header: not `show interfaces transceiver presence` output"});
  return r;
}

SwitchPortsReport ParseSonicTransceiverEeprom(std::string_view text) {
  SwitchPortsReport r;
  UnreadLines unread;
  SwitchPortFacts* p = nullptr;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    const int n = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty() || t == "...." || t == "...") continue;
    const bool top = line.front() != ' ' && line.front() != '\t';
    if (top) {
      // "Ethernet8: SFP EEPROM detected" | "Ethernet0: SFP detected" | "Ethernet4: SFP EEPROM Not detected"
      const size_t colon = t.find(':');
      std::string_view status = colon == std::string_view::npos ? std::string_view() : TrimView(t.substr(colon + 1));
      if (!t.starts_with("Ethernet") || !status.starts_with("SFP") || !status.ends_with("detected")) {
        unread.Note(n, t);
        p = nullptr;
        continue;
      }
      r.ports.emplace_back();
      p = &r.ports.back();
      p->name = std::string(t.substr(0, colon));
      p->line = n;
      if (status.find("Not detected") != std::string_view::npos) {
        p->module_present = false;
        p->module_type = "Not Present";
      }
      continue;
    }
    if (!p) {
      unread.Note(n, t);
      continue;
    }
    const size_t colon = t.find(':');
    if (colon == std::string_view::npos) continue;  // an advertisement's continuation line
    std::string_view key = TrimView(t.substr(0, colon)), value = TrimView(t.substr(colon + 1));
    double v = 0;
    if (key == "Vendor Name")
      p->module_vendor = std::string(value);
    else if (key == "Vendor PN")
      p->module_pn = std::string(value);
    else if (key == "Vendor SN")
      p->module_serial = std::string(value);
    else if (key == "Identifier")
      p->module_type = std::string(value);
    else if (key == "Temperature" && ParseDomValue(value, v))
      Lowest(p->has_temp, p->module_temp_c, v);
    else if (key.starts_with("RX") && key.ends_with("Power") && ParseDomValue(value, v))
      Lowest(p->has_rx_power, p->rx_power_dbm, v);
    else if (key.starts_with("TX") && key.ends_with("Power") && ParseDomValue(value, v))
      Lowest(p->has_tx_power, p->tx_power_dbm, v);
    else if (key.starts_with("TX") && key.ends_with("Bias") && ParseDomValue(value, v))
      Lowest(p->has_tx_bias, p->tx_bias_ma, v);
    // Every other key (compliance codes, advertisements, thresholds) is the module's own description.
  }
  unread.Warn(r.warnings, "`show interfaces transceiver eeprom` port headers or indented fields");
  if (r.ports.empty())
    r.warnings.push_back({0, "no \"EthernetN: SFP ... detected\" line: not `show interfaces transceiver eeprom` output"});
  return r;
}

}  // namespace railyard
