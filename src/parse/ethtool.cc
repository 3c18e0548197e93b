#include "parse/ethtool.h"

#include <charconv>

#include "parse/key_value.h"

namespace railyard {
namespace {

std::vector<std::string> Words(const std::string& value) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < value.size()) {
    while (i < value.size() && (value[i] == ' ' || value[i] == '\t' || value[i] == '\n')) ++i;
    size_t start = i;
    while (i < value.size() && value[i] != ' ' && value[i] != '\t' && value[i] != '\n') ++i;
    if (i > start) out.push_back(value.substr(start, i - start));
  }
  if (out.size() == 1 && out[0] == "Not") out.clear();  // "Not reported"
  if (out.size() == 2 && out[0] == "Not" && out[1] == "reported") out.clear();
  return out;
}

std::optional<bool> YesNo(const std::string& v) {
  if (v == "yes" || v == "Yes" || v == "on") return true;
  if (v == "no" || v == "No" || v == "off") return false;
  return std::nullopt;
}

}  // namespace

EthtoolSettings ParseEthtoolSettings(std::string_view text) {
  EthtoolSettings s;
  std::string_view first = TrimView(text.substr(0, text.find('\n')));
  if (first.starts_with("Settings for ") && first.ends_with(":")) {
    s.interface = std::string(first.substr(13, first.size() - 14));
  } else {
    s.warnings.push_back({1, "no \"Settings for IF:\" line: not `ethtool IF` output"});
  }
  for (const KeyValue& kv : ParseKeyValues(text)) {
    const std::string& k = kv.key;
    if (k == "Speed") {
      // "10000Mb/s" or "Unknown!"
      std::from_chars(kv.value.data(), kv.value.data() + kv.value.size(), s.speed_mbps);
    } else if (k == "Duplex")
      s.duplex = kv.value;
    else if (k == "Port")
      s.port = kv.value;
    else if (k == "Link detected") {
      std::string_view v = kv.value;
      size_t open = v.find(" (");
      if (open != std::string_view::npos && v.back() == ')') {
        s.link_detected_reason = std::string(v.substr(open + 2, v.size() - open - 3));
        v = v.substr(0, open);
      }
      s.link_detected = YesNo(std::string(v));
    } else if (k == "Auto-negotiation")
      s.autoneg = YesNo(kv.value);
    else if (k == "Lanes")
      std::from_chars(kv.value.data(), kv.value.data() + kv.value.size(), s.lanes);
    else if (k == "Supported link modes")
      s.supported_link_modes = Words(kv.value);
    else if (k == "Advertised link modes")
      s.advertised_link_modes = Words(kv.value);
    else if (k == "Link partner advertised link modes")
      s.partner_link_modes = Words(kv.value);
    else if (k == "Supported FEC modes")
      s.supported_fec_modes = Words(kv.value);
    else if (k == "Advertised FEC modes")
      s.advertised_fec_modes = Words(kv.value);
  }
  return s;
}

EthtoolDriver ParseEthtoolDriver(std::string_view text) {
  EthtoolDriver d;
  for (KeyValue kv : ParseKeyValues(text)) {
    // A mail archive's quoting ("> driver: ice") is not part of the key.
    while (kv.key.starts_with(">")) kv.key = std::string(TrimView(std::string_view(kv.key).substr(1)));
    if (kv.key == "driver")
      d.driver = kv.value;
    else if (kv.key == "version")
      d.version = kv.value;
    else if (kv.key == "bus-info")
      d.bus_info = kv.value;
    else if (kv.key == "firmware-version") {
      // mlx5: "28.42.1000 (MT_0000000834)"
      std::string_view v = kv.value;
      size_t open = v.find(" (");
      if (open != std::string_view::npos && v.back() == ')') {
        d.firmware_psid = std::string(v.substr(open + 2, v.size() - open - 3));
        v = v.substr(0, open);
      }
      d.firmware_version = std::string(v);
    }
  }
  if (d.driver.empty()) d.warnings.push_back({0, "no \"driver:\" line: not `ethtool -i` output"});
  return d;
}

std::string DriverOrigin(std::string_view version) {
  // Leading dot-separated numbers: "24.10" of "24.10-3.2.5", "6.5.0" of "6.5.0-14-generic".
  auto numbers = [](std::string_view v, size_t& end) {
    int count = 0;
    size_t i = 0;
    while (i < v.size()) {
      size_t start = i;
      while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
      if (i == start) break;
      ++count;
      if (i < v.size() && v[i] == '.')
        ++i;
      else
        break;
    }
    end = i;
    return count;
  };
  size_t end = 0;
  int head = numbers(version, end);
  if (head >= 3) return "inbox";  // a kernel release: X.Y.Z[-extra]
  if (head == 2 && end < version.size() && version[end] == '-') {
    size_t tail_end = 0;
    int tail = numbers(version.substr(end + 1), tail_end);
    if (tail >= 3) return "out-of-tree";                              // MLNX_OFED / DOCA-OFED: X.Y-A.B.C[.D]
    if (tail == 1 && version.substr(end + 1) == "0") return "inbox";  // the in-tree DRIVER_VERSION "5.0-0" of older kernels
  }
  return "";
}

}  // namespace railyard
