#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "export/write_all.h"
#include "plan/test_specs.h"
#include "planfile/names.h"
#include "rollout/check.h"
#include "rollout/state.h"
#include "rollout/target.h"
#include "rollout/waves.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

const std::string kSha1(64, '1'), kSha2(64, '2');

std::string TargetYaml() {
  return "firmware:\n"
         "  - {psid: MT_0000000838, image: cx7.bin, version: 28.43.2026, sha256: " +
         kSha1 +
         ", min_direct: 28.39.1002}\n"
         "  - {psid: MT_0000000575, image: cx6lx.bin, version: 26.43.2026, sha256: " +
         kSha2 +
         "}\n"
         "driver: {min: 24.10-1.1.4}\n";
}

std::string ErrorOf(const std::string& yaml, bool policy = false) {
  try {
    if (policy) {
      ParseRolloutPolicy(yaml, "rollout.yaml");
    } else {
      ParseRolloutTarget(yaml, "target.yaml");
    }
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(RolloutTarget, BadInputNamesFileLineAndKey) {
  EXPECT_EQ(ParseRolloutTarget(TargetYaml(), "target.yaml").firmware.size(), 2u);
  EXPECT_NE(ErrorOf("firmware:\n  - {psid: MT_0000000838, image: a.bin, version: 1.2.3}\n")
                .find("target.yaml:2:5: firmware[0].sha256: required"),
            std::string::npos);
  EXPECT_NE(ErrorOf("firmware:\n  - {psid: MT_0000000838, image: a.bin, version: 1.2.3, sha256: abc}\n")
                .find("firmware[0].sha256: 64 hex"),
            std::string::npos);
  EXPECT_NE(ErrorOf("firmware:\n  - {psid: nope, image: a.bin, version: 1, sha256: " + kSha1 + "}\n").find("firmware[0].psid"),
            std::string::npos);
  EXPECT_NE(ErrorOf("firmware:\n  - {psid: MT_0000000838, image: ../x.bin, version: 1, sha256: " + kSha1 + "}\n")
                .find("firmware[0].image"),
            std::string::npos);
  std::string twice = "firmware:\n  - {psid: MT_0000000838, image: a.bin, version: 1, sha256: " + kSha1 +
                      "}\n  - {psid: MT_0000000838, image: b.bin, version: 2, sha256: " + kSha2 + "}\n";
  EXPECT_NE(ErrorOf(twice).find("target.yaml:3:"), std::string::npos) << ErrorOf(twice);
  EXPECT_NE(ErrorOf("firmware: []\n").find("firmware"), std::string::npos);
  EXPECT_NE(ErrorOf("firmwares: []\n").find("unknown key"), std::string::npos);
  EXPECT_NE(ErrorOf("max_per_leaf: 0\n", true).find("rollout.yaml:1:15: max_per_leaf"), std::string::npos)
      << ErrorOf("max_per_leaf: 0\n", true);
  EXPECT_NE(ErrorOf("max_unavailable_percent: .nan\n", true).find("max_unavailable_percent"), std::string::npos);
  EXPECT_NE(ErrorOf("canary_max: 2\ncanary_max: 3\n", true).find("appears twice"), std::string::npos);
  EXPECT_NE(ErrorOf("drain: pbs\n", true).find("slurm, kubernetes or none"), std::string::npos);
  EXPECT_NE(ErrorOf("leaf_waves: su\n", true).find("rollout.yaml:1:13: leaf_waves: expected rail or unit"), std::string::npos)
      << ErrorOf("leaf_waves: su\n", true);
  EXPECT_NE(ErrorOf("slurm_node_name: [short]\n", true).find("slurm_node_name: expected short or hostname"), std::string::npos);
  EXPECT_EQ(ParseRolloutPolicy("two_person: false\n", "rollout.yaml").leaf_waves, "unit");
  EXPECT_EQ(ParseRolloutPolicy("leaf_waves: rail\nslurm_node_name: hostname\n", "rollout.yaml").slurm_node_name, "hostname");
}

// A 4-SU SuperPOD (127 nodes) planned, and a fleet of them: mixed PSIDs, and the cases the gates catch.
class RolloutPlanTest : public ::testing::Test {
 protected:
  void SwitchWavesKeepTheirRules(const std::string& leaf_waves);  // one leaf_waves policy's switch waves
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("railyard-rollout-" + std::to_string(::getpid())));
    WritePlanOutputs(Plan(testing::ParseOrDie(testing::SuperPodYaml(127))), Catalog::Builtin(), dir_->string());
    plan_ = new PlannedFabric(LoadPlannedFabric((*dir_ / "plan.json").string()));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete plan_;
    delete dir_;
  }
  static std::vector<FleetHost> Fleet() {
    std::vector<FleetHost> fleet;
    for (int i = 1; i <= 127; ++i) {
      FleetHost h;
      h.name = fmt::format("dgx{:03}", i);
      h.driver = "MLNX_OFED_LINUX-24.10-1.1.4.0";
      for (int d = 0; d < 8; ++d) {
        h.devices.push_back(
            {fmt::format("0000:{:02x}:00.0", 0x10 + d), "MT_0000000838", "28.42.1000", "", fmt::format("MT24{:03}{}", i, d)});
      }
      if (i % 16 == 0) h.devices.push_back({"0000:3b:00.0", "MT_0000000575", "26.33.1048", "", ""});
      if (i == 5) h.devices[0].running = "28.39.1002";        // pending activation
      if (i == 9) h.devices[1].flashed = "28.35.2000";        // below the floor
      if (i == 17) h.devices[2].flashed = "28.43.2026";       // at target
      if (i == 21) h.devices[3].flashed = "28.44.1036";       // newer: a downgrade
      if (i == 25) h.devices[4].psid = "MT_0000001234";       // no image: never cross-flash
      if (i == 33) h.driver = "MLNX_OFED_LINUX-5.8-1.0.1.1";  // too old for every device
      fleet.push_back(h);
    }
    return fleet;
  }
  static fs::path* dir_;
  static PlannedFabric* plan_;
};
fs::path* RolloutPlanTest::dir_ = nullptr;
PlannedFabric* RolloutPlanTest::plan_ = nullptr;

