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
  EXPECT_FALSE(d.Refresh());  // nothing changed
  std::string text = ReadWholeFile((dir_ / "fleet.ndjson").string());
  std::ofstream(dir_ / "fleet.ndjson") << text << text.substr(0, text.find('\n')) << "\n";  // lab001 twice: three documents
  EXPECT_TRUE(d.Refresh());
  EXPECT_EQ(Answer(d, "/api/v1/summary")["facts"]["hosts"], 3);
  std::ofstream(dir_ / "fleet.ndjson") << "{not json";
  d.Refresh();
  json summary = Answer(d, "/api/v1/summary");
  EXPECT_EQ(summary["facts"]["hosts"], 3);  // the last good state
  EXPECT_FALSE(summary["errors"].empty());
}

TEST(Dashboard, RefusesWhatItCannotRead) {
  EXPECT_THROW(Dashboard({"/nonexistent/plan.json", {}, "", "", "", ""}), std::runtime_error);
}

}  // namespace
}  // namespace railyard
