#include "model/findings_formats.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/csv.h"
#include "util/html.h"

namespace railyard {

std::string PrometheusLabelValue(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"')
      out += {'\\', c};
    else if (c == '\n')
      out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20)
      out += ' ';
    else
      out += c;
  }
  return out;
}

namespace {

// A metric name: [a-zA-Z_:][a-zA-Z0-9_:]*, so "ledger check" becomes ledger_check.
std::string MetricName(std::string_view tool) {
  std::string out = "railyard_";
  for (char c : tool) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out + "_findings";
}

// The rules a report lists: those that ran, in their order, then any that found something without
// being named as run, so no finding is left out of a form that walks rules.
std::vector<std::string> RulesListed(const std::vector<Finding>& findings, const FindingsScope& scope) {
  std::vector<std::string> rules = scope.rules_run;
  std::set<std::string> seen(rules.begin(), rules.end());
  for (const Finding& f : findings) {
    if (seen.insert(f.rule).second) rules.push_back(f.rule);
  }
  return rules;
}

}  // namespace

std::optional<FindingsFormat> ParseFindingsFormat(std::string_view text) {
  if (text == "table") return FindingsFormat::kTable;
  if (text == "json") return FindingsFormat::kJson;
  if (text == "csv") return FindingsFormat::kCsv;
  if (text == "junit") return FindingsFormat::kJunit;
  if (text == "prometheus") return FindingsFormat::kPrometheus;
  return std::nullopt;
}

std::vector<std::string> FindingsFormatNames() { return {"table", "json", "csv", "junit", "prometheus"}; }

std::string FindingsTable(const std::vector<Finding>& findings) {
  if (findings.empty()) return "no findings\n";
  std::string out;
  for (const Finding& f : findings) {
    out += fmt::format("{:<7} {:<26} {}{}\n        {}\n", ToString(f.severity), f.rule,
                       f.host.empty() ? "" : fmt::format("{:<16} ", f.host), f.object, f.message);
    for (const auto& [k, v] : f.evidence) out += fmt::format("        {}: {}\n", k, v);
    out += fmt::format("        fix: {}\n", f.fix);
  }
  return out;
}

std::string FindingsCsv(const std::vector<Finding>& findings, const FindingsScope& scope) {
  std::vector<std::string> keys;
  std::map<std::string, size_t, std::less<>> column;
  for (const std::string& k : scope.evidence_columns) {
    if (column.emplace(k, keys.size()).second) keys.push_back(k);
  }
  for (const Finding& f : findings) {
    for (const auto& [k, v] : f.evidence) {
      if (column.emplace(k, keys.size()).second) keys.push_back(k);
    }
  }
  std::string out = "rule,severity,host,object,message,fix";
  for (const std::string& k : keys) out += "," + CsvEscape(k);
  out += "\n";
  for (const Finding& f : findings) {
    std::vector<std::string> values(keys.size());
    for (const auto& [k, v] : f.evidence) {
      std::string& cell = values[column.find(k)->second];
      cell += (cell.empty() ? "" : "; ") + v;
    }
    out += fmt::format("{},{},{},{},{},{}", CsvEscape(f.rule), ToString(f.severity), CsvEscape(f.host), CsvEscape(f.object),
                       CsvEscape(f.message), CsvEscape(f.fix));
    for (const std::string& v : values) out += "," + CsvEscape(v);
    out += "\n";
  }
  return out;
}

