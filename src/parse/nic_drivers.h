// The network drivers and chips railyard knows beyond ConnectX: which kernel drivers drive a NIC, Wi-Fi or
// RDMA device (so their kernel-log lines are kept), Realtek's PCIe chips by the XID r8169 prints, and USB
// Ethernet adapters by USB id. Data in data/catalog/{nic_drivers,realtek_chips,usb_nics}.csv, embedded,
// with sources. Lives beside the parsers because the kernel-log grammar needs it to know whose lines to keep.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace railyard {

struct NicDriver {
  std::string driver;  // "r8169"
  std::string bus;     // pci | usb | virtual
  std::string medium;  // ethernet | wifi | rdma
  std::string vendor;
  std::string origin;                       // inbox | vendor
  std::vector<std::string> vendor_drivers;  // r8169 -> r8125 r8126 r8168
  std::string source;
};

struct RealtekChip {
  std::string xid;         // "641" (lower-case hex, as r8169 prints it)
  std::string chip;        // "RTL8125B"
  std::string pci_device;  // "10ec:8125"
  int speed_mbps = 0;
  std::string vendor_driver;  // "r8125"
  std::string r8169_since;    // "5.9", "" when not researched
  std::string source;
  std::string confidence;
};

struct UsbNic {
  std::string usb_id;  // "0bda:8156"
  std::string chip;
  int usb_generation = 0;  // 2 or 3
  int link_mbps = 0;
  std::string driver;
  std::string source;
};

// nullptr when the driver is not a known network driver. Names are matched exactly ("mlx5_core").
const NicDriver* FindNicDriver(std::string_view driver);
// By XID ("641", "0x641", "641 " ignoring case); nullptr when unknown.
const RealtekChip* RealtekChipByXid(std::string_view xid);
// Every chip railyard knows for a PCI device id ("10ec:8125").
std::vector<const RealtekChip*> RealtekChipsByPciDevice(std::string_view vendor_device);
// By "vvvv:pppp" (either case); nullptr when unknown.
const UsbNic* UsbNicById(std::string_view usb_id);

}  // namespace railyard
