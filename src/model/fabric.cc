#include "model/fabric.h"

#include <functional>

#include <algorithm>

#include <fmt/format.h>

namespace railyard {

std::string_view ToString(FabricKind kind) {
  switch (kind) {
    case FabricKind::kInfiniband:
      return "infiniband";
    case FabricKind::kRoce:
      return "roce";
    case FabricKind::kEthernet:
      return "ethernet";
  }
  return "unknown";
}

std::string_view ToString(PlaneRole role) {
  switch (role) {
    case PlaneRole::kCompute:
      return "compute";
    case PlaneRole::kStorage:
      return "storage";
    case PlaneRole::kInband:
      return "inband";
    case PlaneRole::kOob:
      return "oob";
  }
  return "unknown";
}

std::string_view ToString(Tier tier) {
  switch (tier) {
    case Tier::kEndpoint:
      return "endpoint";
    case Tier::kLeaf:
      return "leaf";
    case Tier::kSpine:
      return "spine";
    case Tier::kCore:
      return "core";
  }
  return "unknown";
}

std::string_view ToString(Media media) {
  switch (media) {
    case Media::kNone:
      return "none";
    case Media::kDac:
      return "dac";
    case Media::kAcc:
      return "acc";
    case Media::kAoc:
      return "aoc";
    case Media::kOptical:
      return "optical";
    case Media::kRj45:
      return "rj45";
  }
  return "unknown";
}

std::optional<FabricKind> ParseFabricKind(std::string_view text) {
  if (text == "infiniband" || text == "ib") return FabricKind::kInfiniband;
  if (text == "roce") return FabricKind::kRoce;
  if (text == "ethernet") return FabricKind::kEthernet;
  return std::nullopt;
}

std::optional<PlaneRole> ParsePlaneRole(std::string_view text) {
  if (text == "compute") return PlaneRole::kCompute;
  if (text == "storage") return PlaneRole::kStorage;
  if (text == "inband" || text == "in-band") return PlaneRole::kInband;
  if (text == "oob" || text == "out-of-band") return PlaneRole::kOob;
  return std::nullopt;
}

uint8_t CageLanes(std::string_view cage) {
  if (cage.starts_with("osfp") || cage.starts_with("qsfp-dd")) return 8;
  if (cage.starts_with("qsfp")) return 4;
  return 1;
}

std::optional<PortNaming> ParsePortNaming(std::string_view text) {
  if (text == "ib") return PortNaming::kIb;
  if (text == "cumulus") return PortNaming::kCumulus;
  if (text == "eos") return PortNaming::kEos;
  if (text == "sonic") return PortNaming::kSonic;
  if (text == "nxos") return PortNaming::kNxos;
  return std::nullopt;
}

namespace {

std::string MgmtPortName(PortNaming naming) {
  switch (naming) {
    case PortNaming::kIb:
      return "mgmt0";
    case PortNaming::kCumulus:
      return "eth0";
    case PortNaming::kEos:
      return "Management1";
    case PortNaming::kSonic:
      return "eth0";
    case PortNaming::kNxos:
      return "mgmt0";
  }
  return "mgmt0";
}

std::string SwitchPortName(const PortLayout& layout, uint16_t port) {
  if (layout.naming == PortNaming::kIb) return fmt::format("{}", port);
  uint32_t index = port - 1u;
  uint32_t cage = 0;
  uint32_t sub = 0;
  uint32_t per_cage = layout.a_per_cage, lanes = layout.a_lanes;
  if (index < layout.a_ports) {
    cage = index / per_cage + 1;
    sub = index % per_cage;
  } else {
    per_cage = layout.b_per_cage;
    lanes = layout.b_lanes;
    uint32_t b = index - layout.a_ports;
    cage = layout.a_cages + b / per_cage + 1;
    sub = b % per_cage;
  }
  switch (layout.naming) {
    case PortNaming::kCumulus:
      return per_cage == 1 ? fmt::format("swp{}", cage) : fmt::format("swp{}s{}", cage, sub);
    case PortNaming::kEos:
      // EOS names an interface by its cage and first lane: a 2x400G OSFP is EthernetN/1 and
      // EthernetN/5 (Arista EOS manual, "Octal Port Renumber"; docs/config.md).
      return fmt::format("Ethernet{}/{}", cage, sub * std::max<uint32_t>(1, lanes / per_cage) + 1);
    case PortNaming::kSonic:
      // SONiC names ports by their first SerDes lane.
      return fmt::format("Ethernet{}", (cage - 1) * lanes + sub * std::max<uint32_t>(1, lanes / per_cage));
    case PortNaming::kNxos:
      return per_cage == 1 ? fmt::format("Ethernet1/{}", cage) : fmt::format("Ethernet1/{}/{}", cage, sub + 1);
    case PortNaming::kIb:
      break;
  }
  return fmt::format("{}", port);
}

}  // namespace

std::string PortName(const Fabric& fabric, PortRef ref) {
  const Device& device = fabric.devices[ref.device];
  if (device.role == DeviceRole::kSwitch) {
    const Plane& plane = fabric.planes[static_cast<size_t>(device.plane)];
    const PortLayout& layout = plane.tier[static_cast<size_t>(device.tier) - 1].layout;
    if (ref.port == kMgmtPort) return MgmtPortName(layout.naming);
    return SwitchPortName(layout, ref.port);
  }
  // Node or appliance: find the plane the port index falls in.
  for (const Plane& plane : fabric.planes) {
    if (ref.port >= plane.node_port_offset && ref.port < plane.node_port_offset + plane.ports_per_node) {
      if (plane.bmc) return "bmc";
      // RDMA device numbering: count the ports of the RDMA planes that come before.
      uint32_t rdma_index = 0;
      for (const Plane& other : fabric.planes) {
        if (&other == &plane) break;
        if (!other.bmc) rdma_index += other.ports_per_node;
      }
      return fmt::format("mlx5_{}", rdma_index + (ref.port - plane.node_port_offset));
    }
  }
  return fmt::format("port{}", ref.port);
}

std::string CagePosition(const Fabric& fabric, PortRef ref) {
  const Device& device = fabric.devices[ref.device];
  if (device.role != DeviceRole::kSwitch) {
    for (const Plane& plane : fabric.planes) {
      uint32_t p = ref.port - plane.node_port_offset;
      if (ref.port >= plane.node_port_offset && p < plane.ports_per_node && p < plane.slots.size()) return plane.slots[p];
    }
    return "";
  }
  if (ref.port == kMgmtPort) return "mgmt";
  const Plane& plane = fabric.planes[static_cast<size_t>(device.plane)];
  const PortLayout& layout = plane.tier[static_cast<size_t>(device.tier) - 1].layout;
  uint32_t index = ref.port - 1u;
  uint32_t cage = 0, per_cage = layout.a_per_cage, lane = 0;
  if (index < layout.a_ports) {
    cage = index / per_cage + 1;
    lane = index % per_cage + 1;
  } else {
    per_cage = layout.b_per_cage;
    uint32_t b = index - layout.a_ports;
    cage = layout.a_cages + b / per_cage + 1;
    lane = b % per_cage + 1;
  }
  return per_cage == 1 ? fmt::format("{}", cage) : fmt::format("{}/{}", cage, lane);
}

CableLabelParts LabelParts(const Fabric& fabric, uint32_t link_index) {
  const Plane& plane = fabric.planes[fabric.links[link_index].plane];
  return {plane.label_prefix, link_index - plane.first_link + 1};
}

std::string CableLabel(const Fabric& fabric, uint32_t link_index) { return fmt::format("{}", LabelParts(fabric, link_index)); }

}  // namespace railyard

