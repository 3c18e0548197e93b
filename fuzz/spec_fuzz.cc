// libFuzzer target: any bytes as a cluster spec. ParseSpec must either succeed or throw
// SpecError (never crash, hang or throw anything else); a small spec that parses is planned,
// so the planner is fuzzed on every shape the parser accepts.
// Build and run: make fuzz (FUZZ_SECONDS=600 for a longer run).
#include <cstddef>
#include <cstdint>
#include <string>

#include "plan/planner.h"
#include "spec/spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  railyard::Spec spec;
  try {
    spec = railyard::ParseSpec(text, "fuzz.yaml");
  } catch (const railyard::SpecError&) {
    return 0;
  }
  if (spec.nodes.count <= 256) {
    railyard::PlanResult result = railyard::Plan(spec);
    (void)result;
  }
  return 0;
}
