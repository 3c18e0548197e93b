// The modules in a switch's cages, as each switch OS prints them. Never throw: what cannot be read is
// a warning with its line. Each port comes back with only the module fields set; the switch facts
// merge them into the status table's ports.
//   Arista EOS `show interfaces transceiver`: legend lines, a two- or three-line column header
//   (Port, Temp, Voltage, Bias Current, Optical Tx Power, Optical Rx Power, Last Update), dashes, then
//   one row per port or lane; N/A where the module has no diagnostics; -30.00 dBm is no light.
//   Its `| json` form: {"interfaces": {"Ethernet49/1": {mediaType, temperature, voltage, txBias,
//   txPower, rxPower, vendorSn, updateTime}}}, {} for an empty cage or a module without DOM.
//   SONiC `show interfaces transceiver presence`: Port / Presence (Present, Not present).
//   SONiC `show interfaces transceiver eeprom [--dom]`: "EthernetN: SFP [EEPROM] detected" or
//   "... Not detected", then indented "Key: value" (older builds "Key : value"): Vendor Name, Vendor
//   PN, Vendor SN, Identifier; with --dom, ChannelMonitorValues (RXnPower: -1.19dBm, TXnBias,
//   TXnPower) and ModuleMonitorValues (Temperature: 30.5C).
#pragma once

#include <string_view>

#include "parse/switch_ports.h"

namespace railyard {

SwitchPortsReport ParseEosTransceiver(std::string_view text);  // text or json, told apart by the first byte
SwitchPortsReport ParseSonicTransceiverPresence(std::string_view text);
SwitchPortsReport ParseSonicTransceiverEeprom(std::string_view text);

// A DOM reading as printed: "-1.1936dBm", "30.5C", "4.0140mA", "-inf", "N/A"; false when there is no number.
bool ParseDomValue(std::string_view text, double& value);

}  // namespace railyard
