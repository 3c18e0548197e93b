#include "ledger/import_apply.h"

#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/utc_time.h"

namespace railyard {

std::string LedgerFieldsJson(const LedgerFields& fields) {
  return nlohmann::json(fields).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

LedgerFields LedgerFieldsFromJson(const std::string& text) {
  LedgerFields out;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return out;
  for (const auto& [k, v] : j.items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
  }
  return out;
}

ImportResult ApplyImport(LedgerTransaction& tx, const ImportStream& stream, const std::string& actor) {
  const std::string& source = stream.source;
  ImportResult result;
  try {
    if (!stream.fingerprint.empty()) {
      if (std::optional<std::string> prior = tx.PriorImport(stream.fingerprint)) {
        result.already_imported = true;
        result.previous = *prior;
        tx.Rollback();
        return result;
      }
    }
    result.import_id = tx.AddImport(UtcNow(), actor, source, stream.format, stream.fingerprint);
    // Serials this document named already, with the line and kind of their first mention: a
    // repeat is checked against what the document itself set (read back only for repeats).
    std::unordered_map<std::string, std::pair<int, std::string>> seen;
    auto record = [&](const std::string& serial, const std::string& kind, int line, const LedgerFields& changes, const LedgerFields& state) {
      tx.AddEvent(result.import_id, line, serial, kind, LedgerFieldsJson(changes), changes.size(), state);
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
      std::optional<std::pair<std::string, LedgerFields>> known = tx.GetAsset(o.serial);
      const std::string kind = known ? known->first : o.kind;
      LedgerFields state = known ? known->second : LedgerFields{};
      if (known && !o.kind.empty() && kind != o.kind) {
        throw LedgerError(fmt::format("{}:{}: kind: {} is a {} in the ledger, not a {}", source, o.line, o.serial, kind, o.kind));
      }
      if (!fresh) {
        const LedgerFields set_here = tx.SetByImport(result.import_id, o.serial);
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
          record(o.serial, kind, o.line, LedgerFields{{"identity.also_seen", also}}, state);
          return;
        }
      }
      LedgerFields changes;
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
      tx.Rollback();
      result.import_id = 0;
      return result;
    }
    tx.FinishImport(result.import_id, result.assets_seen, result.events);
    tx.Commit();
  } catch (...) {
    tx.Rollback();
    throw;
  }
  return result;
}

}  // namespace railyard
