#include "doctor/policy.h"

#include <algorithm>
#include "doctor/fleet.h"
#include "doctor/plan_rules.h"
#include "doctor/rules.h"
#include "doctor/switch_rules.h"
#include "util/csv.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/text.h"

#include <type_traits>

#include <charconv>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "util/yaml_strict.h"

#include "util/suggest.h"

namespace railyard {
namespace {

[[noreturn]] void Fail(const std::string& file, const YAML::Node& node, const std::string& key, const std::string& message) {
  const YAML::Mark m = node.Mark();
  throw PolicyError(file, m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1, key, message);
}

std::string RuleId(const std::string& file, const YAML::Node& node, const std::string& key) {
  std::string id = node.as<std::string>("");
  const auto& ids = KnownRuleIds();
  if (std::find(ids.begin(), ids.end(), id) != ids.end()) return id;
  std::string hint = ClosestMatch(id, ids);
  Fail(file, node, key,
       hint.empty() ? fmt::format("no rule \"{}\" (railyard doctor --list-rules)", id)
                    : fmt::format("no rule \"{}\" (did you mean {}?)", id, hint));
}

template <typename T>
T As(const std::string& file, const YAML::Node& node, const std::string& key, const char* what) {
  T v{};
  if (!node.IsScalar() || !YAML::convert<T>::decode(node, v)) Fail(file, node, key, fmt::format("expected {}", what));
  if constexpr (std::is_floating_point_v<T>) {
    if (!FiniteNumber(node)) Fail(file, node, key, fmt::format("expected {}, not NaN or infinity", what));
  }
  return v;
}

}  // namespace

const std::vector<std::string>& KnownRuleIds() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const HostRule& r : HostRules()) out.push_back(r.id);
    for (const FleetRule& r : FleetRules()) out.push_back(r.id);
    for (const FleetRule& r : PlanRules()) out.push_back(r.id);
    for (const FleetRule& r : SwitchRules()) out.push_back(r.id);
    return out;
  }();
  return ids;
}

