// The InfiniBand switches of a fabric as switch facts: iblinkinfo gives each switch's ports (state,
// physical state, width and speed, the far end, "Could be"), ibqueryerrors and perfquery their error
// counters. These tools run from any host with an HCA and see the whole subnet, so one saved set of
// outputs yields one railyard.switch-facts/1 document per switch.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "facts/switch_facts.h"
#include "parse/ib_counters.h"
#include "parse/iblinkinfo.h"

namespace railyard {

struct IbCountersFile {
  IbCountersReport report;
  std::string source;
};

// Switch names come from the node description the way UFM and verify read them ("MF0;leaf01:MQM9790/U1"
// is leaf01); two switches with one description (a factory default) are named by their GUIDs.
// Counters are placed by switch GUID (ibqueryerrors) or by the switch's LID (perfquery); what cannot
// be placed, and the CA (host) lines, are warnings in `fabric_warnings`.
std::vector<SwitchFacts> IbSwitchFacts(const IblinkinfoPorts& links, const std::string& source,
                                       const std::vector<IbCountersFile>& counters,
                                       std::vector<SwitchFactsWarning>& fabric_warnings);

// "MF0;leaf01:MQM9790/U1" -> "leaf01"; a description without ';' is the name as it is.
std::string IbSwitchName(const std::string& desc);

}  // namespace railyard
