#include "doctor/rules.h"

#include "catalog/identity.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace railyard {

Finding& RuleContext::Report(std::string object, std::string message, std::string fix) {
  return Report(severity_, std::move(object), std::move(message), std::move(fix));
}

Finding& RuleContext::Report(Severity severity, std::string object, std::string message, std::string fix) {
  Finding f;
  f.rule = rule_;
  f.severity = severity;
  if (auto it = policy.severity.find(rule_); it != policy.severity.end()) f.severity = it->second;
  f.host = facts.hostname;
  f.object = std::move(object);
  f.message = std::move(message);
  f.fix = std::move(fix);
  out_.push_back(std::move(f));
  return out_.back();
}

const std::vector<HostRule>& HostRules() {
  static const std::vector<HostRule> rules = [] {
    std::vector<HostRule> r;
    AddPcieRules(r);
    AddLinkRules(r);
    AddBondRules(r);
    AddConfigRules(r);
    AddRoceRules(r);
    AddOpticsRules(r);
    AddKernelRules(r);
    AddOtherNicRules(r);
    AddEsxiRules(r);
    return r;
  }();
  return rules;
}

std::vector<Finding> RunHostRules(const HostFacts& facts, const DoctorPolicy& policy) {
  std::vector<Finding> out;
  for (const HostRule& rule : HostRules()) {
    if (policy.disabled_rules.count(rule.id)) continue;
    RuleContext ctx(facts, policy, out, rule.id, rule.severity);
    rule.check(ctx);
  }
  return out;
}

bool IsRoceNetdev(const NetdevFacts& n) { return n.kind == "physical" && (n.ecn.has_value() || n.qos.has_value()); }

std::string When(const KernelEvent& e) {
  if (!e.time.empty()) return e.time;
  return e.timestamp >= 0 ? fmt::format("{:.1f} s after boot", e.timestamp) : "no timestamp";
}

uint32_t BestLinkModeMbps(const std::vector<std::string>& modes, const std::vector<std::string>* also) {
  uint32_t best = 0;
  for (const std::string& m : modes) {
    if (also && std::find(also->begin(), also->end(), m) == also->end()) continue;
    uint32_t v = 0;
    auto [p, ec] = std::from_chars(m.data(), m.data() + m.size(), v);
    if (ec == std::errc() && std::string_view(p, m.data() + m.size() - p).starts_with("base")) best = std::max(best, v);
  }
  return best;
}

std::string FamilyOf(const PciFunction& p) {
  if (const DeviceFamily* d = p.device_id.empty() ? nullptr : IdentityCatalog::Builtin().FamilyByDeviceId(p.device_id))
    return d->family;
  size_t open = p.description.rfind('['), close = p.description.rfind(']');
  if (open != std::string::npos && close > open) {
    if (const DeviceFamily* d = IdentityCatalog::Builtin().FamilyByName(p.description.substr(open + 1, close - open - 1)))
      return d->family;
  }
  return "";
}

double PortRateGbps(const HostFacts& facts, const std::string& bdf) {
  double rate = 0;
  for (const NetdevFacts& n : facts.netdevs) {
    if (SamePciAddress(n.pci_bdf, bdf) && n.speed_mbps) rate = std::max(rate, n.speed_mbps / 1000.0);
  }
  for (const RdmaFacts& r : facts.rdma) {
    if (!SamePciAddress(r.pci_bdf, bdf)) continue;
    for (const IbstatPort& p : r.ca.ports) {
      if (p.state == "Active") rate = std::max(rate, static_cast<double>(p.rate));
    }
  }
  return rate;
}

}  // namespace railyard
