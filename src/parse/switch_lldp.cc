#include "parse/switch_lldp.h"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "parse/key_value.h"
#include "parse/lldpctl.h"
#include "util/lines.h"

namespace railyard {
namespace {

// The three columns railyard reads, by the names each vendor's header gives them. Multi-word names
// ("Neighbor Device ID") are matched as written; order in the header does not matter (older NCLU prints
// RemoteHost before RemotePort, newer after).
constexpr std::string_view kLocalNames[] = {"LocalPort", "Interface", "Port"};
constexpr std::string_view kDeviceNames[] = {"Neighbor Device ID", "RemoteDevice", "RemoteHost", "Remote Host"};
constexpr std::string_view kPortNames[] = {"Neighbor Port ID", "RemotePortID", "RemotePort", "Remote Port"};

// Where a header name starts, as a whole word ("Port" must not match inside "LocalPort" or "RemotePort").
size_t FindWord(std::string_view line, std::string_view word) {
  for (size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
    bool left = at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t';
    size_t end = at + word.size();
    bool right = end == line.size() || line[end] == ' ' || line[end] == '\t';
    if (left && right) return at;
  }
  return std::string_view::npos;
}

template <size_t N>
size_t FindAny(std::string_view line, const std::string_view (&names)[N]) {
  for (std::string_view n : names) {
    if (size_t at = FindWord(line, n); at != std::string_view::npos) return at;
  }
  return std::string_view::npos;
}

// One table: each column's start (from the header, or from the dashed rule under it when there is one,
// which also ends a column where the next begins: values with spaces, "GigabitEthernet 0/2", stay whole).
struct Table {
  std::vector<size_t> starts;              // every column's start, ascending
  size_t local = 0, device = 0, port = 0;  // indexes into starts
  std::string name;                        // for the warning of an unknown form
};

// The text of column `i` in `line`: from its start to the next column's, trimmed.
std::string_view Cell(std::string_view line, const Table& t, size_t i) {
  size_t start = t.starts[i];
  if (start >= line.size()) return {};
  size_t end = i + 1 < t.starts.size() ? std::min(t.starts[i + 1], line.size()) : line.size();
  return TrimView(line.substr(start, end - start));
}

std::vector<size_t> WordStarts(std::string_view line) {
  std::vector<size_t> out;
  for (size_t i = 0; i < line.size(); ++i) {
    bool space = line[i] == ' ' || line[i] == '\t';
    bool prev_space = i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t';
    // Two spaces separate columns; one space is inside a multi-word header name.
    if (!space && (i == 0 || (prev_space && (i < 2 || line[i - 2] == ' ' || line[i - 2] == '\t')))) out.push_back(i);
  }
  return out;
}

}  // namespace

AdjacencyReport ParseSwitchLldpTable(std::string_view text, std::string_view local_device, std::string_view source) {
  AdjacencyReport report;
  const auto file = std::make_shared<const std::string>(source);
  std::optional<Table> table;
  bool rule_seen = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    const int line_no = lines.number();
    std::string_view t = TrimView(line);
    if (t.empty()) continue;
    if (!table) {
      size_t local = FindAny(line, kLocalNames), device = FindAny(line, kDeviceNames), port = FindAny(line, kPortNames);
      if (local == std::string_view::npos || device == std::string_view::npos || port == std::string_view::npos)
        continue;  // preamble
      Table tb;
      tb.starts = WordStarts(line);
      for (size_t want : {local, device, port}) {
        if (std::find(tb.starts.begin(), tb.starts.end(), want) == tb.starts.end()) tb.starts.push_back(want);
      }
      std::sort(tb.starts.begin(), tb.starts.end());
      auto index = [&](size_t at) {
        return static_cast<size_t>(std::find(tb.starts.begin(), tb.starts.end(), at) - tb.starts.begin());
      };
      tb.local = index(local);
      tb.device = index(device);
      tb.port = index(port);
      table = tb;
      rule_seen = false;
      continue;
    }
    if (t.find_first_not_of("- ") == std::string_view::npos) {
      // The dashed rule under the header: its dash groups are the columns' true extents.
      if (!rule_seen) {
        std::vector<size_t> groups;
        for (size_t i = 0; i < line.size(); ++i) {
          if (line[i] == '-' && (i == 0 || line[i - 1] != '-')) groups.push_back(i);
        }
        if (groups.size() >= 3) {
          Table tb = *table;
          auto group_of = [&](size_t at) {
            size_t g = 0;
            while (g + 1 < groups.size() && groups[g + 1] <= at) ++g;
            return g;
          };
          tb.local = group_of(table->starts[table->local]);
          tb.device = group_of(table->starts[table->device]);
          tb.port = group_of(table->starts[table->port]);
          tb.starts = groups;
          table = tb;
        }
        rule_seen = true;
      }
      continue;
    }
    if (t.starts_with("Total entries") || t.starts_with("Total")) continue;  // SONiC footer
    std::string_view local = Cell(line, *table, table->local), device = Cell(line, *table, table->device),
                     port = Cell(line, *table, table->port);
    if (local == "..." || (local.empty() && device.empty())) {
      report.warnings.push_back({line_no, fmt::format("{}:{}: row elided or empty ('{}'), skipped", source, line_no, t)});
      continue;
    }
    if (local.empty() || device.empty() || port.empty()) {
      report.warnings.push_back({line_no, fmt::format("{}:{}: short row '{}'", source, line_no, t)});
      continue;
    }
    Adjacency a;
    a.local_device = std::string(local_device);
    a.local_port = std::string(local);
    a.remote_device = std::string(device);
    a.remote_port = std::string(port);
    a.source = file;
    a.medium = Medium::kEthernet;
    a.line = line_no;
    report.adjacencies.push_back(std::move(a));
  }
  if (!table) {
    // SONiC `show lldp neighbors` and Cumulus `net show lldp IF` print lldpctl's own blocks.
    if (text.find("Interface:") != std::string_view::npos) return ParseLldpctlPlain(text, local_device, source);
    report.warnings.push_back({0, fmt::format("{}: no Arista, Cumulus, NVUE or SONiC LLDP table header found", source)});
  }
  return report;
}

}  // namespace railyard
