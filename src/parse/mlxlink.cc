#include "parse/mlxlink.h"

#include <charconv>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

template <typename T>
std::optional<T> Number(std::string_view v) {
  v = TrimView(v);
  T out{};
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p == v.data()) return std::nullopt;
  return out;
}

// "0x00003ff2 (200G_2X,200G_4X,100G_1X)" -> {"200G_2X", "200G_4X", "100G_1X"}.
std::vector<std::string> SpeedNames(std::string_view value) {
  std::vector<std::string> out;
  size_t open = value.find('('), close = value.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return out;
  std::string_view list = value.substr(open + 1, close - open - 1);
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view name = TrimView(list.substr(0, comma));
    if (!name.empty()) out.emplace_back(name);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return out;
}

void Apply(MlxlinkPort& port, const std::string& key, const std::string& value) {
  port.fields[key] = value;
  if (key == "State") port.state = value;
  else if (key == "Physical state") port.physical_state = value;
  else if (key == "Speed") port.speed = value;
  else if (key == "Width") port.width = value;
  else if (key == "FEC") port.fec = value;
  else if (key == "Enabled Link Speed (Ext.)" || key == "Enabled Link Speed") port.enabled_speeds = SpeedNames(value);
  else if (key == "Supported Cable Speed (Ext.)" || key == "Supported Cable Speed") port.cable_speeds = SpeedNames(value);
  else if (key == "Status Opcode") port.status_opcode = Number<int>(value);
  else if (key == "Recommendation") port.recommendation = value;
  else if (key == "Firmware Version") port.firmware_version = value;
  else if (key == "Raw Physical BER") port.raw_ber = Number<double>(value);
  else if (key == "Effective Physical BER") port.effective_ber = Number<double>(value);
  else if (key == "Symbol BER") port.symbol_ber = Number<double>(value);
  else if (key == "Symbol Errors") port.symbol_errors = Number<uint64_t>(value);
  else if (key == "Effective Physical Errors") port.effective_errors = Number<uint64_t>(value);
  else if (key == "Link Down Counter") port.link_down_counter = Number<uint64_t>(value);
  else if (key == "Link Error Recovery Counter") port.link_error_recovery = Number<uint64_t>(value);
  else if (key == "Raw Physical Errors Per Lane") {
    size_t start = 0;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      if (comma == std::string::npos) comma = value.size();
      if (auto n = Number<uint64_t>(std::string_view(value).substr(start, comma - start))) port.raw_errors_per_lane.push_back(*n);
      start = comma + 1;
    }
  } else if (key == "Vendor Name") port.module_vendor = value;
  else if (key == "Vendor Part Number") port.module_part_number = value;
  else if (key == "Vendor Serial Number") port.module_serial = value;
  else if (key == "Cable Length") port.cable_length = value;
  else if (key.rfind("Temperature", 0) == 0 || key.rfind("Module Temperature", 0) == 0) {
    port.module_temperature_c = Number<double>(value);  // "45C" / "45 [C]": the leading number
  }
}

// mlxlink colours values on a terminal; captures often keep the escapes.
std::string StripAnsi(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      i += 2;
      while (i < s.size() && !(s[i] >= '@' && s[i] <= '~')) ++i;
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

}  // namespace

MlxlinkReport ParseMlxlink(std::string_view raw) {
  MlxlinkReport report;
  const std::string text = StripAnsi(raw);
  LineReader lines(text);
  std::string_view line;
  MlxlinkPort* port = nullptr;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.starts_with("=====")) {
      // "========== mlx5_0 FEC Counters ==========": a new port; its name is the first word.
      // A rule of '=' alone names nothing and starts nothing.
      size_t name_at = t.find_first_not_of('=');
      if (name_at == std::string_view::npos) continue;
      std::string_view inner = TrimView(t.substr(name_at));
      report.ports.emplace_back();
      port = &report.ports.back();
      port->device = std::string(inner.substr(0, inner.find(' ')));
      continue;
    }
    size_t sep = t.find(" : ");
    if (sep == std::string_view::npos) sep = t.find(':');
    if (sep == std::string_view::npos) continue;  // section titles, rules
    std::string key(TrimView(t.substr(0, sep)));
    std::string value(TrimView(t.substr(t[sep] == ' ' ? sep + 3 : sep + 1)));
    if (key.empty() || key.find_first_not_of('-') == std::string::npos) continue;
    if (!port) {
      report.ports.emplace_back();
      port = &report.ports.back();
    }
    Apply(*port, key, value);
  }
  if (report.ports.empty()) report.warnings.push_back({0, "no \"key : value\" lines: not mlxlink output"});
  return report;
}

}  // namespace railyard