DoctorPolicy ParsePolicy(const std::string& yaml_text, const std::string& file) {
  DoctorPolicy p;
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw PolicyError(file, e.mark.line + 1, e.mark.column + 1, "(syntax)", e.msg);
  }
  if (root.IsNull()) return p;
  if (!root.IsMap()) throw PolicyError(file, 1, 0, "", "the policy must be a mapping of keys");
  if (auto d = FindDuplicateKey(root)) {
    throw PolicyError(file, d->line, d->column, d->key,
                      fmt::format("appears twice (first at line {}): YAML would keep only one of them", d->first_line));
  }
  static const std::vector<std::string> kKeys = {"ethernet_mtu",        "ib_mtu",
                                                 "roce_priority",       "roce_trust",
                                                 "max_effective_ber",   "module_temp_warn_c",
                                                 "module_temp_alarm_c", "max_rx_discards",
                                                 "link_flap_downs",     "firmware_baseline",
                                                 "require_iommu",       "require_sriov",
                                                 "driver_stack",        "qualified_module_vendors",
                                                 "disabled_rules",      "severity"};
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>("");
    const YAML::Node& v = kv.second;
    if (key == "ethernet_mtu")
      p.ethernet_mtu = As<uint32_t>(file, v, key, "an MTU in bytes");
    else if (key == "ib_mtu")
      p.ib_mtu = As<uint32_t>(file, v, key, "an MTU in bytes");
    else if (key == "roce_priority") {
      p.roce_priority = As<int>(file, v, key, "a priority 0-7");
      if (p.roce_priority < 0 || p.roce_priority > 7) Fail(file, v, key, "expected a priority 0-7");
    } else if (key == "roce_trust") {
      p.roce_trust = As<std::string>(file, v, key, "pcp or dscp");
      if (p.roce_trust != "pcp" && p.roce_trust != "dscp") Fail(file, v, key, "expected pcp or dscp");
    } else if (key == "max_effective_ber")
      p.max_effective_ber = As<double>(file, v, key, "a number such as 1e-12");
    else if (key == "module_temp_warn_c")
      p.module_temp_warn_c = As<double>(file, v, key, "degrees Celsius");
    else if (key == "module_temp_alarm_c")
      p.module_temp_alarm_c = As<double>(file, v, key, "degrees Celsius");
    else if (key == "require_iommu")
      p.require_iommu = As<bool>(file, v, key, "true or false");
    else if (key == "require_sriov")
      p.require_sriov = As<bool>(file, v, key, "true or false");
    else if (key == "driver_stack") {
      p.driver_stack = As<std::string>(file, v, key, "any, mlnx_ofed or doca");
      if (p.driver_stack != "any" && p.driver_stack != "mlnx_ofed" && p.driver_stack != "doca") {
        Fail(file, v, key, "expected any, mlnx_ofed or doca");
      }
    } else if (key == "qualified_module_vendors") {
      if (!v.IsSequence()) Fail(file, v, key, "expected a list of module vendor names");
      p.qualified_module_vendors.clear();
      for (const auto& r : v) p.qualified_module_vendors.push_back(As<std::string>(file, r, key, "a vendor name"));
    } else if (key == "max_rx_discards")
      p.max_rx_discards = As<uint64_t>(file, v, key, "a count");
    else if (key == "link_flap_downs")
      p.link_flap_downs = As<int>(file, v, key, "a count");
    else if (key == "firmware_baseline") {
      if (!v.IsMap()) Fail(file, v, key, "expected a mapping of PSID or family to version");
      for (const auto& b : v)
        p.firmware_baseline[b.first.as<std::string>("")] = As<std::string>(file, b.second, key, "a version");
    } else if (key == "disabled_rules") {
      if (!v.IsSequence()) Fail(file, v, key, "expected a list of rule ids");
      for (const auto& r : v) {
        As<std::string>(file, r, key, "a rule id");
        p.disabled_rules.insert(RuleId(file, r, key));
      }
    } else if (key == "severity") {
      if (!v.IsMap()) Fail(file, v, key, "expected a mapping of rule id to info|warning|error");
      for (const auto& r : v) {
        auto sev = ParseSeverity(As<std::string>(file, r.second, key, "info, warning or error"));
        if (!sev) Fail(file, r.second, key, "expected info, warning or error");
        p.severity[RuleId(file, r.first, key)] = *sev;
      }
    } else {
      Fail(file, kv.first, key, UnknownKeyMessage(key, kKeys));
    }
  }
  if (p.module_temp_alarm_c < p.module_temp_warn_c) {
    throw PolicyError(file, 0, 0, "module_temp_alarm_c", "is below module_temp_warn_c");
  }
  return p;
}

DoctorPolicy LoadPolicy(const std::string& path) { return ParsePolicy(ReadWholeFile(path), ShownPath(path)); }

}  // namespace railyard

namespace railyard {

void LoadHcl(DoctorPolicy& policy, const std::string& path) {
  std::string text = ReadWholeFile(path);
  CsvTable t;
  try {
    t = ParseCsv(text, path);
  } catch (const std::runtime_error& e) {
    throw PolicyError(e.what());
  }
  for (const char* column : {"vendor_id", "device_id", "driver", "min_driver_version", "releases"}) {
    if (t.Column(column) < 0) {
      throw PolicyError(path, 1, 0, column,
                        "the column is missing (header: vendor_id,device_id,driver,min_driver_version,releases)");
    }
  }
  auto hex = [&](const CsvRow& r, const char* column) {
    std::string v = Lower(TrimSpace(r.fields[static_cast<size_t>(t.Column(column))]));
    if (v.starts_with("0x")) v = v.substr(2);
    if (v.size() != 4 || v.find_first_not_of("0123456789abcdef") != std::string::npos) {
      throw PolicyError(path, r.line, 0, column, fmt::format("four hex digits are required, not \"{}\"", v));
    }
    return v;
  };
  for (const CsvRow& r : t.rows) {
    DoctorPolicy::HclEntry e;
    e.vendor_id = hex(r, "vendor_id");
    e.device_id = hex(r, "device_id");
    e.driver = std::string(TrimSpace(r.fields[static_cast<size_t>(t.Column("driver"))]));
    e.min_driver_version = std::string(TrimSpace(r.fields[static_cast<size_t>(t.Column("min_driver_version"))]));
    for (std::string_view w : SplitWords(r.fields[static_cast<size_t>(t.Column("releases"))], ';')) e.releases.emplace_back(w);
    e.line = r.line;
    policy.hcl.push_back(std::move(e));
  }
  policy.hcl_file = path;
}

}  // namespace railyard
