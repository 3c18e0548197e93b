// Neighbour tables printed by the switches people cable to:
//   Arista EOS   `show lldp neighbors`  (Port / Neighbor Device ID / Neighbor Port ID / TTL)
//   Cumulus      `net show lldp`        (LocalPort / Speed / Mode / RemotePort / RemoteHost / Summary)
//   NVUE         `nv show interface lldp` (Interface / Speed / Type / Remote Host / Remote Port)
//   SONiC        `show lldp table`      (LocalPort / RemoteDevice / RemotePortID / Capability / RemotePortDescr)
// The format is recognised from the header line. The switch's own name is not in the output;
// the caller gives it (the CLI uses the file name). Never throws.
#pragma once

#include <string_view>

#include "parse/observation.h"

namespace railyard {

AdjacencyReport ParseSwitchLldpTable(std::string_view text, std::string_view local_device, std::string_view source);

}  // namespace railyard