namespace railyard {

namespace {

// A name for every port of every switch tier, [plane][tier][port], computed on one switch of the tier:
// every switch of a tier has the same ports.
std::vector<std::vector<std::vector<std::string>>> PerTierPortTable(const Fabric& fabric,
                                                                    const std::function<std::string(PortRef)>& name) {
  std::vector<std::vector<std::vector<std::string>>> table(fabric.planes.size());
  for (size_t p = 0; p < fabric.planes.size(); ++p) {
    const Plane& plane = fabric.planes[p];
    table[p].resize(3);
    for (size_t t = 0; t < 3; ++t) {
      const TierShape& shape = plane.tier[t];
      if (shape.count == 0) continue;
      for (uint32_t d = plane.first_switch; d < plane.first_switch + plane.switch_count; ++d) {
        if (static_cast<size_t>(fabric.devices[d].tier) != t + 1) continue;
        for (uint32_t port = 0; port <= shape.down_ports + shape.up_ports; ++port) {
          table[p][t].push_back(name(PortRef{d, static_cast<uint16_t>(port)}));
        }
        break;
      }
    }
  }
  return table;
}

}  // namespace

PortNamer::PortNamer(const Fabric& fabric) : fabric_(fabric) {
  uint32_t node_ports = 0;
  for (const Plane& plane : fabric.planes) node_ports = std::max(node_ports, plane.node_port_offset + plane.ports_per_node);
  // Names of node ports do not depend on the node; device 0 is a node whenever there are nodes.
  for (uint32_t p = 0; p < node_ports && fabric.node_count > 0; ++p) {
    node_ports_.push_back(PortName(fabric, PortRef{0, static_cast<uint16_t>(p)}));
  }
  switch_ports_ = PerTierPortTable(fabric, [&](PortRef ref) { return PortName(fabric, ref); });
}

const std::string& PortNamer::operator()(PortRef ref) const {
  const Device& d = fabric_.devices[ref.device];
  if (d.role == DeviceRole::kSwitch) {
    const auto& names = switch_ports_[static_cast<size_t>(d.plane)][static_cast<size_t>(d.tier) - 1];
    if (ref.port < names.size()) return names[ref.port];
  } else if (ref.port < node_ports_.size()) {
    return node_ports_[ref.port];
  }
  static const std::string kUnknown = "?";
  return kUnknown;
}

CageNamer::CageNamer(const Fabric& fabric) : fabric_(fabric) {
  // Node ports are numbered alike on every node: device 0 stands for all.
  for (uint32_t p = 0; p < fabric.ports_per_node && fabric.node_count > 0; ++p) {
    node_slots_.push_back(CagePosition(fabric, PortRef{0, static_cast<uint16_t>(p)}));
  }
  switch_ports_ = PerTierPortTable(fabric, [&](PortRef ref) { return CagePosition(fabric, ref); });
}

const std::string& CageNamer::operator()(PortRef ref) const {
  static const std::string kNone;
  const Device& d = fabric_.devices[ref.device];
  if (d.role != DeviceRole::kSwitch) return ref.port < node_slots_.size() ? node_slots_[ref.port] : kNone;
  if (ref.port == kMgmtPort) {
    static const std::string kMgmt = "mgmt";
    return kMgmt;
  }
  const auto& names = switch_ports_[static_cast<size_t>(d.plane)][static_cast<size_t>(d.tier) - 1];
  return ref.port < names.size() ? names[ref.port] : kNone;
}

}  // namespace railyard
