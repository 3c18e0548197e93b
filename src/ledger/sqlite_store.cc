// The SQLite ledger: WAL journal (readers never block the writer, kill -9 leaves the last
// committed state), one IMMEDIATE transaction per import (concurrent importers queue on the
// write lock, up to busy_timeout), triggers that refuse UPDATE and DELETE on events.
#include <sqlite3.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>
#include <thread>

#include <fmt/format.h>

#include "ledger/import_apply.h"
#include "ledger/ledger.h"
#include "util/input_error.h"

namespace railyard {
namespace {

// One event per asset per import: the fields that document changed, as a JSON object. The
// assets table is derived (the fold of each asset's events) and kept in the same transaction so
// reads need no replay.
constexpr const char* kRememberedDocuments = R"sql(
CREATE TABLE IF NOT EXISTS remembered_documents (
  reader TEXT NOT NULL,           -- what read them, version included
  through_event INTEGER NOT NULL, -- the ledger's last event when they were remembered
  digest INTEGER NOT NULL,        -- of a document's bytes
  assets TEXT NOT NULL            -- a line "kind<TAB>serial" for each asset the document names
);
)sql";

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE imports (
  id INTEGER PRIMARY KEY,
  time TEXT NOT NULL,
  actor TEXT NOT NULL,
  source TEXT NOT NULL,
  format TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  assets INTEGER NOT NULL,
  changes INTEGER NOT NULL
);
CREATE INDEX imports_fingerprint ON imports(fingerprint);
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  import_id INTEGER NOT NULL REFERENCES imports(id),  -- who, when and which document
  line INTEGER NOT NULL,                              -- where in the document (0: none)
  serial TEXT NOT NULL,
  changes TEXT NOT NULL,                              -- {"field": "new value", ...}
  n_changes INTEGER NOT NULL
);
CREATE INDEX events_serial ON events(serial, id);
CREATE TABLE assets (
  serial TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,                                -- {"field": "current value", ...}
  last_event INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'ledger events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'ledger events are append-only'); END;
)sql";

