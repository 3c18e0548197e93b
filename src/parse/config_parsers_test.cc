// dmesg, nmcli and ifcfg on every real sample in tests/fixtures.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "parse/dmesg.h"
#include "parse/fixtures.h"
#include "parse/netconfig.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

const KernelEvent* First(const KernelLog& log, KernelEventKind kind) {
  for (const KernelEvent& e : log.events) {
    if (e.kind == kind) return &e;
  }
  return nullptr;
}

TEST(Dmesg, PcieBandwidthLimitedNamesTheLimitingLink) {
  auto path = FixturePath("dmesg/cx6dx-pcie-bandwidth-limited-x8-gen3.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  KernelLog log = ParseDmesg(ReadText(path));
  const KernelEvent* e = First(log, KernelEventKind::kPcieBandwidthLimited);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->device, "0000:b3:00.1");
  EXPECT_EQ(e->values.at("available_gbps"), "63.008");
  EXPECT_EQ(e->values.at("capable_gbps"), "252.048");
  EXPECT_EQ(e->values.at("limited_by"), "8 GT/s x8 link");
  EXPECT_EQ(e->values.at("limiting_device"), "0000:b2:00.0");
  EXPECT_NEAR(e->timestamp, 10380.315885, 1e-6);
}

TEST(Dmesg, ProbeFailuresAndFirmwareTimeout) {
  for (const char* f :
       {"dmesg/cx4lx-handle-hca-cap-failed-probe-error-22.txt", "dmesg/mlx5-fw-pre-initializing-timeout-probe-failed.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  KernelLog cap = ParseDmesg(ReadText(FixturePath("dmesg/cx4lx-handle-hca-cap-failed-probe-error-22.txt")));
  const KernelEvent* probe = First(cap, KernelEventKind::kProbeFailed);
  ASSERT_TRUE(probe);
  EXPECT_EQ(probe->device, "0000:03:00.0");  // named in the message, not the prefix
  EXPECT_EQ(probe->values.at("error"), "-22");
  EXPECT_EQ(First(cap, KernelEventKind::kFirmwareVersion)->values.at("version"), "14.32.1010");
  KernelLog timeout = ParseDmesg(ReadText(FixturePath("dmesg/mlx5-fw-pre-initializing-timeout-probe-failed.txt")));
  EXPECT_TRUE(First(timeout, KernelEventKind::kFirmwareTimeout));
  EXPECT_EQ(First(timeout, KernelEventKind::kLoadFailed)->values.at("error"), "-16");
}

TEST(Dmesg, SriovAndUnknownHeaderAndHealthyProbe) {
  for (const char* f : {"dmesg/cx5-sriov-enable-failed-unknown-header-type-7f.txt",
                        "dmesg/cx5-arm64-probe-ok-slot-power-pcie-bw-truncated.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  KernelLog sriov = ParseDmesg(ReadText(FixturePath("dmesg/cx5-sriov-enable-failed-unknown-header-type-7f.txt")));
  EXPECT_EQ(First(sriov, KernelEventKind::kSriovFailed)->values.at("error"), "-5");
  const KernelEvent* header = First(sriov, KernelEventKind::kUnknownHeaderType);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->driver, "pci");
  KernelLog ok = ParseDmesg(ReadText(FixturePath("dmesg/cx5-arm64-probe-ok-slot-power-pcie-bw-truncated.txt")));
  EXPECT_FALSE(First(ok, KernelEventKind::kProbeFailed));
  const KernelEvent* bw = First(ok, KernelEventKind::kPcieBandwidth);
  ASSERT_TRUE(bw);
  EXPECT_EQ(bw->device, "0004:01:00.0");  // PCI domain 4 on arm64
  EXPECT_EQ(bw->values.at("link"), "8.0 GT/s PCIe x8 link");
  EXPECT_EQ(First(ok, KernelEventKind::kCableEvent)->values.at("event"), "Cable plugged");
  EXPECT_TRUE(ParseDmesg("[x] junk\nunrelated: message\n").events.empty());
}

KernelLog LogFixture(const std::string& name) {
  std::string text = ReadText(FixturePath("dmesg/" + name));
  EXPECT_FALSE(text.empty()) << name;
  return ParseDmesg(text);
}

size_t CountKind(const KernelLog& log, KernelEventKind kind) {
  return static_cast<size_t>(
      std::count_if(log.events.begin(), log.events.end(), [&](const KernelEvent& e) { return e.kind == kind; }));
}

TEST(Dmesg, FirmwareHealthInEveryForm) {
  // Raw dmesg with timestamps, a health dump with none (a kernel commit message), a hot-unplugged VF.
  KernelLog qemu = LogFixture("qemu-devel-cx6dx-mlx5-health-compromised-fw-internal-error-assert-var.txt");
  ASSERT_GE(CountKind(qemu, KernelEventKind::kFirmwareHealth), 2u);
  const KernelEvent* h = First(qemu, KernelEventKind::kFirmwareHealth);
  EXPECT_EQ(h->device, "0000:0d:00.0");
  EXPECT_EQ(h->values.at("function"), "poll_health");
  EXPECT_EQ(h->message, "device's health compromised - reached miss count");
  EXPECT_DOUBLE_EQ(h->timestamp, 445.937186);
  KernelLog bare = LogFixture("kernel-commit-cx5fw16-health-buffer-severity-no-timestamps.txt");
  EXPECT_GE(CountKind(bare, KernelEventKind::kFirmwareHealth), 1u);
  EXPECT_TRUE(bare.warnings.empty());
  KernelLog fatal = LogFixture("netdev-zpci-cx4lx-vf-hotunplug-fatal-error-health-compromised-cmd-timeouts.txt");
  EXPECT_EQ(First(fatal, KernelEventKind::kFirmwareHealth)->message, "Fatal error 1 detected");
}

TEST(Dmesg, SyslogJournalAndLevelPrefixes) {
  // syslog: "May 27 15:47:45 host kernel: mlx5_core ...": the wall-clock time is kept, the host dropped.
  KernelLog syslog = LogFixture("syslog-lkml-cx5-syslog-fqdn-host-pcie-sufficient-power-cable-plugged-bug.txt");
  const KernelEvent* fw = First(syslog, KernelEventKind::kFirmwareVersion);
  ASSERT_TRUE(fw);
  EXPECT_EQ(fw->time, "May 27 15:47:45");
  EXPECT_EQ(fw->device, "0000:81:00.0");
  EXPECT_EQ(First(syslog, KernelEventKind::kCableEvent)->values.at("event"), "Cable plugged");
  // "PCIe slot advertised sufficient power" is the healthy message: no slot-power event.
  EXPECT_EQ(CountKind(syslog, KernelEventKind::kSlotPowerInsufficient), 0u);
  // pstore's "<6>[    2.608284] mlx5_core ..." level prefix.
  KernelLog pstore = LogFixture("gpud-pstore-dmesg-raw-level-prefix-mlx5-cable-unplugged-link-up.txt");
  const KernelEvent* bw = First(pstore, KernelEventKind::kPcieBandwidth);
  ASSERT_TRUE(bw);
  EXPECT_EQ(bw->device, "0000:41:00.1");
  // dmesg -T and --time-format iso on this machine: kernel logs with no NIC lines, so no warning and no events.
  for (const char* f : {"this-machine-dmesg-T-no-nic.txt", "this-machine-dmesg-time-format-iso-no-nic.txt"}) {
    KernelLog log = LogFixture(f);
    EXPECT_TRUE(log.warnings.empty()) << f;
    EXPECT_GT(log.kernel_lines, 30) << f;
    EXPECT_TRUE(log.events.empty()) << f;
  }
}

TEST(Dmesg, AerAndDpcOnTheNicsPath) {
  KernelLog log = LogFixture("linux-pci-cx5-cx7-dpc-aer-uncorrected-mlx5-pci-slot-unavailable-recovery-failed.txt");
  const KernelEvent* e = First(log, KernelEventKind::kPcieError);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->driver, "pcieport");
  EXPECT_EQ(e->device, "0004:00:00.0");
  bool uncorrected = false;
  for (const KernelEvent& x : log.events) {
    if (x.kind == KernelEventKind::kPcieError && x.values.count("severity"))
      uncorrected |= x.values.at("severity").starts_with("Uncorrected");
  }
  EXPECT_TRUE(uncorrected);
  // pcieport lines that are not AER/DPC (bandwidth notices, hotplug) are not kept.
  for (const KernelEvent& x : log.events)
    EXPECT_TRUE(x.driver != "pcieport" || x.kind == KernelEventKind::kPcieError) << x.message;
}

TEST(Dmesg, TextThatIsNoKernelLogWarns) {
  KernelLog log = ParseDmesg(ReadText(FixturePath("bonding/active-backup-healthy-10g.txt")));
  EXPECT_TRUE(log.events.empty());
  ASSERT_EQ(log.warnings.size(), 1u);
  EXPECT_NE(log.warnings[0].message.find("kernel log"), std::string::npos);
  EXPECT_TRUE(ParseDmesg("").warnings.empty());
  // Every kernel-log sample in the corpus reads as one.
  for (const auto& entry : std::filesystem::directory_iterator(FixturePath("dmesg"))) {
    KernelLog l = ParseDmesg(ReadText(entry.path()));
    EXPECT_TRUE(l.warnings.empty()) << entry.path();
  }
}

TEST(Ifcfg, MalformedAssignmentsWarn) {
  // A real ifcfg file with one line mistyped in memory: "DEVICE=eth2" as "DEVICE==eth2".
  std::string text = ReadText(FixturePath("ifcfg/ifcfg-eth2-bond-slave-quoted-master.txt"));
  size_t at = text.find("DEVICE=");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + 7, "=");
  IfcfgFile f = ParseIfcfg(text);
  bool said = false;
  for (const ParseWarning& w : f.warnings) said |= w.message.find("'==' sets DEVICE") != std::string::npos;
  EXPECT_TRUE(said);
  IfcfgFile bad_name = ParseIfcfg("ONBOOT=yes\n2DEVICE=eth0\n");
  ASSERT_EQ(bad_name.warnings.size(), 1u);
  EXPECT_EQ(bad_name.warnings[0].line, 2);
  EXPECT_EQ(bad_name.values.count("2DEVICE"), 0u);
}

TEST(Nmcli, DeviceStatusAndShow) {
  for (const char* f : {"nmcli/device-status-centos7-bridge-and-lo-unmanaged.txt",
                        "nmcli/device-show-centos7-multi-device-unmanaged-state-10.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  auto status = ParseNmcli(ReadText(FixturePath("nmcli/device-status-centos7-bridge-and-lo-unmanaged.txt"))).rows;
  ASSERT_EQ(status.size(), 3u);
  EXPECT_EQ(status[1].device, "docker0");
  EXPECT_EQ(status[1].type, "bridge");
  EXPECT_EQ(status[1].state, "unmanaged");
  EXPECT_EQ(status[1].connection, "");  // "--"
  auto show = ParseNmcli(ReadText(FixturePath("nmcli/device-show-centos7-multi-device-unmanaged-state-10.txt"))).rows;
  ASSERT_EQ(show.size(), 3u);  // IP4/IP6 properties are not devices
  EXPECT_EQ(show[0].state_code, 100);
  EXPECT_EQ(show[0].state, "connected");
  EXPECT_EQ(show[0].mtu, 1500u);
  EXPECT_EQ(show[0].carrier, true);
  EXPECT_EQ(show[1].state_code, 10);  // unmanaged
  auto terse = ParseNmcli("ens1f0np0:ethernet:unmanaged:--\nib0:infiniband:connected:ib0\n").rows;
  ASSERT_EQ(terse.size(), 2u);
  EXPECT_EQ(terse[0].state, "unmanaged");
  EXPECT_EQ(terse[1].connection, "ib0");
}

TEST(Ifcfg, WhatTheLoadersIgnoreIsSaid) {
  auto path = FixturePath("ifcfg/ifcfg-enp0s25-commented-onboot-spaces-around-equals.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  IfcfgFile f = ParseIfcfg(ReadText(path));
  EXPECT_EQ(f.Get("BOOTPROTO"), "dhcp");
  EXPECT_EQ(f.Get("ONBOOT"), "");  // commented out: no ONBOOT at all
  EXPECT_EQ(f.Get("TYPE"), "");    // "TYPE = ..." is no assignment
  ASSERT_EQ(f.warnings.size(), 4u);
  EXPECT_EQ(f.warnings[2].line, 4);
  EXPECT_NE(f.warnings[2].message.find("commented out"), std::string::npos);
}

TEST(Ifcfg, BondsAndSlaves) {
  for (const char* f :
       {"ifcfg/ifcfg-bond0-active-backup-arp-monitor.txt", "ifcfg/ifcfg-bond0-balance-xor-bad-spacing-in-opts.txt",
        "ifcfg/ifcfg-eth2-bond-slave-quoted-master.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  IfcfgFile bond = ParseIfcfg(ReadText(FixturePath("ifcfg/ifcfg-bond0-active-backup-arp-monitor.txt")));
  EXPECT_EQ(bond.Get("ONBOOT"), "yes");
  EXPECT_EQ(bond.bonding_opts.at("mode"), "1");
  EXPECT_EQ(bond.bonding_opts.at("arp_ip_target"), "+10.11.96.1");
  EXPECT_TRUE(bond.warnings.empty());
  IfcfgFile bad = ParseIfcfg(ReadText(FixturePath("ifcfg/ifcfg-bond0-balance-xor-bad-spacing-in-opts.txt")));
  EXPECT_EQ(bad.bonding_opts.at("mode"), "balance-xor");
  ASSERT_EQ(bad.warnings.size(), 1u);
  EXPECT_NE(bad.warnings[0].message.find("primary = eth1"), std::string::npos) << bad.warnings[0].message;
  IfcfgFile slave = ParseIfcfg(ReadText(FixturePath("ifcfg/ifcfg-eth2-bond-slave-quoted-master.txt")));
  EXPECT_EQ(slave.Get("MASTER"), "bond0");  // quotes removed
  EXPECT_EQ(slave.Get("DEVICE"), "eth2");
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

std::string Netplan(const std::string& name) {
  return testing::ReadText(std::string(RAILYARD_SOURCE_DIR) + "/tests/fixtures/netplan/" + name);
}

const NetplanInterface* FindNetplan(const NetplanConfig& c, const std::string& name) {
  for (const NetplanInterface& i : c.interfaces) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

TEST(Netplan, ActiveBackupBondWithDhcp) {
  NetplanConfig c = ParseNetplan(Netplan("bonding.yaml"));
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(c.renderer, "networkd");
  ASSERT_EQ(c.interfaces.size(), 3u);
  const NetplanInterface* bond = FindNetplan(c, "bond0");
  ASSERT_TRUE(bond);
  EXPECT_EQ(bond->section, "bonds");
  EXPECT_EQ(bond->line, 8);
  EXPECT_EQ(bond->dhcp4, true);  // "yes"
  EXPECT_EQ(bond->members, (std::vector<std::string>{"enp3s0", "enp4s0"}));
  EXPECT_EQ(bond->parameters.at("mode"), "active-backup");
  EXPECT_EQ(bond->parameters.at("mii-monitor-interval"), "100");
  EXPECT_FALSE(FindNetplan(c, "enp3s0")->mtu.has_value());
}

TEST(Netplan, VlansOnARenamedInterface) {
  NetplanConfig c = ParseNetplan(Netplan("vlan.yaml"));
  EXPECT_TRUE(c.warnings.empty());
  const NetplanInterface* main = FindNetplan(c, "mainif");
  ASSERT_TRUE(main);
  EXPECT_EQ(main->match_mac, "de:ad:be:ef:ca:fe");
  EXPECT_EQ(main->set_name, "mainif");
  EXPECT_EQ(main->addresses, std::vector<std::string>{"10.3.0.5/23"});
  const NetplanInterface* v15 = FindNetplan(c, "vlan15");
  ASSERT_TRUE(v15);
  EXPECT_EQ(v15->vlan_id, 15);
  EXPECT_EQ(v15->link, "mainif");
  EXPECT_EQ(v15->addresses, std::vector<std::string>{"10.3.99.5/24"});
}

TEST(Netplan, SriovMtuAndHardwareVlan) {
  NetplanConfig c = ParseNetplan(Netplan("sriov_vlan.yaml"));
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(FindNetplan(c, "eno1")->mtu, 9000u);
  EXPECT_EQ(FindNetplan(c, "enp1s16f1")->link, "eno1");
  EXPECT_EQ(FindNetplan(c, "enp1s16f1")->addresses, std::vector<std::string>{"10.15.98.25/24"});  // "addresses :" key
  EXPECT_EQ(FindNetplan(c, "vlan2_hw")->renderer, "sriov");
  EXPECT_EQ(FindNetplan(c, "vlan2_hw")->vlan_id, 10);
}

TEST(Netplan, InfinibandMatchedByHardwareAddress) {
  NetplanConfig c = ParseNetplan(Netplan("infiniband.yaml"));
  ASSERT_EQ(c.interfaces.size(), 1u);
  EXPECT_EQ(c.interfaces[0].match_mac.size(), 59u);  // 20 bytes
  EXPECT_EQ(c.interfaces[0].dhcp4, true);
}

TEST(Netplan, BadInputWarnsWithTheLine) {
  NetplanConfig broken = ParseNetplan("network:\n  ethernets:\n    eth0: {mtu: [\n");
  ASSERT_EQ(broken.warnings.size(), 1u);
  EXPECT_NE(broken.warnings[0].message.find("not YAML"), std::string::npos);
  NetplanConfig typed = ParseNetplan("network:\n  ethernets:\n    eth0:\n      mtu: big\n      dhcp4: maybe\n");
  ASSERT_EQ(typed.warnings.size(), 2u);
  EXPECT_EQ(typed.warnings[0].line, 4);
  EXPECT_EQ(typed.warnings[0].message, "ethernets.eth0.mtu: not a number");
  EXPECT_EQ(typed.warnings[1].message, "ethernets.eth0.dhcp4: not a boolean");
  EXPECT_FALSE(ParseNetplan("hello: world\n").warnings.empty());
  EXPECT_FALSE(ParseNetplan(std::string(3000, '[')).warnings.empty());
  EXPECT_TRUE(ParseNetplan("network: {version: 2, ethernets: {a: &x {mtu: 1}, b: *x}}\n").warnings.empty());
}

}  // namespace
}  // namespace railyard
