#include "verify/names.h"

#include "util/lines.h"

#include <cctype>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>


namespace railyard {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

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

void NameResolver::LoadMap(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the file");
  std::stringstream text;
  text << in.rdbuf();
  LoadMapText(text.str(), path);
}

void NameResolver::LoadMapText(std::string_view text, const std::string& source) {
  // No header: every row is data, plain comma-separated names (device and port names hold no
  // commas or quotes).
  LineReader lines(text);
  std::string_view row;
  while (lines.Next(row)) {
    const int line = lines.number();
    if (row.empty() || row.front() == '#') continue;
    std::vector<std::string> f;
    size_t p = 0;
    while (p <= row.size()) {
      size_t comma = row.find(',', p);
      if (comma == std::string_view::npos) comma = row.size();
      f.emplace_back(row.substr(p, comma - p));
      p = comma + 1;
    }
    auto plan_device = [&](const std::string& name) {
      auto it = plan_.device_index.find(name);
      if (it == plan_.device_index.end()) {
        throw std::runtime_error(fmt::format("{}:{}: '{}' is not a device of the plan", source, line, name));
      }
      return it->second;
    };
    if (f.size() == 2) {
      device_alias_[f[0]] = plan_device(f[1]);
    } else if (f.size() == 4) {
      port_alias_[PortKey(f[0], f[1])] = ResolvedPort{plan_device(f[2]), f[3]};
    } else {
      throw std::runtime_error(fmt::format(
          "{}:{}: expected observed_device,plan_device or observed_device,observed_port,plan_device,plan_port", source, line));
    }
  }
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
  return ResolvedPort{*d, CanonicalPort(port)};
}

}  // namespace railyard
