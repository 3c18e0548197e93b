#include "parse/lspci.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include "parse/key_value.h"
#include "util/lines.h"

namespace railyard {
namespace {

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// "19:00.0 ..." or "0000:19:00.0 ...": a device header starts at column 0 with a BDF.
bool IsHeader(std::string_view line, size_t& bdf_end) {
  size_t i = 0;
  auto hex_run = [&](size_t n) {
    for (size_t k = 0; k < n; ++k, ++i) {
      if (i >= line.size() || !IsHex(line[i])) return false;
    }
    return true;
  };
  size_t save = i;
  if (hex_run(4) && i < line.size() && line[i] == ':') {
    ++i;  // domain
  } else {
    i = save;
  }
  if (!hex_run(2) || i >= line.size() || line[i++] != ':') return false;
  if (!hex_run(2) || i >= line.size() || line[i++] != '.') return false;
  if (i >= line.size() || line[i] < '0' || line[i] > '7') return false;
  ++i;
  if (i >= line.size() || line[i] != ' ') return false;
  bdf_end = i;
  return true;
}

void ParseLink(std::string_view value, PcieLink& link) {
  size_t s = value.find("Speed ");
  if (s != std::string_view::npos) {
    std::string_view rest = value.substr(s + 6);
    if (rest.starts_with("unknown")) {
      link.speed_unknown = true;
    } else {
      double gts = 0;
      auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), gts);
      if (ec == std::errc()) link.speed_gts = gts;
      size_t comma = rest.find(',');
      link.speed_downgraded = rest.substr(0, comma).find("downgraded") != std::string_view::npos;
    }
  }
  size_t w = value.find("Width x");
  if (w != std::string_view::npos) {
    std::string_view rest = value.substr(w + 7);
    std::from_chars(rest.data(), rest.data() + rest.size(), link.width);
    size_t comma = rest.find(',');
    link.width_downgraded = rest.substr(0, comma).find("downgraded") != std::string_view::npos;
  }
}

}  // namespace

int PcieGeneration(double gts) {
  if (gts <= 0) return 0;
  if (std::fabs(gts - 2.5) < 0.1) return 1;
  if (std::fabs(gts - 5) < 0.1) return 2;
  if (std::fabs(gts - 8) < 0.1) return 3;
  if (std::fabs(gts - 16) < 0.1) return 4;
  if (std::fabs(gts - 32) < 0.1) return 5;
  if (std::fabs(gts - 64) < 0.1) return 6;
  return 0;
}

