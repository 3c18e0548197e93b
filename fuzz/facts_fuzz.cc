// libFuzzer target: any bytes as a HostFacts document, then every doctor rule, fleet rule,
// symptom and output format over it. FactsFromJsonText must accept or reject with an exception
// (an input error, exit 2 in the CLI); whatever it accepts, the rules must survive: hostile
// facts (empty arrays, huge or negative numbers, odd strings) never crash the doctor.
// Seeded by fuzz/run_parsers.sh with facts collected from the real samples.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "doctor/doctor.h"
#include "doctor/policy.h"
#include "doctor/rules.h"
#include "doctor/symptoms.h"
#include "facts/host_facts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The bytes as `railyard doctor` reads a facts line: simdjson, then the field table.
  railyard::HostFacts facts;
  try {
    facts = railyard::FactsFromJsonText(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const std::exception&) {
    return 0;
  }
  // What it accepted, written and read back, is the same document (the table reads what it writes).
  const std::string once = railyard::ToJson(facts).dump();
  if (railyard::ToJson(railyard::FactsFromJsonText(once)).dump() != once) __builtin_trap();
  // A policy that turns every conditional rule on.
  // Read as a user's policy file is, so the fuzzer follows the keys wherever their rules declare them.
  static const railyard::DoctorPolicy policy = railyard::ParsePolicy(
      "require_iommu: true\nrequire_sriov: true\ndriver_stack: doca\n"
      "firmware_baseline:\n  ConnectX-7: 28.40.1000\n",
      "fuzz-policy.yaml");
  (void)railyard::RunHostRules(facts, policy);
  for (const railyard::Symptom& s : railyard::Symptoms()) (void)railyard::RunSymptom(s.id, facts, policy);
  railyard::Doctor doctor(policy);
  doctor.AddHost(facts);
  doctor.AddHost(facts);
  railyard::DoctorReport report = doctor.Finish();
  (void)railyard::DoctorJson(report);
  (void)railyard::DoctorJunit(report);
  (void)railyard::DoctorPrometheus(report);
  return 0;
}
