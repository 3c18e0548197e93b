#include "plan/layout.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace railyard {
namespace {

uint16_t NodeHeight(const Spec& spec) {
  if (spec.nodes.height_u) return static_cast<uint16_t>(spec.nodes.height_u);
  uint32_t fit = (spec.layout.rack_units - 2) / spec.nodes.per_rack;
  return static_cast<uint16_t>(std::clamp<uint32_t>(fit, 1, 8));
}

uint16_t SwitchHeight(const Catalog& catalog, const Device& d) {
  const SwitchModel& m = catalog.switches()[d.model];
  return static_cast<uint16_t>(m.rack_units ? std::lround(*m.rack_units) : 2);
}

// Usable units in a network rack: two are kept for patch panels and cable managers.
uint16_t NetworkRackUnits(const Spec& spec) { return static_cast<uint16_t>(spec.layout.rack_units - 2); }

}  // namespace

void PlaceNodes(const Spec& spec, Fabric& fabric, uint32_t slots) {
  const uint32_t per_rack = spec.nodes.per_rack;
  const uint16_t height = NodeHeight(spec);
  const uint32_t racks = (slots + per_rack - 1) / per_rack;
  fabric.racks.reserve(racks + 64);
  for (uint32_t r = 0; r < racks; ++r) {
    Rack rack;
    rack.row = static_cast<uint16_t>(r / spec.layout.racks_per_row);
    rack.position = static_cast<uint16_t>(r % spec.layout.racks_per_row);
    rack.network = false;
    fabric.racks.push_back(rack);
  }
  for (uint32_t i = 0; i < slots; ++i) {
    Device& d = fabric.devices[i];
    d.rack = i / per_rack;
    d.height_u = height;
    d.u = static_cast<uint16_t>(1 + (i % per_rack) * height);
    Rack& rack = fabric.racks[d.rack];
    rack.used_u = static_cast<uint16_t>(std::max<uint32_t>(rack.used_u, d.u + height - 1u));
  }
}

void PlaceSwitches(const Spec& spec, const Catalog& catalog, Fabric& fabric) {
  const uint16_t usable = NetworkRackUnits(spec);
  uint16_t gpu_rows = 0;
  for (const Rack& r : fabric.racks) {
    if (!r.network) gpu_rows = std::max<uint16_t>(gpu_rows, static_cast<uint16_t>(r.row + 1));
  }
  // The network rack being filled in each row; the spine row comes after the GPU rows.
  std::map<uint16_t, uint32_t> filling;
  for (uint32_t i = 0; i < fabric.racks.size(); ++i) {
    const Rack& r = fabric.racks[i];
    if (r.network) filling[r.row] = i;  // the last network rack of a row is the one filling
  }
  auto place_in_row = [&](Device& d, uint16_t row) {
    uint16_t height = d.height_u;
    auto it = filling.find(row);
    if (it == filling.end() || fabric.racks[it->second].used_u + height > usable) {
      Rack rack;
      rack.row = row;
      rack.network = true;
      rack.position = 0;  // final position set by FinalizeRacks
      fabric.racks.push_back(rack);
      filling[row] = static_cast<uint32_t>(fabric.racks.size() - 1);
      it = filling.find(row);
    }
    Rack& rack = fabric.racks[it->second];
    d.rack = it->second;
    d.u = static_cast<uint16_t>(rack.used_u + 1);
    rack.used_u = static_cast<uint16_t>(rack.used_u + height);
  };
  for (Device& d : fabric.devices) {
    if (d.role != DeviceRole::kSwitch || d.u != 0) continue;  // placed already
    d.height_u = SwitchHeight(catalog, d);
    if (d.tier == Tier::kLeaf && d.rack < fabric.racks.size()) {
      // The planner left the rack of the leaf's first endpoint in d.rack.
      const Rack& near = fabric.racks[d.rack];
      if (spec.layout.network_racks == NetworkRackPlacement::kTopOfRack && !near.network &&
          near.used_u + d.height_u <= spec.layout.rack_units - 1) {
        Rack& rack = fabric.racks[d.rack];
        // Top-of-rack switches fill from the top down, nodes from the bottom up.
        d.u = static_cast<uint16_t>(spec.layout.rack_units - d.height_u + 1);
        rack.used_u = static_cast<uint16_t>(rack.used_u + d.height_u);
        continue;
      }
      place_in_row(d, near.row);
    } else {
      place_in_row(d, gpu_rows);
    }
  }
}

void FinalizeRacks(const Spec& spec, Fabric& fabric) {
  const uint32_t per_row = spec.layout.racks_per_row;
  std::map<uint16_t, uint16_t> network_in_row;
  std::map<uint16_t, uint16_t> next_network;
  std::map<uint16_t, bool> gpu_rows;
  for (const Rack& r : fabric.racks) {
    if (r.network) ++network_in_row[r.row];
    else gpu_rows[r.row] = true;
  }
  const bool middle = spec.layout.network_racks == NetworkRackPlacement::kMiddleOfRow;
  const uint16_t half = static_cast<uint16_t>(per_row / 2);
  for (Rack& r : fabric.racks) {
    uint16_t nets = network_in_row[r.row];
    if (r.network) {
      uint16_t k = next_network[r.row]++;
      const bool gpu_row = gpu_rows.count(r.row) > 0;
      r.position = static_cast<uint16_t>((middle && gpu_row ? half : (gpu_row ? per_row : 0)) + k);
      r.name = fmt::format("r{:02}-n{}", r.row + 1, k + 1);
    } else {
      uint16_t index = r.position;
      if (middle && index >= half) r.position = static_cast<uint16_t>(index + nets);
      r.name = fmt::format("r{:02}-{:02}", r.row + 1, index + 1);
    }
  }
}

double RouteLength(const LayoutSpec& layout, const Fabric& fabric, uint32_t device_a, uint32_t device_b) {
  const Device& a = fabric.devices[device_a];
  const Device& b = fabric.devices[device_b];
  if (a.rack == b.rack) {
    return std::abs(static_cast<int>(a.u) - static_cast<int>(b.u)) * kRackUnitM + layout.in_rack_slack_m;
  }
  const Rack& ra = fabric.racks[a.rack];
  const Rack& rb = fabric.racks[b.rack];
  // Up from each device to the tray above the racks, along the tray (Manhattan: along the
  // row, then across rows), and down again.
  double drop_a = (layout.rack_units - a.u + 1) * kRackUnitM + layout.tray_height_m;
  double drop_b = (layout.rack_units - b.u + 1) * kRackUnitM + layout.tray_height_m;
  double along = std::abs(static_cast<int>(ra.position) - static_cast<int>(rb.position)) * layout.rack_width_m;
  double across = std::abs(static_cast<int>(ra.row) - static_cast<int>(rb.row)) * layout.row_pitch_m;
  return drop_a + along + across + drop_b + layout.slack_m;
}

}  // namespace railyard
