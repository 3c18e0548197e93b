// Clos (fat-tree) sizing: how many leaves, spines and cores a plane needs, and how they are
// striped. Pure arithmetic over port counts, so it is tested exhaustively against published
// reference designs (NVIDIA DGX SuperPOD, Al-Fares k-ary fat trees).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/units.h"

namespace railyard {

struct ClosInput {
  uint32_t nodes = 0;                 // GPU servers on the plane
  std::vector<uint32_t> extra_ports;  // one entry per appliance slot: its port count
  uint32_t ports_per_node = 1;
  bool rail_optimized = false;
  uint32_t nodes_per_su = 0;  // 0 = as many as one leaf's downlinks hold per rail
  uint32_t tiers = 0;         // 0 = fewest that fit; else forced

  // Leaf ports. A uniform leaf splits `leaf_ports` by the first ratio; a leaf with a separate
  // uplink group (leaf_uplink_ports > 0) uses all of `leaf_ports` down and the group up.
  uint32_t leaf_ports = 0;
  uint32_t leaf_uplink_ports = 0;
  uint32_t spine_ports = 0;                          // spine radix at the leaf uplink speed
  uint32_t core_ports = 0;                           // core radix at the spine uplink speed
  std::vector<Ratio> oversubscription{Ratio{1, 1}};  // leaf, spine (last entry repeats)
};

struct ClosShape {
  std::string error;  // non-empty: the plane cannot be built as asked
  uint32_t tiers = 0;
  uint32_t rails = 1;           // leaves per group a node spreads its ports over
  uint32_t ports_per_rail = 1;  // node ports on each of those leaves
  uint32_t slots_per_leaf = 0;  // nodes one leaf serves
  uint32_t nodes_per_group = 0;
  uint32_t leaves_per_rail = 1;  // per full group
  uint32_t groups = 0;
  uint32_t slots = 0;      // nodes + appliance slots
  uint32_t endpoints = 0;  // endpoint ports
  uint32_t leaves = 0;
  uint32_t leaf_down = 0;  // designed downlinks per leaf
  uint32_t leaf_up = 0;    // uplinks per leaf
  uint32_t leaves_per_pod = 0;
  uint32_t pods = 1;
  uint32_t spines_per_pod = 0;  // = spines for two tiers
  uint32_t spines = 0;
  uint32_t spine_down = 0;
  uint32_t spine_up = 0;
  uint32_t cores_per_group = 0;
  uint32_t cores = 0;
  uint32_t links_leaf_spine = 0;
  uint32_t links_spine_core = 0;
  std::vector<uint32_t> leaves_in_group;  // leaves per rail in each group (last may be fewer)

  uint32_t links_per_leaf_spine_pair() const { return spines_per_pod ? leaf_up / spines_per_pod : 0; }
  uint32_t links_per_spine_core_pair() const { return cores_per_group ? spine_up / cores_per_group : 0; }
};

// Splits a switch's `ports` into down and up by `ratio` (down:up), down as large as possible.
void SplitPorts(uint32_t ports, Ratio ratio, uint32_t* down, uint32_t* up);

// The smallest divisor of `n` that is >= `at_least`, or 0 if none.
uint32_t SmallestDivisorAtLeast(uint32_t n, uint32_t at_least);

ClosShape SizeClos(const ClosInput& in);

}  // namespace railyard
