// The PostgreSQL ledger (libpqxx): the same tables and the same import rules as the SQLite one
// (ledger/import_apply), for a team that shares one ledger across hosts and sites. Each import is
// one transaction that first takes a transaction-scoped advisory lock, so concurrent importers queue
// as SQLite's IMMEDIATE transactions do and an import's fingerprint check holds until it commits.
// Triggers refuse UPDATE, DELETE and TRUNCATE on events. The schema version lives in
// railyard_schema; migrations run forward, in one transaction, under their own advisory lock.
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include <fmt/format.h>

#include "ledger/import_apply.h"
#include "ledger/ledger.h"
#include "util/input_error.h"
#include "util/secret_mask.h"

namespace railyard {
namespace {

constexpr int64_t kImportLock = 0x7261696c79617264;  // "railyard": one import at a time
constexpr int64_t kMigrateLock = kImportLock + 1;

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE imports (
  id BIGSERIAL PRIMARY KEY,
  time TEXT NOT NULL,
  actor TEXT NOT NULL,
  source TEXT NOT NULL,
  format TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  assets BIGINT NOT NULL,
  changes BIGINT NOT NULL
);
CREATE INDEX imports_fingerprint ON imports(fingerprint);
CREATE TABLE events (
  id BIGSERIAL PRIMARY KEY,
  import_id BIGINT NOT NULL REFERENCES imports(id),
  line INTEGER NOT NULL,
  serial TEXT NOT NULL,
  changes TEXT NOT NULL,
  n_changes INTEGER NOT NULL
);
CREATE INDEX events_serial ON events(serial, id);
CREATE INDEX events_import ON events(import_id, serial);
CREATE TABLE assets (
  serial TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,
  last_event BIGINT NOT NULL
);
CREATE FUNCTION railyard_events_append_only() RETURNS trigger LANGUAGE plpgsql AS
  $$ BEGIN RAISE EXCEPTION 'ledger events are append-only'; END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION railyard_events_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION railyard_events_append_only();
)sql";

// What the last facts import read, by the digest of each document's bytes, so that the next reads only
// what changed (ledger/import_apply.h). Not the ledger's truth (that is the events): a cache the
// import replaces whole, created on any schema version, as in the SQLite ledger.
constexpr const char* kRememberedDocuments = R"sql(
CREATE TABLE IF NOT EXISTS remembered_documents (
  reader TEXT NOT NULL,
  through_event BIGINT NOT NULL,
  digest BIGINT NOT NULL,
  assets TEXT NOT NULL
);
)sql";

class PostgresLedger final : public LedgerStore {
 public:
  PostgresLedger(const std::string& url, LedgerAccess access) : url_(MaskSecrets(url)) {
    try {
      conn_ = std::make_unique<pqxx::connection>(url);
      pqxx::nontransaction q(*conn_);
      const bool exists = !q.exec1("SELECT to_regclass('railyard_schema') IS NULL")[0].as<bool>();
      int version = exists ? q.exec1("SELECT version FROM railyard_schema")[0].as<int>() : 0;
      q.commit();
      if (access != LedgerAccess::kWrite) {
        if (!exists)
          throw InputError(url_ + ": no ledger here (a mistyped --db or RAILYARD_DB?); `railyard ledger import` creates one");
        if (version != kLedgerSchemaVersion) {
          throw LedgerError(
              fmt::format("the ledger's schema is version {}, this railyard reads {}: {}", version, kLedgerSchemaVersion,
                          version > kLedgerSchemaVersion ? "upgrade railyard" : "an import (which migrates it) is needed first"));
        }
        return;
      }
      Migrate();
      // The reads of an import, parsed once per connection: a host's cards in one query (Prefetch), one
      // card where the stream is not in documents. Its writes go in batches (Transaction::AddEvent).
      conn_->prepare("get_asset", "SELECT kind, state FROM assets WHERE serial = $1");
      conn_->prepare("get_assets", "SELECT serial, kind, state FROM assets WHERE serial = ANY($1::text[])");
      conn_->prepare("set_by_import", "SELECT changes FROM events WHERE import_id = $1 AND serial = $2 ORDER BY id");
    } catch (const InputError&) {
      throw;
    } catch (const LedgerError& e) {
      throw LedgerError(fmt::format("{}: {}", url_, e.what()));
    } catch (const std::exception& e) {
      throw LedgerError(fmt::format("{}: cannot open the ledger: {}", url_, e.what()));
    }
  }

  ImportResult ImportFrom(const ImportStream& stream, const std::string& actor) override { return Apply(stream, actor); }

