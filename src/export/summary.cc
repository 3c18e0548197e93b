#include "export/summary.h"
#include "model/findings_formats.h"
#include "model/schemas.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "export/exporters.h"

namespace railyard {

nlohmann::json PlanSummaryJson(const PlanResult& result, const Catalog& catalog) {
  const Fabric& f = result.fabric;
  nlohmann::json planes = nlohmann::json::array();
  const char* tier_names[] = {"leaf", "spine", "core"};
  for (const Plane& p : f.planes) {
    nlohmann::json switches = nlohmann::json::object();
    nlohmann::json models = nlohmann::json::object();
    nlohmann::json over = nlohmann::json::object();
    for (size_t t = 0; t < 3; ++t) {
      switches[tier_names[t]] = p.tier[t].count;
      if (p.tier[t].count) models[tier_names[t]] = catalog.switches()[p.tier[t].model].model;
    }
    if (p.tiers > 1) over["leaf"] = FormatRatio(p.oversubscription[0]);
    if (p.tiers > 2) over["spine"] = FormatRatio(p.oversubscription[1]);
    planes.push_back({{"name", p.name},
                      {"kind", ToString(p.kind)},
                      {"role", ToString(p.role)},
                      {"speed", FormatSpeed(p.speed)},
                      {"tiers", p.tiers},
                      {"endpoints", p.endpoints},
                      {"groups", p.groups},
                      {"nodes_per_group", p.nodes_per_group},
                      {"pods", p.pods},
                      {"switches", switches},
                      {"models", models},
                      {"links",
                       {{"endpoint-leaf", p.links_per_level[0]},
                        {"leaf-spine", p.links_per_level[1]},
                        {"spine-core", p.links_per_level[2]},
                        {"leaf-peer", p.links_per_level[3]}}},
                      {"oversubscription", over},
                      {"bisection_gbps", BisectionGbps(p)}});
  }
  const BomTotals& t = result.bom.totals;
  return {{"schema", kPlanSummarySchema},
          {"name", f.name},
          {"nodes", f.node_count},
          {"gpus", uint64_t{f.node_count} * f.gpus_per_node},
          {"racks", f.racks.size()},
          {"planes", planes},
          {"bom",
           {{"switches", t.switches},
            {"nics", t.nics},
            {"cables", t.cables},
            {"transceivers", t.transceivers},
            {"switch_power_typical_w", t.switch_typical_w},
            {"switch_power_max_w", t.switch_max_w},
            {"optics_power_w", t.optics_w},
            {"switches_without_power_data", t.switches_without_power}}},
          {"findings", FindingsJson(result.findings)}};
}

std::string PlanSummaryTable(const PlanResult& result, const Catalog& catalog) {
  const Fabric& f = result.fabric;
  std::string out = fmt::format("{}: {} nodes, {} GPUs, {} racks\n\n", f.name, f.node_count,
                                uint64_t{f.node_count} * f.gpus_per_node, f.racks.size());
  out += fmt::format("{:<12} {:<10} {:>6} {:>5} {:>9} {:>16} {:>16} {:>16} {:>9} {:>9} {:>13}\n", "PLANE", "KIND", "SPEED",
                     "TIERS", "ENDPOINTS", "LEAF", "SPINE", "CORE", "OVERSUB", "LINKS", "BISECTION");
  for (const Plane& p : f.planes) {
    auto tier = [&](size_t t) {
      return p.tier[t].count ? fmt::format("{} x {}", p.tier[t].count, catalog.switches()[p.tier[t].model].model)
                             : std::string("-");
    };
    uint64_t links = uint64_t{p.links_per_level[0]} + p.links_per_level[1] + p.links_per_level[2] + p.links_per_level[3];
    out += fmt::format("{:<12} {:<10} {:>6} {:>5} {:>9} {:>16} {:>16} {:>16} {:>9} {:>9} {:>10.1f} Tb\n", p.name,
                       ToString(p.kind), FormatSpeed(p.speed), p.tiers, p.endpoints, tier(0), tier(1), tier(2),
                       p.tiers > 2   ? FormatRatio(p.oversubscription[0]) + "/" + FormatRatio(p.oversubscription[1])
                       : p.tiers > 1 ? FormatRatio(p.oversubscription[0])
                                     : "-",
                       links, BisectionGbps(p) / 1000);
  }
  const BomTotals& t = result.bom.totals;
  out += fmt::format(
      "\nBOM: {} switches, {} NICs, {} cables and fibres, {} transceivers; switch power {:.1f} kW "
      "typical / {:.1f} kW max, optics {:.1f} kW\n",
      t.switches, t.nics, t.cables, t.transceivers, t.switch_typical_w / 1000, t.switch_max_w / 1000, t.optics_w / 1000);
  if (t.switches_without_power) {
    out += fmt::format("     (power unknown for {} switches: the catalog has no figure; not counted above, never 0 W)\n",
                       t.switches_without_power);
  }
  if (!result.findings.empty()) out += "\n" + FindingsTable(result.findings);
  return out;
}

}  // namespace railyard
