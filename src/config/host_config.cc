#include "config/host_config.h"
#include "model/schemas.h"
#include "util/input_error.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <simdjson.h>

#include "planfile/plan_sections.h"
#include "util/config_emit.h"
#include "util/content_hash.h"
#include "util/file.h"
#include "util/output_file.h"
#include "util/output_path.h"
#include "util/shell_emit.h"
#include "util/tar.h"
#include "util/terminal.h"
#include "util/yaml_emit.h"

namespace railyard {
namespace {

struct PlaneInfo {
  std::string kind, role, mode, prefix;
  int vlan = 0;
  uint32_t mtu = 0;  // plan.json's (0: a plan written before railyard put it there)
  RoceQos qos;
  std::string bond;  // "bond0" ... for a bonded plane
};

// YAML scalars railyard writes come from the plan (names it made, addresses it formatted); quoted
// anyway, so that a name a spec chose can never change the file's structure.
std::string Quoted(std::string_view s) { return YamlQuoted(s); }

}  // namespace

namespace {
HostConfigs ParsePadded(const simdjson::padded_string& padded, const std::string& source);
}  // namespace

uint32_t DefaultMtu(const std::string& kind, const std::string& role) {
  if (kind == "infiniband") return 2044;
  if (role == "inband" || role == "management") return 1500;
  return 9000;
}

HostConfigs ParseHostConfigs(std::string_view json, const std::string& source) {
  return ParsePadded(simdjson::padded_string(json), source);
}

namespace {

PlaneInfo PlaneInfoOf(const PlanPlaneRecord& r, int& bonds) {
  PlaneInfo p;
  p.kind = r.kind;
  p.role = r.role;
  p.mtu = static_cast<uint32_t>(std::clamp<int64_t>(r.mtu, 0, UINT32_MAX));
  p.bond = r.bond == "802.3ad" ? "bond" + std::to_string(bonds++) : "";
  p.mode = r.mode;
  p.vlan = static_cast<int>(r.vlan);
  p.prefix = r.prefix;
  p.qos = QosOf(r);
  return p;
}

// A node's end of a link on an addressed (or bonded) in-band plane, as the host configures it.
HostPortConfig PortConfigOf(const PlanLinkRecord& link, const std::string& plane, const PlaneInfo& info) {
  HostPortConfig p;
  p.plane = plane;
  p.kind = info.kind;
  p.role = info.role;
  p.mode = info.mode;
  p.prefix = info.prefix;
  p.vlan = info.vlan;
  p.mtu = info.mtu >= 576 && info.mtu <= 65520 ? info.mtu : DefaultMtu(info.kind, info.role);
  p.qos = info.qos;
  p.bond = info.bond;
  p.port = link.a.port;
  p.address = link.a.ip;
  p.label = link.label;
  p.rail = static_cast<int>(link.rail);
  p.peer_device = link.z.device;
  p.peer_port = link.z.port;
  if (info.mode == "p2p31") p.peer_address = link.z.ip.substr(0, link.z.ip.find('/'));
  return p;
}

// What a host's operating system is configured with, from the plan's planes, nodes, host ports and the
// links of nodes (planfile/plan_sections.h reads them).
HostConfigs ParsePadded(const simdjson::padded_string& padded, const std::string& source) {
  auto fail = [&](const std::string& why) { throw InputError(source, 0, 0, "", why); };
  HostConfigs out;
  std::map<std::string, PlaneInfo> planes;
  std::map<std::pair<std::string, std::string>, std::string> netdev;  // (plane, port) -> netdev
  std::set<std::string, std::less<>> nodes;
  std::set<std::string> planes_without_netdevs;
  int bonds = 0;
  PlanSections sections;
  sections.name = [&](std::string_view name) { out.plan_name = name; };
  sections.plane = [&](const PlanPlaneRecord& r) { planes[std::string(r.name)] = PlaneInfoOf(r, bonds); };
  sections.host_port = [&](const PlanHostPortRecord& h) {
    // A Linux interface name: at most 15 bytes (IFNAMSIZ - 1), no '/', ':' or whitespace. It goes
    // into YAML keys and sysctl paths, so anything else is refused, not escaped.
    static const std::regex kIfname("^[A-Za-z0-9_.-]{1,15}$");
    if (h.netdev.empty()) return;
    const std::string dev(h.netdev);
    if (!std::regex_match(dev, kIfname)) {
      fail(fmt::format("host_ports: plane {} port {}: '{}' is not a Linux interface name (at most 15 letters, digits, . _ -)",
                       h.plane, h.port, TerminalSafe(dev)));
    }
    netdev[{std::string(h.plane), std::string(h.port)}] = dev;
  };
  sections.device = [&](const PlanDeviceRecord& d) {
    if (d.role != "node") return;
    nodes.insert(std::string(d.name));
    out.hosts.emplace_back(d.name);
  };
  // 100,000 GPUs make a million links, most between switches: only a node's are kept. Devices come
  // before links in plan.json: a node is known by now.
  sections.link = [&](const PlanLinkRecord& l) {
    if (l.level != "endpoint-leaf" || !nodes.count(l.a.device)) return;
    auto plane = planes.find(std::string(l.plane));
    if (plane == planes.end()) fail(fmt::format("link {} names plane '{}', which the plan does not have", l.label, l.plane));
    const PlaneInfo& info = plane->second;
    if (l.a.ip.empty() && info.bond.empty()) return;  // a bond's other members carry no address
    if (info.role == "oob") return;                   // the BMC's port: set on the BMC, not in the host's OS
    HostPortConfig p = PortConfigOf(l, plane->first, info);
    auto dev = netdev.find({p.plane, p.port});
    if (dev == netdev.end()) {
      planes_without_netdevs.insert(p.plane);
      return;
    }
    p.netdev = dev->second;
    out.ports[std::string(l.a.device)].push_back(std::move(p));
  };
  ReadPlanSections(padded, source, sections);
  if (!planes_without_netdevs.empty()) {
    std::string list;
    for (const std::string& p : planes_without_netdevs) list += (list.empty() ? "" : ", ") + p;
    fail(
        fmt::format("plane(s) {} give hosts addresses but the spec names no netdevs for their ports "
                    "(planes[].netdevs: [ibp26s0, ...], one per port in NIC order): railyard does not guess interface names",
                    list));
  }
  if (out.ports.empty()) {
    fail(
        "no host port has an address: give the spec an addressing: section for the planes hosts configure "
        "(addressing: {storage: {prefix: 10.16.0.0/16}})");
  }
  for (const auto& [name, p] : planes) {
    if (p.role == "oob") out.notes.push_back(fmt::format("plane {} (out-of-band): left out: it is the BMC's port", name));
  }
  return out;
}

}  // namespace

HostConfigs ReadHostConfigs(const std::string& plan_json) {
  simdjson::padded_string padded;
  if (plan_json == "-" || simdjson::padded_string::load(plan_json).get(padded)) {
    // The same message every reader gives for a file it cannot read.
    return ParseHostConfigs(ReadWholeFile(plan_json), ShownPath(plan_json));
  }
  return ParsePadded(padded, plan_json);
}

namespace {

// Ports of a plane where the host has more than one: each gets a routing table of its own.
std::map<std::string, size_t> PortsPerPlane(const std::vector<HostPortConfig>& ports) {
  std::map<std::string, size_t> n;
  for (const HostPortConfig& p : ports) n[p.plane] += p.bond.empty() || !p.address.empty();  // a bond counts once
  return n;
}

// The interfaces that carry addresses: each unbonded port, and each bond (as its first member, renamed).
std::vector<HostPortConfig> AddressedInterfaces(const std::vector<HostPortConfig>& ports) {
  std::vector<HostPortConfig> out;
  for (const HostPortConfig& p : ports) {
    if (!p.bond.empty() && p.address.empty()) continue;
    out.push_back(p);
    if (!p.bond.empty()) out.back().netdev = p.bond;
  }
  return out;
}

// "mlx5_0 -> leaf1 swp1 (cable C1), a member of bond0": where a port's cable goes, for comments.
std::string LinkText(const HostPortConfig& p) {
  return fmt::format("{} -> {} {} (cable {}){}", p.port, p.peer_device, p.peer_port, p.label,
                     p.bond.empty() ? "" : ", a member of " + p.bond);
}

// " rail 3", or "" off a rail.
std::string RailText(const HostPortConfig& p) { return p.rail ? fmt::format(" rail {}", p.rail) : ""; }

// The first line of each keyfile, ifcfg and networkd file: whose, from which plan, and what it is for.
std::string HeaderComment(const std::string& host, const std::string& dev, const std::string& plan_name, const HostPortConfig& p,
                          const std::string& what) {
  return "# " +
         CommentText(fmt::format("railyard config hosts: {} {} from plan {}: {} plane{}, {}", host, dev, plan_name, p.plane,
                                 RailText(p), what)) +
         "\n";
}

std::vector<std::string> BondMembers(const std::vector<HostPortConfig>& ports, const std::string& bond) {
  std::vector<std::string> out;
  for (const HostPortConfig& p : ports) {
    if (p.bond == bond) out.push_back(p.netdev);
  }
  return out;
}

}  // namespace

std::string NetplanYaml(const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& plan_name) {
  std::string y = fmt::format(
      "# railyard config hosts: {} from plan {}. Every port from the plan: its address, its plane's MTU,\n"
      "# and where a plane has several ports on this host, a routing table per port with a rule for its\n"
      "# source address (replies leave by the NIC they came in on).\n"
      "network:\n  version: 2\n  renderer: networkd\n  ethernets:\n",
      CommentText(host), CommentText(plan_name));
  std::map<std::string, size_t> per_plane = PortsPerPlane(ports);
  // The address, and for multi-rail its routing table and source rule, of an addressed interface.
  auto addressing = [&](const HostPortConfig& p, uint32_t table) {
    std::string a = fmt::format("      addresses: [{}]\n", Quoted(p.address));
    if (per_plane[p.plane] <= 1 && p.mode != "p2p31") return a;
    const std::string self = p.address.substr(0, p.address.find('/'));
    const std::string to = p.prefix.empty() ? p.address : p.prefix;
    a += "      routes:\n";
    if (!p.peer_address.empty()) {
      a += fmt::format("        - to: {}\n          via: {}\n          table: {}\n", Quoted(to), Quoted(p.peer_address), table);
    } else {
      a += fmt::format("        - to: {}\n          scope: link\n          table: {}\n", Quoted(to), table);
    }
    a += fmt::format("      routing-policy:\n        - from: {}\n          table: {}\n          priority: {}\n", Quoted(self),
                     table, 1000 + table);
    return a;
  };
  std::map<const HostPortConfig*, uint32_t> tables;  // per addressed interface, in port order
  uint32_t table = 100;
  for (const HostPortConfig& p : ports) {
    if (p.bond.empty() || !p.address.empty()) tables[&p] = ++table;
  }
  std::string bonds;
  for (const HostPortConfig& p : ports) {
    y += fmt::format("    {}:\n", Quoted(p.netdev));
    y += fmt::format("      # {}\n", CommentText(fmt::format("{} plane{}, {}", p.plane, RailText(p), LinkText(p))));
    y += fmt::format("      mtu: {}\n      dhcp4: false\n      dhcp6: false\n      link-local: []\n", p.mtu);
    if (p.kind == "infiniband") y += "      infiniband-mode: datagram\n";
    if (p.bond.empty()) {
      y += addressing(p, tables[&p]);
      continue;
    }
    if (p.address.empty()) continue;  // a member: the bond has the address
    std::string members;
    for (const std::string& m : BondMembers(ports, p.bond)) members += (members.empty() ? "" : ", ") + Quoted(m);
    // LACP with fast LACPDUs, link monitoring every 100 ms, and flows spread by L3/L4 headers
    // (the doctor's bond-hash-layer2 and bond-lacp-not-negotiated rules check the same on the host).
    bonds += fmt::format(
        "    {}:\n      # {} plane: an 802.3ad bond over both switches of the leaf pair\n      interfaces: [{}]\n"
        "      mtu: {}\n      dhcp4: false\n      dhcp6: false\n      link-local: []\n{}"
        "      parameters:\n        mode: 802.3ad\n        lacp-rate: fast\n        mii-monitor-interval: 100\n"
        "        transmit-hash-policy: layer3+4\n",
        Quoted(p.bond), CommentText(p.plane), members, p.mtu, addressing(p, tables[&p]));
  }
  if (!bonds.empty()) y += "  bonds:\n" + bonds;
  return y;
}

std::string MultiRailSysctl(const std::string& host, const std::vector<HostPortConfig>& ports) {
  bool multi = false;
  for (const auto& [plane, n] : PortsPerPlane(ports)) multi = multi || n > 1;
  if (!multi) return "";
  std::string s = fmt::format(
      "# railyard config hosts: {}: several NICs in one subnet (multi-rail). Each NIC answers ARP only for\n"
      "# its own address and announces the address of the interface it sends from, and reverse-path\n"
      "# filtering is loose, so the source rules of 60-railyard.yaml decide the way out.\n",
      CommentText(host));
  std::set<std::string> seen;
  for (const HostPortConfig& p : AddressedInterfaces(ports)) {
    if (!seen.insert(p.netdev).second) continue;
    // sysctl.d(5): with '.' as the separator, a '.' inside the interface name (a VLAN, enp3s0.200)
    // is written as '/'.
    std::string dev = PlainWord("netdev", p.netdev);
    std::replace(dev.begin(), dev.end(), '.', '/');
    s += fmt::format("net.ipv4.conf.{0}.arp_ignore = 1\nnet.ipv4.conf.{0}.arp_announce = 2\nnet.ipv4.conf.{0}.rp_filter = 2\n",
                     dev);
  }
  return s;
}

std::string NmKeyfile(const std::string& host, const HostPortConfig& p, uint32_t table, bool multi,
                      const std::string& plan_name) {
  // What the keyfile is for: a port with its address, a bond member (no address: the bond has it),
  // or, with `p.netdev` the bond's name, the bond itself.
  const bool is_bond = !p.bond.empty() && p.netdev == p.bond;
  const bool member = !p.bond.empty() && !is_bond;
  // A stable UUID per host and interface (NetworkManager wants one; the same plan gives the same file).
  ContentHash h1, h2;
  h1.Update(host);
  h1.Update("/");
  h1.Update(p.netdev);
  h2.Update(p.netdev);
  h2.Update("@");
  h2.Update(host);
  uint64_t a = h1.Digest(), b = h2.Digest();
  std::string uuid = fmt::format("{:08x}-{:04x}-5{:03x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff, a & 0xfff,
                                 0x8000 | ((b >> 48) & 0x3fff), b & 0xffffffffffffull);
  const bool ib = p.kind == "infiniband";
  const std::string dev = IniValue("interface-name", p.netdev);
  std::string k =
      HeaderComment(host, p.netdev, plan_name, p, is_bond ? "an 802.3ad bond over both switches of the leaf pair" : LinkText(p)) +
      fmt::format("[connection]\nid=railyard-{}\nuuid={}\ntype={}\ninterface-name={}\nautoconnect=true\n", dev, uuid,
                  is_bond ? "bond"
                  : ib    ? "infiniband"
                          : "ethernet",
                  dev);
  if (member) {
    // A port of a bond: NetworkManager brings it up with the bond; it carries no IP settings.
    return k + fmt::format("master={}\nslave-type=bond\n\n[ethernet]\nmtu={}\n", IniValue("master", p.bond), p.mtu);
  }
  k += "\n";
  if (is_bond) {
    // LACP with fast LACPDUs, link monitoring every 100 ms, flows spread by L3/L4 headers.
    k += "[bond]\nmode=802.3ad\nmiimon=100\nlacp_rate=fast\nxmit_hash_policy=layer3+4\n\n";
    k += fmt::format("[ethernet]\nmtu={}\n\n", p.mtu);
  } else if (ib) {
    k += fmt::format("[infiniband]\nmtu={}\ntransport-mode=datagram\n\n", p.mtu);
  } else {
    k += fmt::format("[ethernet]\nmtu={}\n\n", p.mtu);
  }
  k += fmt::format("[ipv4]\nmethod=manual\naddress1={}\nmay-fail=false\n", IniValue("address1", p.address));
  if (multi) {
    // The port's routes in its own table, the plane's prefix also in main (254) for traffic that has
    // not chosen a source yet, and the rule that sends its source address to its table.
    const std::string self = IniValue("address", p.address.substr(0, p.address.find('/')));
    const std::string to = IniValue("prefix", p.prefix.empty() ? p.address : p.prefix);
    k += fmt::format("route-table={}\n", table);
    if (!p.peer_address.empty()) {
      const std::string via = IniValue("gateway", p.peer_address);
      k += fmt::format("route1={},{}\nroute2={},{}\nroute2_options=table=254\n", to, via, to, via);
    } else {
      k += fmt::format("route1={}\nroute2={}\nroute2_options=table=254\n", to, to);
    }
    k += fmt::format("routing-rule1=priority {} from {} table {}\n", 1000 + table, self, table);
  }
  k += "\n[ipv6]\nmethod=disabled\n";
  return k;
}

// RHEL-family files (/etc/sysconfig/network-scripts), read by NetworkManager's ifcfg-rh plugin and
// by the legacy network service: ifcfg-<dev> with the address and MTU, and for multi-rail route-<dev>
// and rule-<dev> in `ip route` / `ip rule` argument form.
void IfcfgFiles(const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& plan_name,
                std::vector<HostFile>& files) {
  std::map<std::string, size_t> per_plane = PortsPerPlane(ports);
  const std::string dir = "etc/sysconfig/network-scripts/";
  uint32_t table = 100;
  auto header = [&](const HostPortConfig& p, const std::string& dev, const std::string& what) {
    return HeaderComment(host, dev, plan_name, p, what);
  };
  // ifcfg files are sourced as shell by network-scripts: every value is one shell word.
  auto addressed = [&](const HostPortConfig& p, const std::string& dev, std::string& text) {
    const std::string ip = p.address.substr(0, p.address.find('/')), length = p.address.substr(p.address.find('/') + 1);
    text += fmt::format("BOOTPROTO=none\nIPADDR={}\nPREFIX={}\nIPV6INIT=no\n", IfcfgValue("IPADDR", ip),
                        IfcfgValue("PREFIX", length));
    if (per_plane[p.plane] <= 1 && p.mode != "p2p31") return;
    ++table;
    const std::string to = p.prefix.empty() ? p.address : p.prefix;
    // ifup-routes runs `ip route add $line` / `ip rule add $line`: every value one plain word.
    const std::string w_to = PlainWord("route", to), w_dev = PlainWord("dev", dev), w_ip = PlainWord("from", ip);
    std::string routes = !p.peer_address.empty() ? fmt::format("{} via {} dev {} table {}\n{} via {} dev {}\n", w_to,
                                                               PlainWord("via", p.peer_address), w_dev, table, w_to,
                                                               PlainWord("via", p.peer_address), w_dev)
                                                 : fmt::format("{} dev {} table {}\n", w_to, w_dev, table);
    files.push_back({dir + "route-" + dev, 0644, header(p, dev, "its routing table") + routes});
    files.push_back(
        {dir + "rule-" + dev, 0644,
         header(p, dev, "its source rule") + fmt::format("from {} table {} priority {}\n", w_ip, table, 1000 + table)});
  };
  for (const HostPortConfig& p : ports) {
    const bool ib = p.kind == "infiniband";
    std::string text = header(p, p.netdev, LinkText(p));
    text += fmt::format("DEVICE={}\nNAME={}\nTYPE={}\nONBOOT=yes\nNM_CONTROLLED=yes\nMTU={}\n", IfcfgValue("DEVICE", p.netdev),
                        IfcfgValue("NAME", "railyard-" + p.netdev), ib ? "InfiniBand" : "Ethernet", p.mtu);
    if (ib) text += "CONNECTED_MODE=no\n";  // IPoIB datagram mode
    if (!p.bond.empty()) {
      text += fmt::format("MASTER={}\nSLAVE=yes\nBOOTPROTO=none\n", IfcfgValue("MASTER", p.bond));
      files.push_back({dir + "ifcfg-" + p.netdev, 0644, std::move(text)});
      if (p.address.empty()) continue;
      std::string bond = header(p, p.bond, "an 802.3ad bond over both switches of the leaf pair");
      bond += fmt::format(
          "DEVICE={}\nNAME={}\nTYPE=Bond\nBONDING_MASTER=yes\n"
          "BONDING_OPTS=\"mode=802.3ad miimon=100 lacp_rate=fast xmit_hash_policy=layer3+4\"\n"
          "ONBOOT=yes\nNM_CONTROLLED=yes\nMTU={}\n",
          IfcfgValue("DEVICE", p.bond), IfcfgValue("NAME", "railyard-" + p.bond), p.mtu);
      addressed(p, p.bond, bond);
      files.push_back({dir + "ifcfg-" + p.bond, 0644, std::move(bond)});
      continue;
    }
    addressed(p, p.netdev, text);
    files.push_back({dir + "ifcfg-" + p.netdev, 0644, std::move(text)});
  }
}

// systemd-networkd files (/etc/systemd/network), written as netplan itself renders its own form of
// the same host (the test compares them with `netplan generate`'s output): per interface a .network
// with the MTU, the address, no link-local addressing, and for multi-rail its table and source rule;
// per bond a .netdev with the 802.3ad parameters, its members' .network naming it.
void NetworkdFiles(const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& plan_name,
                   std::vector<HostFile>& files) {
  std::map<std::string, size_t> per_plane = PortsPerPlane(ports);
  const std::string dir = "etc/systemd/network/60-railyard-";
  uint32_t table = 100;
  auto header = [&](const HostPortConfig& p, const std::string& dev, const std::string& what) {
    return HeaderComment(host, dev, plan_name, p, what);
  };
  auto network = [&](const HostPortConfig& p, const std::string& dev, const std::string& what, bool addressed) {
    std::string n = header(p, dev, what);
    n += fmt::format("[Match]\nName={}\n\n[Link]\nMTUBytes={}\n\n[Network]\nLinkLocalAddressing=no\n", IniValue("Name", dev),
                     p.mtu);
    if (!addressed) return n + fmt::format("Bond={}\n", IniValue("Bond", p.bond));
    n += fmt::format("Address={}\n", IniValue("Address", p.address));
    if (dev == p.bond) n += "ConfigureWithoutCarrier=yes\n";
    if (per_plane[p.plane] > 1 || p.mode == "p2p31") {
      ++table;
      const std::string self = p.address.substr(0, p.address.find('/'));
      const std::string to = p.prefix.empty() ? p.address : p.prefix;
      n += fmt::format("\n[Route]\nDestination={}\n", IniValue("Destination", to));
      n += p.peer_address.empty() ? "Scope=link\n" : fmt::format("Gateway={}\n", IniValue("Gateway", p.peer_address));
      n += fmt::format("Table={}\n\n[RoutingPolicyRule]\nFrom={}\nTable={}\nPriority={}\n", table, IniValue("From", self), table,
                       1000 + table);
    }
    if (p.kind == "infiniband") n += "\n[IPoIB]\nMode=datagram\n";
    return n;
  };
  for (const HostPortConfig& p : ports) {
    const std::string link = LinkText(p);
    files.push_back({dir + p.netdev + ".network", 0644, network(p, p.netdev, link, p.bond.empty())});
    if (p.bond.empty() || p.address.empty()) continue;
    // The bond, once (its first member's link gave it its address): LACP with fast LACPDUs, link
    // monitoring every 100 ms, flows spread by L3/L4 headers.
    const std::string what = "an 802.3ad bond over both switches of the leaf pair";
    files.push_back({dir + p.bond + ".netdev", 0644,
                     header(p, p.bond, what) +
                         fmt::format("[NetDev]\nName={}\nMTUBytes={}\nKind=bond\n\n[Bond]\nMode=802.3ad\nLACPTransmitRate=fast\n"
                                     "MIIMonitorSec=100ms\nTransmitHashPolicy=layer3+4\n",
                                     IniValue("Name", p.bond), p.mtu)});
    files.push_back({dir + p.bond + ".network", 0644, network(p, p.bond, what, true)});
  }
}

std::vector<HostFile> HostFiles(const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& format,
                                const std::string& plan_name) {
  std::vector<HostFile> files;
  if (format == "nm") {
    std::map<std::string, size_t> per_plane = PortsPerPlane(ports);
    uint32_t table = 100;
    auto keyfile = [&](const HostPortConfig& p, uint32_t t) {
      files.push_back({"etc/NetworkManager/system-connections/railyard-" + p.netdev + ".nmconnection", 0600,
                       NmKeyfile(host, p, t, per_plane[p.plane] > 1 || p.mode == "p2p31", plan_name)});
    };
    for (const HostPortConfig& p : ports) {
      if (p.bond.empty()) {
        keyfile(p, ++table);
        continue;
      }
      HostPortConfig member = p;
      member.address.clear();
      keyfile(member, 0);
      if (p.address.empty()) continue;
      HostPortConfig bond = p;  // the bond: the first member's link gave it its address
      bond.netdev = p.bond;
      keyfile(bond, ++table);
    }
  } else if (format == "ifcfg") {
    IfcfgFiles(host, ports, plan_name, files);
  } else if (format == "networkd") {
    NetworkdFiles(host, ports, plan_name, files);
  } else {
    files.push_back({"etc/netplan/60-railyard.yaml", 0600, NetplanYaml(host, ports, plan_name)});
  }
  std::string sysctl = MultiRailSysctl(host, ports);
  if (!sysctl.empty()) files.push_back({"etc/sysctl.d/60-railyard-multirail.conf", 0644, std::move(sysctl)});
  return files;
}

size_t WriteHostConfigs(const HostConfigs& configs, const std::string& host_glob, const std::string& dir,
                        const std::string& format) {
  if (format != "netplan" && format != "nm" && format != "ifcfg" && format != "networkd") {
    throw UsageError(fmt::format("--format: '{}': netplan, nm, ifcfg or networkd", format));
  }
  return WriteHostFiles(configs, host_glob, dir, [&](const std::string& host, const std::vector<HostPortConfig>& ports) {
    return HostFiles(host, ports, format, configs.plan_name);
  });
}

size_t WriteHostFiles(const HostConfigs& configs, const std::string& host_glob, const std::string& dir,
                      const HostFileMaker& make) {
  std::vector<std::string> hosts;
  for (const std::string& host : configs.hosts) {
    if (!host_glob.empty() && fnmatch(host_glob.c_str(), host.c_str(), 0) != 0) continue;
    if (configs.ports.count(host)) hosts.push_back(host);
  }
  if (hosts.empty()) throw UsageError(fmt::format("no host of the plan with addressed ports matches '{}'", host_glob));
  std::vector<HostFile> files;
  size_t written = 0;
  for (const std::string& host : hosts) {
    std::vector<HostFile> mine = make(host, configs.ports.at(host));
    written += !mine.empty();  // hosts with nothing to write (no RoCE port for `config roce`) are left out
    for (HostFile& f : mine) files.push_back({host + "/" + f.path, f.mode, std::move(f.content)});
  }
  if (!written) throw UsageError(fmt::format("no host matching '{}' has a port this configuration is for", host_glob));
  WriteFileTree(files, dir);
  return written;
}

void WriteFileTree(const std::vector<HostFile>& files, const std::string& dir) {
  namespace fs = std::filesystem;
  if (dir.ends_with(".tar")) {
    // One archive of the same tree; a host extracts its own part with
    // tar -xf hosts.tar --strip-components=1 -C / <host>/
    OutputFile out(dir);
    int64_t mtime = static_cast<int64_t>(std::time(nullptr));
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) mtime = std::strtoll(epoch, nullptr, 10);  // reproducible archives
    TarWriter tar([&out](std::string_view bytes) { out.Append(bytes); }, mtime);
    for (const HostFile& f : files) {
      (void)PathUnder(dir, f.path);  // a member's path is refused as a directory's would be
      tar.Add(f.path, f.mode, f.content);
    }
    tar.Finish();
    out.Close();
    CommitAll({&out});
    return;
  }
  // The directories this run creates, removed again (deepest first) if it fails: nothing is left half.
  // Every path is a plain one under `dir` (host and switch names from the plan become directories) and
  // no directory on the way may be a symlink (util/output_path.h).
  std::vector<fs::path> created;
  std::vector<std::unique_ptr<OutputFile>> outputs;
  try {
    for (const HostFile& f : files) {
      const fs::path path = PathUnder(dir, f.path);
      MakeDirectoriesUnder(dir, path.parent_path(), created);
      outputs.push_back(std::make_unique<OutputFile>(path.string()));
      outputs.back()->Append(f.content);
      outputs.back()->Close();  // one descriptor at a time: 12,500 hosts would exceed the open-file limit
    }
    std::vector<OutputFile*> set;
    for (auto& o : outputs) set.push_back(o.get());
    CommitAll(set);
  } catch (...) {
    outputs.clear();  // removes the temporary files never committed
    for (auto it = created.rbegin(); it != created.rend(); ++it) {
      std::error_code ec;
      fs::remove(*it, ec);  // only if empty: a directory someone else filled stays
    }
    throw;
  }
  for (size_t i = 0; i < files.size(); ++i) {
    std::error_code ec;
    fs::permissions(outputs[i]->path(), static_cast<fs::perms>(files[i].mode), fs::perm_options::replace, ec);
  }
}

}  // namespace railyard
