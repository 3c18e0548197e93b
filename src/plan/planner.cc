#include "plan/planner.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "plan/addressing.h"
#include "plan/cabling.h"
#include "plan/checks.h"
#include "plan/clos.h"
#include "plan/layout.h"

namespace railyard {
namespace {

constexpr uint32_t kUnplaced = std::numeric_limits<uint32_t>::max();

// One endpoint slot on a plane: a node, an appliance, or (oob) a switch's management port.
struct Slot {
  uint32_t device;
  uint16_t first_port;  // the device's port index of the slot's first port on this plane
  uint32_t ports;
};

uint32_t Digits(uint32_t n) {
  uint32_t d = 1;
  while (n >= 10) {
    n /= 10;
    ++d;
  }
  return d;
}

PortLayout LayoutFor(const SwitchModel& m, Gbps down_speed, bool split_uplinks) {
  PortLayout layout;
  layout.naming = m.naming;
  layout.a_ports = m.PortsAt(down_speed);
  layout.a_cages = m.cages;
  layout.a_per_cage = static_cast<uint8_t>(std::max<uint32_t>(1, layout.a_ports / std::max<uint32_t>(1, m.cages)));
  layout.b_per_cage = 1;
  layout.a_lanes = CageLanes(m.cage);
  layout.b_lanes = CageLanes(m.uplink_cage);
  (void)split_uplinks;
  return layout;
}

std::string LabelPrefix(const std::string& name, const std::set<std::string>& taken) {
  std::string base;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) && base.size() < 4) {
      base.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    }
  }
  std::string prefix = base;
  for (int i = 2; taken.count(prefix); ++i) prefix = fmt::format("{}{}", base, i);
  return prefix;
}

Finding PlaneFinding(const PlaneSpec& ps, const std::string& rule, Severity severity, std::string message, std::string fix,
                     const std::string& file) {
  Finding f;
  f.rule = rule;
  f.severity = severity;
  f.object = fmt::format("plane {}", ps.name);
  f.evidence = {{"spec", fmt::format("{}:{}", file, ps.mark.line)}};
  f.message = std::move(message);
  f.fix = std::move(fix);
  return f;
}

// Picks the spine model when the spec names none. A leaf with a separate uplink group (an
// out-of-band switch such as SN2201) cannot be its own spine; the catalog's switch of the same
// vendor and fabric that runs the uplink speed natively (one port per cage, no breakout
// cables) with the most such ports is used, and the plan says so.
uint16_t DefaultSpine(const Catalog& catalog, const PlaneSpec& ps, Gbps up_speed, std::vector<Finding>& findings,
                      const std::string& file) {
  const SwitchModel& leaf = catalog.switches()[ps.leaf_switch];
  if (leaf.uplink_ports.empty() && leaf.PortsAt(up_speed) > 0) return ps.leaf_switch;
  uint16_t best = ps.leaf_switch;
  uint32_t best_ports = 0;
  for (size_t i = 0; i < catalog.switches().size(); ++i) {
    const SwitchModel& m = catalog.switches()[i];
    if (m.fabric != leaf.fabric || !m.uplink_ports.empty() || m.vendor != leaf.vendor) continue;
    if (m.PortsAt(up_speed) != m.cages || m.confidence == "L") continue;
    if (m.PortsAt(up_speed) > best_ports) {
      best_ports = m.PortsAt(up_speed);
      best = static_cast<uint16_t>(i);
    }
  }
  findings.push_back(PlaneFinding(
      ps, "spine-switch-defaulted", Severity::kInfo,
      fmt::format("{} leaves uplink at {} through a separate port group; spines default to {} ({} ports at {})", leaf.model,
                  FormatSpeed(up_speed), catalog.switches()[best].model, best_ports, FormatSpeed(up_speed)),
      "name `spine_switch:` in the plane to choose another model", file));
  return best;
}

class PlaneBuilder {
 public:
  PlaneBuilder(const Spec& spec, const Catalog& catalog, Fabric& fabric, std::vector<Finding>& findings)
      : spec_(spec), catalog_(catalog), fabric_(fabric), findings_(findings) {}

