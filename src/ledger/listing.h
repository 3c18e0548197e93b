// What `railyard ledger show|history|list` print: an asset's fields, its events, and the assets of
// the ledger one line each, filtered by batch, kind or acceptance state.
#pragma once

#include <string>
#include <vector>

#include "ledger/ledger.h"

namespace railyard {

// "SERIAL (kind)" then one "  field  value" line per field, in field order.
std::string AssetText(const Asset& asset);
// One line per event, oldest first: time, id, actor, field, value, source.
std::string HistoryText(const std::vector<LedgerEvent>& events);

struct AssetFilter {
  std::string batch;  // empty: any
  std::string kind;   // nic, cable, transceiver, switch; empty: any
  std::string state;  // acceptance state ("received" when none was recorded); empty: any
};

// Every asset the filter keeps: serial, kind, OPN, batch, state, location; a table, or CSV with a
// header (cells quoted, never formulas).
std::string AssetListing(const LedgerStore& ledger, const AssetFilter& filter, bool csv);

}  // namespace railyard
