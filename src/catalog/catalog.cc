#include "catalog/catalog.h"
#include "util/input_error.h"

#include "util/file.h"

#include <filesystem>

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

#include "util/suggest.h"

namespace railyard {

std::string_view EmbeddedFile(std::string_view name) {
  std::string_view text = EmbeddedFileText(name);
  if (text.empty()) throw std::logic_error(fmt::format("embedded catalog file {} missing", name));
  return text;
}

namespace {

// Reads named columns of one row, with errors that name the file, line and column.
class RowReader {
 public:
  RowReader(const CsvTable& table, const CsvRow& row, std::string_view source) : table_(table), row_(row), source_(source) {}

  const std::string& Text(std::string_view column) const {
    int index = table_.Column(column);
    if (index < 0) throw InputError(std::string(source_), 1, 0, "", fmt::format("no column '{}' in the header", column));
    return row_.fields[static_cast<size_t>(index)];
  }
  double Number(std::string_view column) const {
    auto value = OptionalNumber(column);
    if (!value) Fail(column, "a number is required");
    return *value;
  }
  std::optional<double> OptionalNumber(std::string_view column) const {
    const std::string& text = Text(column);
    if (text.empty()) return std::nullopt;
    double value = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || p != text.data() + text.size()) Fail(column, "'" + text + "' is not a number");
    return value;
  }
  [[noreturn]] void Fail(std::string_view column, std::string_view why) const {
    throw InputError(std::string(source_), row_.line, 0, fmt::format("column {}", column), std::string(why));
  }
  std::vector<SpeedCount> SpeedCounts(std::string_view column) const {
    std::vector<SpeedCount> out;
    const std::string& text = Text(column);
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find(';', start);
      if (end == std::string::npos) end = text.size();
      std::string_view item(text.data() + start, end - start);
      auto colon = item.find(':');
      SpeedCount sc;
      if (colon == std::string_view::npos || std::from_chars(item.data(), item.data() + colon, sc.speed).ec != std::errc() ||
          std::from_chars(item.data() + colon + 1, item.data() + item.size(), sc.count).ec != std::errc()) {
        Fail(column, "expected speed:count;speed:count");
      }
      out.push_back(sc);
      start = end + 1;
    }
    return out;
  }

 private:
  const CsvTable& table_;
  const CsvRow& row_;
  std::string_view source_;
};

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

uint32_t CountAt(const std::vector<SpeedCount>& counts, Gbps speed) {
  for (const SpeedCount& sc : counts) {
    if (sc.speed == speed) return sc.count;
  }
  return 0;
}

CableKind ParseCableKind(const RowReader& r) {
  const std::string& k = r.Text("kind");
  if (k == "dac") return CableKind::kDac;
  if (k == "acc") return CableKind::kAcc;
  if (k == "aoc") return CableKind::kAoc;
  if (k == "transceiver") return CableKind::kTransceiver;
  if (k == "fibre") return CableKind::kFibre;
  if (k == "rj45") return CableKind::kRj45;
  r.Fail("kind", "unknown kind '" + k + "'");
}

}  // namespace

uint32_t SwitchModel::PortsAt(Gbps speed) const { return CountAt(ports, speed); }
uint32_t SwitchModel::UplinkPortsAt(Gbps speed) const { return CountAt(uplink_ports, speed); }
Gbps SwitchModel::FastestUplink() const {
  Gbps best = 0;
  for (const SpeedCount& sc : uplink_ports) best = std::max(best, sc.speed);
  return best;
}

std::string_view ToString(CableKind kind) {
  switch (kind) {
    case CableKind::kDac:
      return "dac";
    case CableKind::kAcc:
      return "acc";
    case CableKind::kAoc:
      return "aoc";
    case CableKind::kTransceiver:
      return "transceiver";
    case CableKind::kFibre:
      return "fibre";
    case CableKind::kRj45:
      return "rj45";
  }
  return "unknown";
}

Catalog Catalog::FromCsv(std::string_view switches_csv, std::string_view nics_csv, std::string_view cables_csv) {
  return FromTexts(CatalogTexts{switches_csv, nics_csv, cables_csv});
}

