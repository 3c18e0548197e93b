#include "parse/switch_lldp.h"

#include "util/lines.h"

#include <vector>

#include <fmt/format.h>

namespace railyard {
namespace {

enum class Format { kUnknown, kArista, kCumulus, kSonic, kNvue };

struct Columns {
  size_t local = 0, device = 0, port = 0, min_fields = 0;
};

}  // namespace

AdjacencyReport ParseSwitchLldpTable(std::string_view text, std::string_view local_device, std::string_view source) {
  AdjacencyReport report;
  const auto file = std::make_shared<const std::string>(source);
  Format format = Format::kUnknown;
  Columns c;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    const int line_no = lines.number();
    std::vector<std::string_view> f = SplitWords(line);
    if (f.empty()) continue;
    if (format == Format::kUnknown) {
      if (line.find("Neighbor Device ID") != std::string_view::npos && line.find("Neighbor Port ID") != std::string_view::npos) {
        format = Format::kArista;
        c = {0, 1, 2, 3};
      } else if (f[0] == "LocalPort" && line.find("RemoteHost") != std::string_view::npos) {
        format = Format::kCumulus;
        c = {0, 4, 3, 5};
      } else if (f[0] == "LocalPort" && line.find("RemoteDevice") != std::string_view::npos) {
        format = Format::kSonic;
        c = {0, 1, 2, 3};
      } else if (f[0] == "Interface" && line.find("Remote Host") != std::string_view::npos &&
                 line.find("Remote Port") != std::string_view::npos) {
        format = Format::kNvue;  // Interface / Speed / Type / Remote Host / Remote Port
        c = {0, 3, 4, 5};
      }
      continue;  // preamble (table counters, capability codes) and the header itself
    }
    if (f[0].find_first_not_of('-') == std::string_view::npos) continue;  // ----- rules
    if (f[0] == "Total") continue;                                         // SONiC footer
    if (f.size() < c.min_fields) {
      report.warnings.push_back({line_no, fmt::format("{}:{}: short row '{}'", source, line_no, line)});
      continue;
    }
    Adjacency a;
    a.local_device = std::string(local_device);
    a.local_port = std::string(f[c.local]);
    a.remote_device = std::string(f[c.device]);
    a.remote_port = std::string(f[c.port]);
    a.source = file;
    a.line = line_no;
    report.adjacencies.push_back(std::move(a));
  }
  if (format == Format::kUnknown) {
    report.warnings.push_back({0, fmt::format("{}: no Arista, Cumulus, NVUE or SONiC LLDP table header found", source)});
  }
  return report;
}

}  // namespace railyard
