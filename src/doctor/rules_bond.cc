// Bonds on the data path.
#include <set>

#include <fmt/format.h>

#include "doctor/rules.h"

namespace railyard {
namespace {

bool AllZeroMac(const std::string& mac) { return !mac.empty() && mac.find_first_not_of("0:") == std::string::npos; }

void ActiveBackup(RuleContext& c) {
  for (const auto& [name, b] : c.facts.bonds) {
    if (!b.IsActiveBackup() || b.members.size() < 2) continue;
    c.Report(fmt::format("bond {}", name),
             fmt::format("active-backup uses one of its {} members at a time: the bond has the bandwidth of one port", b.members.size()),
             "use 802.3ad (LACP) with a layer3+4 hash and an MLAG/EVPN-MH pair on the switch side, if the data plane is meant to "
             "aggregate; keep active-backup only where failover alone was intended")
        .evidence = {{"mode", b.mode}, {"currently_active", b.currently_active}};
  }
}

void LacpNotNegotiated(RuleContext& c) {
  for (const auto& [name, b] : c.facts.bonds) {
    if (!b.Is8023ad()) continue;
    std::vector<std::string> stray;
    for (const BondMember& m : b.members) {
      if (m.aggregator_id >= 0 && b.active_aggregator_id >= 0 && m.aggregator_id != b.active_aggregator_id) stray.push_back(m.name);
    }
    bool no_partner = AllZeroMac(b.partner_mac);
    if (!no_partner && stray.empty()) continue;
    Finding& f = c.Report(fmt::format("bond {}", name),
                          no_partner ? "LACP has no partner: the switch does not answer LACPDUs, so the bond is not aggregating"
                                     : fmt::format("members {} are in a different aggregator than the active one: they carry no traffic",
                                                   fmt::join(stray, ", ")),
                          "configure the switch ports as one LACP port-channel (MLAG pair for two switches), same speed on every "
                          "member; check `lacp_rate` matches the switch");
    f.evidence = {{"partner_mac", b.partner_mac}, {"active_aggregator_id", std::to_string(b.active_aggregator_id)}};
    for (const BondMember& m : b.members) f.evidence.emplace_back(m.name + " aggregator", std::to_string(m.aggregator_id));
  }
}

void MemberDown(RuleContext& c) {
  for (const auto& [name, b] : c.facts.bonds) {
    for (const BondMember& m : b.members) {
      if (m.mii_status == "up") continue;
      c.Report(fmt::format("bond {} member {}", name, m.name),
               fmt::format("member {} is {}: the bond runs without its redundancy", m.name, m.mii_status.empty() ? "not up" : m.mii_status),
               "bring the member's link up (cable, module, switch port); the link-down finding for it has the cause")
          .evidence = {{"mii_status", m.mii_status}, {"link_failure_count", std::to_string(m.link_failure_count)}};
    }
  }
}

void SinglePoint(RuleContext& c) {
  for (const auto& [name, b] : c.facts.bonds) {
    if (b.members.size() < 2) continue;
    std::set<std::string> cards;
    for (const BondMember& m : b.members) {
      for (const NetdevFacts& n : c.facts.netdevs) {
        if (n.name == m.name && !n.pci_bdf.empty()) cards.insert(n.pci_bdf.substr(0, n.pci_bdf.rfind('.')));  // bus:device = one card
      }
    }
    if (cards.size() != 1) continue;
    c.Report(fmt::format("bond {}", name),
             fmt::format("all {} members are ports of one card ({}): the card, its slot or its firmware is a single point of failure",
                         b.members.size(), *cards.begin()),
             "build the bond from ports of two different cards (ideally on different PCIe roots / NUMA nodes)")
        .evidence = {{"card", *cards.begin()}, {"members", std::to_string(b.members.size())}};
  }
}

}  // namespace

void AddBondRules(std::vector<HostRule>& rules) {
  rules.push_back({"bond-active-backup", Severity::kWarning, "a multi-member bond that uses one member at a time", ActiveBackup});
  rules.push_back({"bond-lacp-not-negotiated", Severity::kError, "802.3ad without a partner or with stray aggregators", LacpNotNegotiated});
  rules.push_back({"bond-single-point", Severity::kWarning, "every bond member on the same card", SinglePoint});
  rules.push_back({"bond-member-down", Severity::kError, "a bond member whose MII status is not up", MemberDown});
}

}  // namespace railyard