Catalog Catalog::FromTexts(const CatalogTexts& texts) {
  Catalog catalog;
  auto origin = [&](const std::string& name, const CsvRow& row) {
    return texts.site ? fmt::format("{}:{}", name, row.line) : std::string("builtin");
  };
  if (!texts.switches.empty()) {
    CsvTable t = ParseCsv(texts.switches, texts.switches_name);
    for (const CsvRow& row : t.rows) {
      RowReader r(t, row, texts.switches_name);
      SwitchModel s;
      s.model = r.Text("model");
      s.opns = SplitList(r.Text("opns"));
      s.vendor = r.Text("vendor");
      auto fabric = ParseFabricKind(r.Text("fabric"));
      if (!fabric || *fabric == FabricKind::kRoce) r.Fail("fabric", "expected infiniband or ethernet");
      s.fabric = *fabric;
      auto naming = ParsePortNaming(r.Text("port_naming"));
      if (!naming) r.Fail("port_naming", "unknown naming scheme");
      s.naming = *naming;
      s.cages = static_cast<uint16_t>(r.Number("cages"));
      s.cage = r.Text("cage");
      s.ports = r.SpeedCounts("ports");
      s.uplink_cage = r.Text("uplink_cage");
      s.uplink_ports = r.SpeedCounts("uplink_ports");
      s.rack_units = r.OptionalNumber("rack_units");
      s.typical_power_w = r.OptionalNumber("typical_power_w");
      s.max_power_w = r.OptionalNumber("max_power_w");
      for (const std::string& entry : SplitList(r.Text("airflow"))) {
        size_t eq = entry.find('=');
        std::string opn = entry.substr(0, eq == std::string::npos ? 0 : eq);
        std::string way = eq == std::string::npos ? "" : entry.substr(eq + 1);
        if (opn.empty() || (way != "p2c" && way != "c2p") || std::find(s.opns.begin(), s.opns.end(), opn) == s.opns.end()) {
          r.Fail("airflow", fmt::format("'{}': expected OPN=p2c or OPN=c2p for one of the row's OPNs", entry));
        }
        s.airflow.emplace_back(opn, way);
      }
      s.netbox_device_type = r.Text("netbox_device_type");
      s.netbox_interface = r.Text("netbox_interface");
      s.source = r.Text("source");
      s.confidence = r.Text("confidence");
      for (std::string_view rest = s.netbox_interface; !rest.empty();) {
        size_t open = rest.find('{');
        if (open == std::string_view::npos) break;
        size_t close = rest.find('}', open);
        std::string_view field = rest.substr(open + 1, close == std::string_view::npos ? 0 : close - open - 1);
        if (close == std::string_view::npos ||
            (field != "port" && field != "cage" && field != "lane" && field != "cage0" && field != "lane0")) {
          r.Fail("netbox_interface", "placeholders are {port}, {cage}, {lane}, {cage0} and {lane0}");
        }
        rest.remove_prefix(close + 1);
      }
      if (s.cages == 0 || s.ports.empty()) r.Fail("ports", "a switch needs cages and ports");
      s.origin = origin(texts.switches_name, row);
      catalog.switches_.push_back(std::move(s));
    }
  }
  if (!texts.nics.empty()) {
    CsvTable t = ParseCsv(texts.nics, texts.nics_name);
    for (const CsvRow& row : t.rows) {
      RowReader r(t, row, texts.nics_name);
      NicModel n;
      n.opn = r.Text("opn");
      n.family = r.Text("family");
      n.pci_device_id = r.Text("pci_device_id");
      n.fw_major = static_cast<int>(r.Number("fw_major"));
      n.ports = static_cast<uint32_t>(r.Number("ports"));
      n.max_speed = static_cast<Gbps>(r.Number("max_speed_gbps"));
      n.link_types = r.Text("link_types");
      if (n.link_types != "ib" && n.link_types != "eth" && n.link_types != "vpi") r.Fail("link_types", "expected ib, eth or vpi");
      n.pcie_gen = static_cast<int>(r.Number("pcie_gen"));
      n.pcie_width = static_cast<int>(r.Number("pcie_width"));
      n.cage = r.Text("cage");
      n.psid = r.Text("psid");
      n.psid_confidence = r.Text("psid_confidence");
      const std::string& preferred = r.Text("preferred");
      if (preferred != "" && preferred != "yes") r.Fail("preferred", "expected yes or blank");
      n.preferred = preferred == "yes";
      n.source = r.Text("source");
      n.confidence = r.Text("confidence");
      n.origin = origin(texts.nics_name, row);
      catalog.nics_.push_back(std::move(n));
    }
  }
  if (!texts.cables.empty()) {
    CsvTable t = ParseCsv(texts.cables, texts.cables_name);
    for (const CsvRow& row : t.rows) {
      RowReader r(t, row, texts.cables_name);
      CableItem c;
      c.opn = r.Text("opn");
      c.kind = ParseCableKind(r);
      c.speed = static_cast<Gbps>(r.Number("speed_gbps"));
      c.links = static_cast<uint32_t>(r.Number("links"));
      c.end_a = r.Text("end_a");
      c.end_b = r.Text("end_b");
      c.paired = r.Text("paired") == "1";
      c.medium = r.Text("medium");
      c.length_m = r.OptionalNumber("length_m").value_or(0);
      c.reach_m = r.OptionalNumber("reach_m").value_or(c.length_m);
      c.power_w = r.OptionalNumber("power_w");
      c.source = r.Text("source");
      c.confidence = r.Text("confidence");
      if (c.kind != CableKind::kTransceiver && c.length_m <= 0) r.Fail("length_m", "cables and fibres need a length");
      if (c.kind == CableKind::kTransceiver && c.reach_m <= 0) r.Fail("reach_m", "transceivers need a reach");
      c.origin = origin(texts.cables_name, row);
      catalog.cables_.push_back(std::move(c));
    }
  }
  if (catalog.cables_.size() >= kNoItem || catalog.switches_.size() >= kNoItem || catalog.nics_.size() >= kNoItem) {
    throw std::runtime_error("catalog too large for 16-bit indexes");
  }
  return catalog;
}

