// nccl-tests output (NVIDIA/nccl-tests: all_reduce_perf, all_gather_perf ...): the text every
// version prints, and the -J/--output_file JSON (v2.17.3 and later). Never throws.
//
// Text (tests/fixtures/burnin/FORMATS.md): "# nThread ..." parameters, "#  Rank R Group G Pid P
// on HOST device D [bus] GPU" per rank (older: no Group), the table header, one row per size —
// size count type [redop] [root], then time algbw busbw #wrong out of place and again in place
// (#wrong is %g, N/A with -c 0; the oldest versions print an "error" deviation instead) — and the
// footer "Out of bounds values : N OK|FAILED" and "Avg bus bandwidth : X [OK|FAILED]". The average
// is over every size and both halves: gate on the rows. Failures print "HOST: Test NCCL failure ...".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct NcclHalf {
  bool present = false;
  double time_us = 0, algbw_gbs = 0, busbw_gbs = 0;  // GB/s = 10^9 bytes/s
  std::optional<double> wrong;                       // elements wrong (or, oldest versions, the max deviation); unset: N/A
};

struct NcclRow {
  int line = 0;
  uint64_t bytes = 0, count = 0;
  std::string type, redop;
  NcclHalf out_of_place, in_place;
};

struct NcclRank {
  int rank = 0, group = 0, device = 0;
  std::string host, gpu;
};

struct NcclError {
  int line = 0;
  std::string text;
};

struct NcclResult {
  std::string collective;  // "all_reduce_perf" when the output names it
  int gpus_per_thread = 0;
  std::vector<NcclRank> ranks;
  std::vector<NcclRow> rows;
  std::optional<uint64_t> out_of_bounds;  // the footer's count
  std::optional<double> avg_busbw_gbs;
  std::string avg_verdict;  // OK | FAILED (NCCL_TESTS_MIN_BW set) | ""
  std::vector<NcclError> errors;
  bool complete = false;  // the footer was printed
  std::vector<ParseWarning> warnings;
};

NcclResult ParseNcclTests(std::string_view text);
NcclResult ParseNcclTestsJson(std::string_view json);

}  // namespace railyard
