// Rules for nodes beyond ConnectX, each on real outputs (tests/fixtures/*/other-nics, lsusb, SOURCES.md).
#include <gtest/gtest.h>

#include "doctor/rules.h"
#include "doctor/symptoms.h"
#include "facts/collect.h"
#include "parse/fixtures.h"

namespace railyard {
namespace {

std::string Fixture(const std::string& relative) {
  auto path = testing::FixturePath(relative);
  EXPECT_TRUE(std::filesystem::exists(path)) << path;
  return testing::ReadText(path);
}

std::vector<Finding> Doctor(const CollectInputs& in) { return RunHostRules(BuildHostFacts(in), DoctorPolicy{}); }

// Copies: the findings often come from a temporary.
std::vector<Finding> Of(const std::vector<Finding>& all, const std::string& rule) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

std::string Evidence(const Finding& f, const std::string& key) {
  for (const auto& [k, v] : f.evidence) {
    if (k == key) return v;
  }
  return {};
}

CollectInputs WithDmesg(const std::string& name) {
  CollectInputs in;
  in.hostname = "login01";
  in.dmesg = Fixture("dmesg/other-nics/" + name);
  return in;
}

TEST(OtherNicRules, R8169UnknownChipNamesTheChipTheDriverAndTheKernel) {
  CollectInputs in = WithDmesg("r8169-unknown-chip-xid-688.txt");
  in.kernel = "6.12.18-talos";
  auto found = Of(Doctor(in), "realtek-inbox-driver");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kError);
  EXPECT_NE(found[0].message.find("RTL8125D"), std::string::npos);
  EXPECT_NE(found[0].fix.find("r8125"), std::string::npos);
  EXPECT_NE(found[0].fix.find("6.13"), std::string::npos);
  EXPECT_TRUE(Of(Doctor(WithDmesg("r8169-unknown-chip-xid-6c0.txt")), "realtek-inbox-driver").size() == 1);
}

TEST(OtherNicRules, XidFcfIsADeadDeviceNotANewChip) {
  auto all = Doctor(WithDmesg("r8169-d3cold-xid-fcf.txt"));
  EXPECT_TRUE(Of(all, "realtek-inbox-driver").empty());
  auto probe = Of(all, "nic-probe-failed");
  ASSERT_EQ(probe.size(), 1u);
  EXPECT_NE(probe[0].message.find("D3cold"), std::string::npos);
  bool d3cold = false;
  for (const auto& [k, v] : probe[0].evidence) d3cold |= v.find("D3cold to D0") != std::string::npos;
  EXPECT_TRUE(d3cold);
}

TEST(OtherNicRules, Rtl8125FlappingOnR8169PointsAtTheVendorDriver) {
  // The flapping log's host did not post its lspci; the RTL8125 block of another host (same chip, driver r8169's
  // module list) is placed at the log's address, as collect joins them when both come from one host.
  CollectInputs in = WithDmesg("r8169-rtl8125-link-flapping-domain-0002.txt");
  std::string lspci = Fixture("lspci/other-nics/lspci-s-k-rtl8125-no-kernel-driver-in-use-modules-r8169-r8125-pve.txt");
  lspci = lspci.substr(lspci.find('\n') + 1);        // the prompt line
  lspci.replace(0, 7, "0002:01:00.0");               // "02:00.0" -> the flapping port's address
  lspci += "        Kernel driver in use: r8169\n";  // bound, as the log shows
  in.lspci = lspci;
  auto all = Doctor(in);
  auto found = Of(all, "realtek-inbox-driver");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("RTL8125"), std::string::npos);
  EXPECT_NE(found[0].fix.find("r8125"), std::string::npos);
  EXPECT_EQ(Evidence(found[0], "link_down_events"), "8");
  EXPECT_EQ(Of(all, "link-flapping").size(), 1u);
  // Without anything saying which chip it is, the flaps are link-flapping only.
  EXPECT_TRUE(Of(Doctor(WithDmesg("r8169-rtl8125-link-flapping-domain-0002.txt")), "realtek-inbox-driver").empty());
}

TEST(OtherNicRules, VendorDriverTimeoutsAreNotBlamedOnR8169) {
  auto all = Doctor(WithDmesg("r8125-netdev-watchdog.txt"));
  EXPECT_TRUE(Of(all, "realtek-inbox-driver").empty());
}

