// Acceptance on real cards and modules: each state reached from the evidence it needs, each
// rejection with its reason; the ledger records transitions; the report names every rejection.
#include "ledger/acceptance.h"

#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "facts/capture_testing.h"
#include "facts/host_facts.h"
#include "ledger/observe.h"
#include "parse/fixtures.h"
#include "parse/flint.h"
#include "parse/lspci.h"
#include "parse/mlxlink.h"
#include "parse/module.h"

namespace railyard {
namespace {

using testing::FixturePath;
using testing::ReadText;

// The real ConnectX-6 Lx mstflint sample as a ledger asset (serial, OPN and PCI fields are the
// test's: the sample has none).
Asset Cx6Lx() {
  FirmwareQuery q = ParseFlintQuery(ReadText(FixturePath("flint/cx6lx-mstflint-q-by-pci-address-arm64.txt")));
  return {"MT2152X00001",
          "nic",
          {{"opn", "MCX631102AS-ADAT"},
           {"pci.device_id", "101f"},
           {"fw.version", q.fw_version},
           {"fw.psid", q.psid},
           {"fw.base_mac", q.base_mac},
           {"fw.security", q.security_attributes},
           {"batch", "B1"}}};
}

// The real QSFP-DD DAC EEPROM sample as a ledger asset.
Asset Dac() {
  HostFacts f;
  NetdevFacts n;
  n.name = "swp1";
  n.module =
      ParseEthtoolModule(ReadText(FixturePath("ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt")));
  f.netdevs = {n};
  AssetObservation o = ObservationsFromFacts(f).at(0);
  o.fields["batch"] = "B1";
  return {o.serial, o.kind, o.fields};
}

TEST(Acceptance, CardWalksTheStatesOnItsEvidence) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("flint/cx6lx-mstflint-q-by-pci-address-arm64.txt"));
  Asset received{"MT2152X00001", "nic", {{"opn", "MCX631102AS-ADAT"}, {"state", "received"}}};
  AcceptanceVerdict v = Evaluate(received, {});
  EXPECT_EQ(v.to, "received");
  EXPECT_NE(v.reasons.at(0).find("identity not yet read"), std::string::npos);
  Asset card = Cx6Lx();
  EXPECT_EQ(Evaluate(card, {}).to, "identity-checked");  // no baseline in the default policy
  AcceptancePolicy p;
  p.firmware_baseline["ConnectX-6 Lx"] = "26.40.1000";  // above the sample's 26.33.1048
  v = Evaluate(card, p);
  EXPECT_EQ(v.to, "identity-checked");
  EXPECT_NE(v.reasons.at(0).find("below the baseline 26.40.1000"), std::string::npos);
  p.firmware_baseline["MT_0000000575"] = "26.33.1048";  // by PSID, which wins
  EXPECT_EQ(Evaluate(card, p).to, "firmware-aligned");  // PCIe not measured yet
  card.fields["pci.link_capability"] = "16GT/s x8";
  card.fields["measured.pci_link_status"] = "16GT/s x8";
  EXPECT_EQ(Evaluate(card, p).to, "link-tested");
  card.fields["state"] = "accepted";  // signed off earlier: stays accepted while the evidence holds
  EXPECT_EQ(Evaluate(card, p).to, "accepted");
  card.fields["measured.pci_link_status"] = "8GT/s x8";
  v = Evaluate(card, p);
  EXPECT_EQ(v.to, "rejected");
  EXPECT_NE(v.reasons.at(0).find("PCIe trained at 8GT/s x8"), std::string::npos);
  // A card that fails authenticity is rejected whatever else it shows.
  card = Cx6Lx();
  card.fields["fw.psid"] = "MT_0000000834";
  v = Evaluate(card, p);
  EXPECT_EQ(v.to, "rejected");
  EXPECT_EQ(v.reasons.at(0).substr(0, 16), "psid-not-for-opn");
  // rma is set by hand and stays.
  card.fields["state"] = "rma";
  EXPECT_EQ(Evaluate(card, p).to, "rma");
}

