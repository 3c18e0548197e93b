#include "planfile/names.h"
#include "util/file.h"
#include "util/input_error.h"
#include "util/text.h"

#include "parse/ibstat.h"
#include "parse/key_value.h"
#include "util/lines.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace railyard {
namespace {

std::string PortKey(std::string_view device, std::string_view port) {
  std::string key(device);
  key.push_back('\0');
  key.append(port);
  return key;
}

}  // namespace

std::string CanonicalPort(std::string_view port) {
  if (port.size() > 2 && port.substr(0, 2) == "Et" && std::isdigit(static_cast<unsigned char>(port[2]))) {
    return "Ethernet" + std::string(port.substr(2));
  }
  return std::string(port);
}

NameResolver::NameResolver(const PlannedFabric& plan) : plan_(plan) {
  for (uint32_t i = 0; i < plan.devices.size(); ++i) lower_.emplace(Lower(plan.devices[i].name), i);
}

void NameResolver::LoadMap(const std::string& path) { LoadMapText(ReadWholeFile(path), ShownPath(path)); }

std::string NormalGuid(std::string_view guid) {
  // "0x2C5EAB0300B87B40", "2c5eab0300b87b40", "S-2c5e…" (ibnetdiscover's node ids) -> "0x2c5eab0300b87b40".
  std::string_view g = guid;
  if (g.size() > 2 && g[1] == '-' && (g[0] == 'S' || g[0] == 'H' || g[0] == 'R')) g.remove_prefix(2);
  if (g.size() > 2 && g[0] == '0' && (g[1] == 'x' || g[1] == 'X')) g.remove_prefix(2);
  if (g.empty() || g.size() > 16 ||
      !std::all_of(g.begin(), g.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); })) {
    return {};
  }
  return "0x" + Lower(g);
}

void NameResolver::LoadMapText(std::string_view text, const std::string& source) {
  // Plain comma-separated names (spaces around them trimmed; a name may hold spaces, as InfiniBand node
  // descriptions do). An optional header row naming the columns ("observed_device,plan_device") is skipped.
  // An observed name is a device name, a node description, or a node / system-image GUID.
  LineReader lines(text);
  std::string_view row;
  std::unordered_map<std::string, std::string> first_row;  // observed key -> "line N"
  bool first = true;
  while (lines.Next(row)) {
    const int line = lines.number();
    if (first && row.starts_with("\xEF\xBB\xBF")) row.remove_prefix(3);  // a spreadsheet's UTF-8 BOM
    if (TrimView(row).empty() || TrimView(row).front() == '#') continue;
    std::vector<std::string> f;
    size_t p = 0;
    while (p <= row.size()) {
      size_t comma = row.find(',', p);
      if (comma == std::string_view::npos) comma = row.size();
      f.emplace_back(TrimView(row.substr(p, comma - p)));
      p = comma + 1;
    }
    if (first) {
      first = false;
      std::string head = Lower(f[0]);
      if (head.starts_with("observed") || head == "device" || head == "name" || head == "from") continue;  // a header row
    }
    auto plan_device = [&](const std::string& name) {
      auto it = plan_.device_index.find(name);
      if (it == plan_.device_index.end()) {
        throw InputError(source, line, 0, "", fmt::format("'{}' is not a device of the plan", name));
      }
      return it->second;
    };
    auto claim = [&](const std::string& key, const std::string& target, std::string_view what) {
      auto [it, fresh] = first_row.emplace(key, fmt::format("line {} ({})", line, target));
      if (!fresh && it->second.find("(" + target + ")") == std::string::npos) {
        throw InputError(source, line, 0, "",
                         fmt::format("{} '{}' is mapped twice: to {} here and at {}", what, f[0], target, it->second));
      }
    };
    if (f.size() == 2) {
      uint32_t d = plan_device(f[1]);
      std::string guid = NormalGuid(f[0]);
      std::string key = guid.empty() ? f[0] : guid;
      claim(key, f[1], "observed name");
      device_alias_[key] = d;
    } else if (f.size() == 4) {
      claim(PortKey(f[0], f[1]), f[2] + ":" + f[3], "observed port");
      port_alias_[PortKey(f[0], f[1])] = ResolvedPort{plan_device(f[2]), f[3]};
    } else {
      throw InputError(source, line, 0, "",
                       "expected observed_device,plan_device or observed_device,observed_port,plan_device,plan_port");
    }
  }
}

