// Every rule: a real sample that triggers it and one that does not. Where no real sample shows
// the fault, a healthy real sample is loaded and one value is changed in memory (said so).
#include "doctor/doctor.h"
#include "doctor/counter_read.h"
#include "doctor/symptoms.h"

#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "doctor/rules.h"
#include "export/write_all.h"
#include "facts/capture_testing.h"
#include "facts/collect.h"
#include "parse/fixtures.h"
#include "plan/planner.h"
#include "spec/spec.h"
#include "util/csv.h"
#include "util/lines.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;
using testing::FixturePath;

HostFacts Capture(const std::string& host, const std::vector<std::pair<std::string, std::string>>& files) {
  return testing::CaptureFacts(host, files);
}

std::vector<std::string> Rules(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.rule);
  return out;
}

size_t Count(const std::vector<Finding>& findings, const std::string& rule) {
  size_t n = 0;
  for (const Finding& f : findings) n += f.rule == rule;
  return n;
}

#define REQUIRE_SHARED(path) RAILYARD_REQUIRE_FIXTURE(FixturePath(path))

TEST(Doctor, HealthyRealSamplesGiveNoFindings) {
  REQUIRE_SHARED("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  HostFacts f =
      Capture("healthy", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"},
                          {"flint-q-19:00.0.txt", "flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt"},
                          {"mlxlink-mlx5_0.txt", "mlxlink/cx6dx-eth-100g-rs528-no-issue.txt"},
                          {"bonding-bond0.txt", "bonding/active-backup-healthy-10g.txt"},
                          {"dmesg.txt", "dmesg/cx5-arm64-probe-ok-slot-power-pcie-bw-truncated.txt"},
                          {"ibstat.txt", "ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt"},
                          {"mlnx_qos-eth4.txt", "project:tests/fixtures/mlnx_qos/cx5-os-controlled-dscp-pfc3-vendor-tsa.txt"},
                          {"ifcfg-eth2", "ifcfg/ifcfg-eth2-bond-slave-quoted-master.txt"},
                          {"ip-d-link.txt", "ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt"}});
  DoctorPolicy p;
  p.disabled_rules.insert("bond-active-backup");  // the healthy bond sample is active-backup by design
  p.disabled_rules.insert("bond-hash-layer2");    // the hotsos host's bond1 (ip -d link) hashes on layer2: an info finding
  EXPECT_EQ(Rules(RunHostRules(f, p)), std::vector<std::string>{});
}

TEST(Doctor, PcieLinkDowngraded) {
  REQUIRE_SHARED("dmesg/cx6dx-pcie-bandwidth-limited-x8-gen3.txt");
  HostFacts limited = Capture("h1", {{"dmesg.txt", "dmesg/cx6dx-pcie-bandwidth-limited-x8-gen3.txt"}});
  std::vector<Finding> found = RunHostRules(limited, {});
  ASSERT_EQ(Count(found, "pcie-link-downgraded"), 1u);
  EXPECT_NE(found[0].message.find("limited by"), std::string::npos);
  EXPECT_EQ(found[0].host, "h1");
  // The healthy Gen5 x16 sample passes; trained at x8 (changed in memory) it does not.
  HostFacts cx7 = Capture("h2", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"}});
  EXPECT_EQ(Count(RunHostRules(cx7, {}), "pcie-link-downgraded"), 0u);
  cx7.pci[0].sta.width = 8;
  found = RunHostRules(cx7, {});
  ASSERT_EQ(Count(found, "pcie-link-downgraded"), 1u);
  EXPECT_EQ(found[0].evidence[1].second, "32 GT/s (Gen5) x8");
}

TEST(Doctor, PcieSlotBelowLineRate) {
  REQUIRE_SHARED("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  HostFacts f = Capture("h", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"}});
  // A 400G port on the card (in memory: the sample has no netdev or ibdev2netdev for it).
  NetdevFacts port;
  port.name = "ibp25s0";
  port.kind = "physical";
  port.operstate = "up";
  port.pci_bdf = f.pci[0].bdf;
  port.speed_mbps = 400000;
  f.netdevs.push_back(port);
  EXPECT_EQ(Count(RunHostRules(f, {}), "pcie-slot-below-line-rate"), 0u);  // Gen5 x16: ~504 Gb/s
  f.pci[0].sta.speed_gts = 16;                                             // the same card in a Gen4 slot: ~252 Gb/s
  std::vector<Finding> found = RunHostRules(f, {});
  ASSERT_EQ(Count(found, "pcie-slot-below-line-rate"), 1u);
}

TEST(Doctor, NicFirmwareNotRunning) {
  REQUIRE_SHARED("dmesg/mlx5-fw-pre-initializing-timeout-probe-failed.txt");
  HostFacts bad = Capture("h", {{"dmesg.txt", "dmesg/mlx5-fw-pre-initializing-timeout-probe-failed.txt"}});
  EXPECT_GE(Count(RunHostRules(bad, {}), "nic-firmware-not-running"), 1u);
  HostFacts probe_error = Capture("h", {{"dmesg.txt", "dmesg/cx4lx-handle-hca-cap-failed-probe-error-22.txt"}});
  EXPECT_GE(Count(RunHostRules(probe_error, {}), "nic-firmware-not-running"), 1u);
  HostFacts ok = Capture("h", {{"dmesg.txt", "dmesg/cx5-arm64-probe-ok-slot-power-pcie-bw-truncated.txt"}});
  EXPECT_EQ(Count(RunHostRules(ok, {}), "nic-firmware-not-running"), 0u);
}

TEST(Doctor, KernelLogRules) {
  // Firmware health dumps, real: one finding per function, however many health lines follow.
  HostFacts health =
      Capture("h", {{"dmesg.txt", "dmesg/qemu-devel-cx6dx-mlx5-health-compromised-fw-internal-error-assert-var.txt"}});
  std::vector<Finding> found = RunHostRules(health, {});
  ASSERT_EQ(Count(found, "nic-firmware-health"), 1u);
  HostFacts fatal =
      Capture("h", {{"dmesg.txt", "dmesg/netdev-zpci-cx4lx-vf-hotunplug-fatal-error-health-compromised-cmd-timeouts.txt"}});
  EXPECT_EQ(Count(RunHostRules(fatal, {}), "nic-firmware-health"), 1u);
  // DPC containment and an uncorrected AER on the root port above a ConnectX: an error.
  HostFacts aer =
      Capture("h", {{"dmesg.txt", "dmesg/linux-pci-cx5-cx7-dpc-aer-uncorrected-mlx5-pci-slot-unavailable-recovery-failed.txt"}});
  std::vector<Finding> aer_found = RunHostRules(aer, {});
  ASSERT_GE(Count(aer_found, "pcie-aer-errors"), 1u);
  for (const Finding& x : aer_found) {
    if (x.rule == "pcie-aer-errors" && x.object == "PCIe port 0004:00:00.0") {
      EXPECT_EQ(x.severity, Severity::kError);
    }
  }
  // The healthy probe (slot advertised sufficient power, 75 W) is silent on all four; so is a boot-time
  // link down/up once per port.
  HostFacts ok = Capture("h", {{"dmesg.txt", "dmesg/cx5-arm64-probe-ok-slot-power-pcie-bw-truncated.txt"}});
  HostFacts boot = Capture("h", {{"dmesg.txt", "dmesg/hpe-fmn-dmesg-grep-enp-mlx5-renamed-link-down-up.txt"}});
  for (const HostFacts* f : {&ok, &boot}) {
    std::vector<Finding> none = RunHostRules(*f, {});
    for (const char* rule : {"nic-firmware-health", "pcie-slot-power-insufficient", "pcie-aer-errors", "link-flapping"}) {
      EXPECT_EQ(Count(none, rule), 0u) << rule;
    }
  }
  // No real sample shows the insufficient-power line with its prefix: the healthy line changed in memory to the
  // driver's warning text (drivers/net/ethernet/mellanox/mlx5/core/events.c).
  for (KernelEvent& e : ok.kernel_events) {
    if (e.message.find("sufficient power") == std::string::npos) continue;
    e.message = "Detected insufficient power on the PCIe slot (27W).";
    e.kind = KernelEventKind::kSlotPowerInsufficient;
    e.values["watts"] = "27";
  }
  EXPECT_EQ(Count(RunHostRules(ok, {}), "pcie-slot-power-insufficient"), 1u);
  EXPECT_EQ(
      ParseDmesg(
          "[ 11.0] mlx5_core 0004:01:00.0: mlx5_pcie_event:294:(pid 542): Detected insufficient power on the PCIe slot (27W).\n")
          .events.at(0)
          .values.at("watts"),
      "27");
  // The boot sample's port went down once; three downs (the policy's default) make it flap: the sample's own
  // down line repeated in memory.
  for (const KernelEvent& e : boot.kernel_events) {
    if (e.kind == KernelEventKind::kLinkEvent && e.values.at("state") == "down" && e.device == "0000:41:00.0") {
      boot.kernel_events.push_back(e);
      boot.kernel_events.push_back(e);
      break;
    }
  }
  std::vector<Finding> flaps = RunHostRules(boot, {});
  ASSERT_EQ(Count(flaps, "link-flapping"), 1u);
  for (const Finding& x : flaps) {
    if (x.rule == "link-flapping") {
      EXPECT_EQ(x.object, "port 0000:41:00.0 enp65s0f0");
    }
  }
}

