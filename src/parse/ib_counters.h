// InfiniBand port counters as infiniband-diags prints them (rdma-core infiniband-diags/*.c):
//   ibqueryerrors  "Errors for 0x<GUID> \"<desc>\"" (a switch) | "Errors for \"<desc>\"" (a CA), then
//                  "   GUID 0x<GUID> port <N|ALL>: [<Counter> == <value>[ (<human>)]] ...", an optional
//                  "       Link info: ..." line after each port (-r), "Data Counters for ..." blocks
//                  (--data) and the "## Summary" / "## Thresholds" / "## Suppressed" footer.
//                  Only counters beyond their threshold are printed: a counter not printed is zero
//                  (or under the threshold), which the summary's "N ports checked" vouches for.
//   perfquery      "# Port counters: Lid <L> port <P> (CapMask: ...)" or "# Port extended counters:
//                  ..." (-x), then "<Counter>:....<value>" rows; releases before 1.5 use short names
//                  (SymbolErrors, LinkDowned, XmtDiscards ...). Other blocks (-E details, samples) are
//                  read as counters too under their own header.
// Never throw: what cannot be read is one counted warning with the first line.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "parse/observation.h"

namespace railyard {

struct IbPortCounters {
  std::string node_guid;                     // ibqueryerrors: the switch's GUID ("" for a CA, which it names by description)
  std::string node_desc;                     // ibqueryerrors
  bool is_switch = false;                    // ibqueryerrors: the header named a GUID (switches only)
  int lid = 0;                               // perfquery: the LID queried
  int port = -1;                             // -1: ALL (ibqueryerrors' node aggregate; perfquery -a / port 255)
  std::map<std::string, uint64_t> counters;  // by the IBA name as printed (SymbolErrorCounter, LinkDowned ...)
  int line = 0;
};

struct IbCountersReport {
  std::vector<IbPortCounters> ports;
  int ports_checked = -1;  // ibqueryerrors' summary: ports it looked at (-1: no summary, output cut short)
  std::vector<ParseWarning> warnings;
};

IbCountersReport ParseIbqueryerrors(std::string_view text);
IbCountersReport ParsePerfquery(std::string_view text);

// An error counter's railyard key (SymbolErrorCounter and the old SymbolErrors -> "symbol",
// LinkDownedCounter -> "link_downed", PortXmitDiscards -> "xmit_discards", PortXmitWait -> "xmit_wait"
// ...); "" for a data or packet counter.
std::string_view IbErrorKey(std::string_view counter);
// The largest value the key's counter holds in the base PortCounters attribute (4, 8, 16 or 32 bits):
// a counter at it has stopped counting (saturated) and the real count is at least that.
uint64_t IbCounterMax(std::string_view key);

}  // namespace railyard
