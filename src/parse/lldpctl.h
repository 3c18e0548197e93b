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

// The text forms of the same command: `-f keyvalue` ("lldp.IF.chassis.name=…", multi-line values continue
// on lines without the "lldp." prefix), `-f plain` (the default: "Interface: IF, via: LLDP, …" blocks) and
// `-f xml`. The port rule is the JSON one; the VLAN TLV's id is kept when it is marked pvid (else the first).
AdjacencyReport ParseLldpctlKeyValue(std::string_view text, std::string_view local_device, std::string_view source);
AdjacencyReport ParseLldpctlPlain(std::string_view text, std::string_view local_device, std::string_view source);
AdjacencyReport ParseLldpctlXml(std::string_view text, std::string_view local_device, std::string_view source);

// Any of the five forms, told apart by their first characters ('{' JSON, '<' XML, "lldp." keyvalue, else plain).
AdjacencyReport ParseLldpctl(std::string_view text, std::string_view local_device, std::string_view source);

}  // namespace railyard
