#include "parse/bonding.h"

#include <charconv>

#include "parse/key_value.h"

namespace railyard {
namespace {

int Int(const std::string& v) { return LeadingInt(v, -1); }

}  // namespace

BondStatus ParseBonding(std::string_view text) {
  BondStatus b;
  BondMember* member = nullptr;
  bool in_active_aggregator = false;
  bool in_partner_details = false;
  for (const KeyValue& kv : ParseKeyValues(text)) {
    const std::string& k = kv.key;
    if (k == "Slave Interface") {
      b.members.push_back(BondMember{});
      member = &b.members.back();
      member->name = kv.value;
      in_active_aggregator = in_partner_details = false;
      continue;
    }
    if (k == "Active Aggregator Info") {
      in_active_aggregator = true;
      continue;
    }
    if (k == "details partner lacp pdu") {
      in_partner_details = true;
      continue;
    }
    if (k == "details actor lacp pdu") {
      in_partner_details = false;
      continue;
    }
    if (member) {
      if (k == "MII Status")
        member->mii_status = kv.value;
      else if (k == "Speed")
        std::from_chars(kv.value.data(), kv.value.data() + kv.value.size(), member->speed_mbps);
      else if (k == "Duplex")
        member->duplex = kv.value;
      else if (k == "Link Failure Count")
        member->link_failure_count = Int(kv.value);
      else if (k == "Permanent HW addr")
        member->permanent_hw_addr = kv.value;
      else if (k == "Aggregator ID") {
        member->aggregator_id = Int(kv.value);
        member->aggregator_na = kv.value == "N/A";
      } else if (k == "Actor Churn State")
        member->actor_churn = kv.value;
      else if (k == "Partner Churn State")
        member->partner_churn = kv.value;
      else if (k == "system mac address" && in_partner_details)
        member->partner_mac = kv.value;
      continue;
    }
    if (k == "Bonding Mode")
      b.mode = kv.value;
    else if (k == "MII Status")
      b.mii_status = kv.value;
    else if (k == "Transmit Hash Policy")
      b.transmit_hash_policy = kv.value;
    else if (k == "Currently Active Slave")
      b.currently_active = kv.value;
    else if (k == "LACP rate")
      b.lacp_rate = kv.value;
    else if (k == "Aggregator ID" && in_active_aggregator)
      b.active_aggregator_id = Int(kv.value);
    else if (k == "Partner Mac Address" && in_active_aggregator)
      b.partner_mac = kv.value;
  }
  // A line with no colon, so not a key: "bond bond0 has no active aggregator" (802.3ad, nothing aggregated).
  b.no_active_aggregator = text.find("has no active aggregator") != std::string_view::npos;
  if (b.mode.empty()) b.warnings.push_back({0, "no \"Bonding Mode\": not /proc/net/bonding output"});
  return b;
}

}  // namespace railyard
