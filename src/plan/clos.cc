#include "plan/clos.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

namespace railyard {
namespace {

uint32_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : static_cast<uint32_t>((a + b - 1) / b); }

Ratio RatioAt(const std::vector<Ratio>& ratios, size_t tier) {
  if (ratios.empty()) return Ratio{1, 1};
  return ratios[std::min(tier, ratios.size() - 1)];
}

}  // namespace

void SplitPorts(uint32_t ports, Ratio ratio, uint32_t* down, uint32_t* up) {
  double r = ratio.value();
  uint32_t d = static_cast<uint32_t>(std::floor(ports * r / (r + 1) + 1e-9));
  uint32_t u = static_cast<uint32_t>(std::ceil(d / r - 1e-9));
  while (d > 0 && d + u > ports) {
    --d;
    u = static_cast<uint32_t>(std::ceil(d / r - 1e-9));
  }
  // A prime uplink count leaves striping no choice but that many spines (or cores): give up a
  // downlink or two (at most a tenth) for an uplink count with divisors, e.g. 128 ports at
  // 2:1 is 84 + 42, not 85 + 43.
  auto is_prime = [](uint32_t n) {
    if (n < 4) return false;  // 1, 2 and 3 uplinks are small enough to stripe over anyway
    for (uint32_t k = 2; k * k <= n; ++k) {
      if (n % k == 0) return false;
    }
    return true;
  };
  uint32_t best_d = d;
  for (uint32_t cd = d; is_prime(u) && cd > 0 && cd * 10 >= best_d * 9; --cd) {
    uint32_t cu = static_cast<uint32_t>(std::ceil(cd / r - 1e-9));
    if (!is_prime(cu) && cd + cu <= ports) {
      d = cd;
      u = cu;
      break;
    }
  }
  *down = d;
  *up = u;
}

uint32_t SmallestDivisorAtLeast(uint32_t n, uint32_t at_least) {
  for (uint32_t d = std::max<uint32_t>(1, at_least); d <= n; ++d) {
    if (n % d == 0) return d;
  }
  return 0;
}

namespace {

// One tier: everything on one switch, no uplinks. The design checks say when that leaves a node's
// ports on a single switch.
void SizeOneTier(const ClosInput& in, ClosShape& s) {
  s.tiers = 1;
  s.rails = 1;
  s.ports_per_rail = in.ports_per_node;
  s.leaf_down = in.leaf_ports;
  s.slots_per_leaf = s.slots;
  s.nodes_per_group = s.slots;
  s.groups = 1;
  s.leaves = 1;
  s.leaves_in_group = {1};
}

// The leaves: their port split (a fixed uplink group, or the ratio split of a uniform switch), the
// scalable units (groups) and the leaves of each. False, with the error set, when no node fits a leaf.
bool SizeLeaves(const ClosInput& in, ClosShape& s) {
  if (in.leaf_uplink_ports > 0) {
    s.leaf_down = in.leaf_ports;
    s.leaf_up = in.leaf_uplink_ports;
  } else {
    SplitPorts(in.leaf_ports, RatioAt(in.oversubscription, 0), &s.leaf_down, &s.leaf_up);
  }
  if (s.leaf_up == 0 || s.leaf_down < s.ports_per_rail) {
    s.error = fmt::format("a {}-port leaf cannot be split {} with room for a node", in.leaf_ports,
                          FormatRatio(RatioAt(in.oversubscription, 0).value()));
    return false;
  }
  s.slots_per_leaf = s.leaf_down / s.ports_per_rail;
  s.nodes_per_group = in.nodes_per_su ? in.nodes_per_su : s.slots_per_leaf;
  if (!in.nodes_per_su) {
    // No scalable-unit size asked for: spread the slots evenly over the fewest groups, rather
    // than leave a last group (and its leaves) nearly empty.
    uint32_t groups = CeilDiv(s.slots, s.nodes_per_group);
    s.nodes_per_group = CeilDiv(s.slots, groups);
  }
  s.leaves_per_rail = CeilDiv(s.nodes_per_group, s.slots_per_leaf);
  s.groups = CeilDiv(s.slots, s.nodes_per_group);
  for (uint32_t g = 0; g < s.groups; ++g) {
    uint32_t in_group = std::min(s.nodes_per_group, s.slots - g * s.nodes_per_group);
    uint32_t leaves = CeilDiv(in_group, s.slots_per_leaf);
    s.leaves_in_group.push_back(leaves);
    s.leaves += leaves * s.rails;
  }
  return true;
}

// Two tiers: every leaf reaches every spine over the same number of links (ECMP balance), so the spine
// count divides the leaf's uplinks; at least two spines where there are two uplinks, so no single spine
// carries the plane. 0 when no spine count both divides them and fits.
uint32_t TwoTierSpines(const ClosInput& in, const ClosShape& s) {
  uint32_t need = std::max(CeilDiv(uint64_t{s.leaves} * s.leaf_up, in.spine_ports), std::min<uint32_t>(2, s.leaf_up));
  uint32_t spines = SmallestDivisorAtLeast(s.leaf_up, need);
  return spines != 0 && s.leaves * (s.leaf_up / spines) <= in.spine_ports ? spines : 0;
}

void SizeTwoTiers(const ClosInput& in, uint32_t spines, ClosShape& s) {
  s.tiers = 2;
  s.leaves_per_pod = s.leaves;
  s.spines_per_pod = spines;
  s.spines = spines;
  s.spine_down = in.spine_ports;
  s.links_leaf_spine = s.leaves * s.leaf_up;
}

// Three tiers: pods of whole groups (an SU never straddles pods), each pod a two-tier block whose
// spines stripe up to the cores; spine j of every pod reaches core group j.
void SizeThreeTiers(const ClosInput& in, ClosShape& s) {
  s.tiers = 3;
  SplitPorts(in.spine_ports, RatioAt(in.oversubscription, 1), &s.spine_down, &s.spine_up);
  uint32_t leaves_per_full_group = s.rails * s.leaves_per_rail;
  uint32_t groups_per_pod = s.spine_down / leaves_per_full_group;
  if (groups_per_pod == 0 || s.spine_up == 0) {
    s.error = fmt::format("a scalable unit has {} leaves but a spine has only {} downlinks", leaves_per_full_group, s.spine_down);
    return;
  }
  s.leaves_per_pod = groups_per_pod * leaves_per_full_group;
  s.pods = CeilDiv(s.groups, groups_per_pod);
  uint32_t need = std::max(CeilDiv(uint64_t{s.leaves_per_pod} * s.leaf_up, s.spine_down), std::min<uint32_t>(2, s.leaf_up));
  s.spines_per_pod = SmallestDivisorAtLeast(s.leaf_up, need);
  if (s.spines_per_pod == 0) {
    s.error = "no spine count divides the leaf uplinks evenly";
    return;
  }
  s.spines = s.pods * s.spines_per_pod;
  if (in.core_ports == 0) {
    s.error = "the core switch has no ports at the spine uplink speed";
    return;
  }
  s.cores_per_group = SmallestDivisorAtLeast(s.spine_up, CeilDiv(uint64_t{s.pods} * s.spine_up, in.core_ports));
  if (s.cores_per_group == 0 || s.pods * (s.spine_up / s.cores_per_group) > in.core_ports) {
    s.error = fmt::format("{} pods exceed what three tiers of {}-port cores can join", s.pods, in.core_ports);
    return;
  }
  s.cores = s.spines_per_pod * s.cores_per_group;
  s.links_leaf_spine = s.leaves * s.leaf_up;
  s.links_spine_core = s.spines * s.spine_up;
}

}  // namespace

