// The host-side parsers (flint, lspci, ethtool, bonding) on every real sample of their tools
// in tests/fixtures , and on bad input.
#include <gtest/gtest.h>

#include "parse/bonding.h"
#include "parse/ethtool.h"
#include "parse/fixtures.h"
#include "parse/flint.h"
#include "parse/lspci.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

std::string Fixture(const std::string& path) { return ReadText(FixturePath(path)); }

TEST(Flint, Cx7SecureFirmwareWithTwoRoms) {
  auto path = FixturePath("flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  FirmwareQuery q = ParseFlintQuery(ReadText(path));
  EXPECT_TRUE(q.warnings.empty());
  EXPECT_EQ(q.image_type, "FS4");
  EXPECT_EQ(q.fw_version, "28.42.1000");
  EXPECT_EQ(q.fw_release_date, "8.8.2024");
  ASSERT_EQ(q.rom_info.size(), 2u);
  EXPECT_EQ(q.rom_info[0], "type=UEFI version=14.35.15 cpu=AMD64,AARCH64");
  EXPECT_EQ(q.rom_info[1], "type=PXE version=3.7.500 cpu=AMD64");
  EXPECT_EQ(q.base_guid, "e09d730300126474");
  EXPECT_EQ(q.guids, 16);
  EXPECT_EQ(q.base_mac, "e09d73126474");
  EXPECT_EQ(q.psid, "MT_0000001244");
  EXPECT_EQ(q.security_attributes, "secure-fw");
  EXPECT_TRUE(q.description.empty());  // the "Description: UID GuidsNumber" table header is not one
}

TEST(Flint, OrigBaseGuidNotApplicableAndOemPsid) {
  for (const char* f : {"flint/cx4lx-mstflint-q-fs3-orig-base-guid.txt", "flint/cx5-innova2-lenovo-psid-secure-fw-query.txt",
                        "flint/cx6lx-mstflint-q-by-pci-address-arm64.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  FirmwareQuery cx4 = ParseFlintQuery(Fixture("flint/cx4lx-mstflint-q-fs3-orig-base-guid.txt"));
  EXPECT_EQ(cx4.image_type, "FS3");
  EXPECT_EQ(cx4.fw_version, "14.32.1900");
  EXPECT_EQ(cx4.base_guid, "000030e3c0021f7a");
  EXPECT_EQ(cx4.orig_base_guid, "");  // "N/A"
  EXPECT_EQ(cx4.psid, "MT_0000000267");
  EXPECT_EQ(cx4.security_attributes, "N/A");
  FirmwareQuery lenovo = ParseFlintQuery(Fixture("flint/cx5-innova2-lenovo-psid-secure-fw-query.txt"));
  EXPECT_EQ(lenovo.psid, "LNV0000000025");  // an OEM (Lenovo) PSID
  EXPECT_EQ(lenovo.fw_version, "16.24.4020");
  FirmwareQuery arm = ParseFlintQuery(Fixture("flint/cx6lx-mstflint-q-by-pci-address-arm64.txt"));
  EXPECT_EQ(arm.psid, "MT_0000000575");
  EXPECT_EQ(arm.fw_version, "26.33.1048");
}

TEST(Flint, RunningFirmwareWhileANewImageWaits) {
  FirmwareQuery pending = ParseFlintQuery(Fixture("flint/cx3-mcx311a-query-full-fw-running-pending.txt"));
  EXPECT_EQ(pending.fw_version, "2.42.5000");
  EXPECT_EQ(pending.running_fw_version, "2.35.5100");
  FirmwareQuery psid_changed =
      ParseFlintQuery(Fixture("flint/cx3pro-mcx354a-fcc-psid-changed-fw-running-pending-mstflint-q.txt"));
  EXPECT_EQ(psid_changed.running_fw_version, "2.40.5032");
  FirmwareQuery before = ParseFlintQuery(Fixture("flint/cx3-mcx311a-query-full-before-burn.txt"));
  EXPECT_EQ(before.fw_version, "2.35.5100");
  EXPECT_EQ(before.running_fw_version, "");
}

TEST(Flint, NotFlintOutputWarns) {
  FirmwareQuery q = ParseFlintQuery("-E- Cannot open Device: /dev/mst/mt4123_pciconf0. No such file or directory\n");
  EXPECT_EQ(q.warnings.size(), 2u);
  EXPECT_TRUE(q.fw_version.empty());
}

TEST(Lspci, Cx7Gen5x16WithVpd) {
  auto path = FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  LspciReport r = ParseLspci(ReadText(path));
  ASSERT_EQ(r.functions.size(), 1u);
  const PciFunction& f = r.functions[0];
  EXPECT_EQ(f.bdf, "19:00.0");
  EXPECT_EQ(f.class_name, "Infiniband controller");
  EXPECT_EQ(f.description, "Mellanox Technologies MT2910 Family [ConnectX-7]");
  EXPECT_EQ(f.numa_node, 0);
  EXPECT_EQ(f.driver, "mlx5_core");
  EXPECT_EQ(f.cap.speed_gts, 32);
  EXPECT_EQ(f.cap.width, 16);
  EXPECT_EQ(PcieGeneration(f.sta.speed_gts), 5);
  EXPECT_EQ(f.sta.width, 16);
  EXPECT_FALSE(f.sta.speed_downgraded);
  EXPECT_EQ(f.vpd.at("PN"), "MCX75310AAS-NEAT");  // trailing padding trimmed
  EXPECT_EQ(f.vpd.at("V2"), "MCX75310AAS-NEAT");
  EXPECT_EQ(f.vpd.at("SN"), "MT2347J0100T");
  EXPECT_EQ(f.vpd.at("V0"), "PCIeGen5 x16");
  EXPECT_EQ(f.vpd.at("VU"), "MT2347J0100TMLNXS0D0F0");
  EXPECT_EQ(f.vpd.at("VA"), "MLX:MN=MLNX:CSKU=V2:UUID=V3:PCI=V0:MODL=CX75310AA");
  EXPECT_EQ(f.vpd_checksum, PciFunction::VpdChecksum::kGood);
  EXPECT_EQ(f.vpd_product_name.rfind("NVIDIA ConnectX-7 HHHL Adapter card", 0), 0u);
}

TEST(Lspci, Cx3WithReadWriteFieldsAndHexdump) {
  auto path = FixturePath("lspci/cx3-qdr-fdr-mlx4-vpd-with-rw-fields-and-hexdump.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  LspciReport r = ParseLspci(ReadText(path));
  ASSERT_EQ(r.functions.size(), 1u);  // the hexdump lines ("00: b3 15 ...") are not devices
  const PciFunction& f = r.functions[0];
  EXPECT_EQ(f.bdf, "82:00.0");
  EXPECT_EQ(f.driver, "mlx4_core");
  EXPECT_EQ(f.cap.speed_gts, 8);
  EXPECT_EQ(f.cap.width, 8);
  EXPECT_EQ(f.vpd.at("PN"), "MCX354A-FCBT");
  EXPECT_EQ(f.vpd.at("V0"), "PCIe Gen3 x8");
  EXPECT_EQ(f.vpd.at("V1"), "N/A");  // read-write fields kept, RW free-space lines not
  EXPECT_EQ(f.vpd.count("RW"), 0u);
  EXPECT_EQ(f.aspm, "Disabled");     // LnkCtl: ASPM Disabled; RCB 64 bytes ...
  EXPECT_EQ(f.sriov_total_vfs, 63);  // Initial VFs: 63, Total VFs: 63, Number of VFs: 0
  EXPECT_EQ(f.sriov_num_vfs, 0);
  EXPECT_EQ(f.vpd_checksum, PciFunction::VpdChecksum::kGood);
}

TEST(Lspci, PastedIndentedAndOldPciutils) {
  // The real CX-7 block pasted with a 4-space indent: the header keeps its BDF.
  std::string indented, original = Fixture("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  for (std::string_view rest = original; !rest.empty();) {
    size_t eol = rest.find('\n');
    indented += "    " + std::string(rest.substr(0, eol == std::string_view::npos ? rest.size() : eol + 1));
    rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
  }
  LspciReport pasted = ParseLspci(indented);
  ASSERT_EQ(pasted.functions.size(), 1u);
  EXPECT_EQ(pasted.functions[0].bdf, "19:00.0");
  EXPECT_EQ(pasted.functions[0].vpd, ParseLspci(original).functions.at(0).vpd);
  EXPECT_TRUE(pasted.warnings.empty());
  // Tabs turned into two spaces (a ConnectX-2 from a notes page) and old pciutils without "(ok)" annotations.
  LspciReport cx2 = ParseLspci(Fixture("lspci/lspci-vvv-connectx2-mt26428-tabs-as-2-spaces.txt"));
  ASSERT_EQ(cx2.functions.size(), 1u);
  EXPECT_EQ(cx2.functions[0].bdf, "04:00.0");
  EXPECT_EQ(cx2.functions[0].cap.width, 8);
  LspciReport old = ParseLspci(Fixture("lspci/lspci-vvv-connectx4-lx-hpe-old-pciutils-mail-wrapped.txt"));
  ASSERT_EQ(old.functions.size(), 2u);  // the author's leading "..." is a warning, not a device
  EXPECT_EQ(old.warnings.size(), 1u);
  EXPECT_EQ(old.functions[1].bdf, "0b:00.1");
  EXPECT_DOUBLE_EQ(old.functions[0].sta.speed_gts, 8.0);
  EXPECT_FALSE(old.functions[0].sta.speed_downgraded);
}

TEST(Lspci, HeaderlessExcerptWithUnknownSpeed) {
  auto path = FixturePath("lspci/cx5-socket-direct-speed-unknown-grep-excerpt.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  LspciReport r = ParseLspci(ReadText(path));
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_EQ(r.warnings.size(), 1u);  // said: an excerpt without its device header
  EXPECT_TRUE(r.functions[0].cap.speed_unknown);
  EXPECT_EQ(r.functions[0].cap.width, 8);
  EXPECT_EQ(r.functions[0].vpd.at("V0"), "PCIeGen4 x16");  // capable of x16, trained x8
}

TEST(Lspci, DowngradedLinkAndNumericIds) {
  LspciReport r = ParseLspci(
      "0000:3b:00.0 Ethernet controller [0200]: Mellanox Technologies MT2892 Family [ConnectX-6 Dx] [15b3:101d]\n"
      "\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported\n"
      "\tLnkSta:\tSpeed 8GT/s (downgraded), Width x8 (downgraded)\n");
  ASSERT_EQ(r.functions.size(), 1u);
  const PciFunction& f = r.functions[0];
  EXPECT_EQ(f.bdf, "0000:3b:00.0");
  EXPECT_EQ(f.class_name, "Ethernet controller");
  EXPECT_EQ(f.vendor_id, "15b3");
  EXPECT_EQ(f.device_id, "101d");
  EXPECT_EQ(f.description, "Mellanox Technologies MT2892 Family [ConnectX-6 Dx]");
  EXPECT_TRUE(f.sta.speed_downgraded);
  EXPECT_TRUE(f.sta.width_downgraded);
  EXPECT_EQ(PcieGeneration(f.sta.speed_gts), 3);
  // Truncated anywhere: never a crash.
  std::string text = Fixture("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  for (size_t cut = 0; cut < text.size(); cut += 53) ParseLspci(text.substr(0, cut));
}

TEST(Ethtool, SettingsLinkUpAndTrainingFailure) {
  for (const char* f : {"ethtool/cx4lx-after-fw-upgrade-10g-link-up-with-lanes.txt",
                        "ethtool/cx4lx-25g-dac-to-10g-switch-link-training-failure.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  EthtoolSettings up = ParseEthtoolSettings(Fixture("ethtool/cx4lx-after-fw-upgrade-10g-link-up-with-lanes.txt"));
  EXPECT_EQ(up.interface, "nic_pve02_stor");
  EXPECT_EQ(up.speed_mbps, 10000u);
  EXPECT_EQ(up.duplex, "Full");
  EXPECT_EQ(up.lanes, 1);
  EXPECT_EQ(up.port, "Direct Attach Copper");
  EXPECT_EQ(up.link_detected, true);
  EXPECT_EQ(up.supported_link_modes.size(), 5u);
  EXPECT_EQ(up.supported_link_modes[2], "25000baseCR/Full");
  EXPECT_EQ(up.supported_fec_modes, (std::vector<std::string>{"None", "RS", "BASER"}));
  EthtoolSettings down = ParseEthtoolSettings(Fixture("ethtool/cx4lx-25g-dac-to-10g-switch-link-training-failure.txt"));
  EXPECT_EQ(down.speed_mbps, 0u);  // "Unknown!"
  EXPECT_EQ(down.link_detected, false);
  EXPECT_EQ(down.link_detected_reason, "Link training failure, Remote side is not ready yet");
}

TEST(Ethtool, DriverVersionInEveryForm) {
  struct Case {
    const char* file;
    const char* version;
    const char* origin;
    const char* firmware;
    const char* psid;
  };
  for (const Case& c :
       {Case{"ethtool/mlx5-doca-24.10-3.2.5-hpe-640sfp28-hp-psid.txt", "24.10-3.2.5", "out-of-tree", "14.32.1010",
             "HP_2420110034"},
        Case{"ethtool/mlx5-doca-24.07-0.6.1-cx4lx-mt2420110034.txt", "24.07-0.6.1", "out-of-tree", "14.28.2006", "MT_2420110034"},
        Case{"ethtool/mlx5-mlnx-ofed-5.5-1.0.3-huawei-psid-arm64-domain1.txt", "5.5-1.0.3", "out-of-tree", "14.28.1300",
             "HUA0020040036"},
        Case{"ethtool/mlx5-inbox-6.5.0-14-generic-hpe-640sfp28-psid-in-fwver.txt", "6.5.0-14-generic", "inbox", "14.18.2030",
             "HP_2420110034"},
        Case{"ethtool/mlx5-inbox-net-next-truncated-version-cx5ex.txt", "5.11.0-net-next-alloc_pages_bul", "inbox", "16.23.1020",
             "MT_0000000009"}}) {
    EthtoolDriver d = ParseEthtoolDriver(Fixture(c.file));
    EXPECT_EQ(d.driver, "mlx5_core") << c.file;
    EXPECT_EQ(d.version, c.version) << c.file;
    EXPECT_EQ(DriverOrigin(d.version), c.origin) << c.file;
    EXPECT_EQ(d.firmware_version, c.firmware) << c.file;
    EXPECT_EQ(d.firmware_psid, c.psid) << c.file;
  }
  EXPECT_EQ(DriverOrigin("5.0-0"), "inbox");  // the in-tree DRIVER_VERSION of older kernels
  EXPECT_EQ(DriverOrigin("1.0"), "");
  EXPECT_EQ(DriverOrigin(""), "");
}

TEST(Ethtool, DriverInfoWithPsid) {
  auto path = FixturePath("ethtool/i-mlx5-cx7-vf-aws-psid-in-fw-version.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  EthtoolDriver d = ParseEthtoolDriver(ReadText(path));
  EXPECT_EQ(d.driver, "mlx5_core");
  EXPECT_EQ(d.firmware_version, "28.42.1000");
  EXPECT_EQ(d.firmware_psid, "MT_0000000834");
  EXPECT_EQ(d.bus_info, "0001:16:00.3");
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_EQ(ParseEthtoolDriver("garbage").warnings.size(), 1u);
  EXPECT_EQ(ParseEthtoolSettings("").warnings.size(), 1u);
}

TEST(Bonding, LacpPartnerZeroAndAggregatorMismatch) {
  auto path = FixturePath("bonding/8023ad-partner-mac-zero-aggregator-mismatch.txt");
  RAILYARD_REQUIRE_FIXTURE(path);
  BondStatus b = ParseBonding(ReadText(path));
  EXPECT_TRUE(b.Is8023ad());
  EXPECT_EQ(b.active_aggregator_id, 3);
  EXPECT_EQ(b.partner_mac, "00:00:00:00:00:00");
  ASSERT_EQ(b.members.size(), 2u);
  EXPECT_EQ(b.members[0].name, "eth1");
  EXPECT_EQ(b.members[0].aggregator_id, 3);
  EXPECT_EQ(b.members[1].aggregator_id, 2);  // not in the active aggregator
}

TEST(Bonding, ChurnedMemberDownAndActiveBackup) {
  for (const char* f : {"bonding/8023ad-churned-no-partner-one-slave-down.txt", "bonding/active-backup-healthy-10g.txt",
                        "bonding/active-backup-arp-monitor-high-link-failure-count.txt"}) {
    RAILYARD_REQUIRE_FIXTURE(FixturePath(f));
  }
  BondStatus churned = ParseBonding(Fixture("bonding/8023ad-churned-no-partner-one-slave-down.txt"));
  ASSERT_EQ(churned.members.size(), 2u);
  EXPECT_EQ(churned.members[1].name, "enp0s8");
  EXPECT_EQ(churned.members[1].mii_status, "down");
  BondStatus healthy = ParseBonding(Fixture("bonding/active-backup-healthy-10g.txt"));
  EXPECT_TRUE(healthy.IsActiveBackup());
  EXPECT_EQ(healthy.currently_active, "enp17s0f0");
  EXPECT_EQ(healthy.members[0].speed_mbps, 10000u);
  BondStatus flapping = ParseBonding(Fixture("bonding/active-backup-arp-monitor-high-link-failure-count.txt"));
  EXPECT_EQ(flapping.members[0].link_failure_count, 92028);
  EXPECT_EQ(flapping.members[1].link_failure_count, 71524);
  EXPECT_EQ(ParseBonding("nothing here").warnings.size(), 1u);
}

}  // namespace
}  // namespace railyard
