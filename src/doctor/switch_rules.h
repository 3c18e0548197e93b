// Switch-side rules: each switch's ports (railyard.switch-facts/1) on their own, and, with a plan,
// against the plan and against the host at the other end of each planned cable.
// docs/switch.md and docs/rules/<id>.md say what each checks.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "doctor/fleet.h"
#include "doctor/plan_rules.h"
#include "doctor/policy.h"
#include "facts/switch_facts.h"
#include "model/finding.h"

namespace railyard {

const std::vector<FleetRule>& SwitchRules();

// switch-port-errdisabled, switch-port-admin-down, and with a plan switch-planned-port-down and
// switch-port-forced-speed.
std::vector<Finding> RunSwitchRules(const SwitchFacts& sw, const DoctorPolicy& policy, const HostPlan* plan);

// link-end-mismatch: a planned cable whose switch end and host end are both up at different
// speeds. `ports` maps "switch (plan name)|port (plan name)" to the switch's view of it.
struct SwitchPortEnd {
  std::string sw, port, status, source;
  double speed_gbps = 0;
  bool up = false;
  int line = 0;
};
std::vector<Finding> LinkEndRules(const std::map<std::string, SwitchPortEnd>& switch_ends,
                                  const std::vector<HostLinkEnd>& host_ends, const DoctorPolicy& policy);

// roce-qos-mismatch: a planned cable whose host end's trust mode, PFC priorities or ECN disagree with
// its switch port's (the port's own QoS, else the switch-wide one). `qos` maps "switch (plan
// name)|port (plan name)" to what the switch reports.
std::vector<Finding> RoceQosRules(const std::map<std::string, SwitchQos>& qos, const std::vector<HostLinkEnd>& host_ends,
                                  const DoctorPolicy& policy);

// switch-config-drift: the switch's saved running configuration against the one `railyard config
// switches` writes for it (`plan_name`) in the same OS's form; only what the plan's configuration sets
// is compared.
std::vector<Finding> ConfigDriftRules(const SwitchFacts& sw, const std::string& plan_name, const SwitchConfigs& configs,
                                      const DoctorPolicy& policy);
// switch-config-drift when the plan gives no switch configuration to compare with (`why`): an info
// finding saying the running configuration was not compared, never silence.
std::vector<Finding> ConfigNotComparedRules(const SwitchFacts& sw, const std::string& why, const DoctorPolicy& policy);

// vlan-not-allowed-on-trunk: a host that tags VLAN V on a port whose LLDP neighbour is a switch port
// that does not carry V tagged (a trunk without V in its allowed list, an access or routed port).
struct HostVlanUse {
  std::string host, netdev, local_port, sw, sw_port;
  int vlan = 0;
};
std::vector<HostVlanUse> HostVlanUses(const HostFacts& facts);
struct SwitchVlanPort {
  std::string mode, allowed, source;
  int access = 0, native = 0, line = 0;
};
// `ports` maps "switch|Ethernet-long-port-name" to its VLAN view (a switch under its full and short names).
// The switch port a VLAN use's LLDP neighbour names, under the switch's full or short name; nullptr
// when the facts do not have it.
const SwitchVlanPort* FindVlanPort(const std::map<std::string, SwitchVlanPort>& ports, const HostVlanUse& use);
std::vector<Finding> VlanRules(const std::vector<HostVlanUse>& uses, const std::map<std::string, SwitchVlanPort>& ports,
                               const DoctorPolicy& policy);
void AddSwitchVlanPorts(const SwitchFacts& sw, std::map<std::string, SwitchVlanPort>& ports);

// The plan's name of a switch's port as the switch prints it: EOS tables say "Et1/1" for the
// plan's (and config's) "Ethernet1/1".
std::string PlanPortName(const SwitchFacts& sw, const std::string& port);

}  // namespace railyard
