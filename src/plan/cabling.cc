#include "plan/cabling.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "plan/layout.h"

namespace railyard {
namespace {

int KindRank(CableKind kind) {
  switch (kind) {
    case CableKind::kDac:
      return 0;
    case CableKind::kRj45:
      return 0;
    case CableKind::kAcc:
      return 1;
    case CableKind::kAoc:
      return 2;
    default:
      return 9;
  }
}

const TierShape& ShapeOf(const Fabric& fabric, const Device& d) {
  return fabric.planes[static_cast<size_t>(d.plane)].tier[static_cast<size_t>(d.tier) - 1];
}

// Logical ports per cage at a switch port, 0 for the mgmt port.
uint32_t PortsPerCage(const TierShape& shape, uint16_t port) {
  if (port == kMgmtPort) return 1;
  return port <= shape.layout.a_ports ? shape.layout.a_per_cage : shape.layout.b_per_cage;
}

// Cage index (0-based) of a switch port, counting group B after group A.
uint32_t CageOf(const TierShape& shape, uint16_t port) {
  uint32_t index = port - 1u;
  if (index < shape.layout.a_ports) return index / shape.layout.a_per_cage;
  return shape.layout.a_cages + (index - shape.layout.a_ports) / shape.layout.b_per_cage;
}

uint16_t CageMate(const TierShape& shape, uint16_t port) {
  // Twin-port cages hold ports (1,2), (3,4) ... within their group.
  uint32_t index = port - 1u;
  uint32_t base = index < shape.layout.a_ports ? 0 : shape.layout.a_ports;
  uint32_t within = index - base;
  return static_cast<uint16_t>(base + (within ^ 1u) + 1);
}

// A cage takes the modules of slower generations that fit it and match its lane rate: a
// QSFP112 or QSFP56 cage running 100G takes QSFP28 cables. (A QSFP112 cage at 200G keeps
// QSFP112: 2 x 100G lanes, as the switch-side 4 x 200G breakouts drive it.)
std::string FormAtSpeed(const std::string& cage, Gbps speed) {
  if ((cage == "qsfp112" || cage == "qsfp56") && speed <= 100) return "qsfp28";
  if ((cage == "sfp56") && speed <= 25) return "sfp28";
  return cage;
}

}  // namespace

std::string EndForm(const Catalog& catalog, const Fabric& fabric, PortRef ref) {
  const Device& d = fabric.devices[ref.device];
  if (d.role == DeviceRole::kSwitch) {
    if (ref.port == kMgmtPort) return "rj45";
    const SwitchModel& m = catalog.switches()[d.model];
    const TierShape& shape = ShapeOf(fabric, d);
    bool group_a = ref.port <= shape.layout.a_ports;
    uint32_t per_cage = PortsPerCage(shape, ref.port);
    const std::string& cage = group_a ? m.cage : m.uplink_cage;
    if (per_cage == 2 && (cage == "osfp" || cage == "osfp-twin")) return "osfp-twin";
    if (per_cage == 4 && (cage == "osfp" || cage == "osfp-twin")) return "osfp-quad";
    if (per_cage > 1) return cage + "-split" + std::to_string(per_cage);
    const Plane& plane = fabric.planes[static_cast<size_t>(d.plane)];
    return FormAtSpeed(cage, group_a ? shape.down_speed : shape.up_speed ? shape.up_speed : plane.speed);
  }
  for (const Plane& plane : fabric.planes) {
    if (ref.port >= plane.node_port_offset && ref.port < plane.node_port_offset + plane.ports_per_node) {
      if (plane.bmc || plane.nic == kNoItem) return "rj45";
      return FormAtSpeed(catalog.nics()[plane.nic].cage, plane.speed);
    }
  }
  return "unknown";
}

CableChoice ChooseCable(const Catalog& catalog, Gbps speed, const std::string& end_a, const std::string& end_z, bool paired,
                        double route_m) {
  const auto& items = catalog.cables();
  CableChoice best;
  int best_rank = 100;
  for (size_t i = 0; i < items.size(); ++i) {
    const CableItem& c = items[i];
    if (c.kind == CableKind::kTransceiver || c.kind == CableKind::kFibre) continue;
    if (c.speed != speed || c.length_m + 1e-9 < route_m) continue;
    bool ends = (c.end_a == end_a && c.end_b == end_z) || (c.end_a == end_z && c.end_b == end_a);
    if (!ends || (c.paired && !paired)) continue;
    int rank = KindRank(c.kind);
    if (rank < best_rank || (rank == best_rank && c.length_m < best.length_m)) {
      best_rank = rank;
      best.media = c.kind == CableKind::kDac   ? Media::kDac
                   : c.kind == CableKind::kAcc ? Media::kAcc
                   : c.kind == CableKind::kAoc ? Media::kAoc
                                               : Media::kRj45;
      best.cable = static_cast<uint16_t>(i);
      best.length_m = c.length_m;
    }
  }
  if (best.media != Media::kNone) return best;

  // Optics: the same medium at both ends, the shortest-reach transceivers that reach, and the
  // shortest fibre of that medium that is long enough.
  auto best_xcvr = [&](const std::string& end, const std::string& medium) {
    uint16_t found = kNoItem;
    for (size_t i = 0; i < items.size(); ++i) {
      const CableItem& c = items[i];
      if (c.kind != CableKind::kTransceiver || c.speed != speed || c.end_a != end || c.medium != medium) continue;
      if (c.reach_m + 1e-9 < route_m) continue;
      if (found == kNoItem || c.reach_m < items[found].reach_m) found = static_cast<uint16_t>(i);
    }
    return found;
  };
  for (const char* medium : {"mmf", "mmf-split", "smf", "smf-split", "smf-duplex"}) {
    uint16_t xa = best_xcvr(end_a, medium);
    uint16_t xz = best_xcvr(end_z, medium);
    if (xa == kNoItem || xz == kNoItem) continue;
    uint16_t fibre = kNoItem;
    for (size_t i = 0; i < items.size(); ++i) {
      const CableItem& c = items[i];
      if (c.kind != CableKind::kFibre || c.medium != medium || c.length_m + 1e-9 < route_m) continue;
      if (fibre == kNoItem || c.length_m < items[fibre].length_m) fibre = static_cast<uint16_t>(i);
    }
    if (fibre == kNoItem) continue;
    best.media = Media::kOptical;
    best.cable = fibre;
    best.xcvr_a = xa;
    best.xcvr_z = xz;
    best.length_m = items[fibre].length_m;
    return best;
  }
  best.length_m = std::ceil(route_m);
  return best;
}

void ChooseCables(const Spec& spec, const Catalog& catalog, Fabric& fabric) {
  // Index switch ports to links so cage mates can be found.
  std::vector<uint32_t> port_base(fabric.devices.size(), 0);
  uint32_t total = 0;
  for (size_t i = 0; i < fabric.devices.size(); ++i) {
    const Device& d = fabric.devices[i];
    port_base[i] = total;
    if (d.role == DeviceRole::kSwitch) {
      const TierShape& shape = ShapeOf(fabric, d);
      total += shape.down_ports + shape.up_ports + 1;
    }
  }
  constexpr uint32_t kNone = 0xFFFFFFFF;
  std::vector<uint32_t> port_link(total, kNone);
  auto slot = [&](PortRef ref) -> uint32_t* {
    const Device& d = fabric.devices[ref.device];
    if (d.role != DeviceRole::kSwitch) return nullptr;
    return &port_link[port_base[ref.device] + ref.port];
  };
  for (uint32_t i = 0; i < fabric.links.size(); ++i) {
    Link& link = fabric.links[i];
    if (uint32_t* s = slot(link.a)) *s = i;
    if (uint32_t* s = slot(link.z)) *s = i;
    link.route_m = static_cast<float>(RouteLength(spec.layout, fabric, link.a.device, link.z.device));
  }

  // Interned end forms: a handful of distinct strings across hundreds of thousands of links.
  struct Key {
    Gbps speed;
    uint16_t a, z;
    bool paired;
    uint32_t decimetres;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return ((size_t{k.speed} * 131 + k.a) * 131 + k.z) * 2 + k.paired + (size_t{k.decimetres} << 24);
    }
  };
  std::unordered_map<Key, CableChoice, KeyHash> memo;
  std::vector<std::string> forms;
  std::unordered_map<std::string, uint16_t> form_ids;
  auto intern = [&](const std::string& form) {
    auto [it, inserted] = form_ids.emplace(form, static_cast<uint16_t>(forms.size()));
    if (inserted) forms.push_back(form);
    return it->second;
  };

