// `rollout check`: after a wave, may the next one start? Every device of the wave at its target and
// running it (no image left pending), every host of the wave reporting, and no doctor finding at
// warning or above on those hosts that the facts taken before the rollout did not have (links come
// up slower, a PCIe width drops, a module runs hot). On a halt, a rollback script for the wave.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "doctor/plan_rules.h"
#include "facts/host_facts.h"
#include "model/finding.h"

namespace railyard {

struct WaveCheck {
  bool pass = true;
  std::string wave;              // "wave-01-canary"
  uint32_t devices = 0;          // of the wave
  uint32_t at_target = 0;
  std::vector<Finding> findings;  // the reasons to halt (errors), and notes
  std::string rollback_script;    // set when it does not pass
};

// `rollout` is rollout.json; `before` the facts the plan was made from (facts-before/ in the state
// directory), `after` the facts collected once the wave ran. Throws std::runtime_error when the
// wave does not exist or rollout.json is not railyard.rollout/1.
WaveCheck CheckWave(const nlohmann::json& rollout, uint32_t wave, const std::vector<HostFacts>& before,
                    const std::vector<HostFacts>& after, std::shared_ptr<const HostPlan> plan);

}  // namespace railyard
