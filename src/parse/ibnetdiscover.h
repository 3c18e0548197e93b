// ibnetdiscover topology files (also ibsim's net format): nodes and the links each port sees.
//
// Every "[port]" line inside a Switch or Ca block becomes one Adjacency from that node's point
// of view, so a switch-to-switch cable appears twice (once per end) and a CA-to-switch cable
// twice (in the switch block and in the CA block). Node descriptions are taken from the
// '# "..."' comments, GUIDs from the quoted node ids ("S-<guid>", "H-<guid>").
// Never throws: malformed lines become warnings with their line numbers.
#pragma once

#include <string_view>

#include "parse/observation.h"

namespace railyard {

// `source` names the input in adjacencies and warnings.
AdjacencyReport ParseIbnetdiscover(std::string_view text, std::string_view source);

// Rate of one lane for an IB speed name ("NDR" -> 100, "HDR" -> 50), 0 if unknown.
uint32_t IbLaneGbps(std::string_view speed);

}  // namespace railyard
