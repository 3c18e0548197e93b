#include "verify/verify.h"
#include "util/file.h"
#include "util/input_error.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/csv.h"
#include "util/natural_order.h"

namespace railyard {

std::string_view ToString(VerifyKind kind) {
  switch (kind) {
    case VerifyKind::kMissing:
      return "missing";
    case VerifyKind::kMiswired:
      return "miswired";
    case VerifyKind::kSwapped:
      return "swapped";
    case VerifyKind::kUnexpected:
      return "unexpected";
    case VerifyKind::kDegraded:
      return "degraded";
    case VerifyKind::kLabelMismatch:
      return "label-mismatch";
    case VerifyKind::kUnknownDevice:
      return "unknown-device";
    case VerifyKind::kUnresolvedName:
      return "unresolved-name";
    case VerifyKind::kUnverified:
      return "unverified";
  }
  return "unknown";
}

namespace {

// Port names are few (swp1..swp64, mlx5_0..7, "17"): intern them, so a port is two integers
// and the tables over hundreds of thousands of ports hash integers, not strings.
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class PortNames {
 public:
  uint32_t Id(std::string_view name) {
    auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    names_.emplace_back(name);
    ids_.emplace(names_.back(), static_cast<uint32_t>(names_.size() - 1));
    return static_cast<uint32_t>(names_.size() - 1);
  }
  const std::string& Name(uint32_t id) const { return names_[id]; }

 private:
  std::deque<std::string> names_;  // stable addresses: ids_ keys view into them
  std::unordered_map<std::string_view, uint32_t, StringHash, std::equal_to<>> ids_;
};

// A resolved port: plan device index and interned port name.
struct Port {
  uint32_t device = 0;
  uint32_t port = 0;
  bool operator==(const Port&) const = default;
  uint64_t key() const { return (uint64_t{device} << 24) | port; }
};

// Planned link end by port: per device, its ports sorted (compressed sparse rows). ~735,000 ports
// at 100,000 GPUs fit in 6 MB, and a switch's 64-128 ports share a few cache lines, so the
// lookups of one capture (all on its own device) stay in cache.
class PortIndex {
 public:
  void Build(size_t devices, const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>& entries) {  // device, port, end
    offset_.assign(devices + 1, 0);
    for (const auto& [device, port, end] : entries) ++offset_[device + 1];
    for (size_t d = 0; d < devices; ++d) offset_[d + 1] += offset_[d];
    std::vector<uint32_t> fill(offset_.begin(), offset_.end() - 1);
    slots_.resize(entries.size());
    for (const auto& [device, port, end] : entries) slots_[fill[device]++] = {port, end};
    for (size_t d = 0; d < devices; ++d) {
      // stable: where a port is planned twice, the first link listed keeps it
      std::stable_sort(slots_.begin() + offset_[d], slots_.begin() + offset_[d + 1],
                       [](const Slot& x, const Slot& y) { return x.port < y.port; });
    }
  }
  int64_t Find(uint32_t device, uint32_t port) const {
    if (device + 1 >= offset_.size()) return -1;
    auto first = slots_.begin() + offset_[device], last = slots_.begin() + offset_[device + 1];
    auto it = std::lower_bound(first, last, port, [](const Slot& x, uint32_t p) { return x.port < p; });
    return it != last && it->port == port ? static_cast<int64_t>(it->end) : -1;
  }

 private:
  struct Slot {
    uint32_t port;
    uint32_t end;  // link * 2 + (0 for its A end, 1 for its Z end)
  };
  std::vector<uint32_t> offset_;
  std::vector<Slot> slots_;
};

struct PairHash {
  size_t operator()(const std::pair<uint64_t, uint64_t>& p) const {
    return std::hash<uint64_t>{}(p.first * 0x9E3779B97F4A7C15ull ^ p.second);
  }
};

class Verifier {
 public:
  Verifier(const PlannedFabric& plan, const VerifyOptions& options)
      : plan_(plan), check_speed_(options.check_speed), options_(options) {
    for (std::string_view name : plan.port_names) plan_port_.push_back(ports_.Id(name));
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> ends;
    ends.reserve(plan.links.size() * 2);
    for (uint32_t i = 0; i < plan.links.size(); ++i) {
      const PlannedLink& l = plan.links[i];
      ends.emplace_back(l.a_device, plan_port_[l.a_port_id], i * 2);
      ends.emplace_back(l.z_device, plan_port_[l.z_port_id], i * 2 + 1);
    }
    port_link_.Build(plan.devices.size(), ends);
    ok_.assign(plan.links.size(), false);
    unresolved_.assign(plan.links.size(), false);
    actual_.resize(plan.links.size());
  }

