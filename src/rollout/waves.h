// The rollout plan: which device moves in which wave, and which is left alone and why.
//
// First, where target.yaml names switch images and --switches says what the switches run, the switch
// waves (rollout/switches.h). Then the hosts.
// Wave "test": one host per distinct PSID among the devices to move (a host carrying most of the
// PSIDs not yet covered first), so every image runs once on real hardware before any other host.
// Wave "canary": one host in every scalable unit that has devices to move (at most canary_max).
// Then rolling waves: per scalable unit at most max(1, max_unavailable_percent of its hosts) hosts,
// at most max_per_leaf hosts behind any one leaf, at most max_hosts_per_wave hosts in all.
// Every device of the fleet is in exactly one wave or in `skipped` with the gate that held it back.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "facts/host_facts.h"
#include "ledger/ledger.h"
#include "model/finding.h"
#include "planfile/planned.h"
#include "rollout/rollout_plan.h"
#include "rollout/switches.h"
#include "rollout/target.h"

namespace railyard {

// A ConnectX (or BlueField) device of a host as its facts show it.
struct FleetDevice {
  std::string pci;  // PCI address of its first function (what mlxfwmanager -d and flint -d take)
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

// The cards the ledger doubts (an authenticity finding at warning or above): serial -> why, for
// PlanRollout's `suspect`.
std::map<std::string, std::string> SuspectCards(const LedgerStore& ledger);

// `plan` (may be null) gives each host its scalable unit and leaves; hosts it does not know form a
// domain of their own ("unplanned"), said in a finding.
// `suspect`: serial -> why the ledger doubts the card (an authenticity finding at warning or above):
// such a card is never flashed (a re-flashed or counterfeit card first goes back to the vendor).
// `switches`: what each switch runs (--switches); with target.yaml's switch rows it plans switch waves
// first and holds back hosts behind a switch that stays below its family's minimum.
RolloutPlan PlanRollout(const PlannedFabric* plan, const std::vector<FleetHost>& fleet, const RolloutTarget& target,
                        const RolloutPolicy& policy, const std::map<std::string, std::string>& suspect = {},
                        const std::vector<SwitchFirmwareSeen>& switches = {});

}  // namespace railyard
