#include "parse/mlxlink.h"

#include <charconv>

#include <fmt/format.h>

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

// InfiniBand speed names in rate order, with the per-lane rate in Gb/s (catalog.md §9).
constexpr std::pair<const char*, double> kIbSpeeds[] = {{"SDR", 2.5}, {"DDR", 5},  {"QDR", 10},  {"FDR10", 10}, {"FDR", 14},
                                                        {"EDR", 25},  {"HDR", 50}, {"NDR", 100}, {"XDR", 200}};

// "IB-HDR" / "HDR" -> its rank in kIbSpeeds (1-based), 0 when not an IB speed name.
int IbRank(std::string_view name) {
  if (name.starts_with("IB-")) name.remove_prefix(3);
  for (size_t i = 0; i < std::size(kIbSpeeds); ++i) {
    if (name == kIbSpeeds[i].first) return static_cast<int>(i) + 1;
  }
  return 0;
}

// "200G_2X" / "100G" / "25G" -> 200 / 100 / 25 Gb/s; 0 when not an Ethernet speed name.
double EthGbps(std::string_view name) {
  double v = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), v);
  if (ec != std::errc() || end == name.data() + name.size() || *end != 'G') return 0;
  return v;
}

// The fastest speed both the port (enabled) and the cable support, as (rank-or-Gb/s, name).
std::pair<double, std::string> BestCommon(const MlxlinkPort& l, bool ib) {
  std::pair<double, std::string> best{0, ""};
  for (const std::string& e : l.enabled_speeds) {
    double ev = ib ? IbRank(e) : EthGbps(e);
    if (ev <= 0) continue;
    for (const std::string& cs : l.cable_speeds) {
      if ((ib ? IbRank(cs) : EthGbps(cs)) == ev && ev > best.first) best = {ev, ib ? e : fmt::format("{:g}G", ev)};
    }
  }
  return best;
}

void Apply(MlxlinkPort& port, const std::string& key, const std::string& value) {
  port.fields[key] = value;
  if (key == "State")
    port.state = value;
  else if (key == "Physical state")
    port.physical_state = value;
  else if (key == "Speed")
    port.speed = value;
  else if (key == "Width")
    port.width = value;
  else if (key == "FEC")
    port.fec = value;
  else if (key == "Enabled Link Speed (Ext.)" || key == "Enabled Link Speed")
    port.enabled_speeds = SpeedNames(value);
  else if (key == "Supported Cable Speed (Ext.)" || key == "Supported Cable Speed")
    port.cable_speeds = SpeedNames(value);
  else if (key == "Status Opcode")
    port.status_opcode = Number<int>(value);
  else if (key == "Recommendation")
    port.recommendation = value;
  else if (key == "Firmware Version")
    port.firmware_version = value;
  else if (key == "Raw Physical BER")
    port.raw_ber = Number<double>(value);
  else if (key == "Effective Physical BER")
    port.effective_ber = Number<double>(value);
  else if (key == "Symbol BER")
    port.symbol_ber = Number<double>(value);
  else if (key == "Symbol Errors")
    port.symbol_errors = Number<uint64_t>(value);
  else if (key == "Effective Physical Errors")
    port.effective_errors = Number<uint64_t>(value);
  else if (key == "Link Down Counter")
    port.link_down_counter = Number<uint64_t>(value);
  else if (key == "Link Error Recovery Counter")
    port.link_error_recovery = Number<uint64_t>(value);
  else if (key == "Raw Physical Errors Per Lane") {
    size_t start = 0;
    while (start <= value.size()) {
      size_t comma = value.find(',', start);
      if (comma == std::string::npos) comma = value.size();
      if (auto n = Number<uint64_t>(std::string_view(value).substr(start, comma - start))) port.raw_errors_per_lane.push_back(*n);
      start = comma + 1;
    }
  } else if (key == "Vendor Name")
    port.module_vendor = value;
  else if (key == "Vendor Part Number")
    port.module_part_number = value;
  else if (key == "Vendor Serial Number")
    port.module_serial = value;
  else if (key == "Cable Length")
    port.cable_length = value;
  else if (key == "Transfer Distance [m]" && port.cable_length.empty() && value != "N/A")
    port.cable_length = value + " m";
  else if (key == "OUI")
    port.module_oui = value;
  else if (key == "Cable Type")
    port.cable_type = value;
  else if (key.ends_with("[per lane]")) {
    // "1,0,1,1": one flag per lane; "N/A" prints nothing.
    std::vector<int>* lanes = key.starts_with("Rx LOS")       ? &port.rx_los
                              : key.starts_with("Rx CDR LOL") ? &port.rx_cdr_lol
                              : key.starts_with("Tx Fault")   ? &port.tx_fault
                                                              : nullptr;
    if (lanes && value != "N/A") {
      lanes->clear();
      size_t start = 0;
      while (start <= value.size()) {
        size_t comma = value.find(',', start);
        if (comma == std::string::npos) comma = value.size();
        if (auto n = Number<int>(std::string_view(value).substr(start, comma - start))) lanes->push_back(*n);
        start = comma + 1;
      }
    }
  } else if (key.rfind("Temperature", 0) == 0 || key.rfind("Module Temperature", 0) == 0) {
    // "45C" / "45 [C]" / "41 [-5..75]": the leading number. A sensorless module (passive copper) prints
    // "0 [0..0]" and "N/A": unknown, never 0 °C.
    port.module_temperature_c = value.find("[0..0]") != std::string::npos ? std::nullopt : Number<double>(value);
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

SpeedHeadroom MlxlinkSpeedHeadroom(const MlxlinkPort& l) {
  SpeedHeadroom h;
  h.infiniband = IbRank(l.speed) > 0;
  h.now = h.infiniband ? IbRank(l.speed) : EthGbps(l.speed);
  auto [best, name] = BestCommon(l, h.infiniband);
  h.best = best;
  h.best_name = name;
  return h;
}

double MlxlinkLaneGbps(const MlxlinkPort& l) {
  int lanes = 0;
  std::from_chars(l.width.data(), l.width.data() + l.width.size(), lanes);
  if (int r = IbRank(l.speed)) return kIbSpeeds[r - 1].second;
  double gbps = EthGbps(l.speed);
  return lanes > 0 ? gbps / lanes : gbps;
}

}  // namespace railyard