  uint64_t PlaneBit(std::string_view plane) const {
    for (size_t i = 0; i < plan_.planes.size() && i < 64; ++i) {
      if (plan_.planes[i].name == plane) return uint64_t{1} << i;
    }
    return 0;
  }

  bool Judged(const PlannedLink& l) const { return options_.planes.empty() || options_.planes.count(l.plane) > 0; }

  // A host that names its port in a way the plan does not (LLDP's netdev "ens1f0np0" where the plan has
  // the RDMA device "mlx5_0"), on a cable whose other end is planned and whose planned far end is that
  // very host: a naming gap, not a miswire. Returns true (and notes it) in that case.
  // `host_at` and `at` are LinkAt(host) and LinkAt(other), looked up once per record by the caller.
  bool UnresolvedHostPort(const Port& host, int64_t host_at, int64_t at, const Adjacency& a) {
    if (host_at >= 0 || at < 0 || plan_.devices[host.device].role != "node") return false;
    uint32_t link = static_cast<uint32_t>(at / 2);
    Port far = End(link, 1 - static_cast<int>(at % 2));
    if (far.device != host.device) return false;
    unresolved_[link] = true;
    auto& names = unresolved_names_[host.device];
    std::string pair = fmt::format("{} (plan: {})", ports_.Name(host.port), ports_.Name(far.port));
    if (std::find(names.begin(), names.end(), pair) == names.end()) names.push_back(pair);
    if (unresolved_where_.count(host.device) == 0)
      unresolved_where_[host.device] = a.line ? fmt::format("{}:{}", a.file(), a.line) : a.file();
    return true;
  }

  std::string Name(const Port& p) const { return plan_.devices[p.device].name + ":" + ports_.Name(p.port); }
  Port MakePort(uint32_t device, std::string_view port) { return Port{device, ports_.Id(port)}; }
  Port End(uint32_t link, int end) {
    const PlannedLink& l = plan_.links[link];
    return end == 0 ? Port{l.a_device, plan_port_[l.a_port_id]} : Port{l.z_device, plan_port_[l.z_port_id]};
  }
  // Planned link and end at a port, or -1.
  int64_t LinkAt(const Port& p) const { return port_link_.Find(p.device, p.port); }

  // A finding about planned link `link`, located at its A end.
  VerifyFinding AboutLink(VerifyKind kind, Severity severity, uint32_t link) {
    const PlannedLink& l = plan_.links[link];
    VerifyFinding f;
    f.kind = kind;
    f.severity = severity;
    f.plane = l.plane;
    f.labels = {std::string(l.label)};
    f.planned_a = Name(End(link, 0));
    f.planned_b = Name(End(link, 1));
    Locate(f, End(link, 0));
    return f;
  }

  void Locate(VerifyFinding& f, const Port& p) const {
    const PlannedDevice& d = plan_.devices[p.device];
    f.row = d.row;
    f.position = d.position;
    f.u = d.u;
    f.sort_port = ports_.Name(p.port);
  }

  // lp, lq: LinkAt(p), LinkAt(q).
  void Observe(const Port& p, const Port& q, int64_t lp, int64_t lq, const Adjacency& a) {
    if (lp >= 0 && lq >= 0 && lp / 2 == lq / 2 && lp != lq) {
      // As planned (the common case): the link's flag dedupes the two ends' views.
      ok_[static_cast<size_t>(lp / 2)] = true;
      Degraded(static_cast<uint32_t>(lp / 2), a);
      return;
    }
    uint64_t k1 = p.key(), k2 = q.key();
    if (!seen_.insert(k1 < k2 ? std::pair{k1, k2} : std::pair{k2, k1}).second) return;  // the other end's view
    if (lp >= 0) actual_[static_cast<size_t>(lp / 2)].push_back({static_cast<int>(lp % 2), q});
    if (lq >= 0) actual_[static_cast<size_t>(lq / 2)].push_back({static_cast<int>(lq % 2), p});
    if (lp < 0 && lq < 0) unexpected_.push_back({p, q, a.file(), a.line, a.local_port});
  }