TEST_F(RolloutPlanTest, EveryDeviceInOneWaveOrHeldBackByTheRightGate) {
  RolloutTarget target = ParseRolloutTarget(TargetYaml(), "target.yaml");
  RolloutPolicy policy;
  std::vector<FleetHost> fleet = Fleet();
  // The ledger doubts one card (a re-flashed one): it is never flashed.
  RolloutPlan r = PlanRollout(plan_, fleet, target, policy, {{"MT240415", "psid-opn-mismatch: the PSID is not the OPN's"}});
  std::map<std::pair<std::string, std::string>, int> seen;
  for (const RolloutWave& w : r.waves) {
    for (const RolloutDevice& d : w.devices) ++seen[{d.host, d.device}];
  }
  std::map<std::pair<std::string, std::string>, std::string> held;
  for (const RolloutSkip& s : r.skipped) {
    ++seen[{s.host, s.device}];
    held[{s.host, s.device}] = s.rule;
  }
  size_t total = 0;
  for (const FleetHost& h : fleet) {
    for (const FleetDevice& d : h.devices) {
      ++total;
      EXPECT_EQ(seen[std::pair(h.name, d.pci)], 1) << h.name << " " << d.pci;
    }
  }
  EXPECT_EQ(seen.size(), total);
  auto rule = [&](const std::string& host, const std::string& device) { return held[{host, device}]; };
  EXPECT_EQ(rule("dgx005", "0000:10:00.0"), "pending-activation");
  EXPECT_EQ(rule("dgx009", "0000:11:00.0"), "below-direct-upgrade-floor");
  EXPECT_EQ(rule("dgx017", "0000:12:00.0"), "at-target");
  EXPECT_EQ(rule("dgx021", "0000:13:00.0"), "downgrade-not-allowed");
  EXPECT_EQ(rule("dgx025", "0000:14:00.0"), "no-image-for-psid");
  EXPECT_EQ(rule("dgx033", "0000:17:00.0"), "driver-too-old");
  EXPECT_EQ(rule("dgx041", "0000:15:00.0"), "authenticity");
}