TEST(Doctor, FirmwarePendingActivation) {
  // mlxup says "Up to date" while the old firmware runs: the rule says otherwise.
  HostFacts up_to_date =
      Capture("h", {{"mlxfwmanager.txt", "mlxfwmanager/mlxup-cx7-mcx75310aas-nea-fw-running-pending-up-to-date.txt"}});
  std::vector<Finding> found = RunHostRules(up_to_date, {});
  ASSERT_EQ(Count(found, "firmware-pending-activation"), 1u);
  HostFacts flint = Capture("h", {{"flint-q-04:00.0.txt", "flint/cx3-mcx311a-query-full-fw-running-pending.txt"}});
  EXPECT_EQ(Count(RunHostRules(flint, {}), "firmware-pending-activation"), 1u);
  // Healthy: an update available but nothing pending; the same card before its burn.
  for (const auto& [slot, file] : std::vector<std::pair<std::string, std::string>>{
           {"mlxfwmanager.txt", "mlxfwmanager/mlxup-cx6lx-mcx631102as-query-update-required.txt"},
           {"flint-q-04:00.0.txt", "flint/cx3-mcx311a-query-full-before-burn.txt"},
           {"flint-q-0002:01:00.0.txt", "flint/cx6lx-mstflint-q-by-pci-address-arm64.txt"}}) {
    EXPECT_EQ(Count(RunHostRules(Capture("h", {{slot, file}}), {}), "firmware-pending-activation"), 0u) << file;
  }
  // The flash version against the driver's running one for the same card: the real flint query of a CX-6 Lx
  // at 0002:01:00.0 (26.33.1048), and ethtool -i of that port reporting an older running version (changed in memory).
  HostFacts mixed = Capture("h", {{"flint-q-0002:01:00.0.txt", "flint/cx6lx-mstflint-q-by-pci-address-arm64.txt"}});
  NetdevFacts port;
  port.name = "enP2p1s0f0np0";
  port.pci_bdf = "0002:01:00.0";
  port.firmware_version = "26.33.1048 (MT_0000000575)";
  mixed.netdevs.push_back(port);
  EXPECT_EQ(Count(RunHostRules(mixed, {}), "firmware-pending-activation"), 0u);
  mixed.netdevs.back().firmware_version = "26.31.1014 (MT_0000000575)";
  std::vector<Finding> pending = RunHostRules(mixed, {});
  ASSERT_EQ(Count(pending, "firmware-pending-activation"), 1u);
  // devlink dev info of two PFs of one card, running == stored (real): silent. With the stored image newer (in
  // memory: no public sample shows the pending state), one finding for the card, not one per function.
  HostFacts devlink =
      Capture("h", {{"devlink-dev-info.txt", "devlink/cx7-mt0000000894-serial-numbers-two-pfs-kernel-patch.txt"}});
  ASSERT_EQ(devlink.devlink.size(), 2u);
  EXPECT_EQ(Count(RunHostRules(devlink, {}), "firmware-pending-activation"), 0u);
  for (DevlinkDevice& d : devlink.devlink) d.stored_fw = "28.43.1014";
  EXPECT_EQ(Count(RunHostRules(devlink, {}), "firmware-pending-activation"), 1u);
}

TEST(Doctor, LinkDownWithItsCause) {
  REQUIRE_SHARED("ethtool/cx4lx-25g-dac-to-10g-switch-link-training-failure.txt");
  // The hotsos host: enp59s0f0 is a bond member (configured). The ethtool sample's link
  // training failure is attached to it, and its state set down in memory.
  HostFacts f = Capture("h", {{"ip-d-link.txt", "ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt"},
                              {"ethtool-enp59s0f0.txt", "ethtool/cx4lx-25g-dac-to-10g-switch-link-training-failure.txt"}});
  EXPECT_EQ(Count(RunHostRules(f, {}), "link-down"), 0u);
  for (NetdevFacts& n : f.netdevs) {
    if (n.name == "enp59s0f0") n.operstate = "down";
  }
  std::vector<Finding> found = RunHostRules(f, {});
  ASSERT_EQ(Count(found, "link-down"), 1u);
  EXPECT_NE(found[0].message.find("Link training failure"), std::string::npos);
  // An InfiniBand port that polls (in memory, on the real ibstat sample).
  HostFacts ib = Capture("h", {{"ibstat.txt", "ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt"}});
  EXPECT_EQ(Count(RunHostRules(ib, {}), "link-down"), 0u);  // its down ports are Ethernet, unconfigured
  ib.rdma[0].ca.ports[0].state = "Down";
  ib.rdma[0].ca.ports[0].physical_state = "Polling";
  found = RunHostRules(ib, {});
  ASSERT_EQ(Count(found, "link-down"), 1u);
  EXPECT_NE(found[0].message.find("polling"), std::string::npos);
}

TEST(Doctor, BerHigh) {
  REQUIRE_SHARED("mlxlink/cx6dx-eth-100g-rs528-no-issue.txt");
  HostFacts f = Capture("h", {{"mlxlink-mlx5_0.txt", "mlxlink/cx6dx-eth-100g-rs528-no-issue.txt"}});
  EXPECT_EQ(Count(RunHostRules(f, {}), "ber-high"), 0u);
  f.links.begin()->second.effective_ber = 3e-10;  // in memory
  EXPECT_EQ(Count(RunHostRules(f, {}), "ber-high"), 1u);
  DoctorPolicy lenient = ParsePolicy("max_effective_ber: 1e-9\n", "p.yaml");
  EXPECT_EQ(Count(RunHostRules(f, lenient), "ber-high"), 0u);
}

TEST(Doctor, BondRulesOnRealBonds) {
  REQUIRE_SHARED("bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt");
  HostFacts zero = Capture("h", {{"bonding-bond0.txt", "bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt"}});
  EXPECT_EQ(Count(RunHostRules(zero, {}), "bond-lacp-not-negotiated"), 1u);
  HostFacts churned = Capture("h", {{"bonding-bond0.txt", "bonding/8023ad-churned-no-partner-one-slave-down.txt"}});
  std::vector<Finding> found = RunHostRules(churned, {});
  EXPECT_EQ(Count(found, "bond-member-down"), 1u);
  EXPECT_EQ(Count(found, "bond-lacp-not-negotiated"), 1u);
  HostFacts backup = Capture("h", {{"bonding-bond0.txt", "bonding/active-backup-healthy-10g.txt"}});
  found = RunHostRules(backup, {});
  EXPECT_EQ(Rules(found), std::vector<std::string>{"bond-active-backup"});
}

TEST(Doctor, LacpNotNegotiatedInEveryForm) {
  // Each real 802.3ad sample that shows a failure fires it once; the aggregated bond (both members in aggregator
  // 1, a real partner) fires it only for its churned member.
  for (const char* file : {"bonding/telegraf-802.3ad-no-active-aggregator-agg-id-na.txt",
                           "bonding/hpe-fmn-802.3ad-mii-down-no-active-aggregator-no-slaves.txt",
                           "bonding/cnblog-802.3ad-layer3+4-mii-down-no-active-aggregator-agg-1-2.txt",
                           "bonding/insights-802.3ad-partner-churned-split-aggregators.txt",
                           "bonding/lkml-cx5-40g-802.3ad-partner-zero-mac-churned-split-agg.txt",
                           "bonding/sonic-lab-ubuntu1804-802.3ad-not-bundled-split-agg.txt",
                           "bonding/ubuntuforums-802.3ad-em1-em2-split-agg-churned.txt",
                           "bonding/blog-ubuntu-10g-802.3ad-layer2-churned-after-flaps.txt"}) {
    std::vector<Finding> found = RunHostRules(Capture("h", {{"bonding-bond0.txt", file}}), {});
    EXPECT_EQ(Count(found, "bond-lacp-not-negotiated"), 1u) << file;
  }
  HostFacts na = Capture("h", {{"bonding-bond0.txt", "bonding/telegraf-802.3ad-no-active-aggregator-agg-id-na.txt"}});
  EXPECT_TRUE(na.bonds.at("bond0").no_active_aggregator);
  EXPECT_TRUE(na.bonds.at("bond0").members.at(0).aggregator_na);
  HostFacts churn = Capture("h", {{"bonding-bond0.txt", "bonding/blog-ubuntu-10g-802.3ad-layer2-churned-after-flaps.txt"}});
  std::vector<Finding> found = RunHostRules(churn, {});
  for (const Finding& x : found) {
    if (x.rule == "bond-lacp-not-negotiated") {
      EXPECT_NE(x.message.find("churned"), std::string::npos);
      EXPECT_EQ(x.message.find("no partner"), std::string::npos);
    }
  }
  EXPECT_EQ(Count(found, "bond-hash-layer2"), 1u);
  // Healthy: active-backup, and no /proc file but ip -d link (hotsos) whose bond1 has a partner in aggregator 1.
  EXPECT_EQ(Count(RunHostRules(Capture("h", {{"bonding-bond0.txt", "bonding/active-backup-healthy-10g.txt"}}), {}),
                  "bond-lacp-not-negotiated"),
            0u);
  HostFacts ip = Capture("h", {{"ip-d-link.txt", "ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt"}});
  ASSERT_TRUE(ip.bonds.count("bond1"));
  EXPECT_FALSE(ip.bonds.at("bond1").members.empty());
  EXPECT_EQ(Count(RunHostRules(ip, {}), "bond-lacp-not-negotiated"), 0u);
  // ip -d addr of a bond in a bridge whose LACP partner is all zero, no /proc/net/bonding: found from ip alone;
  // its addresses are kept too.
  HostFacts addr = Capture("h", {{"ip-d-addr.txt", "ip-link/hotsos-ip-d-addr-bond-802.3ad-partner-mac-zero-in-bridge.txt"}});
  ASSERT_TRUE(addr.bonds.count("bond1"));
  EXPECT_EQ(addr.bonds.at("bond1").partner_mac, "00:00:00:00:00:00");
  EXPECT_EQ(Count(RunHostRules(addr, {}), "bond-lacp-not-negotiated"), 1u);
  bool address = false;
  for (const NetdevFacts& n : addr.netdevs)
    address |= n.name == "br-bond1" && !n.addresses.empty() && n.addresses[0] == "10.10.101.33/26";
  EXPECT_TRUE(address);
}

