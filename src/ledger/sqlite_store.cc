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

#include "ledger/ledger.h"

namespace railyard {
namespace {

// One event per asset per import: the fields that document changed, as a JSON object. The
// assets table is derived (the fold of each asset's events) and kept in the same transaction so
// reads need no replay.
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

using Fields = std::map<std::string, std::string>;

Fields FieldsFromJson(const std::string& text) {
  Fields out;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return out;
  for (const auto& [k, v] : j.items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
  }
  return out;
}

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
  SqliteLedger(const std::string& path, LedgerAccess access) : path_(path) {
    const bool write = access == LedgerAccess::kWrite;
    if (!write && !std::filesystem::exists(path)) {
      throw LedgerError(fmt::format("{}: no ledger here (a mistyped --db or RAILYARD_DB?); `railyard ledger import` creates one", path));
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
          throw LedgerError(fmt::format("the ledger's schema is version {}, this railyard reads {}: {}", v.Int(0), kLedgerSchemaVersion,
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

  ImportResult Record(const std::vector<AssetObservation>& changes, const std::string& actor, const std::string& source) override {
    return Apply({source, "manual", "", "", true,
                  [&changes](const ObservationSink& sink) {
                    for (const AssetObservation& o : changes) sink(o);
                  }},
                 actor);
  }

  std::optional<Asset> Get(const std::string& serial) const override {
    Statement q(db_, "SELECT kind, state FROM assets WHERE serial = ?");
    q.Bind(1, serial);
    if (!q.Step()) return std::nullopt;
    return Asset{serial, q.Text(0), FieldsFromJson(q.Text(1))};
  }

  std::vector<LedgerEvent> History(const std::string& serial) const override {
    Statement q(db_, "SELECT e.id, i.time, i.actor, i.source, e.line, e.import_id, a.kind, e.changes FROM events e "
                     "JOIN imports i ON i.id = e.import_id JOIN assets a ON a.serial = e.serial WHERE e.serial = ? ORDER BY e.id");
    q.Bind(1, serial);
    std::vector<LedgerEvent> out;
    while (q.Step()) {
      std::string source = q.Int(4) > 0 ? fmt::format("{}:{}", q.Text(3), q.Int(4)) : q.Text(3);
      for (const auto& [field, value] : FieldsFromJson(q.Text(7))) {
        out.push_back({q.Int(0), q.Text(1), q.Text(2), source, q.Int(5), serial, q.Text(6), field, value});
      }
    }
    return out;
  }

  void ForEachAsset(const std::function<void(const Asset&)>& visit) const override {
    Statement q(db_, "SELECT serial, kind, state FROM assets ORDER BY serial");
    while (q.Step()) visit(Asset{q.Text(0), q.Text(1), FieldsFromJson(q.Text(2))});
  }

  void ForEachChange(const std::string& field, const std::function<void(const std::string&, const std::string&)>& visit) const override {
    // JSON1 (built into SQLite): the events whose changes name the field.
    Statement q(db_, "SELECT serial, json_extract(changes, ?) FROM events WHERE json_extract(changes, ?) IS NOT NULL ORDER BY id");
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
    throw LedgerError(fmt::format("the ledger file is damaged ({}: {}): railyard will not read or write it; restore it from a "
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
      Exec(fmt::format("PRAGMA user_version = {}", kLedgerSchemaVersion).c_str());
      Exec("COMMIT");
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  ImportResult Apply(const ImportStream& stream, const std::string& actor) {
    const std::string& source = stream.source;
    ImportResult result;
    const std::string now = NowUtc();
    ExecRetrying("BEGIN IMMEDIATE");
    try {
      if (!stream.fingerprint.empty()) {
        Statement prior(db_, "SELECT time, actor, source FROM imports WHERE fingerprint = ? LIMIT 1");
        prior.Bind(1, stream.fingerprint);
        if (prior.Step()) {
          result.already_imported = true;
          result.previous = fmt::format("{} by {} from {}", prior.Text(0), prior.Text(1), prior.Text(2));
          prior.Reset();
          Exec("ROLLBACK");
          return result;
        }
      }
      Statement add_import(db_, "INSERT INTO imports (time, actor, source, format, fingerprint, assets, changes) VALUES (?, ?, ?, ?, ?, 0, 0)");
      add_import.Bind(1, now).Bind(2, actor).Bind(3, source).Bind(4, stream.format).Bind(5, stream.fingerprint).Run();
      result.import_id = sqlite3_last_insert_rowid(db_);
      Statement get(db_, "SELECT kind, state FROM assets WHERE serial = ?");
      Statement add_event(db_, "INSERT INTO events (import_id, line, serial, changes, n_changes) VALUES (?, ?, ?, ?, ?)");
      Statement put(db_, "INSERT INTO assets (serial, kind, state, last_event) VALUES (?, ?, ?, ?) "
                         "ON CONFLICT (serial) DO UPDATE SET state = excluded.state, last_event = excluded.last_event");
      Statement this_doc(db_, "SELECT changes FROM events WHERE import_id = ? AND serial = ? ORDER BY id");
      // Serials this document named already, with the line and kind of their first mention: a
      // repeat is checked against what the document itself set (read back only for repeats).
      std::unordered_map<std::string, std::pair<int, std::string>> seen;
      auto record = [&](const std::string& serial, const std::string& kind, int line, const nlohmann::json& changes, Fields& state) {
        add_event.Bind(1, result.import_id).Bind(2, static_cast<int64_t>(line)).Bind(3, serial).Bind(4, changes.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
            .Bind(5, static_cast<int64_t>(changes.size())).Run();
        int64_t event = sqlite3_last_insert_rowid(db_);
        put.Bind(1, serial).Bind(2, kind).Bind(3, nlohmann::json(state).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).Bind(4, event).Run();
        result.events += changes.size();
      };
      stream.produce([&](const AssetObservation& o) {
        if (o.serial.empty()) throw LedgerError(fmt::format("{}:{}: serial: an asset needs a serial", source, o.line));
        auto [first, fresh] = seen.emplace(o.serial, std::make_pair(o.line, o.kind));
        if (fresh) ++result.assets_seen;
        if (!fresh && first->second.second != o.kind) {
          throw LedgerError(fmt::format("{}:{}: kind: {} is a {} here but a {} on line {}", source, o.line, o.serial, o.kind,
                                        first->second.second, first->second.first));
        }
        get.Bind(1, o.serial);
        bool known = get.Step();
        std::string kind = known ? get.Text(0) : o.kind;
        Fields state = known ? FieldsFromJson(get.Text(1)) : Fields{};
        get.Reset();
        if (known && !o.kind.empty() && kind != o.kind) {
          throw LedgerError(fmt::format("{}:{}: kind: {} is a {} in the ledger, not a {}", source, o.line, o.serial, kind, o.kind));
        }
        if (!fresh) {
          Fields set_here;
          this_doc.Bind(1, result.import_id).Bind(2, o.serial);
          while (this_doc.Step()) {
            for (auto& [k, v] : FieldsFromJson(this_doc.Text(0))) set_here[k] = v;
          }
          this_doc.Reset();
          for (const auto& [field, value] : o.fields) {
            auto f = set_here.find(field);
            if (stream.repeats_are_conflicts && f != set_here.end() && f->second != value) {
              throw LedgerError(fmt::format("{}:{}: {}: {} is '{}' here but '{}' on line {}", source, o.line, field, o.serial, value,
                                            f->second, first->second.first));
            }
          }
          if (!stream.repeats_are_conflicts) {
            // One card reported twice (cloned, or a capture under the wrong host): keep the first
            // report, note where else it was seen (the same place twice is the same report).
            auto where = o.fields.find("location");
            if (where != o.fields.end() && state["location"] == where->second) return;
            std::string also = state["identity.also_seen"];
            also += (also.empty() ? "" : "; ") + (where == o.fields.end() ? fmt::format("line {}", o.line) : where->second);
            state["identity.also_seen"] = also;
            record(o.serial, kind, o.line, nlohmann::json{{"identity.also_seen", also}}, state);
            return;
          }
        }
        nlohmann::json changes = nlohmann::json::object();
        for (const auto& [field, value] : o.fields) {
          auto it = state.find(field);
          if (it != state.end() ? it->second == value : value.empty()) continue;  // unchanged, or empty saying nothing new
          changes[field] = value;
          state[field] = value;
        }
        if (changes.empty()) return;
        result.assets_new += !known;
        record(o.serial, kind, o.line, changes, state);
      });
      if (result.assets_seen == 0) {
        // A document that named no asset (a wrong --as, a capture without VPD) is not recorded: its
        // fingerprint must not stand in the way of the import that reads it right.
        Exec("ROLLBACK");
        result.import_id = 0;
        return result;
      }
      Statement count(db_, "UPDATE imports SET assets = ?, changes = ? WHERE id = ?");
      count.Bind(1, static_cast<int64_t>(result.assets_seen)).Bind(2, static_cast<int64_t>(result.events)).Bind(3, result.import_id).Run();
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

std::unique_ptr<LedgerStore> OpenSqliteLedger(const std::string& path, LedgerAccess access) {
  return std::make_unique<SqliteLedger>(path, access);
}

}  // namespace railyard
