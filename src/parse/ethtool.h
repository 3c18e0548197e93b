// `ethtool IF` (link settings) and `ethtool -i IF` (driver and firmware). Never throw.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct EthtoolSettings {
  std::string interface;    // from "Settings for X:"
  uint32_t speed_mbps = 0;  // 0 = unknown ("Unknown!") or absent
  std::string duplex;       // Full / Half / Unknown! / ""
  std::string port;         // "Direct Attach Copper", "FIBRE", "Other" ...
  std::optional<bool> link_detected;
  std::string link_detected_reason;  // mlx5: "no (Link training failure, Remote side is not ready yet)"
  std::optional<bool> autoneg;
  int lanes = 0;
  std::vector<std::string> supported_link_modes;
  std::vector<std::string> advertised_link_modes;
  std::vector<std::string> partner_link_modes;  // "Link partner advertised link modes"
  std::vector<std::string> supported_fec_modes;
  std::vector<std::string> advertised_fec_modes;
  std::vector<ParseWarning> warnings;
};

struct EthtoolDriver {
  std::string driver;  // mlx5_core
  std::string version;
  std::string firmware_version;  // "28.42.1000" (the PSID in parentheses split off)
  std::string firmware_psid;     // "MT_0000000834"
  std::string bus_info;          // PCI address
  std::vector<ParseWarning> warnings;
};

EthtoolSettings ParseEthtoolSettings(std::string_view text);
EthtoolDriver ParseEthtoolDriver(std::string_view text);

// Where a driver version printed by `ethtool -i` comes from: "inbox" for a kernel release
// ("6.5.0-14-generic", "5.11.0-net-next-…", the old in-tree "5.0-0"), "out-of-tree" for MLNX_OFED or
// DOCA-OFED ("5.5-1.0.3", "24.10-3.2.5": the two share one numbering, so ofed_info -s tells them apart),
// "" when the form is unknown.
std::string DriverOrigin(std::string_view version);

}  // namespace railyard
