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

// The findings as railyard.findings/1's "findings" array: rule, severity, object, evidence, message,
// fix, and host when the finding is about one.
nlohmann::json FindingsJson(const std::vector<Finding>& findings);
// The railyard.findings/1 document, the one shape every command that prints findings as JSON writes
// (doctor, check): "schema", "findings" (each with "host", "" when about no host) and "summary" (hosts
// examined, hosts with findings, findings, by severity and by rule).
nlohmann::json FindingsDocument(const std::vector<Finding>& findings, size_t hosts);
// The same document as text, byte for byte FindingsDocument(...).dump(2) with invalid UTF-8 replaced,
// written straight into a buffer: a fleet's report holds tens of thousands of findings, and building
// them as a JSON tree first cost a fifth of the doctor's run.
std::string FindingsDocumentText(const std::vector<Finding>& findings, size_t hosts);

}  // namespace railyard
