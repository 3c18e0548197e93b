// Physical layout: GPU racks in rows, switches in network racks, and the route length of every
// cable (horizontal run + vertical drops + slack) that cable choice starts from.
#pragma once

#include "model/fabric.h"
#include "spec/spec.h"

namespace railyard {

inline constexpr double kRackUnitM = 0.04445;  // EIA-310: 1U = 1.75 in

// Creates the GPU racks and places nodes and appliances (devices [0, slots)) in them, in
// order, `per_rack` a rack. Rows hold `racks_per_row` GPU racks.
void PlaceNodes(const Spec& spec, Fabric& fabric, uint32_t slots);

// Places every switch in a network rack: leaves near the endpoints they serve (end or middle
// of their row, or in the GPU rack for top-of-rack); the spines of a three-tier pod in the
// middle row of that pod's leaves; two-tier spines and cores in the hall's central row.
// Network racks are created as they fill.
void PlaceSwitches(const Spec& spec, const Catalog& catalog, Fabric& fabric);

// Route length in metres between two devices' cages.
double RouteLength(const LayoutSpec& layout, const Fabric& fabric, uint32_t device_a, uint32_t device_b);

}  // namespace railyard

namespace railyard {
// Gives every rack its final position (network racks in the middle of the row push the GPU
// racks after them along) and its name. Call once, after all switches are placed.
void FinalizeRacks(const Spec& spec, Fabric& fabric);
}  // namespace railyard