  // `link` was seen as planned, from either end.
  void Degraded(uint32_t link, const Adjacency& a) {
    if (a.width == 0 && a.could_be_gbps == 0) return;  // LLDP reports neither
    const PlannedLink& l = plan_.links[link];
    bool narrow = a.width < 4;
    bool slow = check_speed_ && a.speed_gbps > 0 && l.speed_gbps > 0 && a.speed_gbps < l.speed_gbps;
    bool could_be_faster = a.could_be_gbps > a.speed_gbps;  // iblinkinfo: both ends support more
    if ((!narrow && !slow && !could_be_faster) || degraded_.count(link)) return;
    degraded_.insert(link);
    VerifyFinding f = AboutLink(VerifyKind::kDegraded, Severity::kWarning, link);
    f.observed_a = f.planned_a;
    f.observed_b = f.planned_b;
    f.message = fmt::format(
        "{} is up at {}x and {} Gb/s; the plan has 4x and {} Gb/s{} ({}:{})", l.label, a.width, a.speed_gbps, l.speed_gbps,
        could_be_faster ? fmt::format(", and both ends could run {} Gb/s", a.could_be_gbps) : "", a.file(), a.line);
    f.fix = "reseat both ends; if it stays degraded, swap the cable, then the module; check the port with mlxlink";
    findings_.push_back(std::move(f));
  }

