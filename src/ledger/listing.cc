#include "ledger/listing.h"

#include <fmt/format.h>

#include "util/csv.h"

namespace railyard {

std::string AssetText(const Asset& asset) {
  std::string out = fmt::format("{} ({})\n", asset.serial, asset.kind);
  for (const auto& [k, v] : asset.fields) out += fmt::format("  {:<24} {}\n", k, v);
  return out;
}

std::string HistoryText(const std::vector<LedgerEvent>& events) {
  std::string out;
  for (const LedgerEvent& e : events) {
    out += fmt::format("{} #{:<6} {:<10} {:<24} {:<28} {}\n", e.time, e.id, e.actor, e.field, e.value, e.source);
  }
  return out;
}

std::string AssetListing(const LedgerStore& ledger, const AssetFilter& filter, bool csv) {
  std::string out = csv ? "serial,kind,opn,batch,state,location\n" : "";
  ledger.ForEachAsset([&](const Asset& asset) {
    auto get = [&](const char* field) {
      auto it = asset.fields.find(field);
      return it == asset.fields.end() ? std::string() : it->second;
    };
    const std::string state = get("state").empty() ? "received" : get("state");
    if ((!filter.batch.empty() && get("batch") != filter.batch) || (!filter.kind.empty() && asset.kind != filter.kind) ||
        (!filter.state.empty() && state != filter.state)) {
      return;
    }
    if (csv) {
      out += fmt::format("{},{},{},{},{},{}\n", CsvEscape(asset.serial), asset.kind, CsvEscape(get("opn")),
                         CsvEscape(get("batch")), state, CsvEscape(get("location")));
    } else {
      out += fmt::format("{:<20} {:<12} {:<22} {:<12} {:<17} {}\n", asset.serial, asset.kind, get("opn"), get("batch"), state,
                         get("location"));
    }
  });
  return out;
}

}  // namespace railyard
