#include "doctor/switch_rules.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "doctor/rules.h"
#include "parse/ib_counters.h"

namespace railyard {
namespace {

std::string Where(const SwitchPortFacts& p) { return p.line ? fmt::format("{}:{}", p.source, p.line) : p.source; }

Finding& Add(std::vector<Finding>& out, const char* rule, Severity severity, const std::string& sw, std::string object,
             std::string message, std::string fix) {
  Finding f;
  f.rule = rule;
  f.severity = severity;
  f.host = sw;
  f.object = std::move(object);
  f.message = std::move(message);
  f.fix = std::move(fix);
  out.push_back(std::move(f));
  return out.back();
}

}  // namespace

const std::vector<FleetRule>& SwitchRules() {
  static const std::vector<FleetRule> rules = {
      {"switch-port-errdisabled", Severity::kError, "a switch port the switch disabled itself (errdisabled), with its cause"},
      {"switch-port-admin-down", Severity::kWarning,
       "a switch port shut down by configuration that has a description or, with --plan, a planned cable"},
      {"switch-planned-port-down", Severity::kError,
       "(--plan) a planned switch port without a link: no module, no light, or the far end down"},
      {"switch-port-forced-speed", Severity::kWarning, "(--plan) a planned switch port forced to a speed other than the plan's"},
      {"link-end-mismatch", Severity::kError, "(--plan) the two ends of a planned cable up at different speeds"},
      {"vlan-not-allowed-on-trunk", Severity::kError, "a VLAN the host tags that its LLDP-seen switch port does not carry"},
      {"port-error-counters-high", Severity::kWarning,
       "a switch port with physical-layer errors (FCS, symbol, alignment, link recovery, link downed, link integrity), "
       "receive/transmit "
       "errors above 100 or InfiniBand transmit discards above 1000"},
      {"roce-qos-mismatch", Severity::kError,
       "(--plan) a RoCE port whose trust mode, PFC priorities or ECN marking disagree with its switch port's"},
      {"switch-config-drift", Severity::kWarning,
       "(--plan) a switch whose saved running configuration lacks or changes what `railyard config switches` writes for it"},
      {"switch-module-not-supported", Severity::kError,
       "a module the switch refuses (errdisabled xcvr-unsupported), or one whose transmitter the switch leaves dark (tx -30 dBm, "
       "bias 0 mA) "
       "on a port that is up by configuration"},
      {"switch-module-temperature-high", Severity::kWarning,
       "a switch module at or above the policy's module temperature (70 °C; error at 80 °C)"},
      {"ib-link-degraded", Severity::kWarning,
       "an InfiniBand switch port up narrower or slower than both ends support (iblinkinfo's \"Could be\"), or, with --plan, "
       "below the "
       "plan's rate"},
  };
  return rules;
}

std::string PlanPortName(const SwitchFacts& sw, const std::string& port) { return sw.os == "eos" ? EosLongPortName(port) : port; }

std::vector<Finding> RunSwitchRules(const SwitchFacts& sw, const DoctorPolicy& policy, const HostPlan* plan) {
  std::vector<Finding> out;
  auto on = [&](const char* rule) { return !policy.disabled_rules.count(rule); };
  const auto* planned = plan ? plan->HostEndsOf(sw.hostname) : nullptr;
  for (const SwitchPortFacts& p : sw.ports) {
    const std::string plan_port = PlanPortName(sw, p.name);
    const std::string shown = sw.os == "ib" ? "port " + p.name : p.name;  // an InfiniBand port is a number
    const PlannedSwitchPort* far = nullptr;
    if (planned) {
      auto it = planned->find(plan_port);
      if (it != planned->end()) far = &it->second;
    }
    const std::string cable = far ? fmt::format(" (cable {} to {} {})", far->label, far->host, far->host_port) : "";
    const bool xcvr = p.reason.find("xcvr") != std::string::npos || p.reason.find("transceiver") != std::string::npos;
    // A present module whose laser is off and unbiased, on a port nobody shut: the switch is not driving it.
    const bool undriven = p.module_present && p.has_tx_power && p.tx_power_dbm <= -30 && p.has_tx_bias && p.tx_bias_ma <= 0.01 &&
                          p.admin != "down" && (p.status != "errdisabled" || xcvr);
    if ((xcvr || undriven) && on("switch-module-not-supported")) {
      const std::string module = !p.module_pn.empty() ? p.module_vendor + " " + p.module_pn : p.module_type;
      Add(out, "switch-module-not-supported", Severity::kError, sw.hostname, "port " + p.name,
          fmt::format("{}: the switch {} the module{}{}", shown,
                      xcvr ? "refuses (" + p.reason + ")" : "does not drive the transmitter of",
                      module.empty() ? "" : " (" + module + ")", cable),
          "use a module from the switch vendor's qualified list (LinkX for NVIDIA, Arista-coded for EOS; EOS can allow others "
          "with "
          "`service unsupported-transceiver`), then shutdown / no shutdown the port")
          .evidence = {{"status", p.status},
                       {"reason", p.reason.empty() ? "(not said)" : p.reason},
                       {"module", module.empty() ? "(not said)" : module},
                       {"tx_power_dbm", p.has_tx_power ? fmt::format("{:.2f}", p.tx_power_dbm) : "(not read)"},
                       {"tx_bias_ma", p.has_tx_bias ? fmt::format("{:.2f}", p.tx_bias_ma) : "(not read)"},
                       {"source", p.module_source.empty() ? Where(p) : p.module_source}};
    }
    if (p.has_temp && p.module_temp_c >= policy.Get(kModuleTempWarnC) && on("switch-module-temperature-high")) {
      const bool alarm = p.module_temp_c >= policy.Get(kModuleTempAlarmC);
      Add(out, "switch-module-temperature-high", alarm ? Severity::kError : Severity::kWarning, sw.hostname, "port " + p.name,
          fmt::format("the module in {} is at {:.1f} °C{}", shown, p.module_temp_c, cable),
          "check the switch's airflow and fans (a blocked or reversed-airflow cage), then the module's power class against the "
          "cage")
          .evidence = {{"module_temp_c", fmt::format("{:.1f}", p.module_temp_c)},
                       {"warn_at_c", fmt::format("{:g}", policy.Get(kModuleTempWarnC))},
                       {"source", p.module_source.empty() ? Where(p) : p.module_source}};
    }
    if (p.status == "errdisabled" && !xcvr && on("switch-port-errdisabled")) {
      Add(out, "switch-port-errdisabled", Severity::kError, sw.hostname, "port " + p.name,
          fmt::format("{} is errdisabled{}{}: the switch shut it down itself and it stays down until cleared", shown,
                      p.reason.empty() ? "" : " (" + p.reason + ")", cable),
          "find the cause (EOS: show interfaces " + p.name +
              " status errdisabled; show logging), fix it, then shutdown / no shutdown "
              "the port or let errdisable recovery bring it back")
          .evidence = {{"status", p.status},
                       {"reason", p.reason.empty() ? "(not in this output)" : p.reason},
                       {"module", p.module_type},
                       {"source", Where(p)}};
    }
    if (p.admin == "down" && on("switch-port-admin-down") && (far || !p.description.empty())) {
      Add(out, "switch-port-admin-down", far ? Severity::kError : Severity::kWarning, sw.hostname, "port " + p.name,
          fmt::format("{} is shut down by configuration{}{}", shown, far ? cable : "",
                      p.description.empty() ? "" : " (description '" + p.description + "')"),
          "no shutdown on the port if it should carry traffic; else remove its description so it reads as unused")
          .evidence = {{"status", p.status}, {"admin", p.admin}, {"source", Where(p)}};
    }
    if (!p.errors.empty() && on("port-error-counters-high")) {
      // Physical-layer errors are not expected on a healthy link at all: the Azure IB guidance
      // investigates SymbolErrorCounter, LinkErrorRecoveryCounter and LinkDownedCounter above 0,
      // PortRcvErrors above 100 and PortXmitDiscards above 1000
      // (../shared/reference/rollout-and-acceptance.md B5 #8); FCS and alignment errors are
      // Ethernet's physical-layer errors, transmit errors are held to the receive threshold.
      // Counters run since the last clear: the message says so. A counter at its width's maximum
      // has stopped counting (InfiniBand's base counters are 4 to 16 bits wide).
      static const std::map<std::string, uint64_t, std::less<>> kAbove = {{"fcs", 0},
                                                                          {"symbol", 0},
                                                                          {"align", 0},
                                                                          {"link_recovery", 0},
                                                                          {"link_downed", 0},
                                                                          {"rx", 100},
                                                                          {"tx", 100},
                                                                          {"xmit_discards", 1000},
                                                                          {"local_link_integrity", 0},
                                                                          {"buffer_overrun", 0},
                                                                          {"fec_uncorrected", 0}};
      std::string bad;
      std::vector<std::pair<std::string, std::string>> ev;
      for (const auto& [name, value] : p.errors) {
        auto limit = kAbove.find(name);
        if (limit == kAbove.end() || value <= limit->second) continue;
        const bool saturated = sw.os == "ib" && value == IbCounterMax(name);
        bad += fmt::format("{}{}{} {}", bad.empty() ? "" : ", ", saturated ? "at least " : "", value, name);
        ev.emplace_back(name, std::to_string(value) + (saturated ? " (saturated)" : ""));
      }
      if (!bad.empty()) {
        ev.emplace_back("source", p.errors_source.empty() ? Where(p) : p.errors_source);
        Add(out, "port-error-counters-high", Severity::kWarning, sw.hostname, "port " + p.name,
            fmt::format("{} has counted {} errors since its counters were last cleared{}", shown, bad, cable),
            std::string(sw.os == "ib" ? "clear the counters (perfquery -R, or ibqueryerrors -k -K) and watch them under load"
                                      : "clear the counters and watch them under load") +
                " (railyard burnin); errors that grow point at the cable, the module or the port: reseat, then swap the cable, "
                "then the module")
            .evidence = ev;
      }
    }
    const bool below_plan = far && far->speed_gbps > 0 && p.speed_gbps > 0 && p.speed_gbps + 0.01 < far->speed_gbps;
    if (p.oper == "up" && on("ib-link-degraded") && (!p.could_be.empty() || (sw.os == "ib" && below_plan))) {
      std::string why = p.could_be.empty() ? "" : fmt::format("; both ends support {}", p.could_be);
      if (below_plan) why += fmt::format("; the plan gives this cable {} Gb/s", far->speed_gbps);
      Add(out, "ib-link-degraded", below_plan ? Severity::kError : Severity::kWarning, sw.hostname, "port " + p.name,
          fmt::format("{} is up at {:g} Gb/s{}{}", shown, p.speed_gbps,
                      cable.empty() && !p.peer.empty() ? " (to " + p.peer + ")" : cable, why),
          "a link that trains narrower or slower than its ends support points at the cable or a module (a dead lane, a dirty "
          "connector): reseat both ends, then swap the cable; if it persists, check both ends enable the rate (ibportstate)")
          .evidence = {{"status", p.status},
                       {"speed_gbps", fmt::format("{:g}", p.speed_gbps)},
                       {"could_be", p.could_be.empty() ? "(not said)" : p.could_be},
                       {"peer", p.peer},
                       {"source", Where(p)}};
    }
    if (!far) continue;
    if (p.admin != "down" && p.oper == "down" && p.status != "errdisabled" && on("switch-planned-port-down")) {
      const bool sm_missing = sw.os == "ib" && p.status.ends_with("/LinkUp");
      Add(out, "switch-planned-port-down", Severity::kError, sw.hostname, "port " + p.name,
          fmt::format("{} has no link{}: {}", shown, cable,
                      !p.module_present ? "no module in the cage"
                      : p.has_rx_power && p.rx_power_dbm <= -30
                          ? fmt::format("no light received (rx {:.2f} dBm): the far end does not transmit, or the fibre between "
                                        "is broken or dirty",
                                        p.rx_power_dbm)
                          : "status " + p.status +
                                (p.reason.empty() ? " (the far end down, no light, or a wrong speed/FEC)" : ": " + p.reason)),
          !p.module_present ? fmt::format("seat the planned module or cable ({}) in {}", far->label, shown)
          : sm_missing
              ? "start or check the subnet manager (opensm or UFM) and that it sees this switch; the cable itself trained"
              : fmt::format(
                    "check the host end ({} {}) is up, the cable {} is seated at both ends and its ends agree on speed and FEC",
                    far->host, far->host_port, far->label))
          .evidence = {{"status", p.status},
                       {"module", p.module_type.empty() ? "(not said)" : p.module_type},
                       {"rx_power_dbm", p.has_rx_power ? fmt::format("{:.2f}", p.rx_power_dbm) : "(not read)"},
                       {"source", Where(p)}};
    }
    if (!p.speed_auto && p.speed_gbps > 0 && far->speed_gbps > 0 && std::abs(p.speed_gbps - far->speed_gbps) > 0.01 &&
        on("switch-port-forced-speed")) {
      Add(out, "switch-port-forced-speed", Severity::kWarning, sw.hostname, "port " + p.name,
          fmt::format("{} is set to {:g}G{}; the plan gives this cable {} Gb/s", shown, p.speed_gbps, cable, far->speed_gbps),
          fmt::format("set the port's speed to {}G (or to auto where the platform negotiates it)", far->speed_gbps))
          .evidence = {{"speed_gbps", fmt::format("{:g}", p.speed_gbps)},
                       {"planned_gbps", std::to_string(far->speed_gbps)},
                       {"source", Where(p)}};
    }
  }
  return out;
}

std::vector<Finding> LinkEndRules(const std::map<std::string, SwitchPortEnd>& switch_ends,
                                  const std::vector<HostLinkEnd>& host_ends, const DoctorPolicy& policy) {
  std::vector<Finding> out;
  if (policy.disabled_rules.count("link-end-mismatch")) return out;
  for (const HostLinkEnd& h : host_ends) {
    auto it = switch_ends.find(h.leaf + "|" + h.leaf_port);
    if (it == switch_ends.end() || !it->second.up || h.speed_gbps <= 0 || it->second.speed_gbps <= 0) continue;
    if (std::abs(h.speed_gbps - it->second.speed_gbps) < 0.01) continue;
    Add(out, "link-end-mismatch", Severity::kError, h.host, "link " + h.label,
        fmt::format("cable {}: {} {} runs at {:g} Gb/s but its switch end {} {} at {:g} Gb/s", h.label, h.host, h.port,
                    h.speed_gbps, h.leaf, it->second.port, it->second.speed_gbps),
        "set both ends to the plan's speed (and FEC); an end that negotiated down points at the cable or module")
        .evidence = {
        {"host_speed_gbps", fmt::format("{:g}", h.speed_gbps)},
        {"switch_speed_gbps", fmt::format("{:g}", it->second.speed_gbps)},
        {"switch_source", it->second.line ? fmt::format("{}:{}", it->second.source, it->second.line) : it->second.source}};
  }
  return out;
}

std::vector<Finding> RoceQosRules(const std::map<std::string, SwitchQos>& qos, const std::vector<HostLinkEnd>& host_ends,
                                  const DoctorPolicy& policy) {
  std::vector<Finding> out;
  if (policy.disabled_rules.count("roce-qos-mismatch")) return out;
  auto list = [](const std::vector<int>& v) {
    if (v.empty()) return std::string("none");
    std::string s;
    for (int x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
  };
  for (const HostLinkEnd& h : host_ends) {
    if (!h.qos_read) continue;  // the host's QoS was not read: nothing judged
    auto it = qos.find(h.leaf + "|" + h.leaf_port);
    if (it == qos.end()) continue;
    const SwitchQos& sw = it->second;
    std::vector<std::string> differ;
    std::vector<std::pair<std::string, std::string>> ev = {{"host_trust", h.trust}, {"host_pfc", list(h.pfc)}};
    if (!sw.trust.empty()) {
      ev.emplace_back("switch_trust", sw.trust);
      const bool carried = sw.trust.find(h.trust == "pcp" ? "pcp" : h.trust) != std::string::npos ||
                           (h.trust == "pcp" && sw.trust.find("cos") != std::string::npos);
      if (!carried) differ.push_back(fmt::format("the host trusts {}, the switch port {}", h.trust, sw.trust));
    }
    if (sw.pfc_read) {
      ev.emplace_back("switch_pfc", list(sw.pfc_priorities));
      if (sw.pfc_priorities != h.pfc) {
        differ.push_back(
            fmt::format("PFC is on priorities {} at the host and {} at the switch", list(h.pfc), list(sw.pfc_priorities)));
      }
    }
    // ECN: the RoCE priority (the host's PFC one, else the switch's) must land in a class the switch marks.
    const std::vector<int>& lossless = !h.pfc.empty() ? h.pfc : sw.pfc_priorities;
    if (sw.ecn_read && !lossless.empty()) {
      bool assumed = false;
      const int tc = sw.TcOf(lossless.front(), assumed);
      ev.emplace_back("switch_ecn_tcs", list(sw.ecn_tcs));
      if (std::find(sw.ecn_tcs.begin(), sw.ecn_tcs.end(), tc) == sw.ecn_tcs.end()) {
        differ.push_back(
            fmt::format("the switch marks no ECN in traffic class {} (priority {}{}), so DCQCN gets no congestion signal", tc,
                        lossless.front(), assumed ? ", mapped one to one" : ""));
      }
      if (h.ecn_read && h.ecn_rp[lossless.front()] == 0) {
        differ.push_back(fmt::format("the host's ECN reaction point is off on priority {}", lossless.front()));
      }
    }
    if (differ.empty()) continue;
    std::string why;
    for (const std::string& d : differ) why += (why.empty() ? "" : "; ") + d;
    ev.emplace_back("switch_source", sw.source);
    Add(out, "roce-qos-mismatch", Severity::kError, h.host, "port " + h.port,
        fmt::format("{} ({}) and its switch port {} {} (cable {}) disagree: {}", h.port, h.netdev, h.leaf, h.leaf_port, h.label,
                    why),
        "make both ends the plan's RoCE class: `railyard config roce` for the hosts and `railyard config switches` for the "
        "switch "
        "(trust DSCP, PFC on the RoCE priority only, ECN on its class)")
        .evidence = ev;
  }
  return out;
}

std::vector<Finding> ConfigNotComparedRules(const SwitchFacts& sw, const std::string& why, const DoctorPolicy& policy) {
  std::vector<Finding> out;
  if (policy.disabled_rules.count("switch-config-drift") || sw.running.empty()) return out;
  Add(out, "switch-config-drift", Severity::kInfo, sw.hostname, "running configuration",
      fmt::format("the running configuration was not compared: the plan gives no switch configuration to hold it to ({})", why),
      "plan the switch on an Ethernet plane (config switches writes those), or compare by hand")
      .evidence = {{"source", sw.running_source}};
  return out;
}

std::vector<Finding> ConfigDriftRules(const SwitchFacts& sw, const std::string& plan_name, const SwitchConfigs& configs,
                                      const DoctorPolicy& policy) {
  std::vector<Finding> out;
  if (policy.disabled_rules.count("switch-config-drift")) return out;
  auto it = std::find_if(configs.switches.begin(), configs.switches.end(),
                         [&plan_name](const SwitchConfig& c) { return c.name == plan_name; });
  if (it == configs.switches.end()) return out;  // not an Ethernet switch of the plan: nothing to hold it to
  std::string text, error;
  try {
    text = sw.running_os == "eos"     ? EosConfig(*it, configs.plan_name)
           : sw.running_os == "sonic" ? SonicConfigDb(*it, configs.plan_name)
                                      : NvueYaml(*it, configs.plan_name);
  } catch (const std::exception& e) {
    Add(out, "switch-config-drift", Severity::kInfo, sw.hostname, "running configuration",
        fmt::format("the running configuration was not compared: railyard cannot write this switch's {} configuration ({})",
                    sw.running_os, e.what()),
        "compare by hand, or plan the switch with a model the configuration writer knows")
        .evidence = {{"source", sw.running_source}};
    return out;
  }
  const std::vector<DriftItem> drift = ConfigDrift(ConfigEntriesOf(sw.running_os, text, error), sw.running);
  if (drift.empty()) return out;
  std::vector<std::pair<std::string, std::string>> ev;
  size_t missing = 0;
  for (const DriftItem& d : drift) {
    missing += d.missing;
    if (ev.size() < 12)
      ev.emplace_back(d.key, d.missing ? "missing (plan: " + (d.expected.empty() ? std::string("present") : d.expected) + ")"
                                       : fmt::format("running {}, plan {}", d.running, d.expected));
  }
  if (drift.size() > ev.size()) ev.emplace_back("more", fmt::format("{} further differences", drift.size() - ev.size()));
  ev.emplace_back("source", sw.running_source);
  Add(out, "switch-config-drift", Severity::kWarning, sw.hostname, "running configuration",
      fmt::format("{} of what the plan's configuration sets differ{} on the switch: {} missing, {} set otherwise (first: {})",
                  drift.size(), drift.size() == 1 ? "s" : "", missing, drift.size() - missing, drift.front().key),
      fmt::format(
          "review the differences, then apply the plan's configuration (`railyard config switches --os {}`) or change the plan",
          sw.running_os))
      .evidence = ev;
  return out;
}

std::vector<HostVlanUse> HostVlanUses(const HostFacts& f) {
  std::vector<HostVlanUse> out;
  for (const NetdevFacts& v : f.netdevs) {
    if (v.vlan_id < 1 || v.vlan_id > 4094 || v.lower.empty()) continue;
    // The physical ports under it: the parent itself, or a bond's members.
    std::vector<std::string> ports;
    for (const NetdevFacts& n : f.netdevs) {
      if (n.name == v.lower && n.kind == "physical") ports.push_back(n.name);
      if (!n.master.empty() && n.master == v.lower) ports.push_back(n.name);
    }
    for (const std::string& port : ports) {
      for (const LldpNeighbor& l : f.lldp) {
        if (l.local_port == port && !l.remote_device.empty() && !l.remote_port.empty()) {
          out.push_back({f.hostname, v.name, port, l.remote_device, l.remote_port, v.vlan_id});
        }
      }
    }
  }
  return out;
}

void AddSwitchVlanPorts(const SwitchFacts& sw, std::map<std::string, SwitchVlanPort>& ports) {
  const std::string short_name = sw.hostname.substr(0, sw.hostname.find('.'));
  for (const SwitchPortFacts& p : sw.ports) {
    if (p.vlan_mode.empty()) continue;
    SwitchVlanPort v{p.vlan_mode, p.allowed_vlans, p.source, p.access_vlan, p.native_vlan, p.line};
    ports[sw.hostname + "|" + EosLongPortName(p.name)] = v;
    if (short_name != sw.hostname) ports[short_name + "|" + EosLongPortName(p.name)] = v;
  }
}

const SwitchVlanPort* FindVlanPort(const std::map<std::string, SwitchVlanPort>& ports, const HostVlanUse& use) {
  auto it = ports.find(use.sw + "|" + EosLongPortName(use.sw_port));
  if (it == ports.end()) it = ports.find(use.sw.substr(0, use.sw.find('.')) + "|" + EosLongPortName(use.sw_port));
  return it == ports.end() ? nullptr : &it->second;
}

std::vector<Finding> VlanRules(const std::vector<HostVlanUse>& uses, const std::map<std::string, SwitchVlanPort>& ports,
                               const DoctorPolicy& policy) {
  std::vector<Finding> out;
  if (policy.disabled_rules.count("vlan-not-allowed-on-trunk")) return out;
  for (const HostVlanUse& u : uses) {
    const SwitchVlanPort* found = FindVlanPort(ports, u);
    if (!found) continue;  // no facts for that switch port: nothing judged
    const SwitchVlanPort& p = *found;
    std::string why;
    if (p.mode == "trunk") {
      std::optional<bool> has = VlanListHas(p.allowed, u.vlan);
      if (!has || *has) continue;  // carried, or the allowed list was not read
      why = fmt::format("a trunk whose allowed VLANs ({}) do not include {}", p.allowed, u.vlan);
    } else if (p.mode == "access") {
      why = fmt::format("an access port (VLAN {}, untagged): frames the host tags {} are dropped", p.access, u.vlan);
    } else if (p.mode == "routed") {
      why = fmt::format("a routed port: it carries no VLAN");
    } else {
      continue;
    }
    Finding f;
    f.rule = "vlan-not-allowed-on-trunk";
    f.severity = Severity::kError;
    f.host = u.host;
    f.object = fmt::format("vlan {} on {}", u.vlan, u.netdev);
    f.message = fmt::format("{} tags VLAN {} out of {}, whose switch port (LLDP) is {} {}: {}", u.netdev, u.vlan, u.local_port,
                            u.sw, u.sw_port, why);
    f.fix = p.mode == "trunk" ? fmt::format("add VLAN {} to the trunk on {} {} (EOS: switchport trunk allowed vlan add {})",
                                            u.vlan, u.sw, u.sw_port, u.vlan)
                              : fmt::format("make {} {} a trunk carrying VLAN {}, or send the host's traffic untagged", u.sw,
                                            u.sw_port, u.vlan);
    f.evidence = {{"vlan", std::to_string(u.vlan)},
                  {"switch", u.sw},
                  {"switch_port", u.sw_port},
                  {"mode", p.mode},
                  {"allowed_vlans", p.allowed.empty() ? "(not read)" : p.allowed},
                  {"switch_source", p.line ? fmt::format("{}:{}", p.source, p.line) : p.source}};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace railyard
