// Fleet rules: what only shows across hosts (firmware drift, duplicated identities). The
// accumulator keeps a few strings per host, so ten thousand hosts stream through it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "doctor/policy.h"
#include "facts/host_facts.h"
#include "model/finding.h"

namespace railyard {

struct FleetRule {
  const char* id;
  Severity severity;
  const char* summary;
};
const std::vector<FleetRule>& FleetRules();

class FleetAccumulator {
 public:
  void Add(const HostFacts& facts);
  // Another accumulator's hosts after this one's (the doctor accumulates each host on the thread that
  // parsed it and merges them in file order).
  void Merge(FleetAccumulator&& other);
  std::vector<Finding> Finish(const DoctorPolicy& policy) const;

 private:
  struct Where {
    std::string host;
    std::string object;
  };
  // PSID -> firmware version -> where it runs.
  std::map<std::string, std::map<std::string, std::vector<Where>>> firmware_;
  // Part number -> PSID -> where: OEM-branded cards of one OPN carry their own PSIDs.
  std::map<std::string, std::map<std::string, std::vector<Where>>> psids_;
  // Driver stack (ofed_info -s, else the kernel's in-tree mlx5) -> hosts.
  std::map<std::string, std::vector<Where>> drivers_;
  // Interface name -> MTU -> hosts: the same port name should have the same MTU fleet-wide.
  std::map<std::string, std::map<std::string, std::vector<Where>>> mtus_;
  // RoCE interface name -> QoS signature (trust, PFC priorities, ECN priorities) -> hosts.
  std::map<std::string, std::map<std::string, std::vector<Where>>> qos_;
  // "MAC 00:11:..", "GUID ..", "serial .." -> where it was seen.
  std::map<std::string, std::vector<Where>> identities_;
};

}  // namespace railyard
