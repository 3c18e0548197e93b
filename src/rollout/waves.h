// The rollout plan: which device moves in which wave, and which is left alone and why.
//
// Wave 0 "test": one host per distinct PSID among the devices to move (a host carrying most of the
// PSIDs not yet covered first), so every image runs once on real hardware before any other host.
// Wave 1 "canary": one host in every scalable unit that has devices to move (at most canary_max).
// Then rolling waves: per scalable unit at most max(1, max_unavailable_percent of its hosts) hosts,
// at most max_per_leaf hosts behind any one leaf, at most max_hosts_per_wave hosts in all.
// Every device of the fleet is in exactly one wave or in `skipped` with the gate that held it back.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "facts/host_facts.h"
#include "model/finding.h"
#include "rollout/target.h"
#include "verify/planned.h"

namespace railyard {

// A ConnectX (or BlueField) device of a host as its facts show it.
struct FleetDevice {
  std::string pci;      // PCI address of its first function (what mlxfwmanager -d and flint -d take)
  std::string psid;
  std::string flashed;  // firmware in flash
  std::string running;  // running firmware ("" = not reported, taken as the flashed one)
  std::string serial;   // the card's serial (PCI VPD SN, or devlink's board serial), for the ledger gate
};

struct FleetHost {
  std::string name;
  std::string driver;  // ofed_info -s ("" = not reported)
  std::vector<FleetDevice> devices;
};

// The devices of one host's facts: flint queries first, devlink where flint has none; one per card
// (the lowest PCI function of a bus:device).
FleetHost FleetHostFromFacts(const HostFacts& facts);

struct RolloutDevice {
  std::string host, device, psid, from, to, image, sha256;
  std::string via, via_image, via_sha256;  // an intermediate image burned first ("" = none)
};

struct RolloutSkip {
  std::string host, device, psid, rule, reason;
};

struct RolloutWave {
  uint32_t index = 0;
  std::string name;  // test | canary | rolling-N
  std::vector<std::string> hosts;
  std::vector<RolloutDevice> devices;
};

struct RolloutPlan {
  std::vector<RolloutWave> waves;
  std::vector<RolloutSkip> skipped;
  std::vector<Finding> findings;
};

// `plan` (may be null) gives each host its scalable unit and leaves; hosts it does not know form a
// domain of their own ("unplanned"), said in a finding.
// `suspect`: serial -> why the ledger doubts the card (an authenticity finding at warning or above):
// such a card is never flashed (a re-flashed or counterfeit card first goes back to the vendor).
RolloutPlan PlanRollout(const PlannedFabric* plan, const std::vector<FleetHost>& fleet, const RolloutTarget& target,
                        const RolloutPolicy& policy, const std::map<std::string, std::string>& suspect = {});

}  // namespace railyard