void NameResolver::LoadIbdev2netdevDir(const std::string& dir) {
  namespace fs = std::filesystem;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::string host = entry.path().filename().string();
    host = host.substr(0, host.find('.'));
    auto device = ResolveDevice(host);
    if (!device)
      throw InputError(entry.path().string(), 0, 0, "",
                       fmt::format("host '{}' (the file name) is not a device of the plan", host));
    const Parsed<RdmaNetdev> parsed = ParseIbdev2netdev(ReadWholeFile(entry.path().string()));
    // A name map is read strictly: a line it cannot read may be a port it would then fail to map.
    if (!parsed.warnings.empty()) {
      throw InputError(entry.path().string(), parsed.warnings[0].line, 0, "", parsed.warnings[0].message);
    }
    const std::vector<RdmaNetdev>& map = parsed.rows;
    if (map.empty()) {
      throw InputError(entry.path().string(), 0, 0, "", "no `mlx5_0 port 1 ==> IF` line: not ibdev2netdev output");
    }
    for (const RdmaNetdev& m : map) {
      if (m.netdev.empty()) continue;
      // The plan names a host's NIC port by its RDMA device ("mlx5_0"); LLDP by the netdev.
      port_alias_[PortKey(host, m.netdev)] = ResolvedPort{*device, m.rdma_device};
      port_alias_[PortKey(plan_.devices[*device].name, m.netdev)] = ResolvedPort{*device, m.rdma_device};
    }
  }
}

std::optional<uint32_t> NameResolver::ResolveGuid(std::string_view guid) const {
  std::string g = NormalGuid(guid);
  if (g.empty()) return std::nullopt;
  auto it = device_alias_.find(g);
  return it == device_alias_.end() ? std::nullopt : std::optional<uint32_t>(it->second);
}

std::optional<uint32_t> NameResolver::ResolveDevice(std::string_view device) const {
  // Candidates in order: the name; an InfiniBand switch description's inner name
  // ("MF0;A09-P1-IBLEAF-04-04:MQM9701/U1" -> "A09-P1-IBLEAF-04-04"); the host of an FQDN.
  std::string name(device);
  std::vector<std::string> candidates = {name};
  size_t semi = name.find(';');
  size_t colon = name.find(':', semi == std::string::npos ? 0 : semi);
  if (semi != std::string::npos || colon != std::string::npos) {
    size_t from = semi == std::string::npos ? 0 : semi + 1;
    candidates.push_back(name.substr(from, colon == std::string::npos ? std::string::npos : colon - from));
  }
  size_t dot = name.find('.');
  if (dot != std::string::npos && dot > 0) candidates.push_back(name.substr(0, dot));
  for (const std::string& c : candidates) {
    if (auto it = device_alias_.find(c); it != device_alias_.end()) return it->second;
    if (auto it = plan_.device_index.find(c); it != plan_.device_index.end()) return it->second;
  }
  for (const std::string& c : candidates) {
    if (auto it = lower_.find(Lower(c)); it != lower_.end()) return it->second;
  }
  return std::nullopt;
}

std::optional<ResolvedPort> NameResolver::Resolve(std::string_view device, std::string_view port) const {
  if (auto it = port_alias_.find(PortKey(device, port)); it != port_alias_.end()) return it->second;
  // InfiniBand CA description "host mlx5_3": the host is the device, the HCA the port.
  size_t space = device.find(' ');
  if (space != std::string_view::npos) {
    std::string_view host = device.substr(0, space);
    std::string_view hca = device.substr(space + 1);
    std::string hca_port = port == "1" || port.empty() ? std::string(hca) : fmt::format("{}/{}", hca, port);
    if (auto it = port_alias_.find(PortKey(host, hca_port)); it != port_alias_.end()) return it->second;
    if (auto d = ResolveDevice(host)) return ResolvedPort{*d, hca_port};
    return std::nullopt;
  }
  auto d = ResolveDevice(device);
  if (!d) return std::nullopt;
  return ResolvedPort{*d, std::string(HostPort(*d, CanonicalPort(port)))};
}

std::string_view NameResolver::HostPort(uint32_t device, std::string_view port) const {
  if (plan_.host_netdevs.empty() || plan_.devices[device].role != "node") return port;
  auto it = plan_.host_netdevs.find(std::string(port));
  return it == plan_.host_netdevs.end() ? port : std::string_view(it->second);
}

}  // namespace railyard
