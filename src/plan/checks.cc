#include "plan/checks.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/text.h"
#include "util/versions.h"

namespace railyard {
namespace {

Finding Make(const char* rule, Severity severity, const PlaneSpec& ps, const std::string& file) {
  Finding f;
  f.rule = rule;
  f.severity = severity;
  f.object = fmt::format("plane {}", ps.name);
  f.evidence.emplace_back("spec", fmt::format("{}:{}", file, ps.mark.line));
  return f;
}

std::string Examples(const std::vector<std::string>& names, size_t total) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  if (total > names.size()) out += fmt::format(" and {} more", total - names.size());
  return out;
}

void CheckNic(const Spec& spec, const Catalog& catalog, const PlaneSpec& ps, std::vector<Finding>& out) {
  if (ps.nic_index == kNoItem) return;
  const NicModel& nic = catalog.nics()[ps.nic_index];
  if (nic.max_speed < ps.speed) {
    Finding f = Make("nic-speed-unsupported", Severity::kError, ps, spec.file);
    f.evidence.insert(f.evidence.end(),
                      {{"nic", nic.opn}, {"nic_max_speed", FormatSpeed(nic.max_speed)}, {"plane_speed", FormatSpeed(ps.speed)}});
    f.message =
        fmt::format("{} runs at most {} per port; the plane asks {}", nic.opn, FormatSpeed(nic.max_speed), FormatSpeed(ps.speed));
    f.fix = "choose a NIC that runs the plane speed, or lower the plane speed";
    out.push_back(std::move(f));
  }
  // PCIe: the slot generation and width the card trains at is the lesser of slot and card.
  int gen = std::min(spec.nodes.pcie_gen, nic.pcie_gen);
  int width = std::min(spec.nodes.pcie_width, nic.pcie_width);
  uint32_t ports_on_card = std::min(ps.ports_per_node, nic.ports);
  double needed = double(ports_on_card) * std::min(ps.speed, nic.max_speed);
  double available = PcieGbps(gen, width);
  if (needed > available) {
    Finding f =
        Make("nic-pcie-below-line-rate", ps.role == PlaneRole::kCompute ? Severity::kError : Severity::kWarning, ps, spec.file);
    f.evidence.insert(f.evidence.end(), {{"nic", nic.opn},
                                         {"ports_per_card", std::to_string(ports_on_card)},
                                         {"line_rate_gbps", fmt::format("{:.0f}", needed)},
                                         {"slot", fmt::format("Gen{} x{}", spec.nodes.pcie_gen, spec.nodes.pcie_width)},
                                         {"card", fmt::format("Gen{} x{}", nic.pcie_gen, nic.pcie_width)},
                                         {"pcie_usable_gbps", fmt::format("{:.1f}", available)}});
    f.message = fmt::format(
        "{} in a Gen{} x{} link carries about {:.0f} Gb/s per direction, below the {:.0f} Gb/s "
        "its {} port(s) run at; the NIC cannot reach line rate",
        nic.opn, gen, width, available, needed, ports_on_card);
    int want_gen = gen;
    while (want_gen < 6 && PcieGbps(want_gen, width) < needed) ++want_gen;
    f.fix = PcieGbps(want_gen, width) >= needed && want_gen <= nic.pcie_gen
                ? fmt::format("put the NIC in a Gen{} x{} slot (nodes.pcie: gen{})", want_gen, width, want_gen)
                : "use a faster slot or a lower plane speed";
    out.push_back(std::move(f));
  }
}

void CheckFabricKinds(const Spec& spec, const Catalog& catalog, const PlaneSpec& ps, std::vector<Finding>& out) {
  const bool ib = ps.kind == FabricKind::kInfiniband;
  std::vector<std::string> wrong;
  for (uint16_t model : {ps.leaf_switch, ps.spine_switch, ps.core_switch}) {
    if (model == kNoItem) continue;
    const SwitchModel& m = catalog.switches()[model];
    if ((m.fabric == FabricKind::kInfiniband) != ib) wrong.push_back(fmt::format("{} ({})", m.model, ToString(m.fabric)));
  }
  if (ps.nic_index != kNoItem) {
    const NicModel& nic = catalog.nics()[ps.nic_index];
    if (ib ? !nic.SupportsInfiniband() : !nic.SupportsEthernet()) {
      wrong.push_back(fmt::format("{} ({})", nic.opn, nic.link_types == "eth" ? "Ethernet only" : "InfiniBand only"));
    }
  }
  if (wrong.empty()) return;
  Finding f = Make("plane-mixes-ib-and-ethernet", Severity::kError, ps, spec.file);
  f.evidence.emplace_back("plane_kind", std::string(ToString(ps.kind)));
  f.evidence.emplace_back("mismatched", Examples(wrong, wrong.size()));
  f.message = fmt::format("plane {} is {} but {} is not", ps.name, ToString(ps.kind), Examples(wrong, wrong.size()));
  f.fix = ib ? "use InfiniBand switches (Quantum) and VPI or IB NICs on this plane"
             : "use Ethernet switches (Spectrum) and Ethernet-capable NICs on this plane";
  out.push_back(std::move(f));
}

void CheckOversubscription(const Spec& spec, const PlaneSpec& ps, const Plane& plane, std::vector<Finding>& out) {
  // Uplinks beyond what 1:1 needs (a leaf whose separate uplink group outruns its ports down):
  // optics and spine ports bought for bandwidth nothing below can send.
  for (size_t t = 0; t + 1 < plane.tiers && t < 2; ++t) {
    if (plane.oversubscription[t] > 0 && plane.oversubscription[t] < 1.0 - 1e-9) {
      const TierShape& tier = plane.tier[t];
      Finding f = Make("uplinks-beyond-need", Severity::kInfo, ps, spec.file);
      f.evidence.emplace_back("tier", t == 0 ? "leaf" : "spine");
      f.evidence.emplace_back("oversubscription", FormatRatio(plane.oversubscription[t]));
      f.evidence.emplace_back("down", fmt::format("{} x {}", tier.down_ports, FormatSpeed(tier.down_speed)));
      f.evidence.emplace_back("up", fmt::format("{} x {}", tier.up_ports, FormatSpeed(tier.up_speed)));
      f.message = fmt::format(
          "each {} of plane {} has {} x {} up for {} x {} down ({} as built): more uplink bandwidth "
          "than 1:1 needs",
          t == 0 ? "leaf" : "spine", ps.name, tier.up_ports, FormatSpeed(tier.up_speed), tier.down_ports,
          FormatSpeed(tier.down_speed), FormatRatio(plane.oversubscription[t]));
      f.fix =
          "fine where the uplink group is fixed by the switch (SN2201's 100G ports); otherwise fewer uplinks or a "
          "higher oversubscription: save the optics and spine ports";
      out.push_back(std::move(f));
    }
  }
  if (ps.role != PlaneRole::kCompute) return;
  for (size_t t = 0; t + 1 < plane.tiers && t < 2; ++t) {
    if (plane.oversubscription[t] > 1.0 + 1e-9) {
      Finding f = Make("oversubscribed-compute-plane", Severity::kWarning, ps, spec.file);
      f.evidence.emplace_back("tier", t == 0 ? "leaf" : "spine");
      f.evidence.emplace_back("oversubscription", FormatRatio(plane.oversubscription[t]));
      f.message = fmt::format(
          "the {} tier of compute plane {} is oversubscribed {}; collective operations "
          "(all-reduce, all-to-all) across leaves slow down by up to that factor",
          t == 0 ? "leaf" : "spine", ps.name, FormatRatio(plane.oversubscription[t]));
      f.fix = "plan training compute planes at 1:1 (oversubscription: \"1:1\")";
      out.push_back(std::move(f));
    }
  }
}

void CheckMixedTraffic(const Spec& spec, const PlaneSpec& ps, std::vector<Finding>& out) {
  std::set<PlaneRole> classes(ps.carries.begin(), ps.carries.end());
  if (classes.size() < 2) return;
  Finding f = Make("plane-carries-mixed-traffic", Severity::kWarning, ps, spec.file);
  std::string list;
  for (PlaneRole r : classes) list += (list.empty() ? "" : ", ") + std::string(ToString(r));
  f.evidence.emplace_back("carries", list);
  f.message = fmt::format(
      "plane {} carries {}; storage and management bursts then queue behind (or in front of) "
      "GPU collectives, and a fault in one takes out the others",
      ps.name, list);
  f.fix = "give compute, storage and management their own planes";
  out.push_back(std::move(f));
}

void CheckLinks(const Spec& spec, const Catalog& catalog, const PlaneSpec& ps, const Plane& plane, const Fabric& fabric,
                std::vector<Finding>& out) {
  // Nodes whose every port on the plane lands on one switch: one failure isolates the node.
  std::map<uint32_t, std::set<uint32_t>> switches_of;
  std::vector<std::string> unreachable;
  size_t unreachable_count = 0;
  double longest = 0;
  for (uint32_t i = plane.first_link; i < plane.first_link + plane.link_count; ++i) {
    const Link& link = fabric.links[i];
    if (link.level == 0 && fabric.devices[link.a.device].role != DeviceRole::kSwitch) {
      switches_of[link.a.device].insert(link.z.device);
    }
    if (link.media == Media::kNone) {
      ++unreachable_count;
      longest = std::max<double>(longest, link.route_m);
      if (unreachable.size() < 3) unreachable.push_back(CableLabel(fabric, i));
    }
  }
  if (plane.ports_per_node >= 2) {
    std::vector<std::string> examples;
    size_t count = 0;
    for (const auto& [device, switches] : switches_of) {
      if (switches.size() == 1 && fabric.devices[device].role == DeviceRole::kNode) {
        if (examples.size() < 3) examples.push_back(fabric.devices[device].name);
        ++count;
      }
    }
    if (count > 0) {
      Finding f = Make("node-single-switch", Severity::kWarning, ps, spec.file);
      f.evidence.emplace_back("nodes", std::to_string(count));
      f.evidence.emplace_back("examples", Examples(examples, count));
      f.evidence.emplace_back("ports_per_node", std::to_string(plane.ports_per_node));
      f.message = fmt::format(
          "{} node(s) have all {} ports of plane {} on one switch ({}); that switch failing "
          "cuts them off",
          count, plane.ports_per_node, ps.name, Examples(examples, count));
      f.fix = plane.tiers <= 1 && plane.tier[0].count <= 1
                  ? "give the plane `redundancy: leaf-pair` (two leaves, each node's ports alternating between them, "
                    "peer links cabled), or `rail_optimized: true` (a leaf per rail)"
                  : "set `rail_optimized: true` (each of a node's ports on its rail's leaf), or `redundancy: leaf-pair`";
      out.push_back(std::move(f));
    }
  }
  if (unreachable_count > 0) {
    Finding f = Make("cable-beyond-reach", Severity::kError, ps, spec.file);
    f.evidence.emplace_back("links", std::to_string(unreachable_count));
    f.evidence.emplace_back("longest_route_m", fmt::format("{:.1f}", longest));
    f.evidence.emplace_back("examples", Examples(unreachable, unreachable_count));
    f.message = fmt::format(
        "{} link(s) of plane {} have no cable or optic in the catalog for their speed, cages and "
        "length (longest route {:.1f} m)",
        unreachable_count, ps.name, longest);
    f.fix = "move the network racks closer (layout.network_racks), or add the needed part to data/catalog/cables.csv";
    out.push_back(std::move(f));
  }
  // Parts whose facts are weakly sourced: the BOM is only as good as they are.
  std::set<std::string> weak;
  for (uint32_t i = plane.first_link; i < plane.first_link + plane.link_count; ++i) {
    const Link& link = fabric.links[i];
    for (uint16_t item : {link.cable, link.xcvr_a, link.xcvr_z}) {
      if (item != kNoItem && catalog.cables()[item].confidence.starts_with("L")) weak.insert(catalog.cables()[item].opn);
    }
  }
  if (!weak.empty()) {
    Finding f = Make("catalog-low-confidence", Severity::kInfo, ps, spec.file);
    std::vector<std::string> list(weak.begin(), weak.end());
    f.evidence.emplace_back("parts", Examples(list, list.size()));
    f.message =
        fmt::format("plane {} uses parts whose catalog facts are weakly sourced: {}", ps.name, Examples(list, list.size()));
    f.fix = "confirm the OPN and reach with the vendor before ordering";
    out.push_back(std::move(f));
  }
}

void CheckTopology(const Spec& spec, const Catalog& catalog, const PlaneSpec& ps, const Plane& plane, const Fabric& fabric,
                   std::vector<Finding>& out) {
  if (plane.tiers >= 2 && plane.tier[1].count == 1) {
    Finding f = Make("single-spine", Severity::kWarning, ps, spec.file);
    f.evidence.emplace_back("spines", "1");
    f.message =
        fmt::format("plane {} has one spine: it carries all traffic between leaves, and losing it splits the plane", ps.name);
    f.fix = "use at least two spines";
    out.push_back(std::move(f));
  }
  // Every switch's ports in use must exist on the model (a guard on the planner itself).
  for (size_t t = 0; t < plane.tiers && t < 3; ++t) {
    const TierShape& shape = plane.tier[t];
    const SwitchModel& m = catalog.switches()[shape.model];
    uint32_t capacity = m.PortsAt(shape.down_speed) + (m.uplink_ports.empty() ? 0 : m.UplinkPortsAt(shape.up_speed));
    if (shape.down_ports + shape.up_ports > capacity || shape.used_down > shape.down_ports) {
      Finding f = Make("switch-ports-exhausted", Severity::kError, ps, spec.file);
      f.evidence = {{"tier", std::string(ToString(static_cast<Tier>(t + 1)))},
                    {"model", m.model},
                    {"ports_planned", std::to_string(shape.down_ports + shape.up_ports)},
                    {"ports_available", std::to_string(capacity)}};
      f.message = fmt::format("{} {} switches need {} ports; {} has {}", ps.name, ToString(static_cast<Tier>(t + 1)),
                              shape.down_ports + shape.up_ports, m.model, capacity);
      f.fix = "choose a switch with more ports";
      out.push_back(std::move(f));
    }
    if (!m.rack_units) {
      Finding f = Make("switch-facts-missing", Severity::kInfo, ps, spec.file);
      f.evidence = {{"model", m.model}, {"assumed_rack_units", "2"}};
      f.message = fmt::format("the catalog does not know the height of {}; racks were planned with 2U", m.model);
      f.fix = "add rack_units for the model to data/catalog/switches.csv";
      out.push_back(std::move(f));
    }
  }
  // A tier whose switches use few of their down ports: uniform striping forced extra switches.
  for (size_t t = 1; t < plane.tiers && t < 3; ++t) {
    const TierShape& shape = plane.tier[t];
    if (shape.down_ports == 0 || shape.used_down * 4 >= shape.down_ports * 3) continue;
    Finding f = Make("tier-underused", Severity::kInfo, ps, spec.file);
    f.evidence = {{"tier", std::string(ToString(static_cast<Tier>(t + 1)))},
                  {"switches", std::to_string(shape.count)},
                  {"down_ports_used", std::to_string(shape.used_down)},
                  {"down_ports", std::to_string(shape.down_ports)}};
    f.message = fmt::format(
        "{} {} switches use {} of {} down ports: every switch below must reach each of them over "
        "the same number of links, so the tier is sized by divisors of the uplink count",
        shape.count, ToString(static_cast<Tier>(t + 1)), shape.used_down, shape.down_ports);
    f.fix = t == 2 ? "a pod count that divides the spine uplinks evenly (e.g. a power of two) fills the cores"
                   : "a leaf count that fills the spines' ports (whole scalable units) uses them fully";
    out.push_back(std::move(f));
  }
  // A partly filled last scalable unit (of an explicit SU size) is normal; say how full.
  if (ps.nodes_per_su > 0 && plane.groups > 0 && plane.nodes_per_group > 0) {
    uint32_t slots = 0;
    std::set<uint32_t> seen;
    for (uint32_t i = plane.first_link; i < plane.first_link + plane.links_per_level[0]; ++i) {
      if (seen.insert(fabric.links[i].a.device).second) ++slots;
    }
    uint32_t last = slots - (plane.groups - 1) * plane.nodes_per_group;
    if (last < plane.nodes_per_group && plane.groups > 1) {
      Finding f = Make("partial-scalable-unit", Severity::kInfo, ps, spec.file);
      f.evidence = {{"groups", std::to_string(plane.groups)},
                    {"slots_in_last_group", std::to_string(last)},
                    {"slots_per_group", std::to_string(plane.nodes_per_group)}};
      f.message = fmt::format(
          "the last of {} groups of plane {} holds {} of {} slots; its leaves are cabled in full "
          "to the spines so it can grow without recabling",
          plane.groups, ps.name, last, plane.nodes_per_group);
      f.fix = "nothing to do, or size the node count to whole groups";
      out.push_back(std::move(f));
    }
  }
}

// A bond's members: on one card, a card failure takes the bond down; on two, RDMA loses RoCE LAG,
// which ConnectX offers only between the ports of one adapter.
void CheckBond(const Spec& spec, const Catalog& catalog, const PlaneSpec& ps, std::vector<Finding>& out) {
  if (!ps.bond || ps.nic_index == kNoItem) return;
  const NicModel& nic = catalog.nics()[ps.nic_index];
  const uint32_t cards = (ps.ports_per_node + nic.ports - 1) / std::max<uint32_t>(1, nic.ports);
  if (cards == 1) {
    Finding f = Make("bond-members-one-card", Severity::kWarning, ps, spec.file);
    f.evidence.insert(
        f.evidence.end(),
        {{"nic", nic.opn}, {"ports_per_card", std::to_string(nic.ports)}, {"ports_per_node", std::to_string(ps.ports_per_node)}});
    f.message = fmt::format(
        "the bond's {} members are the ports of one {}: the bond survives a cable or a switch, not "
        "the card",
        ps.ports_per_node, nic.opn);
    f.fix = "use two single-port cards (or one port of each of two cards) for the bond's members";
    out.push_back(std::move(f));
  } else if (ps.kind == FabricKind::kRoce) {
    Finding f = Make("bond-rdma-across-cards", Severity::kInfo, ps, spec.file);
    f.evidence.insert(f.evidence.end(), {{"nic", nic.opn}, {"cards", std::to_string(cards)}});
    f.message = fmt::format(
        "the bond spans {} cards: TCP traffic (NFS, S3) uses it, but RDMA does not — RoCE LAG "
        "bonds only the ports of one ConnectX adapter — so RDMA clients use each port on its own",
        cards);
    f.fix =
        "for RDMA storage use the ports unbonded (multi-rail), or a dual-port card per bond and accept the card as one failure "
        "domain";
    out.push_back(std::move(f));
  }
}

// Before purchase: the planes' NICs against the driver stack the servers will run (the public limits in
// data/catalog/driver_stacks.csv) and against the spec's compatibility matrix for nodes.model.
void CheckCompatibility(const Spec& spec, const Catalog& catalog, std::vector<Finding>& out) {
  const NodesSpec& n = spec.nodes;
  std::optional<DriverStack> stack = n.driver_stack.empty() ? std::nullopt : ParseDriverStack(n.driver_stack);
  bool model_said = false;
  for (const PlaneSpec& ps : spec.planes) {
    if (ps.nic_index == kNoItem) continue;
    const NicModel& nic = catalog.nics()[ps.nic_index];
    if (stack) {
      if (std::optional<DriverStackLimit> limit = UnsupportedStack(nic.family, *stack)) {
        Finding f = Make("driver-stack-unsupported", Severity::kError, ps, spec.file);
        f.evidence.insert(f.evidence.end(), {{"nic", nic.opn},
                                             {"family", nic.family},
                                             {"driver_stack", n.driver_stack},
                                             {"last_supported", limit->last},
                                             {"source", limit->source + " (confidence " + limit->confidence + ")"}});
        f.message = fmt::format("nodes.driver_stack {} does not support the {} ({}): {}", n.driver_stack, nic.family, nic.opn,
                                limit->why);
        f.fix = stack->stack == "mlnx_ofed" ? "plan DOCA-Host (doca_ofed) for these servers"
                                            : "plan a driver stack that supports the card, or another card";
        out.push_back(std::move(f));
      }
    }
    if (spec.compat.empty()) continue;
    if (n.model.empty()) {
      if (!model_said) {
        Finding f = Make("server-nic-unsupported", Severity::kInfo, ps, spec.file);
        f.object = "nodes";
        f.message = fmt::format("nodes.model is not given, so {} was not checked", spec.compat.file);
        f.fix = "name the server model in nodes.model, as dmidecode prints it";
        out.push_back(std::move(f));
        model_said = true;
      }
      continue;
    }
    CompatQuery q;
    q.is_server = [&](std::string_view s) { return Lower(s) == Lower(n.model); };
    q.server_name = n.model;
    q.opn = nic.opn;
    q.family = nic.family;
    q.bios = n.bios;
    if (!n.os.empty()) {
      std::string id = n.os.substr(0, n.os.find(' ')), version = n.os.substr(n.os.find(' ') + 1);
      q.os_matches = [id, version](std::string_view entry) { return OsEntryMatches(id, version, entry); };
      q.os_name = n.os;
    }
    q.kernel = n.kernel;
    if (stack) q.stack = *stack;
    CompatVerdict v = CheckCompat(spec.compat, q);
    std::erase(v.unchecked, std::string("firmware"));  // chosen at acceptance, not in a spec
    using K = CompatVerdict::Kind;
    Finding f = Make("server-nic-unsupported", Severity::kError, ps, spec.file);
    f.evidence.insert(f.evidence.end(), {{"server", n.model}, {"nic", nic.opn}, {"matrix", spec.compat.file}});
    if (v.row) f.evidence.push_back({"row", fmt::format("{}:{}", spec.compat.file, v.row->line)});
    if (v.row && !v.row->source.empty()) f.evidence.push_back({"source", v.row->source});
    if (v.kind == K::kServerNotListed) {
      f.severity = Severity::kInfo;
      f.message = fmt::format("{} says nothing about the {}: {} was not checked", spec.compat.file, n.model, nic.opn);
      f.fix = "add the server vendor's support rows for this model";
    } else if (v.kind == K::kNicNotListed) {
      f.message = fmt::format("{} does not list the {} for the {} (it lists {})", spec.compat.file, nic.opn, n.model,
                              fmt::join(v.listed_nics, ", "));
      f.fix = "choose a card the server vendor supports, or get its support statement and add the row";
    } else if (v.kind == K::kUnsupported) {
      f.message = fmt::format("{} lists the {} in the {} as unsupported{}", spec.compat.file, nic.opn, n.model,
                              v.row->note.empty() ? "" : ": " + v.row->note);
      f.fix = "choose another card or server model";
    } else if (v.kind == K::kOutOfRange) {
      f.message = fmt::format("the {} in the {} is supported only as {} line {} says: {}", nic.opn, n.model, spec.compat.file,
                              v.row->line, fmt::join(v.mismatches, "; "));
      f.fix = "plan the BIOS, OS, kernel and driver stack of that row (nodes.bios, os, kernel, driver_stack)";
    } else if (!v.unchecked.empty()) {
      f.severity = Severity::kInfo;
      f.message = fmt::format("the {} in the {} is listed in {}, but {} not given in nodes: not checked", nic.opn, n.model,
                              spec.compat.file, fmt::join(v.unchecked, ", "));
      f.fix = "give nodes.bios, os, kernel and driver_stack";
    } else {
      continue;
    }
    out.push_back(std::move(f));
  }
}

}  // namespace

