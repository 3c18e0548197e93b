// `ethtool -m IF` (module EEPROM: SFF-8472, SFF-8636, CMIS) and `ethtool -S IF` (driver
// counters). Never throw.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct ModuleInfo {
  bool readable = false;   // false: "netlink error", "Cannot get module EEPROM" ...
  std::string identifier;  // "0x18 (QSFP-DD ...)"
  std::string connector;
  std::string transmitter_technology;
  std::string vendor_name;  // trimmed
  std::string vendor_oui;   // "00:02:c9"
  std::string vendor_pn;
  std::string vendor_rev;
  std::string vendor_sn;
  std::string date_code;
  std::optional<double> temperature_c;
  std::optional<double> voltage_v;
  std::optional<double> cable_length_m;  // "Cable assembly length", in metres
  std::vector<std::string> transceiver_types;
  std::map<std::string, std::string> lengths;  // "Length (OM3)" -> "0m"
  std::vector<std::string> alarms_on;          // "... alarm/warning : On" lines
  std::map<std::string, std::string> fields;   // every line, last wins
  std::vector<ParseWarning> warnings;
};

ModuleInfo ParseEthtoolModule(std::string_view text);

// The module's per-lane readings, from the lines ethtool -m prints (kept in ModuleInfo::fields):
// "Laser tx bias current (Channel N)", "Transmit avg optical power (Channel N)", "Rcvr signal avg
// optical power(Channel N)", and the CMIS "Rx/Tx loss of signal/lock : [ Yes, No, … ]" lists.
struct ModuleLanes {
  std::vector<std::optional<double>> tx_bias_ma;    // index = channel - 1; nullopt where not printed
  std::vector<std::optional<double>> tx_power_dbm;  // "-inf dBm" (0 mW) reads as kNoLightDbm
  std::vector<std::optional<double>> rx_power_dbm;
  std::vector<bool> rx_los, tx_los, rx_lol, tx_lol;  // empty when "None" or not printed
  std::string module_state;                          // CMIS "Module State": "0x03 (ModuleReady)", "(ModuleLowPwr)"
};
inline constexpr double kNoLightDbm = -40.0;  // 0.0001 mW, the floor ethtool prints for a dark lane
ModuleLanes LanesOf(const ModuleInfo& module);

struct NicCounters {
  std::map<std::string, uint64_t> values;  // rx_out_of_buffer -> 990473555
  std::vector<ParseWarning> warnings;

  uint64_t Get(const std::string& name) const {
    auto it = values.find(name);
    return it == values.end() ? 0 : it->second;
  }
};

NicCounters ParseEthtoolStats(std::string_view text);

}  // namespace railyard
