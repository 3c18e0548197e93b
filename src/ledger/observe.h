// Reading import documents into asset observations: receiving lists, whole HostFacts (or a
// capture directory), and single tool outputs (lspci -vvv, flint/mstflint q, ethtool -m).
// Field names are documented in docs/ledger.md; what the authenticity checks read.
#pragma once

#include <string>

#include "facts/host_facts.h"
#include "ledger/ledger.h"

namespace railyard {

struct ImportOptions {
  std::string format;              // "" = detect from the path and content
  std::string batch;               // stamped on every asset of the document ("" = none)
  bool allow_unknown_opn = false;  // receiving lists: accept OPNs the catalog does not know
};

// Opens a document for import: its format and fingerprint now (and, for the small formats, its
// observations, so their input errors come before any writing); facts documents are produced a
// host at a time while the import runs. `already_imported` is set when the ledger has it.
ImportStream OpenImport(const std::string& path, const ImportOptions& options, const LedgerStore& ledger);

// The same, gathered whole (tests; small documents). An empty observation list when the document
// names no serial: facts collected without root have no VPD. Throws LedgerError("<file>:<line>: <field>: ...") on bad input.
// `ledger` is consulted to attach serial-less documents (flint) to the card whose GUID or MAC it names.
ImportDocument ReadImportDocument(const std::string& path, const ImportOptions& options, const LedgerStore& ledger);

// A receiving list (CSV: serial, opn[, kind, batch, po, location, note]). Throws LedgerError
// naming `path`, the line and the column.
std::vector<AssetObservation> ObservationsFromReceivingCsv(const std::string& text, const std::string& path,
                                                           const ImportOptions& options);

// A scanned label audit (CSV: serial, label[, device, port, note]): which label each cable
// carries. Every serial must already be in the ledger.
std::vector<AssetObservation> ObservationsFromLabelAudit(const std::string& text, const std::string& path,
                                                         const LedgerStore& ledger);

// What one host's facts say about its cards and modules.
std::vector<AssetObservation> ObservationsFromFacts(const HostFacts& facts);

// A fingerprint of a document's bytes (FNV-1a 64, hex): equal documents are imported once.
// Not a cryptographic hash: it guards against accidents, not adversaries.
std::string Fingerprint(std::string_view bytes);

}  // namespace railyard
