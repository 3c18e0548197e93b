#include "plan/bom.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_set>

#include <fmt/format.h>

namespace railyard {
namespace {

struct Accumulator {
  std::map<std::pair<std::string, std::string>, BomLine> lines;
  std::map<std::pair<std::string, std::string>, std::set<std::string>> planes;

  BomLine& Line(const std::string& category, const std::string& opn, const std::string& plane) {
    auto key = std::make_pair(category, opn);
    planes[key].insert(plane);
    BomLine& line = lines[key];
    line.category = category;
    line.opn = opn;
    return line;
  }
};

uint32_t CageIndex(const Fabric& fabric, PortRef ref) {
  const Device& d = fabric.devices[ref.device];
  const TierShape& shape = fabric.planes[static_cast<size_t>(d.plane)].tier[static_cast<size_t>(d.tier) - 1];
  uint32_t index = ref.port - 1u;
  if (index < shape.layout.a_ports) return index / shape.layout.a_per_cage;
  return shape.layout.a_cages + (index - shape.layout.a_ports) / shape.layout.b_per_cage;
}

}  // namespace

Bom BuildBom(const Catalog& catalog, const Fabric& fabric, const std::map<std::string, double>& spares_percent,
             const std::map<uint16_t, std::pair<std::string, std::string>>& switch_opns) {
  Accumulator acc;
  Bom bom;
  for (const Device& d : fabric.devices) {
    if (d.role != DeviceRole::kSwitch) continue;
    const SwitchModel& m = catalog.switches()[d.model];
    auto chosen = switch_opns.find(d.model);
    const std::string opn = chosen != switch_opns.end() ? chosen->second.first : m.opns.empty() ? m.model : m.opns.front();
    const std::string airflow = chosen != switch_opns.end() ? chosen->second.second : "";
    BomLine& line = acc.Line("switch", opn, fabric.planes[static_cast<size_t>(d.plane)].name);
    line.description = airflow.empty() ? fmt::format("{} {} switch ({}, airflow not in the catalog)", m.vendor, m.model, m.cage)
                                       : fmt::format("{} {} switch ({}, {} airflow)", m.vendor, m.model, m.cage,
                                                     airflow == "p2c" ? "P2C" : "C2P");
    line.unit_power_w = m.typical_power_w.value_or(0);
    line.unit_max_power_w = m.max_power_w.value_or(0);
    line.power_known = m.typical_power_w.has_value();
    line.source = m.source;
    ++line.quantity;
    ++bom.totals.switches;
    bom.totals.switch_typical_w += m.typical_power_w.value_or(0);
    bom.totals.switch_max_w += m.max_power_w.value_or(m.typical_power_w.value_or(0));
    if (!m.typical_power_w) ++bom.totals.switches_without_power;
  }
  for (const Plane& plane : fabric.planes) {
    if (plane.nic == kNoItem) continue;
    const NicModel& nic = catalog.nics()[plane.nic];
    uint64_t cards_per_node = (plane.ports_per_node + nic.ports - 1) / nic.ports;
    BomLine& line = acc.Line("nic", nic.opn, plane.name);
    line.description = fmt::format("{} {}-port {} ({})", nic.family, nic.ports, FormatSpeed(nic.max_speed), nic.cage);
    line.source = nic.source;
    line.quantity += cards_per_node * fabric.node_count;
    bom.totals.nics += cards_per_node * fabric.node_count;
  }
  // Assemblies: count each physical assembly once. Transceivers: a twin-port module serves a
  // whole cage, a single-port module one port.
  std::unordered_set<uint32_t> assemblies;
  std::unordered_set<uint64_t> cages;
  std::unordered_set<uint64_t> fibres;
  for (const Link& link : fabric.links) {
    const std::string& plane = fabric.planes[link.plane].name;
    if (link.cable == kNoItem) continue;
    const CableItem& cable = catalog.cables()[link.cable];
    if (link.media == Media::kOptical) {
      // A splitter fibre serves `links` adjacent switch ports; count it once for them.
      bool counted = false;
      if (cable.links > 1) {
        uint64_t key = (uint64_t{link.z.device} << 20) | ((link.z.port - 1u) / cable.links);
        counted = !fibres.insert(key).second;
      }
      if (!counted) {
        BomLine& fibre = acc.Line("fibre", cable.opn, plane);
        fibre.description = fmt::format("{} fibre {} m ({} to {})", cable.medium, cable.length_m, cable.end_a, cable.end_b);
        fibre.source = cable.source;
        fibre.power_known = true;  // passive glass
        ++fibre.quantity;
        ++bom.totals.cables;
      }
      for (auto [ref, xcvr] : {std::pair{link.a, link.xcvr_a}, std::pair{link.z, link.xcvr_z}}) {
        const CableItem& module = catalog.cables()[xcvr];
        if (module.links > 1) {
          uint64_t key = (uint64_t{ref.device} << 20) | CageIndex(fabric, ref);
          if (!cages.insert(key).second) continue;
        }
        BomLine& line = acc.Line("transceiver", module.opn, plane);
        line.description = fmt::format("{} {} {}x{} transceiver, {} m", module.end_a, module.medium, module.links,
                                       FormatSpeed(module.speed), module.reach_m);
        line.unit_power_w = module.power_w.value_or(0);
        line.power_known = module.power_w.has_value();
        line.source = module.source;
        ++line.quantity;
        ++bom.totals.transceivers;
        bom.totals.optics_w += module.power_w.value_or(0);
      }
      continue;
    }
    if (!assemblies.insert(link.assembly).second) continue;
    BomLine& line = acc.Line("cable", cable.opn, plane);
    line.description = fmt::format("{} {} {} m ({} to {})", ToString(cable.kind), FormatSpeed(cable.speed), cable.length_m,
                                   cable.end_a, cable.end_b);
    line.source = cable.source;
    // Passive copper, RJ45 and fibre draw nothing; active copper and AOC draw power the catalog lacks.
    line.power_known = cable.power_w.has_value() || cable.kind == CableKind::kDac || cable.kind == CableKind::kRj45;
    line.unit_power_w = cable.power_w.value_or(0);
    ++line.quantity;
    ++bom.totals.cables;
  }
  for (auto& [key, line] : acc.lines) {
    const auto& names = acc.planes[key];
    std::string joined;
    for (const std::string& n : names) joined += (joined.empty() ? "" : ";") + n;
    line.planes = joined;
    auto spare = spares_percent.find(line.category);
    if (spare != spares_percent.end() && spare->second > 0) {
      line.spares = static_cast<uint64_t>(std::ceil(static_cast<double>(line.quantity) * spare->second / 100.0 - 1e-9));
    }
    bom.lines.push_back(line);
  }
  static const std::map<std::string, int> kOrder = {{"switch", 0}, {"nic", 1}, {"cable", 2}, {"transceiver", 3}, {"fibre", 4}};
  std::stable_sort(bom.lines.begin(), bom.lines.end(),
                   [](const BomLine& a, const BomLine& b) { return kOrder.at(a.category) < kOrder.at(b.category); });
  return bom;
}

}  // namespace railyard
