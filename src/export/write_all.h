// Writes every plan output into a directory: all files or none under their final names.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "plan/planner.h"

namespace railyard {

// Writes every file of PlanOutputs() (export/plan_outputs.h) into `dir` (created if missing). Files are
// written under temporary names on two threads and renamed into place only when all are complete.
// Returns the file names. Throws std::runtime_error (I/O).
struct WriteOptions {
  // Non-empty: the plan has error findings and is written anyway (`plan --force`). Every file says
  // so in its first line (plan.json in "not_for_ordering"), so it cannot be ordered from by mistake.
  std::string not_for_ordering;
};

// The set is recorded in plan-manifest.txt (name, bytes, fingerprint per file). Writing into a
// directory that holds an earlier plan's manifest removes the files that manifest lists and this
// plan no longer writes (an InfiniBand plane that became Ethernet leaves no stale .topo), and
// nothing else.
std::vector<std::string> WritePlanOutputs(const PlanResult& result, const Catalog& catalog, const std::string& dir,
                                          const WriteOptions& options = {});

inline constexpr const char* kPlanManifest = "plan-manifest.txt";

}  // namespace railyard
