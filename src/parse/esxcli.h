// VMware ESXi's esxcli (and localcli, its same-output twin): `network nic list` (the shell table, or PowerCLI
// Get-EsxCli -V2's "Key : Value" records), `network nic get -n vmnicN`, `software vib list` and `hardware pci
// list`. Never throw; lines that are not the command's output (prompts, pasted commands) are warnings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct EsxiNic {
  std::string name;          // vmnic0
  std::string pci;           // 0000:18:00.0
  std::string driver;        // ixgben, nmlx5_core, ntg3 ...
  std::string admin_status;  // Up | Down
  std::string link_status;   // Up | Down
  uint32_t speed_mbps = 0;   // 0 when the link is down ("Down 0 Half")
  std::string duplex;
  std::string mac;
  uint32_t mtu = 0;
  std::string description;
  int line = 0;
};

struct EsxiNicDetail {  // esxcli network nic get -n vmnicN
  std::string name;
  std::vector<std::string> advertised_link_modes;  // "1000BaseT/Full" ("Auto" dropped)
  std::string link_status;
  std::string driver;          // Driver Info: Driver
  std::string driver_version;  // Driver Info: Version
  std::string firmware_version;
  std::string bus_info;  // "0000:04:00:0" (ESXi puts ':' before the function)
  std::vector<ParseWarning> warnings;
};

struct EsxiVib {
  std::string name, version, vendor, acceptance, install_date;
  int line = 0;
};

struct EsxiPciDevice {
  std::string address;        // 0000:18:00.0 ("" when the excerpt starts below it)
  std::string vmkernel_name;  // vmnic0 ("" for a device the VMkernel gave no name)
  std::string vendor_id;      // "8086" (lower case, no 0x)
  std::string device_id;
  std::string device_class;  // "0200"
  std::string class_name;    // Ethernet controller
  std::string vendor_name, device_name;
  std::string module_name;  // the driver; "" when "None"
  int line = 0;
};

Parsed<EsxiNic> ParseEsxcliNicList(std::string_view text);
EsxiNicDetail ParseEsxcliNicGet(std::string_view text);
// `complete` is false when the list has no header (a `| grep` of it): absence proves nothing then.
struct EsxiVibList : Parsed<EsxiVib> {
  bool complete = true;
};
EsxiVibList ParseEsxcliVibList(std::string_view text);
Parsed<EsxiPciDevice> ParseEsxcliPciList(std::string_view text);

}  // namespace railyard
