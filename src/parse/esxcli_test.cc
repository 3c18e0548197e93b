// esxcli outputs from real ESXi hosts (tests/fixtures/esxi, SOURCES.md) and the ESXi rules on them.
#include <gtest/gtest.h>

#include <fstream>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "doctor/rules.h"
#include "facts/collect.h"
#include "parse/esxcli.h"
#include "parse/fixtures.h"

namespace railyard {
namespace {

std::string Esxi(const std::string& name) {
  auto path = testing::FixturePath("esxi/" + name);
  EXPECT_TRUE(std::filesystem::exists(path)) << path;
  return testing::ReadText(path);
}

// The rows of a parse, its warnings added to `w` (and a VIB list's completeness into `complete`).
template <class Parse>
auto Rows(const Parse& parsed, std::vector<ParseWarning>& w, bool* complete = nullptr) {
  w.insert(w.end(), parsed.warnings.begin(), parsed.warnings.end());
  if constexpr (requires { parsed.complete; }) {
    if (complete) *complete = parsed.complete;
  }
  return parsed.rows;
}

TEST(Esxcli, NicListTableWithSpacesInTheDescription) {
  std::vector<ParseWarning> w;
  auto nics = Rows(ParseEsxcliNicList(Esxi("esxcli-nic-list-ixgben-x550-down-icen-e810-100G-joined.txt")), w);
  ASSERT_EQ(nics.size(), 4u);
  EXPECT_EQ(nics[1].name, "vmnic1");
  EXPECT_EQ(nics[1].link_status, "Down");
  EXPECT_EQ(nics[1].speed_mbps, 0u);
  EXPECT_EQ(nics[2].speed_mbps, 100000u);  // the Speed column widened to six
  EXPECT_EQ(nics[2].description, "Intel(R) Ethernet Controller E810-C for QSFP");
  ASSERT_EQ(w.size(), 1u);  // the test author's "{mtu}" placeholder in vmnic2's MTU column is said, not read as 0
  EXPECT_EQ(w[0].line, 5);
  EXPECT_NE(w[0].message.find("MTU"), std::string::npos);
}

TEST(Esxcli, NicListPastedFormsAndLocalcli) {
  std::vector<ParseWarning> w;
  auto nics = Rows(ParseEsxcliNicList(
                       Esxi("esxcli-nic-list-ne1000-igbn-atlantic-esxi70U1c-mdquoted-AQtion-esxi-issue18-jonesxcli-EXCERPT.txt")),
                   w);
  ASSERT_GE(nics.size(), 2u);
  EXPECT_EQ(nics[0].driver, "ne1000");
  EXPECT_EQ(nics[0].mtu, 9000u);
  ASSERT_FALSE(w.empty());  // the "# esxcli network nic list" line
  EXPECT_EQ(w[0].line, 1);
  w.clear();
  nics = Rows(ParseEsxcliNicList(Esxi("localcli-nic-list-tg3-vmklinux-esxi67-single-rule-AQtion-esxi-issue10.txt")), w);
  ASSERT_EQ(nics.size(), 1u);
  EXPECT_EQ(nics[0].driver, "tg3");
  EXPECT_EQ(nics[0].description, "Broadcom Corporation NetXtreme BCM57766 Gigabit Ethernet");
  EXPECT_EQ(w.size(), 3u);  // two prompts and the grep'd VIB row: said, not dropped
}

TEST(Esxcli, PowerCliRecords) {
  std::vector<ParseWarning> w;
  auto nics = Rows(ParseEsxcliNicList(Esxi("powercli-esxcli-v2-nic-list-bnx2x-4nics-AsBuiltReport-issue33.txt")), w);
  ASSERT_EQ(nics.size(), 4u);
  EXPECT_EQ(nics[0].name, "vmnic0");
  EXPECT_EQ(nics[0].pci, "0000:04:00.0");
  EXPECT_EQ(nics[0].speed_mbps, 10000u);
  EXPECT_EQ(nics[0].driver, "bnx2x");
}

TEST(Esxcli, NicGetNestedDriverInfo) {
  EsxiNicDetail d = ParseEsxcliNicGet(Esxi("esxcli-nic-get-ixgben-x550-fixture-dedent.txt"));
  EXPECT_EQ(d.driver, "ixgben");
  EXPECT_EQ(d.driver_version, "1.12.3.0");
  EXPECT_EQ(d.firmware_version, "1.55 0x80000a42, 1.1767.0");
  ASSERT_EQ(d.advertised_link_modes.size(), 5u);
  EXPECT_EQ(d.advertised_link_modes.back(), "10000BaseT/Full");
}

TEST(Esxcli, VibListWholeFilteredAndPastedOntoItsHeader) {
  std::vector<ParseWarning> w;
  bool complete = false;
  auto vibs =
      Rows(ParseEsxcliVibList(Esxi("esxcli-software-vib-list-dell-r640-bnxtnet-esxi67-check_esxi_hardware-issue37-EXCERPT.txt")),
           w, &complete);
  EXPECT_TRUE(complete);
  bool bnxtnet = false;
  for (const EsxiVib& v : vibs) bnxtnet |= v.name == "bnxtnet" && v.vendor == "BCM" && v.acceptance == "VMwareCertified";
  EXPECT_TRUE(bnxtnet);
  vibs = Rows(ParseEsxcliVibList(Esxi("esxcli-software-vib-list-grep-atlantic-platforms-col-esxi802-AQtion-esxi-issue26.txt")), w,
              &complete);
  EXPECT_FALSE(complete);
  ASSERT_EQ(vibs.size(), 1u);
  EXPECT_EQ(vibs[0].name, "atlantic");
  vibs = Rows(ParseEsxcliVibList(Esxi("esxcli-software-vib-list-header-joined-to-row-esxi67U3-AQtion-esxi-issue17-EXCERPT.txt")),
              w, &complete);
  EXPECT_TRUE(complete);
  EXPECT_FALSE(vibs.empty());
}

TEST(Esxcli, PciListDeviceWithNoModule) {
  std::vector<ParseWarning> w;
  auto devices =
      Rows(ParseEsxcliPciList(Esxi("esxcli-hardware-pci-list-grep-A23-x722-module-None-AsBuiltReport-pr75-EXCERPT.txt")), w);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].vmkernel_name, "vmnic0");
  EXPECT_EQ(devices[0].vendor_id, "8086");
  EXPECT_EQ(devices[0].device_id, "37cc");
  EXPECT_EQ(devices[0].device_class, "0200");
  EXPECT_EQ(devices[0].module_name, "");
  EXPECT_FALSE(w.empty());  // the pasted command line, and fields before any address line
}

