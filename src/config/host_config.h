// `railyard config hosts`: each host's network configuration, written from the plan, so that the
// faults the doctor finds after the fact (MTU 1500 on a jumbo path, replies leaving by the wrong rail,
// an interface that does not come up at boot) are not made in the first place.
//
// From plan.json: every endpoint-leaf link of a node gives a port with its plane, the address the IP
// plan gave it, its rail and the switch port at the far end; the spec's `netdevs:` (plan.json
// host_ports) name the OS interface of each port. railyard never guesses an interface name: a plane
// with addresses and no netdevs is an error naming it.
//
// netplan (docs/config.md): per port an `ethernets:` entry with the address, the plane's MTU, no
// DHCP, and — where a host has more than one port in a plane (multi-rail) — its own routing table and
// a source rule, so a reply leaves by the NIC its request came in on; IPoIB in datagram mode on
// InfiniBand planes. With multi-rail, a sysctl file sets arp_ignore/arp_announce/rp_filter so each
// NIC answers ARP only for its own address.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/fabric.h"
#include "model/host_file.h"

namespace railyard {

struct HostPortConfig {
  std::string plane, kind, role, mode;  // kind infiniband|roce|ethernet; mode host|p2p31|ipoib
  std::string port, netdev;             // plan port (mlx5_0), OS interface (ibp26s0)
  std::string address;                  // 10.0.0.2/12
  std::string peer_address;             // the switch end of a /31 ("" otherwise)
  std::string prefix;                   // the plane's prefix (10.0.0.0/12)
  std::string peer_device, peer_port, label;
  int vlan = 0, rail = 0;
  uint32_t mtu = 0;  // the plane's (plan.json), else DefaultMtu
  RoceQos qos;       // roce planes
  std::string bond;  // the 802.3ad bond it is a member of ("bond0", per bonded plane in plan order); "" = none.
                     // The bond takes the address of its first member's link; the other members have none.
};

struct HostConfigs {
  std::string plan_name;
  std::vector<std::string> hosts;  // in plan order
  std::unordered_map<std::string, std::vector<HostPortConfig>> ports;
  std::vector<std::string> notes;  // planes left out and why (out-of-band: the BMC, not the host OS)
};

// Reads plan.json. Throws InputError("<file>: ...") when it is not a plan, has no host
// addresses, or a plane with host addresses has no netdevs.
HostConfigs ReadHostConfigs(const std::string& plan_json);
HostConfigs ParseHostConfigs(std::string_view json, const std::string& source);

// The MTU railyard writes when plan.json gives none (a plan from before it did; the planner applies
// the same defaults): 9000 on Ethernet/RoCE data planes (compute,
// storage), 1500 on in-band management, 2044 for IPoIB in datagram mode (a 2048-byte IB MTU, minus
// the 4-byte IPoIB header).
uint32_t DefaultMtu(const std::string& kind, const std::string& role);

// One host's netplan file (/etc/netplan/60-railyard.yaml).
std::string NetplanYaml(const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& plan_name);
// One host's sysctl file for multi-rail ARP (/etc/sysctl.d/60-railyard-multirail.conf), "" when the
// host has at most one port per plane.
std::string MultiRailSysctl(const std::string& host, const std::vector<HostPortConfig>& ports);

// One NetworkManager keyfile (/etc/NetworkManager/system-connections/railyard-<netdev>.nmconnection):
// a managed, autoconnecting connection bound to the interface, the address, the MTU, IPoIB datagram
// mode, and for multi-rail the port's own route table, the prefix in main too, and the source rule.
std::string NmKeyfile(const std::string& host, const HostPortConfig& port, uint32_t table, bool multi,
                      const std::string& plan_name);

// A host's files in `format` (netplan | nm | ifcfg | networkd), and the multi-rail sysctl file where it needs one.
std::vector<HostFile> HostFiles(const std::string& host, const std::vector<HostPortConfig>& ports, const std::string& format,
                                const std::string& plan_name);

// Writes, per host matching `host_glob` ("" = all), DIR/<host>/etc/netplan/60-railyard.yaml (mode
// 0600, as netplan wants) and, where needed, DIR/<host>/etc/sysctl.d/60-railyard-multirail.conf: a
// tree to copy onto the host's root, or to check with `netplan generate --root-dir DIR/<host>`. All
// files or none. `dir` ending in .tar: the same trees in one ustar archive instead (at fleet scale
// the file system, not railyard, is the cost of 25,000 small files). Returns how many hosts were
// written; throws when the glob matches none.
size_t WriteHostConfigs(const HostConfigs& configs, const std::string& host_glob, const std::string& dir,
                        const std::string& format = "netplan");

// The same for any per-host files (config roce): `make` gives a host's files; a host it gives none is
// left out.
using HostFileMaker = std::function<std::vector<HostFile>(const std::string& host, const std::vector<HostPortConfig>& ports)>;
size_t WriteHostFiles(const HostConfigs& configs, const std::string& host_glob, const std::string& dir,
                      const HostFileMaker& make);

// Writes files (paths relative to `dir`) all or none: into `dir`, creating directories (removed
// again on failure), each file at its mode; or, `dir` ending in .tar, into one ustar archive.
void WriteFileTree(const std::vector<HostFile>& files, const std::string& dir);

}  // namespace railyard
