#include "parse/flint.h"

#include <charconv>

#include "parse/key_value.h"

namespace railyard {
namespace {

// "e09d730300126474        16" -> ("e09d730300126474", 16); "N/A 4" -> ("", 4).
void IdAndCount(const std::string& value, std::string& id, int& count) {
  std::string_view v = value;
  size_t space = v.find_first_of(" \t");
  std::string_view first = v.substr(0, space);
  id = first == "N/A" ? std::string() : std::string(first);
  if (space != std::string_view::npos) {
    std::string_view rest = TrimView(v.substr(space));
    std::from_chars(rest.data(), rest.data() + rest.size(), count);
  }
}

std::string NotApplicable(const std::string& v) { return v == "N/A" ? std::string() : v; }

}  // namespace

FirmwareQuery ParseFlintQuery(std::string_view text) {
  FirmwareQuery q;
  for (const KeyValue& kv : ParseKeyValues(text)) {
    const std::string& k = kv.key;
    if (k == "Image type")
      q.image_type = kv.value;
    else if (k == "FW Version")
      q.fw_version = kv.value;
    else if (k == "Running FW Version" || k == "FW Version(Running)" || k == "FW Version (Running)")
      q.running_fw_version = kv.value;
    else if (k == "FW Release Date")
      q.fw_release_date = kv.value;
    else if (k == "Product Version")
      q.product_version = kv.value;
    else if (k == "Rom Info") {
      size_t start = 0;
      while (start <= kv.value.size()) {
        size_t end = kv.value.find('\n', start);
        if (end == std::string::npos) end = kv.value.size();
        if (end > start) q.rom_info.push_back(kv.value.substr(start, end - start));
        start = end + 1;
      }
    } else if (k == "Base GUID")
      IdAndCount(kv.value, q.base_guid, q.guids);
    else if (k == "Orig Base GUID") {
      int n = 0;
      IdAndCount(kv.value, q.orig_base_guid, n);
    } else if (k == "Base MAC")
      IdAndCount(kv.value, q.base_mac, q.macs);
    else if (k == "Orig Base MAC") {
      int n = 0;
      IdAndCount(kv.value, q.orig_base_mac, n);
    } else if (k == "PSID")
      q.psid = NotApplicable(kv.value);
    else if (k == "Orig PSID")
      q.orig_psid = NotApplicable(kv.value);
    else if (k == "Security Attributes")
      q.security_attributes = kv.value;
    else if (k == "Part Number")
      q.part_number = kv.value;
    else if (k == "Description" && kv.value.rfind("UID", 0) != 0)
      q.description = kv.value;  // not the table header
  }
  if (q.fw_version.empty()) q.warnings.push_back({0, "no \"FW Version\": not flint/mstflint query output"});
  if (q.psid.empty()) q.warnings.push_back({0, "no PSID"});
  return q;
}

}  // namespace railyard