TEST(OtherNicRules, NicFirmwareMissingOncePerDevice) {
  auto found = Of(Doctor(WithDmesg("r8169-rtl8106e-firmware-missing.txt")), "nic-firmware-missing");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Evidence(found[0], "files"), "rtl_nic/rtl8106e-1.fw");
  EXPECT_EQ(found[0].object, "PCI 0000:02:00.0");
  EXPECT_EQ(Of(Doctor(WithDmesg("r8169-firmware-missing-debian-serial-console.txt")), "nic-firmware-missing").size(), 1u);
  auto usb = Of(Doctor(WithDmesg("usb-rtl8153b-superspeed-cfgselector.txt")), "nic-firmware-missing");
  ASSERT_EQ(usb.size(), 1u);
  EXPECT_EQ(usb[0].object, "USB 4-1:1.0");
}

TEST(OtherNicRules, WifiFirmwareGivesUpIsAnErrorAFallbackIsInfo) {
  auto gave_up = Of(Doctor(WithDmesg("iwlwifi-8000c-no-suitable-firmware.txt")), "wifi-firmware-missing");
  ASSERT_EQ(gave_up.size(), 1u);
  EXPECT_EQ(gave_up[0].severity, Severity::kError);
  EXPECT_NE(gave_up[0].message.find("iwlwifi-8000C-22"), std::string::npos);
  auto be200 = Of(Doctor(WithDmesg("iwlwifi-be200-no-suitable-firmware.txt")), "wifi-firmware-missing");
  ASSERT_EQ(be200.size(), 1u);
  EXPECT_NE(be200[0].message.find("iwlwifi-gl-c0-fm-c0-93"), std::string::npos);
  auto fallback = Of(Doctor(WithDmesg("iwlwifi-8000c-fallback-loaded.txt")), "wifi-firmware-missing");
  ASSERT_EQ(fallback.size(), 1u);
  EXPECT_EQ(fallback[0].severity, Severity::kInfo);
  // Wi-Fi files are not NIC firmware findings too.
  EXPECT_TRUE(Of(Doctor(WithDmesg("iwlwifi-8000c-no-suitable-firmware.txt")), "nic-firmware-missing").empty());
}

TEST(OtherNicRules, ProbeFailuresWithTheirCauseAndFix) {
  auto e1000e = Of(Doctor(WithDmesg("e1000e-nvm-checksum-probe-failed.txt")), "nic-probe-failed");
  ASSERT_EQ(e1000e.size(), 1u);
  EXPECT_EQ(Evidence(e1000e[0], "cause"), "The NVM Checksum Is Not Valid");
  EXPECT_NE(e1000e[0].message.find("EIO"), std::string::npos);
  EXPECT_NE(e1000e[0].fix.find("NVM"), std::string::npos);
  auto ice = Of(Doctor(WithDmesg("ice-msix-exhausted-probe-failed.txt")), "nic-probe-failed");
  ASSERT_EQ(ice.size(), 1u);
  EXPECT_NE(ice[0].fix.find("interrupt vectors"), std::string::npos);
  EXPECT_EQ(Of(Doctor(WithDmesg("igc-probe-with-driver-failed.txt")), "nic-probe-failed").size(), 1u);
  EXPECT_EQ(Of(Doctor(WithDmesg("ixgbe-adapter-removed-probe-failed.txt")), "nic-probe-failed").size(), 1u);
  EXPECT_EQ(Of(Doctor(WithDmesg("ice-probe-failed-enomem.txt")), "nic-probe-failed").size(), 1u);
  // Not the NVIDIA rule's business.
  EXPECT_TRUE(Of(Doctor(WithDmesg("e1000e-nvm-checksum-probe-failed.txt")), "nic-firmware-not-running").empty());
}

TEST(OtherNicRules, AFunctionWithModulesButNoDriverInUse) {
  CollectInputs in;
  in.lspci = Fixture("lspci/other-nics/lspci-s-k-rtl8125-no-kernel-driver-in-use-modules-r8169-r8125-pve.txt");
  auto all = Doctor(in);
  auto found = Of(all, "nic-probe-failed");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Evidence(found[0], "kernel_modules"), "r8169, r8125");
  // No ConnectX here: said, with the count of what was checked instead.
  auto none = Of(all, "no-nvidia-nic");
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0].severity, Severity::kInfo);
  EXPECT_NE(none[0].message.find("no NVIDIA NIC; 1 other NIC"), std::string::npos);
}

