// Who made a card or module, from the identities it reports: PCI device IDs and firmware majors
// per ConnectX/BlueField family, MAC OUI owners, PSID prefixes. The doctor and the inventory
// ledger's authenticity checks read these; the data lives in data/catalog/{families,ouis,
// psid_prefixes}.csv with sources and confidence, embedded in the binary.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard {

struct DeviceFamily {
  std::string family;         // "ConnectX-7"
  std::string pci_device_id;  // "1021" (lower-case hex, no 0x)
  std::string vf_device_id;
  std::vector<std::string> recovery_device_ids;  // Flash-Recovery ("livefish") IDs
  int fw_major = 0;                              // 28
  std::string mst_device;                        // "mt4129"
  std::string source;
  std::string confidence;  // H | M | L
};

struct OuiOwner {
  std::string oui;  // "08:c0:eb"
  std::string organisation;
  std::string kind;  // mellanox | nvidia | oem
  std::string source;
  std::string confidence;
};

struct PsidIssuer {
  std::string prefix;  // "MT_", "DEL"
  std::string vendor;
  std::string kind;  // retail | dgx | oem
  std::string source;
  std::string confidence;
};

class IdentityCatalog {
 public:
  static const IdentityCatalog& Builtin();
  // Throws InputError naming the file, line and column on bad data.
  static IdentityCatalog FromCsv(std::string_view families_csv, std::string_view ouis_csv, std::string_view psid_csv);

  // "1021", "0x1021", "15b3:1021" all name ConnectX-7's physical function.
  const DeviceFamily* FamilyByDeviceId(std::string_view device_id) const;
  // The family whose Flash-Recovery ID this is, or nullptr.
  const DeviceFamily* FamilyByRecoveryId(std::string_view device_id) const;
  // Exact family name, ignoring case ("connectx-7").
  const DeviceFamily* FamilyByName(std::string_view name) const;
  // The owner of a MAC ("08:c0:eb:e1:4b:94", "08c0ebe14b94") or a GUID ("0x08c0eb0300e14b94")
  // by its first three bytes; nullptr when unknown.
  const OuiOwner* OwnerOf(std::string_view mac_or_guid) const;
  // The issuer of a PSID by its prefix; nullptr for a prefix railyard does not know.
  const PsidIssuer* IssuerOf(std::string_view psid) const;

  const std::vector<DeviceFamily>& families() const { return families_; }

 private:
  std::vector<DeviceFamily> families_;
  std::vector<OuiOwner> ouis_;
  std::vector<PsidIssuer> psid_issuers_;
};

// Normalises a PCI device ID to four lower-case hex digits: "0x1021" -> "1021"; "" when not hex.
std::string NormalizeDeviceId(std::string_view id);
// The first three bytes of a MAC or GUID as "aa:bb:cc"; "" when it has fewer than six hex digits.
std::string OuiOf(std::string_view mac_or_guid);
// Lower-case hex digits only: "08:C0:EB:E1:4B:94" -> "08c0ebe14b94"; "0x" prefix dropped.
std::string HexDigits(std::string_view text);
// "28.39.1002" -> 28; nullopt when the version does not start with a number and a dot.
std::optional<int> FirmwareMajor(std::string_view version);

}  // namespace railyard