const std::vector<DesignRule>& DesignRules() {
  static const std::vector<DesignRule> kRules = {
      {"nic-speed-unsupported", Severity::kError, "the NIC cannot run the plane's speed"},
      {"nic-pcie-below-line-rate", Severity::kError, "the NIC's PCIe slot carries less than its ports' line rate"},
      {"server-nic-unsupported", Severity::kError,
       "the spec's compatibility matrix does not support a plane's NIC in nodes.model (BIOS, OS, kernel, stack)"},
      {"driver-stack-unsupported", Severity::kError, "nodes.driver_stack does not support a plane's NIC family (public limits)"},
      {"plane-mixes-ib-and-ethernet", Severity::kError, "InfiniBand and Ethernet switches or NICs mixed in one plane"},
      {"plane-cannot-be-built", Severity::kError, "no Clos of at most three tiers holds the plane as asked"},
      {"switch-speed-unsupported", Severity::kError, "the switch has no ports at the plane's speed"},
      {"switch-ports-exhausted", Severity::kError, "a tier needs more ports than its switch has"},
      {"cable-beyond-reach", Severity::kError, "no catalog cable or optic reaches a link's route"},
      {"addressing-prefix-too-small", Severity::kError, "a plane's prefix cannot hold its addresses"},
      {"oversubscribed-compute-plane", Severity::kWarning, "a training compute plane above 1:1"},
      {"plane-carries-mixed-traffic", Severity::kWarning, "compute, storage and management share a plane"},
      {"node-single-switch", Severity::kWarning, "a node's ports on a plane all land on one switch"},
      {"single-spine", Severity::kWarning, "a plane with one spine"},
      {"partial-scalable-unit", Severity::kInfo, "the last scalable unit is partly filled"},
      {"spine-switch-defaulted", Severity::kInfo, "the spine model was chosen by railyard"},
      {"tier-underused", Severity::kInfo, "a spine or core tier uses under 3/4 of its down ports"},
      {"uplinks-beyond-need", Severity::kInfo, "a leaf or spine has more uplink bandwidth than 1:1 needs"},
      {"airflow-unavailable", Severity::kWarning, "no OPN of a switch model has the hall's airflow (layout.airflow)"},
      {"bond-members-one-card", Severity::kWarning, "an 802.3ad bond whose members are the ports of one card"},
      {"bond-rdma-across-cards", Severity::kInfo,
       "a RoCE plane's bond spans two cards: RDMA does not use it (RoCE LAG is per adapter)"},
      {"spec-name-resolved", Severity::kInfo, "a NIC family or short switch model was resolved to a catalog part"},
      {"switch-facts-missing", Severity::kInfo, "a switch's height is not in the catalog"},
      {"catalog-low-confidence", Severity::kInfo, "a planned part's catalog facts are weakly sourced"},
  };
  return kRules;
}

std::vector<Finding> RunDesignChecks(const Spec& spec, const Catalog& catalog, const Fabric& fabric) {
  std::vector<Finding> out;
  CheckCompatibility(spec, catalog, out);
  for (size_t p = 0; p < spec.planes.size() && p < fabric.planes.size(); ++p) {
    const PlaneSpec& ps = spec.planes[p];
    const Plane& plane = fabric.planes[p];
    CheckNic(spec, catalog, ps, out);
    CheckFabricKinds(spec, catalog, ps, out);
    CheckMixedTraffic(spec, ps, out);
    CheckBond(spec, catalog, ps, out);
    if (plane.tiers == 0) continue;  // the plane could not be built; already reported
    CheckOversubscription(spec, ps, plane, out);
    CheckLinks(spec, catalog, ps, plane, fabric, out);
    CheckTopology(spec, catalog, ps, plane, fabric, out);
  }
  return out;
}

}  // namespace railyard