TEST(Doctor, RdmaPortsWithoutIbstat) {
  // rdma link alone: the DGX Spark's second IB port polls; the first is active.
  HostFacts spark =
      Capture("h", {{"rdma-link.txt", "rdma-link/dgx-spark-ib-port1-active-port2-down-polling-trailing-space.txt"}});
  ASSERT_EQ(spark.rdma.size(), 1u);
  ASSERT_EQ(spark.rdma[0].ca.ports.size(), 2u);
  EXPECT_EQ(spark.rdma[0].ca.ports[1].physical_state, "Polling");
  EXPECT_EQ(spark.rdma[0].ca.ports[1].link_layer, "InfiniBand");
  std::vector<Finding> found = RunHostRules(spark, {});
  ASSERT_EQ(Count(found, "link-down"), 1u);
  // Port down with the physical link up: no subnet manager.
  HostFacts no_sm = Capture("h", {{"rdma-link.txt", "rdma-link/rccl-issue-ib-mlx5_7-down-linkup-2.txt"}});
  std::vector<Finding> sm = RunHostRules(no_sm, {});
  ASSERT_EQ(Count(sm, "link-down"), 1u);
  for (const Finding& x : sm) {
    if (x.rule == "link-down") {
      EXPECT_NE(x.message.find("subnet manager"), std::string::npos);
    }
  }
  EXPECT_EQ(Count(RunHostRules(Capture("h", {{"rdma-link.txt", "rdma-link/rccl-issue-ib-mlx5_7-active-linkup-3.txt"}}), {}),
                  "link-down"),
            0u);
  // A RoCE port only rdma link sees (DISABLED), whose netdev has an ifcfg file: configured, so link-down; without
  // the ifcfg file nothing says it was meant to be up.
  HostFacts roce = Capture("h", {{"rdma-link.txt", "rdma-link/pfc-setup-doc-old-iproute2-i40iw-mlx5-down-disabled.txt"}});
  EXPECT_EQ(Count(RunHostRules(roce, {}), "link-down"), 0u);
  roce.ifcfg["ifcfg-ens803f0"] = IfcfgFile{};
  EXPECT_EQ(Count(RunHostRules(roce, {}), "link-down"), 1u);
}

TEST(Doctor, DriverStackFromEthtoolWhereOfedInfoIsMissing) {
  DoctorPolicy any = ParsePolicy("driver_stack: any\n", "p.yaml");
  HostFacts inbox =
      Capture("h", {{"ethtool-i-enp1s0f0np0.txt", "ethtool/mlx5-inbox-6.5.0-14-generic-hpe-640sfp28-psid-in-fwver.txt"}});
  EXPECT_EQ(inbox.netdevs.at(0).driver_origin, "inbox");
  EXPECT_EQ(Count(RunHostRules(inbox, any), "driver-stack-missing"), 1u);
  HostFacts doca = Capture("h", {{"ethtool-i-enp1s0f0np0.txt", "ethtool/mlx5-doca-24.10-3.2.5-hpe-640sfp28-hp-psid.txt"}});
  EXPECT_EQ(Count(RunHostRules(doca, any), "driver-stack-missing"), 0u);
  // Without a requirement in the policy, nothing.
  EXPECT_EQ(Count(RunHostRules(inbox, {}), "driver-stack-missing"), 0u);
}

TEST(Doctor, ModuleOpticsFault) {
  // Each real ethtool -m sample on a port with an ifcfg file (the real ifcfg-eth2), so the port is meant to be used.
  auto on_eth2 = [](const std::string& module) {
    return Capture("h", {{"ethtool-m-eth2.txt", module}, {"ifcfg-eth2", "ifcfg/ifcfg-eth2-bond-slave-quoted-master.txt"}});
  };
  for (const char* bad : {"ethtool/qsfp28-cwdm4-finisar-cx4-laser-disabled-minus40dbm.txt",
                          "ethtool/qsfp28-low-power-mode-all-lanes-inf-partial.txt",
                          "ethtool/qsfp-dd-cmis-low-power-mode-16ch-minus40dbm-partial.txt",
                          "ethtool/cmis-16lane-rx-los-remote-down-grep.txt", "ethtool/sff8636-aoc-all-los-local-down-grep.txt"}) {
    EXPECT_EQ(Count(RunHostRules(on_eth2(bad), {}), "module-optics-fault"), 1u) << bad;
  }
  for (const char* good : {"ethtool/qsfp28-cwdm4-finisar-cx4-after-oui-reprogram-40g.txt",
                           "ethtool/qsfp-dd-cmis4-arista-400g-xdr4-temp-high-warning-mail-wrapped.txt",  // lanes 5-8 unused
                           "ethtool/m-sfp-1000base-sx-sff8472-dom-thresholds.txt",
                           "ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt"}) {
    EXPECT_EQ(Count(RunHostRules(on_eth2(good), {}), "module-optics-fault"), 0u) << good;
  }
  // The same dark module on a port nobody configured: the NIC keeps an unused port's lasers off by design.
  EXPECT_EQ(
      Count(RunHostRules(Capture("h", {{"ethtool-m-eth2.txt", "ethtool/qsfp28-cwdm4-finisar-cx4-laser-disabled-minus40dbm.txt"}}),
                         {}),
            "module-optics-fault"),
      0u);
  // Per-lane readings: 4 lanes at the -40 dBm floor, bias 0 mA.
  HostFacts dark = on_eth2("ethtool/qsfp28-cwdm4-finisar-cx4-laser-disabled-minus40dbm.txt");
  ModuleLanes lanes = LanesOf(*dark.netdevs.at(0).module);
  ASSERT_EQ(lanes.tx_power_dbm.size(), 4u);
  EXPECT_DOUBLE_EQ(*lanes.tx_power_dbm[3], -40.0);
  EXPECT_DOUBLE_EQ(*lanes.tx_bias_ma[0], 0.0);
  ASSERT_EQ(lanes.rx_power_dbm.size(), 4u);
}

TEST(Doctor, ModuleLaneFault) {
  // The real passive NDR DAC shows LOS/LOL flags on an Active link: a passive cable has no CDR, so no finding.
  HostFacts dac = Capture("h", {{"mlxlink-mlx5_0.txt", "mlxlink/cx7-osfp-ndr-fs-passive-copper-rx-los-cdr-lol-linkup.txt"}});
  EXPECT_EQ(Count(RunHostRules(dac, {}), "module-lane-fault"), 0u);
  // The same flags from an optical module (cable type changed in memory): lanes 1, 3 and 4 lose signal.
  dac.links.at("mlx5_0").cable_type = "Optical Module";
  std::vector<Finding> found = RunHostRules(dac, {});
  ASSERT_EQ(Count(found, "module-lane-fault"), 1u);
  for (const Finding& x : found) {
    if (x.rule == "module-lane-fault") {
      EXPECT_NE(x.message.find("Rx loss of signal on lanes 1,3,4"), std::string::npos);
    }
  }
  // And none when the link is not Active (link-down speaks then).
  dac.links.at("mlx5_0").state = "Polling";
  EXPECT_EQ(Count(RunHostRules(dac, {}), "module-lane-fault"), 0u);
}

TEST(Doctor, MtuRules) {
  REQUIRE_SHARED("ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt");
  HostFacts f = Capture("h", {{"ip-d-link.txt", "ip-link/ip-d-s-link-8023ad-bond-slave-and-vlan-on-bond-mtu9000.txt"},
                              {"bonding-bond1.txt", "bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt"}});
  DoctorPolicy p;
  p.disabled_rules = {"bond-lacp-not-negotiated", "bond-member-down", "bond-hash-layer2"};
  EXPECT_EQ(Rules(RunHostRules(f, p)), std::vector<std::string>{});
  // In memory: the slave is a RoCE port (ECN present) at MTU 1500 under a 9000 bond, and the
  // VLAN is raised above its parent.
  NetdevFacts* slave = nullptr;
  for (NetdevFacts& n : f.netdevs) {
    if (n.name == "enp59s0f0") slave = &n;
    if (n.name == "bond1.4003") n.mtu = 9216;
  }
  ASSERT_TRUE(slave);
  slave->mtu = 1500;
  slave->ecn = EcnState();
  f.bonds["bond1"].members[0].name = "enp59s0f0";
  std::vector<Finding> found = RunHostRules(f, p);
  EXPECT_EQ(Count(found, "mtu-not-jumbo"), 1u);
  EXPECT_EQ(Count(found, "mtu-inconsistent"), 2u);  // member vs bond, VLAN vs parent
}

TEST(Doctor, NetworkManagerAndIfcfg) {
  REQUIRE_SHARED("ifcfg/ifcfg-enp0s25-commented-onboot-spaces-around-equals.txt");
  HostFacts commented = Capture("h", {{"ifcfg-enp0s25", "ifcfg/ifcfg-enp0s25-commented-onboot-spaces-around-equals.txt"}});
  EXPECT_EQ(Count(RunHostRules(commented, {}), "ifcfg-onboot-no"), 1u);
  HostFacts yes = Capture("h", {{"ifcfg-eth2", "ifcfg/ifcfg-eth2-bond-slave-quoted-master.txt"}});
  EXPECT_EQ(Count(RunHostRules(yes, {}), "ifcfg-onboot-no"), 0u);
  // nmcli's unmanaged docker0 has no ifcfg: not a finding. Given an ifcfg file (the real
  // enp0s25 sample, renamed in the capture) it is.
  HostFacts nm = Capture("h", {{"nmcli.txt", "nmcli/device-status-centos7-bridge-and-lo-unmanaged.txt"}});
  EXPECT_EQ(Count(RunHostRules(nm, {}), "nm-unmanaged"), 0u);
  nm.networkmanager[1].type = "ethernet";  // in memory: docker0 stands for an unmanaged NIC
  nm.ifcfg["ifcfg-docker0"] = commented.ifcfg.begin()->second;
  EXPECT_EQ(Count(RunHostRules(nm, {}), "nm-unmanaged"), 1u);
}

