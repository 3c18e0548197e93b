#include "doctor/doctor.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "doctor/rules.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

}  // namespace

void Doctor::AddHost(const HostFacts& facts) { Add(Examine(facts)); }

Doctor::HostExamination Doctor::Examine(const HostFacts& facts) const {
  HostExamination out;
  out.hostname = facts.hostname;
  out.findings = RunHostRules(facts, policy_);
  if (plan_) {
    std::vector<Finding> planned = RunPlanRules(facts, *plan_, policy_);
    out.findings.insert(out.findings.end(), std::make_move_iterator(planned.begin()), std::make_move_iterator(planned.end()));
    out.ends = HostLinkEnds(facts, *plan_);
  }
  out.fleet.Add(facts);
  out.vlans = HostVlanUses(facts);
  return out;
}

void Doctor::Add(HostExamination&& examined) {
  report_.findings.insert(report_.findings.end(), std::make_move_iterator(examined.findings.begin()),
                          std::make_move_iterator(examined.findings.end()));
  report_.hosts.push_back(std::move(examined.hostname));
  fleet_.Merge(std::move(examined.fleet));
  host_ends_.insert(host_ends_.end(), std::make_move_iterator(examined.ends.begin()),
                    std::make_move_iterator(examined.ends.end()));
  vlan_uses_.insert(vlan_uses_.end(), std::make_move_iterator(examined.vlans.begin()),
                    std::make_move_iterator(examined.vlans.end()));
}

void Doctor::AddSwitch(const SwitchFacts& facts) {
  std::vector<Finding> found = RunSwitchRules(facts, policy_, plan_.get());
  report_.findings.insert(report_.findings.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  report_.switches.push_back(facts.hostname);
  AddSwitchVlanPorts(facts, vlan_ports_);
  if (!plan_) return;
  std::string name = plan_->PlanNameOf(facts.hostname);
  if (name.empty()) name = facts.hostname;
  if (!configs_ && !config_plan_.empty() && !facts.running.empty()) {
    try {
      configs_ = std::make_shared<const SwitchConfigs>(ReadSwitchConfigs(config_plan_));
    } catch (const std::runtime_error& e) {
      config_error_ = e.what();
    }
    config_plan_.clear();  // tried once
  }
  if (!facts.running.empty() && (configs_ || !config_error_.empty())) {
    // A running configuration that could not be held to the plan is said, never passed as clean.
    std::vector<Finding> drift =
        configs_ ? ConfigDriftRules(facts, name, *configs_, policy_) : ConfigNotComparedRules(facts, config_error_, policy_);
    report_.findings.insert(report_.findings.end(), std::make_move_iterator(drift.begin()), std::make_move_iterator(drift.end()));
  }
  for (const SwitchPortFacts& p : facts.ports) {
    const std::string key = name + "|" + PlanPortName(facts, p.name);
    switch_ends_[key] = {name, p.name, p.status, p.source, p.speed_gbps, p.oper == "up", p.line};
    if (p.qos)
      switch_qos_[key] = *p.qos;  // the port's own, else the switch-wide one
    else if (facts.qos)
      switch_qos_[key] = *facts.qos;
  }
}

DoctorReport Doctor::Finish() {
  std::vector<Finding> fleet = fleet_.Finish(policy_);
  report_.fleet_begin = report_.findings.size();
  report_.findings.insert(report_.findings.end(), fleet.begin(), fleet.end());
  report_.fleet_end = report_.findings.size();
  if (plan_ && !switch_ends_.empty()) {
    std::vector<Finding> ends = LinkEndRules(switch_ends_, host_ends_, policy_);
    report_.findings.insert(report_.findings.end(), ends.begin(), ends.end());
    std::vector<Finding> qos = RoceQosRules(switch_qos_, host_ends_, policy_);
    report_.findings.insert(report_.findings.end(), qos.begin(), qos.end());
  }
  if (!vlan_ports_.empty()) {
    std::vector<Finding> vlans = VlanRules(vlan_uses_, vlan_ports_, policy_);
    report_.findings.insert(report_.findings.end(), vlans.begin(), vlans.end());
  }
  if (!report_.switches.empty()) {
    for (const FleetRule& r : SwitchRules()) {
      if (!policy_.disabled_rules.count(r.id)) report_.rules_run.push_back(r.id);
    }
  }
  for (const HostRule& r : HostRules()) {
    if (!policy_.disabled_rules.count(r.id)) report_.rules_run.push_back(r.id);
  }
  for (const FleetRule& r : FleetRules()) {
    if (!policy_.disabled_rules.count(r.id)) report_.rules_run.push_back(r.id);
  }
  for (const FleetRule& r : PlanRules()) {
    if (plan_ && !policy_.disabled_rules.count(r.id)) report_.rules_run.push_back(r.id);
  }
  return std::move(report_);
}

FindingsScope DoctorScope(const DoctorReport& r) { return {"doctor", r.hosts, r.rules_run}; }

std::string DoctorTable(const DoctorReport& r) {
  std::string out = r.findings.empty() ? "" : FindingsTable(r.findings);
  std::map<Severity, size_t> counts;
  for (const Finding& f : r.findings) ++counts[f.severity];
  if (!r.switches.empty()) out += fmt::format("{} switches, ", r.switches.size());
  out += fmt::format("{} hosts, {} findings ({} error, {} warning, {} info)\n", r.hosts.size(), r.findings.size(),
                     counts[Severity::kError], counts[Severity::kWarning], counts[Severity::kInfo]);
  return out;
}

std::string DoctorJson(const DoctorReport& r) { return FindingsDocumentText(r.findings, r.hosts.size()) + "\n"; }

std::string DoctorJunit(const DoctorReport& r) { return FindingsJunit(r.findings, DoctorScope(r)); }

std::string DoctorPrometheus(const DoctorReport& r) { return FindingsPrometheus(r.findings, DoctorScope(r)); }

}  // namespace railyard
