// Server identity and OS on real outputs (tests/fixtures/dmi, os-release; SOURCES.md): whole dmidecode dumps of
// a Dell, a Supermicro GPU server and a Lenovo (machine type in brackets), and the kernel's own DMI line.
#include <gtest/gtest.h>

#include "parse/fixtures.h"
#include "parse/system_identity.h"

namespace railyard {
namespace {

SystemIdentityParse Read(const std::string& name) {
  auto path = testing::FixturePath("dmi/" + name);
  EXPECT_TRUE(std::filesystem::exists(path)) << path;
  return ParseDmidecode(testing::ReadText(path));
}

TEST(Dmidecode, DellPowerEdgeR750WholeDump) {
  SystemIdentityParse p = Read("dell-poweredge-r750-dmidecode.txt");
  EXPECT_EQ(p.system.vendor, "Dell Inc.");
  EXPECT_EQ(p.system.product, "PowerEdge R750");
  EXPECT_EQ(p.system.board, "04V528");
  EXPECT_EQ(p.system.bios_version, "1.9.2");
  EXPECT_EQ(p.system.bios_date, "11/17/2022");
  EXPECT_EQ(p.system.from, "dmidecode");
  EXPECT_TRUE(p.system.IsModel("PowerEdge R750"));
  EXPECT_TRUE(p.system.IsModel("dell inc. poweredge r750"));
  EXPECT_FALSE(p.system.IsModel("PowerEdge R75"));
  EXPECT_FALSE(p.system.IsModel("PowerEdge R7500"));
  // "Version: Not Specified" sits in the System block: not a field railyard reads, so no warning.
  EXPECT_TRUE(p.warnings.empty()) << p.warnings[0].message;
}

TEST(Dmidecode, SupermicroGpuServerOnAmiBios) {
  SystemIdentityParse p = Read("supermicro-as-4124gs-tnr-dmidecode.txt");
  EXPECT_EQ(p.system.vendor, "Supermicro");
  EXPECT_EQ(p.system.product, "AS -4124GS-TNR");
  EXPECT_EQ(p.system.board, "H12DSG-O-CPU");
  EXPECT_EQ(p.system.bios_vendor, "American Megatrends Inc.");
  EXPECT_EQ(p.system.bios_version, "2.0");
  EXPECT_TRUE(p.system.IsModel("Supermicro AS -4124GS-TNR"));
}

TEST(Dmidecode, LenovoMachineTypeInBracketsStillNamesTheModel) {
  SystemIdentityParse p = Read("lenovo-sr650-dmidecode.txt");
  EXPECT_EQ(p.system.product, "ThinkSystem SR650 -[7X06CTO1WW]-");
  EXPECT_TRUE(p.system.IsModel("ThinkSystem SR650"));
  EXPECT_FALSE(p.system.IsModel("ThinkSystem SR65"));
  EXPECT_EQ(p.system.bios_version, "IVE182H-4.10");  // printed "-[IVE182H-4.10]-"
}

TEST(Dmidecode, SysfsGrepLinesAndPlaceholders) {
  SystemIdentityParse p = ParseDmidecode(
      "/sys/class/dmi/id/bios_version:1.9.2\n/sys/class/dmi/id/product_name:PowerEdge R750\n"
      "/sys/class/dmi/id/sys_vendor:Dell Inc.\n/sys/class/dmi/id/board_name:To Be Filled By O.E.M.\n");
  EXPECT_EQ(p.system.from, "sysfs");
  EXPECT_EQ(p.system.Model(), "Dell Inc. PowerEdge R750");
  EXPECT_TRUE(p.system.board.empty());
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_EQ(p.warnings[0].line, 4);
}

TEST(Dmidecode, GreppedLinesWithoutBlockTitleAndNoise) {
  // `pdsh -w node[1-2] dmidecode -t system | grep "Product Name:"` style, then something else entirely.
  SystemIdentityParse p = ParseDmidecode("node1: \tProduct Name: PowerEdge R730\nrandom words\n");
  EXPECT_EQ(p.system.product, "PowerEdge R730");
  ASSERT_EQ(p.warnings.size(), 2u);  // the missing block title, and the unread line (never dropped)
  EXPECT_EQ(p.warnings[1].line, 2);
  EXPECT_TRUE(ParseDmidecode("").warnings.empty());
  EXPECT_FALSE(ParseDmidecode("# dmidecode 3.4\nGetting SMBIOS data from sysfs.\n").warnings.empty());
}

TEST(KernelDmiLine, BootLineAndOopsHardwareName) {
  // The Hardware name line of tests/fixtures/dmesg/gpud-pstore-…-link-up.txt (line 385): a product with '/' in it.
  auto s =
      ParseKernelDmiLine("<4>[ 3098.275478] Hardware name: ASRockRack 1U1G-GENOA/M3/N/GENOAD8QM3-NL, BIOS 2.07.NV01 03/27/2024");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->vendor_product, "ASRockRack 1U1G-GENOA/M3/N");
  EXPECT_EQ(s->board, "GENOAD8QM3-NL");
  EXPECT_EQ(s->bios_version, "2.07.NV01");
  EXPECT_EQ(s->bios_date, "03/27/2024");
  EXPECT_TRUE(s->IsModel("1U1G-GENOA/M3/N"));
  // QEMU's product has a comma of its own; the split is at ", BIOS ".
  auto q = ParseKernelDmiLine("[    0.000000] DMI: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.0-debian-1.16.0-5 04/01/2014");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->vendor_product, "QEMU Standard PC (Q35 + ICH9, 2009)");
  EXPECT_EQ(q->bios_version, "1.16.0-debian-1.16.0-5");
  EXPECT_FALSE(ParseKernelDmiLine("[    0.000000] DMI: not present or invalid.").has_value());
  EXPECT_FALSE(ParseKernelDmiLine("mlx5_core 0000:41:00.0: Link up").has_value());
}

TEST(OsRelease, DebianAndMatching) {
  OsReleaseParse p = ParseOsRelease(testing::ReadText(testing::FixturePath("os-release/debian-12-bookworm.txt")));
  EXPECT_EQ(p.os.id, "debian");
  EXPECT_EQ(p.os.version_id, "12");
  EXPECT_EQ(p.os.pretty_name, "Debian GNU/Linux 12 (bookworm)");
  EXPECT_TRUE(p.warnings.empty());
  EXPECT_TRUE(p.os.Matches("debian"));
  EXPECT_TRUE(p.os.Matches("Debian 12"));
  EXPECT_FALSE(p.os.Matches("debian 11"));
  OsRelease rhel{"rhel", "9.4", "", 0};
  EXPECT_TRUE(rhel.Matches("rhel 9"));
  EXPECT_TRUE(rhel.Matches("rhel 9.4"));
  EXPECT_FALSE(rhel.Matches("rhel 9.40"));
  EXPECT_FALSE(rhel.Matches("rhel 94"));
  EXPECT_FALSE(ParseOsRelease("garbage\n").warnings.empty());
}

}  // namespace
}  // namespace railyard