  // covered[device]: bit 1 = its Ethernet links were reported (LLDP). ib_planes[device]: the InfiniBand planes
  // (bit = plane index) a discovery that reached the device belongs to: each subnet is its own discovery.
  void Classify(const std::vector<uint8_t>& covered, const std::vector<uint64_t>& ib_planes, VerifyCounts& counts,
                std::map<std::string, VerifyCounts>& per_plane) {
    std::vector<bool> consumed(plan_.links.size(), false);
    for (uint32_t i = 0; i < plan_.links.size(); ++i) {
      const PlannedLink& l = plan_.links[i];
      if (!Judged(l)) {
        consumed[i] = true;  // another plane's: not judged, not counted
        continue;
      }
      VerifyCounts& pc = per_plane[std::string(l.plane)];
      ++counts.planned;
      ++pc.planned;
      if (ok_[i]) {
        ++counts.ok;
        ++pc.ok;
        continue;
      }
      if (!actual_[i].empty()) {
        ++counts.miswired;
        ++pc.miswired;
        continue;
      }
      bool seen_by_a_report = l.infiniband ? ((ib_planes[l.a_device] | ib_planes[l.z_device]) & PlaneBit(l.plane)) != 0
                                           : ((covered[l.a_device] | covered[l.z_device]) & 1) != 0;
      if (!unresolved_[i] && seen_by_a_report) {
        ++counts.missing;
        ++pc.missing;
        VerifyFinding f = AboutLink(VerifyKind::kMissing, Severity::kError, i);
        f.message = fmt::format("{} ({} to {}) is not seen from either end", l.label, f.planned_a, f.planned_b);
        f.fix = fmt::format(
            "check that cable {} is plugged in at both ends and the ports are up (module seated, "
            "no admin-down)",
            l.label);
        findings_.push_back(std::move(f));
      } else {
        ++counts.unverified;
        ++pc.unverified;
        if (options_.list_unverified && !unresolved_[i]) {
          VerifyFinding f = AboutLink(VerifyKind::kUnverified, Severity::kInfo, i);
          f.message = fmt::format("{} ({} to {}): no report given could see it ({} link)", l.label, f.planned_a, f.planned_b,
                                  l.infiniband ? "an InfiniBand link: give ibnetdiscover or iblinkinfo"
                                               : "an Ethernet link: give LLDP from either end");
          f.fix = "collect the report that covers it";
          findings_.push_back(std::move(f));
        }
      }
    }
    counts.degraded = degraded_.size();
    for (uint32_t link : degraded_) ++per_plane[std::string(plan_.links[link].plane)].degraded;
    for (const auto& [device, pairs] : unresolved_names_) {
      VerifyFinding f;
      f.kind = VerifyKind::kUnresolvedName;
      f.severity = Severity::kWarning;
      f.observed_a = plan_.devices[device].name;
      f.message = fmt::format(
          "{} names its ports {} where the plan has its RDMA devices: those cables are unverified, not "
          "judged ({})",
          plan_.devices[device].name, fmt::join(pairs, ", "), unresolved_where_[device]);
      f.fix = fmt::format(
          "give ibdev2netdev for {} (--ibdev2netdev DIR with {}.txt), or --names rows "
          "'{},<netdev>,{},<rdma device>'",
          plan_.devices[device].name, plan_.devices[device].name, plan_.devices[device].name, plan_.devices[device].name);
      Locate(f, Port{device, 0});
      f.sort_port.clear();
      findings_.push_back(std::move(f));
    }
    // Swaps: L = (A1, Z1) and M = (A2, Z2) observed as A1-Z2 and A2-Z1.
    for (uint32_t i = 0; i < plan_.links.size(); ++i) {
      if (actual_[i].empty() || consumed[i]) continue;
      bool swapped = false;
      for (const auto& [end, far] : actual_[i]) {
        int64_t other = LinkAt(far);
        if (other < 0) continue;
        uint32_t m = static_cast<uint32_t>(other / 2);
        if (m == i || consumed[m]) continue;
        int far_end = static_cast<int>(other % 2);
        // My `end` reaches M's `far_end`; does M's opposite end reach my opposite end?
        Port mine_other = End(i, 1 - end);
        for (const auto& [end2, far2] : actual_[m]) {
          if (end2 == 1 - far_end && far2 == mine_other) {
            Swapped(i, end, m, far_end);
            consumed[i] = consumed[m] = true;
            swapped = true;
            break;
          }
        }
        if (swapped) break;
      }
      if (!swapped) Miswired(i);
    }
    for (const auto& u : unexpected_) {
      const std::string& plane_a = plan_.devices[u.a.device].plane;
      const std::string& plane_b = plan_.devices[u.b.device].plane;
      if (!options_.planes.empty() && !options_.planes.count(plane_a) && !options_.planes.count(plane_b)) continue;
      ++counts.unexpected;
      VerifyFinding f;
      f.kind = VerifyKind::kUnexpected;
      f.severity = Severity::kWarning;
      f.observed_a = std::min(Name(u.a), Name(u.b));  // either end may have reported it: fix the order
      f.observed_b = std::max(Name(u.a), Name(u.b));
      f.plane = plan_.devices[u.a.device].plane;
      f.message = fmt::format(
          "a cable joins {} and {}, which the plan leaves unused ({})", f.observed_a, f.observed_b,
          u.line > 0 ? fmt::format("{}:{}", u.source, u.line) : fmt::format("{}, the entry of {}", u.source, u.reported_port));
      f.fix = "remove the cable, or add the link to the plan";
      Locate(f, u.a);
      findings_.push_back(std::move(f));
    }
  }

  // The planned label at a port, or "".
  std::string LabelAt(const Port& p) const {
    int64_t at = LinkAt(p);
    return at < 0 ? std::string() : std::string(plan_.links[static_cast<size_t>(at / 2)].label);
  }

  std::vector<VerifyFinding>& findings() { return findings_; }
  const PlannedFabric& plan() const { return plan_; }

 private:
  struct Actual {
    int end;   // which end of the planned link saw it
    Port far;  // what it reaches instead
  };
  struct Unexpected {
    Port a, b;
    std::string source;
    int line;
    std::string reported_port;  // the reporting device's port: where in a JSON report to look
  };

