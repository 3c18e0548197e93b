#include "catalog/identity.h"
#include "util/input_error.h"
#include "util/text.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

#include "util/csv.h"

namespace railyard {
namespace {

bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Column access with errors naming file, line and column.
struct Row {
  const CsvTable& table;
  const CsvRow& row;
  std::string_view source;
  const std::string& operator[](std::string_view column) const {
    int i = table.Column(column);
    if (i < 0) throw InputError(std::string(source), 1, 0, "", fmt::format("no column '{}' in the header", column));
    return row.fields[static_cast<size_t>(i)];
  }
  [[noreturn]] void Fail(std::string_view column, std::string_view why) const {
    throw InputError(std::string(source), row.line, 0, std::string(column), std::string(why));
  }
};

}  // namespace

std::string HexDigits(std::string_view text) {
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  std::string out;
  for (char c : text) {
    if (std::isxdigit(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string NormalizeDeviceId(std::string_view id) {
  if (size_t colon = id.find(':'); colon != std::string_view::npos) id = id.substr(colon + 1);  // "15b3:1021"
  if (id.starts_with("0x") || id.starts_with("0X")) id.remove_prefix(2);
  if (id.empty() || id.size() > 4) return "";
  for (char c : id) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return "";
  }
  std::string out = Lower(id);
  return std::string(4 - out.size(), '0') + out;
}

std::string OuiOf(std::string_view mac_or_guid) {
  std::string hex = HexDigits(mac_or_guid);
  if (hex.size() < 6) return "";
  return fmt::format("{}:{}:{}", hex.substr(0, 2), hex.substr(2, 2), hex.substr(4, 2));
}

std::optional<int> FirmwareMajor(std::string_view version) {
  int major = 0;
  auto [end, ec] = std::from_chars(version.data(), version.data() + version.size(), major);
  if (ec != std::errc() || end == version.data() + version.size() || *end != '.') return std::nullopt;
  return major;
}

IdentityCatalog IdentityCatalog::FromCsv(std::string_view families_csv, std::string_view ouis_csv, std::string_view psid_csv) {
  IdentityCatalog c;
  CsvTable families = ParseCsv(families_csv, "families.csv");
  for (const CsvRow& r : families.rows) {
    Row row{families, r, "families.csv"};
    DeviceFamily f;
    f.family = row["family"];
    f.pci_device_id = NormalizeDeviceId(row["pci_device_id"]);
    if (f.pci_device_id.empty()) row.Fail("pci_device_id", "a hex PCI device ID is required");
    f.vf_device_id = NormalizeDeviceId(row["vf_device_id"]);
    std::string_view ids = row["recovery_device_ids"];
    while (!ids.empty()) {
      size_t semi = ids.find(';');
      std::string id = NormalizeDeviceId(ids.substr(0, semi));
      if (id.empty()) row.Fail("recovery_device_ids", "';'-separated hex IDs expected");
      f.recovery_device_ids.push_back(id);
      ids = semi == std::string_view::npos ? std::string_view() : ids.substr(semi + 1);
    }
    const std::string& major = row["fw_major"];
    auto [end, ec] = std::from_chars(major.data(), major.data() + major.size(), f.fw_major);
    if (ec != std::errc() || end != major.data() + major.size()) row.Fail("fw_major", "a number is required");
    f.mst_device = row["mst_device"];
    f.source = row["source"];
    f.confidence = row["confidence"];
    c.families_.push_back(std::move(f));
  }
  CsvTable ouis = ParseCsv(ouis_csv, "ouis.csv");
  for (const CsvRow& r : ouis.rows) {
    Row row{ouis, r, "ouis.csv"};
    OuiOwner o;
    o.oui = OuiOf(row["oui"]);
    if (o.oui.empty() || HexDigits(row["oui"]).size() != 6) row.Fail("oui", "three hex bytes expected (aa:bb:cc)");
    o.organisation = row["organisation"];
    o.kind = row["kind"];
    if (o.kind != "mellanox" && o.kind != "nvidia" && o.kind != "oem") row.Fail("kind", "mellanox, nvidia or oem");
    o.source = row["source"];
    o.confidence = row["confidence"];
    c.ouis_.push_back(std::move(o));
  }
  CsvTable psids = ParseCsv(psid_csv, "psid_prefixes.csv");
  for (const CsvRow& r : psids.rows) {
    Row row{psids, r, "psid_prefixes.csv"};
    PsidIssuer p;
    p.prefix = row["prefix"];
    if (p.prefix.empty()) row.Fail("prefix", "a prefix is required");
    p.vendor = row["vendor"];
    p.kind = row["kind"];
    if (p.kind != "retail" && p.kind != "dgx" && p.kind != "oem") row.Fail("kind", "retail, dgx or oem");
    p.source = row["source"];
    p.confidence = row["confidence"];
    c.psid_issuers_.push_back(std::move(p));
  }
  return c;
}

const IdentityCatalog& IdentityCatalog::Builtin() {
  static const IdentityCatalog catalog =
      FromCsv(EmbeddedFile("families.csv"), EmbeddedFile("ouis.csv"), EmbeddedFile("psid_prefixes.csv"));
  return catalog;
}

const DeviceFamily* IdentityCatalog::FamilyByDeviceId(std::string_view device_id) const {
  std::string id = NormalizeDeviceId(device_id);
  if (id.empty()) return nullptr;
  for (const DeviceFamily& f : families_) {
    if (f.pci_device_id == id) return &f;
  }
  return nullptr;
}

const DeviceFamily* IdentityCatalog::FamilyByRecoveryId(std::string_view device_id) const {
  std::string id = NormalizeDeviceId(device_id);
  if (id.empty()) return nullptr;
  for (const DeviceFamily& f : families_) {
    if (std::find(f.recovery_device_ids.begin(), f.recovery_device_ids.end(), id) != f.recovery_device_ids.end()) return &f;
  }
  return nullptr;
}

const DeviceFamily* IdentityCatalog::FamilyByName(std::string_view name) const {
  for (const DeviceFamily& f : families_) {
    if (EqualsNoCase(f.family, name)) return &f;
  }
  return nullptr;
}

const OuiOwner* IdentityCatalog::OwnerOf(std::string_view mac_or_guid) const {
  std::string oui = OuiOf(mac_or_guid);
  if (oui.empty()) return nullptr;
  for (const OuiOwner& o : ouis_) {
    if (o.oui == oui) return &o;
  }
  return nullptr;
}

const PsidIssuer* IdentityCatalog::IssuerOf(std::string_view psid) const {
  for (const PsidIssuer& p : psid_issuers_) {
    if (psid.size() > p.prefix.size() && EqualsNoCase(psid.substr(0, p.prefix.size()), p.prefix)) return &p;
  }
  return nullptr;
}

}  // namespace railyard
