// Each symptom walked on real samples: a failed step with its evidence, passed steps, and the
// unknown path naming the command that would decide it.
#include "doctor/symptoms.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "facts/capture_testing.h"
#include "facts/collect.h"
#include "parse/fixtures.h"
#include "util/input_error.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;
using testing::FixturePath;

HostFacts Capture(const std::vector<std::pair<std::string, std::string>>& files) { return testing::CaptureFacts("", files); }

std::vector<StepStatus> Statuses(const std::vector<StepResult>& steps) {
  std::vector<StepStatus> out;
  for (const StepResult& s : steps) out.push_back(s.status);
  return out;
}

constexpr StepStatus P = StepStatus::kPassed, F = StepStatus::kFailed, U = StepStatus::kUnknown;

TEST(Symptom, EmptyFactsAreUnknownWithTheCommand) {
  for (const Symptom& s : Symptoms()) {
    std::vector<StepResult> steps = RunSymptom(s.id, HostFacts{}, {});
    ASSERT_FALSE(steps.empty()) << s.id;
    for (const StepResult& step : steps) {
      if (step.status == U) {
        EXPECT_FALSE(step.command.empty()) << s.id << ": " << step.step;
      }
      EXPECT_NE(step.status, F) << s.id << ": " << step.step;  // nothing known, nothing failed
    }
  }
  EXPECT_THROW(RunSymptom("no-such-symptom", HostFacts{}, {}), UsageError);
  nlohmann::json j = SymptomJson("no-link-light", "h", RunSymptom("no-link-light", HostFacts{}, {}));
  EXPECT_EQ(j["failed"], 0);
  EXPECT_EQ(j["steps"][0]["status"], "unknown");
  EXPECT_FALSE(j["steps"][0]["command"].get<std::string>().empty());
}

TEST(Symptom, UnknownStepsNeverReadLikeAPass) {
  // Every step of every symptom over facts that hold nothing: unknown, and the detail says it was not checked.
  for (const Symptom& s : Symptoms()) {
    for (const StepResult& step : RunSymptom(s.id, HostFacts{}, {})) {
      if (step.status != U) continue;
      EXPECT_TRUE(step.detail.starts_with("not checked")) << s.id << ": " << step.step << ": " << step.detail;
    }
  }
}

TEST(Symptom, DeviceMissingFailsWhenLspciListsNoCard) {
  // The development VM's real lspci: no NVIDIA function at all. Step 1 (the card is on the bus) fails.
  HostFacts none = Capture({{"lspci-vvv.txt", "lspci/this-machine-virtio-vm-no-nvidia-nic.txt"}});
  std::vector<StepResult> steps = RunSymptom("device-missing", none, {});
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps[0].status, F);
  // Live: lspci -d 15b3: that ran and printed nothing is an answer too (an empty lspci source, present).
  CollectInputs in;
  in.lspci = "";
  in.sources.push_back({"lspci -vvv", true, "ran (exit 0) and listed nothing", {}});
  HostFacts live = BuildHostFacts(in);
  EXPECT_EQ(live.has_nvidia_nic, false);
  EXPECT_EQ(RunSymptom("device-missing", live, {})[0].status, F);
}

TEST(Symptom, BandwidthBelowRatedFindsTheSlot) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("dmesg/cx6dx-pcie-bandwidth-limited-x8-gen3.txt"));
  HostFacts f = Capture({{"dmesg.txt", "dmesg/cx6dx-pcie-bandwidth-limited-x8-gen3.txt"},
                         {"mlxlink-mlx5_0.txt", "mlxlink/cx6dx-eth-100g-rs528-no-issue.txt"},
                         {"ip-d-link.txt", "ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt"}});
  std::vector<StepResult> steps = RunSymptom("bandwidth-below-rated", f, {});
  EXPECT_EQ(Statuses(steps), (std::vector<StepStatus>{F, P, P, U, P, U, P, P, U}));
  EXPECT_NE(steps[8].detail.find("without --plan"), std::string::npos);  // the switch end: needs the plan
  EXPECT_NE(steps[0].detail.find("limited by"), std::string::npos);
  EXPECT_FALSE(steps[0].fix.empty());
  EXPECT_EQ(steps[3].command, "ethtool -l IF");
  // The real mlxlink sample says 100G with RS(528,514); with FEC off (in memory) the speed/FEC step fails.
  f.links.begin()->second.fec = "No FEC";
  steps = RunSymptom("bandwidth-below-rated", f, {});
  EXPECT_EQ(steps[1].status, F);
  EXPECT_NE(steps[1].detail.find("FEC is off"), std::string::npos);
}

