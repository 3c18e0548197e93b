// Maps the names tools report to the plan's devices and ports.
//
// In order: an explicit --names row; an InfiniBand CA description "host mlx5_3" (device host,
// port mlx5_3); an InfiniBand switch description "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1" (the
// name between ';' and ':'); the name itself; the name before its first '.' (FQDN); the name
// ignoring case. Ports: Arista's "Et3/1" is "Ethernet3/1". Anything else is unknown, and the
// verifier reports it rather than guessing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "planfile/planned.h"

namespace railyard {

struct ResolvedPort {
  uint32_t device = 0;
  std::string port;
};

class NameResolver {
 public:
  explicit NameResolver(const PlannedFabric& plan);

  // A --names file: CSV rows "observed_device,plan_device" or
  // "observed_device,observed_port,plan_device,plan_port"; '#' comments. Throws
  // InputError("<path>:<line>: ...") on a malformed row or an unknown plan name.
  void LoadMap(const std::string& path);
  void LoadMapText(std::string_view text, const std::string& source);
  // A directory of HOST.txt files, each a host's `ibdev2netdev [-v]`: its netdev names (what LLDP reports)
  // become aliases of its RDMA device ports (what the plan names). Throws naming the file on a host the
  // plan does not know or a file with no ibdev2netdev line.
  void LoadIbdev2netdevDir(const std::string& dir);

  std::optional<ResolvedPort> Resolve(std::string_view device, std::string_view port) const;
  // A node's port as the plan names it: a netdev the spec gave for the fleet (`netdevs:`) becomes its
  // RDMA device port; anything else is returned as is.
  std::string_view HostPort(uint32_t device, std::string_view port) const;
  bool HasPortAliases() const { return !port_alias_.empty(); }
  std::optional<uint32_t> ResolveDevice(std::string_view device) const;
  // A node or system-image GUID given in --names ("0x2c5e…", any case, with or without 0x).
  std::optional<uint32_t> ResolveGuid(std::string_view guid) const;
  bool HasGuidAliases() const { return !device_alias_.empty(); }

 private:
  const PlannedFabric& plan_;
  std::unordered_map<std::string, uint32_t> device_alias_;
  std::unordered_map<std::string, ResolvedPort> port_alias_;  // key: device '\0' port
  std::unordered_map<std::string, uint32_t> lower_;
};

std::string CanonicalPort(std::string_view port);

}  // namespace railyard
