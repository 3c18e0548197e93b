#include "model/finding.h"

#include <algorithm>

namespace railyard {

std::string_view ToString(Severity severity) {
  switch (severity) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "unknown";
}

std::optional<Severity> ParseSeverity(std::string_view text) {
  if (text == "info") return Severity::kInfo;
  if (text == "warning" || text == "warn") return Severity::kWarning;
  if (text == "error") return Severity::kError;
  return std::nullopt;
}

bool AnyAtOrAbove(const std::vector<Finding>& findings, Severity threshold) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return f.severity >= threshold; });
}

}  // namespace railyard
