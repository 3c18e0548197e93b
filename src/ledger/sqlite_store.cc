// The SQLite ledger: WAL journal (readers never block the writer, kill -9 leaves the last
// committed state), one IMMEDIATE transaction per import (concurrent importers queue on the
// write lock, up to busy_timeout), triggers that refuse UPDATE and DELETE on events.
#include <sqlite3.h>

#include <chrono>
#include <ctime>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "ledger/ledger.h"

namespace railyard {
namespace {

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE imports (
  id INTEGER PRIMARY KEY,
  time TEXT NOT NULL,
  actor TEXT NOT NULL,
  source TEXT NOT NULL,
  format TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  events INTEGER NOT NULL
);
CREATE INDEX imports_fingerprint ON imports(fingerprint);
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  import_id INTEGER NOT NULL REFERENCES imports(id),
  time TEXT NOT NULL,
  actor TEXT NOT NULL,
  source TEXT NOT NULL,
  serial TEXT NOT NULL,
  kind TEXT NOT NULL,
  field TEXT NOT NULL,
  value TEXT NOT NULL
);
CREATE INDEX events_serial ON events(serial, id);
CREATE TABLE current (
  serial TEXT NOT NULL,
  field TEXT NOT NULL,
  value TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  PRIMARY KEY (serial, field)
) WITHOUT ROWID;
CREATE TABLE assets (
  serial TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  first_event INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'ledger events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'ledger events are append-only'); END;
)sql";

std::string NowUtc() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

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
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))) : std::string();
  }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteLedger final : public LedgerStore {
 public:
  explicit SqliteLedger(const std::string& path) : path_(path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
      std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw LedgerError(fmt::format("{}: cannot open the ledger: {}", path, why));
    }
    sqlite3_busy_timeout(db_, 60'000);  // other importers hold the write lock for one import each
    try {
      Exec("PRAGMA foreign_keys = ON");
      // Switching a new file to WAL takes an exclusive lock, for which SQLite does not wait on the
      // busy handler: several importers creating one ledger at once retry here instead.
      ExecRetrying("PRAGMA journal_mode = WAL");
      Exec("PRAGMA synchronous = NORMAL");  // WAL + NORMAL: a crash loses no committed transaction's integrity
      Migrate();
    } catch (const LedgerError& e) {
      sqlite3_close(db_);
      throw LedgerError(fmt::format("{}: {}", path, e.what()));
    }
  }
  ~SqliteLedger() override { sqlite3_close(db_); }

  ImportResult Import(const ImportDocument& doc, const std::string& actor) override {
    return Apply(doc.observations, actor, doc.source, doc.format, doc.fingerprint);
  }

  ImportResult Record(const std::vector<AssetObservation>& changes, const std::string& actor, const std::string& source) override {
    return Apply(changes, actor, source, "manual", "");
  }

  std::optional<Asset> Get(const std::string& serial) const override {
    Statement kind(db_, "SELECT kind FROM assets WHERE serial = ?");
    kind.Bind(1, serial);
    if (!kind.Step()) return std::nullopt;
    Asset a;
    a.serial = serial;
    a.kind = kind.Text(0);
    Statement fields(db_, "SELECT field, value FROM current WHERE serial = ?");
    fields.Bind(1, serial);
    while (fields.Step()) a.fields[fields.Text(0)] = fields.Text(1);
    return a;
  }

  std::vector<LedgerEvent> History(const std::string& serial) const override {
    Statement q(db_, "SELECT id, time, actor, source, import_id, kind, field, value FROM events WHERE serial = ? ORDER BY id");
    q.Bind(1, serial);
    std::vector<LedgerEvent> out;
    while (q.Step()) {
      out.push_back({q.Int(0), q.Text(1), q.Text(2), q.Text(3), q.Int(4), serial, q.Text(5), q.Text(6), q.Text(7)});
    }
    return out;
  }

  void ForEachAsset(const std::function<void(const Asset&)>& visit) const override {
    // One ordered pass over current joined with assets: memory stays at one asset.
    Statement q(db_, "SELECT a.serial, a.kind, c.field, c.value FROM assets a LEFT JOIN current c ON c.serial = a.serial "
                     "ORDER BY a.serial, c.field");
    Asset a;
    bool have = false;
    while (q.Step()) {
      std::string serial = q.Text(0);
      if (have && serial != a.serial) {
        visit(a);
        a = Asset{};
      }
      have = true;
      a.serial = serial;
      a.kind = q.Text(1);
      if (!q.IsNull(2)) a.fields[q.Text(2)] = q.Text(3);
    }
    if (have) visit(a);
  }

  uint64_t CountEvents() const override {
    Statement q(db_, "SELECT COUNT(*) FROM events");
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
      Exec(fmt::format("PRAGMA user_version = {}", kLedgerSchemaVersion).c_str());
      Exec("COMMIT");
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  ImportResult Apply(const std::vector<AssetObservation>& observations, const std::string& actor, const std::string& source,
                     const std::string& format, const std::string& fingerprint) {
    // Contradictions inside the document are input errors, found before anything is written.
    std::map<std::pair<std::string, std::string>, const AssetObservation*> seen;
    std::map<std::string, const AssetObservation*> kinds;
    for (const AssetObservation& o : observations) {
      if (o.serial.empty()) throw LedgerError(fmt::format("{}:{}: serial: an asset needs a serial", source, o.line));
      auto [k, fresh_kind] = kinds.emplace(o.serial, &o);
      if (!fresh_kind && k->second->kind != o.kind) {
        throw LedgerError(fmt::format("{}:{}: kind: {} is a {} here but a {} on line {}", source, o.line, o.serial, o.kind,
                                      k->second->kind, k->second->line));
      }
      for (const auto& [field, value] : o.fields) {
        auto [it, fresh] = seen.emplace(std::make_pair(o.serial, field), &o);
        if (!fresh && it->second->fields.at(field) != value) {
          throw LedgerError(fmt::format("{}:{}: {}: {} is '{}' here but '{}' on line {}", source, o.line, field, o.serial, value,
                                        it->second->fields.at(field), it->second->line));
        }
      }
    }
    ImportResult result;
    const std::string now = NowUtc();
    ExecRetrying("BEGIN IMMEDIATE");
    try {
      if (!fingerprint.empty()) {
        Statement prior(db_, "SELECT time, actor, source FROM imports WHERE fingerprint = ? LIMIT 1");
        prior.Bind(1, fingerprint);
        if (prior.Step()) {
          result.already_imported = true;
          result.previous = fmt::format("{} by {} from {}", prior.Text(0), prior.Text(1), prior.Text(2));
          prior.Reset();
          Exec("ROLLBACK");
          return result;
        }
      }
      Statement add_import(db_, "INSERT INTO imports (time, actor, source, format, fingerprint, events) VALUES (?, ?, ?, ?, ?, 0)");
      add_import.Bind(1, now).Bind(2, actor).Bind(3, source).Bind(4, format).Bind(5, fingerprint).Run();
      result.import_id = sqlite3_last_insert_rowid(db_);
      Statement asset_kind(db_, "SELECT kind FROM assets WHERE serial = ?");
      Statement add_asset(db_, "INSERT INTO assets (serial, kind, first_event) VALUES (?, ?, ?)");
      Statement current(db_, "SELECT field, value FROM current WHERE serial = ?");
      Statement add_event(db_, "INSERT INTO events (import_id, time, actor, source, serial, kind, field, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
      Statement set_current(db_, "INSERT INTO current (serial, field, value, event_id) VALUES (?, ?, ?, ?) "
                                 "ON CONFLICT (serial, field) DO UPDATE SET value = excluded.value, event_id = excluded.event_id");
      std::set<std::string> counted;
      for (const AssetObservation& o : observations) {
        if (counted.insert(o.serial).second) ++result.assets_seen;
        asset_kind.Bind(1, o.serial);
        bool known = asset_kind.Step();
        std::string kind = known ? asset_kind.Text(0) : o.kind;
        asset_kind.Reset();
        if (known && !o.kind.empty() && kind != o.kind) {
          throw LedgerError(fmt::format("{}:{}: kind: {} is a {} in the ledger, not a {}", source, o.line, o.serial, kind, o.kind));
        }
        std::map<std::string, std::string> have;
        current.Bind(1, o.serial);
        while (current.Step()) have[current.Text(0)] = current.Text(1);
        current.Reset();
        std::string where = o.line > 0 ? fmt::format("{}:{}", source, o.line) : source;
        bool first = true;
        for (const auto& [field, value] : o.fields) {
          auto it = have.find(field);
          if (it != have.end() && it->second == value) continue;
          if (it == have.end() && value.empty()) continue;  // an empty field says nothing new
          add_event.Bind(1, result.import_id).Bind(2, now).Bind(3, actor).Bind(4, where).Bind(5, o.serial).Bind(6, kind)
              .Bind(7, field).Bind(8, value).Run();
          int64_t event = sqlite3_last_insert_rowid(db_);
          if (!known && first) {
            add_asset.Bind(1, o.serial).Bind(2, kind).Bind(3, event).Run();
            ++result.assets_new;
            known = true;
          }
          first = false;
          set_current.Bind(1, o.serial).Bind(2, field).Bind(3, value).Bind(4, event).Run();
          ++result.events;
        }
      }
      Statement count(db_, "UPDATE imports SET events = ? WHERE id = ?");
      count.Bind(1, static_cast<int64_t>(result.events)).Bind(2, result.import_id).Run();
      Exec("COMMIT");
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    return result;
  }

  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace

std::unique_ptr<LedgerStore> OpenSqliteLedger(const std::string& path) { return std::make_unique<SqliteLedger>(path); }

}  // namespace railyard
