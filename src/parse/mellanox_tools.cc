#include "parse/mellanox_tools.h"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {

std::string FlashedFirmware(const FwManagerDevice& d) {
  auto fw = d.versions.find("FW");
  return fw == d.versions.end() ? std::string() : fw->second.current;
}

std::string RunningFirmware(const FwManagerDevice& d) {
  auto running = d.versions.find("FW (Running)");
  return running != d.versions.end() && !running->second.current.empty() ? running->second.current : FlashedFirmware(d);
}
namespace {

// The value of attr="..." inside one XML tag.
std::string Attribute(std::string_view tag, std::string_view name) {
  std::string key = std::string(name) + "=\"";
  size_t at = tag.find(key);
  while (at != std::string_view::npos && at > 0 && tag[at - 1] != ' ' && tag[at - 1] != '\t' && tag[at - 1] != '<') {
    at = tag.find(key, at + 1);
  }
  if (at == std::string_view::npos) return {};
  size_t start = at + key.size();
  size_t end = tag.find('"', start);
  return end == std::string_view::npos ? std::string() : std::string(tag.substr(start, end - start));
}

FwManagerReport ParseXml(std::string_view x) {
  FwManagerReport r;
  size_t pos = 0;
  while ((pos = x.find("<Device ", pos)) != std::string_view::npos) {
    size_t tag_end = x.find('>', pos);
    size_t close = x.find("</Device>", pos);
    if (tag_end == std::string_view::npos) {
      r.warnings.push_back({0, "unterminated <Device> tag"});
      break;
    }
    std::string_view tag = x.substr(pos, tag_end - pos);
    std::string_view body = close == std::string_view::npos ? x.substr(tag_end) : x.substr(tag_end, close - tag_end);
    FwManagerDevice d;
    d.pci_device_name = Attribute(tag, "pciName");
    d.device_type = Attribute(tag, "type");
    d.psid = Attribute(tag, "psid");
    d.part_number = Attribute(tag, "partNumber");
    for (const char* component : {"FW", "PXE", "UEFI", "NVME"}) {
      size_t c = body.find(std::string("<") + component + " ");
      if (c == std::string_view::npos) continue;
      std::string_view ctag = body.substr(c, body.find('>', c) - c);
      FirmwareVersions v{Attribute(ctag, "current"), Attribute(ctag, "available")};
      if (v.available == "N/A") v.available.clear();
      d.versions[component] = v;
    }
    if (size_t m = body.find("<MACs "); m != std::string_view::npos)
      d.base_mac = Attribute(body.substr(m, body.find('>', m) - m), "Base_Mac");
    if (size_t g = body.find("<GUIDs "); g != std::string_view::npos)
      d.base_guid = Attribute(body.substr(g, body.find('>', g) - g), "Base_Guid");
    auto element = [&](std::string_view name) {
      std::string open = "<" + std::string(name) + ">", end = "</" + std::string(name) + ">";
      size_t s = body.find(open);
      if (s == std::string_view::npos) return std::string();
      size_t e = body.find(end, s);
      return std::string(
          TrimView(body.substr(s + open.size(), e == std::string_view::npos ? std::string_view::npos : e - s - open.size())));
    };
    d.status = element("Status");
    d.description = element("Description");
    r.devices.push_back(std::move(d));
    pos = tag_end;
  }
  if (r.devices.empty()) r.warnings.push_back({0, "no <Device> element"});
  return r;
}

}  // namespace

FwManagerReport ParseMlxfwmanager(std::string_view text) {
  if (text.find("<Devices>") != std::string_view::npos || text.find("<Device ") != std::string_view::npos) return ParseXml(text);
  FwManagerReport r;
  FwManagerDevice* d = nullptr;
  bool in_versions = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.starts_with("Device #") && t.back() == ':') {
      r.devices.emplace_back();
      d = &r.devices.back();
      in_versions = false;
      continue;
    }
    if (!d || t.empty()) {
      in_versions = false;
      continue;
    }
    if (in_versions) {
      auto w = SplitWords(t);
      if (w.size() >= 2 && t.find(':') == std::string_view::npos) {
        // The component may be two words: "FW (Running)" — the firmware running while a newer one is burned.
        size_t name_words = w.size() >= 3 && w[1].starts_with("(") && w[1].ends_with(")") ? 2 : 1;
        std::string component(w[0]);
        if (name_words == 2) component += " " + std::string(w[1]);
        if (w.size() > name_words) {
          std::string current(w[name_words]);
          std::string available = w.size() > name_words + 1 && w[name_words + 1] != "N/A" ? std::string(w[name_words + 1]) : "";
          d->versions[component] = FirmwareVersions{current == "N/A" ? "" : current, available};
        }
        continue;
      }
      in_versions = false;
    }
    size_t colon = t.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = TrimView(t.substr(0, colon));
    std::string value(TrimView(t.substr(colon + 1)));
    if (key == "Device Type")
      d->device_type = value;
    else if (key == "Part Number")
      d->part_number = value;
    else if (key == "Description")
      d->description = value;
    else if (key == "PSID")
      d->psid = value;
    else if (key == "PCI Device Name")
      d->pci_device_name = value;
    else if (key == "Base GUID")
      d->base_guid = value;
    else if (key == "Base MAC")
      d->base_mac = value;
    else if (key.starts_with("Port") && key.ends_with("MAC"))
      d->port_macs.push_back(value);
    else if (key == "Versions")
      in_versions = true;
    else if (key == "Status")
      d->status = value;
  }
  if (r.devices.empty()) r.warnings.push_back({0, "no \"Device #N:\" block: not mlxfwmanager/mlxup query output"});
  return r;
}