class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) {
      throw LedgerError(fmt::format("ledger: {}", sqlite3_errmsg(db)));
    }
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& Bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& Bind(int i, int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  // True while rows come; throws on an error.
  bool Step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw LedgerError(fmt::format("ledger: {}", sqlite3_errmsg(db_)));
  }
  void Run() {
    Step();
    Reset();
  }
  void Reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  std::string Text(int col) const {
    const unsigned char* t = sqlite3_column_text(stmt_, col);
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteLedger final : public LedgerStore {
 public:
  SqliteLedger(const std::string& path, LedgerAccess access) : path_(path) {
    const bool write = access == LedgerAccess::kWrite;
    if (!write && !std::filesystem::exists(path)) {
      throw InputError(
          fmt::format("{}: no ledger here (a mistyped --db or RAILYARD_DB?); `railyard ledger import` creates one", path));
    }
    int flags = (write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_FULLMUTEX;
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw LedgerError(fmt::format("{}: cannot open the ledger: {}", path, why));
    }
    sqlite3_busy_timeout(db_, 60'000);  // other importers hold the write lock for one import each
    try {
      CheckIntegrity(access == LedgerAccess::kReadFull ? "integrity_check" : "quick_check");
      if (!write) {
        Statement v(db_, "PRAGMA user_version");
        v.Step();
        if (v.Int(0) != kLedgerSchemaVersion) {
          throw LedgerError(fmt::format(
              "the ledger's schema is version {}, this railyard reads {}: {}", v.Int(0), kLedgerSchemaVersion,
              v.Int(0) > kLedgerSchemaVersion ? "upgrade railyard" : "an import (which migrates it) is needed first"));
        }
        return;
      }
      Exec("PRAGMA foreign_keys = ON");
      // Switching a new file to WAL takes an exclusive lock, for which SQLite does not wait on the
      // busy handler: several importers creating one ledger at once retry here instead.
      ExecRetrying("PRAGMA journal_mode = WAL");
      Exec("PRAGMA synchronous = NORMAL");  // WAL + NORMAL: a crash loses no committed transaction's integrity
      Exec("PRAGMA cache_size = -65536");   // 64 MiB: a 100,000-asset import keeps its index pages in memory
      Migrate();
    } catch (const LedgerError& e) {
      sqlite3_close(db_);
      throw LedgerError(fmt::format("{}: {}", path, e.what()));
    }
  }
  ~SqliteLedger() override { sqlite3_close(db_); }

  ImportResult ImportFrom(const ImportStream& stream, const std::string& actor) override { return Apply(stream, actor); }

  std::optional<Asset> Get(const std::string& serial) const override {
    Statement q(db_, "SELECT kind, state FROM assets WHERE serial = ?");
    q.Bind(1, serial);
    if (!q.Step()) return std::nullopt;
    return Asset{serial, q.Text(0), LedgerFieldsFromJson(q.Text(1))};
  }

  std::vector<LedgerEvent> History(const std::string& serial) const override {
    Statement q(db_,
                "SELECT e.id, i.time, i.actor, i.source, e.line, e.import_id, a.kind, e.changes FROM events e "
                "JOIN imports i ON i.id = e.import_id JOIN assets a ON a.serial = e.serial WHERE e.serial = ? ORDER BY e.id");
    q.Bind(1, serial);
    std::vector<LedgerEvent> out;
    while (q.Step()) {
      std::string source = q.Int(4) > 0 ? fmt::format("{}:{}", q.Text(3), q.Int(4)) : q.Text(3);
      for (const auto& [field, value] : LedgerFieldsFromJson(q.Text(7))) {
        out.push_back({q.Int(0), q.Text(1), q.Text(2), source, q.Int(5), serial, q.Text(6), field, value});
      }
    }
    return out;
  }

  void ForEachAsset(const std::function<void(const Asset&)>& visit) const override {
    Statement q(db_, "SELECT serial, kind, state FROM assets ORDER BY serial");
    while (q.Step()) visit(Asset{q.Text(0), q.Text(1), LedgerFieldsFromJson(q.Text(2))});
  }

  void ForEachChange(const std::string& field,
                     const std::function<void(const std::string&, const std::string&)>& visit) const override {
    // JSON1 (built into SQLite): the events whose changes name the field.
    Statement q(db_,
                "SELECT serial, json_extract(changes, ?) FROM events WHERE json_extract(changes, ?) IS NOT NULL ORDER BY id");
    std::string path = fmt::format("$.\"{}\"", field);
    q.Bind(1, path).Bind(2, path);
    while (q.Step()) visit(q.Text(0), q.Text(1));
  }

  std::string ImportedBefore(const std::string& fingerprint) const override {
    Statement prior(db_, "SELECT time, actor, source FROM imports WHERE fingerprint = ? LIMIT 1");
    prior.Bind(1, fingerprint);
    return prior.Step() ? fmt::format("{} by {} from {}", prior.Text(0), prior.Text(1), prior.Text(2)) : std::string();
  }

  uint64_t CountEvents() const override {
    Statement q(db_, "SELECT COALESCE(SUM(n_changes), 0) FROM events");
    q.Step();
    return static_cast<uint64_t>(q.Int(0));
  }

 private:
  void Exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string why = err ? err : sqlite3_errmsg(db_);
      sqlite3_free(err);
      throw LedgerError(why);
    }
  }

  void ExecRetrying(const char* sql) {
    for (int attempt = 0;; ++attempt) {
      int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) return;
      if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || attempt >= 6000) throw LedgerError(sqlite3_errmsg(db_));
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  // A damaged file (bytes overwritten, a torn copy) is refused before anything is read or written.
  void CheckIntegrity(const char* pragma) {
    std::string result;
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db_, fmt::format("PRAGMA {}", pragma).c_str(), -1, &stmt, nullptr);
    if (rc == SQLITE_OK) {
      while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const unsigned char* t = sqlite3_column_text(stmt, 0);
        if (result.size() < 400) result += (result.empty() ? "" : "; ") + std::string(t ? reinterpret_cast<const char*>(t) : "");
      }
    }
    sqlite3_finalize(stmt);
    if (rc == SQLITE_DONE && result == "ok") return;
    std::string why = rc == SQLITE_DONE || rc == SQLITE_ROW ? result : sqlite3_errmsg(db_);
    throw LedgerError(
        fmt::format("the ledger file is damaged ({}: {}): railyard will not read or write it; restore it from a "
                    "backup, or salvage its rows with `sqlite3 {} .recover | sqlite3 recovered.db`",
                    pragma, why, path_));
  }

  void Migrate() {
    ExecRetrying("BEGIN IMMEDIATE");
    try {
      Statement v(db_, "PRAGMA user_version");
      v.Step();
      int64_t version = v.Int(0);
      v.Reset();
      if (version > kLedgerSchemaVersion) {
        throw LedgerError(fmt::format("the ledger's schema is version {}, newer than this railyard's {}: upgrade railyard",
                                      version, kLedgerSchemaVersion));
      }
      if (version < 1) Exec(kSchemaV1);
      // Later versions: `if (version < 2) Exec(kSchemaV2);` — each a forward migration in the same transaction.
      // Not ledger data but a cache of what the last facts import read (import_apply.h): losing it costs
      // one slower re-import, and a railyard that does not know it leaves it alone.
      Exec(kRememberedDocuments);
      Exec(fmt::format("PRAGMA user_version = {}", kLedgerSchemaVersion).c_str());
      Exec("COMMIT");
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  // The import's primitives over this connection, inside one IMMEDIATE transaction.
  class Transaction final : public LedgerTransaction {
   public:
    explicit Transaction(SqliteLedger& l)
        : l_(l),
          get_(l.db_, "SELECT kind, state FROM assets WHERE serial = ?"),
          add_event_(l.db_, "INSERT INTO events (import_id, line, serial, changes, n_changes) VALUES (?, ?, ?, ?, ?)"),
          put_(l.db_,
               "INSERT INTO assets (serial, kind, state, last_event) VALUES (?, ?, ?, ?) "
               "ON CONFLICT (serial) DO UPDATE SET state = excluded.state, last_event = excluded.last_event"),
          this_doc_(l.db_, "SELECT changes FROM events WHERE import_id = ? AND serial = ? ORDER BY id") {}
    std::optional<std::string> PriorImport(const std::string& fingerprint) override {
      Statement prior(l_.db_, "SELECT time, actor, source FROM imports WHERE fingerprint = ? LIMIT 1");
      prior.Bind(1, fingerprint);
      if (!prior.Step()) return std::nullopt;
      return fmt::format("{} by {} from {}", prior.Text(0), prior.Text(1), prior.Text(2));
    }
    int64_t AddImport(const std::string& time, const std::string& actor, const std::string& source, const std::string& format,
                      const std::string& fingerprint) override {
      Statement add(
          l_.db_, "INSERT INTO imports (time, actor, source, format, fingerprint, assets, changes) VALUES (?, ?, ?, ?, ?, 0, 0)");
      add.Bind(1, time).Bind(2, actor).Bind(3, source).Bind(4, format).Bind(5, fingerprint).Run();
      return sqlite3_last_insert_rowid(l_.db_);
    }
    std::optional<std::pair<std::string, LedgerFields>> GetAsset(const std::string& serial) override {
      get_.Bind(1, serial);
      std::optional<std::pair<std::string, LedgerFields>> out;
      if (get_.Step()) out.emplace(get_.Text(0), LedgerFieldsFromJson(get_.Text(1)));
      get_.Reset();
      return out;
    }
    void AddEvent(int64_t import_id, int line, const std::string& serial, const std::string& kind,
                  const std::string& changes_json, size_t n_changes, const LedgerFields& state) override {
      add_event_.Bind(1, import_id)
          .Bind(2, static_cast<int64_t>(line))
          .Bind(3, serial)
          .Bind(4, changes_json)
          .Bind(5, static_cast<int64_t>(n_changes))
          .Run();
      const int64_t event = sqlite3_last_insert_rowid(l_.db_);
      put_.Bind(1, serial).Bind(2, kind).Bind(3, LedgerFieldsJson(state)).Bind(4, event).Run();
    }
    LedgerFields SetByImport(int64_t import_id, const std::string& serial) override {
      LedgerFields set;
      this_doc_.Bind(1, import_id).Bind(2, serial);
      while (this_doc_.Step()) {
        for (auto& [k, v] : LedgerFieldsFromJson(this_doc_.Text(0))) set[k] = v;
      }
      this_doc_.Reset();
      return set;
    }
    void FinishImport(int64_t import_id, uint64_t assets, uint64_t changes) override {
      Statement count(l_.db_, "UPDATE imports SET assets = ?, changes = ? WHERE id = ?");
      count.Bind(1, static_cast<int64_t>(assets)).Bind(2, static_cast<int64_t>(changes)).Bind(3, import_id).Run();
    }
    std::pair<int64_t, std::unordered_map<uint64_t, std::string>> RememberedDocuments(const std::string& reader) override {
      std::pair<int64_t, std::unordered_map<uint64_t, std::string>> out{-1, {}};
      Statement q(l_.db_, "SELECT through_event, digest, assets FROM remembered_documents WHERE reader = ?");
      q.Bind(1, reader);
      while (q.Step()) {
        out.first = q.Int(0);
        out.second.emplace(static_cast<uint64_t>(q.Int(1)), q.Text(2));
      }
      return out;
    }
    int64_t LastEventId() override {
      Statement q(l_.db_, "SELECT COALESCE(MAX(id), 0) FROM events");
      q.Step();
      return q.Int(0);
    }
    void RememberDocuments(const std::string& reader, const std::vector<std::pair<uint64_t, std::string>>& documents) override {
      const int64_t through = LastEventId();
      l_.Exec("DELETE FROM remembered_documents");
      Statement add(l_.db_, "INSERT INTO remembered_documents (reader, through_event, digest, assets) VALUES (?, ?, ?, ?)");
      for (const auto& [digest, assets] : documents) {
        add.Bind(1, reader).Bind(2, through).Bind(3, static_cast<int64_t>(digest)).Bind(4, assets).Run();
      }
    }
    void Commit() override { l_.Exec("COMMIT"); }
    void Rollback() override { sqlite3_exec(l_.db_, "ROLLBACK", nullptr, nullptr, nullptr); }

   private:
    SqliteLedger& l_;
    Statement get_, add_event_, put_, this_doc_;
  };

  ImportResult Apply(const ImportStream& stream, const std::string& actor) {
    ExecRetrying("BEGIN IMMEDIATE");
    std::optional<Transaction> tx;
    try {
      tx.emplace(*this);
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    return ApplyImport(*tx, stream, actor);
  }

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<LedgerStore> OpenSqliteLedger(const std::string& path, LedgerAccess access) {
  return std::make_unique<SqliteLedger>(path, access);
}

}  // namespace railyard
