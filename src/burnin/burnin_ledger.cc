#include "burnin/burnin_ledger.h"
#include "facts/facts_files.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

namespace railyard {
namespace {

// "0000:19:00.0" and "19:00.0" are one address: lspci prints the short form, ibdev2netdev the long.
std::string ShortBdf(const std::string& bdf) {
  return bdf.size() > 5 && bdf[4] == ':' && bdf.find_first_not_of("0123456789abcdefABCDEF") == 4 ? bdf.substr(5) : bdf;
}

}  // namespace

BurninLedgerUpdate BurninObservations(const BurninCheck& check, const std::vector<HostFacts>& facts, const LedgerStore& ledger) {
  BurninLedgerUpdate out;
  // "host device" -> "host bdf" -> serial.
  std::unordered_map<std::string, std::string> location_of;
  for (const HostFacts& f : facts) {
    for (const RdmaFacts& r : f.rdma) {
      if (!r.pci_bdf.empty()) location_of[f.hostname + " " + r.ca.name] = f.hostname + " " + ShortBdf(r.pci_bdf);
    }
  }
  std::unordered_map<std::string, std::string> serial_at;
  ledger.ForEachAsset([&](const Asset& a) {
    if (a.kind != "nic") return;
    auto l = a.fields.find("location");
    if (l == a.fields.end()) return;
    const size_t space = l->second.find(' ');
    if (space == std::string::npos) return;
    serial_at[l->second.substr(0, space + 1) + ShortBdf(l->second.substr(space + 1))] = a.serial;
  });
  // Per NIC: its verdict. Suspects first (they decide), then the passes.
  std::map<std::string, std::string> verdict;
  const std::string campaign = fmt::format("{} {} on plane {}", check.plan.pattern, check.plan.test, check.plan.plane);
  for (const Suspect& s : check.localization.suspects) {
    if (s.kind == "switch") continue;  // below: its NICs are held, not failed
    if (s.kind == "host") {
      std::string text = fmt::format("not judged ({}): host {} is the suspect, {}", campaign, s.host, s.reason);
      for (const PairOutcome& o : check.outcomes) {
        for (const BurninEndpoint* e : {&o.server, &o.client}) {
          if (e->host == s.host && !e->device.empty()) verdict.emplace(e->host + " " + e->device, text);
        }
      }
      continue;
    }
    // Only the card itself (slow in its loopback) fails the NIC; a link whose loopback was fast is
    // its cable or leaf port; a link not yet looped back could be either.
    const std::string key = s.host + " " + s.device;
    if (s.kind == "nic" && s.confidence == "confirmed") {
      verdict[key] = fmt::format("fail ({}): the card {}: {}", campaign, s.name, s.reason);
    } else if (s.reason.find("loopback was fast") != std::string::npos) {
      verdict[key] = fmt::format("not judged ({}): the card was fast on its own; its cable {} or leaf port is the suspect",
                                 campaign, s.cable.empty() ? "(unknown)" : s.cable);
    } else {
      verdict[key] = fmt::format("suspect, {} ({}): {}", s.confidence, campaign, s.reason);
    }
  }
  std::map<std::string, std::pair<size_t, double>> passes;  // NIC -> pairs passed, worst
  for (const PairOutcome& o : check.outcomes) {
    for (const BurninEndpoint* e : {&o.server, &o.client}) {
      if (e->device.empty()) continue;
      auto& [n, worst] = passes.try_emplace(e->host + " " + e->device, 0, std::numeric_limits<double>::infinity()).first->second;
      if (!o.failed) {
        ++n;
        worst = std::min(worst, o.measured);
      }
    }
  }
  for (const Suspect& s : check.localization.suspects) {
    if (s.kind != "switch") continue;
    // A leaf under suspicion: its NICs failed every pair (that is how the leaf was found), and those
    // failures are the leaf's, so the NICs are held, not failed. Their partners elsewhere passed
    // other pairs and are judged on those.
    for (const PairOutcome& o : check.outcomes) {
      for (const BurninEndpoint* e : {&o.server, &o.client}) {
        const std::string nic = e->host + " " + e->device;
        auto p = passes.find(nic);
        if (o.failed && !e->device.empty() && (p == passes.end() || p->second.first == 0)) {
          verdict.emplace(nic, fmt::format("not judged ({}): leaf {} is the suspect", campaign, s.name));
        }
      }
    }
  }
  for (const auto& [nic, p] : passes) {
    if (verdict.count(nic) || p.first == 0) continue;
    verdict[nic] = fmt::format("pass ({}): {} pair(s), the slowest {:.2f} {} (threshold {:.1f})", campaign, p.first, p.second,
                               check.unit, check.threshold);
  }
  for (const auto& [nic, text] : verdict) {
    auto loc = location_of.find(nic);
    auto serial = loc == location_of.end() ? serial_at.end() : serial_at.find(loc->second);
    if (serial == serial_at.end()) {
      out.unmapped.push_back(nic);
      continue;
    }
    AssetObservation o;
    o.serial = serial->second;
    o.kind = "nic";
    o.fields["burnin.result"] = text;
    out.observations.push_back(std::move(o));
  }
  return out;
}

BurninLedgerUpdate RecordBurninVerdicts(const BurninCheck& check, const std::vector<std::string>& facts, LedgerStore& ledger,
                                        const std::string& by, const std::string& source) {
  std::vector<HostFacts> hosts;
  ForEachFacts(facts, [&](HostFacts&& f) { hosts.push_back(std::move(f)); });
  BurninLedgerUpdate update = BurninObservations(check, hosts, ledger);
  if (!update.observations.empty()) ledger.Record(update.observations, by.empty() ? "railyard" : by, source);
  return update;
}

}  // namespace railyard
