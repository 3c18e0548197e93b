// `lsusb -t` (usbutils' tree: both the old "Bus 02.Port 1: Dev 1" and the 3-digit "Bus 002.Port 001: Dev 001"
// forms, with `-v`'s "ID vvvv:pppp" lines) and plain `lsusb` ("Bus 004 Device 004: ID 0bda:8153 ..."), which
// may be saved in the same file. Each interface of each device is one node with the USB speed its link runs
// at. Never throws.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct UsbTreeNode {
  int bus = 0;
  std::string port_path;  // "1.2": the ports from the root hub down; "" for the root hub itself
  int dev = 0;
  int interface = -1;      // "If 0"; -1 for a root hub
  std::string class_name;  // "Vendor Specific Class", "Hub", "root_hub"
  std::string driver;      // "r8152", "hub/4p", "[none]"
  double speed_mbps = 0;   // 1.5, 12, 480, 5000, 10000, 20000
  std::string usb_id;      // "0bda:8153" when -v or a plain lsusb listing names it
  int line = 0;
  // The kernel's name of the device: "2-1.2" (the root hub: "usb2").
  std::string Device() const { return port_path.empty() ? "usb" + std::to_string(bus) : std::to_string(bus) + "-" + port_path; }
};

struct UsbTree {
  std::vector<UsbTreeNode> nodes;
  std::vector<ParseWarning> warnings;
};

UsbTree ParseLsusbTree(std::string_view text);

}  // namespace railyard
