// `railyard plan`: from a validated Spec to the Fabric, its bill of materials and the design
// findings. Deterministic: the same spec always gives the same plan, byte for byte.
#pragma once

#include <map>
#include <vector>

#include "catalog/catalog.h"
#include "model/fabric.h"
#include "model/finding.h"
#include "plan/bom.h"
#include "spec/spec.h"

namespace railyard {

struct PlanResult {
  Fabric fabric;
  Bom bom;
  // The OPN ordered for each switch model (catalog index): the one of the spec's airflow when the
  // catalog knows one, else the model's first; and its airflow ("p2c", "c2p", "" unknown).
  std::map<uint16_t, std::pair<std::string, std::string>> switch_opns;
  std::vector<Finding> findings;  // design checks, most severe first
};

PlanResult Plan(const Spec& spec, const Catalog& catalog = Catalog::Builtin());

// Bisection bandwidth of a plane in Gb/s: half the endpoint bandwidth, limited by the uplink
// capacity of each tier (a tier's total uplinks cap what can cross a cut through the tier above).
double BisectionGbps(const Plane& plane);

}  // namespace railyard
