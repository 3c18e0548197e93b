// CSV exports: cut-sheet, BOM, labels, IP plan and NetBox cables.
#include <fmt/format.h>

#include "export/exporters.h"
#include "util/csv.h"

namespace railyard {
namespace {

std::string_view Opn(const Catalog& catalog, uint16_t item) {
  return item == kNoItem ? std::string_view() : std::string_view(catalog.cables()[item].opn);
}

std::string Segment(const Plane& plane, const Link& link) {
  std::string s = plane.name;
  if (plane.addressing.vlan) s += fmt::format(" vlan{}", plane.addressing.vlan);
  if (link.ip_length == 31)
    s += fmt::format(" {}/31", FormatIpv4(link.ip_z));
  else if (plane.addressing.prefix)
    s += " " + FormatPrefix(*plane.addressing.prefix);
  return s;
}

}  // namespace

void WriteCutsheet(const ExportContext& ctx, OutputFile& out) {
  const Fabric& f = ctx.fabric();
  out.Append(
      "label,plane,level,rail,a_device,a_port,a_cage,a_rack,a_u,z_device,z_port,z_cage,z_rack,z_u,speed,media,"
      "cable,xcvr_a,xcvr_z,length_m,route_m\n");
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    const Link& l = f.links[i];
    const Device& a = f.devices[l.a.device];
    const Device& z = f.devices[l.z.device];
    // Device, rack and port names are CSV-safe by construction (the spec validates them).
    out.Print(FMT_COMPILE("{},{},{},"), LabelParts(f, i), f.planes[l.plane].name, LevelName(l.level));
    if (l.rail >= 0) out.Print(FMT_COMPILE("{}"), l.rail + 1);
    out.Print(FMT_COMPILE(",{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.1f}\n"), a.name, ctx.ports(l.a), ctx.cages(l.a),
              ctx.RackOf(l.a.device), a.u, z.name, ctx.ports(l.z), ctx.cages(l.z), ctx.RackOf(l.z.device), z.u,
              ctx.Speed(l.speed), ToString(l.media), Opn(ctx.catalog, l.cable), Opn(ctx.catalog, l.xcvr_a),
              Opn(ctx.catalog, l.xcvr_z), l.length_m, l.route_m);
  }
}

void WriteBomCsv(const ExportContext& ctx, OutputFile& out) {
  // Power: blank with power=unknown when the catalog has no figure (never 0 W); sources live in
  // plan.json's bom, so procurement's file is quantities and parts only.
  out.Append(
      "category,opn,description,planes,quantity,spares,order_quantity,unit_power_w,unit_max_power_w,total_power_w,"
      "power\n");
  for (const BomLine& line : ctx.result.bom.lines) {
    out.Print("{},{},{},{},{},{},{},", line.category, CsvEscape(line.opn), CsvEscape(line.description), CsvEscape(line.planes),
              line.quantity, line.spares, line.quantity + line.spares);
    if (line.power_known) {
      out.Print("{},{},{},catalog\n", line.unit_power_w,
                line.category == "switch" && line.unit_max_power_w > 0 ? fmt::format("{}", line.unit_max_power_w) : "",
                line.unit_power_w * static_cast<double>(line.quantity));
    } else {
      out.Append(",,,unknown\n");
    }
  }
}

namespace {

constexpr size_t kLabelTextMax = 40;  // printable characters on a cable flag

// What is printed on the flag at one end: the ID, then where the other end goes, in the longest
// form that fits 40 characters: device, port (cage/lane on a switch), rack and U; then without the
// rack; then the rack, U and port alone (a rack and a U find the device).
std::string LabelText(std::string_view id, std::string_view device, std::string_view port, std::string_view rack, uint32_t u) {
  std::string text = fmt::format("{} > {}:{} {} U{}", id, device, port, rack, u);
  if (text.size() <= kLabelTextMax) return text;
  text = fmt::format("{} > {}:{}", id, device, port);
  if (text.size() <= kLabelTextMax) return text;
  text = fmt::format("{} > {} U{} {}", id, rack, u, port);
  return text.substr(0, kLabelTextMax);
}

}  // namespace

