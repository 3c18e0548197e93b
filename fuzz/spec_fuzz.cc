// libFuzzer target: any bytes as a cluster spec. ParseSpec must either succeed or throw
// SpecError (never crash, hang or throw anything else); a small spec that parses is planned,
// so the planner is fuzzed on every shape the parser accepts.
// Build and run: make fuzz (FUZZ_SECONDS=600 for a longer run).
#include <cstddef>
#include <cstdint>
#include <string>

#include <stdexcept>

#include "plan/planner.h"
#include "rollout/switches.h"
#include "rollout/target.h"
#include "spec/spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  // The rollout's target.yaml and policy readers take the same YAML: refused with runtime_error only.
  try {
    railyard::ParseRolloutTarget(text, "target.yaml");
  } catch (const std::runtime_error&) {
  }
  try {
    railyard::ParseRolloutPolicy(text, "rollout.yaml");
  } catch (const std::runtime_error&) {
  }
  try {  // the rollout's switch inventory (CSV)
    railyard::ParseSwitchInventory(text, "switches.csv");
  } catch (const std::runtime_error&) {
  }
  railyard::Spec spec;
  try {
    spec = railyard::ParseSpec(text, "fuzz.yaml");
  } catch (const railyard::SpecError&) {
    return 0;
  }
  if (spec.nodes.count <= 256) {
    try {  // the planner's own spec errors: rack names it does not have, names that collide
      railyard::PlanResult result = railyard::Plan(spec);
      (void)result;
    } catch (const railyard::SpecError&) {
    }
  }
  return 0;
}
