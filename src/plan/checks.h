// Design checks over a planned fabric: each a stable rule id, a severity, the evidence and the
// fix. `railyard check` runs them alone; `railyard plan` reports them with the plan.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "model/fabric.h"
#include "model/finding.h"
#include "spec/spec.h"

namespace railyard {

struct DesignRule {
  const char* id;
  Severity severity;
  const char* summary;
};

// Every design rule, for --list-rules and the docs.
const std::vector<DesignRule>& DesignRules();

std::vector<Finding> RunDesignChecks(const Spec& spec, const Catalog& catalog, const Fabric& fabric);

}  // namespace railyard