  void Build(const PlaneSpec& ps, Plane& plane, const std::vector<Slot>& slots, uint16_t plane_index) {
    const SwitchModel& leaf_model = catalog_.switches()[ps.leaf_switch];
    plane.first_link = static_cast<uint32_t>(fabric_.links.size());
    plane.first_switch = static_cast<uint32_t>(fabric_.devices.size());
    const uint32_t leaf_ports = leaf_model.PortsAt(ps.speed);
    if (leaf_ports == 0) {
      findings_.push_back(
          PlaneFinding(ps, "switch-speed-unsupported", Severity::kError,
                       fmt::format("{} has no ports at {}", leaf_model.model, FormatSpeed(ps.speed)),
                       fmt::format("choose a switch that runs {} or change the plane speed", FormatSpeed(ps.speed)), spec_.file));
      return;
    }
    if (ps.leaf_pair) {
      BuildLeafPair(ps, plane, slots, plane_index, leaf_ports);
      return;
    }
    const bool split = !leaf_model.uplink_ports.empty();
    const Gbps up_speed = split ? leaf_model.FastestUplink() : ps.speed;
    const uint16_t spine_model =
        ps.spine_switch != kNoItem ? ps.spine_switch : DefaultSpine(catalog_, ps, up_speed, findings_, spec_.file);
    const uint16_t core_model = ps.core_switch != kNoItem ? ps.core_switch : spine_model;

    ClosInput in;
    in.ports_per_node = ps.ports_per_node;
    in.rail_optimized = ps.rail_optimized;
    in.nodes_per_su = ps.nodes_per_su;
    in.tiers = ps.tiers;
    in.leaf_ports = leaf_ports;
    in.leaf_uplink_ports = split ? leaf_model.UplinkPortsAt(up_speed) : 0;
    in.spine_ports = catalog_.switches()[spine_model].PortsAt(up_speed);
    in.core_ports = catalog_.switches()[core_model].PortsAt(up_speed);
    in.oversubscription = ps.oversubscription;
    // Nodes are the slots with the plane's full port count; the rest are appliance slots.
    for (const Slot& s : slots) {
      if (s.device < fabric_.node_count)
        ++in.nodes;
      else
        in.extra_ports.push_back(s.ports);
    }
    if (ps.role == PlaneRole::kOob) {
      in.ports_per_node = 1;
    }
    ClosShape shape = SizeClos(in);
    if (!shape.error.empty()) {
      findings_.push_back(PlaneFinding(ps, "plane-cannot-be-built", Severity::kError, shape.error,
                                       "use a switch with more ports, a higher oversubscription, fewer nodes, or let "
                                       "railyard choose the tier count",
                                       spec_.file));
      return;
    }
    plane.tiers = shape.tiers;
    plane.rails = shape.rails;
    plane.nodes_per_group = shape.nodes_per_group;
    plane.leaves_per_rail = shape.leaves_per_rail;
    plane.groups = shape.groups;
    plane.endpoints = shape.endpoints;
    plane.pods = shape.pods;
    plane.leaves_per_pod = shape.leaves_per_pod;
    plane.spines_per_pod = shape.spines_per_pod;
    plane.cores_per_group = shape.cores_per_group;

    TierShape& leaf = plane.tier[0];
    leaf.model = ps.leaf_switch;
    leaf.count = shape.leaves;
    leaf.down_speed = ps.speed;
    leaf.up_speed = shape.tiers > 1 ? up_speed : 0;
    leaf.down_ports = shape.leaf_down;
    leaf.up_ports = shape.leaf_up;
    leaf.layout = LayoutFor(leaf_model, ps.speed, split);
    if (shape.tiers > 1) {
      plane.oversubscription[0] = double(shape.leaf_down) * ps.speed / (double(shape.leaf_up) * up_speed);
      TierShape& spine = plane.tier[1];
      spine.model = spine_model;
      spine.count = shape.spines;
      spine.down_speed = up_speed;
      spine.up_speed = shape.tiers > 2 ? up_speed : 0;
      spine.down_ports = shape.tiers > 2 ? shape.spine_down : in.spine_ports;
      spine.up_ports = shape.spine_up;
      spine.layout = LayoutFor(catalog_.switches()[spine_model], up_speed, false);
    }
    if (shape.tiers > 2) {
      plane.oversubscription[1] = double(shape.spine_down) / shape.spine_up;
      TierShape& core = plane.tier[2];
      core.model = core_model;
      core.count = shape.cores;
      core.down_speed = up_speed;
      core.down_ports = in.core_ports;
      core.layout = LayoutFor(catalog_.switches()[core_model], up_speed, false);
    }

    CreateSwitches(ps, plane, shape, plane_index);
    WireEndpoints(plane, shape, slots, plane_index, ps);
    WireLeafSpine(plane, shape, plane_index, up_speed);
    WireSpineCore(plane, shape, plane_index, up_speed);
    plane.link_count = static_cast<uint32_t>(fabric_.links.size()) - plane.first_link;
    plane.switch_count = static_cast<uint32_t>(fabric_.devices.size()) - plane.first_switch;
  }

