// A Finding: something railyard noticed, with the evidence and the fix. Every checker
// (design checks, doctor rules, cabling verification, authenticity) speaks in findings.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace railyard {

enum class Severity { kInfo = 0, kWarning = 1, kError = 2 };

std::string_view ToString(Severity severity);
std::optional<Severity> ParseSeverity(std::string_view text);

struct Finding {
  std::string rule;  // stable id, e.g. "nic-pcie-below-line-rate"
  Severity severity = Severity::kWarning;
  std::string host;    // the host a doctor finding is about; "" for design or cabling findings
  std::string object;  // what it is about, e.g. "plane compute" or "link CMP-000123"
  std::vector<std::pair<std::string, std::string>> evidence;  // raw values that show it
  std::string message;                                        // what is wrong and why it matters
  std::string fix;                                            // what to do
};

// True when any finding is at or above `threshold`.
bool AnyAtOrAbove(const std::vector<Finding>& findings, Severity threshold);

// One finding as JSON: rule, severity, object, evidence, message, fix, and host when it is about one
// (the authenticity report adds its serial and confidence to it).
nlohmann::json FindingJson(const Finding& finding);
// The findings as a JSON array of FindingJson, embedded in other documents (plan summary, rollout).
nlohmann::json FindingsJson(const std::vector<Finding>& findings);
// The railyard.findings/1 document, the one shape every command that prints findings as JSON writes
// (doctor, check): "findings" (each with "host", "" when about no host; evidence keys in order, a
// key given twice keeping its last value), "schema" and "summary" (hosts examined, hosts with
// findings, findings, by severity and by rule), indented by two, invalid UTF-8 replaced. Written
// straight into a buffer: a fleet's report holds tens of thousands of findings, and building them as
// a JSON tree first cost a fifth of the doctor's run (finding_test holds the tree it must equal).
std::string FindingsDocumentText(const std::vector<Finding>& findings, size_t hosts);

}  // namespace railyard
