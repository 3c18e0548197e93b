// Modules and receive-side health.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "doctor/counter_read.h"
#include "doctor/rules.h"

namespace railyard {

const PolicyKey<double> kModuleTempWarnC{"module_temp_warn_c",
                                         70.0,
                                         "degrees Celsius",
                                         "module temperature at which a warning is raised",
                                         {"module-temperature-high", "switch-module-temperature-high"}};
const PolicyKey<double> kModuleTempAlarmC{"module_temp_alarm_c",
                                          80.0,
                                          "degrees Celsius",
                                          "module temperature at which the finding is an error",
                                          {"module-temperature-high", "switch-module-temperature-high"},
                                          [](const double& alarm, const DoctorPolicy& p) {
                                            return alarm < p.Get(kModuleTempWarnC) ? std::string("is below module_temp_warn_c")
                                                                                   : std::string();
                                          }};

namespace {

const PolicyKey<uint64_t> kMaxRxDiscards{
    "max_rx_discards", 0, "a count", "rx_discards_phy / rx_out_of_buffer above this warn (0: any)", {"rx-drops-high"}};
const PolicyKey<std::vector<std::string>> kQualifiedModuleVendors{"qualified_module_vendors",
                                                                  {"NVIDIA", "Mellanox"},
                                                                  "a list of module vendor names",
                                                                  "module EEPROM vendor names accepted as qualified",
                                                                  {"module-not-qualified"}};

void ModuleTemperatureHigh(RuleContext& c) {
  const double warn_c = c.policy.Get(kModuleTempWarnC), alarm_c = c.policy.Get(kModuleTempAlarmC);
  auto check = [&](const std::string& object, double t, const std::string& source) {
    if (t < warn_c) return;
    bool alarm = t >= alarm_c;
    c.Report(alarm ? Severity::kError : Severity::kWarning, object,
             fmt::format("module at {:.1f} °C ({} {:.0f} °C): hot optics age fast and raise the BER", t,
                         alarm ? "alarm at" : "warning at", alarm ? alarm_c : warn_c),
             "check airflow (blanking panels, fan direction, neighbouring hot modules) and the module's own thresholds in "
             "ethtool -m; replace it if it stays hot")
        .evidence = {{"temperature_c", fmt::format("{:.1f}", t)}, {"source", source}};
  };
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.module && n.module->temperature_c)
      check(fmt::format("netdev {} module", n.name), *n.module->temperature_c, "ethtool -m");
  }
  for (const auto& [device, l] : c.facts.links) {
    if (l.module_temperature_c) check(fmt::format("{} module", device), *l.module_temperature_c, "mlxlink -m");
  }
}

