// What server and OS a host is: the facts a compatibility matrix is keyed on (server model × BIOS × OS).
// Read from `dmidecode` (the System, BIOS and Base Board blocks; also `grep . /sys/class/dmi/id/*` lines
// in the same file), from the kernel's boot line "DMI: <vendor> <product>/<board>, BIOS <version> <date>"
// (drivers/firmware/dmi_scan.c dmi_format_ids; oops reports print it as "Hardware name: …"), and from
// /etc/os-release. Never throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct SystemIdentity {
  std::string vendor;   // "Dell Inc."           (dmidecode Manufacturer / sys_vendor)
  std::string product;  // "PowerEdge R750"      (Product Name / product_name)
  std::string board;    // "0PJ80M"              (Base Board Product Name / board_name)
  std::string bios_vendor;
  std::string bios_version;  // "1.5.4"
  std::string bios_date;     // "05/05/2021", as printed
  // The kernel prints vendor and product joined by one space and both may hold spaces, so from its
  // line only the joined form is known: "Dell Inc. PowerEdge R750".
  std::string vendor_product;
  std::string from;  // dmidecode | sysfs | kernel-log
  int line = 0;
  bool empty() const { return vendor.empty() && product.empty() && vendor_product.empty() && bios_version.empty(); }
  // Does a model name from a compatibility matrix ("PowerEdge R750", "Dell PowerEdge R750") name this
  // server? Case-insensitive: equal to the product, to vendor + product, or the end of the kernel's joined form.
  bool IsModel(std::string_view model) const;
  // "Dell Inc. PowerEdge R750" whichever way it was read.
  std::string Model() const;
};

struct SystemIdentityParse {
  SystemIdentity system;
  std::vector<ParseWarning> warnings;
};

// dmidecode (whole, or -t system -t bios -t baseboard, or grep'd "Product Name:" lines) and
// `grep . /sys/class/dmi/id/*` lines. Placeholders ("Not Specified", "To Be Filled By O.E.M.",
// "Default string", "System Product Name") count as unset, with a warning naming the line.
SystemIdentityParse ParseDmidecode(std::string_view text);

// One kernel log line ("[    0.000000] DMI: Supermicro SYS-7049A-T/X11DAi-N, BIOS 3.2 11/13/2019"), or nullopt.
std::optional<SystemIdentity> ParseKernelDmiLine(std::string_view line);

struct OsRelease {
  std::string id;          // "ubuntu", "rhel", "rocky"
  std::string version_id;  // "22.04", "9.4"
  std::string pretty_name;
  int line = 0;
  bool empty() const { return id.empty(); }
  // A matrix entry "ubuntu 22.04" / "rhel 9" / "rocky": the id, and the version as a dotted prefix.
  bool Matches(std::string_view entry) const;
};

struct OsReleaseParse {
  OsRelease os;
  std::vector<ParseWarning> warnings;
};

// /etc/os-release (KEY=value, values optionally quoted).
OsReleaseParse ParseOsRelease(std::string_view text);

}  // namespace railyard
