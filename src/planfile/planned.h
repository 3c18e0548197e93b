// The plan as the verifier needs it, read back from plan.json (schema railyard.plan/1) or from the
// plan.index written beside it: devices with their location and every planned link by label.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace railyard {

// Stable storage for the plan's strings. A 100,000-GPU plan has ~370,000 links whose plane, level,
// cable and port names repeat; the links hold views into this, shared by every copy of the plan.
class StringArena {
 public:
  std::string_view Keep(std::string_view text);  // a copy that lives as long as the arena
  std::string_view Adopt(std::string text);      // keeps a whole buffer (a file read once)

 private:
  std::deque<std::string> kept_;
  std::string* chunk_ = nullptr;
};

struct PlannedDevice {
  std::string name;
  std::string role;   // node | appliance | switch
  std::string tier;   // leaf | spine | core (switches)
  std::string plane;  // switches only
  std::string rack;
  int row = 0;  // 1-based, from the rack
  int position = 0;
  int u = 0;
  int rail = 0;   // 1-based rail of a leaf; 0 = none
  int group = 0;  // 1-based scalable unit of a leaf; 0 = none
};

// Views into the owning PlannedFabric's arena: valid while any copy of that plan lives.
struct PlannedLink {
  std::string_view label;
  std::string_view plane;
  bool infiniband = false;  // its plane is InfiniBand: ibnetdiscover sees it, LLDP never does
  std::string_view level;   // endpoint-leaf | leaf-spine | spine-core
  int rail = 0;             // 1-based; 0 = none
  uint32_t speed_gbps = 0;
  std::string_view cable;           // cable assembly or fibre OPN
  std::string_view xcvr_a, xcvr_z;  // transceiver OPNs at each end ("" for DAC/ACC/AOC)
  double length_m = 0;
  uint32_t a_device = 0;
  std::string_view a_port;
  uint32_t z_device = 0;
  std::string_view z_port;
  uint32_t a_port_id = 0, z_port_id = 0;  // the ports' rows in PlannedFabric::port_names
};

struct PlannedPlane {
  std::string name;
  std::string kind;   // infiniband | roce | ethernet
  uint32_t mtu = 0;   // host-side MTU (0: a plan from before plan.json carried it)
  std::string role;   // compute | storage | inband | oob (the BMC's port: not the host OS's)
  bool bond = false;  // each node's ports on it are one 802.3ad bond
};

struct PlannedFabric {
  std::string name;
  std::vector<PlannedPlane> planes;
  std::vector<PlannedDevice> devices;
  std::unordered_map<std::string, uint32_t> device_index;
  std::vector<PlannedLink> links;
  std::vector<std::string_view> port_names;  // each distinct port name once (swp1, mlx5_0 …): a few hundred
  // Host ports by the netdev every node gives them (spec `netdevs:`): netdev -> plan port ("ens1f0np0" -> "mlx5_0").
  std::unordered_map<std::string, std::string> host_netdevs;
  // The IP plan's addresses of each link's ends ("10.0.0.2/12"; "" = none), by link index: read only
  // when asked for (doctor's config rule needs them, verify does not), else empty.
  std::vector<std::array<std::string_view, 2>> link_addresses;
  std::shared_ptr<StringArena> strings = std::make_shared<StringArena>();
  // Where it was read from: "plan.index" or "plan.json"; and why an index beside plan.json was not
  // used ("" when there was none, or it was): a stale index means plan.json changed after `plan`.
  std::string read_from;
  std::string index_note;
};

// Reads a plan: the plan.index beside `path` when it was written with this very plan.json (same
// size and fingerprint), else plan.json itself. Throws InputError("<path>: ...") when the
// file is not a railyard plan (bad JSON, wrong schema, a link naming an unknown device).
PlannedFabric LoadPlannedFabric(const std::string& path, bool with_addresses = false);
PlannedFabric ParsePlannedFabric(std::string_view json, const std::string& source, bool with_addresses = false);
// Reads plan.index text; returns false (with the reason) when it is not a usable index.
bool ParsePlanIndex(std::string text, const std::string& source, PlannedFabric& plan, std::string& why,
                    bool with_addresses = false);

}  // namespace railyard
