// SONiC's CLI prints its tables with Python's tabulate ("simple" format): a header line, a row of dash
// runs under the columns, then rows whose cells may hold spaces ("653.87 MB/s", "QSFP-DD Double
// Density 8X Pluggable Transceiver") and are right-aligned for numbers. A column spans from the end of
// the one before it to the end of its own dash run, so a right-aligned value that starts left of its
// run is still read whole. Some captures lose the dashes row (pasted into an issue): then the header
// words' right edges stand in for the runs.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace railyard {

class TabulateColumns {
 public:
  // From the header line and the dashes row under it; false (and nothing set) when `dashes` is not one.
  bool FromDashes(std::string_view header, std::string_view dashes);
  // From the header alone: each column ends where its header word ends (header words hold no spaces).
  void FromHeader(std::string_view header);

  bool Has(std::string_view name) const;
  // The trimmed cell of `row` under the column `name`; "" when there is no such column or cell.
  std::string_view Cell(std::string_view row, std::string_view name) const;
  const std::vector<std::string>& names() const { return names_; }
  bool empty() const { return names_.empty(); }

 private:
  std::vector<std::pair<size_t, size_t>> spans_;  // [start, end) of each column's run
  std::vector<std::string> names_;
};

// A row of dashes and spaces only, with at least one dash.
bool IsDashesRow(std::string_view line);

}  // namespace railyard