TEST_F(RolloutPlanTest, BelowTheFloorMovesThroughTheIntermediateImage) {
  std::string yaml = TargetYaml();
  yaml.replace(yaml.find(", min_direct: 28.39.1002}"), std::string(", min_direct: 28.39.1002}").size(),
               ", min_direct: 28.39.1002, intermediate: {image: cx7-28.39.bin, version: 28.39.1002, sha256: " +
                   std::string(64, '3') + "}}");
  RolloutTarget target = ParseRolloutTarget(yaml, "target.yaml");
  RolloutPlan r = PlanRollout(plan_, Fleet(), target, RolloutPolicy{});
  const RolloutDevice* via = nullptr;
  for (const RolloutWave& w : r.waves) {
    for (const RolloutDevice& d : w.devices) {
      if (d.host == "dgx009" && d.device == "0000:11:00.0") via = &d;
    }
  }
  ASSERT_NE(via, nullptr);
  EXPECT_EQ(via->via, "28.39.1002");
  EXPECT_EQ(via->to, "28.43.2026");
  for (const RolloutSkip& s : r.skipped) EXPECT_NE(s.rule, "below-direct-upgrade-floor");
  for (const RolloutWave& w : r.waves) {
    if (std::find(w.hosts.begin(), w.hosts.end(), "dgx009") == w.hosts.end()) continue;
    std::string script = HostScript(w);
    size_t first = script.find("burn 0000:11:00.0 MT_0000000838 28.39.1002 cx7-28.39.bin");
    size_t second = script.find("burn 0000:11:00.0 MT_0000000838 28.43.2026 cx7.bin", first);
    EXPECT_NE(first, std::string::npos);
    EXPECT_NE(second, std::string::npos);  // the target after the intermediate, only once it ran
  }
  // An intermediate below min_direct, or without min_direct, is refused.
  std::string low = yaml;
  low.replace(low.find("version: 28.39.1002"), std::string("version: 28.39.1002").size(), "version: 28.35.2000");
  EXPECT_NE(ErrorOf(low).find("intermediate.version"), std::string::npos) << ErrorOf(low);
}

TEST_F(RolloutPlanTest, WavesKeepEveryBound) {
  RolloutTarget target = ParseRolloutTarget(TargetYaml(), "target.yaml");
  RolloutPolicy tight;
  tight.canary_max = 2;
  tight.max_unavailable_percent = 5;
  tight.max_hosts_per_wave = 6;
  tight.max_per_leaf = 1;
  for (const RolloutPolicy& policy : {RolloutPolicy{}, tight}) {
    SCOPED_TRACE(policy.max_per_leaf);
    RolloutPlan r = PlanRollout(plan_, Fleet(), target, policy);
    ASSERT_GE(r.waves.size(), 3u);
    // Wave 0: one host per PSID being moved (two PSIDs: a host carrying both covers them).
    EXPECT_EQ(r.waves[0].name, "test");
    std::set<std::string> psids;
    for (const RolloutDevice& d : r.waves[0].devices) psids.insert(d.psid);
    EXPECT_EQ(psids, (std::set<std::string>{"MT_0000000575", "MT_0000000838"}));
    EXPECT_EQ(r.waves[0].hosts.size(), 1u);
    // Hosts -> scalable unit and leaves, from the plan.
    NameResolver names(*plan_);
    std::map<std::string, int> su;
    std::map<std::string, std::set<uint32_t>> leaves;
    for (const PlannedLink& l : plan_->links) {
      if (l.level != "endpoint-leaf") continue;
      su[plan_->devices[l.a_device].name] = plan_->devices[l.z_device].group;
      leaves[plan_->devices[l.a_device].name].insert(l.z_device);
    }
    // Wave 1: one host per scalable unit (4 SUs), within canary_max.
    EXPECT_EQ(r.waves[1].name, "canary");
    std::set<int> canary_sus;
    for (const std::string& h : r.waves[1].hosts) canary_sus.insert(su[h]);
    EXPECT_EQ(canary_sus.size(), r.waves[1].hosts.size());
    EXPECT_EQ(r.waves[1].hosts.size(), std::min<size_t>(4, policy.canary_max));
    // Rolling waves: the SU quota, the leaf bound, the wave bound.
    std::map<int, int> su_hosts;
    for (const auto& [h, s] : su) ++su_hosts[s];
    std::set<std::string> once;
    for (const RolloutWave& w : r.waves) {
      for (const std::string& h : w.hosts) EXPECT_TRUE(once.insert(h).second) << h << " in two waves";
      if (w.index < 2) continue;
      EXPECT_LE(w.hosts.size(), policy.max_hosts_per_wave);
      std::map<int, int> per_su;
      std::map<uint32_t, uint32_t> per_leaf;
      for (const std::string& h : w.hosts) {
        ++per_su[su[h]];
        for (uint32_t leaf : leaves[h]) ++per_leaf[leaf];
      }
      for (const auto& [s, n] : per_su) {
        EXPECT_LE(n, std::max(1, static_cast<int>(su_hosts[s] * policy.max_unavailable_percent / 100))) << w.name;
      }
      for (const auto& [leaf, n] : per_leaf) EXPECT_LE(n, policy.max_per_leaf) << w.name;
    }
  }
}

