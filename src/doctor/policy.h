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
#include "model/finding.h"
#include "util/input_error.h"
#include "util/versions.h"

namespace railyard {

struct DoctorPolicy {
  uint32_t ethernet_mtu = 9000;  // RoCE / storage Ethernet interfaces
  uint32_t ib_mtu = 4096;        // InfiniBand (IPoIB datagram payload excluded)
  int roce_priority = 3;         // the lossless priority: PFC on, ECN on
  std::string roce_trust = "dscp";
  double max_effective_ber = 1e-12;
  double module_temp_warn_c = 70;
  double module_temp_alarm_c = 80;
  int link_flap_downs = 3;                               // link-down events per port in the kernel log that make link-flapping
  uint64_t max_rx_discards = 0;                          // rx_discards_phy / rx_out_of_buffer above this warn; 0 = any
  std::map<std::string, std::string> firmware_baseline;  // PSID or device family ("ConnectX-7") -> minimum version
  bool require_iommu = false;                            // hosts run VMs / SR-IOV passthrough: the IOMMU must be on
  bool require_sriov = false;                            // hosts hand VFs to VMs or pods: SR-IOV must be on with VFs created
  std::string driver_stack;                              // "" no requirement | any | mlnx_ofed | doca (ofed_info -s must show it)
  std::vector<std::string> qualified_module_vendors = {"NVIDIA", "Mellanox"};  // module EEPROM vendor names
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

// Every rule id the doctor knows (host, fleet, plan and switch rules): a policy naming another would
// disable or regrade nothing, in silence, so ParsePolicy refuses it.
const std::vector<std::string>& KnownRuleIds();

DoctorPolicy ParsePolicy(const std::string& yaml_text, const std::string& file_name);
DoctorPolicy LoadPolicy(const std::string& path);
// Reads a compatibility list CSV (vendor_id,device_id,driver,min_driver_version,releases) into the policy.
// Throws PolicyError naming the file, line and column on a bad row.
void LoadHcl(DoctorPolicy& policy, const std::string& path);

}  // namespace railyard
