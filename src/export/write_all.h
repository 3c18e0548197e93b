// Writes every plan output into a directory: all files or none under their final names.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "plan/planner.h"

namespace railyard {

// Writes plan.json (and plan.index, its compact index for verify), cutsheet.csv, bom.csv, labels.csv, ip-plan.csv, netbox-cables.csv,
// topology.dot, topology.conf and ibnetdiscover-<plane>.topo per InfiniBand plane into `dir`
// (created if missing). Files are written under temporary names on two threads and renamed
// into place only when all are complete. Returns the file names. Throws std::runtime_error.
std::vector<std::string> WritePlanOutputs(const PlanResult& result, const Catalog& catalog, const std::string& dir);

}  // namespace railyard
