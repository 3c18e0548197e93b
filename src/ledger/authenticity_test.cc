// Each authenticity rule: a real card or module that passes, and the one value (changed in
// memory, as each test says) that makes it fire.
#include "ledger/authenticity.h"

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "facts/host_facts.h"
#include "ledger/observe.h"
#include "parse/fixtures.h"
#include "parse/flint.h"
#include "parse/lspci.h"
#include "parse/module.h"
#include "parse/vpd.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

std::vector<std::string> Rules(const std::vector<AuthenticityFinding>& found) {
  std::vector<std::string> out;
  for (const AuthenticityFinding& f : found) out.push_back(f.finding.rule);
  return out;
}

Asset ToAsset(const AssetObservation& o) { return {o.serial, o.kind, o.fields}; }

// The real ConnectX-7 of the lspci VPD sample, as the ledger would hold it.
Asset RealCx7() {
  HostFacts f;
  f.hostname = "gpu042";
  f.pci = ParseLspci(ReadText(FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"))).functions;
  return ToAsset(ObservationsFromFacts(f).at(0));
}

// The real ConnectX-6 Lx of the mstflint sample (MT_0000000575 = MCX631102AS-ADAT in the catalog,
// confidence H); the sample has no serial or OPN, so the test gives them.
Asset RealCx6Lx() {
  FirmwareQuery q = ParseFlintQuery(ReadText(FixturePath("flint/cx6lx-mstflint-q-by-pci-address-arm64.txt")));
  Asset a{"MT2152X00001", "nic", {{"opn", "MCX631102AS-ADAT"}, {"pci.device_id", "101f"}}};
  a.fields["fw.version"] = q.fw_version;
  a.fields["fw.psid"] = q.psid;
  a.fields["fw.base_mac"] = q.base_mac;
  a.fields["fw.base_guid"] = q.base_guid;
  a.fields["fw.security"] = q.security_attributes;
  return a;
}

TEST(Authenticity, HealthyRealCardsPass) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"));
  EXPECT_EQ(Rules(CheckAsset(RealCx7())), std::vector<std::string>{});
  EXPECT_EQ(Rules(CheckAsset(RealCx6Lx())), std::vector<std::string>{});
  // The CX-7 with the firmware identity its VPD implies (in memory: no flint sample of this card):
  // the catalog's PSID for its OPN, its V3 UUID's node as base MAC, firmware 28.x, secure-fw.
  Asset cx7 = RealCx7();
  cx7.fields["fw.psid"] = "MT_0000000838";
  cx7.fields["fw.base_mac"] = "58a2e10d4bce";
  cx7.fields["fw.version"] = "28.42.1000";
  cx7.fields["fw.security"] = "secure-fw";
  cx7.fields["pci.device_id"] = "1021";
  EXPECT_EQ(Rules(CheckAsset(cx7)), std::vector<std::string>{});
}

Asset FromLspciFixture(const std::string& file) {
  HostFacts f;
  f.pci = ParseLspci(ReadText(FixturePath(file))).functions;
  return ToAsset(ObservationsFromFacts(f).at(0));
}

TEST(Authenticity, OemCardsAreOemNotCounterfeit) {
  // Real OEM cards: Lenovo's ConnectX-7 mezzanine (FRU SN37B23797, MODL MCX750500B-0D00) and HPE's 640SFP28
  // (PN 817751-001, V2 = HPE's MFG code, no NVIDIA model at all). Their PN, V2 and V0 are the OEM's own fields.
  Asset lenovo = FromLspciFixture("lspci/lenovo-sd665n-cx7-mezz-sn37b23797-vvv-03-00.0.txt");
  EXPECT_EQ(lenovo.fields.at("opn"), "MCX750500B-0D00");
  EXPECT_EQ(lenovo.fields.at("oem.vendor"), "Lenovo");
  EXPECT_EQ(lenovo.fields.at("oem.part_number"), "SN37B23797");
  EXPECT_EQ(Rules(CheckAsset(lenovo)), std::vector<std::string>{"oem-card"});
  Asset hpe = FromLspciFixture("lspci/hpe-640sfp28-cx4lx-817751-001-vpd-vv-partial.txt");
  EXPECT_EQ(hpe.fields.at("oem.vendor"), "HPE");
  EXPECT_EQ(hpe.fields.at("opn"), "817751-001");  // no MODL: the OEM part is all there is
  EXPECT_EQ(Rules(CheckAsset(hpe)), std::vector<std::string>{"oem-card"});
  // mstvpd of a Lenovo ConnectX-4 Lx: the model comes without its leading M.
  BinaryVpd v = ParseMstvpd(ReadText(FixturePath("mstvpd/lenovo-cx4lx-01gr252-lnv-modl-mlx5_0.txt")));
  EXPECT_TRUE(v.warnings.empty());
  EXPECT_EQ(v.product_name, "Mellanox ConnectX-4 Lx PCIe 25Gb 2-Port SFP28 Ethernet Adapter");
  EXPECT_EQ(v.read_only.at("SN"), "Y150AG9AP1B1");
  VpdIdentity id = IdentityOf(v.read_only);
  EXPECT_EQ(id.oem, "Lenovo");
  EXPECT_EQ(id.model, "MCX4121A-ACAT");
  // An NVIDIA-branded card is not OEM, and a real mismatch on one still fires (PN vs V2 changed in memory).
  Asset cx7 = RealCx7();
  EXPECT_EQ(cx7.fields.count("oem.vendor"), 0u);
  cx7.fields["vpd.V2"] = "MCX75310AAS-HEAT";
  EXPECT_EQ(Rules(CheckAsset(cx7)), std::vector<std::string>{"vpd-fields-inconsistent"});
}

TEST(Authenticity, VpdRules) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"));
  Asset a = RealCx7();
  a.fields["vpd.checksum"] = "bad";  // as lspci prints "[RV] Reserved: checksum bad"
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"vpd-checksum-invalid"});
  a = RealCx7();
  a.fields["vpd.V2"] = "MCX75310AAC-NEAT";  // PN rewritten but not V2
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"vpd-fields-inconsistent"});
  a = RealCx7();
  a.fields["fw.part_number"] = "MCX75310AAS-HEA_Ax";  // firmware of the 200G board on a 400G label
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"vpd-fields-inconsistent"});
  a.fields["fw.part_number"] = "MCX75310AAS-NEA_Ax";
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{});
  a = RealCx7();
  a.fields["vpd.VA"] = "MLX:MN=MLNX:CSKU=V2:UUID=V3:PCI=V0:MODL=CX75510AA";  // the model of another card
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"vpd-fields-inconsistent"});
  a = RealCx7();
  a.fields["pci.link_capability"] = "16GT/s x16";  // a Gen5 card (V0) whose LnkCap says Gen4
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"vpd-fields-inconsistent"});
  a = RealCx7();
  a.fields["fw.base_mac"] = "58a2e10d4bcf";  // one off the V3 UUID's node
  ASSERT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"vpd-uuid-mac-mismatch"});
  EXPECT_EQ(CheckAsset(a)[0].confidence, "M");
  a = RealCx7();
  a.serial = "SN0001";
  EXPECT_EQ(Rules(CheckAsset(a)),
            (std::vector<std::string>{"vpd-fields-inconsistent", "serial-format-anomaly"}));  // VU no longer starts with it
}

