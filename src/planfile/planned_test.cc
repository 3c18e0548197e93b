#include "planfile/planned.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "export/write_all.h"
#include "plan/test_specs.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Spit(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}

// One SuperPOD scalable unit with its storage and management planes, written by `plan -o`.
class PlanIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("railyard-index-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    WritePlanOutputs(Plan(testing::ParseOrDie(testing::SuperPodYaml(31))), Catalog::Builtin(), dir_.string());
    json_ = (dir_ / "plan.json").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string json_;
};

TEST_F(PlanIndexTest, IndexReadsExactlyWhatPlanJsonSays) {
  PlannedFabric indexed = LoadPlannedFabric(json_);
  ASSERT_EQ(indexed.read_from, "plan.index");
  EXPECT_EQ(indexed.index_note, "");
  PlannedFabric parsed = ParsePlannedFabric(Slurp(json_), json_);
  EXPECT_EQ(parsed.read_from, "plan.json");
  EXPECT_EQ(indexed.name, parsed.name);
  ASSERT_EQ(indexed.planes.size(), parsed.planes.size());
  for (size_t i = 0; i < parsed.planes.size(); ++i) {
    EXPECT_EQ(indexed.planes[i].name, parsed.planes[i].name);
    EXPECT_EQ(indexed.planes[i].kind, parsed.planes[i].kind);
    EXPECT_EQ(indexed.planes[i].mtu, parsed.planes[i].mtu);
    EXPECT_EQ(indexed.planes[i].role, parsed.planes[i].role);
    EXPECT_EQ(indexed.planes[i].bond, parsed.planes[i].bond);
    EXPECT_GT(parsed.planes[i].mtu, 0u);
  }
  ASSERT_EQ(indexed.devices.size(), parsed.devices.size());
  for (size_t i = 0; i < parsed.devices.size(); ++i) {
    const PlannedDevice &x = indexed.devices[i], &y = parsed.devices[i];
    SCOPED_TRACE(y.name);
    EXPECT_EQ(std::tie(x.name, x.role, x.tier, x.plane, x.rack, x.row, x.position, x.u, x.rail, x.group),
              std::tie(y.name, y.role, y.tier, y.plane, y.rack, y.row, y.position, y.u, y.rail, y.group));
  }
  ASSERT_EQ(indexed.links.size(), parsed.links.size());
  ASSERT_GT(parsed.links.size(), 500u);
  for (size_t i = 0; i < parsed.links.size(); ++i) {
    const PlannedLink &x = indexed.links[i], &y = parsed.links[i];
    SCOPED_TRACE(std::string(y.label));
    EXPECT_EQ(std::tie(x.label, x.plane, x.infiniband, x.level, x.rail, x.speed_gbps, x.cable, x.xcvr_a, x.xcvr_z, x.length_m,
                       x.a_device, x.a_port, x.z_device, x.z_port),
              std::tie(y.label, y.plane, y.infiniband, y.level, y.rail, y.speed_gbps, y.cable, y.xcvr_a, y.xcvr_z, y.length_m,
                       y.a_device, y.a_port, y.z_device, y.z_port));
    EXPECT_EQ(indexed.port_names[x.a_port_id], x.a_port);
    EXPECT_EQ(parsed.port_names[y.z_port_id], y.z_port);
  }
}

