// plan.index: what `verify`, `doctor --plan` and `ledger --plan` read of a plan, as tab-separated
// rows beside plan.json. At 100,000 GPUs plan.json is ~130 MB of which these readers need a
// quarter; reading this instead takes a tenth of the time and memory. The first row names the
// plan.json it was written with (size and content fingerprint): a reader uses the index only
// when plan.json still has that content, and reads plan.json otherwise.
//
//   railyard.plan-index/3 <TAB> plan.json <TAB> <bytes> <TAB> <fingerprint, 16 hex digits>
//   N <TAB> plan name
//   P <TAB> name <TAB> kind <TAB> mtu <TAB> role <TAB> bond ("802.3ad" or "")     one per plane, in order
//   D <TAB> name role tier plane rack row position u rail group          one per device, in order
//   Y <TAB> host port <TAB> netdev                                     the spec's netdevs:, one per node port
//   T <TAB> port name                                                    one per distinct port name
//   L <TAB> label plane# level rail speed_gbps cable xcvr_a xcvr_z length_m a# a_port# z# z_port#
//   A <TAB> a_ip <TAB> z_ip          after every L row, one per link in link order, where the plan has
//                                    addresses ("10.0.0.2/12" or empty): readers that need none stop here
//
// plane#, a#/z# and a_port#/z_port# are 0-based row numbers of the P, D and T rows; rail, row and position are
// 1-based (0 = none), as in plan.json. Names are tab- and newline-free by the spec's rules.
#include <unordered_map>
#include <vector>

#include <fmt/compile.h>

#include "export/exporters.h"

namespace railyard {

void WritePlanIndex(const ExportContext& ctx, const ContentHash& plan_json, OutputFile& out) {
  const Fabric& f = ctx.fabric();
  out.Print("railyard.plan-index/3\tplan.json\t{}\t{}\n", plan_json.size(), HexDigest(plan_json.Digest()));
  if (!ctx.not_for_ordering.empty()) out.Print("# NOT FOR ORDERING: {}\n", ctx.not_for_ordering);
  std::string name = f.name;  // free text in the spec: the one field that could hold a tab or newline
  for (char& c : name) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  out.Print("N\t{}\n", name);
  for (const Plane& pl : f.planes) {
    out.Print("P\t{}\t{}\t{}\t{}\t{}\n", pl.name, ToString(pl.kind), pl.mtu, ToString(pl.role), pl.bond ? "802.3ad" : "");
  }
  for (const Plane& pl : f.planes) {
    for (uint32_t p = 0; p < pl.netdevs.size() && f.node_count > 0; ++p) {
      out.Print("Y\t{}\t{}\n", ctx.ports(PortRef{0, static_cast<uint16_t>(pl.node_port_offset + p)}), pl.netdevs[p]);
    }
  }
  for (const Device& d : f.devices) {
    const Rack& rack = f.racks[d.rack];
    bool is_switch = d.role == DeviceRole::kSwitch;
    std::string_view role = d.role == DeviceRole::kNode ? "node" : d.role == DeviceRole::kAppliance ? "appliance" : "switch";
    out.Print(FMT_COMPILE("D\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n"), d.name, role, is_switch ? ToString(d.tier) : "",
              is_switch ? std::string_view(f.planes[static_cast<size_t>(d.plane)].name) : std::string_view(), rack.name,
              rack.row + 1, rack.position + 1, d.u, is_switch && d.rail >= 0 ? d.rail + 1 : 0,
              is_switch && d.tier == Tier::kLeaf && d.group >= 0 ? d.group + 1 : 0);
  }
  // Port names repeat (swp1..swp64, mlx5_0..7): each once, so readers intern nothing.
  std::unordered_map<std::string, uint32_t> port_ids;
  std::vector<std::pair<uint32_t, uint32_t>> link_ports(f.links.size());
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    for (int end = 0; end < 2; ++end) {
      std::string port = fmt::format("{}", ctx.ports(end == 0 ? f.links[i].a : f.links[i].z));
      auto [it, added] = port_ids.emplace(port, static_cast<uint32_t>(port_ids.size()));
      if (added) out.Print("T\t{}\n", port);
      (end == 0 ? link_ports[i].first : link_ports[i].second) = it->second;
    }
  }
  auto opn = [&](uint32_t item) {
    return item == kNoItem ? std::string_view() : std::string_view(ctx.catalog.cables()[item].opn);
  };
  for (uint32_t i = 0; i < f.links.size(); ++i) {
    const Link& l = f.links[i];
    out.Print(FMT_COMPILE("L\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n"), LabelParts(f, i), l.plane,
              LevelName(l.level), l.rail >= 0 ? l.rail + 1 : 0, l.speed, opn(l.cable), opn(l.xcvr_a), opn(l.xcvr_z), l.length_m,
              l.a.device, link_ports[i].first, l.z.device, link_ports[i].second);
  }
  bool any_address = false;
  for (const Link& l : f.links) any_address = any_address || l.ip_a || l.ip_z;
  if (!any_address) return;
  for (const Link& l : f.links) {
    // The addresses as plan.json writes them ("10.0.0.2/12"), or nothing.
    out.Append("A\t");
    for (int end = 0; end < 2; ++end) {
      Ipv4 ip = end == 0 ? l.ip_a : l.ip_z;
      if (ip) out.Print(FMT_COMPILE("{}.{}.{}.{}/{}"), ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255, l.ip_length);
      out.Append(end == 0 ? "\t" : "\n");
    }
  }
}

}  // namespace railyard
