// `mlxlink -d DEV [-m] [-c] [-e]`: port state, speed, FEC, the troubleshooting verdict, BER
// counters and module data. A capture may hold several ports, each introduced by a
// "====== mlx5_0 ... ======" banner (as fleet scripts print them). Never throws.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct MlxlinkPort {
  std::string device;  // from the banner, "" without one
  std::string state;   // Active, Polling, Disable ...
  std::string physical_state;
  std::string speed;  // "100G", "HDR" ...
  std::string width;  // "4x"
  std::string fec;
  // "Enabled Link Speed [(Ext.)]" and "Supported Cable Speed [(Ext.)]": the speed names in the
  // parentheses ("200G_2X", "100G_4X", "40G"; IB: "HDR", "EDR" ...), as printed.
  std::vector<std::string> enabled_speeds;
  std::vector<std::string> cable_speeds;
  std::optional<int> status_opcode;  // Troubleshooting Info
  std::string recommendation;
  std::string firmware_version;
  std::optional<double> raw_ber;
  std::optional<double> effective_ber;
  std::optional<double> symbol_ber;
  std::optional<uint64_t> symbol_errors;
  std::optional<uint64_t> effective_errors;
  std::vector<uint64_t> raw_errors_per_lane;
  std::optional<uint64_t> link_down_counter;
  std::optional<uint64_t> link_error_recovery;
  std::optional<double> module_temperature_c;  // unset for "N/A" and for a sensorless "0 [0..0]"
  std::string module_vendor, module_part_number, module_serial;
  std::string cable_length;  // with its unit: "3m" ("Cable Length") or "1 m" ("Transfer Distance [m]")
  std::string module_oui;    // as mlxlink names it: "Nvidia", "Mellanox", "Other" (or hex on older MFT)
  std::string cable_type;    // "Passive copper cable", "Active copper cable", "Active optical cable", "Optical Module"
  std::vector<int> rx_los, rx_cdr_lol, tx_fault;  // "[per lane]" flags, 1 = set; empty when "N/A" or not printed
  std::map<std::string, std::string> fields;      // every "key : value" as printed, last one wins
};

struct MlxlinkReport {
  std::vector<MlxlinkPort> ports;
  std::vector<ParseWarning> warnings;
};

MlxlinkReport ParseMlxlink(std::string_view text);

// Where a port's operational speed stands against the fastest speed both the port ("Enabled Link
// Speed") and the cable ("Supported Cable Speed") allow. InfiniBand speeds compare by generation
// (SDR < DDR < QDR < FDR10 < FDR < EDR < HDR < NDR < XDR), Ethernet ones by Gb/s.
struct SpeedHeadroom {
  bool infiniband = false;
  double now = 0;         // 0 = unknown
  double best = 0;        // 0 = the capability lists are missing
  std::string best_name;  // "200G", "NDR"
};
SpeedHeadroom MlxlinkSpeedHeadroom(const MlxlinkPort& port);
// Per-lane signalling rate in Gb/s: "100G" over "4x" is 25; IB names by table (HDR 50, NDR 100).
double MlxlinkLaneGbps(const MlxlinkPort& port);

}  // namespace railyard