TEST(OtherNicRules, UsbNicAtHighSpeedFromTheKernelLogAlone) {
  auto found = Of(Doctor(WithDmesg("usb-r8156-not-running-at-top-speed.txt")), "usb-nic-below-usb3");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].object, "USB 1-10");
  EXPECT_TRUE(Of(Doctor(WithDmesg("usb-rtl8153b-superspeed-cfgselector.txt")), "usb-nic-below-usb3").empty());
}

TEST(OtherNicRules, UsbNicNetdevJoinedToItsEnumerationAndId) {
  CollectInputs in = WithDmesg("usb-rtl8156-cdc_ncm-ehci.txt");
  NetdevSnapshot s;
  s.name = "enx00e04c68001d";  // as ip link lists it after the rename the log shows
  s.kind = "other";
  s.operstate = "up";
  in.netdevs.push_back(s);
  HostFacts f = BuildHostFacts(in);
  ASSERT_EQ(f.netdevs.size(), 1u);
  EXPECT_EQ(f.netdevs[0].usb_device, "2-1.1");
  EXPECT_EQ(f.netdevs[0].usb_speed_mbps, 480);
  EXPECT_EQ(f.netdevs[0].usb_id, "0bda:8156");
  auto found = Of(RunHostRules(f, DoctorPolicy{}), "usb-nic-below-usb3");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("RTL8156"), std::string::npos);
}

TEST(OtherNicRules, UsbNicFromLsusbAndEthtoolBusInfo) {
  CollectInputs in;
  in.lsusb = Fixture("lsusb/lsusb-t-2digit-r8152-rtl8153-480M-usb3-root-empty-dell-inspiron.txt");
  in.ethtool_info["enx0"] =
      "driver: r8152\nversion: v1.12.13\nfirmware-version: rtl8153a-4 v2 02/07/20\nbus-info: usb-0000:00:14.0-1\n";
  in.ethtool["enx0"] = Fixture("ethtool/other-nics/ethtool-rtl8125-2500-capable-partner-1000-proxmox.txt");
  HostFacts f = BuildHostFacts(in);
  ASSERT_EQ(f.netdevs.size(), 1u);
  EXPECT_EQ(f.netdevs[0].usb_device, "1-1");
  EXPECT_EQ(f.netdevs[0].usb_speed_from, "lsusb -t");
  auto found = Of(RunHostRules(f, DoctorPolicy{}), "usb-nic-below-usb3");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("2500"), std::string::npos);
}

TEST(OtherNicRules, LinkBelowCapabilityForOtherNics) {
  CollectInputs in;
  NetdevSnapshot s;
  s.name = "eth0";
  s.kind = "physical";
  s.operstate = "up";
  in.netdevs.push_back(s);
  in.ethtool["eth0"] = Fixture("ethtool/other-nics/ethtool-fec-imx6-both-advertise-1000-linked-at-100-EXCERPT.txt");
  in.ethtool_info["eth0"] = "driver: fec\nbus-info: 2188000.ethernet\n";
  auto found = Of(Doctor(in), "link-below-capability");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(Evidence(found[0], "best_common_mbps"), "1000");
  // A 2.5G port whose partner stops at 1G is not below capability.
  in.ethtool["eth0"] = Fixture("ethtool/other-nics/ethtool-rtl8125-2500-capable-partner-1000-proxmox.txt");
  EXPECT_TRUE(Of(Doctor(in), "link-below-capability").empty());
}

