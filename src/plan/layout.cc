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
  const uint16_t central_row = static_cast<uint16_t>(gpu_rows / 2);
  // The network rack being filled in each row; the spine row comes after the GPU rows.
  std::map<uint16_t, uint32_t> filling;
  for (uint32_t i = 0; i < fabric.racks.size(); ++i) {
    const Rack& r = fabric.racks[i];
    if (r.network) filling[r.row] = i;  // the last network rack of a row is the one filling
  }
  // A row takes at most half as many network racks as it has GPU racks (at least two); a row
  // that is full sends its switches to the nearest row with room, alternating sides, so no run
  // along a row grows without bound.
  const uint32_t max_network = std::max<uint32_t>(2, spec.layout.racks_per_row / 2);
  std::map<uint16_t, uint32_t> network_count;
  for (const Rack& r : fabric.racks) {
    if (r.network) ++network_count[r.row];
  }
  auto row_with_room = [&](uint16_t row, uint16_t height) {
    for (int step = 0; step < 4 * (gpu_rows + 2); ++step) {
      int offset = (step + 1) / 2 * (step % 2 ? 1 : -1);  // 0, +1, -1, +2, -2 ...
      int candidate = int(row) + offset;
      if (candidate < 0 || candidate > 0xFFFF) continue;
      uint16_t r = static_cast<uint16_t>(candidate);
      auto it = filling.find(r);
      bool fits_current = it != filling.end() && fabric.racks[it->second].used_u + height <= usable;
      if (fits_current || network_count[r] < max_network) return r;
    }
    return row;
  };
  auto place_in_row = [&](Device& d, uint16_t wanted_row) {
    uint16_t height = d.height_u;
    uint16_t row = row_with_room(wanted_row, height);
    auto it = filling.find(row);
    if (it == filling.end() || fabric.racks[it->second].used_u + height > usable) {
      Rack rack;
      rack.row = row;
      rack.network = true;
      rack.position = 0;  // final position set by FinalizeRacks
      fabric.racks.push_back(rack);
      ++network_count[row];
      filling[row] = static_cast<uint32_t>(fabric.racks.size() - 1);
      it = filling.find(row);
    }
    Rack& rack = fabric.racks[it->second];
    d.rack = it->second;
    d.u = static_cast<uint16_t>(rack.used_u + 1);
    rack.used_u = static_cast<uint16_t>(rack.used_u + height);
  };
  // Leaves first: each goes near the endpoints it serves.
  std::map<std::pair<int16_t, int32_t>, std::vector<uint16_t>> pod_rows;  // (plane, pod) -> leaf rows
  for (Device& d : fabric.devices) {
    if (d.role != DeviceRole::kSwitch || d.u != 0 || d.tier != Tier::kLeaf) continue;  // placed already
    d.height_u = SwitchHeight(catalog, d);
    if (d.rack < fabric.racks.size()) {
      // The planner left the rack of the leaf's first endpoint in d.rack.
      const Rack& near = fabric.racks[d.rack];
      pod_rows[{d.plane, d.pod}].push_back(near.row);
      if (spec.layout.network_racks == NetworkRackPlacement::kTopOfRack && !near.network &&
          near.used_u + d.height_u <= spec.layout.rack_units - 1) {
        // Top-of-rack switches fill from the top down, nodes from the bottom up.
        Rack& rack = fabric.racks[d.rack];
        d.u = static_cast<uint16_t>(spec.layout.rack_units - d.height_u + 1);
        rack.used_u = static_cast<uint16_t>(rack.used_u + d.height_u);
        continue;
      }
      place_in_row(d, near.row);
    } else {
      place_in_row(d, central_row);
    }
  }
  // Spines of a three-tier pod go in the middle row of the pod's leaves, keeping leaf-spine
  // runs inside the pod; two-tier spines and cores go in the hall's central row, so that no
  // run is longer than half the hall.
  for (Device& d : fabric.devices) {
    if (d.role != DeviceRole::kSwitch || d.u != 0) continue;
    d.height_u = SwitchHeight(catalog, d);
    const Plane& plane = fabric.planes[static_cast<size_t>(d.plane)];
    auto rows = pod_rows.find({d.plane, d.pod});
    if (d.tier == Tier::kSpine && plane.tiers > 2 && rows != pod_rows.end() && !rows->second.empty()) {
      std::vector<uint16_t>& r = rows->second;
      std::nth_element(r.begin(), r.begin() + static_cast<long>(r.size() / 2), r.end());
      place_in_row(d, r[r.size() / 2]);
    } else {
      place_in_row(d, central_row);
    }
  }
}

void FinalizeRacks(const Spec& spec, Fabric& fabric) {
  const uint32_t per_row = spec.layout.racks_per_row;
  std::map<uint16_t, uint16_t> network_in_row;
  std::map<uint16_t, uint16_t> next_network;
  std::map<uint16_t, uint16_t> gpu_in_row;
  for (const Rack& r : fabric.racks) {
    if (r.network)
      ++network_in_row[r.row];
    else
      ++gpu_in_row[r.row];
  }
  const bool middle = spec.layout.network_racks == NetworkRackPlacement::kMiddleOfRow;
  (void)per_row;
  for (Rack& r : fabric.racks) {
    uint16_t nets = network_in_row[r.row];
    // Network racks stand next to the GPU racks of their row as built, not where a full row would
    // end: a plane that fits in part of one row gets no empty positions between nodes and leaves.
    const uint16_t gpus = gpu_in_row.count(r.row) ? gpu_in_row[r.row] : 0;
    const uint16_t half = static_cast<uint16_t>((gpus + 1) / 2);
    if (r.network) {
      uint16_t k = next_network[r.row]++;
      r.position = static_cast<uint16_t>((middle && gpus ? half : gpus) + k);
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
