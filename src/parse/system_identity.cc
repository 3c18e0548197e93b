#include "parse/system_identity.h"

#include <array>

#include "util/lines.h"
#include "util/text.h"
#include "util/versions.h"

namespace railyard {
namespace {

// Values firmware writers leave in SMBIOS strings when they fill nothing in: they name no model.
bool IsPlaceholder(std::string_view v) {
  static constexpr std::array<std::string_view, 10> kPlaceholders = {"not specified",
                                                                     "to be filled by o.e.m.",
                                                                     "default string",
                                                                     "system product name",
                                                                     "system manufacturer",
                                                                     "not applicable",
                                                                     "none",
                                                                     "unknown",
                                                                     "o.e.m.",
                                                                     "n/a"};
  std::string lower = Lower(v);
  for (std::string_view p : kPlaceholders) {
    if (lower == p) return true;
  }
  return false;
}

bool IsDate(std::string_view w) {  // "11/13/2019": SMBIOS dates are mm/dd/yyyy
  return w.size() >= 8 && w.find('/') != std::string_view::npos && w.find_first_not_of("0123456789/") == std::string_view::npos;
}

// A printable, bounded copy: hostile captures must not carry escape sequences into reports.
std::string Clean(std::string_view v) {
  std::string out;
  for (char c : TrimSpace(v).substr(0, 128)) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  return out;
}

}  // namespace

std::string SystemIdentity::Model() const {
  if (!vendor_product.empty()) return vendor_product;
  if (vendor.empty()) return product;
  return product.empty() ? vendor : vendor + " " + product;
}

bool SystemIdentity::IsModel(std::string_view model) const {
  std::string want = Lower(TrimSpace(model));
  if (want.empty()) return false;
  if (!product.empty()) {
    std::string p = Lower(product);
    if (want == p || want == Lower(vendor + " " + product)) return true;
    // Lenovo appends the machine type: "ThinkSystem SR650 -[7X06CTO1WW]-" is a "ThinkSystem SR650".
    if (p.starts_with(want + " -[")) return true;
  }
  std::string joined = Lower(vendor_product);
  if (joined.empty()) return false;
  // The kernel's "Dell Inc. PowerEdge R750": the model must end it at a word boundary.
  return joined == want ||
         (joined.size() > want.size() && joined.ends_with(want) && joined[joined.size() - want.size() - 1] == ' ');
}

SystemIdentityParse ParseDmidecode(std::string_view text) {
  SystemIdentityParse out;
  SystemIdentity& s = out.system;
  enum class Block { kNone, kBios, kSystem, kBoard, kOther } block = Block::kNone;
  bool headerless_warned = false;
  bool after_handle = false;  // a block title follows its "Handle 0x…, DMI type N" line
  UnreadLines unread;
  LineReader lines(text);
  std::string_view line;
  auto set = [&](std::string& field, std::string_view value, int n, std::string_view key) {
    std::string v = Clean(value);
    if (v.empty()) return;
    if (IsPlaceholder(v)) {
      out.warnings.push_back({n, std::string(key) + " is the placeholder '" + v + "': the firmware names no model here"});
      return;
    }
    // Lenovo prints "-[IVE182H-4.10]-": the version is inside the brackets.
    if (v.size() > 4 && v.starts_with("-[") && v.ends_with("]-") && &field == &s.bios_version) v = v.substr(2, v.size() - 4);
    if (field.empty()) field = v;
    if (s.line == 0) s.line = n;
  };
  while (lines.Next(line)) {
    int n = lines.number();
    std::string_view t = TrimSpace(line);
    if (t.empty() || t.starts_with('#')) continue;
    // `grep . /sys/class/dmi/id/*`: "/sys/class/dmi/id/product_name:PowerEdge R750"
    if (size_t at = t.find("/dmi/id/"); at != std::string_view::npos) {
      std::string_view rest = t.substr(at + 8);
      size_t colon = rest.find(':');
      if (colon == std::string_view::npos) {
        unread.Note(n, t);
        continue;
      }
      std::string_view key = rest.substr(0, colon), value = rest.substr(colon + 1);
      if (s.from.empty()) s.from = "sysfs";
      if (key == "sys_vendor")
        set(s.vendor, value, n, key);
      else if (key == "product_name")
        set(s.product, value, n, key);
      else if (key == "board_name")
        set(s.board, value, n, key);
      else if (key == "bios_vendor")
        set(s.bios_vendor, value, n, key);
      else if (key == "bios_version")
        set(s.bios_version, value, n, key);
      else if (key == "bios_date")
        set(s.bios_date, value, n, key);
      continue;  // the other attributes (serials, chassis, modalias) are not identity
    }
    if (t.starts_with("Handle 0x")) {
      block = Block::kOther;
      after_handle = true;
      continue;
    }
    bool title_expected = after_handle;
    after_handle = false;
    if (t.starts_with("Getting SMBIOS data") || t.starts_with("SMBIOS ") || t.starts_with("Table at ") ||
        t.starts_with("End Of Table") || t.starts_with("Inactive") || t.starts_with("Invalid entry") ||
        t.starts_with("Wrong DMI structures") || t.starts_with("Scanning /dev/mem")) {
      continue;  // dmidecode's own banners
    }
    bool indented = line[0] == '\t' || line[0] == ' ';
    size_t colon = t.find(": ");
    if (title_expected && !indented && colon == std::string_view::npos) {
      // A block title after its Handle line.
      block = t == "BIOS Information"         ? Block::kBios
              : t == "System Information"     ? Block::kSystem
              : t == "Base Board Information" ? Block::kBoard
                                              : Block::kOther;
      continue;
    }
    if (colon == std::string_view::npos) {
      // Inside a block: list items ("ISA is supported") and "Characteristics:" headings, always indented.
      if (block == Block::kNone || !indented) unread.Note(n, t);
      continue;
    }
    // "node1: \tProduct Name: X" (pdsh/clush prefixes) and bare grep'd lines carry no block title.
    std::string_view key = t.substr(0, colon), value = t.substr(colon + 2);
    if (size_t inner = value.find(": ");
        block == Block::kNone && inner != std::string_view::npos &&
        (TrimSpace(value.substr(0, inner)) == "Product Name" || TrimSpace(value.substr(0, inner)) == "Manufacturer")) {
      key = TrimSpace(value.substr(0, inner));
      value = value.substr(inner + 2);
    }
    Block b = block;
    if (b == Block::kNone) {
      if (key != "Manufacturer" && key != "Product Name") {
        unread.Note(n, t);
        continue;
      }
      if (!headerless_warned) {
        out.warnings.push_back({n, "dmidecode lines without a block title: taken as the System Information block"});
        headerless_warned = true;
      }
      b = Block::kSystem;
    }
    if (s.from.empty()) s.from = "dmidecode";
    if (b == Block::kSystem) {
      if (key == "Manufacturer")
        set(s.vendor, value, n, "system manufacturer");
      else if (key == "Product Name")
        set(s.product, value, n, "system product name");
    } else if (b == Block::kBios) {
      if (key == "Vendor")
        set(s.bios_vendor, value, n, "BIOS vendor");
      else if (key == "Version")
        set(s.bios_version, value, n, "BIOS version");
      else if (key == "Release Date")
        set(s.bios_date, value, n, "BIOS release date");
    } else if (b == Block::kBoard) {
      if (key == "Product Name") set(s.board, value, n, "board product name");
    }
  }
  unread.Warn(out.warnings, "dmidecode or /sys/class/dmi/id lines");
  if (s.empty() && out.warnings.empty() && !text.empty()) {
    out.warnings.push_back({1, "no System Information or BIOS Information block: the server model is not known"});
  }
  return out;
}

std::optional<SystemIdentity> ParseKernelDmiLine(std::string_view line) {
  size_t at = line.find("DMI: ");
  size_t skip = 5;
  if (at == std::string_view::npos) {
    at = line.find("Hardware name: ");
    skip = 15;
  }
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = TrimSpace(line.substr(at + skip));
  size_t bios = rest.rfind(", BIOS ");
  if (bios == std::string_view::npos) return std::nullopt;
  SystemIdentity s;
  s.from = "kernel-log";
  std::string_view ids = rest.substr(0, bios), fw = TrimSpace(rest.substr(bios + 7));
  // The board follows the last '/'; product names such as "1U1G-GENOA/M3/N" keep theirs.
  size_t slash = ids.rfind('/');
  s.vendor_product = Clean(slash == std::string_view::npos ? ids : ids.substr(0, slash));
  if (slash != std::string_view::npos) s.board = Clean(ids.substr(slash + 1));
  size_t space = fw.rfind(' ');
  if (space != std::string_view::npos && IsDate(fw.substr(space + 1))) {
    s.bios_version = Clean(fw.substr(0, space));
    s.bios_date = Clean(fw.substr(space + 1));
  } else {
    s.bios_version = Clean(fw);
  }
  if (IsPlaceholder(s.vendor_product)) s.vendor_product.clear();
  if (IsPlaceholder(s.board)) s.board.clear();
  return s;
}

bool OsRelease::Matches(std::string_view entry) const { return OsEntryMatches(id, version_id, entry); }

OsReleaseParse ParseOsRelease(std::string_view text) {
  OsReleaseParse out;
  UnreadLines unread;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimSpace(line);
    if (t.empty() || t.starts_with('#')) continue;
    size_t eq = t.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      unread.Note(lines.number(), t);
      continue;
    }
    std::string_view key = t.substr(0, eq), value = t.substr(eq + 1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    if (key == "ID") {
      out.os.id = Lower(Clean(value));
      out.os.line = lines.number();
    } else if (key == "VERSION_ID") {
      out.os.version_id = Clean(value);
    } else if (key == "PRETTY_NAME") {
      out.os.pretty_name = Clean(value);
    }
  }
  unread.Warn(out.warnings, "os-release KEY=value lines");
  if (out.os.id.empty() && !text.empty()) out.warnings.push_back({1, "no ID= line: the OS is not known"});
  return out;
}

}  // namespace railyard
