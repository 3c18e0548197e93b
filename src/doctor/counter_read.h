// The `ethtool -S` counters a rule reads, declared beside the rule, as its policy keys are:
//   const CounterRead kDropCounters{"rx-drops-high", {"rx_discards_phy", "rx_out_of_buffer"}};
//   for (const std::string& name : kDropCounters.counters) KeptCounter(netdev, name) ...
// The collector keeps the counters data/catalog/kept_counters.csv lists (each with its meaning and
// source); Doctor.EveryCounterARuleReadsIsKept holds the two together both ways: every declared
// counter is a row whose read_by names the rule, and every read_by is a declaration. A rule cannot read
// a counter the collector drops, and the file cannot claim a reader that does not read.
#pragma once

#include <string>
#include <vector>

namespace railyard {

struct CounterRead {
  CounterRead(std::string rule_id, std::vector<std::string> names);
  std::string rule;
  std::vector<std::string> counters;
};

// Every declaration, in the order the rule files were initialised.
const std::vector<const CounterRead*>& CounterReads();

}  // namespace railyard