TEST(Acceptance, CardMustBeSupportedInTheServerItSitsIn) {
  // Real outputs: a ConnectX-7 lspci with VPD (MCX75310AAS-NEAT, SN MT2347J0100T) in a host whose dmidecode is a
  // whole Dell PowerEdge R750 dump, on Debian 12. The ledger keeps the server with the card.
  HostFacts f = testing::CaptureFacts("r750", {{"lspci-vvv.txt", "lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"},
                                               {"dmidecode.txt", "dmi/dell-poweredge-r750-dmidecode.txt"},
                                               {"os-release.txt", "os-release/debian-12-bookworm.txt"}});
  AssetObservation o = ObservationsFromFacts(f).at(0);
  EXPECT_EQ(o.fields["server.product"], "PowerEdge R750");
  EXPECT_EQ(o.fields["server.bios"], "1.9.2");
  EXPECT_EQ(o.fields["host.os"], "debian 12");
  Asset card{o.serial, o.kind, o.fields};
  // Its firmware identity as mlxup reports this OPN (tests/fixtures/mlxfwmanager/mlxup-cx7-mcx75310aas-nea-…).
  card.fields["fw.psid"] = "MT_0000000838";
  card.fields["fw.version"] = "28.39.2048";
  AcceptancePolicy p;
  p.firmware_baseline["ConnectX-7"] = "28.39.1002";
  p.require_pcie_at_capability = false;
  ASSERT_EQ(Evaluate(card, p).to, "link-tested");
  // The matrix lists the R750 with a ConnectX-6 Dx only: the card stops short until it is moved.
  p.compat = ParseCompatMatrix("server,nic\nPowerEdge R750,ConnectX-6 Dx\n", "compat.csv");
  AcceptanceVerdict v = Evaluate(card, p);
  EXPECT_EQ(v.to, "firmware-aligned");
  ASSERT_FALSE(v.reasons.empty());
  EXPECT_NE(v.reasons[0].find("does not list the MCX75310AAS-NEAT for the Dell Inc. PowerEdge R750 (r750 "), std::string::npos)
      << v.reasons[0];
  // Listed, with a BIOS floor above this server's.
  p.compat = ParseCompatMatrix("server,nic,bios_min\nPowerEdge R750,ConnectX-7,2.0.0\n", "compat.csv");
  v = Evaluate(card, p);
  EXPECT_EQ(v.to, "firmware-aligned");
  EXPECT_NE(v.reasons.at(0).find("BIOS 1.9.2 is below 2.0.0"), std::string::npos) << v.reasons[0];
  // Supported: the evidence says by which row.
  p.compat = ParseCompatMatrix("server,nic,os\nPowerEdge R750,MCX75310AAS-NEAT,debian 12\n", "compat.csv");
  v = Evaluate(card, p);
  EXPECT_EQ(v.to, "link-tested");
  bool row = false;
  for (const auto& [k, val] : v.evidence) row |= k == "compatibility" && val == "compat.csv line 2";
  EXPECT_TRUE(row);
  // A card never seen in a server: not checked, and said.
  card.fields.erase("server.product");
  card.fields.erase("server.vendor");
  v = Evaluate(card, p);
  EXPECT_EQ(v.to, "link-tested");
  row = false;
  for (const auto& [k, val] : v.evidence) row |= k == "compatibility" && val.starts_with("not checked");
  EXPECT_TRUE(row);
}

