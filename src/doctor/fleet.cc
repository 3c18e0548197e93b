#include "doctor/fleet.h"

#include <algorithm>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "doctor/rules.h"

namespace railyard {

const std::vector<FleetRule>& FleetRules() {
  static const std::vector<FleetRule> rules = {
      {"fleet-firmware-drift", Severity::kWarning, "one PSID running different firmware versions across hosts"},
      {"fleet-duplicate-identity", Severity::kError, "one MAC, GUID or serial number on two hosts (cloned or re-flashed cards)"},
      {"fleet-psid-mix", Severity::kWarning, "one part number with several PSIDs (OEM or re-flashed cards mixed in)"},
      {"fleet-mtu-drift", Severity::kWarning, "one interface name with different MTUs across hosts"},
      {"fleet-driver-drift", Severity::kWarning, "hosts on a driver stack (MLNX_OFED/DOCA version) other than most"},
      {"fleet-qos-drift", Severity::kWarning, "one RoCE interface name with a different trust/PFC/ECN setup than on most hosts"},
  };
  return rules;
}

void FleetAccumulator::Add(const HostFacts& f) {
  if (!f.netdevs.empty() || !f.pci.empty())
    drivers_[f.ofed.empty() ? "inbox (no ofed_info)" : f.ofed].push_back({f.hostname, "driver stack"});
  for (const auto& [bdf, q] : f.firmware) {
    std::string pn = q.part_number;
    for (const PciFunction& p : f.pci) {
      auto it = p.vpd.find("PN");
      if (pn.empty() && it != p.vpd.end() && SamePciAddress(p.bdf, bdf)) pn = it->second;
    }
    if (!pn.empty() && !q.psid.empty()) psids_[pn][q.psid].push_back({f.hostname, "PCI " + bdf});
    if (q.psid.empty() || q.fw_version.empty()) continue;
    firmware_[q.psid][q.fw_version].push_back({f.hostname, "PCI " + bdf});
    if (!q.base_guid.empty() && q.base_guid.find_first_not_of("0x") != std::string::npos) {
      identities_["GUID " + q.base_guid].push_back({f.hostname, "PCI " + bdf});
    }
  }
  std::set<std::string> psids_from_flint;
  for (const auto& [bdf, q] : f.firmware) psids_from_flint.insert(q.psid);
  for (const NetdevFacts& n : f.netdevs) {
    // ethtool -i names firmware and PSID too; count a card once (its first port) when flint did not.
    if (!n.firmware_psid.empty() && !psids_from_flint.count(n.firmware_psid) && !n.firmware_version.empty() &&
        (n.pci_bdf.empty() || n.pci_bdf.back() == '0')) {
      std::string version = n.firmware_version.substr(0, n.firmware_version.find(' '));
      firmware_[n.firmware_psid][version].push_back({f.hostname, "netdev " + n.name});
    }
    if ((n.kind == "physical" || n.kind == "bond" || n.kind == "vlan") && n.mtu && n.master.empty()) {
      mtus_[n.name][std::to_string(n.mtu)].push_back({f.hostname, "netdev " + n.name});
    }
    if (IsRoceNetdev(n)) {
      // Only what is known goes into the signature: a host without mlnx_qos is not "different".
      std::vector<std::string> parts;
      if (n.qos) {
        parts.push_back("trust " + (n.qos->trust.empty() ? "?" : n.qos->trust));
        std::vector<int> pfc = n.qos->PfcPriorities();
        parts.push_back(fmt::format("pfc {}", pfc.empty() ? "off" : fmt::format("{}", fmt::join(pfc, ","))));
      }
      if (n.ecn && n.ecn->Known()) {
        std::vector<int> np, rp;
        for (int prio = 0; prio < 8; ++prio) {
          if (n.ecn->np_enabled[prio] == 1) np.push_back(prio);
          if (n.ecn->rp_enabled[prio] == 1) rp.push_back(prio);
        }
        parts.push_back(fmt::format("ecn np {} rp {}", np.empty() ? "off" : fmt::format("{}", fmt::join(np, ",")),
                                    rp.empty() ? "off" : fmt::format("{}", fmt::join(rp, ","))));
      }
      if (!parts.empty()) qos_[n.name][fmt::format("{}", fmt::join(parts, "; "))].push_back({f.hostname, "netdev " + n.name});
    }
    if (n.kind == "physical" && !n.mac.empty() && n.mac.find_first_not_of("0:") != std::string::npos) {
      identities_["MAC " + n.mac].push_back({f.hostname, "netdev " + n.name});
    }
  }
  for (const PciFunction& p : f.pci) {
    auto sn = p.vpd.find("SN");
    if (sn != p.vpd.end() && !sn->second.empty() && p.bdf.ends_with(".0")) {
      identities_["serial " + sn->second].push_back({f.hostname, "PCI " + p.bdf});
    }
  }
}

namespace {

template <class Where>
void Append(std::vector<Where>& into, std::vector<Where>& from) {
  if (into.empty()) {
    into = std::move(from);
  } else {
    into.insert(into.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  }
}

template <class Where>
void MergeGroups(std::map<std::string, std::vector<Where>>& into, std::map<std::string, std::vector<Where>>& from) {
  for (auto& [key, where] : from) Append(into[key], where);
}

template <class Where>
void MergeGroups(std::map<std::string, std::map<std::string, std::vector<Where>>>& into,
                 std::map<std::string, std::map<std::string, std::vector<Where>>>& from) {
  for (auto& [key, groups] : from) MergeGroups(into[key], groups);
}

}  // namespace

void FleetAccumulator::Merge(FleetAccumulator&& other) {
  MergeGroups(firmware_, other.firmware_);
  MergeGroups(psids_, other.psids_);
  MergeGroups(drivers_, other.drivers_);
  MergeGroups(mtus_, other.mtus_);
  MergeGroups(qos_, other.qos_);
  MergeGroups(identities_, other.identities_);
}

std::vector<Finding> FleetAccumulator::Finish(const DoctorPolicy& policy) const {
  std::vector<Finding> out;
  auto severity = [&](const char* rule, Severity fallback) {
    auto it = policy.severity.find(rule);
    return it == policy.severity.end() ? fallback : it->second;
  };
  // Majority-versus-minority rules: every host off the most common value is reported; a tie
  // goes to the greater value (for versions: the newer, by CompareVersions).
  auto minority =
      [&](const char* rule, Severity fallback, const std::map<std::string, std::vector<Where>>& groups,
          const std::function<void(Finding&, const std::string& value, const std::string& reference, const std::string& spread)>&
              fill) {
        if (policy.disabled_rules.count(rule) || groups.size() < 2) return;
        auto reference = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
          return a.second.size() != b.second.size() ? a.second.size() < b.second.size() : CompareVersions(a.first, b.first) < 0;
        });
        std::string spread;
        for (const auto& [v, where] : groups) spread += fmt::format("{}{} on {}", spread.empty() ? "" : ", ", v, where.size());
        for (const auto& [value, where] : groups) {
          if (value == reference->first) continue;
          for (const Where& w : where) {
            Finding f;
            f.rule = rule;
            f.severity = severity(rule, fallback);
            f.host = w.host;
            f.object = w.object;
            fill(f, value, reference->first, spread);
            out.push_back(std::move(f));
          }
        }
      };
  for (const auto& entry : firmware_) {
    const std::string& psid = entry.first;  // named, not bound: the lambda captures it (clang < 16)
    const auto& versions = entry.second;
    minority("fleet-firmware-drift", Severity::kWarning, versions,
             [&](Finding& f, const std::string& version, const std::string& ref, const std::string& spread) {
               f.message = fmt::format(
                   "firmware {} differs from {} that most {} cards run: mixed firmware behaves differently under load "
                   "and in failover",
                   version, ref, psid);
               f.fix = fmt::format(
                   "bring the card to the fleet baseline with `mlxfwmanager -u` (or flint -i IMAGE burn) for PSID {}, then "
                   "reset the firmware (mlxfwreset) or reboot",
                   psid);
               f.evidence = {{"psid", psid}, {"firmware", version}, {"fleet", spread}};
             });
  }
  for (const auto& entry : psids_) {
    const std::string& pn = entry.first;
    const auto& groups = entry.second;
    minority("fleet-psid-mix", Severity::kWarning, groups,
             [&](Finding& f, const std::string& psid, const std::string& ref, const std::string& spread) {
               f.message = fmt::format(
                   "part number {} carries PSID {} here but {} on most cards: an OEM-branded or re-flashed card is mixed "
                   "in, and it takes different firmware images",
                   pn, psid, ref);
               f.fix =
                   "check the card's VPD and origin with the supplier; keep one PSID per OPN in a fleet (re-flashing PSIDs voids "
                   "support)";
               f.evidence = {{"part_number", pn}, {"psid", psid}, {"fleet", spread}};
             });
  }
  for (const auto& entry : mtus_) {
    const std::string& name = entry.first;
    minority("fleet-mtu-drift", Severity::kWarning, entry.second,
             [&](Finding& f, const std::string& mtu, const std::string& ref, const std::string& spread) {
               f.message =
                   fmt::format("{} has MTU {} here but {} on most hosts: paths through this host fragment or drop large frames",
                               name, mtu, ref);
               f.fix = fmt::format("set MTU {} on {} in the host's persistent network configuration", ref, name);
               f.evidence = {{"mtu", mtu}, {"fleet", spread}};
             });
  }
  for (const auto& entry : qos_) {
    const std::string& name = entry.first;
    minority("fleet-qos-drift", Severity::kWarning, entry.second,
             [&](Finding& f, const std::string& qos, const std::string& ref, const std::string& spread) {
               f.message = fmt::format(
                   "{} runs {} here but {} on most hosts: one host with different lossless settings pauses or "
                   "drops the whole RoCE fabric's traffic class",
                   name, qos, ref);
               f.fix = fmt::format("apply the fleet's QoS to {} (mlnx_qos -i {} --trust / --pfc, ECN sysfs) and persist it", name,
                                   name);
               f.evidence = {{"qos", qos}, {"fleet", spread}};
             });
  }
  minority("fleet-driver-drift", Severity::kWarning, drivers_,
           [&](Finding& f, const std::string& driver, const std::string& ref, const std::string& spread) {
             f.message = fmt::format(
                 "driver stack {} differs from {} on most hosts: NCCL, perftest and firmware compatibility differ", driver, ref);
             f.fix = "install the fleet's MLNX_OFED/DOCA version (or pin the in-box driver consistently) and reboot into it";
             f.evidence = {{"driver", driver}, {"fleet", spread}};
           });
  if (!policy.disabled_rules.count("fleet-duplicate-identity")) {
    for (const auto& [identity, where] : identities_) {
      std::set<std::string> hosts;
      for (const Where& w : where) hosts.insert(w.host);
      if (hosts.size() < 2) continue;
      // One finding per shared identity (not one per host, each listing every host: 20,000 hosts sharing a
      // GUID would be 20,000 findings of 20,000 names). The hosts listed are capped, with the count.
      constexpr size_t kListed = 20;
      std::vector<std::string> listed;
      for (const std::string& h : hosts) {
        if (listed.size() == kListed) break;
        listed.push_back(h);
      }
      Finding f;
      f.rule = "fleet-duplicate-identity";
      f.severity = severity(f.rule.c_str(), Severity::kError);
      f.host = *hosts.begin();
      f.object = identity;
      f.message = fmt::format(
          "{} is on {} hosts ({}{}): identities are unique per card, so all but one are cloned, re-flashed or "
          "mis-reported",
          identity, hosts.size(), fmt::join(listed, ", "),
          hosts.size() > kListed ? fmt::format(" and {} more", hosts.size() - kListed) : "");
      f.fix =
          "quarantine the cards; compare their VPD (lspci -vvv), flint q and the purchase records, and return the "
          "non-genuine ones";
      f.evidence = {{"identity", identity}, {"hosts", std::to_string(hosts.size())}, {"where", where.front().object}};
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace railyard
