// The ledger store's semantics, the same on every backend: SQLite always; PostgreSQL too when
// RAILYARD_TEST_POSTGRES names a server's database (tests/integration/postgres_test.sh starts one
// and runs this suite against it; the backend is only listed when it can run, so nothing is skipped).
#include <unistd.h>

#include <filesystem>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "ledger/ledger.h"
#include "ledger/ledger_testing.h"
#include "util/input_error.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

using testing::Doc;
using testing::Obs;

class LedgerBackends : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("railyard-backends-{}-{}", ::getpid(), ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    if (GetParam() == "postgres") {
      db_ = std::getenv("RAILYARD_TEST_POSTGRES");
      pqxx::connection c(db_);  // a fresh ledger for each test
      pqxx::nontransaction(c).exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
    } else {
      db_ = (dir_ / "ledger.db").string();
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::unique_ptr<LedgerStore> Open(LedgerAccess access = LedgerAccess::kWrite) { return OpenLedger(db_, access); }
  fs::path dir_;
  std::string db_;
};

TEST_P(LedgerBackends, ImportIsIdempotentAndKeepsHistory) {
  auto ledger = Open();
  ImportDocument doc =
      Doc("po-1.csv", "receiving-csv", "fp-1", {Obs("MT2347J0100T", "nic", {{"opn", "MCX75310AAS-NEAT"}, {"batch", "B1"}})});
  ImportResult first = ledger->Import(doc, "alice");
  EXPECT_EQ(first.assets_new, 1u);
  EXPECT_EQ(first.events, 2u);
  ImportResult again = ledger->Import(doc, "bob");
  EXPECT_TRUE(again.already_imported);
  EXPECT_NE(again.previous.find("by alice"), std::string::npos);
  EXPECT_EQ(ledger->ImportedBefore("fp-1"), again.previous);
  EXPECT_EQ(ledger->CountEvents(), 2u);
  // Another document saying the same adds no event; one changing a field adds one.
  ImportDocument same = Doc("po-1-copy.csv", "receiving-csv", "fp-2", doc.observations);
  EXPECT_EQ(ledger->Import(same, "bob").events, 0u);
  ImportDocument moved =
      Doc("facts.json", "facts", "fp-3", {Obs("MT2347J0100T", "nic", {{"location", "gpu001 19:00.0"}, {"batch", "B1"}})});
  EXPECT_EQ(ledger->Import(moved, "carol").events, 1u);
  std::vector<LedgerEvent> h = ledger->History("MT2347J0100T");
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].actor, "alice");
  EXPECT_EQ(h[0].source, "po-1.csv:1");
  EXPECT_EQ(h[2].field, "location");
  EXPECT_EQ(h[2].actor, "carol");
  std::optional<Asset> a = ledger->Get("MT2347J0100T");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->fields.at("location"), "gpu001 19:00.0");
  EXPECT_EQ(a->fields.at("opn"), "MCX75310AAS-NEAT");
  // The state survives reopening: it is in the store, not the process.
  ledger.reset();
  EXPECT_EQ(Open(LedgerAccess::kRead)->Get("MT2347J0100T")->fields.at("batch"), "B1");
}

TEST_P(LedgerBackends, ContradictionsAreRefusedWholeWithTheLine) {
  auto ledger = Open();
  ImportDocument bad =
      Doc("list.csv", "receiving-csv", "fp",
          {Obs("A1", "nic", {{"opn", "X"}}, 2), Obs("B2", "nic", {{"opn", "Y"}}, 3), Obs("A1", "nic", {{"opn", "Z"}}, 4)});
  try {
    ledger->Import(bad, "alice");
    FAIL() << "expected a contradiction";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "list.csv:4: opn: A1 is 'Z' here but 'X' on line 2");
  }
  EXPECT_EQ(ledger->CountEvents(), 0u);  // not half-applied: B2 is not there either
  EXPECT_FALSE(ledger->Get("B2"));
  EXPECT_EQ(ledger->ImportedBefore("fp"), "");  // and the refused document can be imported once fixed
  ledger->Import(Doc("a.csv", "receiving-csv", "fp-a", {Obs("C3", "cable", {{"opn", "MCP1650-H001E30"}})}), "alice");
  EXPECT_THROW(
      ledger->Import(Doc("b.csv", "receiving-csv", "fp-b", {Obs("D4", "nic", {{"opn", "Q"}}), Obs("C3", "nic", {{"opn", "Q"}})}),
                     "bob"),
      InputError);
  EXPECT_FALSE(ledger->Get("D4"));  // the whole import rolled back
  EXPECT_THROW(ledger->Import(Doc("c.csv", "x", "fp-c", {Obs("", "nic", {{"opn", "Q"}})}), "bob"), InputError);
}

