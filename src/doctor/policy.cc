#include "doctor/policy.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>
#include <type_traits>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "doctor/fleet.h"
#include "doctor/plan_rules.h"
#include "doctor/rules.h"
#include "doctor/switch_rules.h"
#include "util/csv.h"
#include "util/file.h"
#include "util/lines.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/yaml_strict.h"

namespace railyard {
namespace {

using policy_key_detail::Fail;

std::string RuleId(const std::string& file, const YAML::Node& node, const std::string& key) {
  std::string id = node.as<std::string>("");
  const auto& ids = KnownRuleIds();
  if (std::find(ids.begin(), ids.end(), id) != ids.end()) return id;
  std::string hint = ClosestMatch(id, ids);
  Fail(file, node, key,
       hint.empty() ? fmt::format("no rule \"{}\" (railyard doctor --list-rules)", id)
                    : fmt::format("no rule \"{}\" (did you mean {}?)", id, hint));
}

// The keys a policy has besides the rules' own, as --list-policy shows them.
struct FileKey {
  const char* name;
  const char* fallback;
  const char* expect;
  const char* meaning;
};
constexpr FileKey kFileKeys[] = {
    {"disabled_rules", "[]", "a list of rule ids", "rules not to run"},
    {"severity", "{}", "a mapping of rule id to info, warning or error", "a rule's findings at another severity"},
};

}  // namespace

const std::vector<std::string>& PolicyFileKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const FileKey& k : kFileKeys) out.push_back(k.name);
    return out;
  }();
  return keys;
}

std::string PolicyListing() {
  std::string out;
  auto paragraph = [&](const std::string& name, const std::string& fallback, const std::string& expect,
                       const std::string& meaning, const std::string& read_by) {
    out += fmt::format("{}: {}\n  {} ({})\n  read by: {}\n", name, fallback, meaning, expect, read_by);
  };
  for (const PolicyKeyInfo* k : PolicyKeys())
    paragraph(k->name, k->fallback, k->expect, k->meaning, fmt::format("{}", fmt::join(k->read_by, ", ")));
  for (const FileKey& k : kFileKeys) paragraph(k.name, k.fallback, k.expect, k.meaning, "every rule");
  return out;
}

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
  std::map<std::string, const PolicyKeyInfo*> keys;
  for (const PolicyKeyInfo* k : PolicyKeys()) keys[k->name] = k;
  std::vector<std::pair<const PolicyKeyInfo*, YAML::Node>> set;
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>("");
    const YAML::Node& v = kv.second;
    if (auto k = keys.find(key); k != keys.end()) {
      const PolicyKeyInfo& info = *k->second;
      if (p.values.size() <= info.id) p.values.resize(info.id + 1);
      p.values[info.id] = info.read(v, file);
      set.emplace_back(&info, kv.first);
    } else if (key == "disabled_rules") {
      if (!v.IsSequence()) Fail(file, v, key, "expected a list of rule ids");
      for (const auto& r : v) {
        policy_key_detail::Scalar<std::string>(file, r, key, "a rule id");
        p.disabled_rules.insert(RuleId(file, r, key));
      }
    } else if (key == "severity") {
      if (!v.IsMap()) Fail(file, v, key, "expected a mapping of rule id to info|warning|error");
      for (const auto& r : v) {
        auto sev = ParseSeverity(policy_key_detail::Scalar<std::string>(file, r.second, key, "info, warning or error"));
        if (!sev) Fail(file, r.second, key, "expected info, warning or error");
        p.severity[RuleId(file, r.first, key)] = *sev;
      }
    } else {
      std::vector<std::string> known = PolicyFileKeys();
      for (const auto& [name, info] : keys) known.push_back(name);
      Fail(file, kv.first, key, UnknownKeyMessage(key, known));
    }
  }
  // Checks see the whole policy (an alarm threshold below its warning is refused), so they run last.
  for (const auto& [info, where] : set) {
    if (!info->check) continue;
    if (std::string why = info->check(*p.values[info->id], p); !why.empty()) Fail(file, where, info->name, why);
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