  void Swapped(uint32_t l, int end_l, uint32_t m, int end_m) {
    // Planned A1-Z1 (l) and A2-Z2 (m); observed A1-Z2 and A2-Z1, where A1 is l's `end_l` and
    // Z2 is m's `end_m`. Exchanging the plugs in Z1 and Z2 (or in A1 and A2) fixes both; say
    // the pair that sits on one device, where the technician can reach both at once.
    const PlannedLink& a = plan_.links[l];
    const PlannedLink& b = plan_.links[m];
    Port a1 = End(l, end_l), z1 = End(l, 1 - end_l);
    Port a2 = End(m, 1 - end_m), z2 = End(m, end_m);
    bool at_z = z1.device == z2.device || a1.device != a2.device;
    Port x = at_z ? z1 : a1, y = at_z ? z2 : a2;
    VerifyFinding f;
    f.kind = VerifyKind::kSwapped;
    f.severity = Severity::kError;
    f.plane = a.plane;
    f.labels = {std::string(a.label), std::string(b.label)};
    // Pairs are printed in the plan's A-to-Z order: each cable's A end, and what it reaches.
    auto pair = [&](uint32_t link) { return Name(End(link, 0)) + " - " + Name(End(link, 1)); };
    auto reach = [&](const Port& p) { return p == a1 ? z2 : p == z1 ? a2 : p == a2 ? z1 : a1; };
    f.planned_a = pair(l);
    f.planned_b = pair(m);
    f.observed_a = Name(End(l, 0)) + " - " + Name(reach(End(l, 0)));
    f.observed_b = Name(End(m, 0)) + " - " + Name(reach(End(m, 0)));
    f.message = fmt::format("cables {} and {} are swapped: {} reaches {} and {} reaches {}", a.label, b.label, Name(a1), Name(z2),
                            Name(a2), Name(z1));
    f.fix = fmt::format("exchange the plugs in {} and {}", Name(x), Name(y));
    Locate(f, x);
    findings_.push_back(std::move(f));
  }

  void Miswired(uint32_t i) {
    const PlannedLink& l = plan_.links[i];
    for (const auto& [end, far] : actual_[i]) {
      Port here = End(i, end), want = End(i, 1 - end);
      VerifyFinding f = AboutLink(VerifyKind::kMiswired, Severity::kError, i);
      f.planned_a = Name(here);
      f.planned_b = Name(want);
      f.observed_a = Name(here);
      f.observed_b = Name(far);
      std::string rail;
      const PlannedDevice& far_device = plan_.devices[far.device];
      if (l.rail > 0 && far_device.rail > 0 && far_device.rail != l.rail) {
        rail = fmt::format(" (cross-rail: a rail-{} port on a rail-{} leaf)", l.rail, far_device.rail);
      }
      f.message = fmt::format("{} from {} should reach {} but reaches {}{}", l.label, Name(here), Name(want), Name(far), rail);
      f.fix = fmt::format("move the end in {} to {}", Name(far), Name(want));
      Locate(f, here);
      findings_.push_back(std::move(f));
    }
  }

  const PlannedFabric& plan_;
  const bool check_speed_;
  const VerifyOptions& options_;
  PortNames ports_;
  std::vector<bool> unresolved_;
  std::map<uint32_t, std::vector<std::string>> unresolved_names_;  // host device -> "netdev (plan: rdma)"
  std::map<uint32_t, std::string> unresolved_where_;
  PortIndex port_link_;
  std::vector<uint32_t> plan_port_;  // PlannedFabric::port_names row -> interned port
  std::unordered_set<std::pair<uint64_t, uint64_t>, PairHash> seen_;
  std::vector<bool> ok_;
  std::vector<std::vector<Actual>> actual_;
  std::vector<Unexpected> unexpected_;
  std::set<uint32_t> degraded_;
  std::vector<VerifyFinding> findings_;
};

}  // namespace

std::vector<LabelScan> LoadLabelAudit(const std::string& path) {
  CsvTable t = ParseCsv(ReadWholeFile(path), ShownPath(path));
  int device = t.Column("device"), port = t.Column("port"), label = t.Column("label");
  if (device < 0 || port < 0 || label < 0) {
    throw InputError(ShownPath(path), 1, 0, "", "the header must name device, port and label columns");
  }
  std::vector<LabelScan> scans;
  for (const CsvRow& row : t.rows) {
    scans.push_back({row.fields[static_cast<size_t>(device)], row.fields[static_cast<size_t>(port)],
                     row.fields[static_cast<size_t>(label)], path, row.line});
  }
  return scans;
}

VerifyResult Verify(const PlannedFabric& plan, const NameResolver& names, const std::vector<Adjacency>& observed,
                    const std::set<std::string>& reporting_devices, const std::vector<LabelScan>& labels,
                    const VerifyOptions& options) {
  return Verify(plan, names, std::vector<ObservedBatch>{ObservedBatch{std::span<const Adjacency>(observed), true}},
                reporting_devices, labels, options);
}

struct VerifySession::State {
  State(const PlannedFabric& p, const NameResolver& n, const VerifyOptions& o)
      : plan(p), names(n), options(o), v(p, o), covered(p.devices.size(), 0), ib_planes(p.devices.size(), 0) {
    device_cache.reserve(p.devices.size());
  }
  const PlannedFabric& plan;
  const NameResolver& names;
  const VerifyOptions& options;
  VerifyResult result;
  Verifier v;
  std::vector<uint8_t> covered;
  std::vector<uint64_t> ib_planes;
  std::map<std::string, std::pair<int, std::string>> unknown;  // name -> (count, first place)
  // Most names repeat (a switch reports 64 ports): resolve each distinct plain name once. Keys are
  // owned: a batch's records are freed after it is observed.
  std::unordered_map<std::string, std::optional<uint32_t>, StringHash, std::equal_to<>> device_cache;
  const std::string* last_device = nullptr;  // a key of device_cache (node keys never move)
  std::optional<uint32_t> last_resolved;

