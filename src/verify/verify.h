// `railyard verify`: the cabling as built against the plan.
//
// Every planned link is classified once: ok, missing (a device on it reported its neighbours
// and this cable was not among them), miswired (an end reaches the wrong port), or unverified
// (no report covers either end). Two miswired links whose ends were exchanged are one
// `swapped` finding naming both cables and the two plugs to exchange. Observed links between
// ports the plan does not use are `unexpected`; links that came up slower or narrower than
// planned are `degraded`; scanned labels that disagree with the plan are `label-mismatch`;
// names no rule maps to the plan are `unknown-device`. Findings are sorted by location
// (plane, row, rack, U, port) so a technician walks the aisle once.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "model/finding.h"
#include "parse/observation.h"
#include "planfile/names.h"
#include "planfile/planned.h"

namespace railyard {

enum class VerifyKind {
  kMissing,
  kMiswired,
  kSwapped,
  kUnexpected,
  kDegraded,
  kLabelMismatch,
  kUnknownDevice,
  kUnresolvedName,  // a host names its port in a way the plan does not (netdev vs RDMA device): not a miswire
  kUnverified,      // no report could see this link (listed with VerifyOptions::list_unverified)
};
std::string_view ToString(VerifyKind kind);

struct VerifyFinding {
  VerifyKind kind = VerifyKind::kMissing;
  Severity severity = Severity::kError;
  std::string plane;
  std::vector<std::string> labels;   // the planned cables concerned
  std::string planned_a, planned_b;  // "device:port"
  std::string observed_a, observed_b;
  std::string message;
  std::string fix;
  // Where to walk to: row, rack position, U, port of the first end.
  int row = 0, position = 0, u = 0;
  std::string sort_port;
};

struct VerifyCounts {
  uint64_t planned = 0;
  uint64_t ok = 0;
  uint64_t missing = 0;
  uint64_t miswired = 0;
  uint64_t degraded = 0;
  uint64_t unverified = 0;
  uint64_t unexpected = 0;
  uint64_t observations = 0;
};

struct VerifyResult {
  VerifyCounts counts;
  std::map<std::string, VerifyCounts> per_plane;  // planned, ok, missing, miswired, degraded, unverified per plane
  std::vector<VerifyFinding> findings;
};

struct LabelScan {
  std::string device;
  std::string port;
  std::string label;
  std::string source;
  int line = 0;
};

// Reads a label audit CSV with a header naming device, port and label columns.
// Throws InputError("<path>:<line>: ...").
std::vector<LabelScan> LoadLabelAudit(const std::string& path);

struct VerifyOptions {
  // Compare reported link speeds with the plan. Off for simulators: ibsim reports every link
  // at SDR whatever the topology says. Width is always compared.
  bool check_speed = true;
  std::set<std::string, std::less<>> planes;  // judge only these planes' links (empty: all)
  bool list_unverified = false;               // one info finding per link no report could see
};

// One report's adjacencies. A report that could not be read whole (a parser warning) does not
// vouch for what it does not show: its devices are not taken as covered, so a link it would have
// shown is `unverified`, never `missing`.
struct ObservedBatch {
  std::span<const Adjacency> adjacencies;
  bool covers = true;
};

// Coverage by visibility: a device whose LLDP report was given (`reporting_devices`, or the local end
// of an LLDP adjacency) covers its links on Ethernet planes; a device an InfiniBand discovery reached
// covers its links on InfiniBand planes. A planned link no covering report could see is `unverified`
// (counted per plane), never `missing`.
VerifyResult Verify(const PlannedFabric& plan, const NameResolver& names, const std::vector<Adjacency>& observed,
                    const std::set<std::string>& reporting_devices, const std::vector<LabelScan>& labels = {},
                    const VerifyOptions& options = {});
// The same over observations in batches (one per capture file), so callers need not gather
// hundreds of thousands of records into one vector first.
VerifyResult Verify(const PlannedFabric& plan, const NameResolver& names, const std::vector<ObservedBatch>& observed,
                    const std::set<std::string>& reporting_devices, const std::vector<LabelScan>& labels = {},
                    const VerifyOptions& options = {});

// Verification fed one capture at a time: each batch is judged as it arrives and may be freed right
// after, so a 100,000-GPU fabric's ~600,000 neighbour records are never all held at once. Batches
// must come in a fixed order for a reproducible report (which file an unexpected cable is cited
// from). The plan, names and options must outlive the session.
class VerifySession {
 public:
  VerifySession(const PlannedFabric& plan, const NameResolver& names, const VerifyOptions& options);
  ~VerifySession();
  VerifySession(const VerifySession&) = delete;
  VerifySession& operator=(const VerifySession&) = delete;

  void Observe(const ObservedBatch& batch);
  VerifyResult Finish(const std::set<std::string>& reporting_devices, const std::vector<LabelScan>& labels);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace railyard
