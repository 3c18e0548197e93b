// What `railyard verify` prints: a table for people, JSON (schema railyard.verify/1) for scripts, and
// the findings in the shared forms (CSV, JUnit, Prometheus) every findings command writes.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "model/findings_formats.h"
#include "verify/verify.h"

namespace railyard {

// A verify finding as a Finding: rule = its kind ("missing", "swapped"...), object = the cables
// concerned (else the ports observed), evidence = plane, labels (";"-joined), planned and observed ends.
Finding ToFinding(const VerifyFinding& finding);
std::vector<Finding> VerifyFindings(const VerifyResult& result);
// Every kind verify checks, as the rules run.
FindingsScope VerifyScope();

nlohmann::json VerifyJson(const VerifyResult& result);
// The link counts (per plane when there are several), then the findings.
std::string VerifyTable(const VerifyResult& result);
// The shared findings forms, plus for Prometheus a railyard_verify_links{plane,state} gauge per plane.
std::string VerifyRender(const VerifyResult& result, FindingsFormat format);

}  // namespace railyard
