#include "model/findings_formats.h"

#include <set>
#include <sstream>

#include <gtest/gtest.h>

namespace railyard {
namespace {

Finding Make(std::string rule, Severity severity, std::string host, std::vector<std::pair<std::string, std::string>> evidence) {
  Finding f;
  f.rule = std::move(rule);
  f.severity = severity;
  f.host = std::move(host);
  f.object = "port eth0";
  f.evidence = std::move(evidence);
  f.message = "the message, with a comma";
  f.fix = "the fix";
  return f;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(FindingsFormats, EveryNameParsesAndNothingElse) {
  for (const std::string& name : FindingsFormatNames()) EXPECT_TRUE(ParseFindingsFormat(name).has_value()) << name;
  EXPECT_FALSE(ParseFindingsFormat("xml").has_value());
  EXPECT_FALSE(ParseFindingsFormat("").has_value());
}

TEST(FindingsFormats, CsvHasTheScopesColumnsFirstThenTheOthersAsTheyAppear) {
  FindingsScope scope{"verify", {}, {}, {"plane", "labels"}};
  std::vector<Finding> findings = {
      Make("missing", Severity::kError, "", {{"observed_a", "a:1"}, {"plane", "compute"}}),
      Make("unexpected", Severity::kWarning, "", {{"port", "p1"}, {"port", "p2"}, {"observed_a", "x,y"}}),
  };
  std::string csv = FindingsCsv(findings, scope);
  EXPECT_EQ(csv,
            "rule,severity,host,object,message,fix,plane,labels,observed_a,port\n"
            "missing,error,,port eth0,\"the message, with a comma\",the fix,compute,,a:1,\n"
            "unexpected,warning,,port eth0,\"the message, with a comma\",the fix,,,\"x,y\",p1; p2\n");
  EXPECT_EQ(FindingsCsv({}, scope), "rule,severity,host,object,message,fix,plane,labels\n");
}

TEST(FindingsFormats, JunitEscapesHostileNamesAndKeepsRulesThatWereNotListed) {
  FindingsScope scope{"doctor", {"gpu001", "gpu<2>&\"x\""}, {"link-down"}};
  std::vector<Finding> findings = {Make("mtu-mismatch", Severity::kWarning, "gpu<2>&\"x\"", {{"mtu", "1500\x1b[31m"}})};
  std::string xml = FindingsJunit(findings, scope);
  EXPECT_EQ(xml.find("gpu<2>"), std::string::npos);
  EXPECT_NE(xml.find("name=\"gpu&lt;2&gt;&amp;&quot;x&quot;\""), std::string::npos);
  EXPECT_EQ(xml.find('\x1b'), std::string::npos) << "a control character is not XML 1.0";
  // Two hosts × (link-down, and mtu-mismatch which found something without being listed).
  EXPECT_NE(xml.find("tests=\"4\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_EQ(Count(xml, "<testcase "), 4u);
  EXPECT_EQ(Count(xml, "<failure "), 1u);
  EXPECT_NE(xml.find("mtu: 1500 [31m"), std::string::npos) << "the evidence is in the failure's body";
}

// An info finding is a note, not a failure: a CI gating on JUnit failures stops on warnings and
// errors only, and the note is kept in the case's system-out.
TEST(FindingsFormats, JunitInfoIsANoteNotAFailure) {
  FindingsScope scope{"check", {"gpu001"}, {"a-note", "a-fault"}};
  std::vector<Finding> findings = {Make("a-note", Severity::kInfo, "gpu001", {{"why", "x<y"}}),
                                   Make("a-fault", Severity::kError, "gpu001", {}),
                                   Make("a-fault", Severity::kInfo, "gpu001", {})};
  std::string xml = FindingsJunit(findings, scope);
  EXPECT_NE(xml.find("tests=\"2\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_EQ(Count(xml, "<failure "), 1u);
  EXPECT_EQ(Count(xml, "<system-out>"), 2u);
  EXPECT_NE(xml.find("why: x&lt;y"), std::string::npos) << xml;
  EXPECT_NE(FindingsJunit({findings[0]}, scope).find("tests=\"2\" failures=\"0\""), std::string::npos);
}

TEST(FindingsFormats, JunitOfACleanRunAboutNoHostStillListsWhatPassed) {
  std::string xml = FindingsJunit({}, {"verify", {}, {"missing", "swapped"}});
  EXPECT_NE(xml.find("<testsuite name=\"(verify)\" tests=\"2\" failures=\"0\">"), std::string::npos) << xml;
  EXPECT_EQ(Count(xml, "<testcase "), 2u);
}

// Every label set is fixed by what ran: a finding changes a value, never which series exist.
TEST(FindingsFormats, PrometheusSeriesAreFixedByWhatRanNotByWhatWasFound) {
  FindingsScope scope{"doctor", {"gpu001", "gpu002"}, {"link-down", "mtu-mismatch"}};
  std::vector<Finding> findings = {Make("link-down", Severity::kWarning, "gpu001", {}),
                                   Make("link-down", Severity::kError, "gpu001", {})};
  std::string prom = FindingsPrometheus(findings, scope);
  EXPECT_NE(prom.find("railyard_doctor_findings{host=\"gpu001\",severity=\"error\"} 1\n"), std::string::npos) << prom;
  EXPECT_NE(prom.find("railyard_doctor_findings{host=\"gpu001\",severity=\"warning\"} 1\n"), std::string::npos);
  EXPECT_NE(prom.find("railyard_doctor_findings{host=\"gpu002\",severity=\"error\"} 0\n"), std::string::npos);
  EXPECT_EQ(Count(prom, "railyard_doctor_findings{"), 6u);  // 2 hosts x 3 severities, not hosts x rules
  EXPECT_NE(prom.find("railyard_doctor_rule_findings{rule=\"link-down\",severity=\"error\"} 1\n"), std::string::npos);
  EXPECT_NE(prom.find("railyard_doctor_rule_findings{rule=\"mtu-mismatch\",severity=\"info\"} 0\n"), std::string::npos);
  EXPECT_EQ(Count(prom, "railyard_doctor_rule_findings{"), 6u);
  EXPECT_NE(prom.find("railyard_doctor_host_rule_findings{host=\"gpu001\",rule=\"link-down\"} 2\n"), std::string::npos);
  EXPECT_EQ(Count(prom, "railyard_doctor_host_rule_findings{"), 1u);  // only the pair that has findings
  // The same run with nothing found: the same host and rule series, each at 0.
  std::string clean = FindingsPrometheus({}, scope);
  auto series = [](const std::string& text, const char* metric) {
    std::set<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with(metric)) out.insert(line.substr(0, line.rfind(' ')));
    }
    return out;
  };
  for (const char* m : {"railyard_doctor_findings{", "railyard_doctor_rule_findings{"})
    EXPECT_EQ(series(prom, m), series(clean, m)) << m;
}

TEST(FindingsFormats, PrometheusWithoutHostsCountsPerRuleUnderTheToolsMetric) {
  FindingsScope scope{"ledger check", {}, {"duplicate-identity", "vpd-checksum"}};
  std::vector<Finding> findings = {Make("vpd-checksum", Severity::kWarning, "MT2233X00001", {}),
                                   Make("vpd-checksum", Severity::kError, "MT2233X00002", {}),
                                   Make("foreign-oui", Severity::kWarning, "MT2233X00003", {})};
  std::string prom = FindingsPrometheus(findings, scope);
  EXPECT_EQ(prom.find("MT2233"), std::string::npos) << "serials are not metric labels";
  EXPECT_NE(prom.find("railyard_ledger_check_findings{severity=\"warning\"} 2\n"), std::string::npos) << prom;
  EXPECT_NE(prom.find("railyard_ledger_check_rule_findings{rule=\"vpd-checksum\",severity=\"error\"} 1\n"), std::string::npos);
  EXPECT_NE(prom.find("railyard_ledger_check_rule_findings{rule=\"duplicate-identity\",severity=\"error\"} 0\n"),
            std::string::npos);
  EXPECT_NE(prom.find("railyard_ledger_check_rule_findings{rule=\"foreign-oui\",severity=\"warning\"} 1\n"), std::string::npos)
      << "a rule that found something is never left out";
  EXPECT_EQ(prom.find("host_rule"), std::string::npos);
}

TEST(FindingsFormats, PrometheusLabelValuesAreEscaped) { EXPECT_EQ(PrometheusLabelValue("a\"b\\c\nd\x01"), "a\\\"b\\\\c\\nd "); }

TEST(FindingsFormats, TableNamesTheHostOnlyWhenThereIsOne) {
  std::string table = FindingsTable(
      {Make("link-down", Severity::kError, "gpu001", {{"state", "down"}}), Make("rail-count", Severity::kWarning, "", {})});
  EXPECT_NE(table.find("error   link-down                  gpu001           port eth0\n"), std::string::npos) << table;
  EXPECT_NE(table.find("warning rail-count                 port eth0\n"), std::string::npos) << table;
  EXPECT_NE(table.find("        state: down\n        fix: the fix\n"), std::string::npos);
  EXPECT_EQ(FindingsTable({}), "no findings\n");
}

}  // namespace
}  // namespace railyard
