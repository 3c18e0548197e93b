#include "plan/addressing.h"

#include <fmt/format.h>

namespace railyard {
namespace {

Finding Exhausted(const Plane& plane, const Ipv4Prefix& prefix, uint64_t needed, std::string_view what) {
  Finding f;
  f.rule = "addressing-prefix-too-small";
  f.severity = Severity::kError;
  f.object = fmt::format("plane {}", plane.name);
  f.evidence = {{"prefix", FormatPrefix(prefix)},
                {"addresses_in_prefix", std::to_string(prefix.size())},
                {"addresses_needed", std::to_string(needed)},
                {"for", std::string(what)}};
  f.message =
      fmt::format("{} holds {} addresses but the plane needs {} for {}", FormatPrefix(prefix), prefix.size(), needed, what);
  int length = prefix.length;
  while (length > 0 && (uint64_t{1} << (32 - length)) < needed) --length;
  f.fix = fmt::format("give plane {} a prefix of /{} or larger", plane.name, length);
  return f;
}

}  // namespace

std::vector<Finding> AssignAddresses(Fabric& fabric) {
  std::vector<Finding> findings;
  for (size_t p = 0; p < fabric.planes.size(); ++p) {
    Plane& plane = fabric.planes[p];
    const PlaneAddressing& a = plane.addressing;
    using Mode = PlaneAddressing::Mode;
    if (a.mode == Mode::kNone || !a.prefix) continue;
    const Ipv4Prefix prefix = *a.prefix;
    const uint32_t first_link = plane.first_link;
    const uint32_t end_link = plane.first_link + plane.link_count;

    if (a.mode == Mode::kP2p31) {
      uint64_t needed = uint64_t{plane.link_count} * 2;
      uint64_t loopbacks_inside = a.loopbacks ? 0 : plane.switch_count;
      if (needed + loopbacks_inside > prefix.size()) {
        findings.push_back(Exhausted(plane, prefix, needed + loopbacks_inside, "/31 links and loopbacks"));
        continue;
      }
      if (a.loopbacks && a.loopbacks->size() < plane.switch_count) {
        findings.push_back(Exhausted(plane, *a.loopbacks, plane.switch_count, "switch loopbacks"));
        continue;
      }
      for (uint32_t i = first_link; i < end_link; ++i) {
        Link& link = fabric.links[i];
        Ipv4 base = prefix.network + 2 * (i - first_link);
        link.ip_z = base;  // the upper (switch) end takes the even address
        link.ip_a = base + 1;
        link.ip_length = 31;
      }
      const Ipv4Prefix lo = a.loopbacks ? *a.loopbacks : prefix;
      Ipv4 next_lo = a.loopbacks ? lo.network : static_cast<Ipv4>(lo.network + lo.size() - plane.switch_count);
      // RFC 7938: a private ASN per leaf, one shared by the spines of a pod, one for the cores.
      uint32_t leaves = plane.tier[0].count;
      for (uint32_t s = 0; s < plane.switch_count; ++s) {
        Device& d = fabric.devices[plane.first_switch + s];
        d.loopback = next_lo++;
        if (d.tier == Tier::kLeaf)
          d.asn = a.asn_base + s;
        else if (d.tier == Tier::kSpine)
          d.asn = a.asn_base + leaves + static_cast<uint32_t>(std::max(0, d.pod));
        else
          d.asn = a.asn_base + leaves + plane.pods;
      }
      continue;
    }

    // Host-style: every endpoint port on the plane gets the next address.
    const bool oob = plane.bmc;
    uint64_t needed = 1 + plane.links_per_level[0] + (oob ? plane.switch_count : 0);
    if (needed + 1 > prefix.size()) {  // network and broadcast addresses are not hosts
      findings.push_back(Exhausted(plane, prefix, needed + 1, oob ? "BMCs and switch management ports" : "endpoint ports"));
      continue;
    }
    Ipv4 next = prefix.network + 2;  // .1 is the gateway
    uint32_t last_endpoint = UINT32_MAX;
    for (uint32_t i = first_link; i < first_link + plane.links_per_level[0]; ++i) {
      Link& link = fabric.links[i];
      // A bonded plane: one address per endpoint, on its first port's link (the bond's); the other
      // members carry none.
      if (plane.bond && link.a.device == last_endpoint) continue;
      last_endpoint = link.a.device;
      link.ip_a = next++;
      link.ip_length = prefix.length;
      if (oob) fabric.devices[link.a.device].mgmt_ip = link.ip_a;
    }
    if (oob) {
      // The out-of-band switches' own management addresses.
      for (uint32_t s = 0; s < plane.switch_count; ++s) fabric.devices[plane.first_switch + s].mgmt_ip = next++;
    }
  }
  return findings;
}

}  // namespace railyard
