// No silent drop: every real sample in tests/fixtures, put in every slot of a capture directory,
// either adds facts to the host or yields a warning that names the slot — or, for the one slot
// whose format is strict JSON, an error naming the file. A file that was read never vanishes.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "facts/capture_slots.h"
#include "facts/capture_testing.h"
#include "facts/collect.h"
#include "parse/fixtures.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

// Every capture slot (facts/capture_slots.cc), with an interface, PCI address or device where the
// name needs one, and a name that is none of them.
std::vector<std::string> Slots() {
  std::vector<std::string> slots;
  for (const std::string& name : ExampleCaptureFileNames()) {
    // hostname.txt is the directory's own (the baseline's host), kept in place.
    if (name != "hostname.txt") slots.push_back(name);
  }
  slots.push_back("something-else.txt");
  return slots;
}

// The facts without their sources: what a file added, if anything.
nlohmann::json FactsOnly(const HostFacts& f) {
  nlohmann::json j = ToJson(f);
  j.erase("sources");
  return j;
}

size_t WarningCount(const HostFacts& f) {
  size_t n = 0;
  for (const SourceStatus& s : f.sources) n += s.warnings.size();
  return n;
}

HostFacts FromDir(const fs::path& dir) { return BuildHostFacts(ReadCaptureDir(dir.string())); }

TEST(NoSilentDrop, EveryFixtureInEverySlotGivesFactsOrAWarning) {
  fs::path dir = fs::temp_directory_path() / fmt::format("railyard-nosilentdrop-{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "hostname.txt") << "walker\n";
  const HostFacts empty = FromDir(dir);
  const nlohmann::json baseline = FactsOnly(empty);
  const size_t baseline_warnings = WarningCount(empty);
  size_t pairs = 0, dropped = 0;
  for (const auto& entry : fs::recursive_directory_iterator(testing::FixturePath(""))) {
    if (!entry.is_regular_file() || entry.path().filename() == "SOURCES.md" || entry.path().filename() == "README.md") continue;
    for (const std::string& slot : Slots()) {
      fs::copy_file(entry.path(), dir / slot, fs::copy_options::overwrite_existing);
      ++pairs;
      try {
        HostFacts f = FromDir(dir);
        bool added = FactsOnly(f) != baseline;
        bool warned = WarningCount(f) > baseline_warnings;
        if (!added && !warned) {
          ++dropped;
          ADD_FAILURE() << fs::relative(entry.path(), testing::FixturePath("")) << " as " << slot << ": no fact and no warning";
        }
      } catch (const std::exception& e) {
        // Only strict formats may refuse a file, and the error must name it.
        EXPECT_NE(std::string(e.what()).find(slot), std::string::npos) << slot << ": " << e.what();
      }
      fs::remove(dir / slot);
    }
  }
  fs::remove_all(dir);
  EXPECT_GT(pairs, 2000u);
  EXPECT_EQ(dropped, 0u);
}

TEST(NoSilentDrop, AnInterfaceOnlyEthtoolKnowsIsKept) {
  HostFacts f = testing::CaptureFacts("h", {{"ethtool-i-ens9.txt", "ethtool/mlx5-doca-24.10-3.2.5-hpe-640sfp28-hp-psid.txt"},
                                            {"ethtool-ens9.txt", "ethtool/cx4lx-after-fw-upgrade-10g-link-up-with-lanes.txt"}});
  ASSERT_EQ(f.netdevs.size(), 1u);
  EXPECT_EQ(f.netdevs[0].name, "ens9");
  EXPECT_EQ(f.netdevs[0].driver, "mlx5_core");
  EXPECT_EQ(f.netdevs[0].kind, "physical");  // ethtool -i names a PCI bus address
  EXPECT_EQ(f.netdevs[0].speed_mbps, 10000u);
  bool said = false;
  for (const SourceStatus& s : f.sources) {
    for (const std::string& w : s.warnings) said |= w.find("ens9: captured by ethtool") != std::string::npos;
  }
  EXPECT_TRUE(said);
}

TEST(NoSilentDrop, Ibdev2netdevAloneGivesRdmaPortsWithState) {
  HostFacts f =
      testing::CaptureFacts("h", {{"ibdev2netdev.txt", "ibdev2netdev/mixed-cx4lx-cx5-cx6-socket-direct-vf-verbose.txt"}});
  ASSERT_FALSE(f.rdma.empty());
  bool down = false, active = false;
  for (const RdmaFacts& r : f.rdma) {
    EXPECT_FALSE(r.ca.ports.empty()) << r.ca.name;
    for (const IbstatPort& p : r.ca.ports) {
      down |= p.state == "Down";
      active |= p.state == "Active";
    }
  }
  EXPECT_TRUE(down);
  EXPECT_TRUE(active);
}

TEST(NoSilentDrop, AHostWithoutAnNvidiaNicSaysSo) {
  HostFacts none = testing::CaptureFacts("login01", {{"lspci-vvv.txt", "lspci/this-machine-virtio-vm-no-nvidia-nic.txt"}});
  ASSERT_TRUE(none.has_nvidia_nic.has_value());
  EXPECT_FALSE(*none.has_nvidia_nic);
  HostFacts cx7 = testing::CaptureFacts("gpu01", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"}});
  EXPECT_EQ(cx7.has_nvidia_nic, true);
  // Round trip keeps it; an older document without the field reads as unknown.
  EXPECT_EQ(FactsFromJson(ToJson(none)).has_nvidia_nic, false);
  nlohmann::json old = ToJson(cx7);
  old["host"].erase("has_nvidia_nic");
  EXPECT_FALSE(FactsFromJson(old).has_nvidia_nic.has_value());
}

}  // namespace
}  // namespace railyard
