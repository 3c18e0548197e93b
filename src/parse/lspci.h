// `lspci -vvv` and `lspci -vvvnn`: PCI functions with their PCIe link capability and status,
// NUMA node, driver, and Vital Product Data (the card's own PN/SN/EC/V0-V3/VA/VU and the RV
// checksum verdict). Functions of any vendor are kept; callers filter. Never throws.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct PcieLink {
  double speed_gts = 0;           // 2.5, 5, 8, 16, 32, 64; 0 = unknown or not printed
  bool speed_unknown = false;     // lspci printed "Speed unknown"
  int width = 0;                  // lanes
  bool speed_downgraded = false;  // LnkSta "(downgraded)" (lspci 3.6+)
  bool width_downgraded = false;
};

// PCIe generation of a link speed in GT/s (8 -> 3, 32 -> 5), 0 if unknown.
int PcieGeneration(double speed_gts);

struct PciFunction {
  std::string bdf;          // "19:00.0" or "0000:19:00.0" as printed ("" for a headerless excerpt)
  std::string class_name;   // "Infiniband controller"
  std::string description;  // "Mellanox Technologies MT2910 Family [ConnectX-7]"
  std::string vendor_id;    // "15b3" with -nn, else ""
  std::string device_id;    // "1021" with -nn, else ""
  std::string subsystem;
  std::string driver;                       // "Kernel driver in use"
  std::vector<std::string> kernel_modules;  // "Kernel modules: r8169, r8125" (-k): the drivers that could bind it
  int numa_node = -1;
  PcieLink cap;              // LnkCap
  PcieLink sta;              // LnkSta
  std::string aspm;          // LnkCtl: "Disabled", "L1 Enabled", "L0s L1 Enabled"; "" when not printed
  int sriov_total_vfs = -1;  // SR-IOV capability: "Total VFs: 63, Number of VFs: 0"; -1 = no capability shown
  int sriov_num_vfs = -1;
  bool has_vpd = false;
  std::string vpd_product_name;
  std::map<std::string, std::string> vpd;  // keyword (PN, EC, SN, V0 ...) -> value, trimmed
  enum class VpdChecksum { kNone, kGood, kBad } vpd_checksum = VpdChecksum::kNone;
  int line = 0;
};

struct LspciReport {
  std::vector<PciFunction> functions;
  std::vector<ParseWarning> warnings;
};

LspciReport ParseLspci(std::string_view text);

}  // namespace railyard