TEST(Acceptance, CardPortsRunAtWhatPortAndCableAllow) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("mlxlink/cx7-eth-100g-dac-rs528-ext-speed-masks.txt"));
  // The real CX-7 VPD, with the real CX-7 mlxlink (100G; its DAC supports 100G at most) as its
  // port mlx5_0 (joined in memory: the samples come from different hosts).
  HostFacts f;
  f.hostname = "gpu042";
  f.pci = ParseLspci(ReadText(FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"))).functions;
  RdmaFacts r;
  r.ca.name = "mlx5_0";
  r.pci_bdf = f.pci[0].bdf;
  f.rdma = {r};
  f.links["mlx5_0"] = ParseMlxlink(ReadText(FixturePath("mlxlink/cx7-eth-100g-dac-rs528-ext-speed-masks.txt"))).ports.at(0);
  AssetObservation o = ObservationsFromFacts(f).at(0);
  EXPECT_EQ(o.fields.at("measured.link.mlx5_0"), "100G");
  EXPECT_EQ(o.fields.at("capable.link.mlx5_0"), "100G");
  Asset card{o.serial, o.kind, o.fields};
  card.fields["fw.psid"] = "MT_0000000838";  // in memory, as in HealthyRealCardsPass
  card.fields["fw.version"] = "28.42.1000";
  card.fields["fw.base_mac"] = "58a2e10d4bce";
  card.fields["fw.security"] = "secure-fw";
  card.fields["measured.pci_link_status"] = card.fields.at("pci.link_capability");
  AcceptancePolicy p;
  p.firmware_baseline["ConnectX-7"] = "28.42.1000";
  EXPECT_EQ(Evaluate(card, p).to, "link-tested");
  card.fields["capable.link.mlx5_0"] = "200G";  // a 200G cable on a port that came up at 100G
  AcceptanceVerdict v = Evaluate(card, p);
  EXPECT_EQ(v.to, "rejected");
  EXPECT_NE(v.reasons.at(0).find("mlx5_0 runs at 100G but the port and its cable support 200G"), std::string::npos);
  // Burn-in (railyard burnin check --ledger): a card slow in its loopback is rejected with the
  // evidence; a suspect is held; a pass lets it through; with require_burnin, no result holds it.
  card.fields.erase("capable.link.mlx5_0");
  card.fields["burnin.result"] = "fail (rail perftest on plane compute): the card gpu042 mlx5_0: slow against itself (loopback)";
  v = Evaluate(card, p);
  EXPECT_EQ(v.to, "rejected");
  EXPECT_NE(v.reasons.at(0).find("burn-in fail"), std::string::npos);
  card.fields["burnin.result"] = "suspect, likely (rail perftest on plane compute): intermittent";
  EXPECT_EQ(Evaluate(card, p).to, "firmware-aligned");
  card.fields["burnin.result"] = "pass (rail perftest on plane compute): 3 pair(s), the slowest 391.00 Gb/s (threshold 360.0)";
  EXPECT_EQ(Evaluate(card, p).to, "link-tested");
  card.fields.erase("burnin.result");
  p.require_burnin = true;
  v = Evaluate(card, p);
  EXPECT_EQ(v.to, "firmware-aligned");
  EXPECT_NE(v.reasons.at(0).find("no burn-in result"), std::string::npos);
  EXPECT_TRUE(ParseAcceptancePolicy("require_burnin: true\n", "a.yaml").require_burnin);
}

TEST(Acceptance, ModulesNeedBerOverTheWindowAndACoolCase) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt"));
  Asset dac = Dac();
  AcceptancePolicy p;
  EXPECT_EQ(Evaluate(dac, p).to, "firmware-aligned");  // no BER yet
  dac.fields["measured.effective_ber"] = "1.5e-254";   // as the real mlxlink sample prints 15E-255
  AcceptanceVerdict v = Evaluate(dac, p);
  EXPECT_EQ(v.to, "firmware-aligned");
  EXPECT_NE(v.reasons.at(0).find("less than the policy's 125 min"), std::string::npos);
  dac.fields["measured.ber_window_min"] = "130";
  EXPECT_EQ(Evaluate(dac, p).to, "link-tested");
  dac.fields["measured.effective_ber"] = "3.0e-10";
  EXPECT_EQ(Evaluate(dac, p).to, "rejected");
  dac.fields["measured.effective_ber"] = "1.0e-15";
  dac.fields["measured.temperature_c"] = "74.5";
  v = Evaluate(dac, p);
  EXPECT_EQ(v.to, "rejected");
  EXPECT_NE(v.reasons.at(0).find("74.5 °C"), std::string::npos);
}

