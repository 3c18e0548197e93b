#include "parse/esxcli.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "parse/key_value.h"
#include "util/lines.h"
#include "util/text.h"

namespace railyard {
namespace {

uint32_t U32(std::string_view s) { return static_cast<uint32_t>(std::max(0, LeadingInt(s))); }

// A line as pasted: markdown quoting ("> ") and bold ("**vmnic0**") removed.
std::string Clean(std::string_view line) {
  while (line.starts_with(">")) line = line.substr(line.starts_with("> ") ? 2 : 1);
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line.compare(i, 2, "**") == 0) {
      ++i;
      continue;
    }
    out += line[i];
  }
  return out;
}

bool Dashes(std::string_view t) { return !t.empty() && t.find_first_not_of("- ") == std::string_view::npos; }

std::string Hex(std::string_view v) {
  std::string s = Lower(TrimView(v));
  return s.starts_with("0x") ? s.substr(2) : s;
}

}  // namespace

static std::vector<EsxiNic> ReadNicListRows(std::string_view text, std::vector<ParseWarning>* warnings) {
  std::vector<EsxiNic> nics;
  LineReader lines(text);
  std::string_view raw;
  bool header = false;
  std::map<std::string, std::string> record;  // PowerCLI "Key : Value" records
  int record_line = 0;
  auto flush = [&] {
    if (record.empty()) return;
    EsxiNic n;
    n.name = record["Name"];
    n.pci = record["PCIDevice"];
    n.driver = record["Driver"];
    n.admin_status = record["AdminStatus"];
    n.link_status = record["LinkStatus"];
    n.speed_mbps = U32(record["Speed"]);
    n.duplex = record["Duplex"];
    n.mac = record["MACAddress"];
    n.mtu = U32(record["MTU"]);
    n.description = record["Description"];
    n.line = record_line;
    if (n.name.empty())
      warnings->push_back({record_line, "a record without Name"});
    else
      nics.push_back(std::move(n));
    record.clear();
  };
  while (lines.Next(raw)) {
    std::string line = Clean(raw);
    std::string_view t = TrimView(line);
    if (t.empty()) {
      flush();
      continue;
    }
    std::vector<std::string_view> w = SplitWords(t);
    if (w.size() >= 3 && w[0] == "Name" && w[1] == "PCI" && w[2] == "Device") {
      header = true;
      continue;
    }
    if (header && Dashes(t)) continue;
    if (size_t colon = t.find(" : ");
        !header && colon != std::string_view::npos && TrimView(t.substr(0, colon)).find(' ') == std::string_view::npos) {
      if (record.empty()) record_line = lines.number();
      record[std::string(TrimView(t.substr(0, colon)))] = std::string(TrimView(t.substr(colon + 3)));
      continue;
    }
    if (header && w.size() >= 10 && w[0].starts_with("vmnic")) {
      EsxiNic n;
      n.name = std::string(w[0]);
      n.pci = std::string(w[1]);
      n.driver = std::string(w[2]);
      n.admin_status = std::string(w[3]);
      n.link_status = std::string(w[4]);
      uint64_t number = 0;
      if (!WholeUnsigned(w[5], number) || number > UINT32_MAX) {
        warnings->push_back(
            {lines.number(), "Speed \"" + std::string(w[5].substr(0, 24)) + "\" is not a number of Mb/s; read as unknown"});
      }
      n.speed_mbps = U32(w[5]);
      n.duplex = std::string(w[6]);
      n.mac = std::string(w[7]);
      if (!WholeUnsigned(w[8], number) || number > UINT32_MAX) {
        warnings->push_back({lines.number(), "MTU \"" + std::string(w[8].substr(0, 24)) + "\" is not a number; read as unknown"});
      }
      n.mtu = U32(w[8]);
      n.description = std::string(TrimView(t.substr(static_cast<size_t>(w[9].data() - t.data()))));
      n.line = lines.number();
      nics.push_back(std::move(n));
      continue;
    }
    warnings->push_back({lines.number(), "not a row of `esxcli network nic list`: " + std::string(t.substr(0, 60))});
  }
  flush();
  if (nics.empty() && !TrimView(text).empty()) {
    warnings->push_back({1, "no vmnic row and no \"Name  PCI Device  Driver\" header: not `esxcli network nic list` output"});
  }
  return nics;
}

EsxiNicDetail ParseEsxcliNicGet(std::string_view text) {
  EsxiNicDetail d;
  LineReader lines(text);
  std::string_view raw;
  bool any = false;
  while (lines.Next(raw)) {
    std::string line = Clean(raw);
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    size_t colon = t.find(':');
    if (colon == std::string_view::npos || t.starts_with("[root@") || t.starts_with("esxcli ") || t.starts_with("#")) {
      d.warnings.push_back({lines.number(), "not a `Key: Value` line of `esxcli network nic get`"});
      continue;
    }
    std::string_view key = TrimView(t.substr(0, colon));
    std::string_view value = TrimView(t.substr(colon + 1));
    any = true;
    if (key == "Name")
      d.name = std::string(value);
    else if (key == "Link Status")
      d.link_status = std::string(value);
    else if (key == "Driver")
      d.driver = std::string(value);
    else if (key == "Version")
      d.driver_version = std::string(value);
    else if (key == "Firmware Version")
      d.firmware_version = std::string(value);
    else if (key == "Bus Info")
      d.bus_info = std::string(value);
    else if (key == "Advertised Link Modes") {
      for (std::string_view m : SplitWords(value, ',')) {
        if (m != "Auto") d.advertised_link_modes.emplace_back(m);
      }
    }
  }
  if (!any && !TrimView(text).empty()) d.warnings.push_back({1, "no `Key: Value` line: not `esxcli network nic get` output"});
  return d;
}

