// How an import changes the ledger, whatever stores it: the rules (a serial per asset, one kind per
// serial, a document that contradicts itself is refused, one card reported twice in a fleet's facts
// is noted rather than refused, an event only for fields that change, a document naming no asset is
// not recorded) applied over a backend's transaction primitives. SQLite and PostgreSQL each provide
// the primitives; the rules live here once.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ledger/ledger.h"

namespace railyard {

using LedgerFields = std::map<std::string, std::string>;

// One open transaction of a backend. The caller (ApplyImport) commits or rolls back through it.
class LedgerTransaction {
 public:
  virtual ~LedgerTransaction() = default;
  // "TIME by ACTOR from SOURCE" of an earlier import of this fingerprint, or nullopt.
  virtual std::optional<std::string> PriorImport(const std::string& fingerprint) = 0;
  virtual int64_t AddImport(const std::string& time, const std::string& actor, const std::string& source,
                            const std::string& format, const std::string& fingerprint) = 0;
  // The asset's kind and current state, or nullopt when the ledger does not know it.
  virtual std::optional<std::pair<std::string, LedgerFields>> GetAsset(const std::string& serial) = 0;
  // The serials GetAsset will be asked next (one document's cards): a backend a round trip away reads
  // them at once. A hint only: GetAsset must answer the same without it.
  virtual void Prefetch(const std::vector<std::string>& serials) { (void)serials; }
  // Appends the event (its changes as a JSON object) and sets the asset's state to `state`.
  virtual void AddEvent(int64_t import_id, int line, const std::string& serial, const std::string& kind,
                        const std::string& changes_json, size_t n_changes, const LedgerFields& state) = 0;
  // What this import has set on this serial so far (the changes of its events, oldest first).
  virtual LedgerFields SetByImport(int64_t import_id, const std::string& serial) = 0;
  virtual void FinishImport(int64_t import_id, uint64_t assets, uint64_t changes) = 0;
  // The documents the last import by `reader` remembered (digest -> "kind\tserial\n" of each asset
  // it names) and the ledger's last event id when it did; {-1, {}} when none, or when the backend
  // does not remember documents.
  virtual std::pair<int64_t, std::unordered_map<uint64_t, std::string>> RememberedDocuments(const std::string& reader) = 0;
  // The id of the newest event in the ledger (0 when none).
  virtual int64_t LastEventId() = 0;
  // Replaces what is remembered with these documents, as of LastEventId().
  virtual void RememberDocuments(const std::string& reader, const std::vector<std::pair<uint64_t, std::string>>& documents) = 0;
  virtual void Commit() = 0;
  virtual void Rollback() = 0;  // must not throw
};

// Applies the stream inside `tx` (begun by the caller, committed or rolled back here).
//
// A stream of remembered documents (facts files) is imported in proportion to what changed: a
// document is skipped, unread, when the last import by the same reader read the same bytes, no import
// since has changed any asset, each asset it names was named by no other document of that import, and
// none has been named already by this one. Applying such a document again would change nothing (the
// same bytes give the same observations, and no other document or import has touched those assets
// since), so skipping it is the same import, only cheaper. Whatever breaks a condition is read.
ImportResult ApplyImport(LedgerTransaction& tx, const ImportStream& stream, const std::string& actor);

// The JSON object text of a field map, and back (non-string values are dropped).
std::string LedgerFieldsJson(const LedgerFields& fields);
LedgerFields LedgerFieldsFromJson(const std::string& text);

}  // namespace railyard
