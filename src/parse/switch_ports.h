// Switch port tables, as each switch OS prints them. Never throw: what cannot be read is a warning
// with its line.
//   Arista EOS `show interfaces status`: fixed columns under a header (Port Name Status Vlan Duplex
//   Speed Type Flags Encapsulation), a Name may hold spaces, the Vlan "in Po100", the Type "Not
//   Present"; so cells are cut at the header's column starts. Speed "a-25G" is negotiated.
//   Its `| json` form too (told apart by the first byte): interfaceStatuses -> linkStatus, bandwidth,
//   duplex, interfaceType, vlanInformation; the errdisabled form's status and causes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"
#include "parse/switch_qos.h"

namespace railyard {

struct SwitchPortFacts {
  std::string name;         // as the switch names it: Ethernet1/1, Et1, swp1, Ethernet0
  std::string description;  // the port's name/description
  std::string admin;        // up | down | "" (not said)
  std::string oper;         // up | down | "" (not said)
  std::string status;       // the switch's own word: connected, notconnect, errdisabled, disabled, ...
  std::string reason;       // why it is down or disabled, where the switch says (xcvr-unsupported, ...)
  double speed_gbps = 0;    // 0 = not said (or auto without a link)
  bool speed_auto = false;  // negotiated ("a-25G", "auto")
  std::string duplex;       // full | half | ""
  std::string fec;          // rs | fc | none | auto | "" (as the switch calls it, lower case)
  uint32_t mtu = 0;
  std::string vlan_mode;      // access | trunk | routed | member (of a port-channel) | ""
  int access_vlan = 0;        // the untagged VLAN of an access port, 0 = none
  std::string member_of;      // the port-channel it is in ("Po100")
  std::string allowed_vlans;  // a trunk's allowed VLANs as the switch prints them: "ALL", "NONE", "13-14,200"; "" = not read
  int native_vlan = 0;        // a trunk's untagged VLAN, 0 = not read
  std::map<std::string, uint64_t> errors;  // error counters as read: fcs, align, symbol, rx, runts, giants, tx
  std::string errors_source;               // where they were read ("file:line"), when another output than the port's
  std::string peer;                        // the far end as the switch sees it (InfiniBand: "dgx001 mlx5_0 port 1")
  std::string could_be;                    // InfiniBand: what both ends support when the link runs below it ("4X, 106.25 Gbps")
  std::string module_type;                 // 25GBASE-SR, Not Present, ...
  bool module_present = true;
  std::string module_vendor, module_pn, module_serial;  // the module's EEPROM, where an output gives it
  // Digital diagnostics (DOM), where read: the lowest lane's power (a dark lane is what matters).
  double module_temp_c = 0, rx_power_dbm = 0, tx_power_dbm = 0, tx_bias_ma = 0;
  bool has_rx_power = false, has_tx_power = false, has_tx_bias = false, has_temp = false;
  std::string module_source;     // where the module was read ("file:line"), when another output than the port's
  std::optional<SwitchQos> qos;  // the port's own RoCE QoS (EOS show qos interfaces), when read
  int line = 0;                  // where in its source file
  std::string source;            // that file
};

struct SwitchPortsReport {
  std::vector<SwitchPortFacts> ports;
  std::vector<ParseWarning> warnings;
};

SwitchPortsReport ParseEosInterfacesStatus(std::string_view text);
// SONiC `show interfaces status`: a tabulate table whose column spans are the dashes row's runs;
// columns found by header name (older builds have no FEC or Vlan); values right-aligned, Type may
// hold spaces ("QSFP-DD Double Density 8X Pluggable Transceiver"), N/A where unknown.
SwitchPortsReport ParseSonicInterfacesStatus(std::string_view text);
// Cumulus NVUE `nv show interface -o json`: interface name -> {type, link: {state: {up: {}} or
// admin-status/oper-status, speed "100G", mtu, fec, auto-negotiate, duplex, protodown...}}; the swp
// (switch) ports only.
SwitchPortsReport ParseNvueInterfaceJson(std::string_view json);

// Arista EOS `show interfaces switchport` (the "Name: Et1" blocks) or its `| json` form
// ({"switchports": {"Ethernet1": {"switchportInfo": {mode, accessVlanId, trunkAllowedVlans,
// trunkingNativeVlanId}}}}): each port's VLAN mode, access VLAN, allowed and native VLANs.
SwitchPortsReport ParseEosSwitchport(std::string_view text);

// SONiC `show vlan brief`: a grid table (+---+ borders, === under the header) whose columns change
// between releases (found by name); a row with an empty VLAN ID continues the VLAN above, one port
// per row with its tagging. Each port comes back with its VLANs: tagged ones as a trunk's allowed
// list, an untagged one as the access (or, beside tagged ones, native) VLAN. Without a Port Tagging
// column (2018 layout) the membership is a warning: railyard does not guess tagged or untagged.
SwitchPortsReport ParseSonicVlanBrief(std::string_view text);

// Arista EOS `show interfaces counters errors` (Port FCS Align Symbol Rx Runts Giants Tx) or its
// `| json` form (interfaceErrorCounters -> fcsErrors, alignmentErrors, symbolErrors, inErrors,
// frameTooShorts, frameTooLongs, outErrors): each port's error counters, as `errors`.
SwitchPortsReport ParseEosCountersErrors(std::string_view text);

// SONiC `show interfaces counters [errors | fec-stats]` (portstat): a tabulate table whose columns are
// found by name (RX_ERR, RX_DRP, RX_OVR, TX_ERR, TX_DRP, TX_OVR; FEC_CORR, FEC_UNCORR,
// FEC_SYMBOL_ERR), counts with thousands separators, N/A where the ASIC has none, and cells that hold
// spaces ("653.87 MB/s"). Each port's counters, as `errors`: rx, tx, rx_drop, tx_drop, rx_overrun,
// tx_overrun, fec_corrected, fec_uncorrected, fec_symbol. Several tables in one file (the command run
// twice, "Last cached time" banners between) are read in turn.
SwitchPortsReport ParseSonicCounters(std::string_view text);

// Whether a VLAN list as switches print it ("ALL", "NONE", "1-4094", "13-14,200") holds `vlan`;
// nullopt when the list cannot be read.
std::optional<bool> VlanListHas(std::string_view list, int vlan);

// "25G" -> 25, "100M" -> 0.1, "a-10G" -> 10 (auto), "auto" -> 0 (auto); false when not a speed.
bool ParseSwitchSpeed(std::string_view text, double& gbps, bool& negotiated);

}  // namespace railyard