MstStatus ParseMstStatus(std::string_view text) {
  MstStatus s;
  MstDevice* last = nullptr;
  bool verbose_table = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (t == "MST PCI module loaded")
      s.pci_module_loaded = true;
    else if (t == "MST PCI configuration module loaded")
      s.pciconf_module_loaded = true;
    if (t.find("Failure") != std::string_view::npos || t.find("driver not found") != std::string_view::npos)
      s.start_failed = true;
    if (t.starts_with("DEVICE_TYPE") && t.find("MST") != std::string_view::npos) {
      verbose_table = true;
      continue;
    }
    if (verbose_table) {
      auto w = SplitWords(t);
      if (w.size() >= 3 && w[1].starts_with("/dev/mst/")) {
        MstDevice d;
        d.device_type = std::string(w[0]);
        d.mst_path = std::string(w[1]);
        d.pci_address = std::string(w[2]);
        // RDMA and NET columns may be empty; the last column is NUMA.
        d.numa = LeadingInt(w.back(), -1);
        if (w.size() >= 6) {
          d.rdma = std::string(w[3]);
          d.net = std::string(w[4]);
        }
        s.devices.push_back(std::move(d));
      }
      continue;
    }
    if (t.starts_with("/dev/mst/")) {
      MstDevice d;
      d.mst_path = std::string(t.substr(0, t.find(' ')));
      s.devices.push_back(std::move(d));
      last = &s.devices.back();
      continue;
    }
    if (last && t.starts_with("domain:bus:dev.fn=")) {
      std::string_view rest = t.substr(18);
      last->pci_address = std::string(rest.substr(0, rest.find(' ')));
    }
  }
  if (s.devices.empty() && !s.start_failed && !s.pci_module_loaded && !s.pciconf_module_loaded) {
    s.warnings.push_back({0, "not `mst status` or `mst start` output"});
  }
  return s;
}

static std::vector<IbstatusPort> ReadIbstatusRows(std::string_view text, std::vector<ParseWarning>* warnings) {
  std::vector<IbstatusPort> out;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.starts_with("Infiniband device '")) {
      IbstatusPort p;
      size_t close = t.find('\'', 19);
      p.device = std::string(t.substr(19, close == std::string_view::npos ? 0 : close - 19));
      size_t port = t.find(" port ");
      if (port != std::string_view::npos) p.port = LeadingInt(t.substr(port + 6));
      out.push_back(std::move(p));
      continue;
    }
    if (out.empty() || t.empty()) continue;
    size_t colon = t.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = TrimView(t.substr(0, colon));
    std::string_view value = TrimView(t.substr(colon + 1));
    IbstatusPort& p = out.back();
    auto after_code = [](std::string_view v) {  // "4: ACTIVE" -> "ACTIVE"
      size_t c = v.find(": ");
      return std::string(c == std::string_view::npos ? v : v.substr(c + 2));
    };
    if (key == "state")
      p.state = after_code(value);
    else if (key == "phys state")
      p.phys_state = after_code(value);
    else if (key == "rate") {
      p.rate_gbps = static_cast<uint32_t>(LeadingInt(value));
      size_t open = value.find('(');
      if (open != std::string_view::npos) p.rate_detail = std::string(value.substr(open + 1, value.find(')', open) - open - 1));
    } else if (key == "link_layer")
      p.link_layer = std::string(value);
    else if (key == "base lid")
      p.base_lid = std::string(value);
    else if (key == "sm lid")
      p.sm_lid = std::string(value);
  }
  if (out.empty() && warnings) warnings->push_back({0, "no \"Infiniband device\" block: not ibstatus output"});
  return out;
}

DevlinkReport ParseDevlinkDevInfo(std::string_view text) {
  DevlinkReport r;
  DevlinkDevice* d = nullptr;
  std::string section;  // fixed | running | stored
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    bool top = line.front() != ' ' && line.front() != '\t';
    if (top) {
      // "pci/0000:08:00.0:" opens a device; other handles ("auxiliary/mlx5_core.eth.0:") are not PCI functions.
      d = nullptr;
      section.clear();
      if (t.starts_with("pci/") && t.ends_with(":")) {
        r.devices.emplace_back();
        d = &r.devices.back();
        d->pci_address = std::string(t.substr(4, t.size() - 5));
        d->line = lines.number();
      } else if (!t.ends_with(":")) {
        r.warnings.push_back({lines.number(), "not a `devlink dev info` handle line"});
      }
      continue;
    }
    if (!d) continue;
    if (t == "versions:") continue;
    if (t == "fixed:" || t == "running:" || t == "stored:") {
      section = std::string(t.substr(0, t.size() - 1));
      continue;
    }
    std::vector<std::string_view> w = SplitWords(t);
    if (w.size() < 2) continue;
    if (w[0] == "driver")
      d->driver = std::string(w[1]);
    else if (w[0] == "serial_number")
      d->serial_number = std::string(w[1]);
    else if (w[0] == "board.serial_number")
      d->board_serial = std::string(w[1]);
    else if (w[0] == "fw.psid" && section == "fixed")
      d->psid = std::string(w[1]);
    else if (w[0] == "fw.version" && section == "running")
      d->running_fw = std::string(w[1]);
    else if (w[0] == "fw.version" && section == "stored")
      d->stored_fw = std::string(w[1]);
  }
  if (r.devices.empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos) {
    r.warnings.push_back({1, "no `pci/...:` handle: not `devlink dev info` output"});
  }
  return r;
}

Parsed<IbstatusPort> ParseIbstatus(std::string_view text) {
  Parsed<IbstatusPort> out;
  out.rows = ReadIbstatusRows(text, &out.warnings);
  return out;
}

}  // namespace railyard
