// A switch's RoCE QoS as it reports it: what the host's trust, PFC and ECN must agree with.
//   Cumulus NVUE `nv show qos roce` (switch-wide) or `nv show interface IF qos roce status` (one
//   port): a two- or three-column table (operational, applied[, description]) of indented keys:
//   mode, pfc/pfc-priority ("3", "-" = none), congestion-control/congestion-mode ("ECN", "ecn,
//   absolute") and enabled-tc ("0,3"), trust/trust-mode ("pcp,dscp"); then "RoCE SP->TC mapping"
//   rows (switch-prio, traffic-class). The operational column counts; applied is what was set.
//   Arista EOS `show qos interfaces`: "<If>:" blocks with "Trust Mode: DSCP" and a Tx-queue table whose
//   last column is ECN/WRED (L = ECN on the queue length, W = WRED drops, D = disabled). EOS prints
//   PFC elsewhere (`show priority-flow-control`), so PFC stays unread from this output.
// Never throw: what cannot be read is a warning with its line.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct SwitchQos {
  std::string mode;   // NVUE: lossless, lossy, lossless-single-ipool, lossy-multi-tc; "" = not said
  std::string trust;  // lower case as printed: "pcp,dscp", "dscp", "cos"; "" = not read
  bool pfc_read = false;
  std::vector<int> pfc_priorities;  // switch priorities with PFC on (empty with pfc_read: none)
  bool ecn_read = false;
  std::vector<int> ecn_tcs;       // traffic classes (queues) that mark ECN
  std::map<int, int> prio_to_tc;  // switch priority -> traffic class, where the output gives it
  std::string source;
  int line = 0;

  // The traffic class a priority lands in: the output's mapping, else the priority itself (the
  // default of both NVUE and EOS). `assumed` says which.
  int TcOf(int priority, bool& assumed) const;
};

struct SwitchQosReport {
  std::map<std::string, SwitchQos> ports;  // EOS: per interface (long name); NVUE per-port status: the one port as ""
  std::vector<ParseWarning> warnings;
};

SwitchQosReport ParseNvueQosRoce(std::string_view text);  // the whole output under the key ""
SwitchQosReport ParseEosQosInterfaces(std::string_view text);

}  // namespace railyard
