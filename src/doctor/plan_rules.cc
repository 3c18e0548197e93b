#include "doctor/plan_rules.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "doctor/rules.h"

namespace railyard {
namespace {

// The host's view of a planned port: its interface name and its speed in Gb/s (0 = down or unknown).
struct PortView {
  std::string netdev;
  double speed_gbps = 0;
  bool seen = false;
};

PortView ViewOf(const HostFacts& f, const std::string& port) {
  PortView v;
  for (const RdmaFacts& r : f.rdma) {
    if (r.ca.name != port && r.netdev != port) continue;
    v.seen = true;
    v.netdev = r.netdev;
    for (const IbstatPort& p : r.ca.ports) {
      if (p.state == "Active") v.speed_gbps = std::max(v.speed_gbps, static_cast<double>(p.rate));
    }
  }
  for (const NetdevFacts& n : f.netdevs) {
    if (n.name != port && n.name != v.netdev) continue;
    v.seen = true;
    v.netdev = n.name;
    if (n.operstate == "up" && n.speed_mbps) v.speed_gbps = std::max(v.speed_gbps, n.speed_mbps / 1000.0);
  }
  if (v.netdev.empty()) v.netdev = port;
  return v;
}

}  // namespace

HostPlan::HostPlan(PlannedFabric plan) : plan_(std::move(plan)), names_(plan_) {
  std::unordered_map<std::string, std::string> netdev_of;  // plan port -> netdev
  for (const auto& [netdev, port] : plan_.host_netdevs) netdev_of[port] = netdev;
  std::unordered_map<std::string_view, uint32_t> mtu_of;
  std::unordered_map<std::string_view, bool> bmc_plane, bond_plane;
  for (const PlannedPlane& pl : plan_.planes) {
    mtu_of[pl.name] = pl.mtu;
    bmc_plane[pl.name] = pl.role == "oob";
    bond_plane[pl.name] = pl.bond;
  }
  for (size_t i = 0; i < plan_.links.size(); ++i) {
    const PlannedLink& l = plan_.links[i];
    if (l.level != "endpoint-leaf") continue;
    bool a_is_host = plan_.devices[l.a_device].role != "switch";
    std::string_view address;
    if (i < plan_.link_addresses.size()) address = plan_.link_addresses[i][a_is_host ? 0 : 1];
    uint32_t host = a_is_host ? l.a_device : l.z_device;
    const PlannedDevice& leaf = plan_.devices[a_is_host ? l.z_device : l.a_device];
    std::string port(a_is_host ? l.a_port : l.z_port);
    auto netdev = netdev_of.find(port);
    switch_ports_[a_is_host ? l.z_device : l.a_device][std::string(a_is_host ? l.z_port : l.a_port)] =
        PlannedSwitchPort{plan_.devices[host].name, port, std::string(l.label), std::string(l.plane), l.speed_gbps};
    ports_[host].push_back({port, std::string(l.label), std::string(l.plane), l.speed_gbps, l.rail, leaf.name,
                            std::string(a_is_host ? l.z_port : l.a_port),
                            // The out-of-band port is the BMC's: its address is set on the BMC, not by the host OS.
                            bmc_plane[l.plane] ? std::string() : std::string(address), mtu_of[l.plane],
                            netdev == netdev_of.end() ? std::string() : netdev->second, bond_plane[l.plane]});
  }
}

const std::unordered_map<std::string, PlannedSwitchPort>* HostPlan::HostEndsOf(const std::string& sw) const {
  std::optional<uint32_t> device = names_.ResolveDevice(sw);
  if (!device) return nullptr;
  auto it = switch_ports_.find(*device);
  return it == switch_ports_.end() ? nullptr : &it->second;
}

std::vector<HostLinkEnd> HostLinkEnds(const HostFacts& facts, const HostPlan& plan) {
  std::vector<HostLinkEnd> out;
  const std::vector<PlannedHostPort>* ports = plan.PortsOf(facts.hostname);
  if (!ports) return out;
  for (const PlannedHostPort& p : *ports) {
    PortView v = ViewOf(facts, p.port);
    HostLinkEnd e;
    e.host = facts.hostname;
    e.port = p.port;
    e.leaf = p.leaf;
    e.leaf_port = p.leaf_port;
    e.label = p.label;
    e.speed_gbps = v.speed_gbps;
    e.seen = v.seen;
    e.netdev = v.netdev;
    for (const NetdevFacts& n : facts.netdevs) {
      if (n.name != v.netdev) continue;
      if (n.qos && !n.qos->trust.empty()) {
        e.qos_read = true;
        e.trust = n.qos->trust;
        e.pfc = n.qos->PfcPriorities();
      }
      if (n.ecn && n.ecn->Known()) {
        e.ecn_read = true;
        e.ecn_rp = n.ecn->rp_enabled;
      }
    }
    out.push_back(std::move(e));
  }
  return out;
}

const std::vector<PlannedHostPort>* HostPlan::PortsOf(const std::string& host) const {
  std::optional<uint32_t> device = names_.ResolveDevice(host);
  if (!device) return nullptr;
  auto it = ports_.find(*device);
  return it == ports_.end() ? nullptr : &it->second;
}

std::string HostPlan::PlanPortOf(const std::string& host, const std::string& port) const {
  std::optional<ResolvedPort> r = names_.Resolve(host, port);
  return r ? r->port : port;
}

int HostPlan::RailOf(const std::string& device) const {
  std::optional<uint32_t> d = names_.ResolveDevice(device);
  if (!d) return -1;
  const PlannedDevice& p = plan_.devices[*d];
  return p.role == "switch" && p.tier == "leaf" ? p.rail : 0;
}

std::string HostPlan::PlaneOf(const std::string& device) const {
  std::optional<uint32_t> d = names_.ResolveDevice(device);
  return d ? plan_.devices[*d].plane : std::string();
}

const PlannedDevice* HostPlan::DeviceOf(const std::string& device) const {
  std::optional<uint32_t> d = names_.ResolveDevice(device);
  return d ? &plan_.devices[*d] : nullptr;
}

std::string HostPlan::PlanNameOf(const std::string& device) const {
  std::optional<uint32_t> d = names_.ResolveDevice(device);
  return d ? plan_.devices[*d].name : std::string();
}

const std::vector<FleetRule>& PlanRules() {
  static const std::vector<FleetRule> rules = {
      {"rail-mismatch", Severity::kError, "(--plan) a NIC port's LLDP neighbour is a leaf of another rail than planned"},
      {"speed-below-plan", Severity::kWarning, "(--plan) a NIC port up at a lower speed than the plan's"},
      {"config-differs-from-plan", Severity::kWarning,
       "(--plan) the persistent network config (netplan, ifcfg) leaves out a planned port, or gives it another address or MTU"},
  };
  return rules;
}

namespace {

// A planned port as the host's persistent configuration has it; for a bond member, the bond's
// address and MTU.
struct ConfiguredPort {
  std::string file;  // "/etc/netplan/60-railyard.yaml:12", "/etc/sysconfig/network-scripts/ifcfg-ens1f0np0"
  std::vector<std::string> addresses;
  std::optional<uint32_t> mtu;
  std::string bond, bond_mode;  // the bond it is a member of, and the bond's mode as written ("" = not a member)
};

std::optional<ConfiguredPort> ConfigOf(const HostFacts& f, const std::string& netdev) {
  for (const auto& [file, config] : f.netplan) {
    for (const NetplanInterface& i : config.interfaces) {
      if (i.name != netdev && i.set_name != netdev) continue;
      ConfiguredPort p{fmt::format("/etc/netplan/{}:{}", file, i.line), i.addresses, i.mtu, "", ""};
      for (const NetplanInterface& b : config.interfaces) {
        if (b.section != "bonds" || std::find(b.members.begin(), b.members.end(), i.name) == b.members.end()) continue;
        auto mode = b.parameters.find("mode");
        p = {fmt::format("/etc/netplan/{}:{}", file, b.line), b.addresses, b.mtu, b.name,
             mode == b.parameters.end() ? std::string("balance-rr") : mode->second};  // netplan's default mode
      }
      return p;
    }
  }
  auto ifcfg = [&](const std::string& dev) -> const std::pair<const std::string, IfcfgFile>* {
    for (const auto& entry : f.ifcfg) {
      if (entry.second.Get("DEVICE") == dev || entry.first == "ifcfg-" + dev) return &entry;
    }
    return nullptr;
  };
  auto read = [](const std::pair<const std::string, IfcfgFile>& e) {
    ConfiguredPort p{"/etc/sysconfig/network-scripts/" + e.first, {}, std::nullopt, "", ""};
    std::string ip = e.second.Get("IPADDR"), prefix = e.second.Get("PREFIX");
    if (!ip.empty()) p.addresses.push_back(prefix.empty() ? ip : ip + "/" + prefix);
    uint32_t mtu = 0;
    if (std::string m = e.second.Get("MTU"); !m.empty() && std::from_chars(m.data(), m.data() + m.size(), mtu).ec == std::errc())
      p.mtu = mtu;
    return p;
  };
  const auto* own = ifcfg(netdev);
  if (!own) return std::nullopt;
  if (std::string master = own->second.Get("MASTER"); !master.empty()) {
    const auto* bond = ifcfg(master);
    ConfiguredPort p =
        bond ? read(*bond) : ConfiguredPort{"/etc/sysconfig/network-scripts/" + own->first, {}, std::nullopt, "", ""};
    p.bond = master;
    auto mode = bond ? bond->second.bonding_opts.find("mode") : std::map<std::string, std::string>::const_iterator();
    p.bond_mode = bond && mode != bond->second.bonding_opts.end() ? mode->second : "balance-rr";  // the kernel's default
    return p;
  }
  return read(*own);
}

void ConfigDiffers(RuleContext& rule, const HostFacts& facts, const std::vector<PlannedHostPort>& ports) {
  // Only where the facts hold the host's persistent configuration: a capture without it says
  // nothing about it (collect's coverage lists what was read).
  if (facts.netplan.empty() && facts.ifcfg.empty()) return;
  for (const PlannedHostPort& p : ports) {
    if (p.address.empty() && !p.bond) continue;
    const std::string netdev = !p.netdev.empty() ? p.netdev : ViewOf(facts, p.port).netdev;
    std::optional<ConfiguredPort> c = ConfigOf(facts, netdev);
    if (!c) {
      rule.Report(fmt::format("port {}", p.port),
                  fmt::format("{} ({}, {} plane) is in no persistent network config: {}; after a reboot it comes up "
                              "unconfigured",
                              netdev, p.port, p.plane, p.bond ? "the plan bonds it (802.3ad)" : "the plan gives it " + p.address),
                  "railyard config hosts --plan plan.json writes its configuration (docs/config.md)")
          .evidence = {{"netdev", netdev}, {"planned_address", p.address}};
      continue;
    }
    if (p.bond) {
      // 802.3ad is mode 4; netplan and ifcfg name it either way.
      if (c->bond.empty() || (c->bond_mode != "802.3ad" && c->bond_mode != "4")) {
        rule.Report(fmt::format("port {}", p.port),
                    c->bond.empty()
                        ? fmt::format("{} is configured on its own ({}); the plan bonds the {} plane's ports (802.3ad)", netdev,
                                      c->file, p.plane)
                        : fmt::format("{} is in {} with mode {} ({}); the plan's bond is 802.3ad (LACP): {}", netdev, c->bond,
                                      c->bond_mode, c->file,
                                      c->bond_mode == "active-backup" || c->bond_mode == "1"
                                          ? "active-backup uses one port at a time, half the planned bandwidth"
                                          : "the switches' LACP will not form"),
                    "write the bond as planned (railyard config hosts), mode 802.3ad")
            .evidence = {{"netdev", netdev}, {"bond", c->bond}, {"bond_mode", c->bond_mode}, {"file", c->file}};
      }
      if (p.address.empty()) continue;  // the bond's address is checked once, on its first member
    }
    if (std::find(c->addresses.begin(), c->addresses.end(), p.address) == c->addresses.end()) {
      rule.Report(fmt::format("port {}", p.port),
                  fmt::format("{} is configured with {} ({}); the plan gives it {}", c->bond.empty() ? netdev : c->bond,
                              c->addresses.empty() ? std::string("no address") : fmt::format("{}", fmt::join(c->addresses, ", ")),
                              c->file, p.address),
                  "set the plan's address (railyard config hosts writes it), or change the plan")
          .evidence = {{"netdev", netdev}, {"planned_address", p.address}, {"file", c->file}};
    }
    const uint32_t mtu = c->mtu.value_or(1500);  // an MTU left out is the kernel's 1500
    if (p.mtu && mtu != p.mtu) {
      rule.Report(fmt::format("port {}", p.port),
                  fmt::format("{} has MTU {}{} ({}); the {} plane's is {}", c->bond.empty() ? netdev : c->bond, mtu,
                              c->mtu ? "" : " (not set: the default)", c->file, p.plane, p.mtu),
                  fmt::format("set mtu: {} on {} (railyard config hosts writes it)", p.mtu, c->bond.empty() ? netdev : c->bond))
          .evidence = {
          {"netdev", netdev}, {"mtu", std::to_string(mtu)}, {"planned_mtu", std::to_string(p.mtu)}, {"file", c->file}};
    }
  }
}

}  // namespace

std::vector<Finding> RunPlanRules(const HostFacts& facts, const HostPlan& plan, const DoctorPolicy& policy) {
  std::vector<Finding> out;
  const std::vector<PlannedHostPort>* ports = plan.PortsOf(facts.hostname);
  if (!ports) return out;
  if (!policy.disabled_rules.count("config-differs-from-plan")) {
    RuleContext config_rule(facts, policy, out, "config-differs-from-plan", Severity::kWarning);
    ConfigDiffers(config_rule, facts, *ports);
  }
  RuleContext speed_rule(facts, policy, out, "speed-below-plan", Severity::kWarning);
  RuleContext rail_rule(facts, policy, out, "rail-mismatch", Severity::kError);
  for (const PlannedHostPort& p : *ports) {
    PortView view = ViewOf(facts, p.port);
    if (!policy.disabled_rules.count("speed-below-plan") && view.speed_gbps > 0 && view.speed_gbps < p.speed_gbps) {
      speed_rule
          .Report(fmt::format("port {}", p.port),
                  fmt::format("{} runs at {:g} Gb/s; the plan gives it {} Gb/s to {} port {} (cable {})", p.port, view.speed_gbps,
                              p.speed_gbps, p.leaf, p.leaf_port, p.label),
                  "check the cable and module are the planned parts, the switch port's speed and FEC, and the PCIe slot "
                  "(see link-below-capability and pcie-slot-below-line-rate)")
          .evidence = {{"speed_gbps", fmt::format("{:g}", view.speed_gbps)},
                       {"planned_gbps", std::to_string(p.speed_gbps)},
                       {"label", p.label}};
    }
    if (policy.disabled_rules.count("rail-mismatch")) continue;
    for (const LldpNeighbor& n : facts.lldp) {
      if (n.local_port != view.netdev && n.local_port != p.port && plan.PlanPortOf(facts.hostname, n.local_port) != p.port)
        continue;
      int rail = plan.RailOf(n.remote_device);
      std::string plane = plan.PlaneOf(n.remote_device);
      bool other_plane = !plane.empty() && plane != p.plane;
      if (!other_plane && (rail <= 0 || p.rail == 0 || rail == p.rail)) continue;
      std::string leaf = plan.PlanNameOf(n.remote_device);
      std::string where = other_plane ? fmt::format("a switch of the {} plane", plane) : fmt::format("a leaf of rail {}", rail);
      rail_rule
          .Report(
              fmt::format("port {}", p.port),
              fmt::format("{} ({}) reaches {} port {}: {}, {}; the plan puts it on {} of the {} plane ({} port {}, cable {}): "
                          "its traffic takes another path than planned (rail-aligned collectives cross the spine)",
                          p.port, n.local_port, n.remote_device, n.remote_port, leaf, where,
                          p.rail ? fmt::format("rail {}", p.rail) : std::string("a leaf"), p.plane, p.leaf, p.leaf_port, p.label),
              fmt::format("move cable {} to {} port {} (`railyard verify` lists every miswired cable and the swaps)", p.label,
                          p.leaf, p.leaf_port))
          .evidence = {{"lldp_neighbor", n.remote_device + " " + n.remote_port},
                       {"neighbor_rail", std::to_string(rail)},
                       {"planned", p.leaf + " " + p.leaf_port},
                       {"planned_rail", std::to_string(p.rail)}};
    }
  }
  return out;
}

}  // namespace railyard
