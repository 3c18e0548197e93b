#include "doctor/counter_read.h"

#include <utility>

namespace railyard {
namespace {

std::vector<const CounterRead*>& Registry() {
  static std::vector<const CounterRead*> reads;
  return reads;
}

}  // namespace

CounterRead::CounterRead(std::string rule_id, std::vector<std::string> names)
    : rule(std::move(rule_id)), counters(std::move(names)) {
  Registry().push_back(this);
}

const std::vector<const CounterRead*>& CounterReads() { return Registry(); }

}  // namespace railyard