 private:
  Device NewSwitch(std::string name, uint16_t plane_index, Tier tier, uint16_t model) {
    Device d;
    d.name = std::move(name);
    d.role = DeviceRole::kSwitch;
    d.tier = tier;
    d.plane = static_cast<int16_t>(plane_index);
    d.model = model;
    d.rack = kUnplaced;
    return d;
  }

  // redundancy: leaf-pair (labs and small clusters, MLAG or EVPN multihoming): two leaves and no
  // spines; every endpoint's ports alternate between them (port 0 on the first, port 1 on the
  // second ...), and the leaves are joined by `peer_links` links on their last used ports.
  void BuildLeafPair(const PlaneSpec& ps, Plane& plane, const std::vector<Slot>& slots, uint16_t plane_index,
                     uint32_t leaf_ports) {
    const SwitchModel& leaf_model = catalog_.switches()[ps.leaf_switch];
    uint32_t per_leaf[2] = {0, 0};
    for (const Slot& slot : slots) {
      per_leaf[0] += (slot.ports + 1) / 2;
      per_leaf[1] += slot.ports / 2;
    }
    const uint32_t down = std::max(per_leaf[0], per_leaf[1]);
    if (down + ps.peer_links > leaf_ports) {
      findings_.push_back(PlaneFinding(
          ps, "plane-cannot-be-built", Severity::kError,
          fmt::format("a leaf pair of {} needs {} endpoint ports and {} peer links per leaf; a {} has {} ports at {}",
                      leaf_model.model, down, ps.peer_links, leaf_model.model, leaf_ports, FormatSpeed(ps.speed)),
          "use a switch with more ports, fewer nodes, or a spine tier instead of a leaf pair", spec_.file));
      return;
    }
    plane.tiers = 1;
    plane.rails = 1;
    plane.groups = 1;
    plane.pods = 1;
    plane.nodes_per_group = static_cast<uint32_t>(slots.size());
    plane.leaves_per_rail = 2;
    plane.endpoints = per_leaf[0] + per_leaf[1];
    TierShape& leaf = plane.tier[0];
    leaf.model = ps.leaf_switch;
    leaf.count = 2;
    leaf.down_speed = ps.speed;
    leaf.up_speed = ps.speed;  // the peer links
    leaf.down_ports = down;
    leaf.up_ports = ps.peer_links;
    leaf.layout = LayoutFor(leaf_model, ps.speed, !leaf_model.uplink_ports.empty());
    leaf_base_.assign(1, 0);
    for (uint32_t k = 0; k < 2; ++k) {
      Device d = NewSwitch(fmt::format("{}-leaf-{:03}", ps.name, k + 1), plane_index, Tier::kLeaf, ps.leaf_switch);
      d.group = 0;
      d.pod = 0;
      fabric_.devices.push_back(std::move(d));
    }
    first_spine_ = first_core_ = static_cast<uint32_t>(fabric_.devices.size());
    uint32_t next_port[2] = {0, 0};
    for (const Slot& slot : slots) {
      for (uint32_t p = 0; p < slot.ports; ++p) {
        uint32_t k = p % 2;
        uint32_t leaf_device = plane.first_switch + k;
        uint16_t leaf_port = static_cast<uint16_t>(++next_port[k]);
        if (fabric_.devices[leaf_device].rack == kUnplaced) fabric_.devices[leaf_device].rack = fabric_.devices[slot.device].rack;
        AddLink({slot.device, static_cast<uint16_t>(slot.first_port + p)}, {leaf_device, leaf_port}, plane_index, 0, -1,
                ps.speed);
      }
    }
    leaf.used_down = std::max(next_port[0], next_port[1]);
    plane.links_per_level[0] = static_cast<uint32_t>(fabric_.links.size()) - plane.first_link;
    for (uint32_t i = 0; i < ps.peer_links; ++i) {
      uint16_t port = static_cast<uint16_t>(down + i + 1);
      AddLink({plane.first_switch, port}, {plane.first_switch + 1, port}, plane_index, 3, -1, ps.speed);
    }
    plane.links_per_level[3] = ps.peer_links;
    plane.link_count = static_cast<uint32_t>(fabric_.links.size()) - plane.first_link;
    plane.switch_count = 2;
  }

