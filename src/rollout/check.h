// `rollout check`: after a wave, may the next one start? Every device of the wave at its target and
// running it (no image left pending), every host of the wave reporting, and no doctor finding at
// warning or above on those hosts that the facts taken before the rollout did not have (links come
// up slower, a PCIe width drops, a module runs hot). On a halt, a rollback script for the wave.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "doctor/plan_rules.h"
#include "facts/host_facts.h"
#include "ledger/ledger.h"
#include "model/finding.h"
#include "rollout/switches.h"

namespace railyard {

// One device of the wave as the check found it: the record the ledger gets.
struct DeviceCheck {
  std::string host, device, serial, to;
  std::string now;  // the version it runs after the wave ("" = not seen)
  bool at_target = false;
};

struct WaveCheck {
  bool pass = true;
  std::string wave;      // "wave-01-canary"
  uint32_t devices = 0;  // of the wave
  uint32_t at_target = 0;
  std::vector<Finding> findings;     // the reasons to halt (errors), and notes
  std::string rollback_script;       // set when it does not pass
  std::vector<DeviceCheck> results;  // per device of the wave
};

// The check as ledger observations: per device with a serial, `rollout.<wave>` = "at-target <version>"
// or "not-at-target <version or not-seen>" (the ledger keeps every value: the history of each card).
std::vector<AssetObservation> CheckObservations(const WaveCheck& check);

// `rollout` is rollout.json; `before` the facts the plan was made from (facts-before/ in the state
// directory), `after` the facts collected once the wave ran. A switch wave is judged on
// `switches_after` (the switch inventory taken after it: every switch of the wave at its target),
// and, where facts are given, on the drained hosts behind it (their links back, nothing new wrong).
// Throws UsageError when the wave does not exist or is out of order, or the wave is of switches and
// no inventory was given; InputError when rollout.json is not railyard.rollout/1; std::runtime_error
// when a stale rollback script cannot be removed (I/O).
WaveCheck CheckWave(const nlohmann::json& rollout, uint32_t wave, const std::vector<HostFacts>& before,
                    const std::vector<HostFacts>& after, std::shared_ptr<const HostPlan> plan,
                    const std::vector<SwitchFirmwareSeen>* switches_after = nullptr);

// `rollout check` on a state directory (`rollout plan -o`): wave N checked against the facts kept
// there before the rollout and `facts_after` (files or directories); on a halt its rollback script
// written beside (STATE/<wave>-rollback.sh); the result recorded in checks/ (`rollout status` reads it)
// and, with a ledger, on each device's serial as `by`. Throws on input errors, before anything is
// written: a wave of hosts checked without facts, a wave that does not exist.
struct WaveCheckRun {
  WaveCheck check;
  std::string json;     // railyard.rollout-check/1
  size_t recorded = 0;  // device results recorded in the ledger
};
WaveCheckRun CheckWaveInState(const std::string& state, uint32_t wave, const std::vector<std::string>& facts_after,
                              std::shared_ptr<const HostPlan> plan, const std::vector<SwitchFirmwareSeen>* switches_after,
                              LedgerStore* ledger, const std::string& by);

}  // namespace railyard
