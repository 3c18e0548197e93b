#include "verify/report.h"
#include "model/schemas.h"

#include <fmt/format.h>

#include "util/csv.h"

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
  nlohmann::json planes = nlohmann::json::object();
  for (const auto& [name, pc] : result.per_plane) {
    planes[name] = {{"planned", pc.planned}, {"seen", pc.ok + pc.miswired}, {"ok", pc.ok},        {"missing", pc.missing},
                    {"miswired", pc.miswired}, {"degraded", pc.degraded},       {"unverified", pc.unverified}};
  }
  return {{"schema", kVerifySchema},
          {"planes", planes},
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
      "{} planned links: {} ok, {} missing, {} miswired, {} degraded, {} unverified (no report given could see them); "
      "{} unexpected; {} observations\n",
      c.planned, c.ok, c.missing, c.miswired, c.degraded, c.unverified, c.unexpected, c.observations);
  if (result.per_plane.size() > 1 || (result.per_plane.size() == 1 && c.unverified > 0)) {
    out += fmt::format("  {:<12} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>11}\n", "plane", "planned", "seen", "ok", "missing",
                       "miswired", "degraded", "unverified");
    for (const auto& [name, pc] : result.per_plane) {
      out += fmt::format("  {:<12} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>11}\n", name, pc.planned, pc.ok + pc.miswired, pc.ok,
                         pc.missing, pc.miswired, pc.degraded, pc.unverified);
    }
  }
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
