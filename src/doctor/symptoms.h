// Guided mode: for a symptom ("no link light", "bandwidth below rated" …) the ordered checks an
// expert runs, each passed, failed (with the evidence) or unknown (with the command that would
// tell, because the facts lack that source).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "doctor/plan_rules.h"
#include "doctor/policy.h"
#include "facts/host_facts.h"
#include "facts/switch_facts.h"

namespace railyard {

enum class StepStatus { kPassed, kFailed, kUnknown };
std::string_view ToString(StepStatus status);

struct StepResult {
  std::string step;  // what is checked
  StepStatus status = StepStatus::kUnknown;
  std::string detail;   // evidence when passed or failed; why unknown
  std::string command;  // unknown: the command whose output (in a capture, or live) decides it
  std::string fix;      // failed: what to do
};

struct Symptom {
  const char* id;
  const char* summary;
};
const std::vector<Symptom>& Symptoms();

// Throws UsageError naming the known symptoms for an unknown id.
std::vector<StepResult> RunSymptom(const std::string& symptom, const HostFacts& facts, const DoctorPolicy& policy);
// With the switches' facts, the walks also look at the switch end: vlan-unreachable checks that the
// switch port each VLAN's port reaches (LLDP) carries that VLAN.
std::vector<StepResult> RunSymptom(const std::string& symptom, const HostFacts& facts, const DoctorPolicy& policy,
                                   const std::vector<SwitchFacts>& switches);
// With the plan too, the walks know which switch port each of the host's ports is cabled to, even
// when its link is down (so LLDP is silent): no-link-light checks that the switch end is enabled,
// not errdisabled, holds a module it supports and receives light; bandwidth-below-rated that it runs
// at the planned speed, clean, with the host's RoCE QoS.
std::vector<StepResult> RunSymptom(const std::string& symptom, const HostFacts& facts, const DoctorPolicy& policy,
                                   const std::vector<SwitchFacts>& switches, std::shared_ptr<const HostPlan> plan);

std::string SymptomTable(const std::string& host, const std::vector<StepResult>& steps);

// One host's walk as JSON: {"host", "symptom", "steps": [{"step", "status" passed|failed|unknown,
// "detail", "command", "fix"}], "failed": N}. `railyard doctor --symptom S --format json` prints
// {"schema": "railyard.symptom/1", "symptom": S, "hosts": [these]}.
nlohmann::json SymptomJson(const std::string& symptom, const std::string& host, const std::vector<StepResult>& steps);

}  // namespace railyard
