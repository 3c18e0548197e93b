// Rules that need the plan (`railyard doctor --plan plan.json`): is each host's NIC port on the
// rail and at the speed the planner gave it, and does the host's persistent network configuration
// (netplan, ifcfg) give it the plan's address and MTU? They read the host's own view (ibstat/ethtool
// speeds, the host's LLDP neighbours); the whole fabric's cabling is `railyard verify`'s job.
#pragma once

#include <array>

#include <string>
#include <unordered_map>
#include <vector>

#include "doctor/fleet.h"
#include "doctor/policy.h"
#include "facts/host_facts.h"
#include "model/finding.h"
#include "planfile/names.h"
#include "planfile/planned.h"

namespace railyard {

// One planned host port: where the plan cables it.
struct PlannedHostPort {
  std::string port;   // the plan's port name: the RDMA device ("mlx5_0") or interface name
  std::string label;  // the cable label
  std::string plane;
  uint32_t speed_gbps = 0;
  int rail = 0;      // 1-based, 0 = not rail-optimized
  std::string leaf;  // the switch at the other end
  std::string leaf_port;
  std::string address;  // the IP plan's ("10.0.0.2/12"; "" = none)
  uint32_t mtu = 0;     // the plane's host MTU (0 = the plan does not say)
  std::string netdev;   // the spec's netdevs: name of the port ("" = not named)
  bool bond = false;    // the plane bonds each node's ports (802.3ad); the address is the bond's
};

// A planned switch port's far end: the host port the plan cables to it.
struct PlannedSwitchPort {
  std::string host, host_port, label, plane;
  uint32_t speed_gbps = 0;
};

// The plan indexed for the doctor: host -> planned ports, switch -> rail. Names resolve as in
// `railyard verify` (exact, FQDN short name, case; a --names file maps the field's names).
class HostPlan {
 public:
  // Load the plan with its addresses (LoadPlannedFabric(path, true)) for config-differs-from-plan.
  explicit HostPlan(PlannedFabric plan);
  HostPlan(const HostPlan&) = delete;  // names_ refers to plan_
  HostPlan& operator=(const HostPlan&) = delete;
  // A --names file (verify's format). Throws InputError naming file and line.
  void LoadNames(const std::string& path) { names_.LoadMap(path); }
  void LoadNamesText(std::string_view text, const std::string& source) { names_.LoadMapText(text, source); }

  // Ports planned for a host; nullptr when the plan does not know it.
  const std::vector<PlannedHostPort>* PortsOf(const std::string& host) const;
  // The plan's name for a host's port as the host reports it ("ens108np0" -> "mlx5_0" by a
  // --names row); `port` itself when no row maps it.
  std::string PlanPortOf(const std::string& host, const std::string& port) const;
  // The rail of a switch the plan knows (0 = none, e.g. a spine); -1 when it is not in the plan.
  int RailOf(const std::string& device) const;
  // The plane of a switch the plan knows, "" otherwise.
  std::string PlaneOf(const std::string& device) const;
  // The plan's name of a device the field names differently ("" when unknown).
  std::string PlanNameOf(const std::string& device) const;
  // The plan's device, by whatever name the field uses; nullptr when unknown.
  const PlannedDevice* DeviceOf(const std::string& device) const;
  const PlannedFabric& fabric() const { return plan_; }
  // The host ends planned on a switch's ports, by the plan's port name; nullptr for a switch the
  // plan does not know (or one with no host port).
  const std::unordered_map<std::string, PlannedSwitchPort>* HostEndsOf(const std::string& sw) const;

 private:
  PlannedFabric plan_;
  NameResolver names_;
  std::unordered_map<uint32_t, std::vector<PlannedHostPort>> ports_;                               // by plan device index
  std::unordered_map<uint32_t, std::unordered_map<std::string, PlannedSwitchPort>> switch_ports_;  // by plan switch index, port
};

// What a host's facts say of each of its planned ports, for the checks that look at both ends.
struct HostLinkEnd {
  std::string host, port, leaf, leaf_port, label;
  double speed_gbps = 0;  // 0: not seen up
  bool seen = false;      // the facts have the port at all
  // The port's RoCE QoS as the host reads it (mlnx_qos, the ECN sysfs switches), to hold against the
  // switch port's.
  std::string netdev, trust;
  bool qos_read = false, ecn_read = false;
  std::vector<int> pfc;                                       // priorities with PFC on
  std::array<int, 8> ecn_rp{-1, -1, -1, -1, -1, -1, -1, -1};  // reaction point per priority: 1 on, 0 off, -1 not read
};
std::vector<HostLinkEnd> HostLinkEnds(const HostFacts& facts, const HostPlan& plan);

const std::vector<FleetRule>& PlanRules();

// Runs the plan rules the policy leaves on over one host.
std::vector<Finding> RunPlanRules(const HostFacts& facts, const HostPlan& plan, const DoctorPolicy& policy);

}  // namespace railyard