TEST(Doctor, RoceQosAndEcn) {
  HostFacts f = Capture("h", {{"mlnx_qos-eth4.txt", "project:tests/fixtures/mlnx_qos/cx5-os-controlled-dscp-pfc3-vendor-tsa.txt"},
                              {"ip-j-d-link.json", "project:tests/fixtures/iproute2/ip-j-d-link-veth-bridge.json"}});
  // The capture's interfaces do not include eth4; attach the QoS to one (in memory).
  NetdevFacts eth4;
  eth4.name = "eth4";
  eth4.kind = "physical";
  eth4.mtu = 9000;
  eth4.qos = ParseMlnxQos(testing::ReadText(std::string(RAILYARD_SOURCE_DIR) +
                                            "/tests/fixtures/mlnx_qos/cx5-os-controlled-dscp-pfc3-vendor-tsa.txt"));
  eth4.ecn = ParseEcnGrep("/sys/class/net/eth4/ecn/roce_np/enable/3:1\n/sys/class/net/eth4/ecn/roce_rp/enable/3:1\n");
  f.netdevs = {eth4};
  EXPECT_EQ(Rules(RunHostRules(f, {})), std::vector<std::string>{});
  DoctorPolicy prio5 =
      ParsePolicy("roce_priority: 5\n", "p.yaml");  // this fabric's lossless priority is 5: PFC and ECN there are off
  std::vector<Finding> found = RunHostRules(f, prio5);
  EXPECT_EQ(Count(found, "roce-pfc-off"), 1u);
  EXPECT_EQ(Count(found, "roce-ecn-off"), 0u);  // unknown (-1), not off
  f.netdevs[0].ecn->rp_enabled[3] = 0;
  EXPECT_EQ(Count(RunHostRules(f, {}), "roce-ecn-off"), 1u);
  DoctorPolicy pcp = ParsePolicy("roce_trust: pcp\n", "p.yaml");
  EXPECT_EQ(Count(RunHostRules(f, pcp), "roce-trust-not-dscp"), 1u);

  // Across a fleet: three hosts with the real QoS sample (ECN on at 3), one with ECN's reaction point off.
  f.netdevs[0].ecn->rp_enabled[3] = 1;
  Doctor fleet({});
  for (int i = 0; i < 4; ++i) {
    HostFacts h = f;
    h.hostname = fmt::format("gpu{:02}", i);
    if (i == 3) h.netdevs[0].ecn->rp_enabled[3] = 0;
    fleet.AddHost(h);
  }
  DoctorReport r = fleet.Finish();
  ASSERT_EQ(Count(r.findings, "fleet-qos-drift"), 1u);
  for (const Finding& x : r.findings) {
    if (x.rule == "fleet-qos-drift") {
      EXPECT_EQ(x.host, "gpu03");
      EXPECT_EQ(x.evidence[0].second, "trust dscp; pfc 3; ecn np 3 rp off");
    }
  }
  Doctor same({});
  for (int i = 0; i < 3; ++i) same.AddHost(f);
  EXPECT_EQ(Count(same.Finish().findings, "fleet-qos-drift"), 0u);
}

TEST(Doctor, ModuleTemperatureAndDrops) {
  REQUIRE_SHARED("ethtool/S-mlx5-kernel-5.15-xdp-load-rx-discards-phy-out-of-buffer-pause.txt");
  HostFacts f =
      Capture("h", {{"ip-j-d-link.json", "project:tests/fixtures/iproute2/ip-j-d-link-veth-bridge.json"},
                    {"ethtool-S-ens1f0np0.txt", "ethtool/S-mlx5-kernel-5.15-xdp-load-rx-discards-phy-out-of-buffer-pause.txt"},
                    {"ethtool-m-ens1f0np0.txt", "ethtool/m-sfp-1000base-sx-sff8472-dom-thresholds.txt"}});
  std::vector<Finding> found = RunHostRules(f, {});
  EXPECT_EQ(Count(found, "rx-drops-high"), 1u);
  EXPECT_EQ(Count(found, "module-temperature-high"), 0u);                     // 41.7 °C
  DoctorPolicy p = ParsePolicy("max_rx_discards: 100000000000\n", "p.yaml");  // above both counters of the sample
  EXPECT_EQ(Count(RunHostRules(f, p), "rx-drops-high"), 0u);
  for (NetdevFacts& n : f.netdevs) {
    if (n.module) n.module->temperature_c = 83.5;  // in memory
  }
  found = RunHostRules(f, {});
  ASSERT_EQ(Count(found, "module-temperature-high"), 1u);
  for (const Finding& x : found) {
    if (x.rule == "module-temperature-high") {
      EXPECT_EQ(x.severity, Severity::kError);
    }
  }
}

TEST(Doctor, FleetDriftAndDuplicates) {
  REQUIRE_SHARED("flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt");
  std::vector<std::pair<std::string, std::string>> files = {
      {"flint-q-19:00.0.txt", "flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt"}};
  Doctor doctor({});
  for (int i = 0; i < 3; ++i) {
    HostFacts f = Capture(fmt::format("gpu{:03}", i), files);
    f.firmware.begin()->second.base_guid = fmt::format("e09d7303001264{:02x}", i);  // unique per host (in memory)
    if (i == 2) f.firmware.begin()->second.fw_version = "28.39.1002";               // one host behind
    doctor.AddHost(f);
  }
  DoctorReport r = doctor.Finish();
  ASSERT_EQ(Count(r.findings, "fleet-firmware-drift"), 1u);
  EXPECT_EQ(r.findings[0].host, "gpu002");
  EXPECT_EQ(Count(r.findings, "fleet-duplicate-identity"), 0u);
  // The same real card reported by two hosts: its GUID is duplicated.
  Doctor clones({});
  clones.AddHost(Capture("a", files));
  clones.AddHost(Capture("b", files));
  std::vector<Finding> found = clones.Finish().findings;
  ASSERT_EQ(Count(found, "fleet-duplicate-identity"), 1u);  // one finding per shared identity, naming both hosts
  for (const Finding& x : found) {
    if (x.rule == "fleet-duplicate-identity") {
      EXPECT_NE(x.message.find("on 2 hosts (a, b)"), std::string::npos) << x.message;
    }
  }
}

TEST(Doctor, FirmwareBaselineAndIommu) {
  REQUIRE_SHARED("flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt");
  HostFacts f = Capture("h", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"},
                              {"flint-q-19:00.0.txt", "flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt"}});
  const std::string fw = f.firmware.begin()->second.fw_version;
  DoctorPolicy p = ParsePolicy("firmware_baseline: {ConnectX-7: '" + fw + "'}\n", "p.yaml");  // by family: at baseline
  EXPECT_EQ(Count(RunHostRules(f, p), "firmware-below-baseline"), 0u);
  p = ParsePolicy("firmware_baseline: {ConnectX-7: '" + fw + "', " + f.firmware.begin()->second.psid + ": 99.0.0}\n",
                  "p.yaml");  // by PSID, which wins
  std::vector<Finding> found = RunHostRules(f, p);
  ASSERT_EQ(Count(found, "firmware-below-baseline"), 1u);
  // The kernel command line (a capture file written here, as /proc/cmdline reads).
  EXPECT_EQ(Count(found, "iommu-off"), 0u);
  f.kernel_cmdline = "BOOT_IMAGE=/vmlinuz ro intel_iommu=off";
  f.kernel_params = {{"BOOT_IMAGE", "/vmlinuz"}, {"ro", ""}, {"intel_iommu", "off"}};
  EXPECT_EQ(Count(RunHostRules(f, {}), "iommu-off"), 1u);
  f.kernel_params = {{"ro", ""}};
  DoctorPolicy vms = ParsePolicy("require_iommu: true\n", "p.yaml");
  EXPECT_EQ(Count(RunHostRules(f, {}), "iommu-off"), 0u);
  EXPECT_EQ(Count(RunHostRules(f, vms), "iommu-off"), 1u);
  f.kernel_params = {{"intel_iommu", "on"}, {"iommu", "pt"}};
  EXPECT_EQ(Count(RunHostRules(f, vms), "iommu-off"), 0u);
}

TEST(Doctor, BondSinglePoint) {
  REQUIRE_SHARED("bonding/active-backup-healthy-10g.txt");
  HostFacts f = Capture("h", {{"bonding-bond0.txt", "bonding/active-backup-healthy-10g.txt"}});
  // The members' PCI addresses are not in the sample: two ports of one card (in memory).
  for (size_t i = 0; i < f.bonds.begin()->second.members.size(); ++i) {
    NetdevFacts n;
    n.name = f.bonds.begin()->second.members[i].name;
    n.kind = "physical";
    n.pci_bdf = fmt::format("0000:3b:00.{}", i);
    f.netdevs.push_back(n);
  }
  EXPECT_EQ(Count(RunHostRules(f, {}), "bond-single-point"), 1u);
  f.netdevs[1].pci_bdf = "0000:af:00.0";  // second card
  EXPECT_EQ(Count(RunHostRules(f, {}), "bond-single-point"), 0u);
}

TEST(Doctor, FleetPsidMixAndDriverDrift) {
  REQUIRE_SHARED("flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt");
  std::vector<std::pair<std::string, std::string>> files = {
      {"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"},
      {"flint-q-19:00.0.txt", "flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt"}};
  Doctor doctor({});
  for (int i = 0; i < 4; ++i) {
    HostFacts f = Capture(fmt::format("gpu{}", i), files);
    f.firmware.begin()->second.base_guid = fmt::format("b8cef60300{:06x}", i);  // distinct cards (in memory)
    f.pci[0].vpd["SN"] = fmt::format("MT24{:04}", i);
    f.ofed = i == 3 ? "MLNX_OFED_LINUX-5.8-3.0.7.0" : "MLNX_OFED_LINUX-24.10-1.1.4.0";
    if (i == 1) f.firmware.begin()->second.psid = "DEL0000000036";  // an OEM PSID on the same OPN (in memory)
    doctor.AddHost(f);
  }
  DoctorReport r = doctor.Finish();
  ASSERT_EQ(Count(r.findings, "fleet-psid-mix"), 1u);
  ASSERT_EQ(Count(r.findings, "fleet-driver-drift"), 1u);
  for (const Finding& f : r.findings) {
    if (f.rule == "fleet-psid-mix") {
      EXPECT_EQ(f.host, "gpu1");
    }
    if (f.rule == "fleet-driver-drift") {
      EXPECT_EQ(f.host, "gpu3");
    }
  }
}

