// Acceptance: each asset walks received -> identity-checked -> firmware-aligned -> link-tested,
// driven by the evidence imported into the ledger and the acceptance policy, or ends rejected
// (or rma, set by hand); link-tested assets become accepted when the batch is signed off.
// Every transition is a ledger event with its reasons.
#pragma once

#include "catalog/compatibility.h"

#include <map>
#include <string>
#include <vector>

#include "ledger/ledger.h"

namespace railyard {

struct AcceptancePolicy {
  std::map<std::string, std::string> firmware_baseline;  // PSID or family ("ConnectX-7") -> minimum version
  double max_effective_ber = 1e-12;                      // after FEC (ibdiagnet's default; catalog.md §9)
  double max_raw_ber = 1e-5;                             // pre-FEC margin: well below RS(544,514)'s 2.4e-4 limit
  double min_ber_window_min = 125;                       // BER counted over at least this long (mlxlink Time Since Last Clear)
  double max_module_temp_c = 70;                         // LinkX operating case temperature
  bool require_pcie_at_capability = true;                // the card's PCIe link trained at its capability
  bool require_burnin = false;  // a NIC reaches link-tested only with a passed burn-in (field burnin.result)
  // compatibility: FILE.csv beside the policy (docs/advise.md#compatibility-matrix): a card seen in a server the
  // matrix does not support it in stops at firmware-aligned until it is moved or the matrix says otherwise.
  CompatMatrix compat;
};

// Throws InputError("FILE:LINE: key: ...") on a bad policy; unknown keys are errors.
AcceptancePolicy ParseAcceptancePolicy(const std::string& yaml_text, const std::string& file);
AcceptancePolicy LoadAcceptancePolicy(const std::string& path);

inline constexpr const char* kAcceptanceStates[] = {
    "received", "identity-checked", "firmware-aligned", "link-tested", "accepted", "rejected", "rma"};

struct AcceptanceVerdict {
  std::string serial;
  std::string kind;
  std::string opn;
  std::string batch;
  std::string from;                  // the state before
  std::string to;                    // the state the evidence supports
  std::vector<std::string> reasons;  // why it stopped short, or was rejected
  std::vector<std::pair<std::string, std::string>> evidence;
};

// What the evidence in `asset` supports under `policy` (pure: no ledger access).
AcceptanceVerdict Evaluate(const Asset& asset, const AcceptancePolicy& policy);

// Evaluates every asset (of `batch`, or all) and records state changes as events in one
// transaction. Assets set to rma by hand stay rma. Returns every verdict.
std::vector<AcceptanceVerdict> RunAcceptance(LedgerStore& ledger, const AcceptancePolicy& policy, const std::string& batch,
                                             const std::string& actor);

// What the ledger records for each asset (of `batch`, or all), with the policy's evidence: the report of
// a batch shows the recorded states and reasons, evaluated again for the evidence but not recorded.
// Throws UsageError when the batch has no asset.
std::vector<AcceptanceVerdict> RecordedVerdicts(const LedgerStore& ledger, const AcceptancePolicy& policy,
                                                const std::string& batch);

// The technical lead's sign-off: every link-tested asset of the batch becomes accepted (an event
// naming who signed). Returns their serials.
std::vector<std::string> SignOffBatch(LedgerStore& ledger, const std::string& batch, const std::string& actor);

// The sign-off report of a batch: CSV (one row per asset) and a self-contained HTML page.
std::string AcceptanceCsv(const std::vector<AcceptanceVerdict>& verdicts);
std::string AcceptanceHtml(const std::vector<AcceptanceVerdict>& verdicts, const std::string& batch,
                           const std::string& generated);

}  // namespace railyard
