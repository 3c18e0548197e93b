// Interface configuration: MTU, NetworkManager and ifcfg, promiscuous mode.
#include <algorithm>

#include <fmt/format.h>

#include "doctor/rules.h"

namespace railyard {
namespace {

const PolicyKey<uint32_t> kEthernetMtu{"ethernet_mtu",    9000,
                                       "an MTU in bytes", "MTU a RoCE or storage Ethernet interface must have",
                                       {"mtu-not-jumbo"}, InRange<uint32_t>(68, 65535)};

const NetdevFacts* Netdev(const HostFacts& f, const std::string& name) {
  for (const NetdevFacts& n : f.netdevs) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

void MtuNotJumbo(RuleContext& c) {
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (!IsRoceNetdev(n) || n.mtu == 0 || n.mtu >= c.policy.Get(kEthernetMtu)) continue;
    c.Report(fmt::format("netdev {}", n.name),
             fmt::format("MTU {} on a RoCE interface: RDMA messages use 1024-byte frames instead of 4096 and storage/TCP "
                         "traffic pays per-packet overhead",
                         n.mtu),
             fmt::format("set MTU {} on the interface (and its bond/VLAN) in its persistent config (netplan, ifcfg MTU=, nmcli "
                         "802-3-ethernet.mtu), and on the switch ports",
                         c.policy.Get(kEthernetMtu)))
        .evidence = {{"mtu", std::to_string(n.mtu)}, {"policy", std::to_string(c.policy.Get(kEthernetMtu))}};
  }
}

void MtuInconsistent(RuleContext& c) {
  for (const auto& [name, b] : c.facts.bonds) {
    const NetdevFacts* bond = Netdev(c.facts, name);
    if (!bond) continue;
    for (const BondMember& m : b.members) {
      const NetdevFacts* member = Netdev(c.facts, m.name);
      if (!member || member->mtu == bond->mtu) continue;
      c.Report(fmt::format("bond {} member {}", name, m.name),
               fmt::format("member MTU {} differs from bond MTU {}", member->mtu, bond->mtu),
               "set the MTU on the bond only (members inherit it) and remove member-level MTU settings")
          .evidence = {{"bond_mtu", std::to_string(bond->mtu)}, {"member_mtu", std::to_string(member->mtu)}};
    }
  }
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.kind != "vlan" || n.lower.empty()) continue;
    const NetdevFacts* lower = Netdev(c.facts, n.lower);
    if (!lower || n.mtu <= lower->mtu) continue;
    c.Report(fmt::format("netdev {}", n.name),
             fmt::format("VLAN MTU {} is above its parent {}'s MTU {}: large frames are dropped", n.mtu, n.lower, lower->mtu),
             "raise the parent's MTU to at least the VLAN's")
        .evidence = {{"mtu", std::to_string(n.mtu)}, {"parent_mtu", std::to_string(lower->mtu)}};
  }
}

void NmUnmanaged(RuleContext& c) {
  for (const NmDevice& d : c.facts.networkmanager) {
    if (d.state != "unmanaged" || (d.type != "ethernet" && d.type != "infiniband" && d.type != "bond")) continue;
    auto it = c.facts.ifcfg.find("ifcfg-" + d.device);
    if (it == c.facts.ifcfg.end()) continue;  // nothing says NetworkManager should manage it
    std::string controlled = it->second.Get("NM_CONTROLLED");
    std::transform(controlled.begin(), controlled.end(), controlled.begin(), ::tolower);
    if (controlled == "no" || controlled == "n") continue;  // deliberately left to network-scripts
    c.Report(fmt::format("netdev {}", d.device),
             fmt::format("{} has an ifcfg file but NetworkManager leaves it unmanaged: the configuration is never applied",
                         it->first),
             "remove NM_CONTROLLED=no / the unmanaged-devices entry in NetworkManager.conf, then `nmcli connection reload` "
             "and `nmcli device set " +
                 d.device + " managed yes`")
        .evidence = {{"nmcli_state", d.state}, {"ifcfg", it->first}};
  }
}

void OnbootNo(RuleContext& c) {
  for (const auto& [file, f] : c.facts.ifcfg) {
    std::string onboot = f.Get("ONBOOT");
    std::transform(onboot.begin(), onboot.end(), onboot.begin(), ::tolower);
    bool commented = false;
    for (const ParseWarning& w : f.warnings) commented = commented || w.message.find("ONBOOT") != std::string::npos;
    if (onboot != "no" && !(onboot.empty() && commented)) continue;
    c.Report(fmt::format("ifcfg {}", file),
             onboot == "no" ? "ONBOOT=no: the interface stays down after every reboot"
                            : "ONBOOT is only in a comment or malformed line: the loaders do not see it and the interface stays "
                              "down after reboot",
             "set ONBOOT=yes (no spaces around '=') and `nmcli connection reload`")
        .evidence = {{"ONBOOT", onboot.empty() ? "(not set)" : onboot}};
  }
}

void PromiscuousLeftOn(RuleContext& c) {
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.kind != "physical" || !n.promiscuous || !n.master.empty()) continue;
    c.Report(fmt::format("netdev {}", n.name),
             "the port is in promiscuous mode (a capture left running?): it receives and "
             "processes every frame on the wire",
             "stop the tcpdump/capture that set it, or `ip link set " + n.name + " promisc off`")
        .evidence = {{"promiscuous", "true"}};
  }
}

void RssSingleQueue(RuleContext& c) {
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.kind != "physical" || n.tx_queues != 1 || n.speed_mbps < 25000) continue;
    c.Report(fmt::format("netdev {}", n.name),
             fmt::format("one queue in use on a {} Gb/s port: every flow is processed by one CPU core, which caps throughput "
                         "far below line rate",
                         n.speed_mbps / 1000),
             "ethtool -L " + n.name +
                 " combined N (N = cores of the NIC's NUMA node, up to the NIC's maximum); check that "
                 "irqbalance or set_irq_affinity spreads the interrupts")
        .evidence = {{"tx_queues", std::to_string(n.tx_queues)},
                     {"rx_queues", std::to_string(n.rx_queues)},
                     {"speed_mbps", std::to_string(n.speed_mbps)}};
  }
}

}  // namespace

void AddConfigRules(std::vector<HostRule>& rules) {
  rules.push_back({"mtu-not-jumbo", Severity::kWarning, "RoCE interface MTU below the policy MTU (9000)", MtuNotJumbo});
  rules.push_back({"mtu-inconsistent", Severity::kError, "bond members or VLAN parents with a different MTU", MtuInconsistent});
  rules.push_back(
      {"nm-unmanaged", Severity::kWarning, "an interface with an ifcfg file that NetworkManager does not manage", NmUnmanaged});
  rules.push_back({"ifcfg-onboot-no", Severity::kWarning, "ifcfg ONBOOT=no (or only in a comment)", OnbootNo});
  rules.push_back({"rss-single-queue", Severity::kWarning, "a 25G-or-faster port with one queue in use", RssSingleQueue});
  rules.push_back({"promiscuous-left-on", Severity::kInfo, "a physical port left in promiscuous mode", PromiscuousLeftOn});
}

}  // namespace railyard
