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

std::vector<NmDevice> ParseNmcli(std::string_view text, std::vector<ParseWarning>* warnings = nullptr);

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

}  // namespace railyard
