// `flint -d DEV q`, `mstflint -d BDF q`: the firmware identity of a ConnectX/BlueField adapter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct FirmwareQuery {
  std::string image_type;          // FS3, FS4 ...
  std::string fw_version;          // 28.42.1000
  std::string running_fw_version;  // "FW Version(Running)" / "Running FW Version": shown when a reset is pending, else ""
  std::string fw_release_date;
  std::string product_version;
  std::vector<std::string> rom_info;  // one entry per ROM (UEFI, PXE ...)
  std::string base_guid;              // as printed, without the count ("e09d730300126474")
  int guids = 0;
  std::string orig_base_guid;  // "" when N/A: a differing original hints at a re-flash
  std::string base_mac;
  int macs = 0;
  std::string orig_base_mac;
  std::string psid;
  std::string orig_psid;            // "Orig PSID": the card was cross-flashed to another PSID
  std::string security_attributes;  // "secure-fw", "N/A", "dev" ...
  std::string part_number;          // `q full` only
  std::string description;          // `q full` only
  std::vector<ParseWarning> warnings;
};

// Never throws; fields it cannot find stay empty and are listed in warnings when essential.
FirmwareQuery ParseFlintQuery(std::string_view text);

}  // namespace railyard
