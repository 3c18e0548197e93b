#include <fmt/format.h>

#include "export/exporters.h"
#include "model/schemas.h"

namespace railyard {

std::string_view LevelName(uint8_t level) {
  switch (level) {
    case 0:
      return "endpoint-leaf";
    case 1:
      return "leaf-spine";
    case 2:
      return "spine-core";
    case 3:
      return "leaf-peer";
  }
  return "unknown";
}

namespace {

void Str(fmt::memory_buffer& b, std::string_view s) {
  b.push_back('"');
  JsonEscape(s, b);
  b.push_back('"');
}

std::string_view ModeName(PlaneAddressing::Mode mode) {
  switch (mode) {
    case PlaneAddressing::Mode::kNone:
      return "none";
    case PlaneAddressing::Mode::kHost:
      return "host";
    case PlaneAddressing::Mode::kP2p31:
      return "p2p31";
    case PlaneAddressing::Mode::kIpoib:
      return "ipoib";
  }
  return "none";
}

std::string_view RoleName(DeviceRole role) {
  switch (role) {
    case DeviceRole::kNode:
      return "node";
    case DeviceRole::kAppliance:
      return "appliance";
    case DeviceRole::kSwitch:
      return "switch";
  }
  return "unknown";
}

void WriteTier(const ExportContext& ctx, const TierShape& t, fmt::memory_buffer& b) {
  const SwitchModel& m = ctx.catalog.switches()[t.model];
  fmt::format_to(std::back_inserter(b),
                 R"({{"model":"{}","count":{},"down_ports":{},"up_ports":{},"down_speed_gbps":{},"up_speed_gbps":{}}})", m.model,
                 t.count, t.down_ports, t.up_ports, t.down_speed, t.up_speed);
}

}  // namespace

void WritePlanJson(const ExportContext& ctx, OutputFile& out) {
  const Fabric& f = ctx.fabric();
  auto& b = out.buffer();
  out.Print(R"({{"schema":"{}","generator":"railyard {}",)", kPlanSchema, kVersion);
  if (!ctx.not_for_ordering.empty()) {
    out.Append(R"("not_for_ordering":)");
    Str(b, ctx.not_for_ordering);
    b.push_back(',');
  }
  out.Append(R"("name":)");
  Str(b, f.name);
  out.Print(R"(,"nodes":{{"count":{},"gpus_per_node":{},"ports_per_node":{}}},"planes":[)", f.node_count, f.gpus_per_node,
            f.ports_per_node);
  for (size_t p = 0; p < f.planes.size(); ++p) {
    const Plane& pl = f.planes[p];
    if (p) b.push_back(',');
    b.push_back('{');
    out.Print(R"("name":)");
    Str(b, pl.name);
    out.Print(R"(,"label_prefix":"{}","kind":"{}","role":"{}","speed_gbps":{},"tiers":{},"endpoints":{},)"
              R"("rail_optimized":{},"rails":{},"nodes_per_group":{},"groups":{},"pods":{},"switches":{{)",
              pl.label_prefix, ToString(pl.kind), ToString(pl.role), pl.speed, pl.tiers, pl.endpoints, pl.rail_optimized,
              pl.rails, pl.nodes_per_group, pl.groups, pl.pods);
    const char* tier_names[] = {"leaf", "spine", "core"};
    bool first = true;
    for (size_t t = 0; t < 3; ++t) {
      if (pl.tier[t].count == 0) continue;
      if (!first) b.push_back(',');
      first = false;
      out.Print(R"("{}":)", tier_names[t]);
      WriteTier(ctx, pl.tier[t], b);
    }
    out.Print(
        R"(}},"links":{{"endpoint-leaf":{},"leaf-spine":{},"spine-core":{},"leaf-peer":{}}},"oversubscription":{{"leaf":"{}","spine":"{}"}},"bisection_gbps":{:.0f})",
        pl.links_per_level[0], pl.links_per_level[1], pl.links_per_level[2], pl.links_per_level[3],
        FormatRatio(pl.oversubscription[0]), FormatRatio(pl.oversubscription[1]), BisectionGbps(pl));
    if (pl.nic != kNoItem) out.Print(R"(,"nic":"{}")", ctx.catalog.nics()[pl.nic].opn);
    out.Print(R"(,"addressing":{{"mode":"{}","vlan":{})", ModeName(pl.addressing.mode), pl.addressing.vlan);
    if (pl.addressing.prefix) out.Print(R"(,"prefix":"{}")", FormatPrefix(*pl.addressing.prefix));
    out.Print("}}");
    out.Print(R"(,"mtu":{})", pl.mtu);
    if (pl.bond) out.Append(R"(,"bond":"802.3ad")");
    if (pl.kind == FabricKind::kRoce) {
      out.Print(R"(,"qos":{{"priority":{},"dscp":{},"tos":{},"cnp_dscp":{},"cnp_priority":{}}})", pl.qos.priority, pl.qos.dscp,
                pl.qos.tos(), pl.qos.cnp_dscp, pl.qos.cnp_priority);
    }
    out.Print("}}");
  }
  out.Append(R"(],"host_ports":[)");
  // Names a uniform fleet gives its host ports (spec netdevs:/slots:), the same on every node.
  bool first_port = true;
  for (const Plane& pl : f.planes) {
    if (pl.netdevs.empty() && pl.slots.empty()) continue;
    for (uint32_t p = 0; p < pl.ports_per_node && f.node_count > 0; ++p) {
      if (!first_port) b.push_back(',');
      first_port = false;
      out.Print(R"({{"plane":"{}","port":"{}")", pl.name, ctx.ports(PortRef{0, static_cast<uint16_t>(pl.node_port_offset + p)}));
      if (p < pl.netdevs.size()) out.Print(R"(,"netdev":"{}")", pl.netdevs[p]);
      if (p < pl.slots.size()) out.Print(R"(,"slot":"{}")", pl.slots[p]);
      b.push_back('}');
    }
  }
  out.Append(R"(],"racks":[)");
  for (size_t r = 0; r < f.racks.size(); ++r) {
    const Rack& rack = f.racks[r];
    if (r) b.push_back(',');
    out.Print(R"({{"name":"{}","row":{},"position":{},"kind":"{}"}})", rack.name, rack.row + 1, rack.position + 1,
              rack.network ? "network" : "gpu");
  }
  out.Append(R"(],"devices":[)");
  for (size_t i = 0; i < f.devices.size(); ++i) {
    const Device& d = f.devices[i];
    if (i) b.push_back(',');
    b.push_back('{');
    out.Append(R"("name":)");
    Str(b, d.name);
    out.Print(R"(,"role":"{}","rack":"{}","u":{},"height_u":{})", RoleName(d.role), f.racks[d.rack].name, d.u, d.height_u);
    if (d.role == DeviceRole::kSwitch) {
      out.Print(R"(,"plane":"{}","tier":"{}","model":"{}")", f.planes[static_cast<size_t>(d.plane)].name, ToString(d.tier),
                ctx.catalog.switches()[d.model].model);
      if (d.group >= 0 && d.tier == Tier::kLeaf) out.Print(R"(,"group":{})", d.group + 1);
      if (d.pod >= 0) out.Print(R"(,"pod":{})", d.pod + 1);
      if (d.rail >= 0) out.Print(R"(,"rail":{})", d.rail + 1);
      if (d.asn) out.Print(R"(,"asn":{})", d.asn);
      if (d.loopback) out.Print(R"(,"loopback":"{}")", FormatIpv4(d.loopback));
    }
    if (d.mgmt_ip) out.Print(R"(,"mgmt_ip":"{}")", FormatIpv4(d.mgmt_ip));
    b.push_back('}');
    out.MaybeFlush();
  }
  out.Append(R"(],"links":[)");
  // Device, port, rack and plane names are JSON-safe by construction (the spec validates them),
  // so the hot loop formats them without escaping.
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    const Link& l = f.links[i];
    if (i) b.push_back(',');
    const Plane& pl = f.planes[l.plane];
    out.Print(FMT_COMPILE(R"({{"label":"{}","plane":"{}","level":"{}","speed_gbps":{})"), LabelParts(f, i), pl.name,
              LevelName(l.level), l.speed);
    if (l.rail >= 0) out.Print(FMT_COMPILE(R"(,"rail":{})"), l.rail + 1);
    for (int end = 0; end < 2; ++end) {
      PortRef ref = end == 0 ? l.a : l.z;
      Ipv4 ip = end == 0 ? l.ip_a : l.ip_z;
      out.Print(FMT_COMPILE(R"(,"{}":{{"device":"{}","port":"{}")"), end == 0 ? 'a' : 'z', f.devices[ref.device].name,
                ctx.ports(ref));
      if (ip) {
        out.Print(FMT_COMPILE(R"(,"ip":"{}.{}.{}.{}/{}")"), ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255, l.ip_length);
      }
      b.push_back('}');
    }
    out.Print(FMT_COMPILE(R"(,"media":"{}","length_m":{},"route_m":{:.1f})"), ToString(l.media), l.length_m, l.route_m);
    if (l.cable != kNoItem) out.Print(FMT_COMPILE(R"(,"cable":"{}")"), ctx.catalog.cables()[l.cable].opn);
    if (l.xcvr_a != kNoItem) out.Print(FMT_COMPILE(R"(,"xcvr_a":"{}")"), ctx.catalog.cables()[l.xcvr_a].opn);
    if (l.xcvr_z != kNoItem) out.Print(FMT_COMPILE(R"(,"xcvr_z":"{}")"), ctx.catalog.cables()[l.xcvr_z].opn);
    out.Print(FMT_COMPILE(R"(,"assembly":{}}})"), l.assembly);
  }
  out.Append(R"(],"bom":[)");
  const Bom& bom = ctx.result.bom;
  for (size_t i = 0; i < bom.lines.size(); ++i) {
    const BomLine& line = bom.lines[i];
    if (i) b.push_back(',');
    out.Print(R"({{"category":"{}","opn":)", line.category);
    Str(b, line.opn);
    out.Append(R"(,"description":)");
    Str(b, line.description);
    out.Print(R"(,"planes":"{}","quantity":{},"spares":{})", line.planes, line.quantity, line.spares);
    if (line.power_known) {
      out.Print(R"(,"unit_power_w":{},"unit_max_power_w":{})", line.unit_power_w, line.unit_max_power_w);
    } else {
      out.Append(R"(,"unit_power_w":null,"unit_max_power_w":null)");
    }
    out.Append(R"(,"source":)");
    Str(b, line.source);
    b.push_back('}');
  }
  out.Append(R"(],"findings":[)");
  for (size_t i = 0; i < ctx.result.findings.size(); ++i) {
    const Finding& fi = ctx.result.findings[i];
    if (i) b.push_back(',');
    out.Print(R"({{"rule":"{}","severity":"{}","object":)", fi.rule, ToString(fi.severity));
    Str(b, fi.object);
    out.Append(R"(,"evidence":{)");
    for (size_t e = 0; e < fi.evidence.size(); ++e) {
      if (e) b.push_back(',');
      Str(b, fi.evidence[e].first);
      b.push_back(':');
      Str(b, fi.evidence[e].second);
    }
    out.Append(R"(},"message":)");
    Str(b, fi.message);
    out.Append(R"(,"fix":)");
    Str(b, fi.fix);
    b.push_back('}');
  }
  out.Append("]}\n");
}

}  // namespace railyard
