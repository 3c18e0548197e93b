// `railyard burnin check`: every result of a burn-in campaign read, judged against what the link
// should carry, and the slow pairs turned into suspects (burnin/localize.h) and a next round.
//
// Thresholds (docs/burnin.md, defaults overridable in burnin.yaml):
// - perftest: the BW average of every row of at least 64 KiB must reach 90% of the plane's link rate
//   (Mellanox/ngc_multinode_perf's pass criterion; Azure's NHC gates at 375 of 400 Gb/s, OCI at 384);
//   twice that for a bidirectional test.
// - NCCL: every row of at least 1 GiB, out of place and in place, must reach 90% of 46 GB/s bus
//   bandwidth per 400 Gb/s NIC (the NCCL maintainers' figure for NDR: 46-48 GB/s per NIC; the
//   scripts split the test per rail, so each group is one NIC per host), with no wrong element and
//   no out-of-bounds value. Never the "Avg bus bandwidth" line alone: it averages every size.
// A pair whose result file is missing, cut short, or has no gated row is "missing", never passed.
// Counters under load: where the scripts took each NIC's `mlxlink -c -m` before and after a round, a
// NIC whose symbol or effective errors, link downs or link recoveries grew during it, or whose module
// reached max_module_temp_c, is a suspect even when its bandwidth passed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "burnin/burnin_plan.h"
#include "burnin/localize.h"
#include "planfile/planned.h"

namespace railyard {

struct BurninPolicy {
  double perftest_min_fraction = 0.9;
  std::optional<double> perftest_min_gbps;  // absolute, instead of the fraction
  uint64_t perftest_min_bytes = 65536;
  double nccl_busbw_per_400g = 46;  // GB/s per 400 Gb/s NIC, scaled by the link rate
  double nccl_min_fraction = 0.9;
  std::optional<double> nccl_min_busbw;  // GB/s, absolute, instead of the fraction
  uint64_t nccl_min_bytes = 1ull << 30;
  double max_module_temp_c = 70;  // counters: a module at or above this after a round (doctor's warning level)
};

// burnin.yaml: perftest: {min_fraction, min_gbps, min_bytes}, nccl: {busbw_per_400g, min_fraction,
// min_busbw, min_bytes}, counters: {max_module_temp_c}. Throws InputError("FILE:LINE:COLUMN: key: why").
BurninPolicy ParseBurninPolicy(const std::string& yaml, const std::string& file);

struct BurninCheck {
  BurninPlan plan;
  std::string unit;                   // Gb/s (perftest) or GB/s (NCCL bus bandwidth)
  double expected = 0;                // what a healthy pair carries
  double threshold = 0;               // what it must carry to pass
  std::vector<PairOutcome> outcomes;  // the measured pairs (failed or passed), in plan order
  std::vector<PairOutcome> missing;   // pairs with no usable result: never counted as passed
  Localization localization;
  BurninRound next_round;
  size_t passed = 0, failed = 0;
  size_t counters_read = 0, counters_missing = 0;  // NIC snapshots around rounds: both read / one or both absent
  std::vector<std::string> warnings;               // "FILE:LINE: message"
};

// Reads RESULTS_DIR/<pair.result>.txt (or .json: perftest --out_json with --report_gbits, or
// nccl-tests -J) for every pair of the burn-in plan. `fabric` (may be null) gives each NIC its leaf,
// leaf port and cable for the suspects.
BurninCheck CheckBurnin(const BurninPlan& plan, const PlannedFabric* fabric, const std::string& results_dir,
                        const BurninPolicy& policy);

// JSON (schema railyard.burnin/1) and the terminal table.
std::string BurninCheckJson(const BurninCheck& check);
std::string BurninCheckTable(const BurninCheck& check);
// A self-contained HTML page: the summary, the suspects with their evidence, and two heat maps —
// every NIC (hosts by rails) at the slowest rate it measured, and for up to 256 hosts every pair of
// hosts at the slowest rate between them — coloured by the fraction of the expected rate; grey
// where nothing was measured.
std::string BurninCheckHtml(const BurninCheck& check);

// The next round as a burn-in plan of its own (pattern "bisect"), for `burnin bisect -o DIR`.
BurninPlan BisectPlan(const BurninCheck& check);

// The burnin-plan.json a results directory was written for: in it, or in the directory above it
// (`burnin plan -o DIR` puts results/ beside it). Throws InputError naming the directory.
std::string FindBurninPlan(const std::string& results_dir);

}  // namespace railyard