  void CreateSwitches(const PlaneSpec& ps, Plane& plane, const ClosShape& shape, uint16_t plane_index) {
    const uint32_t group_width = std::max<uint32_t>(2, Digits(shape.groups));
    const uint32_t leaf_width = std::max<uint32_t>(3, Digits(shape.leaves));
    uint32_t groups_per_pod = shape.tiers > 2 ? shape.leaves_per_pod / (shape.rails * shape.leaves_per_rail) : shape.groups;
    uint32_t index = 0;
    leaf_base_.assign(shape.groups, 0);
    for (uint32_t g = 0; g < shape.groups; ++g) {
      leaf_base_[g] = index;
      for (uint32_t r = 0; r < shape.rails; ++r) {
        for (uint32_t k = 0; k < shape.leaves_in_group[g]; ++k, ++index) {
          std::string name;
          if (ps.rail_optimized) {
            name = fmt::format("{}-leaf-su{:0{}}-r{}", ps.name, g + 1, group_width, r + 1);
            if (shape.leaves_per_rail > 1) name += fmt::format("-{}", k + 1);
          } else {
            name = fmt::format("{}-leaf-{:0{}}", ps.name, index + 1, leaf_width);
          }
          Device d = NewSwitch(std::move(name), plane_index, Tier::kLeaf, plane.tier[0].model);
          d.group = static_cast<int32_t>(g);
          d.pod = static_cast<int32_t>(g / std::max<uint32_t>(1, groups_per_pod));
          d.rail = ps.rail_optimized ? static_cast<int16_t>(r) : -1;
          fabric_.devices.push_back(std::move(d));
        }
      }
    }
    first_spine_ = static_cast<uint32_t>(fabric_.devices.size());
    const uint32_t spine_width = std::max<uint32_t>(2, Digits(shape.spines_per_pod));
    for (uint32_t q = 0; q < shape.pods && shape.tiers > 1; ++q) {
      for (uint32_t s = 0; s < shape.spines_per_pod; ++s) {
        std::string name = shape.tiers > 2 ? fmt::format("{}-spine-p{:0{}}-{:0{}}", ps.name, q + 1,
                                                         std::max<uint32_t>(2, Digits(shape.pods)), s + 1, spine_width)
                                           : fmt::format("{}-spine-{:0{}}", ps.name, s + 1, spine_width);
        Device d = NewSwitch(std::move(name), plane_index, Tier::kSpine, plane.tier[1].model);
        d.pod = static_cast<int32_t>(q);
        fabric_.devices.push_back(std::move(d));
      }
    }
    first_core_ = static_cast<uint32_t>(fabric_.devices.size());
    const uint32_t core_width = std::max<uint32_t>(3, Digits(shape.cores));
    for (uint32_t c = 0; c < shape.cores; ++c) {
      fabric_.devices.push_back(
          NewSwitch(fmt::format("{}-core-{:0{}}", ps.name, c + 1, core_width), plane_index, Tier::kCore, plane.tier[2].model));
    }
  }

  uint32_t LeafIndex(const ClosShape& shape, uint32_t group, uint32_t rail, uint32_t k) const {
    return leaf_base_[group] + rail * shape.leaves_in_group[group] + k;
  }

