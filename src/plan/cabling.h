// Cable and optics choice: for every link, how it is physically made and how long.
//
// Rule (cheapest medium that reaches, as NVIDIA's LinkX guidance orders them): passive DAC,
// then active copper (ACC), then AOC where one exists for the speed and cages, then a
// transceiver at each end with multimode fibre (SR4/SR8, 50 m), single-mode (DR4, 100/500 m),
// and duplex single-mode (FR4, 2 km). Both logical ports of a twin-port cage share one
// transceiver or one splitter, so the cage is sized for the longer of its two runs.
#pragma once

#include <string>

#include "catalog/catalog.h"
#include "model/fabric.h"
#include "spec/spec.h"

namespace railyard {

// The cage form factor at one end of a link as the catalog names it ("osfp-twin", "qsfp112",
// "rj45" ...).
std::string EndForm(const Catalog& catalog, const Fabric& fabric, PortRef ref);

struct CableChoice {
  Media media = Media::kNone;
  uint16_t cable = kNoItem;  // assembly, or fibre for optical
  uint16_t xcvr_a = kNoItem;
  uint16_t xcvr_z = kNoItem;
  double length_m = 0;
};

// The cheapest way to make a link of `speed` between cages `end_a` and `end_z` over `route_m`.
// `paired`: both logical ports of twin cages at each end go to the same peer cage.
CableChoice ChooseCable(const Catalog& catalog, Gbps speed, const std::string& end_a, const std::string& end_z, bool paired,
                        double route_m);

// Fills route_m, length_m, media, cable, transceivers and assembly of every link.
void ChooseCables(const Spec& spec, const Catalog& catalog, Fabric& fabric);

}  // namespace railyard
