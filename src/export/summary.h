// What `railyard plan --format json|table` and `railyard check` print to stdout.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/catalog.h"
#include "model/finding.h"
#include "plan/planner.h"

namespace railyard {

nlohmann::json PlanSummaryJson(const PlanResult& result, const Catalog& catalog);
std::string PlanSummaryTable(const PlanResult& result, const Catalog& catalog);

}  // namespace railyard