TEST_F(RolloutPlanTest, StateHasAScriptNodesetAndGroupPerWave) {
  RolloutTarget target = ParseRolloutTarget(TargetYaml(), "target.yaml");
  RolloutPlan r = PlanRollout(plan_, Fleet(), target, RolloutPolicy{});
  const fs::path state = *dir_ / "state";
  WriteRolloutState(r, target, RolloutPolicy{}, state.string());
  std::ifstream json(state / "rollout.json");
  nlohmann::json j = nlohmann::json::parse(json);
  EXPECT_EQ(j["schema"], "railyard.rollout/1");
  EXPECT_EQ(j["waves"].size(), r.waves.size());
  EXPECT_EQ(j["waves"][0]["devices"][0]["steps"], nlohmann::json({"drain", "burn", "reset", "verify", "resume"}));
  for (const RolloutWave& w : r.waves) {
    std::string name = fmt::format("wave-{:02}-{}", w.index, w.name);
    EXPECT_TRUE(fs::exists(state / (name + ".sh"))) << name;
    EXPECT_TRUE(fs::exists(state / (name + ".nodeset"))) << name;
    EXPECT_TRUE(fs::exists(state / (name + "-drain.sh"))) << name;
  }
  std::string script = HostScript(r.waves[0]);
  EXPECT_NE(script.find("sha256sum -c"), std::string::npos);
  EXPECT_NE(script.find("mlxfwmanager -d \"$dev\" -i \"$image\" -u -y"), std::string::npos);
  EXPECT_NE(script.find("already at $have"), std::string::npos);  // idempotent
  EXPECT_NE(script.find("  " + r.waves[0].hosts[0] + ")"), std::string::npos);
}

// Every switch of the plan: the compute plane's (Quantum-2, 31.x) one version behind, the others
// on a family target.yaml has no row for.
std::vector<SwitchFirmwareSeen> Inventory(const PlannedFabric& plan, const std::string& quantum2 = "31.2012.1000") {
  std::vector<SwitchFirmwareSeen> out;
  for (const PlannedDevice& d : plan.devices) {
    if (d.role == "switch") out.push_back({d.name, d.plane == "compute" ? quantum2 : "34.2012.1000", d.name, 0, ""});
  }
  return out;
}

std::string SwitchRow(bool image) {
  return "switches:\n  - {family: Quantum-2, min: 31.2014.2084" +
         (image ? ", image: fw-QM9700-31_2014_2084.mfa, version: 31.2014.2084, sha256: " + std::string(64, '4') : std::string()) +
         "}\n";
}

TEST_F(RolloutPlanTest, SwitchesMoveFirstSpinesBeforeLeavesAndNoHostIsCutOff) {
  for (const char* leaf_waves : {"rail", "unit"}) {
    SCOPED_TRACE(leaf_waves);
    SwitchWavesKeepTheirRules(leaf_waves);
  }
}

