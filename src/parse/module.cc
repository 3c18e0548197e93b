#include "parse/module.h"

#include <cctype>
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
    // ethtool -m's field names are words ("Vendor name", "Laser tx bias current (Channel 1)"): a line whose
    // key does not start with a letter is not one of them (a pasted prompt, garbage after the output).
    if (k.empty() || !std::isalpha(static_cast<unsigned char>(k.front()))) {
      m.warnings.push_back({kv.line, "not an ethtool -m field line: '" + k.substr(0, 40) + "'"});
      continue;
    }
    m.readable = true;
    m.fields[k] = v;
    if (k == "Identifier")
      m.identifier = v;
    else if (k == "Connector")
      m.connector = v;
    else if (k == "Transmitter technology")
      m.transmitter_technology = v;
    else if (k == "Vendor name")
      m.vendor_name = v;
    else if (k == "Vendor OUI")
      m.vendor_oui = v;
    else if (k == "Vendor PN")
      m.vendor_pn = v;
    else if (k == "Vendor rev")
      m.vendor_rev = v;
    else if (k == "Vendor SN")
      m.vendor_sn = v;
    else if (k == "Date code")
      m.date_code = v;
    else if (k == "Module temperature")
      m.temperature_c = LeadingNumber(v);  // "41.70 degrees C / ..."
    else if (k == "Module voltage")
      m.voltage_v = LeadingNumber(v);
    else if (k == "Cable assembly length") {
      // The number is metres: ethtool's CMIS parser labels it "km" ("0.50km" on a 0.5 m
      // MCP1660-W00A DAC, shared fixture m-qsfp-dd-...-cmis-parser), SFF-8636 prints "3m".
      m.cable_length_m = LeadingNumber(v);
    } else if (k == "Transceiver type")
      m.transceiver_types.push_back(v);
    else if (k.rfind("Length (", 0) == 0)
      m.lengths[k] = v;
    if ((k.find(" alarm") != std::string::npos || k.find(" warning") != std::string::npos) && v == "On") {
      m.alarms_on.push_back(k);
    }
  }
  if (!m.readable && m.warnings.empty()) m.warnings.push_back({0, "no module fields: not `ethtool -m` output"});
  return m;
}

ModuleLanes LanesOf(const ModuleInfo& m) {
  ModuleLanes l;
  // "… (Channel 3)" / "…(Channel 3)" / "… (Chan 3)" -> 3; 0 when the key names no channel.
  auto channel = [](std::string_view k) {
    size_t open = k.rfind('(');
    if (open == std::string_view::npos || !k.ends_with(")")) return 0;
    std::string_view inner = k.substr(open + 1, k.size() - open - 2);
    size_t space = inner.rfind(' ');
    int n = 0;
    std::string_view digits = space == std::string_view::npos ? inner : inner.substr(space + 1);
    std::from_chars(digits.data(), digits.data() + digits.size(), n);
    return n > 0 && n <= 16 ? n : 0;
  };
  auto put = [](std::vector<std::optional<double>>& v, int ch, std::optional<double> x) {
    if (v.size() < static_cast<size_t>(ch)) v.resize(ch);
    v[ch - 1] = x;
  };
  // "0.0001 mW / -40.00 dBm", "0.0000 mW / -inf dBm"
  auto dbm = [](std::string_view v) -> std::optional<double> {
    size_t slash = v.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    std::string_view d = TrimView(v.substr(slash + 1));
    if (d.starts_with("-inf")) return kNoLightDbm;
    auto x = LeadingNumber(d);
    if (x && *x < kNoLightDbm) x = kNoLightDbm;
    return x;
  };
  // "[ Yes, No, Yes ]" -> {true, false, true}; "None" -> {}
  auto flags = [](std::string_view v) {
    std::vector<bool> out;
    if (!v.starts_with("[")) return out;
    for (std::string_view w :
         SplitWords(v.substr(1, v.find(']') == std::string_view::npos ? std::string_view::npos : v.find(']') - 1), ',')) {
      out.push_back(w == "Yes");
    }
    return out;
  };
  for (const auto& [k, v] : m.fields) {
    int ch = channel(k);
    if (ch && k.starts_with("Laser tx bias current"))
      put(l.tx_bias_ma, ch, LeadingNumber(v));
    else if (ch && k.starts_with("Transmit avg optical power"))
      put(l.tx_power_dbm, ch, dbm(v));
    else if (ch && (k.starts_with("Rcvr signal avg optical power") || k.starts_with("Receiver signal average optical power") ||
                    k.starts_with("Rx power")))
      put(l.rx_power_dbm, ch, dbm(v));
    else if (k == "Rx loss of signal")
      l.rx_los = flags(v);
    else if (k == "Tx loss of signal")
      l.tx_los = flags(v);
    else if (k == "Rx loss of lock")
      l.rx_lol = flags(v);
    else if (k == "Tx loss of lock")
      l.tx_lol = flags(v);
    else if (k == "Module State")
      l.module_state = v;
  }
  return l;
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
