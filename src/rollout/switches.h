// Switch firmware in a rollout: which switches move, in which waves, before the hosts that need them.
//
// Order (docs/rollout.md): a test wave with one switch per firmware family (a core or spine where
// there is one: losing one of several uplinks costs bandwidth, not hosts), then cores, then spines,
// never two in one wave that share a switch below them, which in a two-tier plane is one spine per
// plane per wave (a published rolling order puts spines first: Oracle Exadata, "Updating InfiniBand
// switch software"; NetQ LCM orders spine before leaf), then leaves, every host behind a leaf of
// the wave drained first: with leaf_waves: unit the leaves of a unit together (one window per unit,
// never two leaves of a host that is not drained), with rail never two leaves that share a host. And
// a step that would leave a switch with no uplink at all says so and drains the hosts behind it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/finding.h"
#include "planfile/planned.h"
#include "rollout/rollout_plan.h"
#include "rollout/target.h"

namespace railyard {

// What a switch runs, from an inventory CSV (`--switches`): columns `switch` (or `name`) and
// `firmware`, optionally `address` (what ssh reaches it by; default the name) and `serial` (its
// ledger asset: check results are recorded on it). Exports from UFM, NetBox or `nv show platform
// firmware ASIC` across the fleet fit in this shape.
struct SwitchFirmwareSeen {
  std::string name, firmware, address;
  int line = 0;
  std::string serial;
};

// Throws InputError("<file>:<line>: <column>: ...") on a missing column, an empty or
// unsafe name, a firmware that is not a version, or a switch listed twice.
std::vector<SwitchFirmwareSeen> ParseSwitchInventory(std::string_view csv, const std::string& source);
std::vector<SwitchFirmwareSeen> LoadSwitchInventory(const std::string& path);

struct SwitchRollout {
  std::vector<RolloutWave> waves;  // in order; indexes set by the caller
  std::vector<RolloutSkip> skipped;
  std::vector<Finding> findings;
  // Per plan device: its firmware once the switch waves ran ("" = not known: not in the inventory).
  std::vector<std::string> firmware_after;
};

// `plan` is required when `inventory` is not empty (the order comes from the plan's tiers and links).
SwitchRollout PlanSwitchWaves(const PlannedFabric* plan, const std::vector<SwitchFirmwareSeen>& inventory,
                              const RolloutTarget& target, const RolloutPolicy& policy);

}  // namespace railyard