TEST_F(PlanIndexTest, AddressesOnlyWhenAskedAndTheSameFromBothReaders) {
  WritePlanOutputs(Plan(testing::ParseOrDie(testing::SuperPodYaml(31, "", "  compute: {prefix: 10.0.0.0/16, mode: ipoib}\n"))),
                   Catalog::Builtin(), dir_.string());
  EXPECT_TRUE(LoadPlannedFabric(json_).link_addresses.empty());  // verify does not pay for them
  PlannedFabric indexed = LoadPlannedFabric(json_, true);
  ASSERT_EQ(indexed.read_from, "plan.index");
  PlannedFabric parsed = ParsePlannedFabric(Slurp(json_), json_, true);
  ASSERT_EQ(indexed.link_addresses.size(), indexed.links.size());
  ASSERT_EQ(parsed.link_addresses.size(), parsed.links.size());
  size_t with = 0;
  for (size_t i = 0; i < parsed.links.size(); ++i) {
    EXPECT_EQ(indexed.link_addresses[i], parsed.link_addresses[i]) << parsed.links[i].label;
    with += !parsed.link_addresses[i][0].empty();
  }
  EXPECT_GT(with, 100u);  // the test plan has addresses to compare
}

TEST_F(PlanIndexTest, AnEditedPlanJsonIsReadItselfAndSaysWhy) {
  // Same size, one byte changed: only the fingerprint can tell.
  std::string text = Slurp(json_);
  size_t at = text.find("\"length_m\":");
  ASSERT_NE(at, std::string::npos);
  text[at + 11] = text[at + 11] == '9' ? '8' : '9';
  Spit(json_, text);
  PlannedFabric plan = LoadPlannedFabric(json_);
  EXPECT_EQ(plan.read_from, "plan.json");
  EXPECT_NE(plan.index_note.find("was not written with this"), std::string::npos) << plan.index_note;
  EXPECT_NE(plan.index_note.find("re-run `railyard plan`"), std::string::npos);
  // One byte longer.
  Spit(json_, text + " ");
  EXPECT_EQ(LoadPlannedFabric(json_).read_from, "plan.json");
}

TEST_F(PlanIndexTest, ACutOrDamagedIndexIsNeverTrusted) {
  const fs::path index = dir_ / "plan.index";
  const std::string whole = Slurp(index);
  for (size_t cut : {whole.size() / 3, whole.size() - 1}) {
    Spit(index, whole.substr(0, cut));
    PlannedFabric plan = LoadPlannedFabric(json_);
    EXPECT_EQ(plan.read_from, "plan.json") << cut;
    EXPECT_NE(plan.index_note.find("plan.index:"), std::string::npos) << plan.index_note;
  }
  // A device number beyond the device rows.
  std::string damaged = whole;
  size_t row = damaged.find("\nL\t");
  ASSERT_NE(row, std::string::npos);
  size_t eol = damaged.find('\n', row + 1);
  std::string line = damaged.substr(row + 1, eol - row - 1);
  std::vector<std::string> f;
  for (size_t s = 0, t;; s = t + 1) {
    t = line.find('\t', s);
    f.push_back(line.substr(s, t == std::string::npos ? std::string::npos : t - s));
    if (t == std::string::npos) break;
  }
  ASSERT_EQ(f.size(), 14u);
  f[10] = "99999999";
  std::string bad;
  for (size_t i = 0; i < f.size(); ++i) bad += (i ? "\t" : "") + f[i];
  damaged.replace(row + 1, eol - row - 1, bad);
  Spit(index, damaged);
  PlannedFabric plan = LoadPlannedFabric(json_);
  EXPECT_EQ(plan.read_from, "plan.json");
  EXPECT_NE(plan.index_note.find("device#"), std::string::npos) << plan.index_note;
  // No index at all (a plan from before it existed): plan.json, silently.
  fs::remove(index);
  plan = LoadPlannedFabric(json_);
  EXPECT_EQ(plan.read_from, "plan.json");
  EXPECT_EQ(plan.index_note, "");
}

TEST_F(PlanIndexTest, CopiesOfThePlanShareItsStrings) {
  PlannedFabric copy;
  {
    PlannedFabric original = LoadPlannedFabric(json_);
    copy = original;
  }
  ASSERT_FALSE(copy.links.empty());
  EXPECT_EQ(copy.links.front().label.substr(0, 5), "COMP-");
  EXPECT_EQ(copy.links.back().plane, copy.planes.back().name);
}

}  // namespace
}  // namespace railyard