// The doctor's two halves as `railyard doctor` runs them: each host examined on any thread, in any
// order, then added in input order, give the report AddHost gives, fleet findings included.
TEST(Doctor, HostsExaminedApartThenAddedInOrderGiveTheSameReport) {
  REQUIRE_SHARED("flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt");
  std::vector<std::pair<std::string, std::string>> files = {
      {"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"},
      {"flint-q-19:00.0.txt", "flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt"}};
  std::vector<HostFacts> hosts;
  for (int i = 0; i < 5; ++i) {
    HostFacts f = Capture(fmt::format("gpu{}", i), files);
    f.firmware.begin()->second.base_guid = i == 4 ? "b8cef60300000001" : fmt::format("b8cef60300{:06x}", i);  // one clone
    if (i == 2) f.firmware.begin()->second.fw_version = "28.39.1002";  // one host behind (in memory)
    if (i == 3) f.ofed = "MLNX_OFED_LINUX-5.8-3.0.7.0";
    hosts.push_back(std::move(f));
  }
  Doctor whole({});
  for (const HostFacts& f : hosts) whole.AddHost(f);
  Doctor halves({});
  std::vector<Doctor::HostExamination> examined(hosts.size());
  for (size_t i = hosts.size(); i-- > 0;) examined[i] = halves.Examine(hosts[i]);  // last first
  for (Doctor::HostExamination& e : examined) halves.Add(std::move(e));
  DoctorReport a = whole.Finish(), b = halves.Finish();
  EXPECT_GE(Count(a.findings, "fleet-firmware-drift") + Count(a.findings, "fleet-duplicate-identity") +
                Count(a.findings, "fleet-driver-drift"),
            3u);
  EXPECT_EQ(DoctorJson(a), DoctorJson(b));
}

TEST(Doctor, RssSingleQueueAndFleetMtuDrift) {
  // The netns capture (tests/fixtures/iproute2) has real queue counts only live; set them here.
  HostFacts f = Capture("gpu0", {{"ip-j-d-link.json", "project:tests/fixtures/iproute2/ip-j-d-link-veth-bridge.json"}});
  NetdevFacts port;
  port.name = "ens3np0";
  port.kind = "physical";
  port.mtu = 9000;
  port.speed_mbps = 200000;
  port.tx_queues = 63;
  f.netdevs.push_back(port);
  EXPECT_EQ(Count(RunHostRules(f, {}), "rss-single-queue"), 0u);
  f.netdevs.back().tx_queues = 1;
  EXPECT_EQ(Count(RunHostRules(f, {}), "rss-single-queue"), 1u);
  Doctor doctor({});
  for (int i = 0; i < 3; ++i) {
    HostFacts h = f;
    h.hostname = fmt::format("gpu{}", i);
    h.netdevs.back().mac = fmt::format("02:00:00:00:00:{:02x}", i);
    if (i == 2) h.netdevs.back().mtu = 1500;
    doctor.AddHost(h);
  }
  DoctorReport r = doctor.Finish();
  ASSERT_EQ(Count(r.findings, "fleet-mtu-drift"), 1u);
  for (const Finding& x : r.findings) {
    if (x.rule == "fleet-mtu-drift") {
      EXPECT_EQ(x.host, "gpu2");
    }
  }
}

TEST(Doctor, PowerSavingAndSriov) {
  REQUIRE_SHARED("lspci/cx3-qdr-fdr-mlx4-vpd-with-rw-fields-and-hexdump.txt");
  HostFacts cx3 = Capture("h", {{"lspci-vvv.txt", "lspci/cx3-qdr-fdr-mlx4-vpd-with-rw-fields-and-hexdump.txt"}});
  HostFacts cx7 = Capture("h", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"}});
  // Both real samples have "LnkCtl: ASPM Disabled".
  EXPECT_EQ(Count(RunHostRules(cx3, {}), "power-saving-on"), 0u);
  EXPECT_EQ(Count(RunHostRules(cx7, {}), "power-saving-on"), 0u);
  cx7.pci[0].aspm = "L1 Enabled";  // in memory: no real sample shows ASPM on
  EXPECT_EQ(Count(RunHostRules(cx7, {}), "power-saving-on"), 1u);
  // SR-IOV only matters where the policy asks for it.
  EXPECT_EQ(Count(RunHostRules(cx3, {}), "sriov-off"), 0u);
  DoctorPolicy vfs = ParsePolicy("require_sriov: true\n", "p.yaml");
  // The real CX-3 offers 63 VFs and has none created; the real CX-7 dump shows no SR-IOV capability.
  std::vector<Finding> found = RunHostRules(cx3, vfs);
  ASSERT_EQ(Count(found, "sriov-off"), 1u);
  for (const Finding& f : found) {
    if (f.rule == "sriov-off") {
      EXPECT_NE(f.message.find("no VFs are created (63 available)"), std::string::npos);
    }
  }
  EXPECT_EQ(Count(RunHostRules(cx7, vfs), "sriov-off"), 1u);
  cx3.pci[0].sriov_num_vfs = 8;  // in memory: VFs created
  EXPECT_EQ(Count(RunHostRules(cx3, vfs), "sriov-off"), 0u);
}

TEST(Doctor, DriverStackMissing) {
  HostFacts f = Capture("h", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"}});
  DoctorPolicy doca = ParsePolicy("driver_stack: doca\n", "p.yaml");
  // The capture has no ofed_info-s.txt: unknown, not missing.
  EXPECT_EQ(Count(RunHostRules(f, doca), "driver-stack-missing"), 0u);
  // As a live collect records a host without ofed_info.
  f.sources.push_back({"ofed_info -s", false, "ofed_info not installed", {}});
  EXPECT_EQ(Count(RunHostRules(f, {}), "driver-stack-missing"), 0u);  // no requirement
  EXPECT_EQ(Count(RunHostRules(f, doca), "driver-stack-missing"), 1u);
  f.sources.back() = {"ofed_info -s", true, "exit 0", {}};
  f.ofed = "MLNX_OFED_LINUX-24.10-1.1.4.0";  // ofed_info -s as printed (catalog.md §10), colon stripped
  EXPECT_EQ(Count(RunHostRules(f, doca), "driver-stack-missing"), 1u);  // the wrong stack
  DoctorPolicy any = ParsePolicy("driver_stack: any\n", "p.yaml");
  EXPECT_EQ(Count(RunHostRules(f, any), "driver-stack-missing"), 0u);
  f.ofed = "OFED-internal-24.07-0.3.5.0.110";  // what DOCA-OFED's ofed_info -s prints (lshca issue #102)
  EXPECT_EQ(Count(RunHostRules(f, doca), "driver-stack-missing"), 0u);
}

TEST(Doctor, DriverStackUnsupported) {
  // A real ConnectX-4 Lx (HPE 640SFP28, lspci) with the real DOCA-OFED ofed_info string (24.07: supported).
  HostFacts f = Capture("cx4lx", {{"lspci-vvv.txt", "lspci/lspci-vvv-connectx4-lx-hpe-old-pciutils-mail-wrapped.txt"}});
  ASSERT_FALSE(f.pci.empty());
  f.ofed = "OFED-internal-24.07-0.3.5.0.110";
  EXPECT_EQ(Count(RunHostRules(f, {}), "driver-stack-unsupported"), 0u);
  f.ofed = "MLNX_OFED_LINUX-24.10-3.2.5.0";  // MLNX_OFED 24.10 LTS still supports ConnectX-4 Lx
  EXPECT_EQ(Count(RunHostRules(f, {}), "driver-stack-unsupported"), 0u);
  // In memory: a DOCA-OFED train after the last that supports ConnectX-4 (DOCA 2.9.x = 24.10).
  f.ofed = "OFED-internal-25.04-0.6.1.0.1";
  std::vector<Finding> found = RunHostRules(f, {});
  ASSERT_EQ(Count(found, "driver-stack-unsupported"), 1u);  // one per family, not per function
  for (const Finding& x : found) {
    if (x.rule == "driver-stack-unsupported") {
      EXPECT_NE(x.message.find("ConnectX-4 Lx"), std::string::npos) << x.message;
    }
  }
  // In memory: the same card's ids as a ConnectX-8 under MLNX_OFED.
  for (PciFunction& p : f.pci) p.description = "Mellanox Technologies MT43244 Family [ConnectX-8]";
  f.ofed = "MLNX_OFED_LINUX-24.10-3.2.5.0";
  EXPECT_EQ(Count(RunHostRules(f, {}), "driver-stack-unsupported"), 1u);
}

TEST(Doctor, ServerNicUnsupported) {
  // Real outputs: a ConnectX-7 (MCX75310AAS-NEAT in its VPD) and a whole Dell PowerEdge R750 dmidecode (BIOS 1.9.2),
  // on Debian 12. The matrix is the user's, written here.
  HostFacts f = Capture("r750", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"},
                                 {"dmidecode.txt", "dmi/dell-poweredge-r750-dmidecode.txt"},
                                 {"os-release.txt", "os-release/debian-12-bookworm.txt"}});
  ASSERT_EQ(f.system.product, "PowerEdge R750");
  ASSERT_EQ(f.os.id, "debian");
  auto with = [&](const std::string& csv) {
    DoctorPolicy p;
    p.compat = ParseCompatMatrix(csv, "compat.csv");
    return RunHostRules(f, p);
  };
  auto only = [](const std::vector<Finding>& found) {
    std::vector<Finding> out;
    for (const Finding& x : found) {
      if (x.rule == "server-nic-unsupported") out.push_back(x);
    }
    return out;
  };
  // No matrix: the rule is silent.
  EXPECT_EQ(Count(RunHostRules(f, {}), "server-nic-unsupported"), 0u);
  // The server is listed, this card is not.
  std::vector<Finding> x = only(with("server,nic\nPowerEdge R750,ConnectX-6 Dx\nPowerEdge R750,MCX623106AN-CDAT\n"));
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0].severity, Severity::kError);
  EXPECT_NE(x[0].message.find("MCX75310AAS-NEAT"), std::string::npos) << x[0].message;
  EXPECT_NE(x[0].message.find("ConnectX-6 Dx, MCX623106AN-CDAT"), std::string::npos) << x[0].message;
  // Listed by family, with a BIOS floor above the host's 1.9.2 and an OS the host does not run.
  x = only(with("server,nic,bios_min,os,source\nPowerEdge R750,ConnectX-7,1.10.0,ubuntu 22.04;rhel 9,vendor matrix rev 3\n"));
  ASSERT_EQ(x.size(), 1u);
  EXPECT_NE(x[0].message.find("BIOS 1.9.2 is below 1.10.0"), std::string::npos) << x[0].message;
  EXPECT_NE(x[0].message.find("OS Debian GNU/Linux 12 (bookworm) is not among ubuntu 22.04, rhel 9"), std::string::npos)
      << x[0].message;
  // Supported, but the firmware range could not be checked (no flint in the capture): said as info, no clean bill.
  x = only(with("server,nic,bios_min,os,fw_min\nPowerEdge R750,MCX75310AAS-NEAT,1.5.0,debian 12,28.39.1002\n"));
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0].severity, Severity::kInfo);
  EXPECT_NE(x[0].message.find("firmware unknown"), std::string::npos) << x[0].message;
  // An explicit "unsupported" row decides even when a family row would allow it.
  x = only(with(
      "server,nic,status,note\nPowerEdge R750,ConnectX-7,,\nPowerEdge R750,MCX75310AAS-NEAT,unsupported,no OSFP cage bracket\n"));
  ASSERT_EQ(x.size(), 1u);
  EXPECT_NE(x[0].message.find("listed as unsupported: no OSFP cage bracket"), std::string::npos) << x[0].message;
  // A matrix about other servers: nothing checked, and it says so.
  x = only(with("server,nic\nPowerEdge XE9680,ConnectX-7\n"));
  ASSERT_EQ(x.size(), 1u);
  EXPECT_EQ(x[0].severity, Severity::kInfo);
  EXPECT_NE(x[0].message.find("says nothing about the Dell Inc. PowerEdge R750"), std::string::npos) << x[0].message;
  // The same host known only from its boot log's DMI line (a real one, from a pstore dump).
  HostFacts k = Capture("asrock", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"},
                                   {"dmesg.txt", "dmesg/gpud-pstore-dmesg-raw-level-prefix-mlx5-cable-unplugged-link-up.txt"}});
  EXPECT_EQ(k.system.from, "kernel-log");
  DoctorPolicy p;
  p.compat = ParseCompatMatrix("server,nic\n1U1G-GENOA/M3/N,ConnectX-6 Dx\n", "compat.csv");
  EXPECT_EQ(Count(RunHostRules(k, p), "server-nic-unsupported"), 1u);
}