void RolloutPlanTest::SwitchWavesKeepTheirRules(const std::string& leaf_waves) {
  RolloutTarget target = ParseRolloutTarget(TargetYaml() + SwitchRow(true), "target.yaml");
  std::vector<SwitchFirmwareSeen> inventory = Inventory(*plan_);
  RolloutPolicy policy;
  policy.max_switches_per_wave = 4;
  policy.leaf_waves = leaf_waves;
  RolloutPlan r = PlanRollout(plan_, Fleet(), target, policy, {}, inventory);
  // Each switch in one wave or held back.
  std::map<std::string, int> seen;
  for (const RolloutWave& w : r.waves) {
    for (const RolloutDevice& d : w.devices) {
      if (d.is_switch) ++seen[d.host];
    }
  }
  for (const RolloutSkip& s : r.skipped) {
    if (s.device == "asic") {
      ++seen[s.host];
      EXPECT_EQ(s.rule, "no-image-for-family") << s.host;
    }
  }
  for (const SwitchFirmwareSeen& s : inventory) EXPECT_EQ(seen[s.name], 1) << s.name;

  NameResolver names(*plan_);
  std::map<uint32_t, std::vector<uint32_t>> leaves_of;  // host -> its leaves
  for (const PlannedLink& l : plan_->links) {
    if (l.level == "endpoint-leaf") leaves_of[l.a_device].push_back(l.z_device);
  }
  bool hosts_started = false;
  int last_rank = 0;
  size_t switch_waves = 0;
  for (const RolloutWave& w : r.waves) {
    if (!w.switches) {
      hosts_started = true;
      continue;
    }
    ++switch_waves;
    EXPECT_FALSE(hosts_started) << w.name << ": a switch wave after a host wave";
    EXPECT_LE(w.devices.size(), policy.max_switches_per_wave) << w.name;
    std::set<uint32_t> in_wave;
    std::set<std::string> planes;
    int rank = 0;
    for (const RolloutDevice& d : w.devices) {
      uint32_t node = *names.ResolveDevice(d.host);
      in_wave.insert(node);
      EXPECT_EQ(d.from, "31.2012.1000");
      EXPECT_EQ(d.to, "31.2014.2084");
      int r_tier = d.tier == "core" ? 0 : d.tier == "spine" ? 1 : 2;
      rank = std::max(rank, r_tier);
      if (r_tier < 2 && w.name != "switch-test") {
        EXPECT_TRUE(planes.insert(d.plane).second) << w.name << ": two of plane " << d.plane;
      }
    }
    if (w.name == "switch-test") {
      EXPECT_EQ(w.devices.size(), 1u);  // one family
      continue;
    }
    EXPECT_GE(rank, last_rank) << w.name << ": a higher tier after a lower one";
    last_rank = rank;
    // Every host that loses a leaf is drained; one that is not drained (or, per rail, any host)
    // never loses two at once.
    std::set<std::string> drain(w.drain.begin(), w.drain.end());
    for (const auto& [host, leaves] : leaves_of) {
      size_t down = 0;
      for (uint32_t leaf : leaves) down += in_wave.count(leaf);
      if (leaf_waves == "rail" || plan_->devices[host].role != "node") {
        EXPECT_LE(down, 1u) << w.name << " " << plan_->devices[host].name;
      }
      // Only the scheduler's nodes are drained: an appliance (UFM) behind the leaf is no Slurm node.
      if (down) {
        EXPECT_EQ(drain.count(plan_->devices[host].name) > 0, plan_->devices[host].role == "node")
            << w.name << " " << plan_->devices[host].name;
      }
    }
    if (rank < 2) {
      EXPECT_TRUE(w.drain.empty()) << w.name << ": a spine step drains no host when every leaf has another uplink";
    }
  }
  EXPECT_GE(switch_waves, 3u);
  // The scripts: the family is checked, the image's sha256, and the version after.
  for (const RolloutWave& w : r.waves) {
    if (!w.switches) continue;
    std::string script = SwitchScript(w);
    EXPECT_NE(script.find("refusing"), std::string::npos);
    EXPECT_NE(script.find("sha256sum -c"), std::string::npos);
    EXPECT_NE(script.find("nv action install platform firmware ASIC files"), std::string::npos);
    EXPECT_NE(script.find("upgrade " + w.devices[0].host + " "), std::string::npos);
    break;
  }
  const fs::path state = *dir_ / "switch-state";
  WriteRolloutState(r, target, policy, state.string());
  nlohmann::json j = nlohmann::json::parse(std::ifstream(state / "rollout.json"));
  EXPECT_EQ(j["waves"][0]["kind"], "switch");
  EXPECT_EQ(j["waves"][0]["devices"][0]["kind"], "switch");
  EXPECT_EQ(j["waves"][r.waves.size() - 1]["kind"], "host");
}

