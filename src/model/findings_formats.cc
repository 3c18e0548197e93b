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
  const bool per_host = !scope.hosts.empty();
  // (host or "", rule) -> count and worst severity
  std::map<std::pair<std::string, std::string>, std::pair<size_t, Severity>> count;
  for (const Finding& f : findings) {
    auto& c = count[{per_host ? f.host : std::string(), f.rule}];
    c.second = c.first ? std::max(c.second, f.severity) : f.severity;
    ++c.first;
  }
  const std::string metric = MetricName(scope.tool);
  std::string out = fmt::format(
      "# HELP {0} Findings of railyard {1} per {2}rule (0: the rule ran and found nothing).\n"
      "# TYPE {0} gauge\n",
      metric, scope.tool, per_host ? "host and " : "");
  auto line = [&](const std::string& host, const std::string& rule) {
    auto it = count.find({host, rule});
    size_t n = it == count.end() ? 0 : it->second.first;
    std::string severity = it == count.end() ? "none" : std::string(ToString(it->second.second));
    std::string labels = per_host ? fmt::format("host=\"{}\",", PrometheusLabelValue(host)) : "";
    out += fmt::format("{}{{{}rule=\"{}\",severity=\"{}\"}} {}\n", metric, labels, PrometheusLabelValue(rule), severity, n);
  };
  std::set<std::pair<std::string, std::string>> written;
  std::set<std::string> hosts(scope.hosts.begin(), scope.hosts.end());
  if (!per_host) hosts = {""};
  for (const std::string& host : hosts) {
    for (const std::string& rule : scope.rules_run) {
      if (written.insert({host, rule}).second) line(host, rule);
    }
  }
  for (const auto& [key, c] : count) {  // found by a rule not listed as run, or about a host not listed
    if (written.insert(key).second) line(key.first, key.second);
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