TEST(OtherNicRules, OtherRdmaAdaptersFromIbvDevinfo) {
  CollectInputs in;
  in.ibv_devinfo = Fixture("rdma-other/ibv_devinfo-v-broadcom-bnxt_re-port-down-disabled-ucx-EXCERPT.txt");
  HostFacts f = BuildHostFacts(in);
  ASSERT_EQ(f.rdma.size(), 1u);  // the excerpt starts below hca_id: a device without a name, said
  ASSERT_EQ(f.rdma[0].ca.ports.size(), 1u);
  EXPECT_EQ(f.rdma[0].ca.ports[0].state, "Down");
  EXPECT_EQ(f.rdma[0].ca.ports[0].physical_state, "Disabled");
  EXPECT_EQ(f.rdma[0].ca.ports[0].rate, 0u);  // "1X", "2.5 Gbps" on a down port are placeholders, not a rate
  EXPECT_EQ(f.rdma[0].ca.ports[0].link_layer, "Ethernet");
  in.ibv_devinfo = Fixture("rdma-other/ibv_devinfo-v-huawei-hns-hrn0_0-EXCERPT.txt");
  f = BuildHostFacts(in);
  ASSERT_EQ(f.rdma.size(), 1u);
  EXPECT_EQ(f.rdma[0].ca.name, "hrn0_0");
  EXPECT_EQ(f.rdma[0].ca.firmware_version, "3.5.0.3");
  in.ibv_devinfo = Fixture("rdma-other/ibv_devinfo-aws-efa_0-transport-unspecified.txt");
  f = BuildHostFacts(in);
  ASSERT_EQ(f.rdma.size(), 1u);
  EXPECT_EQ(f.rdma[0].ca.name, "efa_0");
  EXPECT_EQ(f.rdma[0].ca.ports[0].state, "Active");
  in.ibv_devinfo = Fixture("rdma-other/ibv_devinfo-v-bnxt_re2-gid-types-rdma-core-patch-v7.txt");
  f = BuildHostFacts(in);
  ASSERT_EQ(f.rdma.size(), 1u);
  EXPECT_EQ(f.rdma[0].ca.firmware_version, "216.0.220.0");
}

TEST(OtherNicRules, UsbAdapterFromLsusbAloneWithItsId) {
  CollectInputs in;
  // lsusb -tv: the ID line under the adapter names an RTL8153 (USB 3), on a 480M link.
  const std::string tree =
      "/:  Bus 01.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/12p, 480M\n"
      "    ID 1d6b:0002 Linux Foundation 2.0 root hub\n"
      "    |__ Port 1: Dev 4, If 0, Class=Vendor Specific Class, Driver=r8152, 480M\n"
      "        ID 0bda:8153 Realtek Semiconductor Corp. RTL8153 Gigabit Ethernet Adapter\n";
  in.lsusb.emplace(tree);
  auto found = Of(Doctor(in), "usb-nic-below-usb3");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].object, "USB 1-1");
  // The real tree without ids: an r8152 could be a USB 2.0 RTL8152, so nothing is claimed.
  in.lsusb.emplace(Fixture("lsusb/lsusb-t-2digit-r8152-rtl8153-480M-usb3-root-empty-dell-inspiron.txt"));
  EXPECT_TRUE(Of(Doctor(in), "usb-nic-below-usb3").empty());
}

TEST(OtherNicRules, EthtoolDriverInfoOfOtherVendors) {
  // Every real `ethtool -i` of another vendor's NIC yields its driver and bus; a USB adapter's bus-info is not a
  // PCI address, and an empty firmware-version stays empty.
  for (const auto& entry : std::filesystem::directory_iterator(testing::FixturePath("ethtool/other-nics"))) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with("ethtool-i-")) continue;
    CollectInputs in;
    in.ethtool_info["eth9"] = testing::ReadText(entry.path());
    HostFacts f = BuildHostFacts(in);
    ASSERT_EQ(f.netdevs.size(), 1u) << name;
    EXPECT_FALSE(f.netdevs[0].driver.empty()) << name;
    EXPECT_FALSE(f.netdevs[0].bus_info.empty()) << name;
    if (name.find("cdc_ncm") != std::string::npos) {
      EXPECT_EQ(f.netdevs[0].bus_info, "usb-0000:01:00.0-2");
      EXPECT_EQ(f.netdevs[0].pci_bdf, "");  // not a PCI function
    }
    if (name.find("r8169-2.3LK") != std::string::npos) {
      EXPECT_EQ(f.netdevs[0].firmware_version, "");
    }
    if (name.find("bnxt_en") != std::string::npos) {
      EXPECT_EQ(f.netdevs[0].firmware_version, "220.0.59.0/pkg 220.0.83.0");
    }
  }
}

