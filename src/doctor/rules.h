// Doctor rules: each turns one host's facts (or the whole fleet's) into findings with the
// evidence it saw, why it matters and the fix. Rule ids are stable: scripts, policies and
// dashboards key on them. docs/rules/<id>.md says what each checks and where its numbers come from.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "doctor/policy.h"
#include "facts/host_facts.h"
#include "model/finding.h"
#include "model/pci_address.h"

namespace railyard {

// What a host rule gets: the facts, the policy, and where to put findings (already carrying the
// rule id, severity and host).
class RuleContext {
 public:
  RuleContext(const HostFacts& host_facts, const DoctorPolicy& doctor_policy, std::vector<Finding>& out, const char* rule,
              Severity severity)
      : facts(host_facts), policy(doctor_policy), out_(out), rule_(rule), severity_(severity) {}
  const HostFacts& facts;
  const DoctorPolicy& policy;
  // Adds a finding at the rule's severity (or `severity` when the rule grades its findings).
  Finding& Report(std::string object, std::string message, std::string fix);
  Finding& Report(Severity severity, std::string object, std::string message, std::string fix);

 private:
  std::vector<Finding>& out_;
  const char* rule_;
  Severity severity_;
};

struct HostRule {
  const char* id;
  Severity severity;
  const char* summary;
  std::function<void(RuleContext&)> check;
};

const std::vector<HostRule>& HostRules();

// Runs every rule the policy leaves on over one host, in rule order.
std::vector<Finding> RunHostRules(const HostFacts& facts, const DoctorPolicy& policy);

// Shared reading of the facts that several rules need.
// The RoCE interfaces: physical Ethernet netdevs of an RDMA-capable NIC (mlx5 exposes ecn/ on
// those), or named by mlnx_qos.
bool IsRoceNetdev(const NetdevFacts& n);
// The line rate in Gb/s of the ports on a PCI function: from netdevs (ethtool speed) and RDMA
// ports (ibstat rate) that name that function; 0 when none is known.
double PortRateGbps(const HostFacts& facts, const std::string& bdf);
// A port someone meant to use: it carries addresses, is in a bond or bridge, or has configuration
// (ifcfg, netplan, a NetworkManager connection).
bool Configured(const HostFacts& f, const NetdevFacts& n);
// When a kernel event happened, as the log said it: wall-clock time, seconds after boot, or "no timestamp".
std::string When(const KernelEvent& e);
// The highest speed in Mb/s among ethtool/esxcli link modes ("2500baseT/Full" -> 2500; esxcli's modes lower-cased),
// counting only modes also in `also` when given (both ends advertise them); 0 when none parse.
uint32_t BestLinkModeMbps(const std::vector<std::string>& modes, const std::vector<std::string>* also = nullptr);
// A ConnectX/BlueField function's family ("ConnectX-7"): by its PCI device id, else lspci's "[ConnectX-7]"; "" unknown.
std::string FamilyOf(const PciFunction& p);

// Policy keys more than one family file reads (declared in the file named; a key one file reads is
// declared there alone).
extern const PolicyKey<double> kModuleTempWarnC;   // rules_optics.cc; switch_rules.cc too
extern const PolicyKey<double> kModuleTempAlarmC;  // rules_optics.cc; switch_rules.cc too
extern const PolicyKey<int> kLinkFlapDowns;        // rules_kernel.cc; rules_other_nics.cc too

// Family rule registrations (one file each), concatenated by HostRules().
void AddPcieRules(std::vector<HostRule>& rules);
void AddLinkRules(std::vector<HostRule>& rules);
void AddBondRules(std::vector<HostRule>& rules);
void AddConfigRules(std::vector<HostRule>& rules);
void AddRoceRules(std::vector<HostRule>& rules);
void AddOpticsRules(std::vector<HostRule>& rules);
void AddKernelRules(std::vector<HostRule>& rules);
void AddOtherNicRules(std::vector<HostRule>& rules);
void AddEsxiRules(std::vector<HostRule>& rules);
// link-below-capability's half for NICs other than ConnectX (ethtool link modes), in rules_other_nics.cc.
void LinkBelowCapabilityOtherNics(RuleContext& c);

}  // namespace railyard
