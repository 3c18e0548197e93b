// libFuzzer target: any bytes as the file of one capture slot, chosen by the first byte among
// CaptureSlots() (facts/capture_slots.cc), then built into HostFacts and every host rule run over
// them. It follows the slot table: a parser for a new capture is fuzzed through its slot with no entry
// here. BuildHostFacts must never throw on what a tool printed (it becomes warnings), and what it
// builds must survive the rules and write back as the same document.
// Seeded by fuzz/run_parsers.sh with every real sample, spread over the slots.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "doctor/policy.h"
#include "doctor/rules.h"
#include "facts/capture_slots.h"
#include "facts/collect.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::vector<railyard::CaptureSlot>& slots = railyard::CaptureSlots();
  const railyard::CaptureSlot& slot = slots[data[0] % slots.size()];
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  railyard::CollectInputs in;
  in.hostname = "fuzz";
  if (slot.text) {
    in.*slot.text = std::move(text);
  } else if (slot.per_object) {
    (in.*slot.per_object)[slot.example] = std::move(text);
  } else if (slot.identity) {
    in.*slot.identity = std::move(text);
  } else {
    return 0;  // the interface listings: parser_fuzz's iproute target reads them
  }
  const railyard::HostFacts facts = railyard::BuildHostFacts(in);
  // Written as `railyard collect` writes it (bytes a tool printed that are not UTF-8 replaced), and read
  // back: the same document.
  auto write = [](const railyard::HostFacts& f) {
    return railyard::ToJson(f).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  const std::string once = write(facts);
  if (write(railyard::FactsFromJsonText(once)) != once) __builtin_trap();
  (void)railyard::RunHostRules(facts, railyard::DoctorPolicy{});
  return 0;
}