std::vector<Finding> Of(const std::vector<Finding>& all, const std::string& rule) {
  std::vector<Finding> out;
  for (const Finding& f : all) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

// An ESXi capture directory: these samples come from different hosts of Intel's test lab and public threads,
// joined the way `collect --from` reads one host's files.
// One directory per test process: ctest runs the tests of this file in parallel.
std::filesystem::path CaptureDir() {
  auto dir = std::filesystem::temp_directory_path() / ("railyard-esxi-capture-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto put = [&](const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; };
  put("hostname.txt", "esx01\n");
  put("vmware-vl.txt", "VMware ESXi 8.0.2 build-22380479\nVMware ESXi 8.0 Update 2\n");
  put("esxcli-network-nic-list.txt", Esxi("esxcli-nic-list-ixgben-x550-down-icen-e810-100G-joined.txt"));
  put("esxcli-network-nic-get-vmnic0.txt", Esxi("esxcli-nic-get-ixgben-x550-fixture-dedent.txt"));
  put("esxcli-software-vib-list.txt", Esxi("esxcli-software-vib-list-ixgben-atlantic-esxi703-fixture-EXCERPT.txt"));
  put("esxcli-hardware-pci-list.txt", Esxi("esxcli-hardware-pci-list-grep-A23-x722-module-None-AsBuiltReport-pr75-EXCERPT.txt"));
  return dir;
}

TEST(EsxiRules, FactsFromACaptureAndTheRules) {
  HostFacts f = BuildHostFacts(ReadCaptureDir(CaptureDir().string()));
  EXPECT_EQ(f.platform, "esxi");
  EXPECT_EQ(f.kernel, "VMware ESXi 8.0.2 build-22380479");
  ASSERT_EQ(f.netdevs.size(), 4u);
  EXPECT_EQ(f.netdevs[0].driver_version, "1.12.3.0");
  EXPECT_EQ(f.has_nvidia_nic, false);
  std::vector<Finding> all = RunHostRules(f, DoctorPolicy{});
  auto below = Of(all, "esxi-nic-below-capability");
  ASSERT_EQ(below.size(), 1u);  // vmnic0 at 1000 of 10000; vmnic1 is down, not slow
  EXPECT_EQ(below[0].object, "vmnic vmnic0");
  auto missing = Of(all, "esxi-driver-missing");
  ASSERT_GE(missing.size(), 1u);
  EXPECT_EQ(missing[0].object, "PCI vmnic0");  // the X722 no module claimed (its address was outside the excerpt)
  EXPECT_EQ(missing[0].severity, Severity::kError);
  // JSON round trip keeps what the ESXi rules read.
  HostFacts back = FactsFromJson(ToJson(f));
  EXPECT_EQ(back.platform, "esxi");
  EXPECT_EQ(back.packages.size(), f.packages.size());
  EXPECT_EQ(back.netdevs[0].supported_link_modes, f.netdevs[0].supported_link_modes);
}

TEST(EsxiRules, CompatibilityList) {
  HostFacts f = BuildHostFacts(ReadCaptureDir(CaptureDir().string()));
  auto path = std::filesystem::temp_directory_path() / ("railyard-hcl-" + std::to_string(::getpid()) + ".csv");
  std::ofstream(path) << "vendor_id,device_id,driver,min_driver_version,releases\n0x8086,37cc,i40en,2.0,7.0;8.0\n";
  DoctorPolicy p;
  LoadHcl(p, path.string());
  auto found = Of(RunHostRules(f, p), "esxi-nic-not-on-hcl");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("driver none (listed: i40en)"), std::string::npos);
  std::ofstream(path) << "vendor_id,device_id,driver,min_driver_version,releases\n8086,37c,i40en,,\n";
  try {
    LoadHcl(p, path.string());
    FAIL() << "a bad device id must be refused";
  } catch (const PolicyError& e) {
    EXPECT_NE(std::string(e.what()).find(":2: device_id"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace railyard