  std::optional<Asset> Get(const std::string& serial) const override {
    return Read<std::optional<Asset>>([&](pqxx::read_transaction& t) -> std::optional<Asset> {
      pqxx::result r = t.exec_params("SELECT kind, state FROM assets WHERE serial = $1", serial);
      if (r.empty()) return std::nullopt;
      return Asset{serial, r[0][0].as<std::string>(), LedgerFieldsFromJson(r[0][1].as<std::string>())};
    });
  }

  std::vector<LedgerEvent> History(const std::string& serial) const override {
    return Read<std::vector<LedgerEvent>>([&](pqxx::read_transaction& t) {
      pqxx::result r = t.exec_params(
          "SELECT e.id, i.time, i.actor, i.source, e.line, e.import_id, a.kind, e.changes FROM events e "
          "JOIN imports i ON i.id = e.import_id JOIN assets a ON a.serial = e.serial WHERE e.serial = $1 ORDER BY e.id",
          serial);
      std::vector<LedgerEvent> out;
      for (const auto& row : r) {
        const int64_t line = row[4].as<int64_t>();
        const std::string source = line > 0 ? fmt::format("{}:{}", row[3].as<std::string>(), line) : row[3].as<std::string>();
        for (const auto& [field, value] : LedgerFieldsFromJson(row[7].as<std::string>())) {
          out.push_back({row[0].as<int64_t>(), row[1].as<std::string>(), row[2].as<std::string>(), source, row[5].as<int64_t>(),
                         serial, row[6].as<std::string>(), field, value});
        }
      }
      return out;
    });
  }

  void ForEachAsset(const std::function<void(const Asset&)>& visit) const override {
    // COLLATE "C": serial order by bytes, as SQLite's BINARY collation sorts them.
    Read<int>([&](pqxx::read_transaction& t) {
      for (const auto& row : t.exec("SELECT serial, kind, state FROM assets ORDER BY serial COLLATE \"C\"")) {
        visit(Asset{row[0].as<std::string>(), row[1].as<std::string>(), LedgerFieldsFromJson(row[2].as<std::string>())});
      }
      return 0;
    });
  }

  void ForEachChange(const std::string& field,
                     const std::function<void(const std::string&, const std::string&)>& visit) const override {
    // The events whose changes name the field (a cheap text test), read whole and checked here.
    const std::string key = nlohmann::json(field).dump();
    Read<int>([&](pqxx::read_transaction& t) {
      for (const auto& row :
           t.exec_params("SELECT serial, changes FROM events WHERE position($1 in changes) > 0 ORDER BY id", key + ":")) {
        LedgerFields changes = LedgerFieldsFromJson(row[1].as<std::string>());
        auto it = changes.find(field);
        if (it != changes.end()) visit(row[0].as<std::string>(), it->second);
      }
      return 0;
    });
  }

  std::string ImportedBefore(const std::string& fingerprint) const override {
    return Read<std::string>([&](pqxx::read_transaction& t) {
      pqxx::result r =
          t.exec_params("SELECT time, actor, source FROM imports WHERE fingerprint = $1 ORDER BY id LIMIT 1", fingerprint);
      return r.empty() ? std::string()
                       : fmt::format("{} by {} from {}", r[0][0].as<std::string>(), r[0][1].as<std::string>(),
                                     r[0][2].as<std::string>());
    });
  }

  uint64_t CountEvents() const override {
    return Read<uint64_t>(
        [](pqxx::read_transaction& t) { return t.exec1("SELECT COALESCE(SUM(n_changes), 0) FROM events")[0].as<uint64_t>(); });
  }

 private:
  template <typename T, typename F>
  T Read(F&& f) const {
    try {
      pqxx::read_transaction t(*conn_);
      return f(t);
    } catch (const LedgerError&) {
      throw;
    } catch (const std::exception& e) {
      throw LedgerError(fmt::format("{}: {}", url_, e.what()));
    }
  }

