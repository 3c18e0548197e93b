#include "doctor/symptoms.h"

#include "doctor/switch_rules.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "doctor/doctor.h"
#include "doctor/rules.h"
#include "util/input_error.h"

namespace railyard {
namespace {

bool SourcePresent(const HostFacts& f, std::string_view prefix) {
  for (const SourceStatus& s : f.sources) {
    if (s.present && s.name.starts_with(prefix)) return true;
  }
  return false;
}

// A step decided by host rules: failed when any of them reports, passed when the facts hold
// the source the rules read, unknown otherwise.
StepResult ByRules(const HostFacts& f, const DoctorPolicy& policy, std::string step, std::vector<std::string> rules,
                   bool have_source, std::string command) {
  StepResult r{std::move(step), StepStatus::kUnknown, "", "", ""};
  // A step naming a rule that does not exist would pass in silence: refuse it (a test walks every symptom).
  for (const std::string& id : rules) {
    bool known = false;
    for (const HostRule& rule : HostRules()) known |= rule.id == id;
    if (!known) throw std::logic_error("symptom step \"" + r.step + "\" names no host rule \"" + id + "\"");
  }
  DoctorPolicy only = policy;
  for (const HostRule& rule : HostRules()) {
    if (std::find(rules.begin(), rules.end(), rule.id) == rules.end()) only.disabled_rules.insert(rule.id);
  }
  std::vector<Finding> found = RunHostRules(f, only);
  if (!found.empty()) {
    r.status = StepStatus::kFailed;
    for (const Finding& x : found) r.detail += fmt::format("{}{}: {}", r.detail.empty() ? "" : "; ", x.object, x.message);
    r.fix = found[0].fix;
    return r;
  }
  if (have_source) {
    r.status = StepStatus::kPassed;
    r.detail = fmt::format("{}: no finding", fmt::join(rules, ", "));
  } else {
    r.detail = "not checked: the facts do not include the output this needs";
    r.command = std::move(command);
  }
  return r;
}

StepResult Custom(std::string step, bool known, bool ok, std::string detail, std::string command, std::string fix) {
  StepResult r{std::move(step), StepStatus::kUnknown, std::move(detail), "", ""};
  if (!known) {
    // Nothing was checked: whatever the caller would have said reads like a verdict, so it is not said.
    r.command = std::move(command);
    r.detail = "not checked: the facts do not include the output this needs";
    return r;
  }
  r.status = ok ? StepStatus::kPassed : StepStatus::kFailed;
  if (!ok) r.fix = std::move(fix);
  return r;
}

std::vector<const NetdevFacts*> Physical(const HostFacts& f) {
  std::vector<const NetdevFacts*> out;
  for (const NetdevFacts& n : f.netdevs) {
    if (n.kind == "physical") out.push_back(&n);
  }
  return out;
}

StepResult CardPresent(const HostFacts& f) {
  bool known = SourcePresent(f, "lspci");
  return Custom(
      "the NIC is on the PCI bus (lspci)", known, !f.pci.empty(),
      known ? fmt::format("{} Mellanox/NVIDIA function(s)", f.pci.size()) : "", "lspci -vvv -d 15b3:",
      "the card does not enumerate: reseat it, check slot power and the BIOS (slot enabled, bifurcation), try another slot");
}

StepResult DriverBound(const HostFacts& f) {
  bool known = SourcePresent(f, "lspci") && !f.pci.empty();
  std::string unbound;
  for (const PciFunction& p : f.pci) {
    if (p.driver.empty()) unbound += (unbound.empty() ? "" : ", ") + p.bdf;
  }
  return Custom("a driver is bound to every function", known, unbound.empty(),
                unbound.empty() ? "mlx5_core/mlx4_core in use" : "no driver in use on " + unbound,
                "lspci -k -d 15b3:", "load the driver (modprobe mlx5_core); if it fails, dmesg says why (see the firmware step)");
}

StepResult ModulePresent(const HostFacts& f) {
  bool known = false, ok = true;
  std::string detail;
  for (const NetdevFacts* n : Physical(f)) {
    if (!n->module) continue;
    known = true;
    if (!n->module->readable) {
      ok = false;
      detail += (detail.empty() ? "" : ", ") + n->name + ": no readable module";
    }
  }
  return Custom("a module or cable is in every cage and readable (ethtool -m)", known, ok,
                ok && known ? "modules readable" : detail, "ethtool -m IF (per port)",
                "seat the module/cable fully; an unreadable EEPROM means a missing, faulty or unsupported module");
}

StepResult CarrierUp(const HostFacts& f) {
  bool known = false, ok = true;
  std::string detail;
  for (const NetdevFacts* n : Physical(f)) {
    if (!n->link_detected && !n->carrier) continue;
    known = true;
    bool up = n->link_detected ? *n->link_detected : *n->carrier;
    if (!up) {
      ok = false;
      detail += fmt::format("{}{}: no link{}", detail.empty() ? "" : "; ", n->name,
                            n->link_detected_reason.empty() ? "" : " (" + n->link_detected_reason + ")");
    }
  }
  return Custom("the ports detect a link (carrier)", known, ok, ok && known ? "every physical port has link" : detail,
                "ethtool IF (Link detected)",
                "check the cable and the switch port: admin state, speed, FEC and auto-negotiation must match");
}

StepResult IbPhysical(const HostFacts& f) {
  bool known = false, ok = true;
  std::string detail;
  for (const RdmaFacts& r : f.rdma) {
    for (const IbstatPort& p : r.ca.ports) {
      if (p.link_layer != "InfiniBand") continue;
      known = true;
      if (p.physical_state != "LinkUp") {
        ok = false;
        detail += fmt::format("{}{} port {}: {}", detail.empty() ? "" : "; ", r.ca.name, p.number, p.physical_state);
      }
    }
  }
  return Custom("InfiniBand ports are physically up (LinkUp)", known, ok, ok && known ? "every IB port LinkUp" : detail, "ibstat",
                "Polling: nothing answers (cable, module, switch port); Disabled: the port was disabled (ibportstate … enable)");
}

StepResult Addresses(const HostFacts& f) {
  bool known = SourcePresent(f, "ip -j addr") || SourcePresent(f, "getifaddrs");
  std::string missing;
  for (const NetdevFacts& n : f.netdevs) {
    if ((n.kind == "physical" || n.kind == "bond" || n.kind == "vlan") && n.master.empty() && n.operstate == "up" &&
        n.addresses.empty()) {
      missing += (missing.empty() ? "" : ", ") + n.name;
    }
  }
  return Custom("the up interfaces have their addresses", known, missing.empty(),
                missing.empty() ? "addresses present" : "up but without an address: " + missing, "ip -j addr show",
                "the interface's configuration did not apply: check its connection (nmcli connection show) or netplan apply");
}

StepResult VlanPresent(const HostFacts& f) {
  std::string vlans;
  for (const NetdevFacts& n : f.netdevs) {
    if (n.kind == "vlan")
      vlans += fmt::format("{}{} (id {}, on {}, {})", vlans.empty() ? "" : ", ", n.name, n.vlan_id, n.lower, n.operstate);
  }
  bool known = SourcePresent(f, "ip ") || SourcePresent(f, "/sys/class/net");
  return Custom("the VLAN interface exists", known, !vlans.empty(), vlans.empty() ? "no VLAN interface" : vlans,
                "ip -d link show",
                "create it in the persistent config (netplan vlans:, ifcfg VLAN=yes, nmcli connection add type vlan)");
}

StepResult VlanParentUp(const HostFacts& f) {
  bool known = false, ok = true;
  std::string detail;
  for (const NetdevFacts& n : f.netdevs) {
    if (n.kind != "vlan") continue;
    for (const NetdevFacts& p : f.netdevs) {
      if (p.name != n.lower) continue;
      known = true;
      if (p.operstate != "up") {
        ok = false;
        detail += fmt::format("{}{} is {}", detail.empty() ? "" : "; ", p.name, p.operstate);
      }
    }
  }
  return Custom("the VLAN's parent is up", known, ok, ok && known ? "parents up" : detail, "ip -d link show",
                "bring the parent (bond or port) up first; see link-down");
}

StepResult VirtualNic(const HostFacts& f) {
  bool known = false;
  std::string virt;
  for (const NetdevFacts& n : f.netdevs) {
    if (n.driver.empty()) continue;
    known = true;
    if (n.driver == "virtio_net" || n.driver == "vmxnet3" || n.driver == "hv_netvsc" || n.driver == "e1000") {
      virt += (virt.empty() ? "" : ", ") + n.name + " (" + n.driver + ")";
    }
  }
  return Custom(
      "the data NIC is the passed-through ConnectX, not an emulated one", known, virt.empty(),
      virt.empty() ? "no emulated NIC drivers" : "emulated NICs: " + virt, "ethtool -i IF",
      "the hypervisor reports the emulated NIC's link: connect it in the VM settings, or pass the ConnectX (or a VF) through");
}

using Steps = std::vector<std::function<StepResult(const HostFacts&, const DoctorPolicy&)>>;

const std::vector<std::pair<Symptom, Steps>>& Catalog() {
  static const std::vector<std::pair<Symptom, Steps>> catalog = {
      {{"no-link-light", "the port's link LED stays dark"},
       {[](const HostFacts& f, const DoctorPolicy&) { return CardPresent(f); },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "the firmware runs (no recovery mode, probe or load failure)", {"nic-firmware-not-running"},
                         SourcePresent(f, "dmesg") || SourcePresent(f, "lspci"), "dmesg | grep -i mlx5");
        },
        [](const HostFacts& f, const DoctorPolicy&) { return ModulePresent(f); },
        [](const HostFacts& f, const DoctorPolicy&) { return CarrierUp(f); },
        [](const HostFacts& f, const DoctorPolicy&) { return IbPhysical(f); }}},
      {{"no-network-after-boot", "the host boots without its network"},
       {[](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "the interface is set to start at boot (ONBOOT)", {"ifcfg-onboot-no"},
                         !f.ifcfg.empty() || !f.netplan.empty(),
                         "cat /etc/sysconfig/network-scripts/ifcfg-* /etc/netplan/*.yaml");
        },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "NetworkManager manages the configured interfaces", {"nm-unmanaged"}, !f.networkmanager.empty(),
                         "nmcli -t device status");
        },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "the configured ports have link", {"link-down"}, !f.netdevs.empty(), "ip -d link show");
        },
        [](const HostFacts& f, const DoctorPolicy&) { return Addresses(f); },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "every other NIC's driver took its device and found its firmware",
                         {"nic-probe-failed", "realtek-inbox-driver", "nic-firmware-missing", "wifi-firmware-missing",
                          "esxi-driver-missing"},
                         SourcePresent(f, "dmesg") || !f.other_pci.empty() || f.platform == "esxi",
                         "dmesg | grep -iE 'probe|firmware|XID'; lspci -k");
        }}},
      {{"bandwidth-below-rated", "throughput well below the ports' rated speed"},
       {[](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "the PCIe slot carries the line rate", {"pcie-link-downgraded", "pcie-slot-below-line-rate"},
                         !f.pci.empty() || SourcePresent(f, "dmesg"), "lspci -vvv -d 15b3: (LnkCap / LnkSta)");
        },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "the link runs at the speed port and cable allow, with FEC",
                         {"link-below-capability", "fec-mismatch-or-off"},
                         !f.links.empty() || std::any_of(f.netdevs.begin(), f.netdevs.end(),
                                                         [](const NetdevFacts& n) { return !n.partner_link_modes.empty(); }),
                         "mlxlink -d DEV (for each RDMA device); ethtool IF (other NICs)");
        },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "bonds aggregate (not active-backup, LACP negotiated, members up)",
                         {"bond-active-backup", "bond-lacp-not-negotiated", "bond-member-down"}, true, "");
        },
        [](const HostFacts& f, const DoctorPolicy&) {
          bool known = false, ok = true;
          std::string detail;
          for (const NetdevFacts* n : Physical(f)) {
            if (n->tx_queues == 0) continue;
            known = true;
            if (n->tx_queues == 1 && n->speed_mbps >= 25000) {
              ok = false;
              detail += n->name + " uses one queue; ";
            }
          }
          return Custom("traffic spreads over several queues (RSS)", known, ok, ok && known ? "several queues in use" : detail,
                        "ethtool -l IF", "ethtool -L IF combined N (N = cores on the NIC's NUMA node, up to the NIC's maximum)");
        },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "MTU is jumbo and consistent", {"mtu-not-jumbo", "mtu-inconsistent"}, !f.netdevs.empty(),
                         "ip -d link show");
        },
        [](const HostFacts& f, const DoctorPolicy& p) {
          bool qos = false;
          for (const NetdevFacts& n : f.netdevs) qos = qos || n.qos || n.ecn;
          return ByRules(f, p, "RoCE is lossless (PFC, trust, ECN)", {"roce-pfc-off", "roce-trust-not-dscp", "roce-ecn-off"}, qos,
                         "mlnx_qos -i IF; grep -H . /sys/class/net/IF/ecn/roce_*/enable/*");
        },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "the links are clean (BER, drops)", {"ber-high", "rx-drops-high"}, !f.links.empty(),
                         "mlxlink -d DEV -c; ethtool -S IF");
        },
        [](const HostFacts& f, const DoctorPolicy& p) {
          bool usb_known = f.platform == "esxi" || SourcePresent(f, "dmesg");
          for (const NetdevFacts& n : f.netdevs) usb_known |= n.usb_speed_mbps > 0;
          return ByRules(f, p, "USB adapters run on USB 3; ESXi vmnics at the speed they advertise",
                         {"usb-nic-below-usb3", "esxi-nic-below-capability"}, usb_known,
                         "lsusb -t; esxcli network nic get -n vmnicN");
        }}},
      {{"vlan-unreachable", "hosts on a VLAN cannot reach each other"},
       {[](const HostFacts& f, const DoctorPolicy&) { return VlanPresent(f); },
        [](const HostFacts& f, const DoctorPolicy&) { return VlanParentUp(f); },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "the VLAN's MTU fits its parent", {"mtu-inconsistent"}, !f.netdevs.empty(), "ip -d link show");
        },
        [](const HostFacts& f, const DoctorPolicy&) { return Addresses(f); }}},
      {{"vm-cable-unplugged", "a VM's NIC reports 'cable unplugged'"},
       {[](const HostFacts& f, const DoctorPolicy&) { return VirtualNic(f); },
        [](const HostFacts& f, const DoctorPolicy&) { return CarrierUp(f); },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "NetworkManager manages the interface", {"nm-unmanaged"}, !f.networkmanager.empty(),
                         "nmcli -t device status");
        }}},
      {{"device-missing", "the NIC or its interface does not show up"},
       {[](const HostFacts& f, const DoctorPolicy&) { return CardPresent(f); },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "the firmware runs (no recovery mode, probe or load failure)", {"nic-firmware-not-running"},
                         SourcePresent(f, "dmesg") || SourcePresent(f, "lspci"), "dmesg | grep -i mlx5");
        },
        [](const HostFacts& f, const DoctorPolicy&) { return DriverBound(f); },
        [](const HostFacts& f, const DoctorPolicy& p) {
          return ByRules(f, p, "every other NIC's driver took its device and found its firmware",
                         {"nic-probe-failed", "realtek-inbox-driver", "nic-firmware-missing", "wifi-firmware-missing",
                          "esxi-driver-missing"},
                         SourcePresent(f, "dmesg") || !f.other_pci.empty() || f.platform == "esxi",
                         "dmesg | grep -iE 'probe|firmware|XID'; lspci -k");
        },
        [](const HostFacts& f, const DoctorPolicy&) {
          bool known = !f.pci.empty() && !f.netdevs.empty();
          std::string orphans;
          for (const PciFunction& p : f.pci) {
            bool has = false;
            for (const NetdevFacts& n : f.netdevs) has = has || SamePciAddress(n.pci_bdf, p.bdf);
            for (const RdmaFacts& r : f.rdma) has = has || SamePciAddress(r.pci_bdf, p.bdf);
            if (!has) orphans += (orphans.empty() ? "" : ", ") + p.bdf;
          }
          return Custom("every function has a netdev or RDMA device", known, orphans.empty(),
                        orphans.empty() ? "every function has its interface" : "no interface for " + orphans,
                        "ls -l /sys/class/net/*/device",
                        "check the port type (mlxconfig LINK_TYPE_P1: IB or ETH) and that mlx5_ib / the netdev driver loaded");
        }}},
  };
  return catalog;
}

}  // namespace

