// Link state and signal quality.
#include <charconv>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "doctor/rules.h"

namespace railyard {
namespace {

const PolicyKey<double> kMaxEffectiveBer{
    "max_effective_ber", 1e-12, "a number such as 1e-12", "effective and symbol BER limit", {"ber-high"}, InRange(0.0, 1.0)};

// An interface name the host's network configuration mentions (ifcfg, netplan, a NetworkManager connection).
bool ConfiguredName(const HostFacts& f, const std::string& name) {
  if (name.empty()) return false;
  if (f.ifcfg.count("ifcfg-" + name)) return true;
  for (const auto& [file, c] : f.netplan) {
    for (const NetplanInterface& i : c.interfaces) {
      if (i.name == name || i.set_name == name) return true;
    }
  }
  for (const NmDevice& d : f.networkmanager) {
    if (d.device == name && !d.connection.empty()) return true;
  }
  return false;
}

}  // namespace

bool Configured(const HostFacts& f, const NetdevFacts& n) {
  return !n.addresses.empty() || !n.master.empty() || ConfiguredName(f, n.name);
}

namespace {

void LinkDown(RuleContext& c) {
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.kind != "physical" || n.operstate == "up" || n.operstate == "unknown" || n.operstate.empty()) continue;
    if (!Configured(c.facts, n)) continue;
    std::string cause = "no carrier";
    if (!n.link_detected_reason.empty())
      cause = n.link_detected_reason;
    else if (n.module && !n.module->readable)
      cause = "no readable module in the cage";
    Finding& f = c.Report(fmt::format("netdev {}", n.name), fmt::format("the port is configured but its link is down: {}", cause),
                          "check the module is seated and qualified, the cable, and the switch port (admin state, speed, FEC); "
                          "`ethtool " +
                              n.name + "` and `mlxlink` show the link training state");
    f.evidence = {{"operstate", n.operstate}, {"carrier", n.carrier ? (*n.carrier ? "1" : "0") : "unknown"}};
    if (!n.link_detected_reason.empty()) f.evidence.emplace_back("ethtool", n.link_detected_reason);
  }
  for (const RdmaFacts& r : c.facts.rdma) {
    for (const IbstatPort& p : r.ca.ports) {
      if (p.state == "Active" || p.state.empty()) continue;
      if (p.link_layer == "Ethernet") {
        // A RoCE port: its netdev's own check above covers it when the netdev is in the facts; when only the RDMA
        // tools saw it (ibdev2netdev, rdma link), it counts where the network configuration names the netdev.
        bool listed = false;
        for (const NetdevFacts& n : c.facts.netdevs) listed |= n.name == r.netdev;
        if (listed || !ConfiguredName(c.facts, r.netdev)) continue;
        c.Report(
             fmt::format("{} port {}", r.ca.name, p.number),
             fmt::format("RoCE port {} (netdev {}) is configured but {}{}", p.number, r.netdev, p.state,
                         p.physical_state.empty() ? "" : " (" + p.physical_state + ")"),
             "check the module is seated and qualified, the cable, and the switch port; `mlxlink -d " + r.ca.name + "` shows why")
            .evidence = {{"state", p.state}, {"physical_state", p.physical_state}, {"netdev", r.netdev}};
        continue;
      }
      if (p.link_layer != "InfiniBand") continue;
      std::string cause = p.physical_state == "Polling"    ? "the port is polling: no peer answers (cable, module or switch port)"
                          : p.physical_state == "Disabled" ? "the port is disabled"
                                                           : "the link is not up";
      if (p.physical_state == "LinkUp") cause = "the link is up but no subnet manager has configured it";
      c.Report(fmt::format("{} port {}", r.ca.name, p.number), fmt::format("InfiniBand port {}: {}", p.state, cause),
               p.physical_state == "LinkUp"
                   ? "check that opensm / the UFM subnet manager runs and sees this port"
                   : "check the cable and module, and the switch port; `mlxlink -d " + r.ca.name + "` shows why")
          .evidence = {{"state", p.state}, {"physical_state", p.physical_state}};
    }
  }
}

void BerHigh(RuleContext& c) {
  for (const auto& entry : c.facts.links) {
    const std::string& device = entry.first;  // not a structured binding: lambdas capture it (clang < 16)
    const MlxlinkPort& l = entry.second;
    auto check = [&](const char* name, const std::optional<double>& ber) {
      if (!ber || *ber <= c.policy.Get(kMaxEffectiveBer)) return;
      c.Report(fmt::format("{} ({})", device, name),
               fmt::format("{} BER {:.1e} is above {:.0e}: the link loses data after FEC and will retransmit or flap", name, *ber,
                           c.policy.Get(kMaxEffectiveBer)),
               "clean or replace the cable/module (swap ends to see whether the fault follows), check the module "
               "temperature and that both ends run the same FEC")
          .evidence = {{std::string(name) + "_ber", fmt::format("{:.2e}", *ber)}, {"speed", l.speed}, {"fec", l.fec}};
    };
    check("effective", l.effective_ber);
    check("symbol", l.symbol_ber);
  }
}

