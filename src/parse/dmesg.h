// Kernel messages of the Mellanox/NVIDIA drivers (mlx5_core, mlx4_core, and the PCI core about
// their functions), classified into the events the doctor acts on. Never throws.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

enum class KernelEventKind {
  kOther,
  kFirmwareVersion,         // "firmware version: 28.39.1002"
  kPcieBandwidth,           // "63.008 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x8 link)"
  kPcieBandwidthLimited,    // "... available PCIe bandwidth, limited by 8 GT/s x8 link at ... (capable of ...)"
  kProbeFailed,             // "probe of 0000:03:00.0 failed with error -22"
  kLoadFailed,              // "mlx5_load_one failed with error code -22"
  kFirmwareTimeout,         // "Firmware over 120000 MS in pre-initializing state, aborting"
  kSriovFailed,             // "pci_enable_sriov failed : -5"
  kUnknownHeaderType,       // "unknown header type 7f, ignoring device"
  kCableEvent,              // "Port module event: module 0, Cable plugged"
  kLinkEvent,               // "Link up" / "Link down" (values: state, netdev when the line names one)
  kFirmwareHealth,          // "device's health compromised", "Health issue observed, firmware internal error",
                            // "Fatal error 1 detected", "system error event triggered", "FW internal error"
  kSlotPowerInsufficient,   // "Detected insufficient power on the PCIe slot (27W)."
  kPcieError,               // AER / DPC: "PCIe Bus Error: severity=Uncorrected (Non-Fatal)", "AER: Corrected error received"
};

std::string_view ToString(KernelEventKind kind);
std::optional<KernelEventKind> KernelEventKindFromString(std::string_view name);

struct KernelEvent {
  double timestamp = -1;    // seconds since boot, -1 when absent
  std::string time;         // wall-clock time as the log printed it (dmesg -T, journalctl, syslog), "" when absent
  std::string driver;       // mlx5_core, mlx4_core, pci
  std::string device;       // PCI address
  KernelEventKind kind = KernelEventKind::kOther;
  std::string message;
  std::map<std::string, std::string> values;  // e.g. available_gbps, capable_gbps, error
  int line = 0;
};

struct KernelLog {
  std::vector<KernelEvent> events;    // mlx4/mlx5/pci/pcieport lines only
  int kernel_lines = 0;               // lines of a kernel-log shape, whoever wrote them
  std::vector<ParseWarning> warnings;
};

// Reads the kernel log in every form it is saved in: `dmesg` (with or without `<level>` prefixes),
// `dmesg -T`, `journalctl -k` (short, short-iso, short-precise), and syslog files
// (/var/log/messages, kern.log: "Mmm dd hh:mm:ss host kernel: ..."). A text with no line of any of
// these shapes gets a warning: it is not a kernel log, and saying nothing would read as "no events".
KernelLog ParseDmesg(std::string_view text);

}  // namespace railyard
