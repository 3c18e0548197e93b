// The Fabric: the one typed model of a cluster network that every railyard command reads.
//
// It is built for 100,000-GPU clusters, so it is flat and index-based: devices and links live in
// vectors, links refer to devices by index, and strings that can be derived (port names, cable
// labels) are derived on output rather than stored per link.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "model/units.h"

namespace railyard {

enum class FabricKind : uint8_t { kInfiniband, kRoce, kEthernet };
enum class PlaneRole : uint8_t { kCompute, kStorage, kInband, kOob };
enum class Tier : uint8_t { kEndpoint = 0, kLeaf = 1, kSpine = 2, kCore = 3 };
enum class DeviceRole : uint8_t { kNode, kAppliance, kSwitch };
// How a link is physically made. kOptical = a transceiver at each end and a fibre between.
enum class Media : uint8_t { kNone, kDac, kAcc, kAoc, kOptical, kRj45 };

std::string_view ToString(FabricKind kind);
std::string_view ToString(PlaneRole role);
std::string_view ToString(Tier tier);
std::string_view ToString(Media media);
std::optional<FabricKind> ParseFabricKind(std::string_view text);
std::optional<PlaneRole> ParsePlaneRole(std::string_view text);

inline constexpr uint16_t kNoItem = 0xFFFF;
inline constexpr uint16_t kMgmtPort = 0;  // port 0 of a switch is its out-of-band management port

struct Rack {
  std::string name;
  uint16_t row = 0;       // 0-based row index
  uint16_t position = 0;  // 0-based position within the row
  bool network = false;   // holds switches rather than GPU nodes
  uint16_t used_u = 0;    // rack units taken so far (switch placement)
};

struct Device {
  std::string name;
  DeviceRole role = DeviceRole::kNode;
  Tier tier = Tier::kEndpoint;
  int16_t plane = -1;        // owning plane for switches; -1 for nodes and appliances
  uint16_t model = kNoItem;  // catalog switch index for switches
  uint32_t rack = 0;         // index into Fabric::racks
  uint16_t u = 0;            // lowest rack unit occupied, 1-based
  uint16_t height_u = 1;
  int32_t group = -1;  // scalable unit / leaf group
  int32_t pod = -1;    // pod (three-tier planes)
  int16_t rail = -1;   // rail of a leaf (rail-optimized planes)
  uint32_t asn = 0;    // BGP ASN (L3 Ethernet planes)
  Ipv4 loopback = 0;   // router loopback (L3 Ethernet planes)
  Ipv4 mgmt_ip = 0;    // out-of-band address (switch mgmt port, node BMC)
};

// One end of a link. On switches `port` is the 1-based front-panel logical port (0 = mgmt);
// on nodes and appliances it is the 0-based index of the NIC port across all planes.
struct PortRef {
  uint32_t device = 0;
  uint16_t port = 0;
  bool operator==(const PortRef&) const = default;
};

struct Link {
  PortRef a;  // the lower-tier end (endpoint, or the leaf on a leaf-spine link)
  PortRef z;  // the upper-tier end
  uint16_t plane = 0;
  uint8_t level = 0;  // 0 endpoint-leaf, 1 leaf-spine, 2 spine-core, 3 leaf-peer (a leaf pair's peer link)
  int16_t rail = -1;
  Gbps speed = 0;
  Media media = Media::kNone;
  uint16_t cable = kNoItem;   // catalog cable row: the assembly, or the fibre for optical links
  uint16_t xcvr_a = kNoItem;  // catalog transceiver at the a end (optical links)
  uint16_t xcvr_z = kNoItem;
  float route_m = 0;      // computed route: horizontal + vertical drops + slack
  float length_m = 0;     // orderable length chosen for the route
  uint32_t assembly = 0;  // id of the physical assembly; twin-port assemblies carry two links
  Ipv4 ip_a = 0;          // /31 point-to-point or host addresses; 0 = none
  Ipv4 ip_z = 0;
  uint8_t ip_length = 0;
};

enum class PortNaming : uint8_t { kIb, kCumulus, kEos, kSonic, kNxos };
std::optional<PortNaming> ParsePortNaming(std::string_view text);

// How a switch model's logical ports map onto its cages, so ports can be named as the switch's
// OS names them. Group A is the main port group; group B a separate uplink group (SN2201's
// QSFP28s) that continues the cage numbering after group A.
struct PortLayout {
  PortNaming naming = PortNaming::kIb;
  uint32_t a_ports = 0;  // logical ports in group A at the speed in use
  uint16_t a_cages = 0;
  uint8_t a_per_cage = 1;  // logical ports per cage in group A (2 = twin-port / 2x breakout)
  uint8_t b_per_cage = 1;
  // Electrical lanes per cage (CageLanes): names that count lanes (EOS EthernetN/5, SONiC
  // Ethernet<first lane>) depend on them.
  uint8_t a_lanes = 8;
  uint8_t b_lanes = 4;
};

// Electrical lanes of a pluggable cage, by its form factor as the catalog names it (the MSAs:
// OSFP and QSFP-DD 8, QSFP28/56/112 4, SFP 1); 1 for RJ45 and unknown forms.
uint8_t CageLanes(std::string_view cage);

// The shape of one switching tier of a plane.
struct TierShape {
  PortLayout layout;
  uint16_t model = kNoItem;  // catalog switch index
  uint32_t count = 0;        // switches in the tier
  Gbps down_speed = 0;
  Gbps up_speed = 0;
  uint32_t down_ports = 0;  // ports per switch facing the tier below
  uint32_t up_ports = 0;    // ports per switch facing the tier above (0 at the top)
  uint32_t used_down = 0;   // most down ports used on any switch of the tier
};

struct PlaneAddressing {
  std::optional<Ipv4Prefix> prefix;
  std::optional<Ipv4Prefix> loopbacks;
  uint16_t vlan = 0;  // 0 = untagged / none
  enum class Mode : uint8_t { kNone, kHost, kP2p31, kIpoib } mode = Mode::kNone;
  uint32_t asn_base = 0;
};

// RoCE lossless class of a plane: hosts and switches are configured alike from it. Defaults: RDMA on
// priority 3 with DSCP 26 (ToS 106 = 26 << 2 | ECT(0)), congestion notifications on DSCP 48 /
// priority 6 (../shared/reference/host-tuning.md: NVIDIA mlnx_qos samples and Network Operator,
// Spectrum-X defaults; CNP DSCP 48 medium confidence).
struct RoceQos {
  uint8_t priority = 3;
  uint8_t dscp = 26;
  uint8_t cnp_dscp = 48;
  uint8_t cnp_priority = 6;
  uint8_t tos() const { return static_cast<uint8_t>(dscp << 2 | 2); }  // ECT(0): the flow is ECN-capable
};

struct Plane {
  std::string name;
  uint32_t mtu = 0;                  // host-side MTU (spec `mtu:`, else the kind's default: 9000, 1500 in-band, 2044 IPoIB)
  RoceQos qos;                       // roce planes
  bool bond = false;                 // each node's ports on this plane are one 802.3ad bond with one address
  std::vector<std::string> netdevs;  // per node port of this plane, when the spec names them
  std::vector<std::string> slots;
  std::string label_prefix;  // cable label prefix, e.g. "CMP"
  FabricKind kind = FabricKind::kEthernet;
  PlaneRole role = PlaneRole::kCompute;
  Gbps speed = 0;
  uint16_t nic = kNoItem;  // catalog NIC index (none for BMC-only planes)
  uint32_t ports_per_node = 0;
  bool rail_optimized = false;
  uint32_t rails = 1;            // leaves per group that a node spreads its ports over
  uint32_t nodes_per_group = 0;  // nodes in a scalable unit / leaf group
  uint32_t leaves_per_rail = 1;  // leaves per rail per group
  uint32_t groups = 0;
  uint32_t endpoints = 0;         // endpoint ports on the plane
  uint32_t tiers = 0;             // 1, 2 or 3
  std::array<TierShape, 3> tier;  // [0] leaf, [1] spine, [2] core
  uint32_t pods = 1;
  uint32_t leaves_per_pod = 0;
  uint32_t spines_per_pod = 0;
  uint32_t cores_per_group = 0;              // cores per spine-index group (three tiers)
  std::array<double, 3> oversubscription{};  // designed down:up per tier (leaf, spine, core)
  uint32_t node_port_offset = 0;             // where this plane's ports start in a node's port index
  bool bmc = false;                          // the node port on this plane is the BMC
  PlaneAddressing addressing;
  uint32_t first_link = 0;
  uint32_t link_count = 0;
  uint32_t first_switch = 0;
  uint32_t switch_count = 0;
  std::array<uint32_t, 4> links_per_level{};  // endpoint-leaf, leaf-spine, spine-core, leaf-peer
};

struct Fabric {
  std::string name;
  std::vector<Plane> planes;
  std::vector<Rack> racks;
  std::vector<Device> devices;  // nodes first, then appliances, then switches plane by plane
  std::vector<Link> links;      // plane by plane, level by level
  uint32_t node_count = 0;      // GPU servers (devices [0, node_count))
  uint32_t gpus_per_node = 0;
  uint32_t ports_per_node = 0;  // NIC ports per node across all planes
  uint32_t rack_units = 42;     // height of every rack (layout.rack_units)
};

// Port names for a whole fabric, computed once: output writers name hundreds of thousands of
// ports, and every node (and every switch of a tier) repeats the same few names.
class PortNamer {
 public:
  explicit PortNamer(const Fabric& fabric);
  const std::string& operator()(PortRef ref) const;