  void AddLink(PortRef a, PortRef z, uint16_t plane_index, uint8_t level, int16_t rail, Gbps speed) {
    Link link;
    link.a = a;
    link.z = z;
    link.plane = plane_index;
    link.level = level;
    link.rail = rail;
    link.speed = speed;
    fabric_.links.push_back(link);
  }

  void WireEndpoints(Plane& plane, const ClosShape& shape, const std::vector<Slot>& slots, uint16_t plane_index,
                     const PlaneSpec& ps) {
    const uint32_t first_leaf = plane.first_switch;
    for (uint32_t s = 0; s < slots.size(); ++s) {
      const Slot& slot = slots[s];
      uint32_t group = s / shape.nodes_per_group;
      uint32_t local = s % shape.nodes_per_group;
      uint32_t k = local / shape.slots_per_leaf;
      uint32_t leaf_slot = local % shape.slots_per_leaf;
      for (uint32_t p = 0; p < slot.ports; ++p) {
        uint32_t rail = p % shape.rails;
        uint32_t j = p / shape.rails;
        uint32_t leaf = first_leaf + LeafIndex(shape, group, rail, k);
        uint16_t leaf_port = static_cast<uint16_t>(leaf_slot * shape.ports_per_rail + j + 1);
        Device& leaf_device = fabric_.devices[leaf];
        if (leaf_device.rack == kUnplaced) leaf_device.rack = fabric_.devices[slot.device].rack;
        plane.tier[0].used_down = std::max<uint32_t>(plane.tier[0].used_down, leaf_port);
        AddLink({slot.device, static_cast<uint16_t>(slot.first_port + p)}, {leaf, leaf_port}, plane_index, 0,
                ps.rail_optimized ? static_cast<int16_t>(rail) : -1, ps.speed);
      }
    }
    plane.links_per_level[0] = static_cast<uint32_t>(fabric_.links.size()) - plane.first_link;
  }

  void WireLeafSpine(Plane& plane, const ClosShape& shape, uint16_t plane_index, Gbps speed) {
    if (shape.tiers < 2) return;
    const uint32_t per = shape.links_per_leaf_spine_pair();
    const size_t before = fabric_.links.size();
    for (uint32_t l = 0; l < shape.leaves; ++l) {
      uint32_t leaf = plane.first_switch + l;
      uint32_t pod = static_cast<uint32_t>(std::max(0, fabric_.devices[leaf].pod));
      if (shape.tiers == 2) pod = 0;
      uint32_t local = l - pod * shape.leaves_per_pod;
      for (uint32_t m = 0; m < shape.leaf_up; ++m) {
        uint32_t spine = first_spine_ + pod * shape.spines_per_pod + m / per;
        uint16_t spine_port = static_cast<uint16_t>(local * per + m % per + 1);
        plane.tier[1].used_down = std::max<uint32_t>(plane.tier[1].used_down, spine_port);
        AddLink({leaf, static_cast<uint16_t>(shape.leaf_down + m + 1)}, {spine, spine_port}, plane_index, 1,
                fabric_.devices[leaf].rail, speed);
      }
    }
    plane.links_per_level[1] = static_cast<uint32_t>(fabric_.links.size() - before);
  }

  void WireSpineCore(Plane& plane, const ClosShape& shape, uint16_t plane_index, Gbps speed) {
    if (shape.tiers < 3) return;
    const uint32_t per = shape.links_per_spine_core_pair();
    const size_t before = fabric_.links.size();
    for (uint32_t q = 0; q < shape.pods; ++q) {
      for (uint32_t s = 0; s < shape.spines_per_pod; ++s) {
        uint32_t spine = first_spine_ + q * shape.spines_per_pod + s;
        for (uint32_t m = 0; m < shape.spine_up; ++m) {
          uint32_t core = first_core_ + s * shape.cores_per_group + m / per;
          uint16_t core_port = static_cast<uint16_t>(q * per + m % per + 1);
          plane.tier[2].used_down = std::max<uint32_t>(plane.tier[2].used_down, core_port);
          AddLink({spine, static_cast<uint16_t>(shape.spine_down + m + 1)}, {core, core_port}, plane_index, 2, -1, speed);
        }
      }
    }
    plane.links_per_level[2] = static_cast<uint32_t>(fabric_.links.size() - before);
  }

