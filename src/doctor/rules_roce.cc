// Lossless RoCE: PFC, trust mode and ECN on the policy's RoCE priority.
#include <fmt/format.h>

#include "doctor/rules.h"

namespace railyard {
namespace {

const PolicyKey<int> kRocePriority{
    "roce_priority", 3, "a priority 0-7", "the lossless priority: PFC and ECN must be on there", {"roce-pfc-off", "roce-ecn-off"},
    InRange(0, 7)};
const PolicyKey<std::string> kRoceTrust{
    "roce_trust",          "dscp", "pcp or dscp", "the QoS trust mode RoCE interfaces must have", {"roce-trust-not-dscp"},
    OneOf({"pcp", "dscp"})};

void PfcOff(RuleContext& c) {
  const int prio = c.policy.Get(kRocePriority);
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (!n.qos || n.qos->pfc_enabled[static_cast<size_t>(prio)] != 0) continue;
    std::vector<int> on = n.qos->PfcPriorities();
    c.Report(fmt::format("netdev {}", n.name),
             fmt::format("PFC is off on priority {}: RoCE traffic there is lossy and NCCL retransmits under congestion", prio),
             fmt::format("mlnx_qos -i {} --pfc {} (and the same priority lossless on the switch)", n.name,
                         [&] {
                           std::string v;
                           for (int p = 0; p < 8; ++p) v += (p ? "," : "") + std::string(p == prio ? "1" : "0");
                           return v;
                         }()))
        .evidence = {{"pfc_enabled_priorities", on.empty() ? "none" : fmt::format("{}", fmt::join(on, ","))},
                     {"dcbx_mode", n.qos->dcbx_mode}};
  }
}

void TrustNotDscp(RuleContext& c) {
  const std::string& want = c.policy.Get(kRoceTrust);
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (!n.qos || n.qos->trust.empty() || n.qos->trust == want) continue;
    c.Report(fmt::format("netdev {}", n.name),
             fmt::format("trust mode is {}, not {}: routed (L3) RoCE marks priority in DSCP, so packets land in the wrong queue",
                         n.qos->trust, want),
             fmt::format("mlnx_qos -i {} --trust {}", n.name, want))
        .evidence = {{"trust", n.qos->trust}};
  }
}

void EcnOff(RuleContext& c) {
  const size_t prio = static_cast<size_t>(c.policy.Get(kRocePriority));
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (!n.ecn) continue;
    std::vector<std::string> off;
    if (n.ecn->np_enabled[prio] == 0) off.push_back("roce_np (notification point)");
    if (n.ecn->rp_enabled[prio] == 0) off.push_back("roce_rp (reaction point)");
    if (off.empty()) continue;
    c.Report(fmt::format("netdev {}", n.name),
             fmt::format("ECN is off on priority {} for {}: DCQCN cannot slow senders, so congestion turns into PFC pauses", prio,
                         fmt::join(off, " and ")),
             fmt::format("echo 1 > /sys/class/net/{0}/ecn/roce_np/enable/{1}; echo 1 > /sys/class/net/{0}/ecn/roce_rp/enable/{1} "
                         "(persist with a udev rule or the NIC's mlxconfig defaults)",
                         n.name, prio))
        .evidence = {{"roce_np", std::to_string(n.ecn->np_enabled[prio])}, {"roce_rp", std::to_string(n.ecn->rp_enabled[prio])}};
  }
}

}  // namespace

void AddRoceRules(std::vector<HostRule>& rules) {
  rules.push_back({"roce-pfc-off", Severity::kError, "PFC off on the RoCE priority (policy roce_priority, default 3)", PfcOff});
  rules.push_back({"roce-trust-not-dscp", Severity::kWarning, "QoS trust mode other than the policy's (dscp)", TrustNotDscp});
  rules.push_back({"roce-ecn-off", Severity::kError, "ECN notification or reaction point off on the RoCE priority", EcnOff});
}

}  // namespace railyard
