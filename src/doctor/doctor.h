// `railyard doctor`: host rules on each HostFacts document as it streams in, fleet rules at the
// end, and the findings in the forms people feed to other tools (table, JSON, JUnit, Prometheus).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/switch_config.h"
#include "doctor/fleet.h"
#include "doctor/plan_rules.h"
#include "doctor/policy.h"
#include "doctor/switch_rules.h"
#include "facts/facts_files.h"
#include "facts/host_facts.h"
#include "facts/switch_facts.h"
#include "model/finding.h"
#include "model/findings_formats.h"
#include "model/schemas.h"

namespace railyard {

struct DoctorReport {
  std::vector<Finding> findings;  // host findings in input order, then fleet findings
  // findings[fleet_begin, fleet_end) are fleet-wide (a spread or a duplicate across hosts): their
  // `host` is one host of many, not where the fault is.
  size_t fleet_begin = 0, fleet_end = 0;
  std::vector<std::string> hosts;
  std::vector<std::string> switches;
  std::vector<std::string> rules_run;
};

class Doctor {
 public:
  explicit Doctor(DoctorPolicy policy) : policy_(std::move(policy)) {}
  // With a plan, the plan rules (rail-mismatch, speed-below-plan) run on every host too.
  Doctor(DoctorPolicy policy, std::shared_ptr<const HostPlan> plan) : policy_(std::move(policy)), plan_(std::move(plan)) {}
  void AddHost(const HostFacts& facts);
  // AddHost in two halves: what one host's facts say, on any thread (it only reads the policy and the
  // plan), then that added to the report in input order.
  struct HostExamination {
    std::string hostname;
    std::vector<Finding> findings;
    FleetAccumulator fleet;
    std::vector<HostLinkEnd> ends;
    std::vector<HostVlanUse> vlans;
  };
  HostExamination Examine(const HostFacts& facts) const;
  void Add(HostExamination&& examined);
  void AddSwitch(const SwitchFacts& facts);
  // The configuration `railyard config switches` writes from the plan: switch-config-drift holds each
  // switch's saved running configuration against it.
  void SetSwitchConfigs(std::shared_ptr<const SwitchConfigs> configs) { configs_ = std::move(configs); }
  // The same, read from plan.json when the first switch with a running configuration arrives (an
  // InfiniBand-only plan has no Ethernet switch: then nothing is compared).
  void SetSwitchConfigPlan(std::string plan_json) { config_plan_ = std::move(plan_json); }
  DoctorReport Finish();

 private:
  DoctorPolicy policy_;
  std::shared_ptr<const HostPlan> plan_;
  std::shared_ptr<const SwitchConfigs> configs_;
  std::string config_plan_;
  std::string config_error_;                          // why the plan gave no switch configuration to compare with, once tried
  std::vector<HostLinkEnd> host_ends_;                // with a plan: each host's view of its planned ports
  std::map<std::string, SwitchPortEnd> switch_ends_;  // with a plan: "switch|port" (plan names) -> the switch's view
  std::map<std::string, SwitchQos> switch_qos_;  // with a plan: "switch|port" -> its RoCE QoS (the port's, else the switch's)
  std::vector<HostVlanUse> vlan_uses_;           // every host's tagged VLANs with their LLDP switch port
  std::map<std::string, SwitchVlanPort> vlan_ports_;  // every switch port's VLAN view
  FleetAccumulator fleet_;
  DoctorReport report_;
};

// What the doctor examined, for the renderers that list passes (JUnit, Prometheus).
FindingsScope DoctorScope(const DoctorReport& report);
// The findings, then "N hosts, M findings (...)".
std::string DoctorTable(const DoctorReport& report);
std::string DoctorJson(const DoctorReport& report);
// One <testcase> per host × rule; failures carry the findings.
std::string DoctorJunit(const DoctorReport& report);
// node_exporter textfile: railyard_doctor_findings{host,rule,severity} gauges, 0 for clean pairs.
std::string DoctorPrometheus(const DoctorReport& report);

}  // namespace railyard