namespace {

// Replaces the row of the same key, or appends.
template <typename T, typename Key>
void Overlay(std::vector<T>& base, std::vector<T> rows, Key key) {
  for (T& row : rows) {
    auto same = std::find_if(base.begin(), base.end(), [&](const T& b) { return EqualsIgnoreCase(key(b), key(row)); });
    if (same != base.end()) {
      *same = std::move(row);
    } else {
      base.push_back(std::move(row));
    }
  }
}

}  // namespace

Catalog Catalog::WithSite(const std::string& dir) const {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, 0, 0, "", "a site catalog is a directory of CSV files");
  CatalogTexts texts;
  texts.site = true;
  std::string switches, nics, cables;
  bool any = false;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    std::string path = entry.path().string();
    if (name == "switches.csv") {
      switches = ReadWholeFile(entry.path().string());
      texts.switches_name = path;
    } else if (name == "nics.csv") {
      nics = ReadWholeFile(entry.path().string());
      texts.nics_name = path;
    } else if (name == "cables.csv") {
      cables = ReadWholeFile(entry.path().string());
      texts.cables_name = path;
    } else if (!name.starts_with(".")) {
      throw InputError(path, 0, 0, "", "not a catalog file (a site catalog holds switches.csv, nics.csv and cables.csv)");
    } else {
      continue;
    }
    any = true;
  }
  if (!any) throw InputError(dir, 0, 0, "", "no switches.csv, nics.csv or cables.csv in the site catalog");
  texts.switches = switches;
  texts.nics = nics;
  texts.cables = cables;
  Catalog site = FromTexts(texts);
  Catalog merged = *this;
  Overlay(merged.switches_, std::move(site.switches_), [](const SwitchModel& s) -> const std::string& { return s.model; });
  Overlay(merged.nics_, std::move(site.nics_), [](const NicModel& n) -> const std::string& { return n.opn; });
  Overlay(merged.cables_, std::move(site.cables_), [](const CableItem& c) -> const std::string& { return c.opn; });
  if (merged.cables_.size() >= kNoItem || merged.switches_.size() >= kNoItem || merged.nics_.size() >= kNoItem) {
    throw InputError(dir, 0, 0, "", "catalog too large for 16-bit indexes");
  }
  return merged;
}

const Catalog& Catalog::Builtin() {
  static const Catalog catalog = FromCsv(EmbeddedFile("switches.csv"), EmbeddedFile("nics.csv"), EmbeddedFile("cables.csv"));
  return catalog;
}

std::optional<uint16_t> Catalog::FindSwitch(std::string_view name) const {
  for (size_t i = 0; i < switches_.size(); ++i) {
    if (EqualsIgnoreCase(switches_[i].model, name)) return static_cast<uint16_t>(i);
    for (const std::string& opn : switches_[i].opns) {
      if (EqualsIgnoreCase(opn, name)) return static_cast<uint16_t>(i);
    }
  }
  return std::nullopt;
}

std::optional<uint16_t> Catalog::FindNic(std::string_view opn) const {
  for (size_t i = 0; i < nics_.size(); ++i) {
    if (EqualsIgnoreCase(nics_[i].opn, opn)) return static_cast<uint16_t>(i);
  }
  return std::nullopt;
}

std::optional<uint16_t> Catalog::FindCable(std::string_view opn) const {
  for (size_t i = 0; i < cables_.size(); ++i) {
    if (EqualsIgnoreCase(cables_[i].opn, opn)) return static_cast<uint16_t>(i);
  }
  return std::nullopt;
}

std::string Catalog::SuggestSwitch(std::string_view name) const {
  std::vector<std::string> names;
  for (const SwitchModel& s : switches_) {
    names.push_back(s.model);
    names.insert(names.end(), s.opns.begin(), s.opns.end());
  }
  return ClosestMatch(name, names);
}

std::string Catalog::SuggestNic(std::string_view opn) const {
  std::vector<std::string> names;
  for (const NicModel& n : nics_) names.push_back(n.opn);
  return ClosestMatch(opn, names);
}

}  // namespace railyard
