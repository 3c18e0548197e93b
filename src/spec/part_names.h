// Part names as engineers write them in a spec: an OPN, a model, a family ("ConnectX-7", "CX7",
// "BlueField-3"), or a short model ("Q3400" for Q3400-RA). A name that is not an exact catalog
// entry resolves by meaning: the family's parts that fit the plane (link type, speed, ports per
// node), and among several the one the catalog marks preferred for that family. Every choice that
// was not written verbatim is reported, so the plan says which part it priced.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "catalog/catalog.h"
#include "model/units.h"

namespace railyard {

struct PartResolution {
  std::optional<uint16_t> index;  // the catalog row chosen
  std::string info;               // why that row, when the name was not its OPN or model ("" when exact)
  std::string error;              // why none could be chosen, with the candidates (set when index is empty)
};

// `kind` and `speed` are the plane's; `ports_per_node` the NIC ports a node has on it.
PartResolution ResolveNic(const Catalog& catalog, std::string_view written, FabricKind kind, Gbps speed, uint32_t ports_per_node);
PartResolution ResolveSwitch(const Catalog& catalog, std::string_view written, FabricKind kind, Gbps speed);

// "ConnectX-6 Dx", "cx6dx", "CX-6 DX" -> "connectx6dx": lower case, no separators, cx -> connectx,
// bf -> bluefield.
std::string NormalizedFamily(std::string_view name);

}  // namespace railyard
