#include "catalog/identity.h"

#include <gtest/gtest.h>

namespace railyard {
namespace {

TEST(Identity, BuiltinFamiliesAgreeWithTheReference) {
  const IdentityCatalog& c = IdentityCatalog::Builtin();
  const DeviceFamily* cx7 = c.FamilyByDeviceId("0x1021");
  ASSERT_NE(cx7, nullptr);
  EXPECT_EQ(cx7->family, "ConnectX-7");
  EXPECT_EQ(cx7->fw_major, 28);
  EXPECT_EQ(c.FamilyByDeviceId("15b3:1021"), cx7);
  EXPECT_EQ(c.FamilyByRecoveryId("0218"), cx7);
  EXPECT_EQ(c.FamilyByRecoveryId("1021"), nullptr);
  EXPECT_EQ(c.FamilyByName("connectx-6 dx")->pci_device_id, "101d");
  EXPECT_EQ(c.FamilyByDeviceId("zzzz"), nullptr);
  // Every family's mst name is its device ID in decimal (catalog.md §1).
  for (const DeviceFamily& f : c.families()) {
    if (f.mst_device.empty()) continue;
    EXPECT_EQ(f.mst_device, "mt" + std::to_string(std::stoi(f.pci_device_id, nullptr, 16))) << f.family;
  }
}

TEST(Identity, OuisAndPsids) {
  const IdentityCatalog& c = IdentityCatalog::Builtin();
  EXPECT_EQ(c.OwnerOf("08:C0:EB:E1:4B:94")->kind, "mellanox");
  EXPECT_EQ(c.OwnerOf("0x08c0eb0300e14b94")->kind, "mellanox");  // a GUID: same first three bytes
  EXPECT_EQ(c.OwnerOf("9cdc71aabbcc")->kind, "oem");
  EXPECT_EQ(c.OwnerOf("48:b0:2d:00:00:01")->organisation, "NVIDIA");
  EXPECT_EQ(c.OwnerOf("02:00:00:00:00:01"), nullptr);
  EXPECT_EQ(c.OwnerOf("xyz"), nullptr);
  EXPECT_EQ(c.IssuerOf("MT_0000000838")->kind, "retail");
  EXPECT_EQ(c.IssuerOf("DEL0000000027")->vendor, "Dell");
  EXPECT_EQ(c.IssuerOf("HP_2420110034")->kind, "oem");
  EXPECT_EQ(c.IssuerOf("NVD0000000024")->kind, "dgx");
  EXPECT_EQ(c.IssuerOf("ABC123"), nullptr);
  EXPECT_EQ(FirmwareMajor("28.39.1002"), 28);
  EXPECT_EQ(FirmwareMajor("rel-28"), std::nullopt);
  EXPECT_EQ(NormalizeDeviceId("0x1F"), "001f");
}

TEST(Identity, BadDataNamesFileLineAndColumn) {
  const char* families =
      "family,pci_device_id,vf_device_id,recovery_device_ids,fw_major,mst_device,source,confidence\n"
      "ConnectX-7,0x1021,,0x0218,twenty,mt4129,s,H\n";
  const char* ouis = "oui,organisation,kind,source,confidence\n";
  const char* psids = "prefix,vendor,kind,source,confidence\n";
  try {
    IdentityCatalog::FromCsv(families, ouis, psids);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "families.csv:2: fw_major: a number is required");
  }
  EXPECT_THROW(
      IdentityCatalog::FromCsv("family,pci_device_id,vf_device_id,recovery_device_ids,fw_major,mst_device,source,confidence\n",
                               "oui,organisation,kind,source,confidence\n00:02,x,oem,s,H\n", psids),
      std::runtime_error);
}

}  // namespace
}  // namespace railyard