TEST(Authenticity, FindingsInTheSharedFormsCarryTheirConfidence) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"));
  Asset a = RealCx7();
  a.fields["vpd.checksum"] = "bad";
  std::vector<AuthenticityFinding> found = CheckAsset(a);
  ASSERT_EQ(found.size(), 1u);
  std::vector<Finding> shared = AuthenticityFindings(found);
  ASSERT_FALSE(shared[0].evidence.empty());
  EXPECT_EQ(shared[0].evidence.back(), (std::pair<std::string, std::string>{"confidence", found[0].confidence}));
  std::string csv = AuthenticityRender(found, FindingsFormat::kCsv);
  EXPECT_NE(csv.find(",confidence"), std::string::npos) << csv;
  EXPECT_NE(csv.find("vpd-checksum-invalid,error," + a.serial + ","), std::string::npos) << csv;
  std::string prom = AuthenticityRender(found, FindingsFormat::kPrometheus);
  EXPECT_EQ(prom.find(a.serial), std::string::npos) << "a serial is no metric label";
  EXPECT_NE(prom.find("railyard_ledger_check_rule_findings{rule=\"vpd-checksum-invalid\",severity=\"error\"} 1\n"),
            std::string::npos)
      << prom;
  EXPECT_NE(prom.find("railyard_ledger_check_rule_findings{rule=\"duplicate-identity\",severity=\"error\"} 0\n"),
            std::string::npos);
  nlohmann::json json = nlohmann::json::parse(AuthenticityRender(found, FindingsFormat::kJson));
  EXPECT_EQ(json["schema"], "railyard.authenticity/1");
  EXPECT_EQ(json["findings"][0]["serial"], a.serial);
  EXPECT_EQ(json["findings"][0]["confidence"], found[0].confidence);
}

TEST(Authenticity, PsidAndFirmwareRules) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("flint/cx6lx-mstflint-q-by-pci-address-arm64.txt"));
  Asset a = RealCx6Lx();
  a.fields["fw.psid"] = "MT_0000000834";  // another board's PSID
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"psid-not-for-opn"});
  a = RealCx6Lx();
  a.fields["fw.orig_psid"] = "HP_0000000010";  // flint's "Orig PSID" line
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"psid-changed"});
  a = RealCx6Lx();
  a.fields["fw.base_mac"] = "9cdc71aabbcc";  // an HPE OUI under a retail PSID
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"cross-flashed-oem"});
  a = RealCx6Lx();
  a.fields["pci.subsystem"] = "Hewlett Packard Enterprise Device 0264";  // an HPE board under a retail PSID
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"cross-flashed-oem"});
  a = RealCx6Lx();
  a.fields["pci.device_id"] = "0216";  // CX6 Lx's Flash-Recovery ID
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"no-valid-firmware"});
  a = RealCx6Lx();
  a.fields["fw.version"] = "28.33.1048";  // a ConnectX-7 major on a ConnectX-6 Lx device
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"device-family-mismatch"});
  a = RealCx6Lx();
  a.fields["fw.security"] = "N/A";  // the AS (secure boot) OPN without secure firmware
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"secure-boot-expected"});
  a.fields["fw.security"] = "secure-fw, dev";
  EXPECT_EQ(Rules(CheckAsset(a)), std::vector<std::string>{"debug-firmware"});
  // The real Lenovo-branded card: an OEM PSID is information, not a fault.
  FirmwareQuery lenovo = ParseFlintQuery(ReadText(FixturePath("flint/cx5-innova2-lenovo-psid-secure-fw-query.txt")));
  Asset oem{"MT1234X00001", "nic", {{"fw.psid", lenovo.psid}, {"fw.version", lenovo.fw_version}}};
  std::vector<AuthenticityFinding> found = CheckAsset(oem);
  ASSERT_EQ(Rules(found), std::vector<std::string>{"oem-card"});
  EXPECT_EQ(found[0].finding.severity, Severity::kInfo);
}