  const Spec& spec_;
  const Catalog& catalog_;
  Fabric& fabric_;
  std::vector<Finding>& findings_;
  std::vector<uint32_t> leaf_base_;
  uint32_t first_spine_ = 0;
  uint32_t first_core_ = 0;
};

}  // namespace

double BisectionGbps(const Plane& plane) {
  double endpoints = double(plane.endpoints) * plane.tier[0].down_speed;
  if (plane.tiers <= 1) return endpoints / 2;
  double leaf_up = double(plane.tier[0].count) * plane.tier[0].up_ports * plane.tier[0].up_speed;
  double cut = std::min(endpoints, leaf_up);
  if (plane.tiers > 2) {
    double spine_up = double(plane.tier[1].count) * plane.tier[1].up_ports * plane.tier[1].up_speed;
    cut = std::min(cut, spine_up);
  }
  return cut / 2;
}

namespace {

// Planes keep the spec's order; ports on a node are numbered plane by plane.
void AddPlanes(const Spec& spec, Fabric& fabric) {
  std::set<std::string> prefixes;
  uint32_t port_offset = 0;
  for (const PlaneSpec& ps : spec.planes) {
    Plane plane;
    plane.name = ps.name;
    plane.label_prefix = LabelPrefix(ps.name, prefixes);
    prefixes.insert(plane.label_prefix);
    plane.kind = ps.kind;
    plane.role = ps.role;
    plane.speed = ps.speed;
    plane.nic = ps.nic_index;
    plane.ports_per_node = ps.ports_per_node;
    plane.rail_optimized = ps.rail_optimized;
    plane.netdevs = ps.netdevs;
    plane.slots = ps.slots;
    plane.qos = ps.qos;
    plane.bond = ps.bond;
    plane.mtu = ps.mtu                                                        ? ps.mtu
                : ps.kind == FabricKind::kInfiniband                          ? 2044  // IPoIB datagram: a 2048-byte IB MTU less 4
                : ps.role == PlaneRole::kInband || ps.role == PlaneRole::kOob ? 1500
                                                                              : 9000;
    plane.bmc = ps.role == PlaneRole::kOob;
    plane.node_port_offset = port_offset;
    port_offset += ps.ports_per_node;
    auto addressing = spec.addressing.find(ps.name);
    if (addressing != spec.addressing.end()) plane.addressing = addressing->second.plane;
    fabric.planes.push_back(std::move(plane));
  }
  fabric.ports_per_node = port_offset;
}

// Nodes, then appliances (each takes the node slot after the last node); returns each in-band plane's
// endpoint slots.
std::vector<std::vector<Slot>> AddNodesAndAppliances(const Spec& spec, Fabric& fabric) {
  const uint32_t name_width = std::max<uint32_t>(3, Digits(spec.nodes.count));
  fabric.devices.reserve(spec.nodes.count + 4096);
  for (uint32_t i = 0; i < spec.nodes.count; ++i) {
    Device d;
    d.name = fmt::format("{}{:0{}}", spec.nodes.name_prefix, i + 1, name_width);
    d.role = DeviceRole::kNode;
    fabric.devices.push_back(std::move(d));
  }
  std::vector<std::vector<Slot>> plane_slots(spec.planes.size());
  for (size_t p = 0; p < spec.planes.size(); ++p) {
    const PlaneSpec& ps = spec.planes[p];
    if (ps.role == PlaneRole::kOob) continue;
    for (uint32_t i = 0; i < spec.nodes.count; ++i) {
      plane_slots[p].push_back({i, static_cast<uint16_t>(fabric.planes[p].node_port_offset), ps.ports_per_node});
    }
    for (const ExtraEndpointSpec& x : ps.extra_endpoints) {
      for (uint32_t k = 0; k < x.count; ++k) {
        Device d;
        d.name = x.count == 1 ? x.name : fmt::format("{}-{}", x.name, k + 1);
        d.role = DeviceRole::kAppliance;
        plane_slots[p].push_back(
            {static_cast<uint32_t>(fabric.devices.size()), static_cast<uint16_t>(fabric.planes[p].node_port_offset), x.ports});
        fabric.devices.push_back(std::move(d));
      }
    }
  }
  std::set<std::string> names;
  for (const Device& d : fabric.devices) {
    if (!names.insert(d.name).second) {
      throw SpecError(spec.file, {}, "extra_endpoints", fmt::format("device name '{}' is used twice", d.name));
    }
  }
  return plane_slots;
}

// Names chosen by meaning (nic: ConnectX-7) are said, with the part chosen.
void NoteResolvedNames(const Spec& spec, std::vector<Finding>& findings) {
  for (const SpecNote& note : spec.notes) {
    Finding f;
    f.rule = "spec-name-resolved";
    f.severity = Severity::kInfo;
    f.object = note.key;
    f.evidence = {{"spec", fmt::format("{}:{}", spec.file, note.mark.line)}};
    f.message = note.message;
    f.fix = "write the OPN in the spec to pin this choice";
    findings.push_back(std::move(f));
  }
}

// The out-of-band plane comes last: it cables every node's BMC and every switch's management port, so
// it needs the other planes' switches placed.
void BuildOobPlanes(const Spec& spec, const Catalog& catalog, Fabric& fabric, PlaneBuilder& builder) {
  for (size_t p = 0; p < spec.planes.size(); ++p) {
    const PlaneSpec& ps = spec.planes[p];
    if (ps.role != PlaneRole::kOob) continue;
    std::vector<Slot> slots;
    for (uint32_t i = 0; i < spec.nodes.count; ++i) {
      slots.push_back({i, static_cast<uint16_t>(fabric.planes[p].node_port_offset), 1});
    }
    if (ps.manage_switches) {
      for (uint32_t d = 0; d < fabric.devices.size(); ++d) {
        if (fabric.devices[d].role == DeviceRole::kSwitch) slots.push_back({d, kMgmtPort, 1});
      }
      // Management ports join the BMCs of their own row, so each out-of-band leaf serves one
      // stretch of the hall rather than switches scattered across it.
      std::stable_sort(slots.begin(), slots.end(), [&](const Slot& a, const Slot& b) {
        const Device& da = fabric.devices[a.device];
        const Device& db = fabric.devices[b.device];
        return fabric.racks[da.rack].row < fabric.racks[db.rack].row;
      });
    }
    builder.Build(ps, fabric.planes[p], slots, static_cast<uint16_t>(p));
    PlaceSwitches(spec, catalog, fabric);
  }
}

// A switch name is made from its plane, tier and number; a node prefix can yield the same
// ("compute-leaf-" + 001): two devices of one name would make every output ambiguous.
void CheckNoNameClash(const Spec& spec, const Fabric& fabric) {
  std::map<std::string_view, uint32_t> seen;
  for (uint32_t d = 0; d < fabric.devices.size(); ++d) {
    auto [it, added] = seen.emplace(fabric.devices[d].name, d);
    if (added) continue;
    throw SpecError(
        spec.file, spec.nodes.mark, "nodes.name_prefix",
        fmt::format("device name '{}' is both a {} and a {}: choose a name_prefix no switch name starts with",
                    fabric.devices[d].name, fabric.devices[it->second].role == DeviceRole::kSwitch ? "switch" : "node",
                    fabric.devices[d].role == DeviceRole::kSwitch ? "switch" : "node"));
  }
}

// The hall's names for railyard's rack IDs (spec racks:): every output then speaks the hall's.
void NameRacks(const Spec& spec, Fabric& fabric) {
  if (spec.rack_names.empty()) return;
  std::map<std::string, uint32_t> by_id;
  for (uint32_t r = 0; r < fabric.racks.size(); ++r) by_id[fabric.racks[r].name] = r;
  for (const auto& [id, hall] : spec.rack_names) {
    if (by_id.count(id) == 0) {
      throw SpecError(
          spec.file, spec.rack_name_marks.at(id), "racks." + id,
          fmt::format("the plan has no rack {} (its racks are {} to {})", id, by_id.begin()->first, by_id.rbegin()->first));
    }
  }
  for (const auto& [id, hall] : spec.rack_names) fabric.racks[by_id.at(id)].name = hall;
  std::set<std::string> taken;
  for (const Rack& r : fabric.racks) {
    if (!taken.insert(r.name).second) throw SpecError(spec.file, {}, "racks", fmt::format("two racks would be named {}", r.name));
  }
}

// The OPN of each switch model: the spec's airflow where the catalog has an OPN for it, else the first OPN
// with a finding that says so.
void ChooseSwitchOpns(const Spec& spec, const Catalog& catalog, const Fabric& fabric, PlanResult& result) {
  for (const Device& d : fabric.devices) {
    if (d.role != DeviceRole::kSwitch || result.switch_opns.count(d.model)) continue;
    const SwitchModel& m = catalog.switches()[d.model];
    auto airflow_of = [&](const std::string& opn) {
      for (const auto& [o, way] : m.airflow) {
        if (o == opn) return way;
      }
      return std::string();
    };
    std::string opn = m.opns.empty() ? m.model : m.opns.front();
    if (!spec.layout.airflow.empty()) {
      auto match =
          std::find_if(m.airflow.begin(), m.airflow.end(), [&](const auto& e) { return e.second == spec.layout.airflow; });
      if (match != m.airflow.end()) {
        opn = match->first;
      } else {
        Finding f;
        f.rule = "airflow-unavailable";
        f.severity = Severity::kWarning;
        f.object = fmt::format("switch {}", m.model);
        f.evidence = {{"spec", fmt::format("{}:{}", spec.file, spec.layout.mark.line)}, {"airflow", spec.layout.airflow}};
        std::string known;
        for (const auto& [o, way] : m.airflow) known += fmt::format("{}{} ({})", known.empty() ? "" : ", ", o, way);
        f.message =
            fmt::format("the catalog has no {} OPN of {} ({}): the BOM orders {}", spec.layout.airflow == "p2c" ? "P2C" : "C2P",
                        m.model, known.empty() ? "no airflow known for any of its OPNs" : known, opn);
        f.fix = "ask the vendor for the other airflow's OPN and add it with --catalog, or choose a model that has it";
        result.findings.push_back(std::move(f));
      }
    }
    result.switch_opns[d.model] = {opn, airflow_of(opn)};
  }
}

}  // namespace