void LinkBelowCapability(RuleContext& c) {
  for (const auto& entry : c.facts.links) {
    const std::string& device = entry.first;
    const MlxlinkPort& l = entry.second;
    if (l.state != "Active" || l.speed.empty()) continue;
    SpeedHeadroom h = MlxlinkSpeedHeadroom(l);
    if (h.now <= 0 || h.best <= h.now) continue;
    c.Report(fmt::format("{}", device),
             fmt::format("the link runs at {} but both the port and the cable support {}: the peer (switch port speed, "
                         "auto-negotiation) or a forced setting holds it down",
                         l.speed, h.best_name),
             "compare the switch port's configured speed and FEC with `mlxlink -d " + device +
                 "`; enable auto-negotiation or set both ends to the intended speed (mlxlink --speeds / switch config)")
        .evidence = {{"speed", l.speed},
                     {"width", l.width},
                     {"enabled_speeds", fmt::format("{}", fmt::join(l.enabled_speeds, ","))},
                     {"cable_speeds", fmt::format("{}", fmt::join(l.cable_speeds, ","))}};
  }
  LinkBelowCapabilityOtherNics(c);
}

void FecMismatchOrOff(RuleContext& c) {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> by_speed;  // speed -> fec -> devices
  for (const auto& entry : c.facts.links) {
    const std::string& device = entry.first;
    const MlxlinkPort& l = entry.second;
    if (l.state != "Active" || l.fec.empty()) continue;
    by_speed[l.speed + " " + l.width][l.fec].push_back(device);
    if (l.fec.find("No FEC") == std::string::npos) continue;
    double lane = MlxlinkLaneGbps(l);
    // PAM4 lanes (50G and up) cannot run without RS(544,514); 25G NRZ lanes need RS(528,514) on
    // anything but the shortest DAC (IEEE 802.3 CL91/CL134; catalog.md §9).
    if (lane < 25) continue;
    c.Report(
         lane >= 50 ? Severity::kError : Severity::kWarning, device,
         fmt::format("FEC is off on a {} link ({:g} Gb/s per lane): {}", l.speed, lane,
                     lane >= 50 ? "PAM4 lanes need RS-FEC(544,514); without it the link does not come up cleanly or corrupts data"
                                : "25G lanes over optics or DAC longer than ~2 m need RS-FEC(528,514) to stay below BER 1e-12"),
         "set RS-FEC on both ends (switch interface fec rs / `mlxlink -d " + device +
             " --fec RS`), or let auto-negotiation choose")
        .evidence = {{"fec", l.fec}, {"speed", l.speed}, {"width", l.width}};
  }
  for (const auto& [speed, fecs] : by_speed) {
    if (fecs.size() < 2) continue;
    // Report the ports whose FEC differs from the most common one at this speed; on a tie there
    // is no majority to trust, so every port of the speed is reported.
    size_t most = 0, tied = 0;
    for (const auto& entry : fecs) most = std::max(most, entry.second.size());
    std::string common;
    for (const auto& entry : fecs) {
      if (entry.second.size() == most) {
        ++tied;
        common = entry.first;
      }
    }
    if (tied > 1) common.clear();
    for (const auto& [fec, devices] : fecs) {
      if (fec == common) continue;
      for (const std::string& device : devices) {
        c.Report(device,
                 common.empty() ? fmt::format("{} ports on this host run different FEC ({} here): one side was probably forced "
                                              "and may not match its switch port",
                                              speed, fec)
                                : fmt::format("FEC {} differs from the {} other {} port(s) on this host ({}): mixed FEC usually "
                                              "means one side was forced and the switch may not match",
                                              fec, most, speed, common),
                 "set the same FEC on every port of this speed and on their switch ports")
            .evidence = {{"fec", fec}, {"speed", speed}, {"common_fec", common.empty() ? "(no majority)" : common}};
      }
    }
  }
}

}  // namespace

void AddLinkRules(std::vector<HostRule>& rules) {
  rules.push_back({"link-down", Severity::kError, "a configured port without link, with the likely cause", LinkDown});
  rules.push_back({"link-below-capability", Severity::kWarning, "link speed below what both the port and the cable support",
                   LinkBelowCapability});
  rules.push_back({"fec-mismatch-or-off", Severity::kWarning,
                   "FEC off at speeds that need it, or different across ports of one speed", FecMismatchOrOff});
  rules.push_back({"ber-high", Severity::kError, "effective or symbol BER above the policy limit", BerHigh});
}

}  // namespace railyard