// An optical module whose lasers are all dark, or that receives no light on any lane, or reports loss of
// signal/lock on every lane. Said even when the link is down for another reason: the module is part of why.
// Only ports someone meant to use (configured, or up): the NIC switches the lasers of an unused, admin-down
// port off by design.
void ModuleOpticsFault(RuleContext& c) {
  constexpr double kDarkDbm = -30.0;  // far below any receiver's sensitivity (about -10 dBm for 100G/400G optics)
  auto all = [](const std::vector<std::optional<double>>& lanes, auto pred) {
    size_t known = 0, hit = 0;
    for (const auto& x : lanes) {
      if (!x) continue;
      ++known;
      hit += pred(*x);
    }
    return known > 0 && hit == known;
  };
  auto all_set = [](const std::vector<bool>& v) { return !v.empty() && std::find(v.begin(), v.end(), false) == v.end(); };
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (!n.module || !n.module->readable) continue;
    bool wanted = Configured(c.facts, n) || n.operstate == "up";
    if (!wanted) continue;
    ModuleLanes l = LanesOf(*n.module);
    bool low_power = l.module_state.find("LowPwr") != std::string::npos;
    bool tx_dark = all(l.tx_power_dbm, [&](double d) { return d <= kDarkDbm; }) ||
                   (l.tx_power_dbm.empty() && all(l.tx_bias_ma, [](double ma) { return ma <= 0.0; }));
    bool rx_dark = all(l.rx_power_dbm, [&](double d) { return d <= kDarkDbm; });
    bool rx_los = all_set(l.rx_los) || all_set(l.rx_lol);
    if (!tx_dark && !rx_dark && !rx_los && !low_power) continue;
    std::vector<std::string> what;
    if (low_power) what.push_back("the module is in low-power mode (" + l.module_state + "): its lasers stay off");
    if (tx_dark)
      what.push_back(
          fmt::format("every transmit lane is dark ({} lanes at or below {:.0f} dBm or 0 mA bias): the "
                      "laser is disabled",
                      std::max(l.tx_power_dbm.size(), l.tx_bias_ma.size()), kDarkDbm));
    if (rx_dark)
      what.push_back(fmt::format("no light is received on any of {} lanes", l.rx_power_dbm.size()));
    else if (rx_los)
      what.push_back("every receive lane reports loss of signal or lock");
    Finding& f =
        c.Report(fmt::format("netdev {} module", n.name), fmt::format("{}", fmt::join(what, "; ")),
                 tx_dark || low_power
                     ? "a ConnectX turns the laser off for a module it will not drive (unsupported or unqualified part, "
                       "power class above the cage's) and on an admin-down port: check `ip link` state, `mlxlink -d DEV -m` "
                       "and dmesg for the module event, and use a qualified module"
                     : "the far end sends no light: check the fibre (polarity, a break, a dirty connector) and the far "
                       "end's port and module");
    f.evidence = {{"vendor", n.module->vendor_name}, {"part", n.module->vendor_pn}, {"operstate", n.operstate}};
    if (!l.module_state.empty()) f.evidence.emplace_back("module_state", l.module_state);
    auto lanes = [](const std::vector<std::optional<double>>& v) {
      std::string out;
      for (const auto& x : v) out += (out.empty() ? "" : " ") + (x ? fmt::format("{:.2f}", *x) : std::string("-"));
      return out;
    };
    if (!l.tx_power_dbm.empty()) f.evidence.emplace_back("tx_dbm", lanes(l.tx_power_dbm));
    if (!l.rx_power_dbm.empty()) f.evidence.emplace_back("rx_dbm", lanes(l.rx_power_dbm));
  }
}

// mlxlink's per-lane module flags while the link is Active: receive loss of signal or CDR loss of lock, or a
// transmitter fault, on some lanes. A passive copper cable has no receiver or CDR of its own: its flags mean
// nothing and are not read.
void ModuleLaneFault(RuleContext& c) {
  auto lanes_set = [](const std::vector<int>& v) {
    std::vector<int> out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] != 0) out.push_back(static_cast<int>(i) + 1);
    }
    return out;
  };
  for (const auto& [device, l] : c.facts.links) {
    if (l.state != "Active" || l.cable_type.find("Passive copper") != std::string::npos) continue;
    std::vector<int> los = lanes_set(l.rx_los), lol = lanes_set(l.rx_cdr_lol), fault = lanes_set(l.tx_fault);
    if (los.empty() && lol.empty() && fault.empty()) continue;
    std::vector<std::string> what;
    if (!los.empty()) what.push_back(fmt::format("Rx loss of signal on lanes {}", fmt::join(los, ",")));
    if (!lol.empty()) what.push_back(fmt::format("Rx CDR loss of lock on lanes {}", fmt::join(lol, ",")));
    if (!fault.empty()) what.push_back(fmt::format("Tx fault on lanes {}", fmt::join(fault, ",")));
    c.Report(fmt::format("{} module", device),
             fmt::format("the link is Active but the module reports {}: lanes are failing, expect errors, retraining or a width "
                         "downgrade",
                         fmt::join(what, "; ")),
             "clean the connectors and reseat; swap the cable or module ends to see whether the fault follows it; replace it "
             "if it does")
        .evidence = {{"cable_type", l.cable_type}, {"vendor", l.module_vendor}, {"part", l.module_part_number}};
  }
}