TEST(Symptom, NoLinkLightAndDeviceMissing) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("dmesg/mlx5-fw-pre-initializing-timeout-probe-failed.txt"));
  HostFacts f = Capture({{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"},
                         {"dmesg.txt", "dmesg/mlx5-fw-pre-initializing-timeout-probe-failed.txt"},
                         {"ibstat.txt", "ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt"}});
  std::vector<StepResult> link = RunSymptom("no-link-light", f, {});
  EXPECT_EQ(link[0].status, P);  // the card enumerates
  EXPECT_EQ(link[1].status, F);  // its firmware timed out
  EXPECT_EQ(link[4].status, P);  // the (other) IB ports of the sample are LinkUp
  std::vector<StepResult> missing = RunSymptom("device-missing", f, {});
  EXPECT_EQ(missing[1].status, F);
  EXPECT_EQ(missing[2].status, P);  // mlx5_core is bound in the lspci sample
}

TEST(Symptom, NoNetworkAfterBoot) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("ifcfg/ifcfg-enp0s25-commented-onboot-spaces-around-equals.txt"));
  HostFacts f = Capture({{"ifcfg-enp0s25", "ifcfg/ifcfg-enp0s25-commented-onboot-spaces-around-equals.txt"},
                         {"nmcli.txt", "nmcli/device-status-centos7-bridge-and-lo-unmanaged.txt"},
                         {"ip-j-d-link.json", "project:tests/fixtures/iproute2/ip-j-d-link-veth-bridge.json"}});
  std::vector<StepResult> steps = RunSymptom("no-network-after-boot", f, {});
  EXPECT_EQ(steps[0].status, F);  // ONBOOT only in a comment
  EXPECT_EQ(steps[1].status, P);
  EXPECT_EQ(steps[3].status, U);  // no ip -j addr in this capture
  EXPECT_EQ(steps[3].command, "ip -j addr show");
}

TEST(Symptom, VlanUnreachable) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt"));
  HostFacts f = Capture({{"ip-d-link.txt", "ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt"}});
  std::vector<StepResult> steps = RunSymptom("vlan-unreachable", f, {});
  EXPECT_EQ(Statuses(steps), (std::vector<StepStatus>{P, P, P, U, U}));  // the last: the switch end, not in these facts
  EXPECT_NE(steps[0].detail.find("bond1.4003 (id 4003, on bond1, up)"), std::string::npos);
  for (NetdevFacts& n : f.netdevs) {
    if (n.name == "bond1") n.operstate = "down";  // in memory: the bond under the VLAN is down
  }
  EXPECT_EQ(RunSymptom("vlan-unreachable", f, {})[1].status, F);
}

TEST(Symptom, VmCableUnplugged) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("ethtool/i-mlx5-cx7-vf-aws-psid-in-fw-version.txt"));
  HostFacts f = Capture({{"ip-j-d-link.json", "project:tests/fixtures/iproute2/ip-j-d-link-veth-bridge.json"},
                         {"ethtool-i-ens1f0np0.txt", "ethtool/i-mlx5-cx7-vf-aws-psid-in-fw-version.txt"}});
  std::vector<StepResult> steps = RunSymptom("vm-cable-unplugged", f, {});
  EXPECT_EQ(steps[0].status, P);  // the guest sees the ConnectX VF (mlx5_core), not virtio
  for (NetdevFacts& n : f.netdevs) {
    if (n.name == "ens1f0np0") n.driver = "virtio_net";  // in memory: an emulated NIC instead
  }
  steps = RunSymptom("vm-cable-unplugged", f, {});
  EXPECT_EQ(steps[0].status, F);
  EXPECT_NE(steps[0].detail.find("virtio_net"), std::string::npos);
}

}  // namespace
}  // namespace railyard
