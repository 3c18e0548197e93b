#include "doctor/doctor.h"

#include <algorithm>
#include <string_view>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "doctor/rules.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string Escape(const std::string& s, bool xml) {
  std::string out;
  for (char c : s) {
    if (xml && c == '<') out += "&lt;";
    else if (xml && c == '>') out += "&gt;";
    else if (xml && c == '&') out += "&amp;";
    else if (xml && c == '"') out += "&quot;";
    else if (!xml && (c == '"' || c == '\\')) out += std::string("\\") + c;
    else if (!xml && c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

void Doctor::AddHost(const HostFacts& facts) {
  std::vector<Finding> found = RunHostRules(facts, policy_);
  if (plan_) {
    std::vector<Finding> planned = RunPlanRules(facts, *plan_, policy_);
    found.insert(found.end(), std::make_move_iterator(planned.begin()), std::make_move_iterator(planned.end()));
  }
  report_.findings.insert(report_.findings.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  report_.hosts.push_back(facts.hostname);
  fleet_.Add(facts);
  if (plan_) {
    for (HostLinkEnd& e : HostLinkEnds(facts, *plan_)) host_ends_.push_back(std::move(e));
  }
  for (HostVlanUse& u : HostVlanUses(facts)) vlan_uses_.push_back(std::move(u));
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
    } catch (const std::runtime_error&) {
    }
    config_plan_.clear();  // tried once
  }
  if (configs_ && !facts.running.empty()) {
    std::vector<Finding> drift = ConfigDriftRules(facts, name, *configs_, policy_);
    report_.findings.insert(report_.findings.end(), std::make_move_iterator(drift.begin()), std::make_move_iterator(drift.end()));
  }
  for (const SwitchPortFacts& p : facts.ports) {
    const std::string key = name + "|" + PlanPortName(facts, p.name);
    switch_ends_[key] = {name, p.name, p.status, p.source, p.speed_gbps, p.oper == "up", p.line};
    if (p.qos) switch_qos_[key] = *p.qos;  // the port's own, else the switch-wide one
    else if (facts.qos) switch_qos_[key] = *facts.qos;
  }
}

DoctorReport Doctor::Finish() {
  std::vector<Finding> fleet = fleet_.Finish(policy_);
  report_.findings.insert(report_.findings.end(), fleet.begin(), fleet.end());
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

std::string DoctorTable(const DoctorReport& r) {
  std::string out;
  for (const Finding& f : r.findings) {
    out += fmt::format("{:<7} {:<26} {:<16} {}\n        {}\n", ToString(f.severity), f.rule, f.host, f.object, f.message);
    for (const auto& [k, v] : f.evidence) out += fmt::format("        {}: {}\n", k, v);
    out += fmt::format("        fix: {}\n", f.fix);
  }
  std::map<Severity, size_t> counts;
  for (const Finding& f : r.findings) ++counts[f.severity];
  if (!r.switches.empty()) out += fmt::format("{} switches, ", r.switches.size());
  out += fmt::format("{} hosts, {} findings ({} error, {} warning, {} info)\n", r.hosts.size(), r.findings.size(),
                     counts[Severity::kError], counts[Severity::kWarning], counts[Severity::kInfo]);
  return out;
}

std::string DoctorJson(const DoctorReport& r) {
  return FindingsDocument(r.findings, r.hosts.size()).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string DoctorJunit(const DoctorReport& r) {
  std::map<std::pair<std::string, std::string>, std::vector<const Finding*>> by;
  for (const Finding& f : r.findings) by[{f.host, f.rule}].push_back(&f);
  size_t failures = 0;
  for (const auto& [k, v] : by) failures += v.empty() ? 0 : 1;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  std::set<std::string> hosts(r.hosts.begin(), r.hosts.end());
  for (const Finding& f : r.findings) hosts.insert(f.host);
  out += fmt::format("<testsuites name=\"railyard doctor\" tests=\"{}\" failures=\"{}\">\n", hosts.size() * r.rules_run.size(), failures);
  for (const std::string& host : hosts) {
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\">\n", Escape(host, true), r.rules_run.size());
    for (const std::string& rule : r.rules_run) {
      auto it = by.find({host, rule});
      if (it == by.end()) {
        out += fmt::format("    <testcase classname=\"{}\" name=\"{}\"/>\n", Escape(host, true), rule);
        continue;
      }
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", Escape(host, true), rule);
      for (const Finding* f : it->second) {
        out += fmt::format("      <failure type=\"{}\" message=\"{}: {}\">fix: {}</failure>\n", ToString(f->severity),
                           Escape(f->object, true), Escape(f->message, true), Escape(f->fix, true));
      }
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

std::string DoctorPrometheus(const DoctorReport& r) {
  std::map<std::pair<std::string, std::string>, std::pair<size_t, Severity>> count;
  for (const Finding& f : r.findings) {
    auto& c = count[{f.host, f.rule}];
    c.second = c.first ? std::max(c.second, f.severity) : f.severity;
    ++c.first;
  }
  std::string out =
      "# HELP railyard_doctor_findings Findings of railyard doctor per host and rule (0: the rule passed).\n"
      "# TYPE railyard_doctor_findings gauge\n";
  std::set<std::string> hosts(r.hosts.begin(), r.hosts.end());
  for (const std::string& host : hosts) {
    for (const std::string& rule : r.rules_run) {
      auto it = count.find({host, rule});
      size_t n = it == count.end() ? 0 : it->second.first;
      std::string severity = it == count.end() ? "none" : std::string(ToString(it->second.second));
      out += fmt::format("railyard_doctor_findings{{host=\"{}\",rule=\"{}\",severity=\"{}\"}} {}\n", Escape(host, false), rule, severity, n);
    }
  }
  return out;
}

}  // namespace railyard
