// The kernel log of drivers beyond ConnectX, on real samples (tests/fixtures/dmesg/other-nics, SOURCES.md):
// Realtek r8169/r8125, USB Ethernet adapters, iwlwifi, and probe failures of any NIC driver.
#include <gtest/gtest.h>

#include "parse/dmesg.h"
#include "parse/fixtures.h"
#include "parse/nic_drivers.h"

namespace railyard {
namespace {

KernelLog Read(const std::string& name) {
  auto path = testing::FixturePath("dmesg/other-nics/" + name);
  EXPECT_TRUE(std::filesystem::exists(path)) << path;
  return ParseDmesg(testing::ReadText(path));
}

std::vector<const KernelEvent*> OfKind(const KernelLog& log, KernelEventKind kind) {
  std::vector<const KernelEvent*> out;
  for (const KernelEvent& e : log.events) {
    if (e.kind == kind) out.push_back(&e);
  }
  return out;
}

TEST(DmesgOtherNics, RealtekFirmwareMissingNamesTheFileOnce) {
  KernelLog log = Read("r8169-rtl8106e-firmware-missing.txt");
  EXPECT_TRUE(log.warnings.empty());
  auto missing = OfKind(log, KernelEventKind::kFirmwareMissing);
  ASSERT_EQ(missing.size(), 2u);  // "Direct firmware load ..." and r8169's own "Unable to load firmware ..."
  EXPECT_EQ(missing[0]->values.at("file"), "rtl_nic/rtl8106e-1.fw");
  EXPECT_EQ(missing[0]->values.at("error"), "-2");
  EXPECT_EQ(missing[1]->values.at("file"), "rtl_nic/rtl8106e-1.fw");
  EXPECT_EQ(missing[1]->values.at("error"), "-2");
  EXPECT_EQ(missing[0]->driver, "r8169");
  EXPECT_EQ(missing[0]->device, "0000:02:00.0");
}

TEST(DmesgOtherNics, DebianFirmwareClassBehindASerialConsolePrefix) {
  KernelLog log = Read("r8169-firmware-missing-debian-serial-console.txt");
  auto missing = OfKind(log, KernelEventKind::kFirmwareMissing);
  ASSERT_EQ(missing.size(), 3u);
  for (const KernelEvent* e : missing) EXPECT_EQ(e->values.at("file"), "rtl_nic/rtl8168h-2.fw");
  EXPECT_NEAR(missing[0]->timestamp, 11.724874, 1e-6);
}

TEST(DmesgOtherNics, OldKernelFirmwarePatchAndLowerCaseLinkDown) {
  KernelLog log = Read("r8169-firmware-patch-missing-old-kernel.txt");
  auto missing = OfKind(log, KernelEventKind::kFirmwareMissing);
  ASSERT_EQ(missing.size(), 2u);
  EXPECT_EQ(missing[1]->values.at("file"), "rtl_nic/rtl8168e-2.fw");
  EXPECT_EQ(missing[1]->values.at("netdev"), "eth0");
  auto links = OfKind(log, KernelEventKind::kLinkEvent);
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0]->values.at("state"), "down");
}

TEST(DmesgOtherNics, UnknownChipXidAndTheDeadDeviceXid) {
  KernelLog a = Read("r8169-unknown-chip-xid-688.txt");
  auto chips = OfKind(a, KernelEventKind::kUnknownChip);
  ASSERT_EQ(chips.size(), 1u);
  EXPECT_EQ(chips[0]->values.at("xid"), "688");
  EXPECT_EQ(chips[0]->values.at("error"), "-ENODEV");
  ASSERT_NE(RealtekChipByXid("688"), nullptr);
  EXPECT_EQ(RealtekChipByXid("688")->chip, "RTL8125D");
  KernelLog b = Read("r8169-d3cold-xid-fcf.txt");
  chips = OfKind(b, KernelEventKind::kUnknownChip);
  ASSERT_EQ(chips.size(), 1u);
  EXPECT_EQ(chips[0]->values.at("xid"), "fcf");
  EXPECT_EQ(RealtekChipByXid("fcf"), nullptr);  // not a chip: all-ones from a device in D3cold
}

TEST(DmesgOtherNics, ChipTimeoutsWithoutTimestamps) {
  KernelLog log = Read("r8169-chipcmd-timeouts-no-timestamps.txt");
  auto t = OfKind(log, KernelEventKind::kChipTimeout);
  ASSERT_GE(t.size(), 10u);
  EXPECT_EQ(t[0]->values.at("condition"), "rtl_chipcmd_cond");
  EXPECT_EQ(t[0]->values.at("netdev"), "eno1");
}

TEST(DmesgOtherNics, Rtl8125LinkFlapsOnDomain0002) {
  KernelLog log = Read("r8169-rtl8125-link-flapping-domain-0002.txt");
  auto links = OfKind(log, KernelEventKind::kLinkEvent);
  int downs = 0;
  for (const KernelEvent* e : links) downs += e->values.at("state") == "down";
  EXPECT_EQ(downs, 8);
  EXPECT_EQ(links[0]->device, "0002:01:00.0");
  EXPECT_EQ(links[0]->values.at("speed"), "1Gbps/Full");
}

TEST(DmesgOtherNics, IntelNicLinkIsUpAndDown) {
  auto path = testing::FixturePath("dmesg/other-nics/i40e-unsupported-sfp.txt");
  KernelLog log = ParseDmesg(testing::ReadText(path));
  auto links = OfKind(log, KernelEventKind::kLinkEvent);
  ASSERT_GE(links.size(), 2u);
  EXPECT_EQ(links[0]->driver, "i40e");
  EXPECT_EQ(links[0]->values.at("state"), "up");
  EXPECT_EQ(links[0]->values.at("speed"), "10 Gbps Full Duplex");
  EXPECT_EQ(links[0]->values.at("netdev"), "enp23s0f3");
  EXPECT_EQ(links[1]->values.at("state"), "down");
}

