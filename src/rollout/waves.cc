#include "rollout/waves.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "ledger/authenticity.h"
#include "planfile/names.h"
#include "util/safe_text.h"
#include "util/terminal.h"
#include "util/versions.h"

namespace railyard {
namespace {

// "0000:1a:00.1" -> "0000:1a:00": the card; functions of one card share its flash.
std::string CardOf(const std::string& pci) {
  size_t dot = pci.rfind('.');
  return dot == std::string::npos ? pci : pci.substr(0, dot);
}

// The version in `ofed_info -s`: "MLNX_OFED_LINUX-24.10-1.1.4.0" -> "24.10-1.1.4.0"; "OFED-internal-25.01-0.6.0:" too.
std::string DriverVersion(const std::string& ofed) {
  size_t start = ofed.find_first_of("0123456789");
  if (start == std::string::npos) return "";
  size_t end = ofed.find_first_of(" :\t", start);
  return ofed.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

struct Domain {
  std::string su;                // "su3", or "unplanned"
  std::vector<uint32_t> leaves;  // plan device indexes
};

}  // namespace

FleetHost FleetHostFromFacts(const HostFacts& facts) {
  FleetHost host;
  host.name = facts.hostname;
  host.driver = facts.ofed;
  std::map<std::string, FleetDevice> cards;  // by card, lowest function kept (map order)
  for (const auto& [pci, q] : facts.firmware) {
    if (q.psid.empty() || q.fw_version.empty()) continue;
    std::string card = CardOf(pci);
    if (cards.count(card)) continue;
    cards[card] = {pci, q.psid, q.fw_version, q.running_fw_version, ""};
  }
  for (const DevlinkDevice& d : facts.devlink) {
    if (d.psid.empty() || d.stored_fw.empty() || cards.count(CardOf(d.pci_address))) continue;
    cards[CardOf(d.pci_address)] = {d.pci_address, d.psid, d.stored_fw, d.running_fw, ""};
  }
  // Serials: the VPD of the PCI function of the same card, else devlink's board serial.
  auto bare = [](const std::string& pci) { return pci.size() > 5 && pci[4] == ':' ? pci.substr(5) : pci; };
  for (auto& [card, device] : cards) {
    for (const PciFunction& f : facts.pci) {
      auto sn = f.vpd.find("SN");
      if (sn != f.vpd.end() && CardOf(bare(f.bdf)) == CardOf(bare(device.pci))) device.serial = sn->second;
    }
    for (const DevlinkDevice& d : facts.devlink) {
      if (device.serial.empty() && CardOf(bare(d.pci_address)) == CardOf(bare(device.pci))) device.serial = d.board_serial;
    }
    host.devices.push_back(std::move(device));
  }
  return host;
}

RolloutPlan PlanRollout(const PlannedFabric* plan, const std::vector<FleetHost>& fleet, const RolloutTarget& target,
                        const RolloutPolicy& policy, const std::map<std::string, std::string>& suspect,
                        const std::vector<SwitchFirmwareSeen>& switches) {
  RolloutPlan out;
  // 0. Switches first: the host images may need them at a minimum, and a switch step drains hosts.
  SwitchRollout switch_plan = PlanSwitchWaves(plan, switches, target, policy);
  out.skipped = std::move(switch_plan.skipped);
  out.findings = std::move(switch_plan.findings);
  for (RolloutWave& w : switch_plan.waves) {
    w.index = static_cast<uint32_t>(out.waves.size());
    out.waves.push_back(std::move(w));
  }
  std::unique_ptr<NameResolver> names;
  std::map<uint32_t, std::vector<uint32_t>> leaves_of;   // plan node -> leaves
  std::map<uint32_t, std::vector<uint32_t>> uplinks_of;  // switch -> the switches above it
  if (plan) {
    names = std::make_unique<NameResolver>(*plan);
    for (const PlannedLink& l : plan->links) {
      if (l.level == "endpoint-leaf") leaves_of[l.a_device].push_back(l.z_device);
      if (l.level == "leaf-spine" || l.level == "spine-core") uplinks_of[l.a_device].push_back(l.z_device);
    }
  }
  // The first switch on a leaf's way up that will still be below its family's minimum once the
  // switch waves ran (-1: none), memoised per switch.
  std::map<uint32_t, int64_t> blocked_memo;
  std::function<int64_t(uint32_t)> blocked_by = [&](uint32_t sw) -> int64_t {
    if (auto it = blocked_memo.find(sw); it != blocked_memo.end()) return it->second;
    blocked_memo[sw] = -1;  // a cycle in a damaged plan ends here
    int64_t result = -1;
    const std::string& fw = switch_plan.firmware_after[sw];
    if (const SwitchFirmwareTarget* row = fw.empty() ? nullptr : target.ForSwitchFirmware(fw);
        row && CompareVersions(fw, row->min) < 0) {
      result = sw;
    }
    for (uint32_t up : uplinks_of[sw]) {
      if (result < 0) result = blocked_by(up);
    }
    return blocked_memo[sw] = result;
  };
  std::set<std::string> protected_racks(policy.protected_racks.begin(), policy.protected_racks.end());
  // 1. Gates: each device moves, or is skipped with the rule that held it back.
  std::map<std::string, std::vector<RolloutDevice>> moving;  // by host
  std::vector<std::string> order;                            // hosts in fleet order
  std::map<std::string, uint32_t> node_of;                   // moving host -> its plan node, resolved once
  // Two facts documents of one host name: which one is true is unknown, so neither is flashed.
  std::map<std::string, size_t> documents_of;
  for (const FleetHost& host : fleet) ++documents_of[host.name];
  std::set<std::string> duplicate_reported;
  // Host and device names go into shell scripts, nodesets and inventories: only what a hostname and a
  // PCI address (or /dev/mst path) can be, by the rules rollout.json is checked with when it is read
  // back (rollout/rollout_file.h). Facts are collected from the hosts themselves; a name with
  // anything else is never written into a script.
  for (const FleetHost& host : fleet) {
    if (documents_of[host.name] > 1) {
      if (duplicate_reported.insert(host.name).second) {
        Finding f;
        f.rule = "rollout-duplicate-host";
        f.severity = Severity::kError;
        f.host = host.name;
        f.object = "host " + host.name;
        f.evidence = {{"documents", std::to_string(documents_of[host.name])}};
        f.message =
            fmt::format("{} facts documents name the host {}: which one it runs is unknown, so none of its devices is planned",
                        documents_of[host.name], TerminalSafe(host.name));
        f.fix = "keep one facts document per host (collect it again), or correct the hostname of the one that is wrong";
        out.findings.push_back(std::move(f));
      }
      for (const FleetDevice& d : host.devices)
        out.skipped.push_back({host.name, d.pci, d.psid, "duplicate-host", "two facts documents name this host"});
      continue;
    }
    if (!Conforms(TextRule::kName, host.name)) {
      Finding f;
      f.rule = "rollout-unsafe-name";
      f.severity = Severity::kError;
      f.host = host.name;
      f.object = "host";
      f.message =
          fmt::format("a host named '{}' in the facts: not a hostname; none of its devices is planned", TerminalSafe(host.name));
      f.fix = "check where these facts came from; collect them again on the host";
      out.findings.push_back(std::move(f));
      for (const FleetDevice& d : host.devices)
        out.skipped.push_back({host.name, d.pci, d.psid, "unsafe-name", "the host name is not a hostname"});
      continue;
    }
    if (host.devices.empty()) {
      Finding f;
      f.rule = "rollout-no-firmware-facts";
      f.severity = Severity::kWarning;
      f.host = host.name;
      f.object = "host " + host.name;
      f.message =
          fmt::format("{}: no device with a PSID and a firmware version in its facts: nothing can be planned for it", host.name);
      f.fix = "collect its facts again with flint (mstflint) or devlink available";
      out.findings.push_back(std::move(f));
      continue;
    }
    std::optional<uint32_t> node;
    if (names) {
      node = names->ResolveDevice(host.name);
      if (node && plan->devices[*node].role == "switch") node.reset();
    }
    // Held back as a whole host: off protected power, or behind a switch too old for the images.
    std::string host_rule, host_reason;
    if (policy.protected_power_required && (!node || !protected_racks.count(plan->devices[*node].rack))) {
      host_rule = "not-on-protected-power";
      host_reason = node ? fmt::format("rack {} is not among the policy's racks on protected power", plan->devices[*node].rack)
                         : "the host is not in the plan, so its rack (and its power) is unknown";
    } else if (node && !switch_plan.firmware_after.empty()) {
      for (uint32_t leaf : leaves_of[*node]) {
        if (int64_t sw = blocked_by(leaf); sw >= 0 && host_rule.empty()) {
          const std::string& fw = switch_plan.firmware_after[static_cast<size_t>(sw)];
          host_rule = "switch-firmware-too-old";
          host_reason = fmt::format(
              "{} on its path runs {}, below {} which the images need, and target.yaml has no image to "
              "move it",
              plan->devices[static_cast<size_t>(sw)].name, fw, target.ForSwitchFirmware(fw)->min);
        }
      }
    }
    for (const FleetDevice& d : host.devices) {
      auto skip = [&](const std::string& rule, const std::string& reason) {
        out.skipped.push_back({host.name, d.pci, d.psid, rule, reason});
      };
      if (!host_rule.empty()) {
        skip(host_rule, host_reason);
        continue;
      }
      if (!Conforms(TextRule::kDevice, d.pci) || !Conforms(TextRule::kPsid, d.psid) || !Conforms(TextRule::kVersion, d.flashed) ||
          (!d.running.empty() && !Conforms(TextRule::kVersion, d.running)) ||
          (!d.serial.empty() && !Conforms(TextRule::kWord, d.serial))) {
        skip("unsafe-name",
             "the device address, PSID, firmware version or serial in the facts is not one: never written into a script");
        continue;
      }
      if (auto doubt = suspect.find(d.serial); !d.serial.empty() && doubt != suspect.end()) {
        skip("authenticity",
             fmt::format("the ledger doubts card {}: {}; never flash it before that is settled", d.serial, doubt->second));
        continue;
      }
      const FirmwareTarget* t = target.ForPsid(d.psid);
      if (!t) {
        skip("no-image-for-psid", fmt::format("target.yaml has no image for {}: never cross-flash another PSID's", d.psid));
        continue;
      }
      if (!d.running.empty() && d.running != d.flashed) {
        skip("pending-activation", fmt::format("{} is in flash but {} is running: reset it (mlxfwreset) and collect again first",
                                               d.flashed, d.running));
        continue;
      }
      int cmp = CompareVersions(d.flashed, t->version);
      if (cmp == 0) {
        skip("at-target", fmt::format("already at {}", t->version));
        continue;
      }
      if (cmp > 0 && !t->allow_downgrade) {
        skip("downgrade-not-allowed",
             fmt::format("{} is newer than the target {} and target.yaml does not allow a downgrade", d.flashed, t->version));
        continue;
      }
      bool via = false;
      if (!t->min_direct.empty() && CompareVersions(d.flashed, t->min_direct) < 0 && !t->via_version.empty()) {
        via = true;  // below the floor, and target.yaml names the step in between
      } else if (!t->min_direct.empty() && CompareVersions(d.flashed, t->min_direct) < 0) {
        skip("below-direct-upgrade-floor", fmt::format("{} is below {}, the lowest version {} may be burned over: plan the "
                                                       "intermediate image first",
                                                       d.flashed, t->min_direct, t->version));
        continue;
      }
      std::string driver = DriverVersion(host.driver);
      if (!target.driver_min.empty() && (driver.empty() || CompareVersions(driver, target.driver_min) < 0)) {
        skip("driver-too-old",
             host.driver.empty()
                 ? fmt::format("the driver stack is not in the facts; {} needs {} or later", t->version, target.driver_min)
                 : fmt::format("driver {} is older than {}, which {} needs", host.driver, target.driver_min, t->version));
        continue;
      }
      if (!moving.count(host.name)) {
        order.push_back(host.name);
        if (node) node_of[host.name] = *node;
      }
      RolloutDevice move{host.name, d.pci, d.psid,   d.flashed, t->version, t->image, t->sha256, "",
                         "",        "",    d.serial, false,     "",         "",       ""};
      if (via) {
        move.via = t->via_version;
        move.via_image = t->via_image;
        move.via_sha256 = t->via_sha256;
      }
      moving[host.name].push_back(std::move(move));
    }
  }

  // 2. Failure domains: a host's scalable unit and leaves, from the plan.
  std::map<std::string, Domain> domain;
  std::vector<std::string> unplanned;
  for (const std::string& host : order) {
    Domain d{"unplanned", {}};
    if (auto node = node_of.find(host); node != node_of.end()) {
      d.leaves = leaves_of[node->second];
      std::sort(d.leaves.begin(), d.leaves.end());
      d.leaves.erase(std::unique(d.leaves.begin(), d.leaves.end()), d.leaves.end());
      int group = 0;
      for (uint32_t leaf : d.leaves) group = group ? group : plan->devices[leaf].group;
      d.su = group ? fmt::format("su{}", group) : d.leaves.empty() ? "unplanned" : "no-su";
    }
    if (d.su == "unplanned") unplanned.push_back(host);
    domain[host] = d;
  }
  if (!unplanned.empty()) {
    Finding f;
    f.rule = "rollout-host-not-in-plan";
    f.severity = plan ? Severity::kWarning : Severity::kInfo;
    f.object = "fleet";
    f.evidence = {{"hosts", std::to_string(unplanned.size())}, {"first", unplanned.front()}};
    f.message = plan ? fmt::format(
                           "{} host(s) with devices to move are not in the plan (first: {}): their waves cannot "
                           "respect scalable units and leaves, so they form a domain of their own",
                           unplanned.size(), unplanned.front())
                     : "no plan given: scalable units and leaves are unknown, so every host is in one domain";
    f.fix = plan ? "map the names with the plan's (the same names as verify --names), or add the hosts to the plan"
                 : "give --plan plan.json";
    out.findings.push_back(std::move(f));
  }
  std::map<std::string, uint32_t> su_size;
  for (const std::string& host : order) ++su_size[domain[host].su];

  std::set<std::string> placed;
  auto add_wave = [&](std::string name, const std::vector<std::string>& hosts) {
    RolloutWave w;
    w.index = static_cast<uint32_t>(out.waves.size());
    w.name = std::move(name);
    w.hosts = hosts;
    std::sort(w.hosts.begin(), w.hosts.end());
    w.drain = w.hosts;
    for (const std::string& h : w.hosts) {
      placed.insert(h);
      for (const RolloutDevice& d : moving[h]) w.devices.push_back(d);
    }
    out.waves.push_back(std::move(w));
  };

  // 3. Wave 0: every distinct PSID once.
  std::set<std::string> uncovered;
  for (const auto& [host, devices] : moving) {
    for (const RolloutDevice& d : devices) uncovered.insert(d.psid);
  }
  std::vector<std::string> test;
  while (!uncovered.empty()) {
    std::string best;
    size_t best_count = 0;
    for (const std::string& host : order) {
      if (std::find(test.begin(), test.end(), host) != test.end()) continue;
      std::set<std::string> psids;
      for (const RolloutDevice& d : moving[host]) {
        if (uncovered.count(d.psid)) psids.insert(d.psid);
      }
      if (psids.size() > best_count) {
        best = host;
        best_count = psids.size();
      }
    }
    if (best.empty()) break;
    test.push_back(best);
    for (const RolloutDevice& d : moving[best]) uncovered.erase(d.psid);
  }
  if (!test.empty()) add_wave("test", test);

  // 4. Wave 1: one host per scalable unit not yet touched, capped.
  std::vector<std::string> canary;
  std::set<std::string> sus_covered;
  for (const std::string& host : order) {
    if (placed.count(host) || sus_covered.count(domain[host].su)) continue;
    if (canary.size() >= policy.canary_max) break;
    sus_covered.insert(domain[host].su);
    canary.push_back(host);
  }
  for (const std::string& h : test) sus_covered.insert(domain[h].su);
  if (sus_covered.size() < su_size.size()) {
    Finding f;
    f.rule = "rollout-canary-capped";
    f.severity = Severity::kInfo;
    f.object = "wave canary";
    f.message = fmt::format(
        "the canary holds {} host(s) (canary_max) for {} scalable units: {} unit(s) first see the new "
        "firmware in a rolling wave",
        canary.size(), su_size.size(), su_size.size() - sus_covered.size());
    f.fix = "raise canary_max in the policy to cover every unit";
    out.findings.push_back(std::move(f));
  }
  if (!canary.empty()) add_wave("canary", canary);

  // 5. Rolling waves within the bounds.
  std::map<std::string, uint32_t> quota;
  for (const auto& [su, n] : su_size) {
    quota[su] = std::max<uint32_t>(1, static_cast<uint32_t>(n * policy.max_unavailable_percent / 100.0));
  }
  std::vector<std::string> rest;
  for (const std::string& host : order) {
    if (!placed.count(host)) rest.push_back(host);
  }
  uint32_t rolling = 0;
  while (!rest.empty()) {
    std::vector<std::string> wave, next;
    std::map<std::string, uint32_t> in_su;
    std::map<uint32_t, uint32_t> in_leaf;
    for (const std::string& host : rest) {
      const Domain& d = domain[host];
      bool fits = wave.size() < policy.max_hosts_per_wave && in_su[d.su] < quota[d.su];
      for (uint32_t leaf : d.leaves) fits = fits && in_leaf[leaf] < policy.max_per_leaf;
      if (!fits) {
        next.push_back(host);
        continue;
      }
      wave.push_back(host);
      ++in_su[d.su];
      for (uint32_t leaf : d.leaves) ++in_leaf[leaf];
    }
    add_wave(fmt::format("rolling-{}", ++rolling), wave);
    rest = std::move(next);
  }
  return out;
}

std::map<std::string, std::string> SuspectCards(const LedgerStore& ledger) {
  std::map<std::string, std::string> suspect;
  for (const AuthenticityFinding& f : CheckLedger(ledger)) {
    // An authenticity finding's host is the card's serial.
    if (f.finding.severity >= Severity::kWarning) suspect.emplace(f.finding.host, f.finding.rule + ": " + f.finding.message);
  }
  return suspect;
}

}  // namespace railyard
