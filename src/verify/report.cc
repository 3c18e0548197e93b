#include "verify/report.h"

#include <fmt/format.h>

#include "catalog/csv.h"

namespace railyard {

nlohmann::json VerifyJson(const VerifyResult& result) {
  const VerifyCounts& c = result.counts;
  nlohmann::json findings = nlohmann::json::array();
  for (const VerifyFinding& f : result.findings) {
    findings.push_back({{"kind", ToString(f.kind)},
                        {"severity", ToString(f.severity)},
                        {"plane", f.plane},
                        {"labels", f.labels},
                        {"planned", {{"a", f.planned_a}, {"b", f.planned_b}}},
                        {"observed", {{"a", f.observed_a}, {"b", f.observed_b}}},
                        {"message", f.message},
                        {"fix", f.fix}});
  }
  return {{"schema", "railyard.verify/1"},
          {"links",
           {{"planned", c.planned},
            {"ok", c.ok},
            {"missing", c.missing},
            {"miswired", c.miswired},
            {"degraded", c.degraded},
            {"unverified", c.unverified},
            {"unexpected", c.unexpected}}},
          {"observations", c.observations},
          {"findings", findings}};
}

std::string VerifyTable(const VerifyResult& result) {
  const VerifyCounts& c = result.counts;
  std::string out = fmt::format(
      "{} planned links: {} ok, {} missing, {} miswired, {} degraded, {} not covered by any report; {} unexpected; "
      "{} observations\n",
      c.planned, c.ok, c.missing, c.miswired, c.degraded, c.unverified, c.unexpected, c.observations);
  if (result.findings.empty()) return out + "no findings\n";
  out += "\n";
  for (const VerifyFinding& f : result.findings) {
    out += fmt::format("{:<7} {:<14} {}\n        {}\n        fix: {}\n", ToString(f.severity), ToString(f.kind),
                       f.plane.empty() ? "-" : f.plane, f.message, f.fix);
  }
  return out;
}

std::string VerifyCsv(const VerifyResult& result) {
  std::string out = "kind,severity,plane,labels,planned_a,planned_b,observed_a,observed_b,message,fix\n";
  for (const VerifyFinding& f : result.findings) {
    std::string labels;
    for (const std::string& l : f.labels) labels += (labels.empty() ? "" : ";") + l;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{}\n", ToString(f.kind), ToString(f.severity), CsvEscape(f.plane),
                       CsvEscape(labels), CsvEscape(f.planned_a), CsvEscape(f.planned_b), CsvEscape(f.observed_a),
                       CsvEscape(f.observed_b), CsvEscape(f.message), CsvEscape(f.fix));
  }
  return out;
}

}  // namespace railyard
