// Bill of materials: quantity per orderable part, with power.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "model/fabric.h"

namespace railyard {

struct BomLine {
  std::string category;  // switch | nic | cable | fibre | transceiver
  std::string opn;
  std::string description;
  std::string planes;  // planes that use it, ';'-separated
  uint64_t quantity = 0;
  double unit_power_w = 0;      // typical (switches) or max module power (transceivers)
  double unit_max_power_w = 0;  // switches with optics loaded
  bool power_known = false;     // false: the catalog has no figure (never read as 0 W)
  uint64_t spares = 0;          // extra units to order (spec `spares:`, percent per category, rounded up)
  std::string source;
};

struct BomTotals {
  uint64_t switches = 0;
  uint64_t nics = 0;
  uint64_t cables = 0;  // assemblies (DAC/ACC/AOC/RJ45) and fibres
  uint64_t transceivers = 0;
  double switch_typical_w = 0;
  double switch_max_w = 0;  // where the catalog knows it; else typical
  double optics_w = 0;
  uint64_t switches_without_power = 0;  // switches whose power the catalog does not know
};

struct Bom {
  std::vector<BomLine> lines;  // sorted by category then OPN
  BomTotals totals;
};

// `spares_percent`: per category (switch, nic, cable, transceiver, fibre), the spares to add.
// `switch_opns`: the OPN (and its airflow) to order per switch model; a model not in it orders its first OPN.
Bom BuildBom(const Catalog& catalog, const Fabric& fabric, const std::map<std::string, double>& spares_percent = {},
             const std::map<uint16_t, std::pair<std::string, std::string>>& switch_opns = {});

}  // namespace railyard