 private:
  const Fabric& fabric_;
  std::vector<std::string> node_ports_;                              // by node port index
  std::vector<std::vector<std::vector<std::string>>> switch_ports_;  // [plane][tier][port]
};

// CagePosition for every port, computed once per switch tier like PortNamer.
class CageNamer {
 public:
  explicit CageNamer(const Fabric& fabric);
  const std::string& operator()(PortRef ref) const;

 private:
  const Fabric& fabric_;
  std::vector<std::string> node_slots_;                              // by node port index: the spec's slot names
  std::vector<std::vector<std::vector<std::string>>> switch_ports_;  // [plane][tier][port]
};

// Names a port as the device's own OS would ("swp12s1", "17", "mlx5_3", "bmc", "mgmt0").
std::string PortName(const Fabric& fabric, PortRef ref);
// Where the installer plugs it: a switch port's front-panel cage and, in a twin-port or split
// cage, its lane, 1-based ("17/1" for QM9700 IB port 33; "17" for a single-port cage; "mgmt" for
// the management port). Hosts: the plane's `slots:` name for the port, "" when the spec names none.
std::string CagePosition(const Fabric& fabric, PortRef ref);
// The label printed on both ends of a link's cable, e.g. "COMP-000123": the plane's prefix and
// the link's number within the plane.
std::string CableLabel(const Fabric& fabric, uint32_t link_index);
struct CableLabelParts {
  std::string_view prefix;
  uint32_t number = 0;
};
CableLabelParts LabelParts(const Fabric& fabric, uint32_t link_index);

}  // namespace railyard

// Formats CableLabelParts as the label text, so writers need not build a string per link.
template <>
struct fmt::formatter<railyard::CableLabelParts> {
  constexpr auto parse(fmt::format_parse_context& ctx) { return ctx.begin(); }
  template <typename Context>
  auto format(const railyard::CableLabelParts& label, Context& ctx) const {
    return fmt::format_to(ctx.out(), "{}-{:06}", label.prefix, label.number);
  }
};