TEST(OtherNicRules, E810WithModulesButNoDriverAfterItsProbeFailed) {
  // The same host's lspci -vvv (ice listed, not in use) and kernel log (probe failed: MSI-X exhausted): one finding.
  CollectInputs in = WithDmesg("ice-msix-exhausted-probe-failed.txt");
  in.lspci =
      Fixture("lspci/other-nics/lspci-vvv-e810-c-kernel-modules-ice-NO-driver-in-use-probe-failed-256cpu-space-stuffed.txt");
  HostFacts f = BuildHostFacts(in);
  ASSERT_FALSE(f.other_pci.empty());
  EXPECT_EQ(f.other_pci[0].kernel_modules, std::vector<std::string>{"ice"});
  auto found = Of(RunHostRules(f, DoctorPolicy{}), "nic-probe-failed");
  // e2:00.0 has no driver (lspci) and e2:00.1's probe failed (dmesg): two functions, each once.
  ASSERT_EQ(found.size(), 2u);
  EXPECT_NE(found[0].fix.find("interrupt vectors"), std::string::npos);
}

TEST(OtherNicRules, KernelDriverMismatchOnRealLogs) {
  for (const char* name : {"dmesg/mlx5-vdpa-inbox-module-disagrees-with-doca-mlx5-core-symbols-EXCERPT.txt",
                           "dmesg/nv-peer-mem-built-against-old-kernel-ofa-kernel-unknown-symbol.txt",
                           "dmesg/ko2iblnd-lustre-built-against-other-ofed-syslog-EXCERPT.txt"}) {
    CollectInputs in;
    in.dmesg = Fixture(name);
    auto found = Of(Doctor(in), "kernel-driver-mismatch");
    ASSERT_EQ(found.size(), 1u) << name;  // one per module, however many symbols
  }
  CollectInputs vdpa;
  vdpa.dmesg = Fixture("dmesg/mlx5-vdpa-inbox-module-disagrees-with-doca-mlx5-core-symbols-EXCERPT.txt");
  auto found = Of(Doctor(vdpa), "kernel-driver-mismatch");
  EXPECT_EQ(found[0].object, "module mlx5_vdpa");
  EXPECT_EQ(Evidence(found[0], "symbols"), "mlx5_db_free, mlx5_flow_table_id, mlx5_query_nic_vport_mtu");
  // A module missing some other subsystem's symbol is not this rule's business.
  CollectInputs other;
  other.dmesg = std::string("[  1.000000] snd_foo: Unknown symbol snd_pcm_new (err -22)\n");
  EXPECT_TRUE(Of(Doctor(other), "kernel-driver-mismatch").empty());
}

StepStatus StepNamed(const std::vector<StepResult>& steps, const std::string& prefix) {
  for (const StepResult& s : steps) {
    if (s.step.starts_with(prefix)) return s.status;
  }
  ADD_FAILURE() << "no step " << prefix;
  return StepStatus::kUnknown;
}

TEST(OtherNicRules, SymptomWalksReachTheseHosts) {
  HostFacts probe = BuildHostFacts(WithDmesg("e1000e-nvm-checksum-probe-failed.txt"));
  EXPECT_EQ(StepNamed(RunSymptom("no-network-after-boot", probe, DoctorPolicy{}), "every other NIC"), StepStatus::kFailed);
  CollectInputs unbound;
  unbound.lspci = Fixture("lspci/other-nics/lspci-s-k-rtl8125-no-kernel-driver-in-use-modules-r8169-r8125-pve.txt");
  EXPECT_EQ(StepNamed(RunSymptom("device-missing", BuildHostFacts(unbound), DoctorPolicy{}), "every other NIC"),
            StepStatus::kFailed);
  HostFacts usb = BuildHostFacts(WithDmesg("usb-r8156-not-running-at-top-speed.txt"));
  EXPECT_EQ(StepNamed(RunSymptom("bandwidth-below-rated", usb, DoctorPolicy{}), "USB adapters"), StepStatus::kFailed);
  HostFacts healthy = BuildHostFacts(WithDmesg("usb-rtl8153b-superspeed-cfgselector.txt"));
  EXPECT_EQ(StepNamed(RunSymptom("bandwidth-below-rated", healthy, DoctorPolicy{}), "USB adapters"), StepStatus::kPassed);
  // Nothing to read: unknown, never passed.
  EXPECT_EQ(StepNamed(RunSymptom("device-missing", HostFacts{}, DoctorPolicy{}), "every other NIC"), StepStatus::kUnknown);
}

}  // namespace
}  // namespace railyard
