#include "rollout/switches.h"
#include "util/input_error.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "planfile/names.h"
#include "util/csv.h"
#include "util/file.h"
#include "util/safe_text.h"
#include "util/terminal.h"
#include "util/versions.h"

namespace railyard {

namespace {

// leaf_waves: unit. The leaves that share scheduler nodes, joined: on a rail-optimized fabric one
// unit's leaves of every rail, which a maintenance window takes at once since its nodes are drained
// anyway. Two leaves that share anything that is not drained (a storage appliance behind a leaf
// pair, UFM) are never in one block, so nothing outside the window loses two links at once: such a
// unit is split into as few blocks as that allows, and a block is at most max_block leaves. Blocks
// in the order of their first leaf.
std::vector<std::vector<uint32_t>> LeafUnits(const PlannedFabric& plan, const std::vector<uint32_t>& leaves,
                                             const std::map<uint32_t, std::vector<uint32_t>>& hosts_of, size_t max_block) {
  std::vector<size_t> parent(leaves.size());
  std::iota(parent.begin(), parent.end(), size_t{0});
  auto root = [&parent](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::map<uint32_t, std::vector<size_t>> leaves_of;  // host -> the leaves (indexes) it hangs from
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (auto h = hosts_of.find(leaves[i]); h != hosts_of.end()) {
      for (uint32_t host : h->second) leaves_of[host].push_back(i);
    }
  }
  for (const auto& [host, of] : leaves_of) {
    if (plan.devices[host].role != "node") continue;
    for (size_t i : of) parent[root(i)] = root(of.front());
  }
  std::set<size_t> unsafe;  // units two of whose leaves share a host that is not drained
  for (const auto& [host, of] : leaves_of) {
    if (plan.devices[host].role == "node") continue;
    std::set<size_t> units;
    for (size_t i : of) {
      if (!units.insert(root(i)).second) unsafe.insert(root(i));
    }
  }
  std::map<size_t, std::vector<size_t>> units;
  for (size_t i = 0; i < leaves.size(); ++i) units[root(i)].push_back(i);
  std::vector<std::vector<uint32_t>> out;
  for (auto& [r, unit] : units) {
    if (!unsafe.count(r)) {
      std::vector<uint32_t>& block = out.emplace_back();
      for (size_t i : unit) block.push_back(leaves[i]);
      continue;
    }
    // Split so that no block holds two leaves of one such host: each leaf into the first block it
    // shares none with (four leaves of UFM's: four windows; the unit's other leaves join the first).
    std::vector<std::vector<size_t>> parts;
    std::vector<std::set<uint32_t>> kept;  // per part, the hosts not drained that hang from it
    for (size_t i : unit) {
      std::set<uint32_t> mine;
      if (auto h = hosts_of.find(leaves[i]); h != hosts_of.end()) {
        for (uint32_t host : h->second) {
          if (plan.devices[host].role != "node") mine.insert(host);
        }
      }
      size_t p = 0;
      while (p < parts.size() && std::any_of(mine.begin(), mine.end(), [&](uint32_t h) { return kept[p].count(h) > 0; })) ++p;
      if (p == parts.size()) {
        parts.emplace_back();
        kept.emplace_back();
      }
      parts[p].push_back(i);
      kept[p].insert(mine.begin(), mine.end());
    }
    for (const auto& part : parts) {
      std::vector<uint32_t>& block = out.emplace_back();
      for (size_t i : part) block.push_back(leaves[i]);
    }
  }
  // max_switches_per_wave holds here too: a unit of more leaves goes in as many windows as it takes.
  std::vector<std::vector<uint32_t>> bounded;
  for (std::vector<uint32_t>& block : out) {
    for (size_t at = 0; at < block.size(); at += max_block)
      bounded.emplace_back(block.begin() + static_cast<std::ptrdiff_t>(at),
                           block.begin() + static_cast<std::ptrdiff_t>(std::min(block.size(), at + max_block)));
  }
  std::sort(bounded.begin(), bounded.end(),
            [&plan](const auto& a, const auto& b) { return plan.devices[a.front()].name < plan.devices[b.front()].name; });
  return bounded;
}

// Tiers from the top: a core or spine step costs bandwidth, a leaf step drains the hosts behind it.
int TierRank(const std::string& tier) { return tier == "core" ? 0 : tier == "spine" ? 1 : 2; }

}  // namespace

std::vector<SwitchFirmwareSeen> ParseSwitchInventory(std::string_view csv, const std::string& source) {
  // A spreadsheet export may start with a byte order mark.
  if (csv.starts_with("\xEF\xBB\xBF")) csv.remove_prefix(3);
  CsvTable table = ParseCsv(csv, source);
  int name = table.Column("switch");
  if (name < 0) name = table.Column("name");
  int firmware = table.Column("firmware");
  int address = table.Column("address");
  int serial = table.Column("serial");
  if (name < 0 || firmware < 0) {
    throw InputError(source, 1, 0, "", "the header needs the columns switch (or name) and firmware, optionally address");
  }
  std::vector<SwitchFirmwareSeen> out;
  std::map<std::string, int> seen;
  for (const CsvRow& row : table.rows) {
    SwitchFirmwareSeen s;
    s.line = row.line;
    s.name = row.fields[static_cast<size_t>(name)];
    s.firmware = row.fields[static_cast<size_t>(firmware)];
    s.address = address >= 0 ? row.fields[static_cast<size_t>(address)] : "";
    if (s.address.empty()) s.address = s.name;
    if (serial >= 0) s.serial = row.fields[static_cast<size_t>(serial)];
    // Switch names and addresses go into scripts (ssh, scp), nodesets and rollout.json.
    RequireText(TextRule::kName, s.name, source, "switch", row.line, name + 1);
    RequireText(TextRule::kHost, s.address, source, "address", row.line, address + 1);
    if (serial >= 0) RequireTextOrEmpty(TextRule::kWord, s.serial, source, "serial", row.line, serial + 1);
    if (!IsVersion(s.firmware)) {
      throw InputError(source, row.line, 0, "firmware",
                       fmt::format("'{}' is not a version (31.2014.2084)", TerminalSafe(s.firmware)));
    }
    if (auto [it, fresh] = seen.emplace(s.name, row.line); !fresh) {
      throw InputError(source, row.line, 0, "switch", fmt::format("{} is listed on line {} already", s.name, it->second));
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<SwitchFirmwareSeen> LoadSwitchInventory(const std::string& path) {
  return ParseSwitchInventory(ReadWholeFile(path), path);
}

SwitchRollout PlanSwitchWaves(const PlannedFabric* plan, const std::vector<SwitchFirmwareSeen>& inventory,
                              const RolloutTarget& target, const RolloutPolicy& policy) {
  SwitchRollout out;
  if (plan) out.firmware_after.assign(plan->devices.size(), "");
  if (inventory.empty()) {
    if (!target.switches.empty()) {
      Finding f;
      f.rule = "rollout-switch-firmware-unknown";
      f.severity = Severity::kWarning;
      f.object = "switches";
      f.message =
          "target.yaml names switch firmware minima, but no switch inventory was given: whether the switches meet "
          "them was not checked";
      f.fix = "give --switches switches.csv (switch,firmware[,address]: from UFM, NetBox or `nv show platform firmware ASIC`)";
      out.findings.push_back(std::move(f));
    }
    return out;
  }
  if (!plan) throw UsageError("--switches needs --plan: the order of switch steps comes from the plan's tiers and links");

  // 1. Which switch moves: its family has an image in target.yaml and it runs an older version.
  NameResolver names(*plan);
  std::set<std::string> racks(policy.protected_racks.begin(), policy.protected_racks.end());
  std::vector<uint32_t> moving;
  std::map<uint32_t, const SwitchFirmwareSeen*> seen_of;
  std::map<uint32_t, const SwitchFirmwareTarget*> row_of;
  for (const SwitchFirmwareSeen& s : inventory) {
    auto skip = [&](const std::string& rule, const std::string& reason) {
      out.skipped.push_back({s.name, "asic", "", rule, reason});
    };
    std::optional<uint32_t> node = names.ResolveDevice(s.name);
    if (!node || plan->devices[*node].role != "switch") {
      skip("switch-not-in-plan",
           "not a switch of the plan: its place in the fabric (tier, links) is unknown, so no safe step exists");
      continue;
    }
    if (seen_of.count(*node)) {
      skip("switch-listed-twice", fmt::format("the plan's {} is listed under another name already", plan->devices[*node].name));
      continue;
    }
    seen_of[*node] = &s;
    out.firmware_after[*node] = s.firmware;
    const SwitchFirmwareTarget* row = target.ForSwitchFirmware(s.firmware);
    if (!row) {
      skip("no-image-for-family", fmt::format("target.yaml has no row for firmware family {} ({}): left as it is",
                                              FirmwareFamily(s.firmware), s.firmware));
      continue;
    }
    if (row->image.empty()) {
      skip(CompareVersions(s.firmware, row->min) < 0 ? "switch-below-min-no-image" : "at-or-above-min",
           fmt::format("{} {} min {}; target.yaml names no image for the family", s.firmware,
                       CompareVersions(s.firmware, row->min) < 0 ? "is below" : "meets", row->min));
      continue;
    }
    int cmp = CompareVersions(s.firmware, row->version);
    if (cmp == 0) {
      skip("at-target", fmt::format("already at {}", row->version));
      continue;
    }
    if (cmp > 0) {
      skip("downgrade-not-allowed",
           fmt::format("{} is newer than the target {}: switches are never downgraded by a rollout", s.firmware, row->version));
      continue;
    }
    if (policy.protected_power_required && !racks.count(plan->devices[*node].rack)) {
      skip("not-on-protected-power", fmt::format("rack {} is not among the policy's racks on protected power",
                                                 plan->devices[*node].rack.empty() ? "(unknown)" : plan->devices[*node].rack));
      continue;
    }
    row_of[*node] = row;
    moving.push_back(*node);
  }

  // 2. The fabric around each switch: who is below (hosts, lower switches) and above it.
  std::map<uint32_t, std::vector<uint32_t>> hosts_of, uplinks_of, below_of;
  for (const PlannedLink& l : plan->links) {
    if (l.level == "endpoint-leaf") {
      hosts_of[l.z_device].push_back(l.a_device);
    } else if (l.level == "leaf-spine" || l.level == "spine-core") {
      uplinks_of[l.a_device].push_back(l.z_device);
      below_of[l.z_device].push_back(l.a_device);
    }
  }
  for (auto* m : {&hosts_of, &uplinks_of, &below_of}) {
    for (auto& [k, v] : *m) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }
  }

  auto device_of = [&](uint32_t node) {
    const PlannedDevice& d = plan->devices[node];
    const SwitchFirmwareSeen& s = *seen_of[node];
    const SwitchFirmwareTarget& row = *row_of[node];
    RolloutDevice r;
    r.host = d.name;
    r.device = "asic";
    r.from = s.firmware;
    r.to = row.version;
    r.image = row.image;
    r.sha256 = row.sha256;
    r.is_switch = true;
    r.tier = d.tier;
    r.plane = d.plane;
    r.address = s.address;
    r.serial = s.serial;
    return r;
  };
  auto add_wave = [&](const std::string& name, const std::vector<uint32_t>& nodes) {
    RolloutWave w;
    w.name = name;
    w.switches = true;
    std::set<uint32_t> in_wave(nodes.begin(), nodes.end());
    std::set<std::string> drain;
    for (uint32_t n : nodes) {
      w.hosts.push_back(plan->devices[n].name);
      w.devices.push_back(device_of(n));
      // Only what the scheduler knows is drained: the plan's nodes (an appliance such as UFM behind the
      // leaf is no Slurm node, and scontrol refuses a whole line that names one).
      for (uint32_t h : hosts_of[n]) {
        if (plan->devices[h].role == "node") drain.insert(plan->devices[h].name);
      }
      // A switch below this one left with no uplink at all: the hosts behind it are cut off the plane.
      for (uint32_t lower : below_of[n]) {
        const std::vector<uint32_t>& up = uplinks_of[lower];
        if (!std::all_of(up.begin(), up.end(), [&](uint32_t u) { return in_wave.count(u) > 0; })) continue;
        std::vector<uint32_t> stack{lower};
        size_t cut = 0;
        while (!stack.empty()) {
          uint32_t at = stack.back();
          stack.pop_back();
          for (uint32_t h : hosts_of[at]) {
            if (plan->devices[h].role == "node") cut += drain.insert(plan->devices[h].name).second;
          }
          for (uint32_t b : below_of[at]) stack.push_back(b);
        }
        Finding f;
        f.rule = "rollout-switch-step-cuts-plane";
        f.severity = Severity::kWarning;
        f.object = "switch " + plan->devices[lower].name;
        f.message = fmt::format(
            "wave {}: {} loses every uplink while {} is upgraded: the hosts behind it are cut off plane {} "
            "and are drained for the wave",
            name, plan->devices[lower].name, plan->devices[n].name, plan->devices[n].plane);
        f.evidence = {{"uplinks", std::to_string(up.size())}, {"hosts_cut_off", std::to_string(cut)}};
        f.fix = "plan a second uplink switch for it, or run this wave in a maintenance window";
        out.findings.push_back(std::move(f));
      }
    }
    w.drain.assign(drain.begin(), drain.end());
    std::sort(w.hosts.begin(), w.hosts.end());
    out.waves.push_back(std::move(w));
  };

  // 3. The test wave: one switch per family, from the highest tier that has one.
  std::sort(moving.begin(), moving.end(), [&](uint32_t a, uint32_t b) {
    int ra = TierRank(plan->devices[a].tier), rb = TierRank(plan->devices[b].tier);
    return ra != rb ? ra < rb : plan->devices[a].name < plan->devices[b].name;
  });
  std::vector<uint32_t> test;
  std::set<std::string> families;
  for (uint32_t n : moving) {
    if (families.insert(row_of[n]->family).second) test.push_back(n);
  }
  if (!test.empty()) add_wave("switch-test", test);
  std::set<uint32_t> done(test.begin(), test.end());

  // 4. Cores, then spines, then leaves. Two switches go together only when they share no neighbour
  // below them (a leaf, a spine, or a host): no switch or host loses two of its links at once. In a
  // two-tier plane every spine meets every leaf, so that is one spine per plane per wave; spines of
  // different pods of a three-tier plane can go together. A leaf wave drains at most
  // max_hosts_per_wave hosts (a leaf alone may exceed it: it cannot be split).
  std::vector<uint32_t> stamp(plan->devices.size(), 0);  // the wave that touched a neighbour, +1
  uint32_t wave_stamp = 0;
  for (int rank = 0; rank <= 2; ++rank) {
    std::vector<uint32_t> rest;
    for (uint32_t n : moving) {
      if (!done.count(n) && TierRank(plan->devices[n].tier) == rank) rest.push_back(n);
    }
    const char* tier = rank == 0 ? "core" : rank == 1 ? "spine" : "leaf";
    // What goes together: one switch, or with leaf_waves: unit, every leaf of a unit.
    std::vector<std::vector<uint32_t>> blocks = rank == 2 && policy.leaf_waves == "unit"
                                                    ? LeafUnits(*plan, rest, hosts_of, policy.max_switches_per_wave)
                                                    : std::vector<std::vector<uint32_t>>();
    if (blocks.empty()) {
      for (uint32_t n : rest) blocks.push_back({n});
    }
    for (int k = 1; !blocks.empty(); ++k) {
      ++wave_stamp;
      std::vector<uint32_t> wave;
      std::vector<std::vector<uint32_t>> next;
      size_t drained = 0;
      for (std::vector<uint32_t>& block : blocks) {
        bool shares = false;
        std::set<uint32_t> hosts;  // a unit's leaves share their hosts: each is drained once
        for (uint32_t n : block) {
          const std::vector<uint32_t>& below = rank == 2 ? hosts_of[n] : below_of[n];
          shares = shares || std::any_of(below.begin(), below.end(), [&](uint32_t b) { return stamp[b] == wave_stamp; });
          hosts.insert(below.begin(), below.end());
        }
        bool fits = wave.empty() || (wave.size() + block.size() <= policy.max_switches_per_wave &&
                                     (rank < 2 || drained + hosts.size() <= policy.max_hosts_per_wave));
        if (shares || !fits) {
          next.push_back(std::move(block));
          continue;
        }
        for (uint32_t n : block) {
          wave.push_back(n);
          for (uint32_t b : rank == 2 ? hosts_of[n] : below_of[n]) stamp[b] = wave_stamp;
        }
        if (rank == 2) drained += hosts.size();
      }
      add_wave(fmt::format("switch-{}-{}", tier, k), wave);
      blocks = std::move(next);
    }
  }
  for (uint32_t n : moving) out.firmware_after[n] = row_of[n]->version;

  // 6. Switches of the plan the inventory does not list, where target.yaml has minima: not checked.
  if (!target.switches.empty()) {
    size_t unknown = 0;
    std::string first;
    for (uint32_t i = 0; i < plan->devices.size(); ++i) {
      if (plan->devices[i].role == "switch" && !seen_of.count(i)) {
        if (!unknown++) first = plan->devices[i].name;
      }
    }
    if (unknown) {
      Finding f;
      f.rule = "rollout-switch-firmware-unknown";
      f.severity = Severity::kWarning;
      f.object = "switches";
      f.evidence = {{"switches", std::to_string(unknown)}, {"first", first}};
      f.message = fmt::format(
          "{} switch(es) of the plan are not in the switch inventory (first: {}): whether they meet "
          "target.yaml's minima was not checked",
          unknown, first);
      f.fix = "add them to the --switches inventory";
      out.findings.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace railyard
