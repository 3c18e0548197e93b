// Neighbour tables printed by the switches people cable to:
//   Arista EOS   `show lldp neighbors`  (Port / Neighbor Device ID / Neighbor Port ID / TTL)
//   Cumulus      `net show lldp`        (LocalPort / Speed / Mode / RemotePort / RemoteHost / Summary; older
//                                        NCLU: … / RemoteHost / RemotePort)
//   NVUE         `nv show interface lldp` (Interface / Speed / Type / Remote Host / Remote Port)
//   SONiC        `show lldp table`      (LocalPort / RemoteDevice / RemotePortID / Capability / RemotePortDescr)
// The columns are found by their header names (in any order), and take their extents from the dashed rule
// under the header where there is one, so a value with a space ("GigabitEthernet 0/2") stays whole. Without
// a table header, lldpctl's own blocks (SONiC `show lldp neighbors`, NCLU `net show lldp IF`) are read as
// lldpctl's plain form. The switch's own name is not in the output;
// the caller gives it (the CLI uses the file name). Never throws.
#pragma once

#include <string_view>

#include "parse/observation.h"

namespace railyard {

AdjacencyReport ParseSwitchLldpTable(std::string_view text, std::string_view local_device, std::string_view source);

}  // namespace railyard
