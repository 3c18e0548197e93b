// infiniband-diags `iblinkinfo`: every port of every node the fabric scan reached, with its link.
// The grammar is print_port()/print_node_header() of rdma-core infiniband-diags/iblinkinfo.c:
//   node header  "Switch: 0x<port-0 GUID> <desc>:" | "CA: <desc>:" | "Router: <desc>:"
//                (2010 releases: "Switch 0x... <desc>:", no colon after the type)
//   switch port  "<LID> <port>[<ext>] ==(<link>)==>  <remote>"
//   CA port      "0x<port GUID> <LID> <port>[<ext>] ==(<link>)==>  <remote>"
//   line mode -l "0x<GUID> \"<desc, right-aligned in 30>\" <LID> <port>[<ext>] ==(...)==>  0x<remote GUID> <remote>"
//   link up      "(<width> <lane speed> Gbps[ (FDR10)] <state>/<physstate>)"[ (HOQ:n VL_Stall:n)]
//   link down    "(Down/<physstate>)"; releases before 1.5 still print width and speed
//   remote       "<LID> <port>[<ext>] \"<desc>\" (<Could be WIDTH> <Could be SPEED>)" | "[  ] \"\" ( )" |
//                "\"Port not available\""
// Never throws: a line that cannot be read is counted into one warning with the first's line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct IbLinkPort {
  int lid = 0;  // the switch's LID (switch ports share it) or the CA port's
  int port = 0;
  std::string ext;        // the external port number a few switches print in [..]; "" mostly
  std::string port_guid;  // CA ports (and line mode): the port's GUID
  int width = 0;          // lanes: 1, 2, 4, 8, 12; 0 = not up (or not said)
  double lane_gbps = 0;   // signalling rate per lane as printed: 2.5 ... 212.5
  bool fdr10 = false;     // "10.0 Gbps (FDR10)": Mellanox's 10.3125 Gb/s lanes
  std::string state;      // Down, Initialize, Armed, Active
  std::string physstate;  // Polling, Disabled, LinkUp, Sleep, PortConfigurationTraining, LinkErrorRecovery, PhyTest
  bool has_peer = false;
  std::string peer_guid;  // line mode only
  int peer_lid = 0, peer_port = 0;
  std::string peer_desc;
  std::string could_be;  // "12X, 10.0 Gbps": what both ends support when the link runs below it
  int line = 0;
};

struct IbLinkNode {
  std::string type;  // Switch, CA, Router; "" in line mode (it does not say)
  std::string guid;  // the header's GUID (switches), or line mode's
  std::string desc;
  int line = 0;
  std::vector<IbLinkPort> ports;
};

struct IblinkinfoPorts {
  std::vector<IbLinkNode> nodes;
  std::vector<ParseWarning> warnings;
};

IblinkinfoPorts ParseIblinkinfoPorts(std::string_view text);

// For the cabling verifier: each port line with a neighbour is one Adjacency from the listed node's
// side, with width, rate and the "Could be" rate; ports without one (down) are counted.
struct IblinkinfoReport {
  AdjacencyReport links;
  int ports_down = 0;
};

IblinkinfoReport ParseIblinkinfo(std::string_view text, std::string_view source);

// The link's rate as railyard's plan states it: width x the nominal lane rate (4X 106.25 Gbps is
// 400 G, NDR; 4X 25.78125 is 100 G, EDR); 0 when the port is not up.
double IbLinkGbps(int width, double lane_gbps, bool fdr10);

}  // namespace railyard
