// libFuzzer target: any bytes as a receiving list (CSV) or an acceptance policy (YAML), chosen by
// the first byte. Both must accept or throw InputError (what a user wrote is wrong), never crash
// and never throw anything else; every asset a list yields goes through the authenticity checks and the
// acceptance evaluation, whose inputs are then as hostile as the list.
#include <cstddef>
#include <cstdint>
#include <string>

#include "ledger/acceptance.h"
#include "ledger/authenticity.h"
#include "ledger/observe.h"
#include "util/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) {
    try {
      (void)railyard::ParseAcceptancePolicy(text, "fuzz.yaml");
    } catch (const railyard::InputError&) {
    }
    return 0;
  }
  std::vector<railyard::AssetObservation> observations;
  try {
    observations =
        railyard::ObservationsFromReceivingCsv(text, "fuzz.csv", {.format = "", .batch = "", .allow_unknown_opn = true});
  } catch (const railyard::InputError&) {
    return 0;
  }
  railyard::AcceptancePolicy policy;
  policy.firmware_baseline["ConnectX-7"] = "28.42.1000";
  for (const railyard::AssetObservation& o : observations) {
    railyard::Asset asset{o.serial, o.kind, o.fields};
    // Receiving lists carry few fields: give the checks every field name, with the list's values.
    for (const char* f : {"fw.psid", "fw.version", "fw.base_mac", "vpd.V3", "vpd.VU", "pci.device_id", "module.length_m",
                          "measured.effective_ber", "measured.ber_window_min", "fw.security", "fw.part_number"}) {
      asset.fields.emplace(f, o.fields.count("note") ? o.fields.at("note") : o.serial);
    }
    (void)railyard::CheckAsset(asset);
    (void)railyard::Evaluate(asset, policy);
  }
  return 0;
}