TEST_P(LedgerBackends, OneCardInTwoPlacesIsNotedAndChangesAreListed) {
  auto ledger = Open();
  ImportDocument fleet = Doc("fleet.ndjson", "facts", "fp-f",
                             {Obs("MT1", "nic", {{"location", "gpu001 19:00.0"}, {"psid", "MT_0000000838"}}, 1),
                              Obs("MT1", "nic", {{"location", "gpu002 19:00.0"}, {"psid", "MT_0000000838"}}, 2)});
  fleet.repeats_are_conflicts = false;
  ledger->Import(fleet, "ops");
  EXPECT_EQ(ledger->Get("MT1")->fields.at("identity.also_seen"), "gpu002 19:00.0");
  ledger->Record({Obs("MT1", "nic", {{"state", "quarantined"}})}, "alice", "ticket-42");
  ledger->Record({Obs("MT1", "nic", {{"state", "accepted"}})}, "alice", "ticket-43");
  std::vector<std::string> states;
  ledger->ForEachChange("state",
                        [&](const std::string& serial, const std::string& value) { states.push_back(serial + "=" + value); });
  EXPECT_EQ(states, (std::vector<std::string>{"MT1=quarantined", "MT1=accepted"}));
  ledger->Import(Doc("b.csv", "receiving-csv", "fp-b", {Obs("MT0", "cable", {{"opn", "X"}}), Obs("Mt2", "nic", {{"opn", "Y"}})}),
                 "bob");
  std::vector<std::string> serials;
  ledger->ForEachAsset([&](const Asset& a) { serials.push_back(a.serial); });
  EXPECT_EQ(serials, (std::vector<std::string>{"MT0", "MT1", "Mt2"}));  // by bytes, as both backends order them
}

TEST_P(LedgerBackends, ConcurrentImportersLoseNothing) {
  Open();  // created (and migrated) once
  std::vector<std::thread> importers;
  for (int n = 0; n < 4; ++n) {
    importers.emplace_back([this, n] {
      std::vector<AssetObservation> cards;
      for (int i = 0; i < 50; ++i)
        cards.push_back(Obs(fmt::format("MT{}X{:04}", n, i), "nic", {{"batch", fmt::format("B{}", n)}}, i + 1));
      OpenLedger(db_)->Import(Doc(fmt::format("list-{}.csv", n), "receiving-csv", fmt::format("fp-{}", n), cards), "importer");
    });
  }
  for (std::thread& t : importers) t.join();
  auto ledger = Open(LedgerAccess::kRead);
  size_t assets = 0;
  ledger->ForEachAsset([&](const Asset&) { ++assets; });
  EXPECT_EQ(assets, 200u);
  EXPECT_EQ(ledger->CountEvents(), 200u);
}

// A stream of remembered documents, as a facts file's lines are: each line a digest and the cards it
// names. A line the ledger says it knows is handed on unread, with a way to read it after all.
ImportStream RememberedStream(const std::string& fingerprint, const std::vector<std::pair<uint64_t, AssetObservation>>& lines) {
  ImportStream s;
  s.source = "fleet.ndjson";
  s.format = "facts";
  s.fingerprint = fingerprint;
  s.repeats_are_conflicts = false;
  s.reader = "test-reader/1";
  s.produce_documents = [lines](const KnownDigest& known, const DocumentSink& sink) {
    int line = 0;
    for (const auto& [digest, card] : lines) {
      StreamDocument d;
      d.line = ++line;
      d.digest = digest;
      d.known = known(digest);
      if (d.known) {
        d.read_again = [card = card] { return std::vector<AssetObservation>{card}; };
      } else {
        d.observations = {card};
      }
      sink(std::move(d));
    }
  };
  return s;
}