TEST(Acceptance, RunRecordsTransitionsAndTheReportNamesRejections) {
  RAILYARD_REQUIRE_FIXTURE(FixturePath("flint/cx6lx-mstflint-q-by-pci-address-arm64.txt"));
  auto path = std::filesystem::temp_directory_path() / ("railyard-accept-" + std::to_string(::getpid()) + ".db");
  {
    auto ledger = OpenSqliteLedger(path.string());
    Asset good = Cx6Lx(), bad = Cx6Lx(), dac = Dac();
    bad.serial = "MT2152X00002";
    bad.fields["fw.base_mac"] = "9cdc71aabbcc";  // an HPE OUI under a retail PSID: cross-flashed
    bad.fields["note"] = "<script>";
    std::vector<AssetObservation> obs;
    for (const Asset& a : {good, bad, dac}) obs.push_back({a.serial, a.kind, a.fields, 0});
    ledger->Record(obs, "receiving", "test");
    AcceptancePolicy p;
    p.firmware_baseline["ConnectX-6 Lx"] = "26.33.1048";
    std::vector<AcceptanceVerdict> verdicts = RunAcceptance(*ledger, p, "B1", "lead");
    ASSERT_EQ(verdicts.size(), 3u);
    EXPECT_EQ(ledger->Get("MT2152X00001")->fields.at("state"), "firmware-aligned");
    EXPECT_EQ(ledger->Get("MT2152X00002")->fields.at("state"), "rejected");
    EXPECT_NE(ledger->Get("MT2152X00002")->fields.at("state.reasons").find("cross-flashed-oem"), std::string::npos);
    // The DAC's BER measured over 130 min (in memory: no real mlxlink of this module).
    ledger->Record({{dac.serial, "cable", {{"measured.effective_ber", "1.0e-15"}, {"measured.ber_window_min", "130"}}, 0}},
                   "tester", "test");
    RunAcceptance(*ledger, p, "B1", "lead");
    EXPECT_EQ(ledger->Get(dac.serial)->fields.at("state"), "link-tested");
    EXPECT_EQ(SignOffBatch(*ledger, "B1", "lead"), std::vector<std::string>{dac.serial});
    EXPECT_EQ(ledger->Get(dac.serial)->fields.at("state"), "accepted");
    uint64_t events = ledger->CountEvents();
    RunAcceptance(*ledger, p, "B1", "lead");
    EXPECT_EQ(ledger->CountEvents(), events);  // nothing new, nothing recorded
    std::vector<LedgerEvent> h = ledger->History("MT2152X00002");
    EXPECT_EQ(h.back().actor, "lead");
    EXPECT_EQ(h.back().source, "railyard accept run");
    std::string html = AcceptanceHtml(verdicts, "B1", "now");
    EXPECT_NE(html.find("MT2152X00002"), std::string::npos);
    EXPECT_NE(html.find("cross-flashed-oem"), std::string::npos);
    EXPECT_EQ(html.find("<script>"), std::string::npos);
    std::string csv = AcceptanceCsv(verdicts);
    EXPECT_NE(csv.find("MT2152X00002,nic,MCX631102AS-ADAT,B1,rejected,"), std::string::npos);
    // Only the ledger's history shows a re-flash: the card read later under another board's PSID,
    // then back (in memory). The whole-ledger checks reject it.
    ledger->Record({{"MT2152X00001", "nic", {{"fw.psid", "MT_0000000834"}}, 0}}, "tester", "query 2");
    ledger->Record({{"MT2152X00001", "nic", {{"fw.psid", "MT_0000000575"}}, 0}}, "tester", "query 3");
    RunAcceptance(*ledger, p, "B1", "lead");
    EXPECT_EQ(ledger->Get("MT2152X00001")->fields.at("state"), "rejected");
    EXPECT_NE(ledger->Get("MT2152X00001")->fields.at("state.reasons").find("psid-changed"), std::string::npos);
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path.string() + "-wal");
  std::filesystem::remove(path.string() + "-shm");
}

TEST(Acceptance, PolicyErrorsNameTheLine) {
  EXPECT_EQ(ParseAcceptancePolicy("max_effective_ber: 1e-13\n", "p.yaml").max_effective_ber, 1e-13);
  try {
    ParseAcceptancePolicy("firmware_baseline: {ConnectX-7: 28.42.1000}\nmax_module_temp: 65\n", "p.yaml");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "p.yaml:2:1: max_module_temp: unknown key; did you mean 'max_module_temp_c'?");
  }
  EXPECT_THROW(ParseAcceptancePolicy("max_raw_ber: lots\n", "p.yaml"), std::runtime_error);
}

}  // namespace
}  // namespace railyard
