#include "serve/dashboard.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/write_all.h"
#include "facts/collect.h"
#include "facts/host_facts.h"
#include "ledger/ledger.h"
#include "parse/fixtures.h"
#include "plan/planner.h"
#include "spec/spec.h"
#include "util/file.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// The lab example's plan and two hosts whose facts come from real samples (the CX7 lspci and the
// H100 ibstat), named as the plan names its nodes.
class DashboardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("railyard-dashboard-{}", ::getpid());
    fs::remove_all(dir_);
    WritePlanOutputs(Plan(LoadSpec(std::string(RAILYARD_SOURCE_DIR) + "/examples/lab-8-node.yaml")), Catalog::Builtin(),
                     (dir_ / "plan").string());
    CollectInputs in;
    in.lspci = ReadWholeFile(testing::FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt").string());
    in.ibstat = ReadWholeFile(testing::FixturePath("ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt").string());
    std::ofstream facts(dir_ / "fleet.ndjson");
    for (const char* host : {"lab001", "lab002"}) {
      in.hostname = host;
      facts << ToJson(BuildHostFacts(in)).dump() << "\n";
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  json Answer(const Dashboard& d, const std::string& path, std::multimap<std::string, std::string> query = {}, int status = 200) {
    ApiAnswer a = d.Get(path, query);
    EXPECT_EQ(a.status, status) << path << ": " << a.body;
    return json::parse(a.body);
  }
  fs::path dir_;
};

TEST_F(DashboardTest, AnswersAreWhatDoctorAndThePlanSay) {
  // A ledger with two batches: B1's two cards, one accepted; B2's cable, received.
  const std::string db = (dir_ / "ledger.db").string();
  {
    auto ledger = OpenLedger(db);
    ledger->Record({{"MT1", "nic", {{"batch", "B1"}, {"state", "accepted"}}, 0},
                    {"MT2", "nic", {{"batch", "B1"}}, 0},
                    {"MT3", "cable", {{"batch", "B2"}}, 0}},
                   "alice", "receiving");
  }
  Dashboard d({(dir_ / "plan" / "plan.json").string(), {(dir_ / "fleet.ndjson").string()}, "", "", db, ""});
  json acceptance = Answer(d, "/api/v1/acceptance");
  ASSERT_EQ(acceptance["batches"].size(), 2u);
  EXPECT_EQ(acceptance["batches"][0]["batch"], "B1");
  EXPECT_EQ(acceptance["batches"][0]["states"]["accepted"], 1);
  EXPECT_EQ(acceptance["batches"][0]["states"]["received"], 1);
  EXPECT_EQ(acceptance["batches"][1]["assets"], 1);
  Answer(d, "/api/v1/rollout", {}, 404);  // none given
  json summary = Answer(d, "/api/v1/summary");
  EXPECT_EQ(summary["plan"], "lab-8-node");
  EXPECT_EQ(summary["nodes"], 8);
  EXPECT_EQ(summary["facts"]["hosts"], 2);
  EXPECT_TRUE(summary["plan_html"]);
  EXPECT_FALSE(summary["verify"]);
  json all = Answer(d, "/api/v1/findings");
  ASSERT_GT(all["count"].get<int>(), 0);
  size_t fleet = 0;
  for (const json& f : all["findings"]) {
    if (f.value("fleet", false)) {
      // The two hosts' cards are clones of one sample: a fleet-wide finding, drawn in no rack.
      ++fleet;
      EXPECT_FALSE(f.contains("rack")) << f.dump();
      EXPECT_TRUE(f["racks"].empty()) << f.dump();
    } else if (f["host"] == "lab001") {
      EXPECT_EQ(f["rack"], "r01-01");
      EXPECT_EQ(f["racks"], json::array({"r01-01"}));
    }
  }
  EXPECT_GT(fleet, 0u);
  EXPECT_EQ(summary["fleet_findings"], fleet);
  json lab002 = Answer(d, "/api/v1/findings", {{"host", "lab002"}});
  EXPECT_GT(lab002["count"].get<int>(), 0);
  for (const json& f : lab002["findings"]) {
    EXPECT_EQ(f["host"], "lab002");
    EXPECT_TRUE(f.contains("evidence") && f.contains("rack"));  // a filtered answer has the unfiltered one's shape
  }
  json none = Answer(d, "/api/v1/findings", {{"severity", "info"}, {"host", "nobody"}});
  EXPECT_EQ(none["count"], 0);
  Answer(d, "/api/v1/findings", {{"password", "x"}}, 400);
  json racks = Answer(d, "/api/v1/racks");
  EXPECT_EQ(racks["racks"].size(), 5u);
  size_t counted = 0;
  for (const json& r : racks["racks"]) counted += r["error"].get<size_t>() + r["warning"].get<size_t>() + r["info"].get<size_t>();
  EXPECT_EQ(counted + fleet, all["count"].get<size_t>());  // every finding of a planned host lands in its rack
  Answer(d, "/api/v1/verify", {}, 404);
  Answer(d, "/api/v2", {}, 404);
  EXPECT_FALSE(d.PlanHtml().empty());
}

TEST_F(DashboardTest, ACableFindingMarksTheLeafRackFirstThenTheHosts) {
  const HostPlan plan(LoadPlannedFabric((dir_ / "plan" / "plan.json").string()));
  const PlannedDevice* host = plan.DeviceOf("lab001");
  ASSERT_NE(host, nullptr);
  const PlannedDevice* leaf = nullptr;
  for (const PlannedDevice& d : plan.fabric().devices)
    if (d.role == "switch" && d.rack != host->rack) leaf = &d;
  ASSERT_NE(leaf, nullptr) << "the lab plan has a switch outside the host's rack";
  Finding f;
  f.rule = "rail-mismatch";
  f.host = "lab001";
  f.evidence = {{"lldp_neighbor", "somewhere-else swp1"}, {"planned", leaf->name + " swp7"}};
  EXPECT_EQ(RacksOfFinding(f, plan), (std::vector<std::string>{leaf->rack, host->rack}));
  f.evidence.clear();
  EXPECT_EQ(RacksOfFinding(f, plan), std::vector<std::string>{host->rack});
  f.host = "not-planned";
  EXPECT_TRUE(RacksOfFinding(f, plan).empty());
}

TEST_F(DashboardTest, RefreshReloadsChangedFactsAndKeepsTheLastGoodState) {
  Dashboard d({(dir_ / "plan" / "plan.json").string(), {(dir_ / "fleet.ndjson").string()}, "", "", "", ""});
  // The first page kept ready follows every reload.
  auto first_page_is_current = [this, &d] {
    return Answer(d, "/api/v1/findings") == Answer(d, "/api/v1/findings", {{"offset", "0"}});
  };
  EXPECT_FALSE(d.Refresh());  // nothing changed
  std::string text = ReadWholeFile((dir_ / "fleet.ndjson").string());
  std::ofstream(dir_ / "fleet.ndjson") << text << text.substr(0, text.find('\n')) << "\n";  // lab001 twice: three documents
  EXPECT_TRUE(d.Refresh());
  EXPECT_EQ(Answer(d, "/api/v1/summary")["facts"]["hosts"], 3);
  EXPECT_TRUE(first_page_is_current());
  std::ofstream(dir_ / "fleet.ndjson") << "{not json";
  d.Refresh();
  json summary = Answer(d, "/api/v1/summary");
  EXPECT_EQ(summary["facts"]["hosts"], 3);  // the last good state
  EXPECT_FALSE(summary["errors"].empty());
  EXPECT_FALSE(d.Refresh());  // nothing changed since: the error is still the news, not a clean bill
  EXPECT_FALSE(Answer(d, "/api/v1/summary")["errors"].empty());
  std::ofstream(dir_ / "fleet.ndjson") << text;
  EXPECT_TRUE(d.Refresh());
  summary = Answer(d, "/api/v1/summary");
  EXPECT_EQ(summary["facts"]["hosts"], 2);
  EXPECT_TRUE(summary["errors"].empty());
  EXPECT_TRUE(first_page_is_current());
}

TEST_F(DashboardTest, FindingsComeInPagesThatAddUpToTheWhole) {
  Dashboard d({(dir_ / "plan" / "plan.json").string(), {(dir_ / "fleet.ndjson").string()}, "", "", "", ""});
  const json all = Answer(d, "/api/v1/findings");
  const size_t total = all["count"];
  ASSERT_GE(total, 3u);
  ASSERT_EQ(all["findings"].size(), total);  // under the default page of 1000
  EXPECT_TRUE(all["next"].is_null());
  EXPECT_EQ(all["limit"], Dashboard::kDefaultPage);
  // The answer kept ready for no query is the one computed for the same page asked explicitly.
  EXPECT_EQ(all, Answer(d, "/api/v1/findings", {{"offset", "0"}, {"limit", std::to_string(Dashboard::kDefaultPage)}}));
  // Page by two, following `next` as a client would, until it is null.
  json joined = json::array();
  std::multimap<std::string, std::string> query = {{"limit", "2"}};
  for (int pages = 0; pages < 100; ++pages) {
    const json page = Answer(d, "/api/v1/findings", query);
    EXPECT_EQ(page["count"], total);
    EXPECT_LE(page["findings"].size(), 2u);
    for (const json& f : page["findings"]) joined.push_back(f);
    if (page["next"].is_null()) break;
    const std::string next = page["next"];
    ASSERT_TRUE(next.starts_with("/api/v1/findings?")) << next;
    query.clear();
    std::string rest = next.substr(next.find('?') + 1);
    for (size_t at = 0; at <= rest.size();) {
      const size_t amp = std::min(rest.find('&', at), rest.size());
      const std::string pair = rest.substr(at, amp - at);
      query.emplace(pair.substr(0, pair.find('=')), pair.substr(pair.find('=') + 1));
      at = amp + 1;
    }
  }
  EXPECT_EQ(joined, all["findings"]);
  // The filters stay in `next`, escaped: a second rack value that matches nothing is kept as given.
  const size_t hosts = Answer(d, "/api/v1/findings", {{"host", "lab001"}, {"host", "lab002"}})["count"];
  ASSERT_GT(hosts, 1u);
  const json one = Answer(d, "/api/v1/findings", {{"host", "lab 9&x=y"}, {"host", "lab001"}, {"host", "lab002"}, {"limit", "1"}});
  EXPECT_EQ(one["count"], hosts);
  EXPECT_EQ(one["next"], "/api/v1/findings?host=lab%209%26x%3Dy&host=lab001&host=lab002&offset=1&limit=1");
  EXPECT_EQ(Answer(d, "/api/v1/findings", {{"offset", std::to_string(total)}})["findings"].size(), 0u);
  for (const char* bad : {"0", "10001", "-1", "1x", "", "99999999999999999999"})
    Answer(d, "/api/v1/findings", {{"limit", bad}}, 400);
  Answer(d, "/api/v1/findings", {{"offset", "-3"}}, 400);
  Answer(d, "/api/v1/findings", {{"limit", "1"}, {"limit", "2"}}, 400);
}

TEST(Dashboard, RefusesWhatItCannotRead) {
  EXPECT_THROW(Dashboard({"/nonexistent/plan.json", {}, "", "", "", ""}), std::runtime_error);
}

}  // namespace
}  // namespace railyard