LspciReport ParseLspci(std::string_view text) {
  LspciReport report;
  PciFunction* current = nullptr;
  bool in_vpd = false;
  // Output pasted from a document is often indented as a whole ("    19:00.0 Infiniband controller: …"): the
  // header's column is the first line's indentation when that line is a header, else column 0.
  size_t base_indent = 0;
  {
    LineReader probe(text);
    std::string_view first;
    while (probe.Next(first)) {
      if (TrimView(first).empty()) continue;
      size_t indent = first.find_first_not_of(" \t");
      size_t end = 0;
      if (indent != std::string_view::npos && indent > 0 && IsHeader(first.substr(indent), end)) base_indent = indent;
      break;
    }
  }
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    size_t bdf_end = 0;
    if (base_indent > 0 && line.size() > base_indent && line.find_first_not_of(" \t") == base_indent)
      line = line.substr(base_indent);
    if (IsHeader(line, bdf_end)) {
      report.functions.emplace_back();
      current = &report.functions.back();
      current->line = lines.number();
      current->bdf = std::string(line.substr(0, bdf_end));
      std::string_view rest = TrimView(line.substr(bdf_end));
      size_t colon = rest.find(": ");
      std::string_view cls = colon == std::string_view::npos ? rest : rest.substr(0, colon);
      std::string_view desc = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 2);
      if (size_t br = cls.find(" ["); br != std::string_view::npos) cls = cls.substr(0, br);  // -nn class code
      if (size_t rev = desc.find(" (rev "); rev != std::string_view::npos) desc = desc.substr(0, rev);
      // -nn appends "[vvvv:dddd]": the last bracket holding two 4-hex-digit ids.
      size_t open = desc.rfind('[');
      if (open != std::string_view::npos && desc.size() - open == 11 && desc[open + 5] == ':' && desc.back() == ']') {
        current->vendor_id = std::string(desc.substr(open + 1, 4));
        current->device_id = std::string(desc.substr(open + 6, 4));
        desc = TrimView(desc.substr(0, open));
      }
      current->class_name = std::string(cls);
      current->description = std::string(desc);
      in_vpd = false;
      continue;
    }
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (!current) {
      // A grep excerpt without the device header: keep what it says, and say so. Other text before the first
      // header (an author's "...", a prompt) says nothing about a device.
      bool device_line = t.starts_with("Lnk") || t.starts_with("[") || t.starts_with("Capabilities") ||
                         t.starts_with("Product Name") || t.starts_with("Subsystem") || t.starts_with("Kernel driver") ||
                         t.starts_with("Kernel modules");
      if (!device_line) {
        report.warnings.push_back(
            {lines.number(), "text before the first device header, ignored: " + std::string(t.substr(0, 60))});
        continue;
      }
      report.functions.emplace_back();
      current = &report.functions.back();
      current->line = lines.number();
      report.warnings.push_back({lines.number(), "lines before any device header (an excerpt?)"});
    }
    auto value_of = [&](std::string_view key) { return TrimView(t.substr(key.size())); };
    if (t.starts_with("Subsystem:")) {
      current->subsystem = std::string(value_of("Subsystem:"));
    } else if (t.starts_with("NUMA node:")) {
      std::string_view v = value_of("NUMA node:");
      std::from_chars(v.data(), v.data() + v.size(), current->numa_node);
    } else if (t.starts_with("Kernel driver in use:")) {
      current->driver = std::string(value_of("Kernel driver in use:"));
    } else if (t.starts_with("Kernel modules:")) {
      for (std::string_view m : SplitWords(value_of("Kernel modules:"), ',')) current->kernel_modules.emplace_back(m);
    } else if (t.starts_with("LnkCap:")) {
      ParseLink(value_of("LnkCap:"), current->cap);
    } else if (t.starts_with("LnkSta:")) {
      ParseLink(value_of("LnkSta:"), current->sta);
    } else if (t.starts_with("LnkCtl:")) {
      // "LnkCtl:	ASPM Disabled; RCB 64 bytes ..." / "ASPM L1 Enabled; ..."
      std::string_view v = value_of("LnkCtl:");
      if (v.starts_with("ASPM ")) current->aspm = std::string(TrimView(v.substr(5, v.find(';') - 5)));  // npos - 5: to the end
    } else if (t.starts_with("Initial VFs:")) {
      // "Initial VFs: 63, Total VFs: 63, Number of VFs: 0, Function Dependency Link: 00"
      auto number_after = [&](std::string_view key) {
        int n = -1;
        if (size_t at = t.find(key); at != std::string_view::npos) {
          std::string_view rest = t.substr(at + key.size());
          std::from_chars(rest.data(), rest.data() + rest.size(), n);
        }
        return n;
      };
      current->sriov_total_vfs = number_after("Total VFs: ");
      current->sriov_num_vfs = number_after("Number of VFs: ");
    } else if (t.starts_with("Capabilities:")) {
      in_vpd = t.find("Vital Product Data") != std::string_view::npos;
      current->has_vpd = current->has_vpd || in_vpd;
    } else if ((in_vpd || t.front() == '[') && t.starts_with("Product Name:")) {
      current->vpd_product_name = std::string(value_of("Product Name:"));
    } else if (t.size() > 4 && t.front() == '[' && t[3] == ']') {
      // [PN] Part number: MCX75310AAS-NEAT
      std::string keyword(t.substr(1, 2));
      size_t colon = t.find(':', 4);
      std::string_view value = colon == std::string_view::npos ? std::string_view() : TrimView(t.substr(colon + 1));
      current->has_vpd = true;
      if (keyword == "RV") {
        if (value.find("checksum good") != std::string_view::npos)
          current->vpd_checksum = PciFunction::VpdChecksum::kGood;
        else if (value.find("checksum bad") != std::string_view::npos)
          current->vpd_checksum = PciFunction::VpdChecksum::kBad;
      } else if (keyword != "RW" && !current->vpd.count(keyword)) {
        current->vpd[keyword] = std::string(value);
      }
    } else if (t == "End") {
      in_vpd = false;
    }
  }
  return report;
}

}  // namespace railyard
