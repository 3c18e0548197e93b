#include "parse/nic_drivers.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <unordered_map>

#include "parse/key_value.h"
#include "util/csv.h"
#include "util/lines.h"
#include "util/text.h"

namespace railyard {
namespace {

std::string Field(const CsvTable& t, const CsvRow& r, std::string_view name) {
  int c = t.Column(name);
  if (c < 0) throw std::logic_error("data file lacks column " + std::string(name));
  return r.fields[static_cast<size_t>(c)];
}

struct Tables {
  std::vector<NicDriver> drivers;
  std::vector<RealtekChip> chips;
  std::vector<UsbNic> usb;
};

const Tables& Data() {
  static const Tables tables = [] {
    Tables t;
    CsvTable d = ParseCsv(EmbeddedFileText("nic_drivers.csv"), "nic_drivers.csv");
    for (const CsvRow& r : d.rows) {
      NicDriver n{.driver = Field(d, r, "driver"),
                  .bus = Field(d, r, "bus"),
                  .medium = Field(d, r, "medium"),
                  .vendor = Field(d, r, "vendor"),
                  .origin = Field(d, r, "origin"),
                  .vendor_drivers = {},
                  .source = Field(d, r, "source")};
      const std::string vendor_drivers = Field(d, r, "vendor_driver");  // kept alive: SplitWords returns views into it
      for (std::string_view w : SplitWords(vendor_drivers)) n.vendor_drivers.emplace_back(w);
      t.drivers.push_back(std::move(n));
    }
    CsvTable c = ParseCsv(EmbeddedFileText("realtek_chips.csv"), "realtek_chips.csv");
    for (const CsvRow& r : c.rows) {
      t.chips.push_back({.xid = Lower(Field(c, r, "xid")),
                         .chip = Field(c, r, "chip"),
                         .pci_device = Field(c, r, "pci_device"),
                         .speed_mbps = LeadingInt(Field(c, r, "speed_mbps")),
                         .vendor_driver = Field(c, r, "vendor_driver"),
                         .r8169_since = Field(c, r, "r8169_since"),
                         .source = Field(c, r, "source"),
                         .confidence = Field(c, r, "confidence")});
    }
    CsvTable u = ParseCsv(EmbeddedFileText("usb_nics.csv"), "usb_nics.csv");
    for (const CsvRow& r : u.rows) {
      t.usb.push_back({.usb_id = Lower(Field(u, r, "usb_id")),
                       .chip = Field(u, r, "chip"),
                       .usb_generation = LeadingInt(Field(u, r, "usb_generation")),
                       .link_mbps = LeadingInt(Field(u, r, "link_mbps")),
                       .driver = Field(u, r, "driver"),
                       .source = Field(u, r, "source")});
    }
    return t;
  }();
  return tables;
}

}  // namespace

const NicDriver* FindNicDriver(std::string_view driver) {
  // Called for every kernel-log line: a hash lookup, not a scan of the table.
  static const std::unordered_map<std::string_view, const NicDriver*> index = [] {
    std::unordered_map<std::string_view, const NicDriver*> m;
    for (const NicDriver& d : Data().drivers) m.emplace(d.driver, &d);
    return m;
  }();
  auto it = index.find(driver);
  return it == index.end() ? nullptr : it->second;
}

const RealtekChip* RealtekChipByXid(std::string_view xid) {
  std::string key = Lower(TrimSpace(xid));
  if (key.starts_with("0x")) key = key.substr(2);
  for (const RealtekChip& c : Data().chips) {
    if (c.xid == key) return &c;
  }
  return nullptr;
}

std::vector<const RealtekChip*> RealtekChipsByPciDevice(std::string_view vendor_device) {
  std::vector<const RealtekChip*> out;
  std::string key = Lower(vendor_device);
  for (const RealtekChip& c : Data().chips) {
    if (c.pci_device == key) out.push_back(&c);
  }
  return out;
}

const UsbNic* UsbNicById(std::string_view usb_id) {
  std::string key = Lower(TrimSpace(usb_id));
  for (const UsbNic& u : Data().usb) {
    if (u.usb_id == key) return &u;
  }
  return nullptr;
}

}  // namespace railyard