TEST_F(RolloutPlanTest, HostsBehindASwitchBelowTheMinimumAreHeldBack) {
  // No image for the switches: every compute host's path runs below 31.2014.2084.
  RolloutTarget target = ParseRolloutTarget(TargetYaml() + SwitchRow(false), "target.yaml");
  std::vector<SwitchFirmwareSeen> inventory = Inventory(*plan_);
  RolloutPlan r = PlanRollout(plan_, Fleet(), target, RolloutPolicy{}, {}, inventory);
  size_t held = 0;
  for (const RolloutSkip& s : r.skipped) held += s.rule == "switch-firmware-too-old";
  EXPECT_GT(held, 900u);
  for (const RolloutWave& w : r.waves) EXPECT_TRUE(w.devices.empty()) << w.name;
  // The same switches at the minimum: nothing held back for it.
  r = PlanRollout(plan_, Fleet(), target, RolloutPolicy{}, {}, Inventory(*plan_, "31.2014.2084"));
  for (const RolloutSkip& s : r.skipped) EXPECT_NE(s.rule, "switch-firmware-too-old");
  // Without an inventory, the minima are not checked, and a finding says so.
  r = PlanRollout(plan_, Fleet(), target, RolloutPolicy{});
  bool said = false;
  for (const Finding& f : r.findings) said = said || f.rule == "rollout-switch-firmware-unknown";
  EXPECT_TRUE(said);
}

TEST_F(RolloutPlanTest, ProtectedPowerHoldsBackHostsInOtherRacks) {
  RolloutTarget target = ParseRolloutTarget(TargetYaml(), "target.yaml");
  NameResolver names(*plan_);
  const std::string rack = plan_->devices[*names.ResolveDevice("dgx001")].rack;
  RolloutPolicy policy = ParseRolloutPolicy("protected_power:\n  racks: [" + rack + "]\n", "rollout.yaml");
  RolloutPlan r = PlanRollout(plan_, Fleet(), target, policy);
  std::set<std::string> moved;
  for (const RolloutWave& w : r.waves) {
    for (const RolloutDevice& d : w.devices) {
      moved.insert(d.host);
      EXPECT_EQ(plan_->devices[*names.ResolveDevice(d.host)].rack, rack) << d.host;
    }
  }
  EXPECT_TRUE(moved.count("dgx001"));
  size_t held = 0;
  for (const RolloutSkip& s : r.skipped) held += s.rule == "not-on-protected-power";
  EXPECT_GT(held, 800u);
  EXPECT_NE(ErrorOf("protected_power:\n  racks: []\n", true).find("protected_power.racks"), std::string::npos);
  EXPECT_NE(ErrorOf("protected_power: yes\n", true).find("protected_power"), std::string::npos);
}

