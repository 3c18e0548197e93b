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
             fmt::format("active-backup uses one of its {} members at a time: the bond has the bandwidth of one port",
                         b.members.size()),
             "use 802.3ad (LACP) with a layer3+4 hash and an MLAG/EVPN-MH pair on the switch side, if the data plane is meant to "
             "aggregate; keep active-backup only where failover alone was intended")
        .evidence = {{"mode", b.mode}, {"currently_active", b.currently_active}};
  }
}

// 802.3ad that is not aggregating, in every form the kernel shows it: no active aggregator, the
// active aggregator's partner MAC all zero (the switch sends no LACPDUs), members in another
// aggregator than the active one or in none ("Aggregator ID: N/A"), a member whose own partner is
// zero, or a member whose LACP churn state is "churned" (actor and partner never converged).
void LacpNotNegotiated(RuleContext& c) {
  for (const auto& [name, b] : c.facts.bonds) {
    if (!b.Is8023ad()) continue;
    std::vector<std::string> stray, churned, lonely;
    for (const BondMember& m : b.members) {
      bool other_aggregator = m.aggregator_id >= 0 && b.active_aggregator_id >= 0 && m.aggregator_id != b.active_aggregator_id;
      if (other_aggregator || m.aggregator_na) stray.push_back(m.name);
      if (m.actor_churn == "churned" || m.partner_churn == "churned") churned.push_back(m.name);
      if (AllZeroMac(m.partner_mac) && !AllZeroMac(b.partner_mac)) lonely.push_back(m.name);
    }
    bool no_partner = AllZeroMac(b.partner_mac);
    bool no_aggregator = b.no_active_aggregator;
    bool no_members = b.members.empty();
    if (!no_partner && !no_aggregator && !no_members && stray.empty() && churned.empty() && lonely.empty()) continue;
    std::vector<std::string> what;
    if (no_members) what.push_back("the bond has no members at all");
    if (no_aggregator) what.push_back("the kernel reports no active aggregator: nothing is aggregated");
    if (no_partner) what.push_back("LACP has no partner: the switch does not answer LACPDUs");
    if (!stray.empty())
      what.push_back(
          fmt::format("members {} are in no aggregator or not the active one: they carry no traffic", fmt::join(stray, ", ")));
    if (!lonely.empty()) what.push_back(fmt::format("members {} have no LACP partner of their own", fmt::join(lonely, ", ")));
    if (!churned.empty())
      what.push_back(
          fmt::format("members {} are churned: their LACP state never converged with the switch", fmt::join(churned, ", ")));
    Finding& f = c.Report(fmt::format("bond {}", name), fmt::format("{}", fmt::join(what, "; ")),
                          "configure the switch ports as one LACP port-channel (MLAG pair for two switches), same speed on every "
                          "member; check `lacp_rate` matches the switch");
    f.evidence = {{"partner_mac", b.partner_mac}, {"active_aggregator_id", std::to_string(b.active_aggregator_id)}};
    if (no_aggregator) f.evidence.emplace_back("kernel", "bond " + name + " has no active aggregator");
    for (const BondMember& m : b.members) {
      f.evidence.emplace_back(m.name + " aggregator", m.aggregator_na ? "N/A" : std::to_string(m.aggregator_id));
      if (!m.actor_churn.empty()) f.evidence.emplace_back(m.name + " churn", m.actor_churn + "/" + m.partner_churn);
    }
  }
}

// A data bond hashing on MAC addresses (layer2): every flow between two hosts takes the same member,
// so one host pair never gets more than one port's bandwidth. Info: it can be deliberate.
void HashLayer2(RuleContext& c) {
  for (const auto& [name, b] : c.facts.bonds) {
    bool hashed = b.Is8023ad() || b.mode.find("xor") != std::string::npos;
    if (!hashed || !b.transmit_hash_policy.starts_with("layer2") || b.transmit_hash_policy.starts_with("layer2+3")) continue;
    c.Report(fmt::format("bond {}", name),
             "the bond hashes flows on MAC addresses only (layer2): all traffic between two hosts, or to the gateway, takes "
             "one member, so a host pair never gets more than one port's bandwidth",
             "set xmit_hash_policy=layer3+4 (BONDING_OPTS, netplan `transmit-hash-policy`, nmcli bond.options) unless the "
             "switch requires layer2")
        .evidence = {{"transmit_hash_policy", b.transmit_hash_policy}, {"mode", b.mode}};
  }
}

void MemberDown(RuleContext& c) {
  for (const auto& [name, b] : c.facts.bonds) {
    for (const BondMember& m : b.members) {
      if (m.mii_status == "up") continue;
      c.Report(fmt::format("bond {} member {}", name, m.name),
               fmt::format("member {} is {}: the bond runs without its redundancy", m.name,
                           m.mii_status.empty() ? "not up" : m.mii_status),
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
        if (n.name == m.name && !n.pci_bdf.empty())
          cards.insert(n.pci_bdf.substr(0, n.pci_bdf.rfind('.')));  // bus:device = one card
      }
    }
    if (cards.size() != 1) continue;
    c.Report(
         fmt::format("bond {}", name),
         fmt::format("all {} members are ports of one card ({}): the card, its slot or its firmware is a single point of failure",
                     b.members.size(), *cards.begin()),
         "build the bond from ports of two different cards (ideally on different PCIe roots / NUMA nodes)")
        .evidence = {{"card", *cards.begin()}, {"members", std::to_string(b.members.size())}};
  }
}

}  // namespace

void AddBondRules(std::vector<HostRule>& rules) {
  rules.push_back({"bond-active-backup", Severity::kWarning, "a multi-member bond that uses one member at a time", ActiveBackup});
  rules.push_back(
      {"bond-lacp-not-negotiated", Severity::kError, "802.3ad without a partner or with stray aggregators", LacpNotNegotiated});
  rules.push_back({"bond-hash-layer2", Severity::kInfo, "an aggregating bond hashing on MAC addresses only", HashLayer2});
  rules.push_back({"bond-single-point", Severity::kWarning, "every bond member on the same card", SinglePoint});
  rules.push_back({"bond-member-down", Severity::kError, "a bond member whose MII status is not up", MemberDown});
}

}  // namespace railyard