PlanResult Plan(const Spec& spec, const Catalog& catalog) {
  PlanResult result;
  Fabric& fabric = result.fabric;
  fabric.name = spec.name;
  fabric.rack_units = spec.layout.rack_units;
  fabric.node_count = spec.nodes.count;
  fabric.gpus_per_node = spec.nodes.gpus;
  AddPlanes(spec, fabric);
  const std::vector<std::vector<Slot>> plane_slots = AddNodesAndAppliances(spec, fabric);
  NoteResolvedNames(spec, result.findings);
  PlaceNodes(spec, fabric, static_cast<uint32_t>(fabric.devices.size()));
  PlaneBuilder builder(spec, catalog, fabric, result.findings);
  for (size_t p = 0; p < spec.planes.size(); ++p) {
    if (spec.planes[p].role == PlaneRole::kOob) continue;
    builder.Build(spec.planes[p], fabric.planes[p], plane_slots[p], static_cast<uint16_t>(p));
  }
  PlaceSwitches(spec, catalog, fabric);
  BuildOobPlanes(spec, catalog, fabric, builder);
  CheckNoNameClash(spec, fabric);
  FinalizeRacks(spec, fabric);
  NameRacks(spec, fabric);
  ChooseCables(spec, catalog, fabric);
  auto addressing = AssignAddresses(fabric);
  result.findings.insert(result.findings.end(), addressing.begin(), addressing.end());
  ChooseSwitchOpns(spec, catalog, fabric, result);
  result.bom = BuildBom(catalog, fabric, spec.spares_percent, result.switch_opns);
  auto checks = RunDesignChecks(spec, catalog, fabric);
  result.findings.insert(result.findings.end(), checks.begin(), checks.end());
  std::stable_sort(result.findings.begin(), result.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  return result;
}

}  // namespace railyard
