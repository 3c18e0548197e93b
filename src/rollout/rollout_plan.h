// The rollout as planned: waves of devices (cards, or switches), and what was held back and why.
// Written by rollout/waves and rollout/switches, turned into files by rollout/state.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/finding.h"

namespace railyard {

struct RolloutDevice {
  std::string host, device, psid, from, to, image, sha256;
  std::string via, via_image, via_sha256;  // an intermediate image burned first ("" = none)
  std::string serial;                      // the card's serial ("" = not in the facts): check results go to the ledger by it
  // A switch: host is the switch, device "asic", psid "" and these set.
  bool is_switch = false;
  std::string tier, plane, address;
};

struct RolloutSkip {
  std::string host, device, psid, rule, reason;
};

struct RolloutWave {
  uint32_t index = 0;
  std::string name;       // switch-test | switch-core-N | switch-spine-N | switch-leaf-N | test | canary | rolling-N
  bool switches = false;  // a wave of switches: `hosts` are switches, `drain` the servers behind them
  std::vector<std::string> hosts;
  std::vector<std::string> drain;  // the servers taken out of service for the wave (a host wave: its hosts)
  std::vector<RolloutDevice> devices;
};

struct RolloutPlan {
  std::vector<RolloutWave> waves;
  std::vector<RolloutSkip> skipped;
  std::vector<Finding> findings;
};

}  // namespace railyard
