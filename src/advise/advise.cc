#include "advise/advise.h"
#include "model/schemas.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include "model/units.h"
#include "plan/planner.h"
#include "util/csv.h"
#include "util/file.h"
#include "util/yaml_strict.h"

namespace railyard {
namespace {

constexpr uint64_t kUnicastLids = 49151;  // 0x0001-0xBFFF (fact ib-subnet-lid-limit)
constexpr int kTuningWeeksThreshold = 6;  // railyard's own line, printed with the reason

std::string Thousands(uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

std::string OneOf(const std::string& file, const YAML::Node& node, const std::string& key,
                  const std::vector<std::string>& allowed) {
  std::string v = node.as<std::string>();
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    YamlFail(file, node, key, fmt::format("'{}' is not one of {}", v, fmt::join(allowed, ", ")));
  }
  return v;
}

bool Bool(const std::string& file, const YAML::Node& node, const std::string& key) {
  try {
    return node.as<bool>();
  } catch (const YAML::Exception&) {
    YamlFail(file, node, key, "expected true or false");
  }
}

// The plane facts a decision depends on.
struct DecisionInputs {
  PlaneRole role = PlaneRole::kCompute;
  uint32_t gpus = 0;
  uint64_t endpoints = 0;  // node ports on the plane
  uint64_t switches = 0;   // the plan's switch count for the plane (0 = unknown)
};

std::vector<AdviceReason> Reasons(const DecisionInputs& in, const AdviceAnswers& a) {
  std::vector<AdviceReason> r;
  if (in.role == PlaneRole::kInband || in.role == PlaneRole::kOob) {
    r.push_back(
        {"management traffic is TCP/IP: every SuperPOD design puts in-band management on Ethernet and out-of-band on "
         "1G SN2201 switches",
         -10,
         {"superpod-storage-ethernet"}});
    return r;
  }
  if (in.role == PlaneRole::kStorage) {
    r.push_back(
        {"SuperPOD designs carry storage on Ethernet (GB200: one Spectrum-4 fabric for storage and in-band; B200: "
         "InfiniBand or Spectrum-4 Ethernet), though the H100 design keeps storage on InfiniBand",
         -2,
         {"superpod-storage-ethernet", "superpod-b200-options"}});
  }
  if (in.role == PlaneRole::kCompute) {
    if (in.gpus >= 1024 && a.workload != "inference") {
      r.push_back({fmt::format("{} GPUs of {}: NVIDIA's SuperPOD designs at this scale use InfiniBand compute fabrics (H100/B200 "
                               "NDR on QM9700, B300 XDR on Quantum-X800); a Spectrum-X Ethernet design exists for B300",
                               Thousands(in.gpus), a.workload),
                   1,
                   {"superpod-h100-ib", "superpod-b200-options", "superpod-b300-xdr", "superpod-b300-spectrumx"}});
    }
    if (a.workload != "inference") {
      r.push_back(
          {"both fabrics run large training in production (Meta: two 24,576-GPU clusters, one RoCE, one InfiniBand; "
           "Alibaba HPN: 15K GPUs per Ethernet pod): the difference is operations, not feasibility",
           0,
           {"meta-24k-both", "alibaba-hpn"}});
    }
    if (a.workload == "training" && in.gpus >= 512) {
      r.push_back(
          {"large all-reduce: InfiniBand offers SHARP in-network reduction (rail-optimized cabling) and adaptive routing by "
           "default; on RoCE the few large collective flows collide under ECMP unless Spectrum-X adaptive routing "
           "(Spectrum-4 + SuperNIC) or QP/ECMP tuning is deployed",
           1,
           {"ib-sharp", "ib-sharp-rail-constraint", "ib-adaptive-routing", "roce-ecmp-collisions", "spectrum-x-components"}});
    }
    if (a.workload == "inference") {
      r.push_back(
          {"inference: NVIDIA's Enterprise reference designs call the east-west compute network optional for pure "
           "inference and build it on Spectrum Ethernet where it exists",
           -2,
           {"inference-network-profile", "enterprise-ra-ethernet"}});
    } else if (a.workload == "mixed") {
      r.push_back({"mixed workloads: the training share needs the collective fabric; inference alone would not",
                   0,
                   {"inference-network-profile"}});
    }
  }
  // Lossless Ethernet is the price of RoCE on any data plane.
  if (a.lossless_ethernet_experience == "none") {
    r.push_back(
        {"no lossless-Ethernet experience: InfiniBand is lossless by link-level credits, while RoCE needs PFC on one "
         "priority, ECN/DCQCN and DSCP trust identical on every host and switch port, re-applied after every boot",
         2,
         {"ib-credit-flow-control", "roce-lossless-config"}});
  } else if (a.lossless_ethernet_experience == "some") {
    r.push_back(
        {"some lossless-Ethernet experience: the PFC/ECN/DSCP settings are known, at this scale their consistency "
         "across every port is still the risk",
         1,
         {"roce-lossless-config"}});
  } else {
    r.push_back({"lossless Ethernet already in production: RoCE's PFC/ECN/DSCP settings are the team's routine",
                 -1,
                 {"roce-lossless-config"}});
  }
  if (a.lossless_ethernet_experience != "production" && in.role == PlaneRole::kCompute) {
    if (a.tuning_weeks < kTuningWeeksThreshold) {
      r.push_back({fmt::format("{} week(s) for tuning (railyard's line: {}): Meta's RoCE fabric needed ECMP changes (E-ECMP, "
                               "QP scaling) and dropped DCQCN before it ran stably",
                               a.tuning_weeks, kTuningWeeksThreshold),
                   1,
                   {"meta-roce-sigcomm", "roce-ecmp-collisions"}});
    } else {
      r.push_back(
          {fmt::format("{} weeks for tuning: time for the ECMP/QP and congestion-control work Meta describes", a.tuning_weeks),
           0,
           {"meta-roce-sigcomm"}});
    }
  }
  if (a.ethernet_operations) {
    r.push_back(
        {"the team already operates Ethernet fabrics: InfiniBand adds a subnet manager (OpenSM/UFM) and IB tools to "
         "run",
         -1,
         {"ib-subnet-manager"}});
  }
  uint64_t lids = in.endpoints + in.switches;
  if (lids > kUnicastLids) {
    r.push_back({fmt::format("{} node ports{} need more than the 49,151 unicast LIDs of one InfiniBand subnet: InfiniBand needs "
                             "this plane split into separate subnets (each with its own subnet manager) or IB routers",
                             Thousands(in.endpoints), in.switches ? fmt::format(" and {} switches", Thousands(in.switches)) : ""),
                 -3,
                 {"ib-subnet-lid-limit"}});
  }
  return r;
}

int Score(const std::vector<AdviceReason>& r) {
  int s = 0;
  for (const AdviceReason& x : r) s += x.weight;
  return s;
}

// "infiniband", or for Ethernet "roce" on a data plane (compute, storage) and "ethernet" for management.
std::string KindFor(int score, const std::string& spec_kind, PlaneRole role) {
  if (score == 0) return spec_kind;  // a tie: the spec's choice stands (said in the output)
  if (score > 0) return "infiniband";
  return role == PlaneRole::kCompute || role == PlaneRole::kStorage ? "roce" : "ethernet";
}

bool IsInfiniband(const std::string& kind) { return kind == "infiniband"; }

// "S" in MCX75310AAS-NEAT: N none, S secure boot, E crypto, C crypto + secure boot (fact opn-crypto-secureboot;
// ConnectX-6 Dx and later). "" when the OPN does not carry the code.
std::string SecurityCode(const NicModel& n) {
  if (!n.opn.starts_with("MCX")) return "";
  static const std::set<std::string> kCoded = {"ConnectX-6 Dx", "ConnectX-6 Lx", "ConnectX-7", "ConnectX-8"};
  if (!kCoded.count(n.family)) return "";
  size_t dash = n.opn.find('-');
  if (dash == std::string::npos || dash == 0) return "";
  char c = n.opn[dash - 1];
  return c == 'N' || c == 'S' || c == 'E' || c == 'C' ? std::string(1, c) : "";
}

std::string SecurityWords(const std::string& code) {
  if (code == "N") return "no secure boot, no crypto";
  if (code == "S") return "secure boot, no crypto";
  if (code == "E") return "crypto, no secure boot";
  if (code == "C") return "crypto and secure boot";
  return "";
}

void AdviseNics(PlaneAdvice& pa, const Spec& spec, const PlaneSpec& ps, const AdviceAnswers& a, const Catalog& catalog) {
  FabricKind kind = IsInfiniband(pa.recommended_kind) ? FabricKind::kInfiniband : FabricKind::kEthernet;
  Gbps speed = pa.speed;
  std::map<std::string, uint32_t> rejected;
  struct Ranked {
    NicCandidate c;
    std::tuple<int, int, int, int> key;
  };
  std::vector<Ranked> ok;
  for (const NicModel& n : catalog.nics()) {
    if (kind == FabricKind::kInfiniband ? !n.SupportsInfiniband() : !n.SupportsEthernet()) {
      ++rejected[kind == FabricKind::kInfiniband ? "Ethernet-only" : "InfiniBand-only"];
      continue;
    }
    if (n.max_speed < speed) {
      ++rejected[fmt::format("slower than {}", FormatSpeed(speed))];
      continue;
    }
    bool bluefield = n.family.starts_with("BlueField");
    if (a.dpu && !bluefield) {
      ++rejected["not a DPU (dpu: true)"];
      continue;
    }
    if (a.dual_port && n.ports < 2) {
      ++rejected["single port (dual_port: true)"];
      continue;
    }
    std::string code = SecurityCode(n);
    if (a.crypto && code != "C" && code != "E") {
      ++rejected[code.empty() ? "crypto not decodable from the OPN (crypto: true)" : "no crypto (crypto: true)"];
      continue;
    }
    if (a.secure_boot && (code == "N" || code == "E")) {
      ++rejected["no secure boot (secure_boot: true)"];
      continue;
    }
    uint32_t used_ports =
        std::min<uint32_t>(n.ports, a.dual_port ? 2 : std::max<uint32_t>(1, std::min<uint32_t>(ps.ports_per_node, n.ports)));
    int gen = std::min(spec.nodes.pcie_gen, n.pcie_gen), width = std::min(spec.nodes.pcie_width, n.pcie_width);
    double need = static_cast<double>(speed) * used_ports, have = PcieGbps(gen, width);
    if (have < need) {
      ++rejected[fmt::format("the server's PCIe Gen{} x{} carries {:.0f} Gb/s, below {} x {}", spec.nodes.pcie_gen,
                             spec.nodes.pcie_width, PcieGbps(spec.nodes.pcie_gen, spec.nodes.pcie_width), used_ports,
                             FormatSpeed(speed))];
      continue;
    }
    NicCandidate c{n.opn, n.family, n.ports, n.max_speed, n.pcie_gen, n.pcie_width, n.cage, SecurityWords(code), ""};
    std::vector<std::string> why;
    why.push_back(fmt::format("{} at Gen{} x{} = {:.0f} Gb/s for {} x {}", FormatSpeed(n.max_speed), gen, width, have, used_ports,
                              FormatSpeed(speed)));
    if (n.preferred) why.push_back("the family's standard part");
    if (bluefield && !a.dpu) why.push_back("a DPU: more than the plane needs unless Arm offload is wanted");
    if (n.opn == ps.nic) why.push_back("the spec's choice");
    c.why = fmt::format("{}", fmt::join(why, "; "));
    int spec_pick = n.opn == ps.nic ? 0 : 1;
    int exact = n.max_speed == speed ? 0 : 1;
    int extra = (bluefield && !a.dpu) ? 1 : 0;
    ok.push_back(
        {c, {spec_pick, exact + extra, n.preferred ? 0 : 1, std::abs(static_cast<int>(n.ports) - (a.dual_port ? 2 : 1))}});
  }
  std::stable_sort(ok.begin(), ok.end(), [](const Ranked& x, const Ranked& y) { return x.key < y.key; });
  for (size_t i = 0; i < ok.size() && i < 4; ++i) pa.nics.push_back(ok[i].c);
  for (const auto& [why, n] : rejected) pa.nic_rejections.push_back(fmt::format("{} {}", n, why));
  pa.nic_facts = {"pcie-400g-gen5", "cx8-gen6", "opn-crypto-secureboot", "mlnx-ofed-end"};
  if (a.dpu) pa.nic_facts.push_back("bluefield-dpu-role");
  if (a.crypto) pa.nic_facts.push_back("crypto-export-control");
}

void AdviseSwitches(PlaneAdvice& pa, const PlaneSpec& ps, uint64_t endpoints, const Catalog& catalog) {
  FabricKind kind = IsInfiniband(pa.recommended_kind) ? FabricKind::kInfiniband : FabricKind::kEthernet;
  std::vector<std::pair<uint32_t, const SwitchModel*>> fits;
  for (const SwitchModel& s : catalog.switches()) {
    if (s.fabric != kind) continue;
    uint32_t radix = s.PortsAt(pa.speed);
    if (radix >= 8) fits.push_back({radix, &s});
  }
  std::stable_sort(fits.begin(), fits.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  for (size_t i = 0; i < fits.size() && i < 3; ++i) {
    auto [radix, s] = fits[i];
    uint64_t r = radix;
    uint64_t two = r * r / 2, three = r * r * r / 4;
    std::string tiers = endpoints <= r       ? "1 tier"
                        : endpoints <= two   ? "2 tiers"
                        : endpoints <= three ? "3 tiers"
                                             : "more than 3 tiers: split the plane";
    bool chosen = ps.leaf_switch != kNoItem && &catalog.switches()[ps.leaf_switch] == s;
    pa.switches.push_back(fmt::format("{}{}: {} x {}; at 1:1 two tiers join {} endpoints, three {}; this plane's {} ports: {}",
                                      s->model, chosen ? " (the spec's)" : "", radix, FormatSpeed(pa.speed), Thousands(two),
                                      Thousands(three), Thousands(endpoints), tiers));
  }
  if (pa.switches.empty())
    pa.switches.push_back(fmt::format("no {} switch in the catalog has {} ports", ToString(kind), FormatSpeed(pa.speed)));
}

void AdviseCables(PlaneAdvice& pa, const Plane& plane, const Fabric& fabric) {
  std::map<Media, std::pair<uint64_t, float>> by;  // count, longest
  for (uint32_t i = plane.first_link; i < plane.first_link + plane.link_count && i < fabric.links.size(); ++i) {
    const Link& l = fabric.links[i];
    auto& [n, longest] = by[l.media];
    ++n;
    longest = std::max(longest, l.length_m);
  }
  for (const auto& [media, v] : by) {
    pa.cables.push_back(fmt::format("{} {} link(s), longest {:.1f} m", Thousands(v.first), ToString(media), v.second));
  }
  pa.cable_facts = {"dac-reach-400g", "aoc-reach"};
}

}  // namespace

AdviceAnswers ParseAdviceAnswers(const std::string& yaml, const std::string& file) {
  YAML::Node root = LoadStrictYaml(yaml, file);
  CheckYamlKeys(file, root, "",
                {"workload", "lossless_ethernet_experience", "ethernet_operations", "budget", "tuning_weeks", "needs"});
  AdviceAnswers a;
  a.file = file;
  if (root["workload"]) a.workload = OneOf(file, root["workload"], "workload", {"training", "inference", "mixed"});
  if (root["lossless_ethernet_experience"]) {
    a.lossless_ethernet_experience =
        OneOf(file, root["lossless_ethernet_experience"], "lossless_ethernet_experience", {"none", "some", "production"});
  }
  if (root["ethernet_operations"]) a.ethernet_operations = Bool(file, root["ethernet_operations"], "ethernet_operations");
  if (root["budget"]) a.budget = OneOf(file, root["budget"], "budget", {"cost", "balanced", "performance"});
  if (root["tuning_weeks"]) {
    std::optional<double> w = FiniteNumber(root["tuning_weeks"]);
    if (!w || *w < 0 || *w > 520 || *w != std::floor(*w))
      YamlFail(file, root["tuning_weeks"], "tuning_weeks", "expected whole weeks, 0 to 520");
    a.tuning_weeks = static_cast<int>(*w);
  }
  if (YAML::Node needs = root["needs"]) {
    if (!needs.IsMap()) YamlFail(file, needs, "needs", "expected a mapping: {crypto, secure_boot, dpu, dual_port}");
    CheckYamlKeys(file, needs, "needs.", {"crypto", "secure_boot", "dpu", "dual_port"});
    if (needs["crypto"]) a.crypto = Bool(file, needs["crypto"], "needs.crypto");
    if (needs["secure_boot"]) a.secure_boot = Bool(file, needs["secure_boot"], "needs.secure_boot");
    if (needs["dpu"]) a.dpu = Bool(file, needs["dpu"], "needs.dpu");
    if (needs["dual_port"]) a.dual_port = Bool(file, needs["dual_port"], "needs.dual_port");
  }
  return a;
}

AdviceAnswers LoadAdviceAnswers(const std::string& path) { return ParseAdviceAnswers(ReadWholeFile(path), path); }

const std::map<std::string, AdviceFact>& AdviceFacts() {
  static const std::map<std::string, AdviceFact> facts = [] {
    std::map<std::string, AdviceFact> out;
    CsvTable t = ParseCsv(EmbeddedFile("facts.csv"), "data/advice/facts.csv");
    for (const CsvRow& row : t.rows) {
      auto col = [&](const char* name) { return row.fields[static_cast<size_t>(t.Column(name))]; };
      out[col("id")] = {col("id"), col("statement"), col("source"), col("confidence")};
    }
    return out;
  }();
  return facts;
}

AdvicePlan PlanForAdvice(const Spec& spec, const Catalog& catalog) {
  AdvicePlan out;
  try {
    out.plan = Plan(spec, catalog);
  } catch (const std::exception& e) {
    out.note = fmt::format("the spec could not be planned as written ({}): switch counts and cables are estimates", e.what());
  }
  return out;
}

Advice Advise(const Spec& spec, const AdviceAnswers& answers, const Catalog& catalog) {
  return Advise(spec, answers, PlanForAdvice(spec, catalog), catalog);
}

Advice Advise(const Spec& spec, const AdviceAnswers& answers, const AdvicePlan& planned_spec, const Catalog& catalog) {
  Advice out;
  out.spec_file = spec.file;
  out.answers_file = answers.file;
  out.answers = answers;
  out.nodes = spec.nodes.count;
  out.gpus = spec.nodes.count * spec.nodes.gpus;
  out.pcie_gen = spec.nodes.pcie_gen;
  out.pcie_width = spec.nodes.pcie_width;
  const std::optional<PlanResult>& plan = planned_spec.plan;
  if (!planned_spec.note.empty()) out.notes.push_back(planned_spec.note);
  for (size_t i = 0; i < spec.planes.size(); ++i) {
    const PlaneSpec& ps = spec.planes[i];
    PlaneAdvice pa;
    pa.plane = ps.name;
    pa.role = std::string(ToString(ps.role));
    pa.spec_kind = std::string(ToString(ps.kind));
    pa.speed = ps.speed;
    if (pa.speed == 0 && ps.nic_index != kNoItem) pa.speed = catalog.nics()[ps.nic_index].max_speed;
    DecisionInputs in;
    in.role = ps.role;
    in.gpus = out.gpus;
    in.endpoints = static_cast<uint64_t>(spec.nodes.count) * ps.ports_per_node;
    const Plane* planned = plan && i < plan->fabric.planes.size() ? &plan->fabric.planes[i] : nullptr;
    if (planned && planned->kind == FabricKind::kInfiniband) in.switches = planned->switch_count;
    pa.reasons = Reasons(in, answers);
    pa.score = Score(pa.reasons);
    pa.recommended_kind = KindFor(pa.score, pa.spec_kind, ps.role);
    // What would flip it: each answer moved to its other values, one at a time.
    if (ps.role == PlaneRole::kCompute || ps.role == PlaneRole::kStorage) {
      auto flips = [&](AdviceAnswers alt, const std::string& what) {
        int s = Score(Reasons(in, alt));
        if (IsInfiniband(KindFor(s, pa.spec_kind, ps.role)) != IsInfiniband(pa.recommended_kind)) {
          pa.would_change.push_back(fmt::format("{} -> {} (score {:+d})", what, KindFor(s, pa.spec_kind, ps.role), s));
        }
      };
      for (const char* v : {"none", "some", "production"}) {
        if (answers.lossless_ethernet_experience == v) continue;
        AdviceAnswers alt = answers;
        alt.lossless_ethernet_experience = v;
        flips(alt, fmt::format("lossless_ethernet_experience: {}", v));
      }
      for (const char* v : {"training", "inference", "mixed"}) {
        if (answers.workload == v) continue;
        AdviceAnswers alt = answers;
        alt.workload = v;
        flips(alt, fmt::format("workload: {}", v));
      }
      {
        AdviceAnswers alt = answers;
        alt.ethernet_operations = !answers.ethernet_operations;
        flips(alt, fmt::format("ethernet_operations: {}", alt.ethernet_operations));
        alt = answers;
        alt.tuning_weeks = answers.tuning_weeks < kTuningWeeksThreshold ? kTuningWeeksThreshold : 2;
        flips(alt, fmt::format("tuning_weeks: {}", alt.tuning_weeks));
      }
      // Scale: where one InfiniBand subnet runs out of LIDs.
      if (ps.ports_per_node > 0 && in.endpoints + in.switches <= kUnicastLids) {
        uint64_t per_node = ps.ports_per_node;
        uint64_t max_nodes = (kUnicastLids - in.switches) / per_node;
        pa.would_change.push_back(
            fmt::format("beyond about {} nodes at {} port(s) each, one InfiniBand subnet runs out of LIDs "
                        "(49,151, less one per switch)",
                        Thousands(max_nodes), per_node));
      }
    }
    if (ps.role != PlaneRole::kOob || ps.nic_index != kNoItem) {
      if (pa.speed) AdviseNics(pa, spec, ps, answers, catalog);
    }
    if (pa.speed) AdviseSwitches(pa, ps, in.endpoints, catalog);
    if (planned && (planned->kind == FabricKind::kInfiniband) == IsInfiniband(pa.recommended_kind)) {
      AdviseCables(pa, *planned, plan->fabric);
    } else if (planned) {
      pa.cables.push_back(
          fmt::format("the spec plans this plane as {}: re-plan it as {} to see its cables", pa.spec_kind, pa.recommended_kind));
    }
    out.planes.push_back(std::move(pa));
  }
  out.notes.push_back(
      "price is not weighed: no public like-for-like price comparison of InfiniBand and RoCE fabrics was found "
      "(fact ib-cost-public); get quotes for both");
  if (answers.budget == "cost") out.notes.push_back("budget: cost was given; see the note above: railyard does not guess prices");
  return out;
}

nlohmann::json AdviceJson(const Advice& a) {
  nlohmann::json planes = nlohmann::json::array();
  std::set<std::string> cited;
  for (const PlaneAdvice& p : a.planes) {
    nlohmann::json reasons = nlohmann::json::array();
    for (const AdviceReason& r : p.reasons) {
      reasons.push_back({{"text", r.text}, {"weight", r.weight}, {"facts", r.facts}});
      cited.insert(r.facts.begin(), r.facts.end());
    }
    nlohmann::json nics = nlohmann::json::array();
    for (const NicCandidate& n : p.nics) {
      nics.push_back({{"opn", n.opn},
                      {"family", n.family},
                      {"ports", n.ports},
                      {"speed_gbps", n.speed},
                      {"pcie_gen", n.pcie_gen},
                      {"pcie_width", n.pcie_width},
                      {"cage", n.cage},
                      {"security", n.security},
                      {"why", n.why}});
    }
    cited.insert(p.nic_facts.begin(), p.nic_facts.end());
    cited.insert(p.cable_facts.begin(), p.cable_facts.end());
    if (!p.switches.empty()) cited.insert("fat-tree-capacity");
    planes.push_back({{"plane", p.plane},
                      {"role", p.role},
                      {"spec_kind", p.spec_kind},
                      {"recommended_kind", p.recommended_kind},
                      {"score", p.score},
                      {"reasons", reasons},
                      {"would_change", p.would_change},
                      {"speed_gbps", p.speed},
                      {"nics", nics},
                      {"nic_rejections", p.nic_rejections},
                      {"nic_facts", p.nic_facts},
                      {"switches", p.switches},
                      {"cables", p.cables},
                      {"cable_facts", p.cable_facts}});
  }
  nlohmann::json facts = nlohmann::json::object();
  for (const std::string& id : cited) {
    auto it = AdviceFacts().find(id);
    if (it == AdviceFacts().end()) continue;
    facts[id] = {{"statement", it->second.statement}, {"source", it->second.source}, {"confidence", it->second.confidence}};
  }
  const AdviceAnswers& x = a.answers;
  return {{"schema", kAdviceSchema},
          {"spec", a.spec_file},
          {"answers",
           {{"file", x.file},
            {"workload", x.workload},
            {"lossless_ethernet_experience", x.lossless_ethernet_experience},
            {"ethernet_operations", x.ethernet_operations},
            {"budget", x.budget},
            {"tuning_weeks", x.tuning_weeks},
            {"needs", {{"crypto", x.crypto}, {"secure_boot", x.secure_boot}, {"dpu", x.dpu}, {"dual_port", x.dual_port}}}}},
          {"nodes", a.nodes},
          {"gpus", a.gpus},
          {"pcie", fmt::format("Gen{} x{}", a.pcie_gen, a.pcie_width)},
          {"planes", planes},
          {"notes", a.notes},
          {"facts", facts}};
}

std::string AdviceText(const Advice& a, bool md) {
  std::string o;
  std::set<std::string> cited;
  auto refs = [&](const std::vector<std::string>& ids) {
    cited.insert(ids.begin(), ids.end());
    std::vector<std::string> out;
    for (const std::string& id : ids) out.push_back("[" + id + "]");
    return fmt::format("{}", fmt::join(out, " "));
  };
  const AdviceAnswers& x = a.answers;
  o += md ? fmt::format("## Advice for {}\n\n", a.spec_file) : fmt::format("Advice for {}\n", a.spec_file);
  o += fmt::format(
      "{}{} nodes, {} GPUs, PCIe Gen{} x{} slots. Answers{}: workload {}, lossless Ethernet experience {}, Ethernet "
      "operations {}, {} tuning week(s), budget {}; needs crypto {}, secure boot {}, DPU {}, dual port {}.\n",
      md ? "" : "  ", Thousands(a.nodes), Thousands(a.gpus), a.pcie_gen, a.pcie_width,
      x.file.empty() ? " (defaults: no answers file)" : " from " + x.file, x.workload, x.lossless_ethernet_experience,
      x.ethernet_operations ? "yes" : "no", x.tuning_weeks, x.budget, x.crypto ? "yes" : "no", x.secure_boot ? "yes" : "no",
      x.dpu ? "yes" : "no", x.dual_port ? "yes" : "no");
  for (const PlaneAdvice& p : a.planes) {
    o += md ? fmt::format("\n### Plane {} ({})\n\n", p.plane, p.role) : fmt::format("\nPlane {} ({})\n", p.plane, p.role);
    std::string verdict = IsInfiniband(p.recommended_kind) ? "InfiniBand"
                          : p.recommended_kind == "roce"   ? "Ethernet (RoCE)"
                                                           : "Ethernet";
    std::string vs = IsInfiniband(p.recommended_kind) == IsInfiniband(p.spec_kind)
                         ? fmt::format("as the spec has it ({})", p.spec_kind)
                         : fmt::format("the spec has {}", p.spec_kind);
    o += fmt::format("{}Fabric: **{}** (score {:+d}; > 0 InfiniBand, < 0 Ethernet{}), {}.\n", md ? "" : "  ", verdict, p.score,
                     p.score == 0 ? ", 0: the spec's choice stands" : "", vs);
    if (!md) {
      size_t b = 0;
      while ((b = o.find("**", b)) != std::string::npos) o.erase(b, 2);
    }
    for (const AdviceReason& r : p.reasons) {
      o += fmt::format("{}{:+d}  {} {}\n", md ? "- " : "    ", r.weight, r.text, refs(r.facts));
    }
    if (!p.would_change.empty()) {
      o += md ? "\nWhat would change it:\n\n" : "  What would change it:\n";
      for (const std::string& w : p.would_change) o += fmt::format("{}{}\n", md ? "- " : "    ", w);
    }
    if (!p.nics.empty() || !p.nic_rejections.empty()) {
      o += md ? fmt::format("\nNIC for {} at {}:\n\n", verdict, FormatSpeed(p.speed))
              : fmt::format("  NIC for {} at {}:\n", verdict, FormatSpeed(p.speed));
      for (const NicCandidate& n : p.nics) {
        o += fmt::format("{}{} ({}, {} port(s), {}, {}{}): {}\n", md ? "- " : "    ", n.opn, n.family, n.ports, n.cage,
                         fmt::format("PCIe Gen{} x{}", n.pcie_gen, n.pcie_width), n.security.empty() ? "" : ", " + n.security,
                         n.why);
      }
      if (p.nics.empty()) o += fmt::format("{}none in the catalog fits\n", md ? "- " : "    ");
      if (!p.nic_rejections.empty()) {
        o += fmt::format("{}rejected: {} {}\n", md ? "- " : "    ", fmt::join(p.nic_rejections, "; "), refs(p.nic_facts));
      }
    }
    if (!p.switches.empty()) {
      o += md ? "\nSwitch:\n\n" : "  Switch:\n";
      for (const std::string& s : p.switches) o += fmt::format("{}{} {}\n", md ? "- " : "    ", s, refs({"fat-tree-capacity"}));
    }
    if (!p.cables.empty()) {
      o += md ? "\nCables (from the plan):\n\n" : "  Cables (from the plan):\n";
      for (const std::string& c : p.cables) o += fmt::format("{}{}\n", md ? "- " : "    ", c);
      if (!p.cable_facts.empty()) o += fmt::format("{}reach: {}\n", md ? "- " : "    ", refs(p.cable_facts));
    }
  }
  o += md ? "\n### Not weighed\n\n" : "\nNot weighed\n";
  for (const std::string& n : a.notes) o += fmt::format("{}{}\n", md ? "- " : "  ", n);
  cited.insert("ib-cost-public");
  o += md ? "\n### Sources\n\n" : "\nSources\n";
  for (const std::string& id : cited) {
    auto it = AdviceFacts().find(id);
    if (it == AdviceFacts().end()) continue;
    o += fmt::format("{}[{}] ({}) {} — {}\n", md ? "- " : "  ", id, it->second.confidence, it->second.statement,
                     it->second.source);
  }
  return o;
}

}  // namespace railyard
