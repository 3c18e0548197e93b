// Mellanox/NVIDIA tool outputs about adapters and IB ports: `mlxfwmanager --query` and
// `mlxup --query` (text or --query-format xml), `mst status [-v]` and `ibstatus`. Never throw.
// (iblinkinfo has its own file pair: parse/iblinkinfo.)
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct FirmwareVersions {
  std::string current;
  std::string available;  // "" when N/A
};

struct FwManagerDevice {
  std::string device_type;  // ConnectX7
  std::string part_number;  // MCX715105AS-WEAT_Ax
  std::string description;
  std::string psid;
  std::string pci_device_name;  // 0002:01:00.0 or /dev/mst/mt4129_pciconf1
  std::string base_guid;
  std::string base_mac;
  std::vector<std::string> port_macs;                // older tools: "Port1 MAC", "Port2 MAC"
  std::map<std::string, FirmwareVersions> versions;  // FW, "FW (Running)", PXE, UEFI, NVME ...
  std::string status;                                // "Up to date", "Update required", "No matching image found"
};

// The firmware burned in flash ("FW" current) and the one running: "FW (Running)" when the tool shows
// a pending reset, else the same. "" when not shown.
std::string FlashedFirmware(const FwManagerDevice& d);
std::string RunningFirmware(const FwManagerDevice& d);

// `devlink dev info` (text): per PCI function, the driver, serials, and the firmware running and stored.
// A stored fw.version that differs from the running one is a burned image waiting for a reset.
struct DevlinkDevice {
  std::string pci_address;  // "0000:08:00.0" of "pci/0000:08:00.0:"
  std::string driver;
  std::string serial_number;  // from PCI VPD V3 (a UUID on ConnectX)
  std::string board_serial;   // "board.serial_number": the card's SN
  std::string psid;           // fixed fw.psid
  std::string running_fw;     // running fw.version
  std::string stored_fw;      // stored fw.version
  int line = 0;
};
struct DevlinkReport {
  std::vector<DevlinkDevice> devices;
  std::vector<ParseWarning> warnings;
};
DevlinkReport ParseDevlinkDevInfo(std::string_view text);

struct FwManagerReport {
  std::vector<FwManagerDevice> devices;
  std::vector<ParseWarning> warnings;
};

FwManagerReport ParseMlxfwmanager(std::string_view text);  // text or XML, recognised by content

struct MstDevice {
  std::string mst_path;     // /dev/mst/mt4129_pciconf0
  std::string pci_address;  // 0000:05:00.0
  std::string device_type;  // -v: ConnectX7(rev:0)
  std::string rdma;         // -v
  std::string net;          // -v
  int numa = -1;            // -v
};

struct MstStatus {
  bool pci_module_loaded = false;
  bool pciconf_module_loaded = false;
  bool start_failed = false;  // `mst start` output with "Failure" lines
  std::vector<MstDevice> devices;
  std::vector<ParseWarning> warnings;
};

MstStatus ParseMstStatus(std::string_view text);

struct IbstatusPort {
  std::string device;  // mlx5_0
  int port = 0;
  std::string state;       // ACTIVE, DOWN, INIT ...
  std::string phys_state;  // LinkUp, Disabled, Polling ...
  uint32_t rate_gbps = 0;
  std::string rate_detail;  // "4X HDR"
  std::string link_layer;
  std::string base_lid;
  std::string sm_lid;
};

Parsed<IbstatusPort> ParseIbstatus(std::string_view text);

}  // namespace railyard
