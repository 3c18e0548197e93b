// Link state and signal quality.
#include <fmt/format.h>

#include "doctor/rules.h"

namespace railyard {
namespace {

// A port someone meant to use: it carries addresses, is in a bond or bridge, or has configuration.
bool Configured(const HostFacts& f, const NetdevFacts& n) {
  if (!n.addresses.empty() || !n.master.empty()) return true;
  if (f.ifcfg.count("ifcfg-" + n.name)) return true;
  for (const auto& [file, c] : f.netplan) {
    for (const NetplanInterface& i : c.interfaces) {
      if (i.name == n.name || i.set_name == n.name) return true;
    }
  }
  for (const NmDevice& d : f.networkmanager) {
    if (d.device == n.name && !d.connection.empty()) return true;
  }
  return false;
}

void LinkDown(RuleContext& c) {
  for (const NetdevFacts& n : c.facts.netdevs) {
    if (n.kind != "physical" || n.operstate == "up" || n.operstate == "unknown" || n.operstate.empty()) continue;
    if (!Configured(c.facts, n)) continue;
    std::string cause = "no carrier";
    if (!n.link_detected_reason.empty()) cause = n.link_detected_reason;
    else if (n.module && !n.module->readable) cause = "no readable module in the cage";
    Finding& f = c.Report(fmt::format("netdev {}", n.name), fmt::format("the port is configured but its link is down: {}", cause),
                          "check the module is seated and qualified, the cable, and the switch port (admin state, speed, FEC); "
                          "`ethtool " + n.name + "` and `mlxlink` show the link training state");
    f.evidence = {{"operstate", n.operstate}, {"carrier", n.carrier ? (*n.carrier ? "1" : "0") : "unknown"}};
    if (!n.link_detected_reason.empty()) f.evidence.emplace_back("ethtool", n.link_detected_reason);
  }
  for (const RdmaFacts& r : c.facts.rdma) {
    for (const IbstatPort& p : r.ca.ports) {
      if (p.link_layer != "InfiniBand" || p.state == "Active") continue;
      std::string cause = p.physical_state == "Polling"  ? "the port is polling: no peer answers (cable, module or switch port)"
                          : p.physical_state == "Disabled" ? "the port is disabled"
                                                           : "the link is not up";
      if (p.physical_state == "LinkUp") cause = "the link is up but no subnet manager has configured it";
      c.Report(fmt::format("{} port {}", r.ca.name, p.number), fmt::format("InfiniBand port {}: {}", p.state, cause),
               p.physical_state == "LinkUp" ? "check that opensm / the UFM subnet manager runs and sees this port"
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
      if (!ber || *ber <= c.policy.max_effective_ber) return;
      c.Report(fmt::format("{} ({})", device, name),
               fmt::format("{} BER {:.1e} is above {:.0e}: the link loses data after FEC and will retransmit or flap", name, *ber,
                           c.policy.max_effective_ber),
               "clean or replace the cable/module (swap ends to see whether the fault follows), check the module "
               "temperature and that both ends run the same FEC")
          .evidence = {{std::string(name) + "_ber", fmt::format("{:.2e}", *ber)}, {"speed", l.speed}, {"fec", l.fec}};
    };
    check("effective", l.effective_ber);
    check("symbol", l.symbol_ber);
  }
}

}  // namespace

void AddLinkRules(std::vector<HostRule>& rules) {
  rules.push_back({"link-down", Severity::kError, "a configured port without link, with the likely cause", LinkDown});
  rules.push_back({"ber-high", Severity::kError, "effective or symbol BER above the policy limit", BerHigh});
}

}  // namespace railyard
