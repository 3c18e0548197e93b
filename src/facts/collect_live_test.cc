// Live collection runs what the capture-slot table declares, and nothing by hand: with every tool on
// PATH replaced by a stub that prints its own argv, each slot's live command must land in the slot's
// member under the slot's source name, once per object of its scope, and a fallback must stay unrun
// where the tool it stands in for answered.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "facts/capture_slots.h"
#include "facts/collect.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

class LiveCollectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("railyard-live-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    // One Mellanox port with RoCE ECN knobs, its PCI function, and the loopback.
    const fs::path eth = root_ / "sys/class/net/ens3np0";
    fs::create_directories(eth);
    std::ofstream(eth / "mtu") << "9000\n";
    std::ofstream(eth / "operstate") << "up\n";
    fs::create_directories(eth / "ecn/roce_np/enable");
    std::ofstream(eth / "ecn/roce_np/enable/3") << "1\n";
    fs::create_directories(root_ / "sys/bus/pci/devices/0000:3b:00.0");
    fs::create_directory_symlink(root_ / "sys/bus/pci/devices/0000:3b:00.0", eth / "device");
    fs::create_directories(root_ / "sys/class/net/lo");
    std::ofstream(root_ / "sys/class/net/lo/mtu") << "65536\n";
    fs::create_directories(root_ / "proc");
    // Every tool a slot names, as a stub printing "ran <argv>"; ibstat lists one CA for mlxlink.
    fs::create_directories(root_ / "bin");
    std::set<std::string> tools;
    for (const CaptureSlot& slot : CaptureSlots()) {
      if (!slot.live.argv.empty()) tools.insert(slot.live.argv[0]);
    }
    for (const std::string& tool : tools) {
      const fs::path stub = root_ / "bin" / tool;
      std::ofstream out(stub);
      out << "#!/bin/sh\n";
      if (tool == "ibstat") out << "printf \"CA 'mlx5_0'\\n\\tCA type: MT4129\\n\\tNumber of ports: 1\\n\"\n";
      out << "echo \"ran " << tool << " $*\"\n";
      out.close();
      ::chmod(stub.c_str(), 0755);
    }
    const char* path = std::getenv("PATH");
    saved_path_ = path ? path : "";
    ::setenv("PATH", (root_ / "bin").c_str(), 1);
  }
  void TearDown() override {
    ::setenv("PATH", saved_path_.c_str(), 1);
    fs::remove_all(root_);
  }
  CollectInputs Collect() const {
    LiveOptions o;
    o.sysfs = (root_ / "sys").string();
    o.procfs = (root_ / "proc").string();
    o.os_release = (root_ / "os-release").string();
    o.network_scripts = (root_ / "none").string();
    o.netplan_dir = (root_ / "none").string();
    return CollectLive(o);
  }
  static bool HasSource(const CollectInputs& in, const std::string& name) {
    for (const SourceStatus& s : in.sources) {
      if (s.name == name && s.present) return true;
    }
    return false;
  }
  fs::path root_;
  std::string saved_path_;
};

TEST_F(LiveCollectTest, EachSlotsLiveCommandFillsItsMemberUnderItsSourceName) {
  const CollectInputs in = Collect();
  EXPECT_NE(in.ibstat.value_or("").find("CA 'mlx5_0'"), std::string::npos);
  // ibstat answered: its fallbacks are not run.
  EXPECT_FALSE(in.ibstatus);
  EXPECT_FALSE(in.ibv_devinfo);
  EXPECT_FALSE(in.rdma_link);
  for (const CaptureSlot& slot : CaptureSlots()) {
    const LiveCommand& live = slot.live;
    if (live.scope == LiveScope::kNone || !live.unless.empty()) continue;
    std::string object;
    switch (live.scope) {
      case LiveScope::kEachNetdev:
      case LiveScope::kEachPhysicalNetdev:
      case LiveScope::kEachRoceNetdev:
        object = "ens3np0";
        break;
      case LiveScope::kEachCard:
        object = "0000:3b:00.0";
        break;
      case LiveScope::kEachIbstatCa:
        object = "mlx5_0";
        break;
      default:
        break;
    }
    std::string want = std::string("ran ") + live.argv[0];
    for (size_t i = 1; i < live.argv.size(); ++i) want += " " + (std::string(live.argv[i]) == "{}" ? object : live.argv[i]);
    SCOPED_TRACE(slot.names[0]);
    std::string got;
    if (slot.per_object) {
      ASSERT_EQ((in.*slot.per_object).size(), 1u) << "one object of its scope here";
      EXPECT_TRUE((in.*slot.per_object).count(object));
      got = (in.*slot.per_object).begin()->second;
    } else if (slot.text) {
      got = (in.*slot.text).value_or("");
    } else if (slot.identity) {
      got = in.*slot.identity;
    }
    EXPECT_NE(got.find(want), std::string::npos) << "want '" << want << "' in: " << got;
    for (const auto& more : live.also) EXPECT_NE(got.find(std::string(more.back())), std::string::npos) << more.back();
    EXPECT_TRUE(HasSource(in, std::string(slot.tool ? slot.tool : live.argv[0]) + object)) << slot.tool << object;
  }
  // The loopback is asked nothing.
  EXPECT_FALSE(in.ethtool_info.count("lo"));
}

TEST_F(LiveCollectTest, AFallbackRunsWhereTheToolItStandsInForIsMissing) {
  fs::remove(root_ / "bin/ibstat");
  const CollectInputs in = Collect();
  EXPECT_FALSE(in.ibstat);
  EXPECT_NE(in.ibstatus.value_or("").find("ran ibstatus"), std::string::npos);
  EXPECT_NE(in.ibv_devinfo.value_or("").find("ran ibv_devinfo -v"), std::string::npos);
  EXPECT_FALSE(in.rdma_link) << "ibstatus answered";
  EXPECT_TRUE(in.mlxlink.empty()) << "no ibstat: no CA to ask";
  // A tool every host is asked about is said to be missing; ibstat is.
  bool said = false;
  for (const SourceStatus& s : in.sources) said |= s.name == "ibstat" && !s.present && s.detail == "ibstat not installed";
  EXPECT_TRUE(said);
}

TEST_F(LiveCollectTest, AnOptionalToolThatIsMissingLeavesNoSourceLine) {
  fs::remove(root_ / "bin/mlxfwmanager");
  const CollectInputs in = Collect();
  EXPECT_FALSE(in.mlxfwmanager);
  for (const SourceStatus& s : in.sources) EXPECT_NE(s.name, "mlxfwmanager --query");
}

}  // namespace
}  // namespace railyard