TEST(Authenticity, ModuleRules) {
  auto sample = FixturePath("ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt");
  RAILYARD_REQUIRE_FIXTURE(sample);
  HostFacts f;
  NetdevFacts n;
  n.name = "swp1";
  n.module = ParseEthtoolModule(ReadText(sample));
  f.netdevs = {n};
  Asset dac = ToAsset(ObservationsFromFacts(f).at(0));
  EXPECT_EQ(dac.fields.at("opn"), "MCP1660-W00AE30");
  EXPECT_EQ(dac.fields.at("module.length_m"), "0.5");  // W00A: 0.5 m, as its EEPROM says
  EXPECT_EQ(Rules(CheckAsset(dac)), std::vector<std::string>{});
  Asset relabelled = dac;
  relabelled.fields["module.vendor"] = "FS";  // NVIDIA's OUI with another vendor's name
  EXPECT_EQ(Rules(CheckAsset(relabelled)), std::vector<std::string>{"module-vendor-inconsistent"});
  Asset garbage = dac;
  garbage.fields["module.vendor"] = std::string("Mell\xff\x01nox");
  EXPECT_EQ(Rules(CheckAsset(garbage)), std::vector<std::string>{"module-eeprom-garbage"});
  Asset longer = dac;
  longer.fields["module.length_m"] = "3";
  EXPECT_EQ(Rules(CheckAsset(longer)), std::vector<std::string>{"cable-length-mismatch"});
  // A real third-party SFP (JDSU, its own OUI): not NVIDIA-coded, so not inconsistent. Its
  // EEPROM dump has no Vendor SN line, so it cannot be a ledger asset by itself.
  ModuleInfo jdsu = ParseEthtoolModule(ReadText(FixturePath("ethtool/m-sfp-1000base-sx-sff8472-dom-thresholds.txt")));
  n.module = jdsu;
  f.netdevs = {n};
  EXPECT_TRUE(ObservationsFromFacts(f).empty());
  Asset third{"JDSU-TEST-1",
              "transceiver",
              {{"opn", jdsu.vendor_pn}, {"module.vendor", jdsu.vendor_name}, {"module.vendor_oui", jdsu.vendor_oui}}};
  EXPECT_EQ(Rules(CheckAsset(third)), std::vector<std::string>{});
}

TEST(Authenticity, DuplicateIdentityAcrossTheLedger) {
  auto path = std::filesystem::temp_directory_path() / ("railyard-dup-" + std::to_string(::getpid()) + ".db");
  {
    auto ledger = OpenSqliteLedger(path.string());
    ledger->Record({{"MT2152X00001", "nic", {{"fw.base_guid", "e8ebd3030070cf12"}}, 1},
                    {"MT2152X00002", "nic", {{"fw.base_guid", "e8ebd3030070cf12"}}, 2},
                    {"MT2152X00003", "nic", {{"fw.base_guid", "e8ebd3030070cf13"}}, 3}},
                   "test", "hand");
    // The first card re-flashed later: its PSID history changes (no Orig PSID needed).
    ledger->Record({{"MT2152X00001", "nic", {{"fw.psid", "MT_0000000575"}}, 1}}, "test", "first query");
    ledger->Record({{"MT2152X00001", "nic", {{"fw.psid", "MT_0000000834"}}, 1}}, "test", "second query");
    std::vector<AuthenticityFinding> found = CheckLedger(*ledger);
    size_t changed = 0;
    for (const AuthenticityFinding& f : found) {
      if (f.finding.rule == "psid-changed") {
        ++changed;
        EXPECT_EQ(f.finding.evidence[0].second, "MT_0000000575 -> MT_0000000834");
      }
    }
    EXPECT_EQ(changed, 1u);
    std::vector<std::string> dup;
    for (const AuthenticityFinding& f : found) {
      if (f.finding.rule == "duplicate-identity") dup.push_back(f.finding.host);
    }
    EXPECT_EQ(dup, (std::vector<std::string>{"MT2152X00001", "MT2152X00002"}));
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
}

}  // namespace
}  // namespace railyard