TEST(CompatMatrix, BadRowsNameFileLineAndColumn) {
  auto error = [](const std::string& csv) {
    try {
      ParseCompatMatrix(csv, "m.csv");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("server,nic,stak\nA,B,inbox\n"), "m.csv:1: column 3 (stak): unknown column; did you mean 'stack'?");
  EXPECT_EQ(error("server,nic,stack\nA,B,ofed\n"), "m.csv:2: column 3 (stack): 'ofed' is not inbox, mlnx_ofed or doca_ofed");
  EXPECT_EQ(error("server,nic\n,B\n"),
            "m.csv:2: column 1 (server): empty: name the server model as dmidecode prints it, or * for any");
  EXPECT_EQ(error("nic\nB\n"), "m.csv:1: the header has no 'server' column");
  EXPECT_EQ(error("server,nic,fw_min,fw_max\nA,B,28.40.1000,28.39.1002\n"),
            "m.csv:2: column 4 (fw_max): 28.39.1002 is below fw_min 28.40.1000");
  EXPECT_TRUE(SameOpn("MCX75310AAS-NEA_Ax", "MCX75310AAS-NEAT"));
  EXPECT_TRUE(SameOpn("mcx75310aas-neat", "MCX75310AAS-NEAT"));
  EXPECT_FALSE(SameOpn("MCX75310AAS-HEAT", "MCX75310AAS-NEAT"));
  EXPECT_FALSE(SameOpn("MCX7531", "MCX75310"));
  EXPECT_EQ(DriverStackOf("MLNX_OFED_LINUX-24.10-3.2.5.0").train, "24.10");
  EXPECT_EQ(DriverStackOf("OFED-internal-24.07-0.3.5.0.110").stack, "doca_ofed");
  EXPECT_EQ(DriverStackOf("").stack, "inbox");
}

TEST(Doctor, VmNicNotPassthrough) {
  HostFacts f = Capture("vm", {{"ip-j-d-link.json", "project:tests/fixtures/iproute2/ip-j-d-link-veth-bridge.json"}});
  EXPECT_EQ(Count(RunHostRules(f, {}), "vm-nic-not-passthrough"), 0u);
  for (NetdevFacts& n : f.netdevs) {
    if (n.name == "eth9") {
      n.kind = "physical";  // in memory: the guest's NIC, as a VM's virtio NIC appears
      n.driver = "virtio_net";
    }
  }
  EXPECT_EQ(Count(RunHostRules(f, {}), "vm-nic-not-passthrough"), 1u);  // no ConnectX in the guest
  HostFacts with_cx = Capture("vm", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"}});
  f.pci = with_cx.pci;  // a ConnectX passed through beside the 1500-MTU management NIC
  EXPECT_EQ(Count(RunHostRules(f, {}), "vm-nic-not-passthrough"), 0u);
  for (NetdevFacts& n : f.netdevs) {
    if (n.name == "eth9") n.mtu = 9000;  // ... but the data traffic is on the virtio NIC
  }
  EXPECT_EQ(Count(RunHostRules(f, {}), "vm-nic-not-passthrough"), 1u);
}

TEST(Doctor, LinkBelowCapabilityAndFec) {
  REQUIRE_SHARED("mlxlink/cx7-eth-100g-dac-rs528-ext-speed-masks.txt");
  HostFacts f = Capture("h", {{"mlxlink-mlx5_0.txt", "mlxlink/cx6dx-eth-100g-rs528-no-issue.txt"},
                              {"mlxlink-mlx5_1.txt", "mlxlink/cx7-eth-100g-dac-rs528-ext-speed-masks.txt"},
                              {"mlxlink-mlx5_2.txt", "mlxlink/cx6-ib-hdr-2x-hdr100-ber-monitor-unsupported.txt"}});
  ASSERT_EQ(f.links.size(), 3u);
  // The CX-7 port enables 200G but its DAC supports 100G at most: 100G is all it can do.
  EXPECT_EQ(f.links.at("mlx5_1").enabled_speeds.front(), "200G_2X");
  EXPECT_EQ(f.links.at("mlx5_1").cable_speeds.front(), "100G_4X");
  std::vector<Finding> found = RunHostRules(f, {});
  EXPECT_EQ(Count(found, "link-below-capability"), 0u);
  EXPECT_EQ(Count(found, "fec-mismatch-or-off"), 0u);  // both 100G 4x ports run RS(528,514); HDR runs RS-544
  f.links.at("mlx5_1").cable_speeds.insert(f.links.at("mlx5_1").cable_speeds.begin(), "200G_4X");  // in memory: a 200G cable
  found = RunHostRules(f, {});
  ASSERT_EQ(Count(found, "link-below-capability"), 1u);
  for (const Finding& x : found) {
    if (x.rule == "link-below-capability") {
      EXPECT_EQ(x.object, "mlx5_1");
    }
  }
  // FEC off on 25G lanes (100G over 4x): a warning; and the two 100G ports now differ (no majority: both reported).
  f.links.at("mlx5_0").fec = "No FEC";
  found = RunHostRules(f, {});
  EXPECT_EQ(Count(found, "fec-mismatch-or-off"), 3u);
  // FEC off on HDR (50G PAM4 lanes): an error.
  f.links.at("mlx5_0").fec = f.links.at("mlx5_1").fec;
  f.links.at("mlx5_2").fec = "No FEC";
  found = RunHostRules(f, {});
  ASSERT_EQ(Count(found, "fec-mismatch-or-off"), 1u);
  for (const Finding& x : found) {
    if (x.rule == "fec-mismatch-or-off") {
      EXPECT_EQ(x.severity, Severity::kError);
    }
  }
}

TEST(Doctor, ModuleNotQualified) {
  REQUIRE_SHARED("ethtool/m-sfp-1000base-sx-sff8472-dom-thresholds.txt");
  auto with_module = [](const std::string& sample) {
    return Capture("h", {{"ip-j-d-link.json", "project:tests/fixtures/iproute2/ip-j-d-link-veth-bridge.json"},
                         {"ethtool-m-ens1f0np0.txt", sample}});
  };
  EXPECT_EQ(Count(RunHostRules(with_module("ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt"), {}),
                  "module-not-qualified"),
            0u);
  HostFacts jdsu = with_module("ethtool/m-sfp-1000base-sx-sff8472-dom-thresholds.txt");
  EXPECT_EQ(Count(RunHostRules(jdsu, {}), "module-not-qualified"), 1u);  // a JDSU SFP: third-party
  DoctorPolicy p = ParsePolicy("qualified_module_vendors: [NVIDIA, Mellanox, JDSU]\n", "p.yaml");
  EXPECT_EQ(Count(RunHostRules(jdsu, p), "module-not-qualified"), 0u);
  // The real "netlink error: Input/output error" on a port that is up: the EEPROM is unreadable.
  EXPECT_EQ(Count(RunHostRules(with_module("ethtool/m-cx3pro-40g-netlink-input-output-error.txt"), {}), "module-not-qualified"),
            1u);
}

// The plan of tests/fixtures/match/gpu-host-rails.yaml (written to match the real host-side
// lldpctl json0 capture: four rail NICs on four SONiC leaves, one storage NIC), with its --names map.
std::shared_ptr<HostPlan> GpuHostRailsPlan() {
  const fs::path match = fs::path(RAILYARD_SOURCE_DIR) / "tests/fixtures/match";
  const fs::path dir = fs::temp_directory_path() / ("railyard-doctor-plan-" + std::to_string(::getpid()));
  WritePlanOutputs(Plan(LoadSpec((match / "gpu-host-rails.yaml").string())), Catalog::Builtin(), dir.string());
  auto plan = std::make_shared<HostPlan>(LoadPlannedFabric((dir / "plan.json").string()));
  fs::remove_all(dir);
  plan->LoadNames((match / "gpu-host-rails.names.csv").string());
  return plan;
}

TEST(Doctor, PlanRulesOnTheRealHostLldp) {
  REQUIRE_SHARED("lldpctl/json0-gpu-host-rail-nics-to-sonic-leafs.json");
  std::shared_ptr<HostPlan> plan = GpuHostRailsPlan();
  HostFacts f = Capture("gpu-host", {{"lldpctl.json", "lldpctl/json0-gpu-host-rail-nics-to-sonic-leafs.json"}});
  ASSERT_EQ(f.lldp.size(), 5u);
  ASSERT_NE(plan->PortsOf("gpu-host"), nullptr);
  std::vector<Finding> found = RunPlanRules(f, *plan, {});
  EXPECT_EQ(Rules(found), std::vector<std::string>{});  // every NIC on its rail, the storage NIC on storage
  // Two rail cables swapped at the host (in memory): each NIC now reaches the other rail's leaf.
  for (LldpNeighbor& n : f.lldp) {
    if (n.remote_device == "LEAF03")
      n.remote_device = "LEAF04";
    else if (n.remote_device == "LEAF04")
      n.remote_device = "LEAF03";
  }
  found = RunPlanRules(f, *plan, {});
  ASSERT_EQ(Count(found, "rail-mismatch"), 2u);
  EXPECT_NE(found[0].message.find("a leaf of rail"), std::string::npos);
  EXPECT_NE(found[0].fix.find("move cable"), std::string::npos);
  // The storage NIC on a rail leaf and a rail NIC on the storage switch: the other plane.
  for (LldpNeighbor& n : f.lldp) {
    if (n.remote_device == "StorageSW")
      n.remote_device = "LEAF01";
    else if (n.remote_device == "LEAF01")
      n.remote_device = "StorageSW";
  }
  found = RunPlanRules(f, *plan, {});
  EXPECT_EQ(Count(found, "rail-mismatch"), 4u);
  // Speeds: a real ibstat from another H100 host, whose mlx5_1 is a 100G Ethernet port, where
  // this plan gives mlx5_1 a 400G rail; its mlx5_0 and mlx5_3 are Active at 400 as planned.
  HostFacts ib = Capture("gpu-host", {{"ibstat.txt", "ibstat/h100-cx7-ib-400g-with-eth-ports-down.txt"}});
  found = RunPlanRules(ib, *plan, {});
  ASSERT_EQ(Rules(found), std::vector<std::string>{"speed-below-plan"});
  EXPECT_EQ(found[0].object, "port mlx5_1");
  // Through the Doctor: the plan rules run, and a policy can turn them off.
  Doctor doctor({}, plan);
  doctor.AddHost(f);
  EXPECT_EQ(Count(doctor.Finish().findings, "rail-mismatch"), 4u);
  DoctorPolicy off;
  off.disabled_rules = {"rail-mismatch", "speed-below-plan"};
  EXPECT_TRUE(RunPlanRules(f, *plan, off).empty());
  // A host the plan does not know has nothing to compare.
  f.hostname = "not-in-plan";
  EXPECT_TRUE(RunPlanRules(f, *plan, {}).empty());
}

// config-differs-from-plan on ifcfg files (netplan is covered end to end by tests/integration/
// config_test.sh, through `config hosts`, `collect` and `doctor`).
TEST(Doctor, ConfigDiffersFromPlanOnIfcfg) {
  const fs::path dir = fs::temp_directory_path() / ("railyard-doctor-config-" + std::to_string(::getpid()));
  WritePlanOutputs(Plan(ParseSpec(R"(name: cfg
nodes: {count: 2, name_prefix: h}
planes:
  - {name: storage, kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 1, speed: 400G, switch: SN5600, netdevs: [ens1np0]}
  - {name: oob, kind: ethernet, speed: 1G, switch: SN2201}
addressing:
  storage: {prefix: 10.16.0.0/16}
  oob: {prefix: 192.168.0.0/24}
)",
                                  "cfg.yaml")),
                   Catalog::Builtin(), dir.string());
  PlannedFabric fabric = LoadPlannedFabric((dir / "plan.json").string(), true);
  fs::remove_all(dir);
  const std::string host = fabric.devices.at(0).name;  // the first node
  HostPlan plan(std::move(fabric));
  const std::vector<PlannedHostPort>* ports = plan.PortsOf(host);
  ASSERT_NE(ports, nullptr);
  std::string address;
  for (const PlannedHostPort& p : *ports) {
    if (p.plane == "storage") address = p.address;
  }
  ASSERT_FALSE(address.empty());
  HostFacts f;
  f.hostname = host;
  EXPECT_TRUE(RunPlanRules(f, plan, {}).empty());  // no persistent config in the facts: not judged
  const std::string ip = address.substr(0, address.find('/')), prefix = address.substr(address.find('/') + 1);
  f.ifcfg["ifcfg-ens1np0"] =
      ParseIfcfg("DEVICE=ens1np0\nONBOOT=yes\nBOOTPROTO=none\nIPADDR=" + ip + "\nPREFIX=" + prefix + "\nMTU=9000\n");
  EXPECT_EQ(Count(RunPlanRules(f, plan, {}), "config-differs-from-plan"), 0u);  // and the BMC's port is not the host's
  f.ifcfg["ifcfg-ens1np0"] = ParseIfcfg("DEVICE=ens1np0\nIPADDR=" + ip + "\nPREFIX=" + prefix + "\n");
  std::vector<Finding> found = RunPlanRules(f, plan, {});
  ASSERT_EQ(Count(found, "config-differs-from-plan"), 1u);  // MTU left out: 1500, the plane's is 9000
  EXPECT_NE(found[0].message.find("MTU 1500 (not set: the default)"), std::string::npos) << found[0].message;
  f.ifcfg["ifcfg-ens1np0"] = ParseIfcfg("DEVICE=ens1np0\nIPADDR=10.16.9.9\nPREFIX=16\nMTU=9000\n");
  found = RunPlanRules(f, plan, {});
  ASSERT_EQ(Count(found, "config-differs-from-plan"), 1u);
  bool names_it = false;
  for (const auto& [key, value] : found[0].evidence) names_it = names_it || (key == "planned_address" && value == address);
  EXPECT_TRUE(names_it) << found[0].message;
}

TEST(Doctor, OutputsAndInputs) {
  REQUIRE_SHARED("bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt");
  HostFacts f = Capture("gpu007", {{"bonding-bond0.txt", "bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt"}});
  fs::path ndjson = fs::temp_directory_path() / fmt::format("railyard-doctor-{}.ndjson", ::getpid());
  {
    std::ofstream out(ndjson);
    out << ToJson(f).dump() << "\n\n" << ToJson(f).dump() << "\n";
  }
  Doctor doctor({});
  int hosts = 0;
  ForEachFacts({ndjson.string()}, [&](HostFacts&& h) {
    ++hosts;
    doctor.AddHost(h);
  });
  EXPECT_EQ(hosts, 2);
  DoctorReport r = doctor.Finish();
  nlohmann::json j = nlohmann::json::parse(DoctorJson(r));
  EXPECT_EQ(j["schema"], "railyard.findings/1");
  EXPECT_EQ(j["findings"][0]["host"], "gpu007");
  EXPECT_EQ(j["summary"]["hosts"], 2);
  EXPECT_NE(DoctorJunit(r).find("<failure type=\"error\""), std::string::npos);
  EXPECT_NE(DoctorPrometheus(r).find("railyard_doctor_host_rule_findings{host=\"gpu007\",rule=\"bond-lacp-not-negotiated\"} 2"),
            std::string::npos);  // the same host twice
  EXPECT_NE(DoctorPrometheus(r).find("railyard_doctor_rule_findings{rule=\"link-down\",severity=\"error\"} 0"),
            std::string::npos);
  // A truncated line names file and line.
  {
    std::ofstream out(ndjson);
    out << ToJson(f).dump() << "\n" << ToJson(f).dump().substr(0, 50) << "\n";
  }
  try {
    ForEachFacts({ndjson.string()}, [](HostFacts&&) {});
    FAIL();
  } catch (const FactsInputError& e) {
    EXPECT_NE(std::string(e.what()).find(".ndjson:2: not JSON"), std::string::npos) << e.what();
  }
  // What a gather tool prints instead of NDJSON is named, with where it broke and how to gather.
  auto error_of = [&](const std::string& text) -> std::string {
    {
      std::ofstream out(ndjson);
      out << text;
    }
    try {
      ForEachFacts({ndjson.string()}, [](HostFacts&&) {});
    } catch (const FactsInputError& e) {
      return e.what();
    }
    return "";
  };
  const std::string host = ToJson(f).dump();
  std::string e = error_of("---------------\ngpu001\n---------------\n" + host + "\n");
  EXPECT_NE(e.find(".ndjson:1:2: neither one JSON document nor NDJSON: `clush -b`"), std::string::npos) << e;
  e = error_of("gpu001: " + host + "\ngpu002: " + host + "\n");
  EXPECT_NE(e.find("node prefix ('gpu001: {')"), std::string::npos) << e;
  e = error_of(ToJson(f).dump(2).substr(0, 200));  // a pretty document cut short: the line it ends on
  EXPECT_NE(e.find("NDJSON (truncated?)"), std::string::npos) << e;
  EXPECT_EQ(e.find(".ndjson:1:"), std::string::npos) << e;
  fs::remove(ndjson);
  EXPECT_THROW(ForEachFacts({"/nonexistent.json"}, [](HostFacts&&) {}), FactsInputError);
}

// Every rule the doctor registers (host, fleet, plan and switch rules), as a set.
std::set<std::string> AllRuleIds() { return {KnownRuleIds().begin(), KnownRuleIds().end()}; }

TEST(Doctor, EveryRuleHasADocPage) {
  const std::set<std::string> ids = AllRuleIds();
  for (const std::string& id : ids) {
    EXPECT_TRUE(fs::exists(fs::path(RAILYARD_SOURCE_DIR) / "docs/rules" / (id + ".md"))) << id;
  }
}

// Every policy key is read by rules that exist, and each of those rules' pages names the key: a user
// reading why a rule fired learns which key moves it. The default each key declares parses back as
// itself (what --list-policy prints is a value a policy file may hold).
TEST(Doctor, EveryPolicyKeyIsNamedOnItsRulesPages) {
  const std::set<std::string> ids = AllRuleIds();
  std::set<std::string> names;
  for (const PolicyKeyInfo* k : PolicyKeys()) {
    EXPECT_TRUE(names.insert(k->name).second) << k->name << " declared twice";
    EXPECT_FALSE(k->read_by.empty()) << k->name << " is read by no rule";
    EXPECT_FALSE(k->meaning.empty() || k->expect.empty()) << k->name;
    for (const std::string& rule : k->read_by) {
      ASSERT_TRUE(ids.count(rule)) << k->name << ": no rule " << rule;
      std::ifstream in(fs::path(RAILYARD_SOURCE_DIR) / "docs/rules" / (rule + ".md"));
      const std::string page(std::istreambuf_iterator<char>(in), {});
      const bool named =
          page.find("`" + k->name + "`") != std::string::npos || page.find("`" + k->name + ":") != std::string::npos;
      EXPECT_TRUE(named) << "docs/rules/" << rule << ".md does not name " << k->name;
    }
    const std::string fallback = k->fallback == "(none)" ? "" : k->fallback;
    if (!fallback.empty()) {
      EXPECT_NO_THROW(ParsePolicy(k->name + ": " + fallback + "\n", "defaults.yaml")) << k->name << ": " << fallback;
    }
  }
  for (const std::string& global : PolicyFileKeys()) EXPECT_FALSE(names.count(global)) << global;
  const std::string listing = "\n" + PolicyListing();
  for (const std::string& name : names) EXPECT_NE(listing.find("\n" + name + ": "), std::string::npos) << name;
}

// Every rule id named anywhere exists: a symptom step naming an unknown rule throws (walked here on empty
// facts), and every page in docs/rules is a rule's.
TEST(Doctor, EveryRuleIdNamedAnywhereExists) {
  for (const Symptom& s : Symptoms()) EXPECT_NO_THROW(RunSymptom(s.id, HostFacts{}, DoctorPolicy{})) << s.id;
  const std::set<std::string> ids = AllRuleIds();
  for (const auto& page : fs::directory_iterator(fs::path(RAILYARD_SOURCE_DIR) / "docs/rules")) {
    EXPECT_TRUE(ids.count(page.path().stem().string())) << page.path() << " documents no rule";
  }
}

// docs/doctor.md's overview of the rules names every rule, and names nothing that is not one; every
// link to a rule page anywhere in the docs leads to a rule.
TEST(Doctor, TheDocsNameEveryRuleAndNoOther) {
  const std::set<std::string> ids = AllRuleIds();
  auto read = [](const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  std::string doc = read(fs::path(RAILYARD_SOURCE_DIR) / "docs/doctor.md");
  const size_t start = doc.find("\n## Rules");
  ASSERT_NE(start, std::string::npos);
  std::string section = doc.substr(start + 1, doc.find("\n## ", start + 1) - start - 1);
  section = std::regex_replace(section, std::regex("`[^`]*`"), "");  // options and commands
  std::set<std::string> named;
  const std::regex id("(^|[^-\\w/])([a-z0-9]+(-[a-z0-9]+)+)(?![-\\w/])");
  for (auto it = std::sregex_iterator(section.begin(), section.end(), id); it != std::sregex_iterator(); ++it)
    named.insert((*it)[2]);
  for (const std::string& n : named) EXPECT_TRUE(ids.count(n)) << "docs/doctor.md names '" << n << "', which is no rule";
  for (const std::string& r : ids) EXPECT_TRUE(named.count(r)) << "docs/doctor.md's Rules section does not name " << r;
  std::vector<fs::path> pages = {fs::path(RAILYARD_SOURCE_DIR) / "README.md"};
  for (const auto& e : fs::recursive_directory_iterator(fs::path(RAILYARD_SOURCE_DIR) / "docs")) {
    if (e.path().extension() == ".md") pages.push_back(e.path());
  }
  const std::regex link("rules/([a-z0-9-]+)\\.md");
  for (const fs::path& page : pages) {
    const std::string text = read(page);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
      EXPECT_TRUE(ids.count((*it)[1])) << page << " links to rules/" << (*it)[1] << ".md, which is no rule";
    }
  }
}

TEST(DoctorPolicy, ParsesAndRejectsWithTheLine) {
  DoctorPolicy p = ParsePolicy(
      "ethernet_mtu: 4200\nroce_priority: 5\ndisabled_rules: [bond-active-backup]\n"
      "severity: {mtu-not-jumbo: error}\nfirmware_baseline: {MT_0000000834: 28.39.1002}\n",
      "p.yaml");
  // The values land in the slots of the keys the rules declared (rules_config.cc, rules_roce.cc).
  auto value = [&](const std::string& name) -> PolicyValue {
    for (const PolicyKeyInfo* k : PolicyKeys()) {
      if (k->name == name && k->id < p.values.size() && p.values[k->id]) return *p.values[k->id];
    }
    ADD_FAILURE() << name << " was not set";
    return false;
  };
  EXPECT_EQ(std::get<uint32_t>(value("ethernet_mtu")), 4200u);
  EXPECT_EQ(std::get<int>(value("roce_priority")), 5);
  EXPECT_TRUE(p.disabled_rules.count("bond-active-backup"));
  EXPECT_EQ(p.severity.at("mtu-not-jumbo"), Severity::kError);
  try {
    ParsePolicy("ethernet_mtu: 9000\nroce_prority: 3\n", "p.yaml");
    FAIL();
  } catch (const PolicyError& e) {
    EXPECT_STREQ(e.what(), "p.yaml:2:1: roce_prority: unknown key; did you mean 'roce_priority'?");
    // An InputError: where and which key, as fields too.
    EXPECT_EQ(e.file(), "p.yaml");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 1);
    EXPECT_EQ(e.key(), "roce_prority");
  }
  EXPECT_THROW(ParsePolicy("roce_priority: 9\n", "p.yaml"), PolicyError);
  try {
    ParsePolicy("disabled_rules: [no-nvidia-nic, bond-active-backpu]\n", "p.yaml");
    FAIL() << "a misspelt rule id disables nothing: refused";
  } catch (const PolicyError& e) {
    EXPECT_STREQ(e.what(), "p.yaml:1:33: disabled_rules: no rule \"bond-active-backpu\" (did you mean bond-active-backup?)");
  }
  EXPECT_THROW(ParsePolicy("severity: {mtu-not-jumb0-x: error}\n", "p.yaml"), PolicyError);
  EXPECT_THROW(ParsePolicy("ethernet_mtu: big\n", "p.yaml"), PolicyError);
  EXPECT_THROW(ParsePolicy("[1, 2]\n", "p.yaml"), PolicyError);
  EXPECT_LT(CompareVersions("28.39.1002", "28.40.1000"), 0);
  EXPECT_EQ(CompareVersions("28.39.1002", "28.39.1002"), 0);
  EXPECT_GT(CompareVersions("16.35.4030", "16.35.2000"), 0);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// The counters rules declare (doctor/counter_read.h) and kept_counters.csv's read_by agree both ways:
// every declared counter is kept and names its rule, every read_by is a rule's declaration, and each
// declaring rule exists. A rule cannot read a counter the collector drops; the file claims no reader.
TEST(KeptCounters, EveryCounterARuleReadsIsKeptAndNamesIt) {
  std::set<std::string> rules;
  for (const HostRule& r : HostRules()) rules.insert(r.id);
  std::set<std::pair<std::string, std::string>> declared;  // counter, rule
  for (const CounterRead* read : CounterReads()) {
    EXPECT_TRUE(rules.count(read->rule)) << read->rule << " declares counters but is no rule";
    for (const std::string& counter : read->counters) {
      EXPECT_TRUE(IsKeptCounter(counter)) << read->rule << " reads " << counter << ", which the collector does not keep";
      declared.insert({counter, read->rule});
    }
  }
  std::set<std::pair<std::string, std::string>> listed;
  CsvTable t = ParseCsv(EmbeddedFileText("kept_counters.csv"), "kept_counters.csv");
  for (const CsvRow& r : t.rows) {
    for (std::string_view rule : SplitWords(r.fields[static_cast<size_t>(t.Column("read_by"))]))
      listed.insert({r.fields[0], std::string(rule)});
  }
  EXPECT_EQ(listed, declared) << "kept_counters.csv's read_by and the rules' CounterRead declarations differ";
  EXPECT_GE(declared.size(), 2u);  // rx-drops-high reads two
}

}  // namespace
}  // namespace railyard
