#include "verify/report.h"
#include "model/schemas.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace railyard {

Finding ToFinding(const VerifyFinding& v) {
  Finding f;
  f.rule = std::string(ToString(v.kind));
  f.severity = v.severity;
  std::string cables, labels;
  for (size_t i = 0; i < v.labels.size(); ++i) {
    cables += (i == 0 ? "" : i + 1 == v.labels.size() ? " and " : ", ") + v.labels[i];
    labels += (i == 0 ? "" : ";") + v.labels[i];
  }
  if (!cables.empty())
    f.object = (v.labels.size() > 1 ? "cables " : "cable ") + cables;
  else if (!v.observed_a.empty())
    f.object = v.observed_b.empty() ? v.observed_a : v.observed_a + " - " + v.observed_b;
  else
    f.object = v.plane.empty() ? "fabric" : "plane " + v.plane;
  auto add = [&](const char* key, const std::string& value) {
    if (!value.empty()) f.evidence.emplace_back(key, value);
  };
  add("plane", v.plane);
  add("labels", labels);
  add("planned_a", v.planned_a);
  add("planned_b", v.planned_b);
  add("observed_a", v.observed_a);
  add("observed_b", v.observed_b);
  f.message = v.message;
  f.fix = v.fix;
  return f;
}

std::vector<Finding> VerifyFindings(const VerifyResult& result) {
  std::vector<Finding> out;
  out.reserve(result.findings.size());
  for (const VerifyFinding& f : result.findings) out.push_back(ToFinding(f));
  return out;
}

FindingsScope VerifyScope() {
  FindingsScope scope{"verify", {}, {}, {"plane", "labels", "planned_a", "planned_b", "observed_a", "observed_b"}};
  for (VerifyKind k :
       {VerifyKind::kMissing, VerifyKind::kMiswired, VerifyKind::kSwapped, VerifyKind::kUnexpected, VerifyKind::kDegraded,
        VerifyKind::kLabelMismatch, VerifyKind::kUnknownDevice, VerifyKind::kUnresolvedName, VerifyKind::kUnverified}) {
    scope.rules_run.emplace_back(ToString(k));
  }
  return scope;
}

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
    planes[name] = {{"planned", pc.planned},      {"seen", pc.ok + pc.miswired}, {"ok", pc.ok},
                    {"missing", pc.missing},      {"miswired", pc.miswired},     {"degraded", pc.degraded},
                    {"unverified", pc.unverified}};
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
  return out + (result.findings.empty() ? "" : "\n") + FindingsTable(VerifyFindings(result));
}

std::string VerifyRender(const VerifyResult& result, FindingsFormat format) {
  switch (format) {
    case FindingsFormat::kTable:
      return VerifyTable(result);
    case FindingsFormat::kJson:
      return VerifyJson(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    default:
      break;
  }
  std::string out = RenderFindings(VerifyFindings(result), VerifyScope(), format);
  if (format != FindingsFormat::kPrometheus) return out;
  out +=
      "# HELP railyard_verify_links Planned links per plane by what verify saw of them.\n"
      "# TYPE railyard_verify_links gauge\n";
  for (const auto& [plane, c] : result.per_plane) {
    for (const auto& [state, n] : {std::pair<const char*, uint64_t>{"planned", c.planned},
                                   {"ok", c.ok},
                                   {"missing", c.missing},
                                   {"miswired", c.miswired},
                                   {"degraded", c.degraded},
                                   {"unverified", c.unverified}}) {
      out += fmt::format("railyard_verify_links{{plane=\"{}\",state=\"{}\"}} {}\n", PrometheusLabelValue(plane), state, n);
    }
  }
  return out;
}

}  // namespace railyard
