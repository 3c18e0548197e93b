// The ledger store: one transaction per import, idempotent, contradictions refused with the
// line, history kept, events append-only; importers on real tool outputs.
#include "ledger/ledger.h"
#include "ledger/ledger_testing.h"

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "export/write_all.h"
#include "facts/capture_testing.h"
#include "facts/host_facts.h"
#include "ledger/authenticity.h"
#include "ledger/labels.h"
#include "ledger/listing.h"
#include "ledger/observe.h"
#include "parse/fixtures.h"
#include "parse/lspci.h"
#include "plan/planner.h"
#include "spec/spec.h"
#include "util/input_error.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;
using testing::FixturePath;

class LedgerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("railyard-ledger-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    db_ = (dir_ / "ledger.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  fs::path dir_;
  std::string db_;
};

using testing::Doc;
using testing::Obs;

// The store's semantics on every backend (import, idempotence, contradictions, history) are in
// ledger_backends_test.cc; these are the SQLite file's own and the importers'.

TEST_F(LedgerTest, EventsAreAppendOnlyAndTheSchemaIsVersioned) {
  OpenSqliteLedger(db_)->Import(Doc("a", "x", "fp", {Obs("S1", "nic", {{"opn", "O"}})}), "alice");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  EXPECT_NE(sqlite3_exec(db, R"(UPDATE events SET changes = '{"opn": "forged"}')", nullptr, nullptr, &err), SQLITE_OK);
  EXPECT_NE(std::string(err ? err : "").find("append-only"), std::string::npos);
  sqlite3_free(err);
  EXPECT_NE(sqlite3_exec(db, "DELETE FROM events", nullptr, nullptr, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  try {
    OpenSqliteLedger(db_);
    FAIL() << "a newer schema must be refused";
  } catch (const LedgerError& e) {
    EXPECT_NE(std::string(e.what()).find("newer than this railyard's"), std::string::npos);
  }
  EXPECT_THROW(OpenSqliteLedger((dir_ / "no-such-dir" / "x.db").string()), LedgerError);
}

TEST_F(LedgerTest, ListingFiltersByBatchKindAndStateAndShowsHistory) {
  auto ledger = OpenSqliteLedger(db_);
  ledger->Import(Doc("receiving.csv", "receiving-csv", "fp1",
                     {Obs("S1", "nic", {{"opn", "MCX75310AAS-NEAT"}, {"batch", "PO-1"}}),
                      Obs("S2", "cable", {{"opn", "MCP1650-V001E30"}, {"batch", "PO-1"}, {"state", "accepted"}}),
                      Obs("=S3", "nic", {{"opn", "MCX75310AAS-NEAT"}, {"batch", "PO-2"}, {"location", "r1,u5"}})}),
                 "alice");
  std::string all = AssetListing(*ledger, {}, true);
  EXPECT_EQ(all.substr(0, all.find('\n')), "serial,kind,opn,batch,state,location");
  EXPECT_NE(all.find("'=S3,nic,MCX75310AAS-NEAT,PO-2,received,\"r1,u5\"\n"), std::string::npos) << all;
  EXPECT_EQ(AssetListing(*ledger, {"PO-1", "nic", ""}, true),
            "serial,kind,opn,batch,state,location\nS1,nic,MCX75310AAS-NEAT,PO-1,received,\n");
  EXPECT_EQ(AssetListing(*ledger, {"", "", "accepted"}, false).find("S2"), 0u);
  EXPECT_EQ(AssetListing(*ledger, {"PO-9", "", ""}, false), "");
  std::optional<Asset> s1 = ledger->Get("S1");
  ASSERT_TRUE(s1);
  EXPECT_EQ(AssetText(*s1).substr(0, AssetText(*s1).find('\n')), "S1 (nic)");
  std::string history = HistoryText(ledger->History("S1"));
  EXPECT_NE(history.find("alice"), std::string::npos) << history;
  EXPECT_NE(history.find("MCX75310AAS-NEAT"), std::string::npos);
}

TEST_F(LedgerTest, ReceivingListErrorsNameLineAndField) {
  auto ledger = OpenSqliteLedger(db_);
  ImportOptions o;
  std::string good =
      Write("po.csv", "serial,opn,batch,po\nMT2347J0100T,MCX75310AAS-NEAT,B1,PO-7\nMT2019VS04757,MCP7Y00-N001,B1,PO-7\n");
  ImportDocument d = ReadImportDocument(good, o, *ledger);
  ASSERT_EQ(d.observations.size(), 2u);
  EXPECT_EQ(d.observations[0].kind, "nic");
  EXPECT_EQ(d.observations[1].kind, "cable");
  EXPECT_EQ(d.observations[1].line, 3);
  EXPECT_EQ(d.observations[0].fields.at("state"), "received");
  auto error = [&](const std::string& text) {
    try {
      ReadImportDocument(Write("bad.csv", text), o, *ledger);
    } catch (const InputError& e) {
      return std::string(e.what()).substr(std::string(e.what()).find("bad.csv"));
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("serial,opn,bach\nA,MCX75310AAS-NEAT,B\n"), "bad.csv:1: bach: unknown column (did you mean batch?)");
  EXPECT_EQ(error("serial,opn\nA,MCX75310AAS-NEAX\n"),
            "bad.csv:2: opn: MCX75310AAS-NEAX is not in railyard's catalog; did you mean MCX75310AAS-NEAT? (--allow-unknown-opn "
            "accepts it)");
  EXPECT_EQ(error("serial,opn\n,MCX75310AAS-NEAT\n"), "bad.csv:2: serial: empty");
  EXPECT_EQ(error("serial,opn,kind\nA,MCX75310AAS-NEAT,gpu\n"),
            "bad.csv:2: kind: 'gpu' is not nic, cable, transceiver or switch");
  EXPECT_EQ(error("serial,opn\n\"A,MCX\n"), "bad.csv:2: unterminated quoted field");
  o.allow_unknown_opn = true;
  EXPECT_EQ(ReadImportDocument(Write("x.csv", "serial,opn\nA,MCX99999A-ZZZZ\n"), o, *ledger).observations.size(), 1u);
}

TEST_F(LedgerTest, RealLspciVpdAndFlintImport) {
  auto lspci = FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  RAILYARD_REQUIRE_FIXTURE(lspci);
  auto ledger = OpenSqliteLedger(db_);
  ImportDocument d = ReadImportDocument(lspci.string(), {}, *ledger);
  EXPECT_EQ(d.format, "lspci");
  ASSERT_EQ(d.observations.size(), 1u);
  const AssetObservation& card = d.observations[0];
  EXPECT_EQ(card.serial, "MT2347J0100T");
  EXPECT_EQ(card.fields.at("opn"), "MCX75310AAS-NEAT");
  EXPECT_EQ(card.fields.at("vpd.checksum"), "good");
  EXPECT_EQ(card.fields.at("vpd.V2"), "MCX75310AAS-NEAT");
  EXPECT_EQ(card.fields.count("location"), 0u);  // a bare lspci names no host
  ledger->Import(d, "alice");
  // A flint query names no serial: it attaches to the card with its base GUID. The real CX6 Lx
  // query is attached to a card the test records by hand with that GUID.
  auto flint = FixturePath("flint/cx6lx-mstflint-q-by-pci-address-arm64.txt");
  EXPECT_THROW(ReadImportDocument(flint.string(), {}, *ledger), InputError);  // no card has its GUID yet
  ledger->Record({Obs("MT2152X00001", "nic", {{"fw.base_guid", "e8ebd3030070cf12"}})}, "test", "hand");
  ImportDocument q = ReadImportDocument(flint.string(), {}, *ledger);
  ASSERT_EQ(q.observations.size(), 1u);
  EXPECT_EQ(q.observations[0].serial, "MT2152X00001");
  EXPECT_EQ(q.observations[0].fields.at("fw.psid"), "MT_0000000575");
  EXPECT_EQ(q.observations[0].fields.at("fw.security"), "secure-fw");
}

TEST_F(LedgerTest, RealModuleAndCaptureDirectory) {
  auto module = FixturePath("ethtool/m-qsfp-dd-mellanox-passive-dac-spectrum2-prerelease-cmis-parser.txt");
  RAILYARD_REQUIRE_FIXTURE(module);
  auto ledger = OpenSqliteLedger(db_);
  ImportDocument m = ReadImportDocument(module.string(), {}, *ledger);
  EXPECT_EQ(m.format, "ethtool-m");
  ASSERT_EQ(m.observations.size(), 1u);
  EXPECT_EQ(m.observations[0].serial, "MT2019VS04757");
  EXPECT_EQ(m.observations[0].kind, "cable");  // passive copper
  EXPECT_EQ(m.observations[0].fields.at("opn"), "MCP1660-W00AE30");
  // A capture directory (collect --from's layout): the card, from its lspci VPD, with its host.
  fs::create_directories(dir_ / "cap");
  fs::copy_file(FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt"), dir_ / "cap" / "lspci-vvv.txt");
  Write("cap/hostname.txt", "gpu042\n");
  ImportDocument cap = ReadImportDocument((dir_ / "cap").string(), {.format = "", .batch = "B7"}, *ledger);
  EXPECT_EQ(cap.format, "capture");
  ASSERT_EQ(cap.observations.size(), 1u);
  EXPECT_EQ(cap.observations[0].fields.at("location"), "gpu042 19:00.0");
  EXPECT_EQ(cap.observations[0].fields.at("batch"), "B7");
  // The same directory read the same way is the same import; stamped with another batch, another one.
  EXPECT_EQ(ReadImportDocument((dir_ / "cap").string(), {.format = "", .batch = "B7"}, *ledger).fingerprint, cap.fingerprint);
  EXPECT_NE(ReadImportDocument((dir_ / "cap").string(), {}, *ledger).fingerprint, cap.fingerprint);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST_F(LedgerTest, LabelAuditsAndCableLabelsAgainstThePlan) {
  // The lab plan's first compute link: fibre MFP7E10-N010 between MMA4Z00-NS400 (node) and
  // MMA4Z00-NS (switch) transceivers, label COMP-000001.
  const fs::path out = dir_ / "plan";
  WritePlanOutputs(Plan(LoadSpec(std::string(RAILYARD_SOURCE_DIR) + "/examples/lab-8-node.yaml")), Catalog::Builtin(),
                   out.string());
  PlannedFabric plan = LoadPlannedFabric((out / "plan.json").string());
  auto ledger = OpenSqliteLedger(db_);
  ImportOptions o;
  ledger->Import(ReadImportDocument(Write("po.csv",
                                          "serial,opn,batch\n"
                                          "FIB0001,MFP7E10-N007,B1\n"
                                          "XCV0001,MMA4Z00-NS400,B1\n"
                                          "DAC0001,MCP7Y00-N001,B1\n"
                                          "FIB0002,MFP7E10-N010,B1\n"
                                          "FIB0003,MFP7E10-N010,B1\n"),
                                    o, *ledger),
                 "alice");
  ImportDocument audit = ReadImportDocument(Write("scan.csv",
                                                  "serial,label,device,port\n"
                                                  "FIB0001,COMP-000001,lab001,mlx5_0\n"
                                                  "XCV0001,COMP-000001,lab001,mlx5_0\n"
                                                  "DAC0001,COMP-000002,lab001,mlx5_1\n"
                                                  "FIB0002,NOPE-1,,\n"),
                                            o, *ledger);
  EXPECT_EQ(audit.format, "label-audit");
  ledger->Import(audit, "tech");
  EXPECT_EQ(ledger->Get("FIB0001")->fields.at("label"), "COMP-000001");
  EXPECT_THROW(ReadImportDocument(Write("scan2.csv", "serial,label\nZZZ9,COMP-000003\n"), o, *ledger),
               InputError);  // not received
  std::vector<LabelledCable> labels = LabelledCables(*ledger, &plan, "");
  std::map<std::string, std::string> status;
  for (const LabelledCable& c : labels) status[c.serial] = c.status;
  EXPECT_EQ(status["FIB0001"], "ok");
  EXPECT_EQ(status["XCV0001"], "ok");
  EXPECT_EQ(status["DAC0001"], "part-mismatch");  // a DAC where the plan has fibre
  EXPECT_EQ(status["FIB0002"], "not-in-plan");
  EXPECT_EQ(status["FIB0003"], "unassigned");
  for (const LabelledCable& c : labels) {
    if (c.serial == "FIB0001") {
      EXPECT_EQ(c.a_end, "lab001 mlx5_0");
      EXPECT_EQ(c.z_end, "compute-leaf-001 1");
    }
  }
  EXPECT_TRUE(LabelledCables(*ledger, &plan, "accepted").empty());  // none accepted yet
  EXPECT_NE(LabelledCablesCsv(labels).find(
                "COMP-000001,FIB0001,MFP7E10-N007,received,lab001 mlx5_0,compute-leaf-001 1,7,MFP7E10-N007,ok"),
            std::string::npos);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST_F(LedgerTest, RealMlxupAttachesByBaseMac) {
  auto mlxup = FixturePath("mlxfwmanager/cx7-mlxup-two-cards-update-required-no-base-guid.txt");
  RAILYARD_REQUIRE_FIXTURE(mlxup);
  auto ledger = OpenSqliteLedger(db_);
  // The real output covers two cards; with one of them unknown nothing is imported.
  ledger->Record({Obs("MT2330X00001", "nic", {{"fw.base_mac", "e09d73126474"}})}, "test", "hand");
  EXPECT_THROW(ReadImportDocument(mlxup.string(), {}, *ledger), InputError);
  ledger->Record({Obs("MT2330X00002", "nic", {{"fw.base_mac", "E0:9D:73:12:5F:C4"}})}, "test", "hand");
  ImportDocument d = ReadImportDocument(mlxup.string(), {}, *ledger);
  EXPECT_EQ(d.format, "mlxfwmanager");
  ledger->Import(d, "alice");
  Asset a = *ledger->Get("MT2330X00002");
  EXPECT_EQ(a.fields.at("fw.psid"), "MT_0000001244");
  EXPECT_EQ(a.fields.at("fw.part_number"), "MCX715105AS-WEAT_Ax");
  EXPECT_EQ(a.fields.at("fw.version"), "28.42.1000");
  EXPECT_EQ(a.fields.at("fw.available"), "28.43.1014");
  EXPECT_EQ(a.fields.at("fw.status"), "Update required");
  // The same card's real flint query (the same host) attaches by its base MAC too.
  ImportDocument q =
      ReadImportDocument(FixturePath("flint/cx7-fs4-secure-fw-query-rom-info-two-lines.txt").string(), {}, *ledger);
  EXPECT_EQ(q.observations.at(0).serial, "MT2330X00001");
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

TEST_F(LedgerTest, FlashedAndRunningFirmwareBothRecorded) {
  // The real mlxup output of a ConnectX-7 whose new image waits for a reset ("Up to date", FW (Running) older).
  auto mlxup = FixturePath("mlxfwmanager/mlxup-cx7-mcx75310aas-nea-fw-running-pending-up-to-date.txt");
  RAILYARD_REQUIRE_FIXTURE(mlxup);
  auto ledger = OpenSqliteLedger(db_);
  ledger->Record({Obs("MT2400X00001", "nic", {{"fw.base_guid", "9c63c00300abed5a"}})}, "test", "hand");
  ImportDocument d = ReadImportDocument(mlxup.string(), {}, *ledger);
  ledger->Import(d, "alice");
  Asset a = *ledger->Get("MT2400X00001");
  EXPECT_EQ(a.fields.at("fw.version"), "28.47.1026");
  EXPECT_EQ(a.fields.at("fw.running_version"), "28.46.3048");
}

TEST_F(LedgerTest, FlintOnlyCaptureAttachesByLocationOrSaysWhy) {
  // A capture with only the real mstflint query of the CX-6 Lx at 0002:01:00.0 (no lspci: no serial in it).
  fs::path cap = dir_ / "cap-flint-only";
  fs::create_directories(cap);
  fs::copy_file(FixturePath("flint/cx6lx-mstflint-q-by-pci-address-arm64.txt"), cap / "flint-q-0002:01:00.0.txt");
  std::ofstream(cap / "hostname.txt") << "arm01\n";
  auto ledger = OpenSqliteLedger(db_);
  ImportOptions as_capture;
  as_capture.format = "capture";
  try {
    ReadImportDocument(cap.string(), as_capture, *ledger);
    ADD_FAILURE() << "a flint query with no card to attach to must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("this capture has no lspci VPD"), std::string::npos) << e.what();
  }
  // The ledger saw a card at arm01 0002:01:00.0 (another GUID recorded by hand): the query attaches by location.
  ledger->Record({Obs("MT2152X00009", "nic", {{"location", "arm01 0002:01:00.0"}})}, "test", "hand");
  ImportDocument d = ReadImportDocument(cap.string(), as_capture, *ledger);
  ASSERT_EQ(d.observations.size(), 1u);
  EXPECT_EQ(d.observations[0].serial, "MT2152X00009");
  EXPECT_EQ(d.observations[0].fields.at("fw.psid"), "MT_0000000575");
}

TEST_F(LedgerTest, MstvpdImportOfAnOemCard) {
  auto ledger = OpenSqliteLedger(db_);
  ImportDocument d = ReadImportDocument(FixturePath("mstvpd/lenovo-cx4lx-01gr252-lnv-modl-mlx5_0.txt").string(), {}, *ledger);
  EXPECT_EQ(d.format, "mstvpd");
  ASSERT_EQ(d.observations.size(), 1u);
  EXPECT_EQ(d.observations[0].serial, "Y150AG9AP1B1");
  EXPECT_EQ(d.observations[0].fields.at("opn"), "MCX4121A-ACAT");
  EXPECT_EQ(d.observations[0].fields.at("oem.part_number"), "01GR252");
}

TEST_F(LedgerTest, MlxlinkDacIsACableAndItsOuiIsChecked) {
  HostFacts f = testing::CaptureFacts(
      "gpu07", {{"mlxlink-mlx5_0.txt", "mlxlink/cx7-osfp-ndr-fs-passive-copper-rx-los-cdr-lol-linkup.txt"}});
  std::vector<AssetObservation> obs = ObservationsFromFacts(f);
  ASSERT_EQ(obs.size(), 1u);
  EXPECT_EQ(obs[0].serial, "C2604279049-2");
  EXPECT_EQ(obs[0].kind, "cable");  // the part number is FS's, but mlxlink says passive copper
  EXPECT_EQ(obs[0].fields.at("module.length"), "1 m");
  EXPECT_EQ(obs[0].fields.count("measured.temperature_c"), 0u);
  std::vector<AuthenticityFinding> found = CheckAsset({obs[0].serial, obs[0].kind, obs[0].fields});
  bool inconsistent = false;
  for (const AuthenticityFinding& x : found) inconsistent |= x.finding.rule == "module-vendor-inconsistent";
  EXPECT_TRUE(inconsistent);  // NVIDIA's OUI on an FS part
}

TEST_F(LedgerTest, OneSerialOnTwoHostsIsRecordedNotRefused) {
  auto lspci = FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  RAILYARD_REQUIRE_FIXTURE(lspci);
  // Two hosts' facts report the same real card (as a cloned card would).
  fs::create_directories(dir_ / "facts");
  for (const char* host : {"gpu001", "gpu002"}) {
    HostFacts f;
    f.hostname = host;
    f.pci = ParseLspci(testing::ReadText(lspci)).functions;
    std::ofstream(dir_ / "facts" / (std::string(host) + ".json")) << ToJson(f).dump();
  }
  auto ledger = OpenSqliteLedger(db_);
  ImportDocument d = ReadImportDocument((dir_ / "facts").string(), {}, *ledger);
  EXPECT_EQ(d.format, "facts");
  EXPECT_FALSE(d.repeats_are_conflicts);
  ASSERT_EQ(d.observations.size(), 2u);
  ledger->Import(d, "alice");
  Asset a = *ledger->Get("MT2347J0100T");
  EXPECT_EQ(a.fields.at("location"), "gpu001 19:00.0");
  EXPECT_EQ(a.fields.at("identity.also_seen"), "gpu002 19:00.0");
  size_t dup = 0;
  for (const AuthenticityFinding& f : CheckLedger(*ledger)) dup += f.finding.rule == "duplicate-identity";
  EXPECT_EQ(dup, 1u);
}

TEST_F(LedgerTest, NotOnAnyDeliveryOnceAReceivingListExists) {
  auto lspci = FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  RAILYARD_REQUIRE_FIXTURE(lspci);
  // A real card (its VPD serial MT2347J0100T) seen on a host.
  fs::create_directories(dir_ / "facts");
  HostFacts f;
  f.hostname = "gpu001";
  f.pci = ParseLspci(testing::ReadText(lspci)).functions;
  std::ofstream(dir_ / "facts" / "gpu001.json") << ToJson(f).dump();
  auto ledger = OpenSqliteLedger(db_);
  ledger->Import(ReadImportDocument((dir_ / "facts").string(), {}, *ledger), "alice");
  auto count = [&] {
    size_t n = 0;
    for (const AuthenticityFinding& x : CheckLedger(*ledger)) n += x.finding.rule == "not-on-any-delivery";
    return n;
  };
  EXPECT_EQ(count(), 0u);  // no receiving list yet: nothing to compare with, nothing claimed
  // A delivery of two other cards: the card in gpu001 is on no receiving list.
  std::ofstream(dir_ / "po-1.csv")
      << "serial,opn,batch,po\nMT2347J0200T,MCX75310AAS-NEAT,B1,PO-1\nMT2347J0201T,MCX75310AAS-NEAT,B1,PO-1\n";
  ledger->Import(ReadImportDocument((dir_ / "po-1.csv").string(), {}, *ledger), "alice");
  EXPECT_EQ(count(), 1u);
  // Its own delivery arrives: the finding goes.
  std::ofstream(dir_ / "po-2.csv") << "serial,opn,batch,po\nMT2347J0100T,MCX75310AAS-NEAT,B2,PO-2\n";
  ledger->Import(ReadImportDocument((dir_ / "po-2.csv").string(), {}, *ledger), "alice");
  EXPECT_EQ(count(), 0u);
}

}  // namespace
}  // namespace railyard

namespace railyard {
namespace {

// A facts file imported again reads only the lines whose bytes changed, and ends exactly where reading
// every line would: checked against a second ledger fed the same files through the plain stream.
TEST_F(LedgerTest, ReimportReadsOnlyWhatChangedAndEndsWhereAFullReadWould) {
  auto lspci = testing::FixturePath("lspci/cx7-ndr-osfp-gen5-x16-vpd.txt");
  RAILYARD_REQUIRE_FIXTURE(lspci);
  const PciFunction real = ParseLspci(testing::ReadText(lspci)).functions.at(0);
  // A host line: one real card per serial, each at its own address; `v0` varies a VPD field.
  auto host = [&](const std::string& name, const std::vector<std::string>& serials, const std::string& v0 = "") {
    HostFacts f;
    f.hostname = name;
    for (size_t i = 0; i < serials.size(); ++i) {
      PciFunction card = real;
      card.bdf = fmt::format("0000:{}a:00.0", i + 1);
      card.vpd["SN"] = serials[i];
      if (!v0.empty()) card.vpd["V0"] = v0;
      f.pci.push_back(card);
    }
    return ToJson(f).dump();
  };
  int version = 0;
  auto file = [&](const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& l : lines) text += l + "\n";
    return Write(fmt::format("fleet-{}.ndjson", ++version), text);
  };
  auto fast = OpenSqliteLedger(db_);
  auto full = OpenSqliteLedger((dir_ / "full.db").string());
  auto import_both = [&](const std::string& path) {
    ImportStream plain = OpenImport(path, {}, *full);
    plain.produce_documents = nullptr;
    full->ImportFrom(plain, "t");
    return fast->ImportFrom(OpenImport(path, {}, *fast), "t");
  };
  auto expect_same = [&](const char* step) {
    std::vector<Asset> a, b;
    fast->ForEachAsset([&](const Asset& x) { a.push_back(x); });
    full->ForEachAsset([&](const Asset& x) { b.push_back(x); });
    ASSERT_EQ(a.size(), b.size()) << step;
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].serial, b[i].serial) << step;
      EXPECT_EQ(a[i].fields, b[i].fields) << step << ": " << a[i].serial;
    }
    EXPECT_EQ(fast->CountEvents(), full->CountEvents()) << step;
  };

  ImportResult r = import_both(file({host("gpu1", {"MT0001", "MT0002"}), host("gpu2", {"MT0003"}), host("gpu3", {"MT0004"})}));
  EXPECT_EQ(r.documents_read, 3u);
  EXPECT_EQ(r.documents_unchanged, 0u);
  expect_same("first import");

  // One host's card changed: that line is read, the other two are not.
  r = import_both(file({host("gpu1", {"MT0001", "MT0002"}), host("gpu2", {"MT0003"}, "A1"), host("gpu3", {"MT0004"})}));
  EXPECT_EQ(r.documents_read, 1u);
  EXPECT_EQ(r.documents_unchanged, 2u);
  EXPECT_EQ(r.assets_seen, 4u);
  EXPECT_EQ(r.events, 1u);
  expect_same("one line changed");

  // Another document changed a card since: nothing remembered is trusted, every line is read.
  const std::string receiving = Write("po.csv", "serial,opn,batch,po\nMT0004,MCX75310AAS-NEAT,B9,PO-9\n");
  fast->Import(ReadImportDocument(receiving, {}, *fast), "t");
  full->Import(ReadImportDocument(receiving, {}, *full), "t");
  r = import_both(file({host("gpu1", {"MT0001", "MT0002"}), host("gpu2", {"MT0003"}, "A2"), host("gpu3", {"MT0004"})}));
  EXPECT_EQ(r.documents_read, 3u);
  EXPECT_EQ(r.documents_unchanged, 0u);
  expect_same("after another document");

  // A card now also seen on gpu2: gpu3's line is the same bytes as before, but its card was named
  // first on gpu2's, so it is read, and the card is noted as seen in two places in both ledgers.
  r = import_both(file({host("gpu1", {"MT0001", "MT0002"}), host("gpu2", {"MT0003", "MT0004"}, "A2"), host("gpu3", {"MT0004"})}));
  EXPECT_EQ(r.documents_unchanged, 1u);
  EXPECT_EQ(r.documents_read, 2u);
  expect_same("a card in two places");
  EXPECT_FALSE(fast->Get("MT0004")->fields.at("identity.also_seen").empty());
}

}  // namespace
}  // namespace railyard
