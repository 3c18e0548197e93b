#include "verify/pipeline.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "export/write_all.h"
#include "parse/fixtures.h"
#include "spec/spec.h"
#include "util/input_error.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

class PipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("railyard-pipeline-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    WritePlanOutputs(Plan(LoadSpec(std::string(RAILYARD_SOURCE_DIR) + "/examples/lab-8-node.yaml")), Catalog::Builtin(),
                     (dir_ / "plan").string());
  }
  void TearDown() override { fs::remove_all(dir_); }
  VerifyInputs Inputs() const { return {.plan = (dir_ / "plan/plan.json").string()}; }
  fs::path dir_;
};

// The plan's own ibnetdiscover export, read back as a capture, is the fabric as planned.
TEST_F(PipelineTest, ThePlansOwnTopologyIsAllOk) {
  VerifyInputs in = Inputs();
  in.ibnetdiscover = {(dir_ / "plan/ibnetdiscover-compute.topo").string()};
  in.options.check_speed = true;
  std::vector<std::string> warnings;
  const VerifyRun run = RunVerify(in, {.warn = [&](const std::string& w) { warnings.push_back(w); }, .note = nullptr});
  EXPECT_GT(run.plan_links, 0u);
  EXPECT_GT(run.result.counts.ok, 0u);
  EXPECT_EQ(run.result.counts.missing + run.result.counts.miswired + run.result.counts.unexpected, 0u);
  EXPECT_TRUE(warnings.empty());
}

// LLDP captures named DEVICE=FILE or by their file names; a directory in name order; each one's
// unread lines said through `warn`, and a partly read capture does not vouch for its device.
TEST_F(PipelineTest, CapturesAreNamedByDeviceAndTheirWarningsSaid) {
  fs::create_directories(dir_ / "lldp");
  std::ofstream(dir_ / "lldp/b-host.json") << "{}";
  std::ofstream(dir_ / "lldp/a-host.txt") << "";
  const auto captures = CapturesByDevice({(dir_ / "lldp").string(), "leaf01=" + (dir_ / "x.txt").string()});
  ASSERT_EQ(captures.size(), 3u);
  EXPECT_EQ(captures[0].first, "a-host");
  EXPECT_EQ(captures[1].first, "b-host");
  EXPECT_EQ(captures[2].first, "leaf01");
  EXPECT_EQ(captures[2].second, (dir_ / "x.txt").string());
  VerifyInputs in = Inputs();
  std::ofstream(dir_ / "leaf01.txt") << "not a table\n";
  in.switch_lldp = {(dir_ / "leaf01.txt").string()};
  EXPECT_THROW(RunVerify(in, {}), InputError);  // nothing of the format in it: not that format
}

TEST_F(PipelineTest, NothingObservedOrAnUnknownPlaneIsAUsageError) {
  EXPECT_THROW(RunVerify(Inputs(), {}), UsageError);
  VerifyInputs in = Inputs();
  in.ibnetdiscover = {(dir_ / "plan/ibnetdiscover-compute.topo").string()};
  in.options.planes = {"nosuchplane"};
  try {
    RunVerify(in, {});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--plane nosuchplane: the plan has no such plane (it has "), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace railyard
