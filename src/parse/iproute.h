// iproute2: `ip -d [-s] link show` (text), `ip -j -d link show` and `ip -j addr show` (JSON).
// One IpLink per interface, whichever form it came from, so a capture made with either works.
// Never throws: malformed input gives warnings (the JSON forms: one warning naming the error).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct IpVf {
  int vf = -1;
  std::string mac;
  std::string link_state;   // auto | enable | disable
  std::string spoof_check;  // on | off
  std::string trust;        // on | off
};

struct IpLink {
  int index = 0;
  std::string name;
  std::string link;                // "bond1" of "bond1.4003@bond1": the lower device
  std::vector<std::string> flags;  // UP, LOWER_UP, SLAVE, MASTER, PROMISC ...
  uint32_t mtu = 0;
  std::string qdisc;
  std::string master;
  std::string state;      // operstate as printed: UP, DOWN, LOWERLAYERDOWN, UNKNOWN
  std::string link_type;  // ether | loopback | infiniband ...
  std::string mac;
  int promiscuity = 0;
  std::string kind;        // linkinfo kind: bond, vlan, bridge, veth ... "" for a plain device
  std::string slave_kind;  // bond | bridge when enslaved
  int vlan_id = -1;
  std::string bond_mode;  // 802.3ad, active-backup ...
  std::string xmit_hash_policy;
  std::string lacp_rate;
  std::string ad_partner_mac;
  int ad_aggregator = -1;              // bond: the active aggregator's id ("ad_aggregator 1")
  int slave_ad_aggregator_id = -1;     // bond slave: the aggregator it joined
  std::vector<std::string> addresses;  // `ip -d addr` text: "10.0.0.5/24" (scope link omitted)
  std::string slave_state;             // ACTIVE | BACKUP
  std::string slave_mii_status;
  int slave_link_failure_count = -1;
  int tx_queues = 0;  // numtxqueues: allocated, not in use (sysfs queues/ or ethtool -l say that)
  int rx_queues = 0;
  std::string portname;  // switchdev: p0, pf0vf0
  std::string switchid;
  std::string parentdev;  // PCI address of the eswitch's function
  std::vector<IpVf> vfs;
  std::optional<uint64_t> rx_bytes, rx_packets, rx_errors, rx_dropped;
  std::optional<uint64_t> tx_bytes, tx_packets, tx_errors, tx_dropped;

  bool HasFlag(std::string_view f) const;
};

struct IpLinkReport {
  std::vector<IpLink> links;
  std::vector<ParseWarning> warnings;
};

IpLinkReport ParseIpLinkText(std::string_view text);
IpLinkReport ParseIpLinkJson(std::string_view text);

struct IpAddress {
  std::string family;   // inet | inet6
  std::string address;  // without the prefix
  int prefix_length = -1;
  std::string scope;  // global | link | host
};

struct IpAddrInterface {
  std::string name;
  std::vector<IpAddress> addresses;
};

struct IpAddrReport {
  std::vector<IpAddrInterface> interfaces;
  std::vector<ParseWarning> warnings;
};

IpAddrReport ParseIpAddrJson(std::string_view text);

}  // namespace railyard