std::string_view ToString(StepStatus status) {
  switch (status) {
    case StepStatus::kPassed:
      return "passed";
    case StepStatus::kFailed:
      return "FAILED";
    case StepStatus::kUnknown:
      return "unknown";
  }
  return "unknown";
}

const std::vector<Symptom>& Symptoms() {
  static const std::vector<Symptom> list = [] {
    std::vector<Symptom> out;
    for (const auto& [s, steps] : Catalog()) out.push_back(s);
    return out;
  }();
  return list;
}

std::vector<StepResult> RunSymptom(const std::string& symptom, const HostFacts& facts, const DoctorPolicy& policy) {
  return RunSymptom(symptom, facts, policy, {});
}

std::vector<StepResult> RunSymptom(const std::string& symptom, const HostFacts& facts, const DoctorPolicy& policy,
                                   const std::vector<SwitchFacts>& switches) {
  return RunSymptom(symptom, facts, policy, switches, nullptr);
}

namespace {

// The switch end of the host's planned cables, judged by the switch rules named in `rules` (and the
// rules over both ends, link-end-mismatch and roce-qos-mismatch, for this host): a doctor pass over
// this host and the switches, its findings kept when they are about one of this host's switch ports.
StepResult SwitchEnd(const HostFacts& facts, const DoctorPolicy& policy, const std::vector<SwitchFacts>& switches,
                     const std::shared_ptr<const HostPlan>& plan, const std::string& title, const std::set<std::string>& rules) {
  const std::string command = "railyard collect --switch --from <each leaf's saved outputs>, then give them to doctor --plan";
  auto unknown = [&title](std::string why, std::string run) {
    StepResult r{title, StepStatus::kUnknown, "not checked: " + std::move(why), std::move(run), ""};
    return r;
  };
  if (!plan)
    return unknown("without --plan the host's switch ports are not known",
                   "railyard doctor --symptom ... --plan plan.json HOST.json SWITCHES.ndjson");
  std::set<std::string> ends;  // "leaf|port" as the plan names them
  for (const HostLinkEnd& e : HostLinkEnds(facts, *plan)) ends.insert(e.leaf + "|" + e.leaf_port);
  // Each switch port the facts hold, by what its findings say ("leaf01", "port Et1/1") -> plan key.
  std::map<std::pair<std::string, std::string>, std::string> key_of;
  size_t judged = 0;
  std::set<std::string> leaves;
  for (const SwitchFacts& sw : switches) {
    std::string name = plan->PlanNameOf(sw.hostname);
    if (name.empty()) name = sw.hostname;
    for (const SwitchPortFacts& p : sw.ports) {
      const std::string key = name + "|" + PlanPortName(sw, p.name);
      key_of[{sw.hostname, "port " + p.name}] = key;
      if (ends.count(key)) ++judged, leaves.insert(name);
    }
  }
  if (judged == 0) {
    return unknown(ends.empty() ? "the plan has no cable for this host"
                                : fmt::format("no switch facts for this host's {} planned switch port(s)", ends.size()),
                   command);
  }
  Doctor doctor(policy, plan);
  doctor.AddHost(facts);
  for (const SwitchFacts& sw : switches) doctor.AddSwitch(sw);
  std::string detail, fix;
  for (const Finding& f : doctor.Finish().findings) {
    if (!rules.count(f.rule)) continue;
    auto it = key_of.find({f.host, f.object});
    const bool ours = f.host == facts.hostname || (it != key_of.end() && ends.count(it->second));
    if (!ours) continue;
    detail += (detail.empty() ? "" : "; ") + fmt::format("{} {}: {}", f.host, f.object, f.message);
    if (fix.empty()) fix = f.fix;
  }
  return Custom(title, true, detail.empty(),
                detail.empty() ? fmt::format("{} switch port(s) on {} checked", judged, fmt::join(leaves, ", ")) : detail,
                command, fix);
}

}  // namespace