std::string FindingsJunit(const std::vector<Finding>& findings, const FindingsScope& scope) {
  std::map<std::pair<std::string, std::string>, std::vector<const Finding*>> by;  // (host, rule)
  for (const Finding& f : findings) by[{f.host, f.rule}].push_back(&f);
  // A test case fails on a warning or an error; an info finding is what it noted, in its
  // system-out, and the case passes (a CI that gates on JUnit failures must not stop on a note).
  auto fails = [](const std::vector<const Finding*>& of) {
    return std::any_of(of.begin(), of.end(), [](const Finding* f) { return f->severity != Severity::kInfo; });
  };
  size_t failing = 0;
  for (const auto& [key, of] : by) failing += fails(of);
  std::set<std::string> hosts(scope.hosts.begin(), scope.hosts.end());
  for (const Finding& f : findings) hosts.insert(f.host);
  if (hosts.empty()) hosts.insert("");  // a clean run about no host still shows what passed
  const std::vector<std::string> rules = RulesListed(findings, scope);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"railyard {}\" tests=\"{}\" failures=\"{}\">\n", XmlEscape(scope.tool),
                     hosts.size() * rules.size(), failing);
  for (const std::string& host : hosts) {
    const std::string suite = XmlEscape(host.empty() ? "(" + scope.tool + ")" : host);
    size_t failures = 0;
    for (const std::string& rule : rules) {
      auto it = by.find({host, rule});
      failures += it != by.end() && fails(it->second);
    }
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\">\n", suite, rules.size(), failures);
    for (const std::string& rule : rules) {
      auto it = by.find({host, rule});
      if (it == by.end()) {
        out += fmt::format("    <testcase classname=\"{}\" name=\"{}\"/>\n", suite, XmlEscape(rule));
        continue;
      }
      out += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", suite, XmlEscape(rule));
      std::string notes;
      for (const Finding* f : it->second) {
        std::string body = "fix: " + f->fix;
        for (const auto& [k, v] : f->evidence) body += "\n" + k + ": " + v;
        if (f->severity == Severity::kInfo) {
          notes += fmt::format("info: {}: {}\n{}\n", f->object, f->message, body);
          continue;
        }
        out += fmt::format("      <failure type=\"{}\" message=\"{}: {}\">{}</failure>\n", ToString(f->severity),
                           XmlEscape(f->object), XmlEscape(f->message), XmlEscape(body));
      }
      if (!notes.empty()) out += fmt::format("      <system-out>{}</system-out>\n", XmlEscape(notes));
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

std::string FindingsPrometheus(const std::vector<Finding>& findings, const FindingsScope& scope) {
  // Every label set is fixed by what ran, never by what was found: a series keeps its identity when
  // a rule fires (a `severity` label of the worst finding would end one series and start another).
  // Per host, three series (one per severity), so 10,000 hosts are 30,000 series, not one per host
  // and rule; per rule, three over the whole run; and the host × rule detail only where there is one.
  constexpr Severity kSeverities[] = {Severity::kError, Severity::kWarning, Severity::kInfo};
  const bool per_host = !scope.hosts.empty();
  std::map<std::string, std::map<Severity, size_t>> by_host, by_rule;
  std::map<std::pair<std::string, std::string>, size_t> by_pair;
  std::map<Severity, size_t> total;
  for (const Finding& f : findings) {
    ++total[f.severity];
    if (per_host) {
      ++by_host[f.host][f.severity];
      ++by_pair[{f.host, f.rule}];
    }
    ++by_rule[f.rule][f.severity];
  }
  const std::string metric = MetricName(scope.tool);
  std::string out;
  auto counts = [&](const std::string& name, const std::string& help, const std::string& label,
                    const std::vector<std::string>& keys, const std::map<std::string, std::map<Severity, size_t>>& of) {
    out += fmt::format("# HELP {0} {1}\n# TYPE {0} gauge\n", name, help);
    for (const std::string& key : keys) {
      auto it = of.find(key);
      for (Severity sev : kSeverities) {
        size_t n = 0;
        if (it != of.end()) {
          if (auto c = it->second.find(sev); c != it->second.end()) n = c->second;
        }
        out += fmt::format("{}{{{}=\"{}\",severity=\"{}\"}} {}\n", name, label, PrometheusLabelValue(key), ToString(sev), n);
      }
    }
  };
  const std::vector<std::string> rules = RulesListed(findings, scope);
  if (per_host) {  // the hosts examined, and any a finding names that was not listed
    std::vector<std::string> hosts = scope.hosts;
    for (const auto& [host, n] : by_host) {
      if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
    }
    std::sort(hosts.begin(), hosts.end());
    hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
    counts(metric, fmt::format("Findings of railyard {} per host and severity (0: none of that severity).", scope.tool), "host",
           hosts, by_host);
  } else {
    out += fmt::format("# HELP {0} Findings of railyard {1} per severity (0: none of that severity).\n# TYPE {0} gauge\n", metric,
                       scope.tool);
    for (Severity sev : kSeverities) {
      const size_t n = total.count(sev) ? total.at(sev) : 0;
      out += fmt::format("{}{{severity=\"{}\"}} {}\n", metric, ToString(sev), n);
    }
  }
  counts(MetricName(scope.tool + " rule"),
         fmt::format("Findings of railyard {} per rule and severity{} (0: the rule ran and found none of that severity).",
                     scope.tool, per_host ? ", over every host" : ""),
         "rule", rules, by_rule);
  if (per_host && !by_pair.empty()) {
    const std::string pairs = MetricName(scope.tool + " host rule");
    out += fmt::format(
        "# HELP {0} Findings of railyard {1} per host and rule, written for the pairs that have any.\n# TYPE {0} gauge\n", pairs,
        scope.tool);
    for (const auto& [key, n] : by_pair) {
      out += fmt::format("{}{{host=\"{}\",rule=\"{}\"}} {}\n", pairs, PrometheusLabelValue(key.first),
                         PrometheusLabelValue(key.second), n);
    }
  }
  return out;
}

std::string RenderFindings(const std::vector<Finding>& findings, const FindingsScope& scope, FindingsFormat format) {
  switch (format) {
    case FindingsFormat::kTable:
      return FindingsTable(findings);
    case FindingsFormat::kJson:
      return FindingsDocumentText(findings, scope.hosts.size()) + "\n";
    case FindingsFormat::kCsv:
      return FindingsCsv(findings, scope);
    case FindingsFormat::kJunit:
      return FindingsJunit(findings, scope);
    case FindingsFormat::kPrometheus:
      return FindingsPrometheus(findings, scope);
  }
  return {};
}

}  // namespace railyard
