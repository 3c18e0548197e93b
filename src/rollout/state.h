// The rollout written out (`rollout plan -o STATE_DIR`): rollout.json, and per wave the scripts that
// do it with the real tools, its ClusterShell nodeset, and an Ansible inventory group.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rollout/waves.h"

namespace railyard {

// rollout.json (schema railyard.rollout/1), formatted straight into text: at 100,000 devices a JSON
// tree would cost more memory than the whole plan.
std::string RolloutJsonText(const RolloutPlan& plan, const RolloutTarget& target, const RolloutPolicy& policy);

// Writes the whole set atomically (all files or none under their final names). Returns the names.
std::vector<std::string> WriteRolloutState(const RolloutPlan& plan, const RolloutTarget& target, const RolloutPolicy& policy,
                                           const std::string& dir);

// The script run on each host of a wave: for each of its devices, refuse a PSID the image is not
// for, check the image's sha256, burn with mlxfwmanager, reset at the level mlxfwreset allows (or
// flag a reboot), and check the running version. A device already at target is left alone.
std::string HostScript(const RolloutWave& wave);

}  // namespace railyard