std::vector<StepResult> RunSymptom(const std::string& symptom, const HostFacts& facts, const DoctorPolicy& policy,
                                   const std::vector<SwitchFacts>& switches, std::shared_ptr<const HostPlan> plan) {
  for (const auto& [s, steps] : Catalog()) {
    if (symptom != s.id) continue;
    std::vector<StepResult> out;
    for (const auto& step : steps) out.push_back(step(facts, policy));
    if (symptom == "vlan-unreachable") {
      // The switch end: each tagged VLAN's port reaches a switch port (LLDP); does it carry the VLAN?
      std::vector<HostVlanUse> uses = HostVlanUses(facts);
      std::map<std::string, SwitchVlanPort> ports;
      for (const SwitchFacts& sw : switches) AddSwitchVlanPorts(sw, ports);
      std::vector<Finding> found = VlanRules(uses, ports, policy);
      size_t judged = 0;
      for (const HostVlanUse& u : uses) judged += FindVlanPort(ports, u) != nullptr;
      std::string detail;
      for (const Finding& f : found) detail += (detail.empty() ? "" : "; ") + f.message;
      StepResult r = Custom(
          "the switch port carries the VLAN", judged > 0, found.empty(),
          found.empty() ? fmt::format("{} VLAN port(s) checked against their switch port", judged) : detail,
          "railyard collect --switch --from <the LLDP neighbour's saved outputs> (switchport VLANs), then give it to doctor",
          found.empty() ? "" : found.front().fix);
      if (judged == 0 && uses.empty()) r.detail = "not checked: no tagged VLAN with an LLDP neighbour in the host's facts";
      out.push_back(std::move(r));
    } else if (symptom == "no-link-light") {
      out.push_back(SwitchEnd(
          facts, policy, switches, plan, "the switch end is enabled, holds a module it supports and receives light",
          {"switch-port-admin-down", "switch-port-errdisabled", "switch-planned-port-down", "switch-module-not-supported"}));
    } else if (symptom == "bandwidth-below-rated") {
      out.push_back(SwitchEnd(facts, policy, switches, plan,
                              "the switch end runs at the planned speed, clean, with the host's RoCE QoS",
                              {"switch-port-forced-speed", "link-end-mismatch", "ib-link-degraded", "port-error-counters-high",
                               "roce-qos-mismatch"}));
    }
    return out;
  }
  std::vector<std::string> ids;
  for (const Symptom& s : Symptoms()) ids.push_back(s.id);
  throw UsageError(fmt::format("unknown symptom '{}'; known: {}", symptom, fmt::join(ids, ", ")));
}