static std::vector<EsxiVib> ReadVibListRows(std::string_view text, bool* complete, std::vector<ParseWarning>* warnings) {
  static const std::vector<std::string_view> kAcceptance = {"VMwareCertified", "VMwareAccepted", "PartnerSupported",
                                                            "CommunitySupported"};
  std::vector<EsxiVib> vibs;
  *complete = false;
  LineReader lines(text);
  std::string_view raw;
  while (lines.Next(raw)) {
    std::string line = Clean(raw);
    std::string_view t = TrimView(line);
    if (t.empty() || Dashes(t)) continue;
    // A row pasted onto the separator: "-----  ------------AquantiaAQN107  2.0.22.017 ...".
    if (size_t end = t.find_first_not_of("- "); t.starts_with("----------") && end != std::string_view::npos) t = t.substr(end);
    std::vector<std::string_view> w = SplitWords(t);
    if (w.size() >= 2 && w[0] == "Name" && w[1] == "Version") {
      *complete = true;
      // A header pasted onto the first row: "Name Version Vendor Acceptance Level Install Date <row>".
      size_t date = t.find("Install Date");
      std::string_view rest = date == std::string_view::npos ? std::string_view() : TrimView(t.substr(date + 12));
      if (rest.starts_with("Platforms")) rest = TrimView(rest.substr(9));
      if (rest.empty()) continue;
      w = SplitWords(rest);
    }
    if (w.size() >= 5 && std::find(kAcceptance.begin(), kAcceptance.end(), w[3]) != kAcceptance.end()) {
      vibs.push_back(
          {std::string(w[0]), std::string(w[1]), std::string(w[2]), std::string(w[3]), std::string(w[4]), lines.number()});
      continue;
    }
    warnings->push_back({lines.number(), "not a row of `esxcli software vib list`: " + std::string(t.substr(0, 60))});
  }
  if (!*complete && !vibs.empty()) {
    warnings->push_back({1, "no header: a filtered (grep) VIB list; a driver missing from it is not proof that no VIB holds it"});
  }
  return vibs;
}

static std::vector<EsxiPciDevice> ReadPciListRows(std::string_view text, std::vector<ParseWarning>* warnings) {
  std::vector<EsxiPciDevice> devices;
  LineReader lines(text);
  std::string_view raw;
  EsxiPciDevice* d = nullptr;
  auto start = [&](int line) {
    devices.emplace_back();
    d = &devices.back();
    d->line = line;
  };
  while (lines.Next(raw)) {
    std::string line = Clean(raw);
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
    size_t colon = t.find(": ");
    if (!indented && t.size() >= 12 && t[4] == ':' && t[7] == ':' && t.find(' ') == std::string_view::npos) {
      start(lines.number());  // "0000:18:00.0" opens a device
      d->address = std::string(t);
      continue;
    }
    if (colon == std::string_view::npos) {
      warnings->push_back({lines.number(), "not a line of `esxcli hardware pci list`: " + std::string(t.substr(0, 60))});
      continue;
    }
    std::string_view key = t.substr(0, colon), value = TrimView(t.substr(colon + 2));
    if (!d) {
      if (!indented) {
        warnings->push_back({lines.number(), "not a line of `esxcli hardware pci list`: " + std::string(t.substr(0, 60))});
        continue;
      }
      start(lines.number());
      warnings->push_back({lines.number(), "device fields before any address line (an excerpt?)"});
    }
    if ((key == "Vendor ID" || key == "Device ID") &&
        (Hex(value).size() != 4 || Hex(value).find_first_not_of("0123456789abcdef") != std::string::npos)) {
      warnings->push_back(
          {lines.number(), std::string(key) + " \"" + std::string(value.substr(0, 24)) + "\" is not four hex digits; ignored"});
      continue;
    }
    if (key == "Address")
      d->address = std::string(value);
    else if (key == "VMkernel Name")
      d->vmkernel_name = std::string(value);
    else if (key == "Vendor ID")
      d->vendor_id = Hex(value);
    else if (key == "Device ID")
      d->device_id = Hex(value);
    else if (key == "Device Class")
      d->device_class = Hex(value);
    else if (key == "Device Class Name")
      d->class_name = std::string(value);
    else if (key == "Vendor Name")
      d->vendor_name = std::string(value);
    else if (key == "Device Name")
      d->device_name = std::string(value);
    else if (key == "Module Name")
      d->module_name = value == "None" ? std::string() : std::string(value);
  }
  return devices;
}

Parsed<EsxiNic> ParseEsxcliNicList(std::string_view text) {
  Parsed<EsxiNic> out;
  out.rows = ReadNicListRows(text, &out.warnings);
  return out;
}

EsxiVibList ParseEsxcliVibList(std::string_view text) {
  EsxiVibList out;
  out.rows = ReadVibListRows(text, &out.complete, &out.warnings);
  return out;
}

Parsed<EsxiPciDevice> ParseEsxcliPciList(std::string_view text) {
  Parsed<EsxiPciDevice> out;
  out.rows = ReadPciListRows(text, &out.warnings);
  return out;
}

}  // namespace railyard
