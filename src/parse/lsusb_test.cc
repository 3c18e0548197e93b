// lsusb -t on real trees (tests/fixtures/lsusb, SOURCES.md): both numbering forms, hubs, mail-wrapped lines,
// and a session log around the tree.
#include <gtest/gtest.h>

#include "parse/fixtures.h"
#include "parse/lsusb.h"

namespace railyard {
namespace {

UsbTree Read(const std::string& name) {
  auto path = testing::FixturePath("lsusb/" + name);
  EXPECT_TRUE(std::filesystem::exists(path)) << path;
  return ParseLsusbTree(testing::ReadText(path));
}

const UsbTreeNode* Driver(const UsbTree& t, const std::string& driver) {
  for (const UsbTreeNode& n : t.nodes) {
    if (n.driver == driver) return &n;
  }
  return nullptr;
}

TEST(Lsusb, TwoDigitFormNicAt480WhileTheUsb3RootIsEmpty) {
  UsbTree t = Read("lsusb-t-2digit-r8152-rtl8153-480M-usb3-root-empty-dell-inspiron.txt");
  const UsbTreeNode* nic = Driver(t, "r8152");
  ASSERT_NE(nic, nullptr);
  EXPECT_EQ(nic->Device(), "1-1");
  EXPECT_EQ(nic->speed_mbps, 480);
  EXPECT_EQ(nic->class_name, "Vendor Specific Class");
  ASSERT_EQ(t.warnings.size(), 1u);  // the "# lsusb -t" line is said, not dropped
  EXPECT_EQ(t.warnings[0].line, 1);
}

TEST(Lsusb, ThreeDigitFormBehindAHub) {
  UsbTree t = Read("lsusb-t-3digit-r8152-rtl8153-480M-usb2-only-t2linux.txt");
  const UsbTreeNode* nic = Driver(t, "r8152");
  ASSERT_NE(nic, nullptr);
  EXPECT_EQ(nic->Device(), "1-4.4");
  EXPECT_EQ(nic->dev, 45);
  EXPECT_EQ(nic->speed_mbps, 480);
  EXPECT_TRUE(t.warnings.empty());
}

TEST(Lsusb, MailWrappedLinesAreJoined) {
  UsbTree t = Read("lsusb-t-3digit-r8152-480M-behind-hub-on-ehci-pci-loongson-mailwrapped-EXCERPT.txt");
  const UsbTreeNode* nic = Driver(t, "r8152");
  ASSERT_NE(nic, nullptr);
  EXPECT_EQ(nic->Device(), "2-1.1");
  EXPECT_EQ(nic->speed_mbps, 480);
  const UsbTreeNode* hid = Driver(t, "usbhid");
  ASSERT_NE(hid, nullptr);
  EXPECT_EQ(hid->speed_mbps, 1.5);
  EXPECT_TRUE(t.warnings.empty());
}

TEST(Lsusb, DockAndPlainLsusbIds) {
  UsbTree t = Read("lsusb-t-2digit-r8152-5000M-under-10000M-root-dell-wd15-plus-lsusb-ids-EXCERPT.txt");
  const UsbTreeNode* nic = Driver(t, "r8152");
  ASSERT_NE(nic, nullptr);
  EXPECT_EQ(nic->Device(), "4-1.2");
  EXPECT_EQ(nic->speed_mbps, 5000);
  // The plain lsusb listing below the tree names ids by bus and device number: the hub (Dev 2) is 0424:5537;
  // the NIC's listing line says Device 004, not the tree's Dev 3 (another moment), so no id is guessed for it.
  EXPECT_EQ(nic->usb_id, "");
  const UsbTreeNode* hub = Driver(t, "hub/7p");
  ASSERT_NE(hub, nullptr);
  EXPECT_EQ(hub->usb_id, "0424:5537");
}

TEST(Lsusb, SessionLogAroundTheTreeIsWarnedLineByLine) {
  UsbTree t = Read("console-lsusb-t-r8152-5000M-then-480M-after-resume-exynos-odroid-hc1-dmesg-interleaved.txt");
  ASSERT_NE(Driver(t, "r8152"), nullptr);
  EXPECT_EQ(Driver(t, "r8152")->speed_mbps, 5000);
  EXPECT_FALSE(t.warnings.empty());
  EXPECT_TRUE(ParseLsusbTree("hello\n").nodes.empty());
  EXPECT_FALSE(ParseLsusbTree("hello\n").warnings.empty());
}

}  // namespace
}  // namespace railyard
