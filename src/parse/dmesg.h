// Kernel messages of the network drivers (Mellanox/NVIDIA mlx4/mlx5, and every NIC, Wi-Fi, USB-Ethernet and
// RDMA driver in data/catalog/nic_drivers.csv), of the PCI core about NVIDIA functions, and of the USB core
// about how a device enumerated, classified into the events the doctor acts on. Never throws.
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
  kFirmwareVersion,        // "firmware version: 28.39.1002"
  kPcieBandwidth,          // "63.008 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x8 link)"
  kPcieBandwidthLimited,   // "... available PCIe bandwidth, limited by 8 GT/s x8 link at ... (capable of ...)"
  kProbeFailed,            // "probe of 0000:03:00.0 failed with error -22"
  kLoadFailed,             // "mlx5_load_one failed with error code -22"
  kFirmwareTimeout,        // "Firmware over 120000 MS in pre-initializing state, aborting"
  kSriovFailed,            // "pci_enable_sriov failed : -5"
  kUnknownHeaderType,      // "unknown header type 7f, ignoring device"
  kCableEvent,             // "Port module event: module 0, Cable plugged"
  kLinkEvent,              // "Link up" / "Link down" (values: state, netdev when the line names one)
  kFirmwareHealth,         // "device's health compromised", "Health issue observed, firmware internal error",
                           // "Fatal error 1 detected", "system error event triggered", "FW internal error"
  kSlotPowerInsufficient,  // "Detected insufficient power on the PCIe slot (27W)."
  kPcieError,              // AER / DPC: "PCIe Bus Error: severity=Uncorrected (Non-Fatal)", "AER: Corrected error received"
  kFirmwareMissing,        // "Direct firmware load for rtl_nic/rtl8125b-2.fw failed with error -2", Debian's
                           // "firmware: failed to load F (-2)", r8169's "Unable to load firmware F (-2)", r8152's
                           // "unable to load firmware patch F (-2)", iwlwifi's "request for firmware file 'F' failed."
                           // (values: file, error)
  kNoSuitableFirmware,     // iwlwifi "no suitable firmware found!" (the driver gives up: no Wi-Fi)
  kFirmwareLoaded,         // iwlwifi "loaded firmware version 77.bd067429.0 cc-a0-77.ucode op_mode iwlmvm",
                           // "firmware: direct-loading firmware F" (values: version, file)
  kUnknownChip,            // r8169 "unknown chip XID 688, contact r8169 maintainers" (values: xid)
  kChipTimeout,            // Realtek "rtl_chipcmd_cond == 1 (loop: 100, delay: 100)." (values: condition)
  kTxTimeout,              // "NETDEV WATCHDOG: eth2 (r8125): transmit queue 0 timed out", and the newer
                           // "r8125 0000:22:04.0 eth4: NETDEV WATCHDOG: CPU: 3: transmit queue 0 timed out 5010 ms"
  kUsbEnumerated,          // "new high-speed USB device number 3 using xhci_hcd", "reset SuperSpeed USB device ..."
                           // (values: speed as printed, mbps, hcd, reset)
  kUsbBelowTopSpeed,       // "not running at top speed" (the device could run faster on another port/hub/cable)
  kUsbDeviceId,            // "New USB device found, idVendor=0bda, idProduct=8156" (values: usb_id)
  kSymbolMismatch,         // "<module>: disagrees about version of symbol ib_register_peer_memory_client",
                           // "<module>: Unknown symbol __ib_alloc_pd (err -22)": a module built against another
                           // kernel's or another OFED's RDMA symbols (kept for RDMA/NIC symbols from any module)
};

std::string_view ToString(KernelEventKind kind);
std::optional<KernelEventKind> KernelEventKindFromString(std::string_view name);

struct KernelEvent {
  double timestamp = -1;  // seconds since boot, -1 when absent
  std::string time;       // wall-clock time as the log printed it (dmesg -T, journalctl, syslog), "" when absent
  std::string driver;     // mlx5_core, mlx4_core, pci, r8169, iwlwifi, usb ...
  std::string device;     // PCI address, or USB device ("2-1.1") / interface ("2-1.1:2.0")
  KernelEventKind kind = KernelEventKind::kOther;
  std::string message;
  std::map<std::string, std::string> values;  // e.g. available_gbps, capable_gbps, error
  int line = 0;
};

struct KernelLog {
  std::vector<KernelEvent> events;  // network drivers' lines, NVIDIA functions' PCI core lines, USB enumeration
  int kernel_lines = 0;             // lines of a kernel-log shape, whoever wrote them
  std::vector<ParseWarning> warnings;
};

// Reads the kernel log in every form it is saved in: `dmesg` (with or without `<level>` prefixes),
// `dmesg -T`, `journalctl -k` (short, short-iso, short-precise), and syslog files
// (/var/log/messages, kern.log: "Mmm dd hh:mm:ss host kernel: ..."). A text with no line of any of
// these shapes gets a warning: it is not a kernel log, and saying nothing would read as "no events".
// A serial-console capture's own prefix before the kernel's "[   11.72] " is skipped.
KernelLog ParseDmesg(std::string_view text);

}  // namespace railyard
