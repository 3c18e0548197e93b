// The inventory ledger: every NIC, cable and transceiver by serial, as an append-only history of
// events. An event sets one field of one asset ("psid" of MT2419X00042 = "MT_0000000838"), says
// who and when, and names the document it came from; an asset's current state is the last value
// of each of its fields. Events are never updated or deleted.
//
// LedgerStore is the storage interface (SQLite embedded, PostgreSQL for a shared ledger; docs/ledger.md):
// an import is one transaction, applied whole or not at all.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace railyard {

// What an import says about one asset: its serial, kind and the fields the document shows.
struct AssetObservation {
  std::string serial;
  std::string kind;                           // nic | cable | transceiver | switch
  std::map<std::string, std::string> fields;  // field -> value, e.g. "opn", "psid", "vpd.PN", "location"
  int line = 0;                               // where in the document (0 when the format has no lines)
};

// A document to import: the observations it holds, and where it came from.
struct ImportDocument {
  std::string source;       // path (or "-"), as given
  std::string format;       // receiving-csv | facts | capture | lspci | flint | ethtool-m | mlxfwmanager | label-audit
  std::string fingerprint;  // of the document's bytes: the same document twice is imported once
  std::vector<AssetObservation> observations;
  std::string already_imported;  // set (and observations left empty) when the ledger has this document
  // A serial the document names twice with different values: an input error (a typed list), or,
  // where false (facts of many hosts), one card in two places: the first report stands and the
  // later ones are recorded on it as `identity.also_seen`.
  bool repeats_are_conflicts = true;
};

// The same, produced one observation at a time inside the import's transaction, so a 100,000-card
// document is never held whole. `produce` calls the sink for each observation; an exception from
// it rolls the import back.
using ObservationSink = std::function<void(const AssetObservation&)>;

// One document of a stream whose documents are remembered by their bytes (a facts file's lines): the
// digest of its bytes and what it says, or, when the importer said it knew the digest, nothing yet and
// a way to read it after all.
struct StreamDocument {
  int line = 0;
  uint64_t digest = 0;
  bool known = false;
  std::vector<AssetObservation> observations;                 // when not known
  std::function<std::vector<AssetObservation>()> read_again;  // when known
};
using KnownDigest = std::function<bool(uint64_t)>;
using DocumentSink = std::function<void(StreamDocument&&)>;

struct ImportStream {
  std::string source;
  std::string format;
  std::string fingerprint;
  std::string already_imported;
  bool repeats_are_conflicts = true;
  std::function<void(const ObservationSink&)> produce;
  // Set for streams of remembered documents: used instead of `produce`, so that a re-import reads only
  // the documents whose bytes changed (ledger/import_apply.h says when skipping one is safe). `reader`
  // names what turns a document into observations, version included: digests another reader
  // remembered are not trusted.
  std::function<void(const KnownDigest&, const DocumentSink&)> produce_documents;
  std::string reader;
};

struct LedgerEvent {
  int64_t id = 0;
  std::string time;  // UTC, ISO 8601
  std::string actor;
  std::string source;  // document path and line
  int64_t import_id = 0;
  std::string serial;
  std::string kind;
  std::string field;
  std::string value;
};

struct Asset {
  std::string serial;
  std::string kind;
  std::map<std::string, std::string> fields;  // the current value of each field
};

struct ImportResult {
  int64_t import_id = 0;  // 0 when nothing was recorded (already imported)
  bool already_imported = false;
  std::string previous;  // when already imported: "2026-11-30T10:00:00Z by alice"
  uint64_t assets_seen = 0;
  uint64_t assets_new = 0;
  // Streams of remembered documents (facts files): documents read, and documents taken as read
  // because the last import read the same bytes and nothing has changed their assets since.
  uint64_t documents_read = 0;
  uint64_t documents_unchanged = 0;
  uint64_t events = 0;  // fields that changed
};

// The store failed: the database cannot be opened, locked, written or is damaged (exit 3). What an
// imported document gets wrong is an InputError naming the document, never this.
class LedgerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class LedgerStore {
 public:
  virtual ~LedgerStore() = default;
  // Applies a document in one transaction: an event for each asset whose fields differ from its
  // current ones; nothing when the same fingerprint was imported before.
  virtual ImportResult ImportFrom(const ImportStream& stream, const std::string& actor) = 0;
  ImportResult Import(const ImportDocument& doc, const std::string& actor) {
    return ImportFrom({doc.source, doc.format, doc.fingerprint, doc.already_imported, doc.repeats_are_conflicts,
                       [&doc](const ObservationSink& sink) {
                         for (const AssetObservation& o : doc.observations) sink(o);
                       },
                       nullptr, ""},
                      actor);
  }
  // Adds events by hand (state changes, label audits): one transaction, as a "manual" document.
  ImportResult Record(const std::vector<AssetObservation>& changes, const std::string& actor, const std::string& source) {
    return ImportFrom({source, "manual", "", "", true,
                       [&changes](const ObservationSink& sink) {
                         for (const AssetObservation& o : changes) sink(o);
                       },
                       nullptr, ""},
                      actor);
  }
  virtual std::optional<Asset> Get(const std::string& serial) const = 0;
  virtual std::vector<LedgerEvent> History(const std::string& serial) const = 0;
  // Every asset's current state, in serial order, one at a time (100,000 assets stream).
  virtual void ForEachAsset(const std::function<void(const Asset&)>& visit) const = 0;
  virtual uint64_t CountEvents() const = 0;
  // Every value a field was ever set to, oldest first, for every asset: (serial, value).
  virtual void ForEachChange(const std::string& field,
                             const std::function<void(const std::string&, const std::string&)>& visit) const = 0;
  // "TIME by ACTOR from SOURCE" when a document with this fingerprint was imported, else "".
  virtual std::string ImportedBefore(const std::string& fingerprint) const = 0;
};

// Opens (creating and migrating as needed) a SQLite ledger. Throws LedgerError naming the path.
// Opening checks the file: `PRAGMA quick_check` must pass, else LedgerError names the damage and the
// way to recover (nothing is read or written from a damaged ledger). kRead opens read-only and never
// creates a file (a mistyped --db is an error, and a ledger on read-only media can be read); kWrite
// creates the ledger where none exists. kReadFull runs the full `integrity_check` (`ledger check`).
enum class LedgerAccess { kWrite, kRead, kReadFull };
std::unique_ptr<LedgerStore> OpenSqliteLedger(const std::string& path, LedgerAccess access = LedgerAccess::kWrite);

// Opens a PostgreSQL ledger ("postgresql://user@host:port/db"), creating and migrating its tables
// with kWrite; kRead and kReadFull never create them. Throws LedgerError naming the URL (without
// its password).
std::unique_ptr<LedgerStore> OpenPostgresLedger(const std::string& url, LedgerAccess access = LedgerAccess::kWrite);
// A PostgreSQL connection string in either libpq form (a postgresql:// URL or a keyword conninfo
// such as "host=db1 dbname=ledger"), as util/secret_mask's IsPostgresConninfo tells them.
bool IsPostgresUrl(const std::string& db);
// `--db` as the CLI takes it: PostgreSQL (IsPostgresUrl), else a SQLite file.
std::unique_ptr<LedgerStore> OpenLedger(const std::string& db, LedgerAccess access = LedgerAccess::kWrite);

// The schema version this build writes (PRAGMA user_version; PostgreSQL: railyard_schema).
inline constexpr int kLedgerSchemaVersion = 1;

}  // namespace railyard
