#include "ledger/import_apply.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/input_error.h"
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

namespace {

using Seen = std::unordered_map<std::string, std::pair<int, std::string>>;  // serial -> line, kind of its first mention

// A stream of remembered documents (see ApplyImport in the header): each document the last import by
// this reader read byte for byte, whose assets no import has changed since and no document of this one
// has named, is taken as read; the rest are applied. Then this import's documents are remembered,
// those whose assets no other document named.
void ApplyDocuments(LedgerTransaction& tx, const ImportStream& stream, const std::function<void(const AssetObservation&)>& apply,
                    Seen& seen, ImportResult& result) {
  // Not a structured binding: clang 14 cannot capture one in a lambda.
  std::pair<int64_t, std::unordered_map<uint64_t, std::string>> memory = tx.RememberedDocuments(stream.reader);
  std::unordered_map<uint64_t, std::string>& remembered = memory.second;
  if (memory.first < 0 || tx.LastEventId() > memory.first) remembered.clear();
  size_t remembered_assets = 0;
  for (const auto& [digest, names] : remembered)
    remembered_assets += static_cast<size_t>(std::count(names.begin(), names.end(), '\n'));
  seen.reserve(remembered_assets);  // a re-import names about what the last one did: no rehashing on the way
  auto each_asset = [](std::string_view names, const auto& visit) {  // "kind\tserial\n" lines
    while (!names.empty()) {
      const size_t tab = names.find('\t'), end = names.find('\n');
      if (tab == std::string_view::npos || end == std::string_view::npos || tab > end) break;
      visit(names.substr(0, tab), names.substr(tab + 1, end - tab - 1));
      names.remove_prefix(end + 1);
    }
  };
  struct Document {
    uint64_t digest;
    int line;
    bool read;   // false: taken as read (its assets were named by no other document of the last import)
    bool alone;  // read: none of its assets was named first by a document taken as read
    std::string names;
  };
  std::unordered_set<int> spoiled;  // lines of documents taken as read whose assets a document read now names too
  std::vector<Document> documents;
  documents.reserve(remembered.size());
  std::unordered_map<std::string, int> mentions;  // serial -> documents read by this import naming it
  // Asked from the thread that parses: `remembered` is not changed while the stream is read.
  const KnownDigest known = [&remembered](uint64_t digest) { return remembered.count(digest) > 0; };
  stream.produce_documents(known, [&](StreamDocument&& document) {
    if (document.known) {
      const std::string& names = remembered.at(document.digest);
      bool named_already = false;
      each_asset(names, [&](std::string_view, std::string_view serial) { named_already |= seen.count(std::string(serial)) > 0; });
      if (!named_already) {
        each_asset(names, [&](std::string_view kind, std::string_view serial) {
          seen.emplace(std::string(serial), std::make_pair(document.line, std::string(kind)));
          ++result.assets_seen;
        });
        ++result.documents_unchanged;
        documents.push_back({document.digest, document.line, false, true, names});
        return;
      }
      document.observations = document.read_again();
    }
    std::string names;
    bool alone = true;
    std::vector<std::string> serials;
    serials.reserve(document.observations.size());
    for (const AssetObservation& o : document.observations) serials.push_back(o.serial);
    tx.Prefetch(serials);
    for (const AssetObservation& o : document.observations) {
      // Named already, and not by a document read now: by one taken as read, which no longer names
      // its assets alone.
      if (auto first = seen.find(o.serial); first != seen.end() && !mentions.count(o.serial)) {
        spoiled.insert(first->second.first);
        alone = false;
      }
      apply(o);
      names += o.kind + "\t" + o.serial + "\n";
      ++mentions[o.serial];
    }
    ++result.documents_read;
    documents.push_back({document.digest, document.line, true, alone, std::move(names)});
  });
  // Remember the documents whose assets no other document of this import named. A document taken as
  // read named its assets alone in the last import, so only a document read now can share them.
  std::vector<std::pair<uint64_t, std::string>> keep;
  for (Document& d : documents) {
    bool alone = d.read ? d.alone : !spoiled.count(d.line);
    if (d.read)
      each_asset(d.names, [&](std::string_view, std::string_view serial) { alone &= mentions[std::string(serial)] == 1; });
    if (alone) keep.emplace_back(d.digest, std::move(d.names));
  }
  tx.RememberDocuments(stream.reader, keep);
}

}  // namespace

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
    Seen seen;
    auto record = [&](const std::string& serial, const std::string& kind, int line, const LedgerFields& changes,
                      const LedgerFields& state) {
      tx.AddEvent(result.import_id, line, serial, kind, LedgerFieldsJson(changes), changes.size(), state);
      result.events += changes.size();
    };
    auto apply = [&](const AssetObservation& o) {
      if (o.serial.empty()) throw InputError(fmt::format("{}:{}: serial: an asset needs a serial", source, o.line));
      auto [first, fresh] = seen.emplace(o.serial, std::make_pair(o.line, o.kind));
      if (fresh) ++result.assets_seen;
      if (!fresh && first->second.second != o.kind) {
        throw InputError(fmt::format("{}:{}: kind: {} is a {} here but a {} on line {}", source, o.line, o.serial, o.kind,
                                     first->second.second, first->second.first));
      }
      std::optional<std::pair<std::string, LedgerFields>> known = tx.GetAsset(o.serial);
      const std::string kind = known ? known->first : o.kind;
      LedgerFields state = known ? known->second : LedgerFields{};
      if (known && !o.kind.empty() && kind != o.kind) {
        throw InputError(fmt::format("{}:{}: kind: {} is a {} in the ledger, not a {}", source, o.line, o.serial, kind, o.kind));
      }
      if (!fresh) {
        const LedgerFields set_here = tx.SetByImport(result.import_id, o.serial);
        for (const auto& [field, value] : o.fields) {
          auto f = set_here.find(field);
          if (stream.repeats_are_conflicts && f != set_here.end() && f->second != value) {
            throw InputError(fmt::format("{}:{}: {}: {} is '{}' here but '{}' on line {}", source, o.line, field, o.serial, value,
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
    };
    if (stream.produce_documents) {
      ApplyDocuments(tx, stream, apply, seen, result);
    } else {
      stream.produce(apply);
    }
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