TEST_P(LedgerBackends, ARememberedDocumentIsReadAgainOnlyWhenItOrTheLedgerChanged) {
  auto ledger = Open();
  auto card = [](const std::string& serial, const std::string& fw) { return Obs(serial, "nic", {{"firmware", fw}}); };
  // Digests above 2^63 too: stored signed, they must come back as the same 64 bits.
  const uint64_t d1 = 0xfedcba9876543210, d2 = 42, d3 = 0x8000000000000001;
  ImportResult r = ledger->ImportFrom(RememberedStream("fp-1", {{d1, card("MT01", "28.39")}, {d2, card("MT02", "28.39")}}), "t");
  EXPECT_EQ(r.documents_read, 2u);
  EXPECT_EQ(r.documents_unchanged, 0u);
  // The same lines and one new: only the new one is read.
  r = ledger->ImportFrom(
      RememberedStream("fp-2", {{d1, card("MT01", "28.39")}, {d2, card("MT02", "28.39")}, {d3, card("MT03", "28.43")}}), "t");
  EXPECT_EQ(r.documents_read, 1u);
  EXPECT_EQ(r.documents_unchanged, 2u);
  EXPECT_EQ(r.assets_seen, 3u);
  // Another document changes MT02 in between: nothing remembered is trusted.
  ledger->Import(Doc("po.csv", "receiving-csv", "fp-po", {Obs("MT02", "nic", {{"batch", "B9"}})}), "t");
  r = ledger->ImportFrom(
      RememberedStream("fp-3", {{d1, card("MT01", "28.39")}, {d2, card("MT02", "28.39")}, {d3, card("MT03", "28.43")}}), "t");
  EXPECT_EQ(r.documents_read, 3u);
  EXPECT_EQ(r.documents_unchanged, 0u);
  EXPECT_EQ(r.events, 0u);  // read again, and nothing differs
  EXPECT_EQ(ledger->Get("MT02")->fields.at("batch"), "B9");
  // And after that, the next is skipped again, in a new connection too.
  r = Open()->ImportFrom(
      RememberedStream("fp-4", {{d1, card("MT01", "28.39")}, {d2, card("MT02", "28.39")}, {d3, card("MT03", "28.43")}}), "t");
  EXPECT_EQ(r.documents_unchanged, 3u);
  EXPECT_EQ(r.documents_read, 0u);
}

// A document's cards are read at once on a server backend: serials with quotes, backslashes and braces
// (what an array literal or SQL string escapes) come back as written, a card repeated within the
// document sees its own first report, and a card set earlier in the same import reads what was set.
TEST_P(LedgerBackends, CardsReadAtOnceKeepHostileSerialsAndTheImportsOwnWrites) {
  auto ledger = Open();
  const std::string odd = "MT\"0{4},\\x'; DROP TABLE events; --";
  ledger->Import(Doc("po.csv", "receiving-csv", "fp-po", {Obs(odd, "nic", {{"batch", "B1"}})}), "t");
  ImportStream s = RememberedStream("fp-1", {{1, Obs(odd, "nic", {{"firmware", "28.39"}}, 1)},
                                             {2, Obs("MT05", "nic", {{"firmware", "28.39"}}, 2)},
                                             {3, Obs(odd, "nic", {{"firmware", "28.39"}, {"location", "gpu3"}}, 3)}});
  ImportResult r = ledger->ImportFrom(s, "t");
  EXPECT_EQ(r.documents_read, 3u);
  std::optional<Asset> a = Open(LedgerAccess::kRead)->Get(odd);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->fields.at("batch"), "B1");
  EXPECT_EQ(a->fields.at("firmware"), "28.39");
  EXPECT_EQ(a->fields.at("identity.also_seen"), "gpu3");          // the repeat read the import's own first report
  EXPECT_EQ(Open(LedgerAccess::kRead)->History(odd).size(), 3u);  // batch, firmware, also_seen
}

TEST_P(LedgerBackends, ReadingNeverCreatesALedger) {
  EXPECT_THROW(Open(LedgerAccess::kRead), InputError);
  auto ledger = Open();  // created by a write
  EXPECT_FALSE(ledger->Get("nothing"));
  EXPECT_NO_THROW(Open(LedgerAccess::kRead));
}

std::vector<std::string> Backends() {
  std::vector<std::string> out = {"sqlite"};
  if (const char* pg = std::getenv("RAILYARD_TEST_POSTGRES"); pg && *pg) out.push_back("postgres");
  return out;
}

INSTANTIATE_TEST_SUITE_P(Store, LedgerBackends, ::testing::ValuesIn(Backends()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace railyard