  void Migrate() {
    pqxx::work w(*conn_);
    w.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrateLock);
    const bool exists = !w.exec1("SELECT to_regclass('railyard_schema') IS NULL")[0].as<bool>();
    const int version = exists ? w.exec1("SELECT version FROM railyard_schema")[0].as<int>() : 0;
    if (version > kLedgerSchemaVersion) {
      throw LedgerError(fmt::format("the ledger's schema is version {}, newer than this railyard's {}: upgrade railyard", version,
                                    kLedgerSchemaVersion));
    }
    if (version < 1) {
      w.exec(kSchemaV1);
      if (!exists) w.exec("CREATE TABLE railyard_schema (version INTEGER NOT NULL); INSERT INTO railyard_schema VALUES (0)");
    }
    // Later versions: `if (version < 2) w.exec(kSchemaV2);` — each forward, in this transaction.
    w.exec(kRememberedDocuments);
    w.exec_params("UPDATE railyard_schema SET version = $1", kLedgerSchemaVersion);
    w.commit();
  }

  class Transaction final : public LedgerTransaction {
   public:
    explicit Transaction(pqxx::connection& c) : w_(c) { w_.exec_params("SELECT pg_advisory_xact_lock($1)", kImportLock); }
    std::optional<std::string> PriorImport(const std::string& fingerprint) override {
      pqxx::result r =
          w_.exec_params("SELECT time, actor, source FROM imports WHERE fingerprint = $1 ORDER BY id LIMIT 1", fingerprint);
      if (r.empty()) return std::nullopt;
      return fmt::format("{} by {} from {}", r[0][0].as<std::string>(), r[0][1].as<std::string>(), r[0][2].as<std::string>());
    }
    int64_t AddImport(const std::string& time, const std::string& actor, const std::string& source, const std::string& format,
                      const std::string& fingerprint) override {
      return w_
          .exec_params1(
              "INSERT INTO imports (time, actor, source, format, fingerprint, assets, changes) VALUES ($1, $2, $3, $4, $5, 0, 0) "
              "RETURNING id",
              time, actor, source, format, fingerprint)[0]
          .as<int64_t>();
    }
    std::optional<std::pair<std::string, LedgerFields>> GetAsset(const std::string& serial) override {
      // This import's own latest write first (not yet sent), then a prefetched answer, then the server.
      if (auto w = written_.find(serial); w != written_.end()) return w->second;
      if (auto p = prefetched_.find(serial); p != prefetched_.end()) {
        std::optional<std::pair<std::string, LedgerFields>> out = std::move(p->second);
        prefetched_.erase(p);
        return out;
      }
      pqxx::result r = w_.exec_prepared("get_asset", serial);
      if (r.empty()) return std::nullopt;
      return std::make_pair(r[0][0].as<std::string>(), LedgerFieldsFromJson(r[0][1].as<std::string>()));
    }
    // One query for a document's cards: a host's eight cards cost one round trip, not eight.
    void Prefetch(const std::vector<std::string>& serials) override {
      prefetched_.clear();
      std::string array = "{";
      for (const std::string& serial : serials) {
        if (written_.count(serial)) continue;
        array += array.size() > 1 ? ",\"" : "\"";
        for (char c : serial) {
          if (c == '"' || c == '\\') array += '\\';
          array += c;
        }
        array += '"';
        prefetched_[serial] = std::nullopt;  // unless the server knows it
      }
      if (prefetched_.empty()) return;
      for (const auto& row : w_.exec_prepared("get_assets", array + "}")) {
        prefetched_[row[0].as<std::string>()] =
            std::make_pair(row[1].as<std::string>(), LedgerFieldsFromJson(row[2].as<std::string>()));
      }
    }
    // Events are staged and written in batches (Flush), in the order they were made; the asset states
    // they set are answered from written_ until then.
    void AddEvent(int64_t import_id, int line, const std::string& serial, const std::string& kind,
                  const std::string& changes_json, size_t n_changes, const LedgerFields& state) override {
      staged_.push_back({import_id, line, serial, changes_json, static_cast<int64_t>(n_changes), kind, LedgerFieldsJson(state)});
      staged_bytes_ += changes_json.size() + staged_.back().state.size();
      written_[serial] = std::make_pair(kind, state);
      prefetched_.erase(serial);
      if (staged_.size() >= kEventsPerBatch || staged_bytes_ >= kBatchBytes) Flush();
    }
    LedgerFields SetByImport(int64_t import_id, const std::string& serial) override {
      Flush();
      LedgerFields set;
      for (const auto& row : w_.exec_prepared("set_by_import", import_id, serial)) {
        for (auto& [k, v] : LedgerFieldsFromJson(row[0].as<std::string>())) set[k] = v;
      }
      return set;
    }
    void FinishImport(int64_t import_id, uint64_t assets, uint64_t changes) override {
      Flush();
      w_.exec_params("UPDATE imports SET assets = $1, changes = $2 WHERE id = $3", static_cast<int64_t>(assets),
                     static_cast<int64_t>(changes), import_id);
    }
    std::pair<int64_t, std::unordered_map<uint64_t, std::string>> RememberedDocuments(const std::string& reader) override {
      std::pair<int64_t, std::unordered_map<uint64_t, std::string>> out{-1, {}};
      pqxx::result r = w_.exec_params("SELECT through_event, digest, assets FROM remembered_documents WHERE reader = $1", reader);
      out.second.reserve(r.size());
      for (const auto& row : r) {
        out.first = row[0].as<int64_t>();
        out.second.emplace(static_cast<uint64_t>(row[1].as<int64_t>()), row[2].as<std::string>());
      }
      return out;
    }
    // Imports hold the import lock, so no other import's event can land between this and its use.
    int64_t LastEventId() override {
      Flush();
      return w_.exec1("SELECT COALESCE(MAX(id), 0) FROM events")[0].as<int64_t>();
    }
    // Streamed with COPY: 100,000 cards' hosts are some 12,500 rows, one round trip.
    void RememberDocuments(const std::string& reader, const std::vector<std::pair<uint64_t, std::string>>& documents) override {
      const int64_t through = LastEventId();
      w_.exec("DELETE FROM remembered_documents");
      pqxx::stream_to rows(w_, "remembered_documents", std::vector<std::string>{"reader", "through_event", "digest", "assets"});
      for (const auto& [digest, assets] : documents)
        rows << std::make_tuple(reader, through, static_cast<int64_t>(digest), assets);
      rows.complete();
    }
    void Commit() override {
      Flush();
      w_.commit();
    }
    void Rollback() override {
      try {
        w_.abort();
      } catch (...) {
      }
    }

   private:
    static constexpr size_t kEventsPerBatch = 4096;
    static constexpr size_t kBatchBytes = 8u << 20;

    struct StagedEvent {
      int64_t import_id;
      int line;
      std::string serial, changes;
      int64_t n_changes;
      std::string kind, state;
    };

    // The staged events in three round trips, whatever their number: COPY into a temporary table, then
    // one statement that appends them to events in order (ids are drawn as the sorted rows are
    // inserted) and sets each asset's state to its last one; planned once per batch, not per event.
    void Flush() {
      if (staged_.empty()) return;
      if (!staging_ready_) {
        w_.exec(
            "CREATE TEMP TABLE IF NOT EXISTS railyard_staged_events (seq BIGINT, import_id BIGINT, line INTEGER, serial TEXT, "
            "changes TEXT, n_changes INTEGER, kind TEXT, state TEXT) ON COMMIT DROP");
        staging_ready_ = true;
      }
      {
        pqxx::stream_to rows(
            w_, "railyard_staged_events",
            std::vector<std::string>{"seq", "import_id", "line", "serial", "changes", "n_changes", "kind", "state"});
        int64_t seq = 0;
        for (const StagedEvent& e : staged_)
          rows << std::make_tuple(seq++, e.import_id, e.line, e.serial, e.changes, e.n_changes, e.kind, e.state);
        rows.complete();
      }
      w_.exec(
          "WITH e AS (INSERT INTO events (import_id, line, serial, changes, n_changes) "
          "SELECT import_id, line, serial, changes, n_changes FROM railyard_staged_events ORDER BY seq RETURNING id, serial) "
          "INSERT INTO assets (serial, kind, state, last_event) "
          "SELECT l.serial, l.kind, l.state, m.id FROM "
          "(SELECT DISTINCT ON (serial) serial, kind, state FROM railyard_staged_events ORDER BY serial, seq DESC) l "
          "JOIN (SELECT serial, MAX(id) AS id FROM e GROUP BY serial) m USING (serial) "
          "ON CONFLICT (serial) DO UPDATE SET state = excluded.state, last_event = excluded.last_event; "
          "TRUNCATE railyard_staged_events");
      staged_.clear();
      staged_bytes_ = 0;
      written_.clear();  // the server has them now
    }

    pqxx::work w_;
    std::vector<StagedEvent> staged_;  // not yet sent
    size_t staged_bytes_ = 0;
    bool staging_ready_ = false;
    std::unordered_map<std::string, std::pair<std::string, LedgerFields>> written_;  // serial -> kind, state, until sent
    std::unordered_map<std::string, std::optional<std::pair<std::string, LedgerFields>>> prefetched_;
  };

  ImportResult Apply(const ImportStream& stream, const std::string& actor) {
    try {
      Transaction tx(*conn_);
      return ApplyImport(tx, stream, actor);
    } catch (const LedgerError&) {
      throw;
    } catch (const InputError&) {
      throw;  // what the document got wrong, as the document's error (the transaction is rolled back)
    } catch (const std::exception& e) {
      throw LedgerError(fmt::format("{}: the import was rolled back: {}", url_, e.what()));
    }
  }

  std::string url_;
  std::unique_ptr<pqxx::connection> conn_;
};

}  // namespace

std::unique_ptr<LedgerStore> OpenPostgresLedger(const std::string& url, LedgerAccess access) {
  return std::make_unique<PostgresLedger>(url, access);
}

bool IsPostgresUrl(const std::string& db) { return IsPostgresConninfo(db); }

std::unique_ptr<LedgerStore> OpenLedger(const std::string& db, LedgerAccess access) {
  return IsPostgresUrl(db) ? OpenPostgresLedger(db, access) : OpenSqliteLedger(db, access);
}

}  // namespace railyard
