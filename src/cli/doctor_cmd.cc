// railyard doctor FACTS... [--plan plan.json] [--policy FILE] [--format table|json|csv|junit|prometheus] [--fail-on SEVERITY]
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/messages.h"
#include "config/switch_config.h"
#include "doctor/doctor.h"
#include "doctor/rules.h"
#include "doctor/symptoms.h"
#include "model/schemas.h"
#include "util/file.h"
#include "util/input_error.h"

namespace railyard::cli {

namespace {

struct DoctorArgs {
  std::vector<std::string> facts;
  std::string policy;
  std::string hcl;
  std::string compat;
  std::string plan;
  std::string names;
  std::string format = "table";
  std::string fail_on = "error";
  bool list_rules = false;
  bool list_policy = false;
  std::string symptom;
  bool list_symptoms = false;
};

int ListRules() {
  auto line = [](const auto& r) { std::cout << fmt::format("{:<26} {:<8} {}\n", r.id, ToString(r.severity), r.summary); };
  for (const HostRule& r : HostRules()) line(r);
  for (const FleetRule& r : FleetRules()) line(r);
  for (const FleetRule& r : PlanRules()) line(r);
  for (const FleetRule& r : SwitchRules()) line(r);
  return kExitOk;
}

// --symptom: the expert's checks for one symptom, in order, on every host (switches read first: a walk
// may look at the switch end).
int WalkSymptom(const DoctorArgs& a, const DoctorPolicy& policy, const std::shared_ptr<HostPlan>& plan) {
  if (a.format != "table" && a.format != "json") throw UsageError("--symptom prints table or json");
  RunSymptom(a.symptom, HostFacts{}, policy);  // an unknown symptom is an input error before any reading
  bool failed = false;
  nlohmann::json hosts = nlohmann::json::array();
  std::vector<SwitchFacts> switches;
  ForEachFacts(
      a.facts, [](HostFacts&&) {}, [&](SwitchFacts&& s) { switches.push_back(std::move(s)); });
  ForEachFacts(
      a.facts,
      [&](HostFacts&& f) {
        std::vector<StepResult> steps = RunSymptom(a.symptom, f, policy, switches, plan);
        for (const StepResult& s : steps) failed = failed || s.status == StepStatus::kFailed;
        if (a.format == "json")
          hosts.push_back(SymptomJson(a.symptom, f.hostname, steps));
        else
          std::cout << SymptomTable(f.hostname, steps);
      },
      [](SwitchFacts&&) {});
  if (a.format == "json") {
    std::cout << nlohmann::json{{"schema", kSymptomSchema}, {"symptom", a.symptom}, {"hosts", hosts}}.dump(
                     2, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  }
  return failed ? kExitFindings : kExitOk;
}

// Every rule over every host and switch; each host's rules run on the thread that parsed it, and the
// report is assembled here, in input order.
int Examine(const DoctorArgs& a, const DoctorPolicy& policy, const std::shared_ptr<HostPlan>& plan) {
  Doctor doctor(policy, plan);
  if (plan) doctor.SetSwitchConfigPlan(a.plan);  // switch-config-drift, read when a running configuration is given
  ForEachExaminedFacts(
      a.facts, [&](HostFacts&& f) { return doctor.Examine(f); },
      [&](Doctor::HostExamination&& examined) { doctor.Add(std::move(examined)); },
      [&](SwitchFacts&& f) { doctor.AddSwitch(f); });
  DoctorReport report = doctor.Finish();
  // No facts at all is nothing examined, not a clean bill of health.
  if (report.hosts.empty() && report.switches.empty())
    throw InputError(fmt::format("{}: no host or switch facts in it: nothing was examined",
                                 a.facts.size() == 1 ? ShownPath(a.facts[0]) : "the inputs"));
  Detail(fmt::format("{} host(s) and {} switch(es) from {} input(s); {} rule(s) ran{}; {} finding(s)", report.hosts.size(),
                     report.switches.size(), a.facts.size(), report.rules_run.size(), plan ? " with the plan" : "",
                     report.findings.size()));
  if (a.format == "json")
    std::cout << DoctorJson(report);
  else if (a.format == "table")
    std::cout << DoctorTable(report);
  else
    std::cout << RenderFindings(report.findings, DoctorScope(report), *ParseFindingsFormat(a.format));
  return AnyAtOrAbove(report.findings, *ParseSeverity(a.fail_on)) ? kExitFindings : kExitOk;
}

int RunDoctor(const DoctorArgs& a) {
  if (a.list_rules) return ListRules();
  if (a.list_policy) {
    std::cout << PolicyListing();
    return kExitOk;
  }
  if (a.list_symptoms) {
    for (const Symptom& s : Symptoms()) std::cout << fmt::format("{:<24} {}\n", s.id, s.summary);
    return kExitOk;
  }
  if (a.facts.empty()) throw UsageError("give FACTS (files, directories or NDJSON from `railyard collect`)");
  DoctorPolicy policy = a.policy.empty() ? DoctorPolicy{} : LoadPolicy(a.policy);
  if (!a.hcl.empty()) LoadHcl(policy, a.hcl);
  if (!a.compat.empty()) policy.compat = LoadCompatMatrix(a.compat);
  std::shared_ptr<HostPlan> plan;
  if (!a.plan.empty()) plan = std::make_shared<HostPlan>(LoadPlanNoting(a.plan, true));
  if (!a.names.empty()) {
    if (!plan) throw UsageError("--names needs --plan");
    plan->LoadNames(a.names);
  }
  return a.symptom.empty() ? Examine(a, policy, plan) : WalkSymptom(a, policy, plan);
}

}  // namespace

std::function<int()> AddDoctorCommand(CLI::App& app) {
  auto a = std::make_shared<DoctorArgs>();
  CLI::App* cmd = app.add_subcommand("doctor", "Find NIC, link and configuration faults in host facts");
  cmd->footer(
      "Examples:\n"
      "  railyard doctor gpu042.json                       # one host\n"
      "  railyard doctor facts/ --format json               # a directory of facts, every rule + fleet rules\n"
      "  clush -w gpu[001-128] -N 'railyard collect' | railyard doctor - --fail-on warning\n"
      "  railyard doctor fleet.ndjson --format prometheus > /var/lib/node_exporter/railyard.prom\n"
      "  railyard doctor facts/ --plan out/plan.json         # plus: NIC ports on their planned rail and speed\n"
      "  railyard doctor --symptom bandwidth-below-rated gpu042.json   # the expert's checks, in order\n"
      "  railyard doctor --list-rules\n"
      "  railyard doctor --list-policy                       # every key a --policy file may set");
  cmd->add_option("FACTS", a->facts, "HostFacts files, directories of them, or NDJSON");
  cmd->add_option("--plan", a->plan, "plan.json from `railyard plan`: adds rail-mismatch and speed-below-plan");
  cmd->add_option("--names", a->names, "with --plan: map the field's names to the plan's (verify's --names CSV)");
  cmd->add_option("--policy", a->policy, "policy YAML (docs/doctor.md); defaults without one");
  cmd->add_option("--compat", a->compat, "server x NIC compatibility matrix CSV (docs/advise.md): adds server-nic-unsupported");
  cmd->add_option("--hcl", a->hcl,
                  "compatibility list CSV (vendor_id,device_id,driver,min_driver_version,releases): adds esxi-nic-not-on-hcl");
  cmd->add_option("--format", a->format, "table (default), json, csv, junit or prometheus")
      ->check(CLI::IsMember(FindingsFormatNames()));
  cmd->add_option("--fail-on", a->fail_on, "exit 1 when a finding reaches: info, warning or error (default)")
      ->check(CLI::IsMember({"info", "warning", "error"}));
  cmd->add_flag("--list-rules", a->list_rules, "print every rule and exit");
  cmd->add_flag("--list-policy", a->list_policy, "print every policy key (default, meaning, the rules that read it) and exit");
  cmd->add_option("--symptom", a->symptom, "guided mode: walk the checks for a symptom (see --list-symptoms)");
  cmd->add_flag("--list-symptoms", a->list_symptoms, "print every symptom and exit");
  return [a] { return RunDoctor(*a); };
}

}  // namespace railyard::cli
