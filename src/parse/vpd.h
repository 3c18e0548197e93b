// PCI Vital Product Data as the kernel exposes it in /sys/bus/pci/devices/<bdf>/vpd: resource
// tags 0x82 (identifier string), 0x90 (read-only fields, ending in RV whose checksum byte makes
// the sum of every byte from the start through it zero), 0x91 (read-write fields), 0x78 (end).
// A wrong checksum, a bad tag or a truncated field is reported, never thrown.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct BinaryVpd {
  std::string product_name;                       // the 0x82 identifier string
  std::map<std::string, std::string> read_only;   // PN, EC, SN, V0.. (RV not included)
  std::map<std::string, std::string> read_write;  // V1, YA ...
  bool has_rv = false;
  bool checksum_ok = false;  // sum of bytes [0 .. RV checksum byte] == 0 (mod 256)
  uint8_t checksum_sum = 0;  // that sum, for the evidence
  bool has_end = false;
  std::vector<ParseWarning> warnings;  // "line" = byte offset
};

BinaryVpd ParseBinaryVpd(std::string_view bytes);

// `mstvpd DEV` / `mlxvpd` text: "ID:      <product name>" then "KEY:     value" per read-only keyword
// (PN, EC, V2, SN, V3, VA, V0 ...). No checksum is printed: has_rv stays false. Lines of another shape
// are warnings with their line numbers.
BinaryVpd ParseMstvpd(std::string_view text);

// An OEM-branded card (Lenovo, HPE, Dell ...): its VA keyword starts with the OEM's map ("LNV:MODL=…",
// "HP:V2=MFG:…") instead of NVIDIA's "MLX:"; PN holds the OEM's FRU number, and MODL (where present) the
// NVIDIA model ("MCX750500B-0D00", or "CX4121A-ACAT" without its leading M).
struct VpdIdentity {
  std::string oem;    // "Lenovo", "HPE" ... ; "" for an NVIDIA-branded card
  std::string model;  // the NVIDIA OPN from MODL, "M" restored; "" when not given
  std::string part;   // the PN keyword as printed (trimmed)
};
VpdIdentity IdentityOf(const std::map<std::string, std::string>& read_only);

}  // namespace railyard
