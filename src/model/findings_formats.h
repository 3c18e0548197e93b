// One renderer for every command that reports findings (check, doctor, verify, ledger check,
// rollout check): the same table, CSV, JUnit and Prometheus forms, so a script or a CI job that
// reads one command's findings reads them all. JSON is FindingsDocumentText (model/finding.h), or the
// command's own schema where it carries more than findings (railyard.verify/1's link counts).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/finding.h"

namespace railyard {

enum class FindingsFormat { kTable, kJson, kCsv, kJunit, kPrometheus };

std::optional<FindingsFormat> ParseFindingsFormat(std::string_view text);
// "table", "json", "csv", "junit", "prometheus": for a CLI's choice list.
std::vector<std::string> FindingsFormatNames();

// What a run examined, so the forms that list passes (JUnit testcases, Prometheus zeros) can say
// what was checked and found clean, not only what failed.
struct FindingsScope {
  // Names the JUnit report ("railyard doctor") and the metric (railyard_doctor_findings); spaces
  // become underscores in the metric name.
  std::string tool;
  // The hosts examined. When given, JUnit has a suite per host and Prometheus a series per host and
  // rule; when empty (verify, ledger check: the subjects are cables or serials, far too many for a
  // metric label), Prometheus counts per rule only.
  std::vector<std::string> hosts;
  // The rules that ran: a host × rule with no finding is a passing testcase and a 0 gauge.
  std::vector<std::string> rules_run;
  // Evidence keys that are CSV columns, in this order, whatever the findings hold, so a script can
  // rely on a command's columns; keys not named follow in order of first appearance.
  std::vector<std::string> evidence_columns = {};
};

// One block per finding: severity, rule, host (when the finding is about one), object, message,
// evidence, fix. "no findings" when empty.
std::string FindingsTable(const std::vector<Finding>& findings);

// rule,severity,host,object,message,fix, then scope.evidence_columns, then one column per other
// evidence key in order of first appearance (a key given twice in one finding is joined with "; ").
// RFC 4180 quoting.
std::string FindingsCsv(const std::vector<Finding>& findings, const FindingsScope& scope = {});

// JUnit XML: a <testsuite> per host (findings about no host in one named "(tool)"), a <testcase>
// per rule run or found, a <failure> per finding. Every name is XML-escaped.
std::string FindingsJunit(const std::vector<Finding>& findings, const FindingsScope& scope);

// node_exporter textfile: railyard_<tool>_findings gauges, labelled {host, rule, severity} when the
// scope names hosts, else {rule, severity}; severity is the worst found, "none" for a 0.
std::string FindingsPrometheus(const std::vector<Finding>& findings, const FindingsScope& scope);

// A Prometheus label value: backslash, double quote and newline escaped as the text format asks,
// other control characters as a space.
std::string PrometheusLabelValue(std::string_view text);

// The findings in `format`; JSON is railyard.findings/1 (FindingsDocumentText, over scope.hosts). A
// command whose JSON schema carries more (verify's link counts) writes its own JSON instead.
std::string RenderFindings(const std::vector<Finding>& findings, const FindingsScope& scope, FindingsFormat format);

}  // namespace railyard
