// The doctor's policy: what "right" means on this cluster (MTU, RoCE priority, thresholds,
// firmware baselines, rules turned off). Every value has a default, so no policy file is needed;
// a policy YAML overrides them and an unknown key is an error naming file, line and key.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalog/compatibility.h"
#include "doctor/policy_key.h"
#include "model/finding.h"
#include "util/input_error.h"
#include "util/versions.h"

namespace railyard {

struct DoctorPolicy {
  // A threshold or setting a rule reads: declared beside that rule as a PolicyKey (doctor/policy_key.h),
  // set here by ParsePolicy (or by a caller), else the key's default.
  template <typename T>
  const T& Get(const PolicyKey<T>& key) const {
    const size_t id = key.info().id;
    if (id < values.size() && values[id]) return std::get<T>(*values[id]);
    return key.fallback();
  }
  template <typename T>
  DoctorPolicy& Set(const PolicyKey<T>& key, T value) {
    if (values.size() <= key.info().id) values.resize(key.info().id + 1);
    values[key.info().id] = PolicyValue(std::move(value));
    return *this;
  }
  std::vector<std::optional<PolicyValue>> values;  // by PolicyKeyInfo::id; unset: the key's default
  // A hardware compatibility list the user supplies (`doctor --hcl FILE`, docs/rules/esxi-nic-not-on-hcl.md).
  struct HclEntry {
    std::string vendor_id, device_id;   // "8086", "1563" (lower-case hex, no 0x)
    std::string driver;                 // "ixgben"; "" = any
    std::string min_driver_version;     // "" = any
    std::vector<std::string> releases;  // ESXi releases ("7.0", "8.0.2"), matched as prefixes; empty = any
    int line = 0;
  };
  std::vector<HclEntry> hcl;
  std::string hcl_file;
  // The server × NIC compatibility matrix (`doctor --compat FILE`, docs/advise.md): adds server-nic-unsupported.
  CompatMatrix compat;
  std::set<std::string> disabled_rules;
  std::map<std::string, Severity> severity;  // rule -> severity override
};

// A bad policy file: "FILE:LINE:COLUMN: key: message".
class PolicyError : public InputError {
 public:
  using InputError::InputError;
};

// The keys every policy has besides the rules' own (PolicyKeys()): disabled_rules and severity.
const std::vector<std::string>& PolicyFileKeys();

// Every rule id the doctor knows (host, fleet, plan and switch rules): a policy naming another would
// disable or regrade nothing, in silence, so ParsePolicy refuses it.
const std::vector<std::string>& KnownRuleIds();

// `railyard doctor --list-policy`: every key a policy file may set — name, default, what a value must
// be, its meaning and the rules that read it — from the declarations, one key per paragraph.
std::string PolicyListing();

DoctorPolicy ParsePolicy(const std::string& yaml_text, const std::string& file_name);
DoctorPolicy LoadPolicy(const std::string& path);
// Reads a compatibility list CSV (vendor_id,device_id,driver,min_driver_version,releases) into the policy.
// Throws PolicyError naming the file, line and column on a bad row.
void LoadHcl(DoctorPolicy& policy, const std::string& path);

}  // namespace railyard
