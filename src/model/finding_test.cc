#include "model/finding.h"
#include "model/schemas.h"

#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace railyard {
namespace {

// railyard.findings/1 as the JSON tree it was built as before FindingsDocumentText, dumped: the
// reference the text must equal.
nlohmann::json FindingsDocumentTree(const std::vector<Finding>& findings, size_t hosts) {
  nlohmann::json list = nlohmann::json::array();
  std::map<std::string, size_t> by_rule;
  std::map<std::string, size_t> by_severity = {{"error", 0}, {"warning", 0}, {"info", 0}};
  std::set<std::string> hosts_with;
  for (const Finding& f : findings) {
    nlohmann::json evidence = nlohmann::json::object();
    for (const auto& [k, v] : f.evidence) evidence[k] = v;
    list.push_back({{"rule", f.rule},
                    {"severity", ToString(f.severity)},
                    {"host", f.host},
                    {"object", f.object},
                    {"evidence", evidence},
                    {"message", f.message},
                    {"fix", f.fix}});
    ++by_rule[f.rule];
    ++by_severity[std::string(ToString(f.severity))];
    if (!f.host.empty()) hosts_with.insert(f.host);
  }
  return {{"schema", kFindingsSchema},
          {"findings", list},
          {"summary",
           {{"hosts", hosts},
            {"hosts_with_findings", hosts_with.size()},
            {"findings", findings.size()},
            {"by_severity", by_severity},
            {"by_rule", by_rule}}}};
}

std::string ByTree(const std::vector<Finding>& findings, size_t hosts) {
  return FindingsDocumentTree(findings, hosts).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

TEST(FindingsDocumentText, IsTheTreesDumpByteForByte) {
  Finding plain;
  plain.rule = "link-down";
  plain.severity = Severity::kError;
  plain.host = "gpu001";
  plain.object = "port mlx5_0";
  plain.evidence = {{"state", "down"}, {"phys_state", "Disabled"}};
  plain.message = "the port is down";
  plain.fix = "reseat the cable";

  Finding hostile = plain;  // what a capture can put in a name: quotes, controls, UTF-8, bytes that are not UTF-8
  hostile.host = "gpu\"002\\";
  hostile.object = "caf\xc3\xa9 \xe2\x80\xa6 \x1b[31mred\x7f";
  hostile.message = "line one\nline two\ttab \xff\xfe broken \xc3";
  hostile.evidence = {{"b", "1"}, {"a", "2"}, {"b", "3"}, {"\x01key", "v"}};  // out of order, a key twice
  hostile.fix = "";

  Finding fleet;  // about no host, no evidence
  fleet.rule = "fleet-firmware-drift";
  fleet.severity = Severity::kWarning;
  fleet.object = "fleet";
  fleet.message = "3 firmware versions";
  fleet.fix = "align";

  for (const std::vector<Finding>& findings :
       {std::vector<Finding>{}, std::vector<Finding>{plain}, std::vector<Finding>{plain, hostile, fleet, plain}}) {
    for (size_t hosts : {0u, 7u}) {
      EXPECT_EQ(FindingsDocumentText(findings, hosts), ByTree(findings, hosts)) << findings.size() << " findings";
    }
  }
  EXPECT_TRUE(nlohmann::json::accept(FindingsDocumentText({hostile}, 1)));
}

}  // namespace
}  // namespace railyard
