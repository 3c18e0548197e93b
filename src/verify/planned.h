// The plan as the verifier needs it, read back from plan.json (schema railyard.plan/1): devices
// with their location and every planned link by label.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace railyard {

struct PlannedDevice {
  std::string name;
  std::string role;   // node | appliance | switch
  std::string tier;   // leaf | spine | core (switches)
  std::string plane;  // switches only
  std::string rack;
  int row = 0;        // 1-based, from the rack
  int position = 0;
  int u = 0;
  int rail = 0;       // 1-based rail of a leaf; 0 = none
};

struct PlannedLink {
  std::string label;
  std::string plane;
  bool infiniband = false;  // its plane is InfiniBand: ibnetdiscover sees it, LLDP never does
  std::string level;  // endpoint-leaf | leaf-spine | spine-core
  int rail = 0;       // 1-based; 0 = none
  uint32_t speed_gbps = 0;
  std::string cable;         // cable assembly or fibre OPN
  std::string xcvr_a, xcvr_z;  // transceiver OPNs at each end ("" for DAC/ACC/AOC)
  double length_m = 0;
  uint32_t a_device = 0;
  std::string a_port;
  uint32_t z_device = 0;
  std::string z_port;
};

struct PlannedPlane {
  std::string name;
  std::string kind;  // infiniband | roce | ethernet
};

struct PlannedFabric {
  std::string name;
  std::vector<PlannedPlane> planes;
  std::vector<PlannedDevice> devices;
  std::unordered_map<std::string, uint32_t> device_index;
  std::vector<PlannedLink> links;
};

// Reads plan.json. Throws std::runtime_error("<path>: ...") when the file is not a railyard
// plan (bad JSON, wrong schema, a link naming an unknown device).
PlannedFabric LoadPlannedFabric(const std::string& path);
PlannedFabric ParsePlannedFabric(std::string_view json, const std::string& source);

}  // namespace railyard