const CounterRead kDropCounters{"rx-drops-high", {"rx_discards_phy", "rx_out_of_buffer"}};

void RxDropsHigh(RuleContext& c) {
  for (const NetdevFacts& n : c.facts.netdevs) {
    std::vector<std::pair<std::string, std::string>> evidence;
    for (const std::string& counter : kDropCounters.counters) {
      if (std::optional<uint64_t> v = KeptCounter(n, counter); v && *v > c.policy.Get(kMaxRxDiscards))
        evidence.emplace_back(counter, std::to_string(*v));
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

bool Qualified(const DoctorPolicy& p, std::string_view vendor) {
  auto lower = [](std::string_view v) {
    std::string out(v);
    for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
  };
  std::string have = lower(vendor);
  for (const std::string& q : p.Get(kQualifiedModuleVendors)) {
    if (!q.empty() && have.starts_with(lower(q))) return true;
  }
  return false;
}

void ModuleNotQualified(RuleContext& c) {
  auto report = [&](const std::string& object, const std::string& vendor, const std::string& pn, const std::string& source) {
    c.Report(object,
             fmt::format("the module is from {} ({}), not a qualified vendor ({}): NVIDIA supports its NICs and switches "
                         "only with LinkX parts, and third-party modules are the usual cause of links that train slowly, "
                         "flap or run hot",
                         vendor, pn.empty() ? "no part number" : pn,
                         fmt::format("{}", fmt::join(c.policy.Get(kQualifiedModuleVendors), ", "))),
             "replace it with the qualified LinkX part for this port, or add the vendor to qualified_module_vendors in "
             "the policy if it has passed your own qualification")
        .evidence = {{"vendor", vendor}, {"part_number", pn}, {"source", source}};
  };
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (!n.module) continue;
    const ModuleInfo& m = *n.module;
    if (!m.readable) {
      // An empty cage also has no EEPROM; a port with link has a module, so its EEPROM is broken or blocked.
      if (n.operstate != "up") continue;
      c.Report(fmt::format("netdev {} module", n.name),
               "the port has link but its module EEPROM cannot be read: a damaged or non-compliant module (or one whose "
               "EEPROM the firmware rejects)",
               "reseat it; if `ethtool -m " + n.name + "` still fails, replace it with a qualified LinkX part")
          .evidence = {{"ethtool -m", m.warnings.empty() ? "unreadable" : m.warnings.front().message}};
      continue;
    }
    if (m.vendor_name.empty() || Qualified(c.policy, m.vendor_name)) continue;
    report(fmt::format("netdev {} module", n.name), m.vendor_name, m.vendor_pn, "ethtool -m");
  }
  for (const auto& [device, l] : c.facts.links) {
    if (l.module_vendor.empty() || Qualified(c.policy, l.module_vendor)) continue;
    report(fmt::format("{} module", device), l.module_vendor, l.module_part_number, "mlxlink -m");
  }
}

}  // namespace

void AddOpticsRules(std::vector<HostRule>& rules) {
  rules.push_back({"module-lane-fault", Severity::kWarning,
                   "an Active link whose module reports Rx LOS, CDR LOL or Tx fault on some lanes", ModuleLaneFault});
  rules.push_back({"module-optics-fault", Severity::kError,
                   "an optical module with every laser dark, or no light received on any lane", ModuleOpticsFault});
  rules.push_back({"module-temperature-high", Severity::kWarning, "module temperature at or above 70 °C (error at 80 °C)",
                   ModuleTemperatureHigh});
  rules.push_back({"module-not-qualified", Severity::kWarning,
                   "third-party module, or a module whose EEPROM cannot be read on a live link", ModuleNotQualified});
  rules.push_back(
      {"rx-drops-high", Severity::kWarning, "receive discards or out-of-buffer drops above the policy count", RxDropsHigh});
}

}  // namespace railyard
