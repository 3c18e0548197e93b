// Host network configuration as the managers see it: `nmcli device status` (table or -t) and
// `nmcli device show`, and RHEL ifcfg files. Never throws.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct NmDevice {
  std::string device;
  std::string type;        // ethernet, bridge, bond, loopback, infiniband ...
  std::string state;       // connected, disconnected, unmanaged, unavailable ...
  int state_code = -1;     // `device show`: "100 (connected)" -> 100
  std::string connection;  // "" for "--"
  uint32_t mtu = 0;
  std::string hwaddr;
  std::optional<bool> carrier;
};

Parsed<NmDevice> ParseNmcli(std::string_view text);

struct IfcfgFile {
  // Assignments the ifcfg loaders (initscripts, NetworkManager's ifcfg-rh) accept: KEY=VALUE
  // with no spaces around '=', quotes removed, trailing comments dropped.
  std::map<std::string, std::string> values;
  // Lines those loaders reject or skip, said so: "TYPE = Ethernet" is not an assignment, a
  // commented "#ONBOOT=yes" does nothing.
  std::vector<ParseWarning> warnings;
  std::map<std::string, std::string> bonding_opts;  // BONDING_OPTS split; a "key = value" there is a warning

  std::string Get(const std::string& key) const {
    auto it = values.find(key);
    return it == values.end() ? std::string() : it->second;
  }
};

IfcfgFile ParseIfcfg(std::string_view text);

// One interface of a netplan file (/etc/netplan/*.yaml), from any of its sections.
struct NetplanInterface {
  std::string name;
  std::string section;  // ethernets | bonds | bridges | vlans | vrfs | ...
  int line = 0;         // where its key is
  std::optional<uint32_t> mtu;
  std::optional<bool> dhcp4, dhcp6;
  std::optional<bool> optional;  // "optional: true": boot does not wait for it
  std::vector<std::string> addresses;
  std::string match_mac;  // match: macaddress
  std::string set_name;
  std::string link;  // vlans: the parent; ethernets: the PF of a VF
  int vlan_id = -1;
  std::string renderer;                           // per-interface renderer (sriov for hardware VLANs)
  std::vector<std::string> members;               // bonds / bridges: interfaces
  std::map<std::string, std::string> parameters;  // bonds / bridges: mode, lacp-rate, ...
};

struct NetplanConfig {
  std::string renderer;  // networkd | NetworkManager | "" (netplan's default: networkd)
  std::vector<NetplanInterface> interfaces;
  std::vector<ParseWarning> warnings;
};

// Never throws: YAML that does not parse, or a file without `network:`, gives a warning with the
// line. Unknown keys are ignored (netplan has many); keys with wrongly typed values warn.
NetplanConfig ParseNetplan(std::string_view text);

}  // namespace railyard