TEST(RolloutSwitches, InventoryAndTargetRowsRejectWhatCannotBeRight) {
  auto error = [](const std::string& csv) {
    try {
      ParseSwitchInventory(csv, "switches.csv");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(ParseSwitchInventory("\xEF\xBB\xBFswitch,firmware\r\nspine-01,31.2014.2084\r\n", "switches.csv").size(), 1u);
  EXPECT_EQ(ParseSwitchInventory("name,firmware,address\ns1,31.2014.2084,10.0.0.1\n", "x")[0].address, "10.0.0.1");
  EXPECT_NE(error("host,version\ns1,1.2\n").find("switches.csv:1: the header"), std::string::npos);
  EXPECT_NE(error("switch,firmware\ns1,31.2014.2084\ns1,31.2014.2084\n").find("switches.csv:3: switch: s1 is listed on line 2"),
            std::string::npos);
  EXPECT_NE(error("switch,firmware\n$(reboot),31.2014.2084\n").find("switches.csv:2:1: switch: '$(reboot)' is not a name"),
            std::string::npos);
  EXPECT_NE(error("switch,firmware\ns1,latest\n").find("switches.csv:2: firmware"), std::string::npos);
  EXPECT_NE(error("switch,firmware,address\ns1,31.2014.2084,a;b\n").find("address"), std::string::npos);
  const std::string base = TargetYaml();
  EXPECT_NE(ErrorOf(base + "switches:\n  - {image: a.mfa}\n").find("switches[0].min: required"), std::string::npos);
  EXPECT_NE(ErrorOf(base + "switches:\n  - {min: 31.2014.2084, image: a.mfa}\n").find("switches[0].version"), std::string::npos);
  EXPECT_NE(ErrorOf(base + "switches:\n  - {min: 31.2014.2084, image: a.mfa, version: 27.2014.2084, sha256: " + kSha1 + "}\n")
                .find("one row per family"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "switches:\n  - {min: 31.2014.2084, image: a.mfa, version: 31.2012.1000, sha256: " + kSha1 + "}\n")
                .find("below min"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "switches:\n  - {min: 31.2014.2084}\n  - {min: 31.2016.1000}\n").find("has a row already"),
            std::string::npos);
  EXPECT_NE(ErrorOf(base + "switches:\n  - {min: 31.2014.2084, image: dir/a.mfa, version: 31.2014.2084, sha256: " + kSha1 + "}\n")
                .find("switches[0].image"),
            std::string::npos);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// A wave's check on facts: at target and running it, every host reporting, no new finding.
TEST(RolloutCheck, PassesOnlyWhenEveryDeviceRunsItsTargetAndNothingNewIsWrong) {
  nlohmann::json rollout = {
      {"schema", "railyard.rollout/1"},
      {"waves",
       {{{"index", 0},
         {"name", "test"},
         {"hosts", {"a", "b"}},
         {"devices",
          {{{"host", "a"}, {"device", "19:00.0"}, {"psid", "MT_0000001244"}, {"from", "28.42.1000"}, {"to", "28.43.2026"}},
           {{"host", "b"}, {"device", "19:00.0"}, {"psid", "MT_0000001244"}, {"from", "28.42.1000"}, {"to", "28.43.2026"}}}}}}}};
  auto host = [](const std::string& name, const std::string& fw, const std::string& running = "") {
    HostFacts f;
    f.hostname = name;
    FirmwareQuery q;
    q.psid = "MT_0000001244";
    q.fw_version = fw;
    q.running_fw_version = running;
    f.firmware["19:00.0"] = q;
    return f;
  };
  std::vector<HostFacts> before = {host("a", "28.42.1000"), host("b", "28.42.1000")};
  WaveCheck ok = CheckWave(rollout, 0, before, {host("a", "28.43.2026"), host("b", "28.43.2026")}, nullptr);
  EXPECT_TRUE(ok.pass);
  EXPECT_EQ(ok.at_target, 2u);
  EXPECT_TRUE(ok.rollback_script.empty());
  // b still runs the old image (flashed, not activated); a did not report.
  WaveCheck halt = CheckWave(rollout, 0, before, {host("b", "28.43.2026", "28.42.1000")}, nullptr);
  EXPECT_FALSE(halt.pass);
  std::set<std::string> rules;
  for (const Finding& f : halt.findings) rules.insert(f.rule + ":" + f.host);
  EXPECT_TRUE(rules.count("rollout-device-not-at-target:b"));
  EXPECT_TRUE(rules.count("rollout-host-not-reporting:a"));
  EXPECT_NE(halt.rollback_script.find("flint -d 19:00.0 -y ir"), std::string::npos);
  // A new doctor finding on a wave host halts too (a PCIe link trained narrower after the reset).
  HostFacts narrow = host("a", "28.43.2026");
  PciFunction pci;
  pci.bdf = "19:00.0";
  pci.vendor_id = "15b3";
  pci.description = "Mellanox Technologies MT2910 Family [ConnectX-7]";
  pci.cap.speed_gts = 32;
  pci.cap.width = 16;
  pci.sta.speed_gts = 32;
  pci.sta.width = 8;
  narrow.pci.push_back(pci);
  WaveCheck worse = CheckWave(rollout, 0, before, {narrow, host("b", "28.43.2026")}, nullptr);
  bool new_finding = false;
  for (const Finding& f : worse.findings) new_finding = new_finding || f.rule == "rollout-new-finding";
  EXPECT_TRUE(new_finding) << (worse.findings.empty() ? "" : worse.findings.front().message);
  EXPECT_THROW(CheckWave(rollout, 5, before, before, nullptr), std::runtime_error);
  EXPECT_THROW(CheckWave(nlohmann::json{{"schema", "x"}}, 0, before, before, nullptr), std::runtime_error);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(FleetHost, OneDevicePerCardWithItsSerial) {
  HostFacts f;
  f.hostname = "gpu001";
  FirmwareQuery q;
  q.psid = "MT_0000000838";
  q.fw_version = "28.42.1000";
  f.firmware["19:00.0"] = q;
  f.firmware["19:00.1"] = q;  // the second port's function: the same card
  PciFunction pci;
  pci.bdf = "0000:19:00.0";
  pci.vpd["SN"] = "MT2419X12345";
  f.pci.push_back(pci);
  DevlinkDevice dl;
  dl.pci_address = "0000:3b:00.0";
  dl.psid = "MT_0000000575";
  dl.stored_fw = "26.33.1048";
  dl.running_fw = "26.33.1048";
  dl.board_serial = "MT2301X00001";
  f.devlink.push_back(dl);
  FleetHost h = FleetHostFromFacts(f);
  ASSERT_EQ(h.devices.size(), 2u);
  EXPECT_EQ(h.devices[0].pci, "0000:3b:00.0");  // by card, in address order
  EXPECT_EQ(h.devices[0].serial, "MT2301X00001");
  EXPECT_EQ(h.devices[1].pci, "19:00.0");
  EXPECT_EQ(h.devices[1].serial, "MT2419X12345");
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST(RolloutHostile, NamesFromFactsNeverReachAScript) {
  RolloutTarget target = ParseRolloutTarget(
      "firmware:\n  - {psid: MT_0000000838, image: cx7.bin, version: 28.43.2026, sha256: " + std::string(64, 'a') + "}\n",
      "t.yaml");
  std::vector<FleetHost> fleet = {
      {"ok01", "", {{"0000:19:00.0", "MT_0000000838", "28.42.1000", "", ""}}},
      {"evil;rm -rf /", "", {{"0000:19:00.0", "MT_0000000838", "28.42.1000", "", ""}}},
      {"ok02", "", {{"19:00.0$(reboot)", "MT_0000000838", "28.42.1000", "", ""}, {"1a:00.0", "MT_0000000838\n", "1", "", ""}}},
  };
  RolloutPlan r = PlanRollout(nullptr, fleet, target, RolloutPolicy{});
  int unsafe = 0;
  for (const RolloutSkip& s : r.skipped) unsafe += s.rule == "unsafe-name";
  EXPECT_EQ(unsafe, 3);
  for (const RolloutWave& w : r.waves) {
    std::string script = HostScript(w);
    EXPECT_EQ(script.find("evil"), std::string::npos);
    EXPECT_EQ(script.find("reboot)"), std::string::npos);
    for (const std::string& h : w.hosts) EXPECT_TRUE(h == "ok01" || h == "ok02") << h;
  }
}

}  // namespace
}  // namespace railyard