  // Names with a port alias, or IB CA descriptions ("host mlx5_3"), take the full path every time.
  std::optional<Port> Resolve(const std::string& device, const std::string& port, const std::string& guid) {
    // A GUID mapped in --names names one switch even where many share a factory description.
    if (!guid.empty() && names.HasGuidAliases()) {
      if (auto d = names.ResolveGuid(guid)) return v.MakePort(*d, port);
    }
    if (names.HasPortAliases() || device.find(' ') != std::string::npos) {
      auto r = names.Resolve(device, port);
      if (!r) return std::nullopt;
      return v.MakePort(r->device, r->port);
    }
    // A capture names its own device on every record: the last name answers most lookups.
    if (last_device == nullptr || *last_device != device) {
      auto it = device_cache.find(std::string_view(device));
      if (it == device_cache.end()) it = device_cache.emplace(device, names.ResolveDevice(device)).first;
      last_device = &it->first;
      last_resolved = it->second;
    }
    if (!last_resolved) return std::nullopt;
    if (port.size() > 2 && port[0] == 'E' && port[1] == 't' && std::isdigit(static_cast<unsigned char>(port[2]))) {
      return v.MakePort(*last_resolved, CanonicalPort(port));
    }
    return v.MakePort(*last_resolved, names.HostPort(*last_resolved, port));
  }
};

VerifySession::VerifySession(const PlannedFabric& plan, const NameResolver& names, const VerifyOptions& options)
    : state_(std::make_unique<State>(plan, names, options)) {}

VerifySession::~VerifySession() = default;

void VerifySession::Observe(const ObservedBatch& batch) {
  State& s = *state_;
  const PlannedFabric& plan = s.plan;
  Verifier& v = s.v;
  // An InfiniBand discovery sees one subnet: the planes of the switches it reached.
  uint64_t batch_planes = 0;
  std::vector<uint32_t> reached;
  bool ib = !batch.adjacencies.empty() && batch.adjacencies.front().medium != Medium::kEthernet;
  for (const Adjacency& a : batch.adjacencies) {
    ++s.result.counts.observations;
    auto p = s.Resolve(a.local_device, a.local_port, a.local_guid);
    auto q = s.Resolve(a.remote_device, a.remote_port, a.remote_guid);
    // A device that reports neighbours over LLDP covers its Ethernet ports.
    if (p && batch.covers && a.medium != Medium::kInfiniband) s.covered[p->device] |= 1;
    if (ib) {
      for (const auto& end : {p, q}) {
        if (!end) continue;
        reached.push_back(end->device);
        if (plan.devices[end->device].role == "switch") batch_planes |= v.PlaneBit(plan.devices[end->device].plane);
      }
    }
    for (auto [resolved, name] : {std::pair{p.has_value(), &a.local_device}, std::pair{q.has_value(), &a.remote_device}}) {
      if (resolved) continue;
      auto& entry = s.unknown[*name];
      if (entry.first++ == 0) entry.second = a.line ? fmt::format("{}:{}", a.file(), a.line) : a.file();
    }
    if (!p || !q) continue;
    int64_t lp = v.LinkAt(*p), lq = v.LinkAt(*q);
    if (v.UnresolvedHostPort(*p, lp, lq, a) || v.UnresolvedHostPort(*q, lq, lp, a)) continue;
    v.Observe(*p, *q, lp, lq, a);
  }
  if (ib && batch.covers) {
    for (uint32_t d : reached) s.ib_planes[d] |= batch_planes;
  }
}

VerifyResult Verify(const PlannedFabric& plan, const NameResolver& names, const std::vector<ObservedBatch>& batches,
                    const std::set<std::string>& reporting_devices, const std::vector<LabelScan>& labels,
                    const VerifyOptions& options) {
  VerifySession session(plan, names, options);
  for (const ObservedBatch& batch : batches) session.Observe(batch);
  return session.Finish(reporting_devices, labels);
}

VerifyResult VerifySession::Finish(const std::set<std::string>& reporting_devices, const std::vector<LabelScan>& labels) {
  State& s = *state_;
  const PlannedFabric& plan = s.plan;
  const NameResolver& names = s.names;
  const VerifyOptions& options = s.options;
  Verifier& v = s.v;
  VerifyResult& result = s.result;
  std::vector<uint8_t>& covered = s.covered;
  for (const std::string& name : reporting_devices) {
    if (auto d = names.ResolveDevice(name)) covered[*d] |= 1;  // an LLDP report: its Ethernet ports
  }
  std::vector<uint64_t>& ib_planes = s.ib_planes;
  auto& unknown = s.unknown;
  v.Classify(covered, ib_planes, result.counts, result.per_plane);
  std::vector<VerifyFinding>& findings = v.findings();
  for (const auto& [name, where] : unknown) {
    VerifyFinding f;
    f.kind = VerifyKind::kUnknownDevice;
    f.severity = Severity::kWarning;
    f.observed_a = name;
    f.message = fmt::format("'{}' is not a device of the plan ({} observation(s), first at {})", name, where.first, where.second);
    f.fix = "map it with --names (observed,plan), or add it to the plan";
    findings.push_back(std::move(f));
  }
  for (const LabelScan& scan : labels) {
    auto at = names.Resolve(scan.device, scan.port);
    std::string planned = at ? v.LabelAt(v.MakePort(at->device, at->port)) : std::string();
    if (planned == scan.label) continue;
    VerifyFinding f;
    f.kind = VerifyKind::kLabelMismatch;
    f.severity = Severity::kWarning;
    f.labels = {scan.label};
    f.observed_a = scan.device + ":" + scan.port;
    f.message = planned.empty() ? fmt::format("label {} scanned at {}, where the plan has no cable ({}:{})", scan.label,
                                              f.observed_a, scan.source, scan.line)
                                : fmt::format("label {} scanned at {}, where the plan has {} ({}:{})", scan.label, f.observed_a,
                                              planned, scan.source, scan.line);
    f.fix = planned.empty() ? "find where this cable belongs" : fmt::format("re-label the end as {}, or re-patch it", planned);
    if (at) {
      const PlannedDevice& d = plan.devices[at->device];
      f.row = d.row;
      f.position = d.position;
      f.u = d.u;
      f.plane = d.plane;
      f.sort_port = at->port;
    }
    findings.push_back(std::move(f));
  }
  // Ports in the order a technician counts them: swp5 before swp16 (digit runs compare as numbers).
  auto natural_less = [](const std::string& x, const std::string& y) { return NaturalLess(x, y); };
  std::stable_sort(findings.begin(), findings.end(), [&](const VerifyFinding& a, const VerifyFinding& b) {
    if (std::tie(a.plane, a.row, a.position, a.u) != std::tie(b.plane, b.row, b.position, b.u)) {
      return std::tie(a.plane, a.row, a.position, a.u) < std::tie(b.plane, b.row, b.position, b.u);
    }
    return natural_less(a.sort_port, b.sort_port);
  });
  if (!options.planes.empty()) {
    // Another plane's link findings (degraded) are not this run's to report.
    std::erase_if(findings, [&](const VerifyFinding& f) {
      return !f.plane.empty() && !options.planes.count(f.plane) &&
             (f.kind == VerifyKind::kDegraded || f.kind == VerifyKind::kMissing || f.kind == VerifyKind::kMiswired ||
              f.kind == VerifyKind::kSwapped);
    });
  }
  result.findings = std::move(findings);
  return std::move(result);
}

}  // namespace railyard
