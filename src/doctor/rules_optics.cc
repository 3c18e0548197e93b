// Modules and receive-side health.
#include <fmt/format.h>

#include "doctor/rules.h"

namespace railyard {
namespace {

void ModuleTemperatureHigh(RuleContext& c) {
  auto check = [&](const std::string& object, double t, const std::string& source) {
    if (t < c.policy.module_temp_warn_c) return;
    bool alarm = t >= c.policy.module_temp_alarm_c;
    c.Report(alarm ? Severity::kError : Severity::kWarning, object,
             fmt::format("module at {:.1f} °C ({} {:.0f} °C): hot optics age fast and raise the BER", t,
                         alarm ? "alarm at" : "warning at", alarm ? c.policy.module_temp_alarm_c : c.policy.module_temp_warn_c),
             "check airflow (blanking panels, fan direction, neighbouring hot modules) and the module's own thresholds in "
             "ethtool -m; replace it if it stays hot")
        .evidence = {{"temperature_c", fmt::format("{:.1f}", t)}, {"source", source}};
  };
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.module && n.module->temperature_c) check(fmt::format("netdev {} module", n.name), *n.module->temperature_c, "ethtool -m");
  }
  for (const auto& [device, l] : c.facts.links) {
    if (l.module_temperature_c) check(fmt::format("{} module", device), *l.module_temperature_c, "mlxlink -m");
  }
}

void RxDropsHigh(RuleContext& c) {
  for (const NetdevFacts& n : c.facts.netdevs) {
    std::vector<std::pair<std::string, std::string>> evidence;
    for (const char* counter : {"rx_discards_phy", "rx_out_of_buffer"}) {
      auto it = n.counters.find(counter);
      if (it != n.counters.end() && it->second > c.policy.max_rx_discards) evidence.emplace_back(counter, std::to_string(it->second));
    }
    if (evidence.empty()) continue;
    c.Report(fmt::format("netdev {}", n.name),
             "the NIC drops received packets: rx_discards_phy means the port's buffer overflowed (no PFC, or pause ignored); "
             "rx_out_of_buffer means the host did not post receive buffers fast enough",
             "for discards: enable PFC on the traffic's priority or fix the switch's pause handling; for out-of-buffer: more "
             "queues/ring size (ethtool -L/-G), IRQ affinity on the NIC's NUMA node")
        .evidence = evidence;
  }
}

}  // namespace

void AddOpticsRules(std::vector<HostRule>& rules) {
  rules.push_back({"module-temperature-high", Severity::kWarning, "module temperature at or above 70 °C (error at 80 °C)", ModuleTemperatureHigh});
  rules.push_back({"rx-drops-high", Severity::kWarning, "receive discards or out-of-buffer drops above the policy count", RxDropsHigh});
}

}  // namespace railyard