TEST(DmesgOtherNics, VendorDriverTransmitTimeouts) {
  KernelLog log = Read("r8125-netdev-watchdog.txt");
  auto t = OfKind(log, KernelEventKind::kTxTimeout);
  ASSERT_EQ(t.size(), 7u);
  EXPECT_EQ(t[0]->driver, "r8125");
  EXPECT_EQ(t[0]->values.at("netdev"), "eth4");
  // The old watchdog form names the driver in parentheses.
  KernelLog old = ParseDmesg("[ 100.000001] NETDEV WATCHDOG: eth2 (r8169): transmit queue 0 timed out\n");
  ASSERT_EQ(old.events.size(), 1u);
  EXPECT_EQ(old.events[0].kind, KernelEventKind::kTxTimeout);
  EXPECT_EQ(old.events[0].driver, "r8169");
  EXPECT_EQ(old.events[0].values.at("netdev"), "eth2");
}

TEST(DmesgOtherNics, UsbNicEnumeratedAtHighSpeed) {
  KernelLog log = Read("usb-r8156-not-running-at-top-speed.txt");
  auto en = OfKind(log, KernelEventKind::kUsbEnumerated);
  ASSERT_EQ(en.size(), 3u);
  EXPECT_EQ(en[0]->device, "1-10");
  EXPECT_EQ(en[0]->values.at("speed"), "high-speed");
  EXPECT_EQ(en[0]->values.at("mbps"), "480");
  EXPECT_EQ(en[0]->values.at("hcd"), "xhci_hcd");
  EXPECT_EQ(OfKind(log, KernelEventKind::kUsbBelowTopSpeed).size(), 3u);
  // The r8152 line for the interface on that device is kept (its device is the interface 1-10:2.0).
  bool r8152 = false;
  for (const KernelEvent& e : log.events) r8152 |= e.driver == "r8152" && e.device == "1-10:2.0";
  EXPECT_TRUE(r8152);
}

TEST(DmesgOtherNics, UsbCoreLinesUnderTheDeviceDriversName) {
  KernelLog log = Read("usb-rtl8153b-superspeed-cfgselector.txt");
  auto en = OfKind(log, KernelEventKind::kUsbEnumerated);
  ASSERT_EQ(en.size(), 2u);
  EXPECT_EQ(en[0]->values.at("mbps"), "5000");
  EXPECT_EQ(en[1]->driver, "r8152-cfgselector");
  EXPECT_EQ(en[1]->values.at("reset"), "yes");
  auto ids = OfKind(log, KernelEventKind::kUsbDeviceId);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0]->values.at("usb_id"), "0bda:8153");
  auto fw = OfKind(log, KernelEventKind::kFirmwareMissing);
  ASSERT_EQ(fw.size(), 2u);
  EXPECT_EQ(fw[1]->values.at("file"), "rtl_nic/rtl8153b-2.fw");
}

TEST(DmesgOtherNics, IwlwifiGivesUpWithNoSuitableFirmware) {
  KernelLog log = Read("iwlwifi-8000c-no-suitable-firmware.txt");
  EXPECT_EQ(OfKind(log, KernelEventKind::kFirmwareMissing).size(), 9u);
  EXPECT_EQ(OfKind(log, KernelEventKind::kNoSuitableFirmware).size(), 1u);
  bool minimum = false;
  for (const KernelEvent& e : log.events) minimum |= e.values.count("minimum") && e.values.at("minimum") == "iwlwifi-8000C-22";
  EXPECT_TRUE(minimum);
}

TEST(DmesgOtherNics, IwlwifiFallsBackToAnOlderFirmware) {
  KernelLog log = Read("iwlwifi-8000c-fallback-loaded.txt");
  EXPECT_EQ(OfKind(log, KernelEventKind::kNoSuitableFirmware).size(), 0u);
  auto loaded = OfKind(log, KernelEventKind::kFirmwareLoaded);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[1]->values.at("version"), "22.361476.0");
  KernelLog journal = Read("iwlwifi-qu-c0-journal-fallback.txt");
  loaded = OfKind(journal, KernelEventKind::kFirmwareLoaded);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0]->values.at("file"), "Qu-c0-hr-b0-63.ucode");
}

TEST(DmesgOtherNics, ProbeFailuresOfAnyNicDriverBothForms) {
  KernelLog e1000e = Read("e1000e-nvm-checksum-probe-failed.txt");
  auto p = OfKind(e1000e, KernelEventKind::kProbeFailed);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0]->driver, "e1000e");
  EXPECT_EQ(p[0]->device, "0000:00:1f.6");
  EXPECT_EQ(p[0]->values.at("error"), "-5");
  KernelLog igc = Read("igc-probe-with-driver-failed.txt");
  p = OfKind(igc, KernelEventKind::kProbeFailed);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0]->device, "0001:03:00.0");
  EXPECT_EQ(p[0]->values.at("error"), "-13");
  KernelLog ice = Read("ice-msix-exhausted-probe-failed.txt");
  p = OfKind(ice, KernelEventKind::kProbeFailed);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0]->device, "0000:e2:00.1");
}

TEST(DmesgOtherNics, UnrelatedDriversAreCountedNotKept) {
  KernelLog log = ParseDmesg(
      "[    1.000000] usb 1-1: Product: USB Keyboard\n"
      "[    1.000001] snd_hda_intel 0000:00:1f.3: enabling device\n");
  EXPECT_EQ(log.kernel_lines, 2);
  EXPECT_TRUE(log.events.empty());
  EXPECT_TRUE(log.warnings.empty());
}

}  // namespace
}  // namespace railyard