// The fewest tiers that hold the plane, unless the spec asks for a number of tiers.
ClosShape SizeClos(const ClosInput& in) {
  ClosShape s;
  s.slots = in.nodes + static_cast<uint32_t>(in.extra_ports.size());
  s.endpoints = in.nodes * in.ports_per_node + std::accumulate(in.extra_ports.begin(), in.extra_ports.end(), 0u);
  if (in.leaf_ports == 0) {
    s.error = "the leaf switch has no ports at this speed";
    return s;
  }
  if (s.slots == 0) {
    s.error = "the plane has no endpoints";
    return s;
  }
  // How a node's ports spread over leaves: one leaf per rail when rail-optimized, a leaf pair
  // (dual-homing) for an even port count otherwise, else all ports on one leaf.
  s.rails = in.rail_optimized ? in.ports_per_node : (in.ports_per_node % 2 == 0 ? 2 : 1);
  s.ports_per_rail = in.ports_per_node / s.rails;

  const bool one_tier_fits = s.endpoints <= in.leaf_ports;
  if (in.tiers == 1 || (in.tiers == 0 && one_tier_fits)) {
    if (one_tier_fits) {
      SizeOneTier(in, s);
    } else {
      s.error = fmt::format("one tier holds {} ports, the plane needs {}", in.leaf_ports, s.endpoints);
    }
    return s;
  }
  if (!SizeLeaves(in, s)) return s;
  if (in.spine_ports == 0) {
    s.error = "the spine switch has no ports at the leaf uplink speed";
    return s;
  }
  const uint32_t spines = TwoTierSpines(in, s);
  if (in.tiers == 2 || (in.tiers == 0 && spines != 0)) {
    if (spines != 0) {
      SizeTwoTiers(in, spines, s);
    } else {
      s.error = fmt::format("two tiers hold at most {} leaves of {} uplinks on {}-port spines; the plane needs {} leaves",
                            in.spine_ports, s.leaf_up, in.spine_ports, s.leaves);
    }
    return s;
  }
  SizeThreeTiers(in, s);
  return s;
}

}  // namespace railyard
