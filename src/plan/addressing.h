// IP, VLAN and BGP ASN plan.
//
// Per plane, from its addressing block:
//  - p2p31 (routed RoCE/Ethernet): a /31 per link, the switch on the even address; then a
//    loopback /32 per switch (from `loopbacks`, else the top of the prefix) and an ASN per
//    leaf, one per pod's spines and one for the cores (RFC 7938 numbering).
//  - host / ipoib: one address per endpoint port, in node order, from the bottom of the prefix
//    (the first address is left for the gateway).
//  - oob plane in host mode: an address for every node BMC and every switch management port.
#pragma once

#include <vector>

#include "model/fabric.h"
#include "model/finding.h"

namespace railyard {

// Assigns addresses in place. Returns findings for prefixes too small for what they must hold.
std::vector<Finding> AssignAddresses(Fabric& fabric);

}  // namespace railyard
