#include "parse/module.h"

#include <charconv>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

std::optional<double> LeadingNumber(std::string_view v) {
  v = TrimView(v);
  double d = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || p == v.data()) return std::nullopt;
  return d;
}

}  // namespace

ModuleInfo ParseEthtoolModule(std::string_view text) {
  ModuleInfo m;
  for (const KeyValue& kv : ParseKeyValues(text)) {
    const std::string& k = kv.key;
    const std::string& v = kv.value;
    if (k == "netlink error" || k.find("Cannot get") != std::string::npos) {
      m.warnings.push_back({kv.line, "module EEPROM unreadable: " + k + (v.empty() ? "" : ": " + v)});
      continue;
    }
    m.readable = true;
    m.fields[k] = v;
    if (k == "Identifier") m.identifier = v;
    else if (k == "Connector") m.connector = v;
    else if (k == "Transmitter technology") m.transmitter_technology = v;
    else if (k == "Vendor name") m.vendor_name = v;
    else if (k == "Vendor OUI") m.vendor_oui = v;
    else if (k == "Vendor PN") m.vendor_pn = v;
    else if (k == "Vendor rev") m.vendor_rev = v;
    else if (k == "Vendor SN") m.vendor_sn = v;
    else if (k == "Date code") m.date_code = v;
    else if (k == "Module temperature") m.temperature_c = LeadingNumber(v);  // "41.70 degrees C / ..."
    else if (k == "Module voltage") m.voltage_v = LeadingNumber(v);
    else if (k == "Cable assembly length") {
      // The number is metres: ethtool's CMIS parser labels it "km" ("0.50km" on a 0.5 m
      // MCP1660-W00A DAC, shared fixture m-qsfp-dd-...-cmis-parser), SFF-8636 prints "3m".
      m.cable_length_m = LeadingNumber(v);
    } else if (k == "Transceiver type") m.transceiver_types.push_back(v);
    else if (k.rfind("Length (", 0) == 0) m.lengths[k] = v;
    if ((k.find(" alarm") != std::string::npos || k.find(" warning") != std::string::npos) && v == "On") {
      m.alarms_on.push_back(k);
    }
  }
  if (!m.readable && m.warnings.empty()) m.warnings.push_back({0, "no module fields: not `ethtool -m` output"});
  return m;
}

NicCounters ParseEthtoolStats(std::string_view text) {
  NicCounters c;
  bool header = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t == "NIC statistics:") {
      header = true;
      continue;
    }
    size_t colon = t.rfind(':');
    if (colon == std::string_view::npos) continue;
    std::string_view name = TrimView(t.substr(0, colon));
    std::string_view value = TrimView(t.substr(colon + 1));
    uint64_t n = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || p != value.data() + value.size()) {
      c.warnings.push_back({lines.number(), "counter without a number: " + std::string(t)});
      continue;
    }
    c.values[std::string(name)] = n;
  }
  if (!header) c.warnings.push_back({0, "no \"NIC statistics:\" header: not `ethtool -S` output"});
  return c;
}

}  // namespace railyard
