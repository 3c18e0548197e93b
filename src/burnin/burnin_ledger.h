// A burn-in's verdict per NIC, into the asset ledger: the field `burnin.result` on each NIC's serial,
// which acceptance reads (ledger/acceptance.h): "pass: ..." lets the card reach link-tested, "fail:
// ..." (a confirmed link or card suspect) rejects it with the evidence, and "suspect ..." or "not
// judged ..." (a likely suspect; a slow host or leaf, which is not the card's fault) holds it until
// the next round. The ledger knows NICs by serial at "host PCI-address"; the host facts (ibdev2netdev
// -v) give each RDMA device's PCI address.
#pragma once

#include <string>
#include <vector>

#include "burnin/burnin_check.h"
#include "facts/host_facts.h"
#include "ledger/ledger.h"

namespace railyard {

struct BurninLedgerUpdate {
  std::vector<AssetObservation> observations;
  std::vector<std::string> unmapped;  // "host device" measured but with no NIC in the ledger at its PCI address
};

BurninLedgerUpdate BurninObservations(const BurninCheck& check, const std::vector<HostFacts>& facts, const LedgerStore& ledger);

// BurninObservations over the host facts in `facts` (files or directories), recorded in the ledger as
// one import by `by` (default "railyard") from `source`. Returns what was recorded and what was not.
BurninLedgerUpdate RecordBurninVerdicts(const BurninCheck& check, const std::vector<std::string>& facts, LedgerStore& ledger,
                                        const std::string& by, const std::string& source);

}  // namespace railyard
