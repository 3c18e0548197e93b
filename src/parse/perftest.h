// perftest output (linux-rdma/perftest: ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw, and the
// *_lat tools), as the tools print it, and the --out_json file. Never throws.
//
// The text (src/perftest_parameters.h, tests/fixtures/burnin/FORMATS.md): a banner of "key : value"
// fields, the connection lines, then a header naming the unit — BW peak/average in [Gb/sec]
// (--report_gbits, 10^9 bit/s) or [MB/sec] / [MiB/sec] (the same 2^20 byte/s; renamed in 2024) —
// and one row per message size. With -D (duration), --run_infinitely, and on a send test's server,
// the peak is not measured: the column prints 0.00 after "WARNING: BW peak won't be measured".
// Lines that are neither (CUDA chatter, CPU frequency warnings, shell prompts) are counted in one
// warning with the first such line; error lines ("Couldn't connect to ...", "Failed to modify QP",
// "Completion with error") are kept with their line numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct PerftestBwRow {
  int line = 0;
  uint64_t bytes = 0, iterations = 0;
  std::optional<double> peak_gbps;  // unset when not measured (0.00 with the warning, or -D)
  double average_gbps = 0;          // converted to Gb/s (10^9 bit/s) from the header's unit
  double msg_rate_mpps = 0;
};

struct PerftestLatRow {
  int line = 0;
  uint64_t bytes = 0, iterations = 0;
  std::optional<double> t_min_us, t_max_us, t_typical_us, t_p99_us, t_p999_us;
  double t_avg_us = 0;
};

struct PerftestError {
  int line = 0;
  std::string text;
};

struct PerftestResult {
  std::string test;       // "RDMA_Write BW Test", "RDMA_Write Bidirectional BW Test", "Send Latency Test"
  std::string device;     // Device : mlx5_0
  std::string link_type;  // IB | Ethernet
  std::string unit;       // as the header printed it: Gb/sec, MB/sec, MiB/sec, usec
  int qps = 0;
  bool bidirectional = false;
  bool peak_not_measured = false;  // the tool said so
  bool complete = false;           // a dashed line closed the table
  std::vector<PerftestBwRow> bw;
  std::vector<PerftestLatRow> lat;
  std::vector<PerftestError> errors;
  std::vector<ParseWarning> warnings;
};

PerftestResult ParsePerftest(std::string_view text);
// `--out_json --out_json_file=F` (perftest's own JSON: "results": {"MsgSize", "BW_peak",
// "BW_average", "MsgRate"} or the latency fields). Its unit is the run's (--report_gbits or MiB/s):
// `gbits` says which, as the JSON does not.
PerftestResult ParsePerftestJson(std::string_view json, bool gbits);

}  // namespace railyard