std::string SymptomTable(const std::string& host, const std::vector<StepResult>& steps) {
  std::string out = fmt::format("{}\n", host);
  int n = 0;
  for (const StepResult& s : steps) {
    out += fmt::format("  {}. {:<7} {}\n", ++n, ToString(s.status), s.step);
    if (!s.detail.empty()) out += fmt::format("             {}\n", s.detail);
    if (s.status == StepStatus::kUnknown && !s.command.empty()) out += fmt::format("             run: {}\n", s.command);
    if (s.status == StepStatus::kFailed && !s.fix.empty()) out += fmt::format("             fix: {}\n", s.fix);
  }
  return out;
}

nlohmann::json SymptomJson(const std::string& symptom, const std::string& host, const std::vector<StepResult>& steps) {
  nlohmann::json out = {{"host", host}, {"symptom", symptom}, {"steps", nlohmann::json::array()}};
  int failed = 0;
  for (const StepResult& s : steps) {
    failed += s.status == StepStatus::kFailed;
    const char* status = s.status == StepStatus::kPassed ? "passed" : s.status == StepStatus::kFailed ? "failed" : "unknown";
    out["steps"].push_back({{"step", s.step}, {"status", status}, {"detail", s.detail}, {"command", s.command}, {"fix", s.fix}});
  }
  out["failed"] = failed;
  return out;
}

}  // namespace railyard
