#include "model/finding.h"
#include "model/schemas.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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

nlohmann::json FindingsJson(const std::vector<Finding>& findings) {
  nlohmann::json list = nlohmann::json::array();
  for (const Finding& f : findings) {
    nlohmann::json evidence = nlohmann::json::object();
    for (const auto& [k, v] : f.evidence) evidence[k] = v;
    nlohmann::json item = {{"rule", f.rule},
                           {"severity", ToString(f.severity)},
                           {"object", f.object},
                           {"evidence", evidence},
                           {"message", f.message},
                           {"fix", f.fix}};
    // A finding about one host (rollout, rollout check) names it, as the doctor's findings do;
    // design findings have none.
    if (!f.host.empty()) item["host"] = f.host;
    list.push_back(std::move(item));
  }
  return list;
}

nlohmann::json FindingsDocument(const std::vector<Finding>& findings, size_t hosts) {
  nlohmann::json list = nlohmann::json::array();
  std::map<std::string, size_t> by_rule;
  std::map<std::string, size_t> by_severity = {{"error", 0}, {"warning", 0}, {"info", 0}};
  std::set<std::string> hosts_with;
  for (const Finding& f : findings) {
    nlohmann::json evidence = nlohmann::json::object();
    for (const auto& [k, v] : f.evidence) evidence[k] = v;
    list.push_back({{"rule", f.rule}, {"severity", ToString(f.severity)}, {"host", f.host}, {"object", f.object},
                    {"evidence", evidence}, {"message", f.message}, {"fix", f.fix}});
    ++by_rule[f.rule];
    ++by_severity[std::string(ToString(f.severity))];
    if (!f.host.empty()) hosts_with.insert(f.host);
  }
  return {{"schema", kFindingsSchema},
          {"findings", list},
          {"summary", {{"hosts", hosts}, {"hosts_with_findings", hosts_with.size()}, {"findings", findings.size()},
                       {"by_severity", by_severity}, {"by_rule", by_rule}}}};
}

}  // namespace railyard
