// `lldpctl -f json` and `lldpctl -f json0` (lldpcli show neighbors) output.
//
// lldpctl does not print the local system's name, so the caller says which device the output
// was taken on (`local_device`; the CLI uses the file name). The neighbour's port is its port
// id when that is an interface name (subtype ifname or local), else its port description
// (lldpd on a veth or a NIC sends a MAC port id and the interface name as description).
// Never throws: a malformed document yields a warning and whatever was read before it.
#pragma once

#include <string_view>

#include "parse/observation.h"

namespace railyard {

AdjacencyReport ParseLldpctlJson(std::string_view json, std::string_view local_device, std::string_view source);

}  // namespace railyard
