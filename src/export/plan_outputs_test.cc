#include "export/plan_outputs.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "export/write_all.h"
#include "util/file.h"

namespace railyard {
namespace {

TEST(PlanOutputs, EveryRowHasItsWriterAndAUniqueName) {
  std::set<std::string> names = {kPlanManifest};
  for (const PlanOutput& row : PlanOutputs()) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name << " twice";
    EXPECT_NE(std::string(row.what), "") << row.name;
    EXPECT_EQ(row.write != nullptr, row.scope == OutputScope::kOnce) << row.name;
    EXPECT_EQ(row.write_plane != nullptr, row.scope == OutputScope::kPerInfinibandPlane) << row.name;
    EXPECT_EQ(row.write_index != nullptr, row.scope == OutputScope::kIndexOfPrevious) << row.name;
    EXPECT_EQ(std::string(row.name).find("<plane>") != std::string::npos, row.scope == OutputScope::kPerInfinibandPlane)
        << row.name;
  }
}

// An index is written by the job of the row before it: that row must be a file every plan writes,
// not a per-plane row a plan without InfiniBand has none of.
TEST(PlanOutputs, AnIndexFollowsAFileEveryPlanWrites) {
  const std::vector<PlanOutput>& rows = PlanOutputs();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].scope != OutputScope::kIndexOfPrevious) continue;
    ASSERT_GT(i, 0u) << rows[i].name;
    EXPECT_EQ(rows[i - 1].scope, OutputScope::kOnce) << rows[i].name << " follows " << rows[i - 1].name;
  }
}

TEST(PlanOutputs, PlaneNamesGoWhereThePatternSays) {
  for (const PlanOutput& row : PlanOutputs()) {
    if (row.scope != OutputScope::kPerInfinibandPlane) continue;
    const std::string name = PlanOutputName(row, "compute");
    EXPECT_EQ(name.find("<plane>"), std::string::npos);
    EXPECT_NE(name.find("-compute."), std::string::npos) << name;
  }
}

// README.md's table of plan outputs is where a user looks: it names every row (per-plane files as
// `NAME-<plane>.EXT`) and the manifest, so a new export cannot land without its line there.
TEST(PlanOutputs, ReadmeNamesEveryOutput) {
  const std::string readme = ReadWholeFile(std::string(RAILYARD_SOURCE_DIR) + "/README.md");
  for (const PlanOutput& row : PlanOutputs()) {
    EXPECT_NE(readme.find("`" + std::string(row.name) + "`"), std::string::npos)
        << row.name << ": no row for it in README.md's table of plan outputs";
  }
  EXPECT_NE(readme.find(std::string("`") + kPlanManifest + "`"), std::string::npos);
}

TEST(PlanOutputs, HelpListsEveryOutput) {
  const std::string help = PlanOutputsHelp();
  for (const PlanOutput& row : PlanOutputs()) EXPECT_NE(help.find(std::string(row.name) + " "), std::string::npos) << row.name;
}

}  // namespace
}  // namespace railyard