void WriteLabels(const ExportContext& ctx, OutputFile& out) {
  const Fabric& f = ctx.fabric();
  out.Append(
      "label,end,device,port,cage,rack,u,peer_device,peer_port,peer_cage,peer_rack,peer_u,plane,segment,cable,"
      "transceiver,length_m,text\n");
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    const Link& l = f.links[i];
    const std::string id = fmt::format("{}", LabelParts(f, i));
    const std::string segment = Segment(f.planes[l.plane], l);
    for (int end = 0; end < 2; ++end) {
      PortRef self = end == 0 ? l.a : l.z;
      PortRef peer = end == 0 ? l.z : l.a;
      const Device& sd = f.devices[self.device];
      const Device& pd = f.devices[peer.device];
      // A technician at a switch counts cages, not IB port numbers: the far end's cage/lane when it has one.
      const std::string& peer_cage = ctx.cages(peer);
      std::string_view peer_port = peer_cage.empty() ? std::string_view(ctx.ports(peer)) : std::string_view(peer_cage);
      out.Print(FMT_COMPILE("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n"), id, end == 0 ? "A" : "Z", sd.name,
                ctx.ports(self), ctx.cages(self), ctx.RackOf(self.device), sd.u, pd.name, ctx.ports(peer), peer_cage,
                ctx.RackOf(peer.device), pd.u, f.planes[l.plane].name, segment, Opn(ctx.catalog, l.cable),
                Opn(ctx.catalog, end == 0 ? l.xcvr_a : l.xcvr_z), l.length_m,
                CsvEscape(LabelText(id, pd.name, peer_port, ctx.RackOf(peer.device), pd.u)));
    }
  }
}

void WriteIpPlan(const ExportContext& ctx, OutputFile& out) {
  const Fabric& f = ctx.fabric();
  out.Append("plane,kind,device,interface,address,prefix_length,vlan,peer_device,peer_interface,peer_address,asn\n");
  for (const Plane& plane : f.planes) {
    const uint16_t vlan = plane.addressing.vlan;
    const std::string vlan_text = vlan ? std::to_string(vlan) : std::string();
    for (uint32_t i = plane.first_link; i < plane.first_link + plane.link_count; ++i) {
      const Link& l = f.links[i];
      if (!l.ip_a && !l.ip_z) continue;
      if (l.ip_length == 31) {
        for (int end = 0; end < 2; ++end) {
          PortRef self = end == 0 ? l.a : l.z;
          PortRef peer = end == 0 ? l.z : l.a;
          Ipv4 own = end == 0 ? l.ip_a : l.ip_z;
          Ipv4 other = end == 0 ? l.ip_z : l.ip_a;
          out.Print(FMT_COMPILE("{},p2p,{},{},{}.{}.{}.{},31,{},{},{},{}.{}.{}.{},{}\n"), plane.name, f.devices[self.device].name,
                    ctx.ports(self), own >> 24, (own >> 16) & 255, (own >> 8) & 255, own & 255, vlan_text,
                    f.devices[peer.device].name, ctx.ports(peer), other >> 24, (other >> 16) & 255, (other >> 8) & 255,
                    other & 255, f.devices[self.device].asn ? std::to_string(f.devices[self.device].asn) : std::string());
        }
      } else {
        out.Print(FMT_COMPILE("{},{},{},{},{},{},{},{},{},,\n"), plane.name, plane.bmc ? "mgmt" : "host",
                  f.devices[l.a.device].name, ctx.ports(l.a), FormatIpv4(l.ip_a), l.ip_length, vlan_text,
                  f.devices[l.z.device].name, ctx.ports(l.z));
      }
    }
    for (uint32_t d = plane.first_switch; d < plane.first_switch + plane.switch_count; ++d) {
      const Device& dev = f.devices[d];
      if (dev.loopback) {
        out.Print("{},loopback,{},lo,{},32,,,,,{}\n", plane.name, CsvEscape(dev.name), FormatIpv4(dev.loopback), dev.asn);
      }
      if (plane.bmc && dev.mgmt_ip && plane.addressing.prefix) {
        out.Print("{},mgmt,{},{},{},{},{},,,,\n", plane.name, CsvEscape(dev.name), ctx.ports(PortRef{d, kMgmtPort}),
                  FormatIpv4(dev.mgmt_ip), plane.addressing.prefix->length, vlan ? std::to_string(vlan) : "");
      }
    }
  }
}

}  // namespace railyard
