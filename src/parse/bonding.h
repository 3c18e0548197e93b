// /proc/net/bonding/BOND: the bonding driver's view of a bond and its members. Never throws.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct BondMember {
  std::string name;
  std::string mii_status;  // up / down
  uint32_t speed_mbps = 0;
  std::string duplex;
  int link_failure_count = 0;
  std::string permanent_hw_addr;
  int aggregator_id = -1;      // 802.3ad only; -1 absent or "N/A"
  bool aggregator_na = false;  // "Aggregator ID: N/A": the member joined no aggregator (LACP never converged)
  std::string partner_mac;     // 802.3ad, per member when the driver prints details
  std::string actor_churn;     // "none" | "churned" | "monitoring" ("Actor Churn State")
  std::string partner_churn;
};

struct BondStatus {
  std::string mode;  // "IEEE 802.3ad Dynamic link aggregation", "fault-tolerance (active-backup)" ...
  std::string mii_status;
  std::string transmit_hash_policy;
  std::string currently_active;  // active-backup: "Currently Active Slave"
  std::string lacp_rate;
  int active_aggregator_id = -1;
  std::string partner_mac;            // of the active aggregator
  bool no_active_aggregator = false;  // "bond bondN has no active aggregator"
  std::vector<BondMember> members;
  std::vector<ParseWarning> warnings;

  bool Is8023ad() const { return mode.find("802.3ad") != std::string::npos; }
  bool IsActiveBackup() const { return mode.find("active-backup") != std::string::npos; }
};

// /proc/net/bonding/BOND. Never throws; not-bonding text gets a warning.
BondStatus ParseBonding(std::string_view text);

}  // namespace railyard
