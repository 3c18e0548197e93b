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
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
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
  return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.severity >= threshold; });
}

nlohmann::json FindingJson(const Finding& f) {
  nlohmann::json evidence = nlohmann::json::object();
  for (const auto& [k, v] : f.evidence) evidence[k] = v;
  nlohmann::json item = {{"rule", f.rule},       {"severity", ToString(f.severity)},
                         {"object", f.object},   {"evidence", evidence},
                         {"message", f.message}, {"fix", f.fix}};
  // A finding about one host (rollout, rollout check) names it, as the doctor's findings do;
  // design findings have none.
  if (!f.host.empty()) item["host"] = f.host;
  return item;
}

nlohmann::json FindingsJson(const std::vector<Finding>& findings) {
  nlohmann::json list = nlohmann::json::array();
  for (const Finding& f : findings) list.push_back(FindingJson(f));
  return list;
}

namespace {

// A JSON string as nlohmann's dump writes it (ensure_ascii off, invalid UTF-8 replaced): plain ASCII
// is copied, anything else (quotes, controls, UTF-8) goes through nlohmann itself, so the two stay
// the same byte for byte.
void AppendString(fmt::memory_buffer& out, std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (plain) {
    out.push_back('"');
    out.append(text);
    out.push_back('"');
    return;
  }
  const std::string dumped = nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  out.append(std::string_view(dumped));
}

void Indent(fmt::memory_buffer& out, int depth) {
  out.push_back('\n');
  for (int i = 0; i < depth * 2; ++i) out.push_back(' ');
}

// A key: value member of an object at `depth`; `first` says whether a comma goes before it.
void Key(fmt::memory_buffer& out, bool& first, int depth, std::string_view key) {
  if (!first) out.push_back(',');
  first = false;
  Indent(out, depth);
  AppendString(out, key);
  out.append(std::string_view(": "));
}

// An object of counts in key order, as nlohmann writes a std::map.
void AppendCounts(fmt::memory_buffer& out, int depth, const std::map<std::string, size_t>& counts) {
  if (counts.empty()) {
    out.append(std::string_view("{}"));
    return;
  }
  out.push_back('{');
  bool first = true;
  for (const auto& [key, n] : counts) {
    Key(out, first, depth + 1, key);
    fmt::format_to(std::back_inserter(out), "{}", n);
  }
  Indent(out, depth);
  out.push_back('}');
}

}  // namespace

std::string FindingsDocumentText(const std::vector<Finding>& findings, size_t hosts) {
  fmt::memory_buffer out;
  std::map<std::string, size_t> by_rule;
  std::map<std::string, size_t> by_severity = {{"error", 0}, {"warning", 0}, {"info", 0}};
  std::set<std::string_view> hosts_with;
  std::vector<std::pair<std::string_view, std::string_view>> evidence;
  out.append(std::string_view("{\n  \"findings\": "));
  if (findings.empty())
    out.append(std::string_view("[]"));
  else
    out.push_back('[');
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (i > 0) out.push_back(',');
    Indent(out, 2);
    out.push_back('{');
    bool first = true;
    // The members in key order, as nlohmann's object (a std::map) holds them; a key given twice in
    // the evidence keeps its last value, as assigning it twice would.
    Key(out, first, 3, "evidence");
    evidence.assign(f.evidence.begin(), f.evidence.end());
    std::stable_sort(evidence.begin(), evidence.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (evidence.empty()) {
      out.append(std::string_view("{}"));
    } else {
      out.push_back('{');
      bool first_evidence = true;
      for (size_t e = 0; e < evidence.size(); ++e) {
        if (e + 1 < evidence.size() && evidence[e + 1].first == evidence[e].first) continue;  // a later value wins
        Key(out, first_evidence, 4, evidence[e].first);
        AppendString(out, evidence[e].second);
      }
      Indent(out, 3);
      out.push_back('}');
    }
    Key(out, first, 3, "fix");
    AppendString(out, f.fix);
    Key(out, first, 3, "host");
    AppendString(out, f.host);
    Key(out, first, 3, "message");
    AppendString(out, f.message);
    Key(out, first, 3, "object");
    AppendString(out, f.object);
    Key(out, first, 3, "rule");
    AppendString(out, f.rule);
    Key(out, first, 3, "severity");
    AppendString(out, ToString(f.severity));
    Indent(out, 2);
    out.push_back('}');
    ++by_rule[f.rule];
    ++by_severity[std::string(ToString(f.severity))];
    if (!f.host.empty()) hosts_with.insert(f.host);
  }
  if (!findings.empty()) {
    Indent(out, 1);
    out.push_back(']');
  }
  out.append(std::string_view(",\n  \"schema\": "));
  AppendString(out, kFindingsSchema);
  out.append(std::string_view(",\n  \"summary\": {\n    \"by_rule\": "));
  AppendCounts(out, 2, by_rule);
  out.append(std::string_view(",\n    \"by_severity\": "));
  AppendCounts(out, 2, by_severity);
  fmt::format_to(std::back_inserter(out),
                 ",\n    \"findings\": {},\n    \"hosts\": {},\n    \"hosts_with_findings\": {}\n  }}\n}}", findings.size(),
                 hosts, hosts_with.size());
  return fmt::to_string(out);
}

}  // namespace railyard