  std::unordered_map<uint64_t, uint32_t> twin_assembly;
  uint32_t next_assembly = 1;
  for (uint32_t i = 0; i < fabric.links.size(); ++i) {
    Link& link = fabric.links[i];
    // A twin cage is sized for the longer run of its two ports, at either end.
    double route = link.route_m;
    bool twin_a = false, twin_z = false;
    bool paired = false;
    for (PortRef end : {link.a, link.z}) {
      const Device& d = fabric.devices[end.device];
      if (d.role != DeviceRole::kSwitch || end.port == kMgmtPort) continue;
      const TierShape& shape = ShapeOf(fabric, d);
      if (PortsPerCage(shape, end.port) != 2) continue;
      (end == link.a ? twin_a : twin_z) = true;
      // A cage mate past the device's ports (a shape the fuzzer found where the last cage is not
      // full) has no link: reading it would run into the next device's ports, or past the end.
      const uint32_t mate_port = CageMate(shape, end.port);
      if (mate_port > shape.down_ports + shape.up_ports) continue;
      uint32_t mate = port_link[port_base[end.device] + mate_port];
      if (mate != kNone) route = std::max<double>(route, fabric.links[mate].route_m);
    }
    if (twin_a && twin_z) {
      // Paired when the a-end cage mate's link lands on the z-end cage mate.
      const TierShape& shape_a = ShapeOf(fabric, fabric.devices[link.a.device]);
      const TierShape& shape_z = ShapeOf(fabric, fabric.devices[link.z.device]);
      uint32_t mate = port_link[port_base[link.a.device] + CageMate(shape_a, link.a.port)];
      if (mate != kNone) {
        const Link& m = fabric.links[mate];
        PortRef far = m.a == PortRef{link.a.device, CageMate(shape_a, link.a.port)} ? m.z : m.a;
        paired = far.device == link.z.device && far.port == CageMate(shape_z, link.z.port);
      }
    }
    uint16_t fa = intern(EndForm(catalog, fabric, link.a));
    uint16_t fz = intern(EndForm(catalog, fabric, link.z));
    Key key{link.speed, fa, fz, paired, static_cast<uint32_t>(std::ceil(route * 10 - 1e-6))};
    auto it = memo.find(key);
    if (it == memo.end()) {
      it = memo.emplace(key, ChooseCable(catalog, link.speed, forms[fa], forms[fz], paired, key.decimetres / 10.0)).first;
    }
    const CableChoice& choice = it->second;
    link.media = choice.media;
    link.cable = choice.cable;
    link.xcvr_a = choice.xcvr_a;
    link.xcvr_z = choice.xcvr_z;
    link.length_m = static_cast<float>(choice.length_m);
    // Assemblies that carry two links (twin DACs, splitters) are shared within the z-end cage.
    if (choice.media != Media::kOptical && choice.cable != kNoItem && catalog.cables()[choice.cable].links == 2) {
      const TierShape& shape_z = ShapeOf(fabric, fabric.devices[link.z.device]);
      uint64_t cage_key = (uint64_t{link.z.device} << 20) | CageOf(shape_z, link.z.port);
      auto [a, inserted] = twin_assembly.emplace(cage_key, next_assembly);
      if (inserted) ++next_assembly;
      link.assembly = a->second;
    } else {
      link.assembly = next_assembly++;
    }
  }
}

}  // namespace railyard
