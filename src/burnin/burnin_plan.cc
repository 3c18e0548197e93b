#include "burnin/burnin_plan.h"
#include "model/schemas.h"
#include "util/input_error.h"

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/config_emit.h"
#include "util/hostlist.h"
#include "util/natural_order.h"
#include "util/safe_text.h"
#include "util/shell_emit.h"

namespace railyard {
namespace {

constexpr size_t kMaxPairs = 20'000'000;

// A host NIC on the plane: its leaf, the leaf's pod (leaves joined by spines), and its rail.
struct HostNic {
  std::string device;
  uint32_t leaf = 0;
  int rail = 0;
};

struct Topology {
  std::vector<uint32_t> hosts;                              // plan device indexes, plan order
  std::unordered_map<uint32_t, std::vector<HostNic>> nics;  // per host, in device (natural) order
  std::unordered_map<uint32_t, uint32_t> pod;               // leaf -> pod id
  bool has_core = false;
};

uint32_t Find(std::unordered_map<uint32_t, uint32_t>& parent, uint32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

Topology ReadTopology(const PlannedFabric& fabric, const std::string& plane) {
  Topology t;
  std::unordered_map<uint32_t, uint32_t> parent;  // union-find over leaves and spines
  auto add = [&](uint32_t x) { parent.emplace(x, x); };
  for (const PlannedLink& l : fabric.links) {
    if (l.plane != plane) continue;
    if (l.level == "endpoint-leaf") {
      const bool a_host = fabric.devices[l.a_device].role != "switch";
      const uint32_t host = a_host ? l.a_device : l.z_device, leaf = a_host ? l.z_device : l.a_device;
      add(leaf);
      if (fabric.devices[host].role != "node") continue;  // appliances (UFM) run no burn-in
      auto [it, fresh] = t.nics.try_emplace(host);
      if (fresh) t.hosts.push_back(host);
      it->second.push_back({std::string(a_host ? l.a_port : l.z_port), leaf, l.rail});
    } else if (l.level == "leaf-spine") {
      add(l.a_device);
      add(l.z_device);
      parent[Find(parent, l.a_device)] = Find(parent, l.z_device);
    } else if (l.level == "spine-core") {
      t.has_core = true;  // cores join pods into one fabric: the pod stays the leaf-spine component
    }
  }
  for (auto& [leaf, root] : parent) {
    if (fabric.devices[leaf].role == "switch" && fabric.devices[leaf].tier == "leaf") t.pod[leaf] = Find(parent, leaf);
  }
  std::sort(t.hosts.begin(), t.hosts.end());
  for (auto& [host, list] : t.nics) {
    std::stable_sort(list.begin(), list.end(),
                     [](const HostNic& a, const HostNic& b) { return NaturalLess(a.device, b.device); });
  }
  return t;
}

int Hops(const Topology& t, uint32_t leaf_a, uint32_t leaf_b) {
  if (leaf_a == leaf_b) return 2;
  auto a = t.pod.find(leaf_a), b = t.pod.find(leaf_b);
  if (a != t.pod.end() && b != t.pod.end() && a->second == b->second) return 4;
  return 6;
}

// Circle method: round r of n (even) players as index pairs.
std::vector<std::pair<size_t, size_t>> CircleRound(size_t n, size_t r) {
  std::vector<std::pair<size_t, size_t>> out;
  const size_t m = n - 1;
  out.push_back(r % 2 == 0 ? std::pair{m, r % m} : std::pair{r % m, m});  // the fixed player alternates roles
  for (size_t k = 1; k < n / 2; ++k) out.push_back({(r + k) % m, (r + m - k) % m});
  return out;
}

std::string Stem(int round, size_t pair, const BurninEndpoint& s, const BurninEndpoint& c) {
  std::string stem = fmt::format("round-{:03}/pair-{:05}.{}", round, pair, s.host);
  if (!s.device.empty()) stem += "." + s.device;
  stem += "." + c.host;
  if (!c.device.empty()) stem += "." + c.device;
  return stem;
}

void CheckOptions(const BurninOptions& o) {
  static const std::set<std::string> kPatterns = {"pairwise", "rail", "topo", "loopback"};
  if (!kPatterns.count(o.pattern)) throw UsageError(fmt::format("--pattern '{}': pairwise, rail, topo or loopback", o.pattern));
  if (o.test != "perftest" && o.test != "nccl") throw UsageError(fmt::format("--test '{}': perftest or nccl", o.test));
  if (o.test == "nccl" && o.pattern == "loopback") throw UsageError("--test nccl: a loopback is a perftest pattern (one NIC)");
  if (o.test == "nccl" && o.pattern == "rail")
    throw UsageError("--pattern rail with --test nccl: use pairwise (NCCL_TESTS_SPLIT runs every rail of a host pair)");
}

// The plane: the one named, else compute, else the first with host links.
const PlannedPlane& ChoosePlane(const PlannedFabric& fabric, const std::string& named) {
  for (const PlannedPlane& p : fabric.planes) {
    if (!named.empty() ? p.name == named : p.role == "compute") return p;
  }
  for (const PlannedPlane& p : fabric.planes) {
    if (named.empty() && p.role != "oob") return p;
  }
  std::string names;
  for (const PlannedPlane& p : fabric.planes) names += (names.empty() ? "" : ", ") + p.name;
  throw UsageError(fmt::format("--plane '{}': the plan's planes are {}", named, names));
}

// The hosts asked for, in plan order: all of the plane's, a glob, or a Slurm host list (every name of
// which must be on the plane).
std::vector<uint32_t> PickHosts(const PlannedFabric& fabric, const Topology& t, const std::string& asked,
                                const std::string& plane) {
  std::vector<uint32_t> hosts;
  if (asked.empty()) return t.hosts;
  if (asked.find_first_of("*?") != std::string::npos) {
    for (uint32_t h : t.hosts) {
      if (fnmatch(asked.c_str(), fabric.devices[h].name.c_str(), 0) == 0) hosts.push_back(h);
    }
    return hosts;
  }
  std::unordered_map<std::string_view, uint32_t> by_name;
  for (uint32_t h : t.hosts) by_name[fabric.devices[h].name] = h;
  std::vector<std::string> unknown;
  std::set<uint32_t> picked;
  for (const std::string& name : ExpandHostlist(asked)) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      unknown.push_back(name);
    } else if (picked.insert(it->second).second) {
      hosts.push_back(it->second);
    }
  }
  if (!unknown.empty()) {
    throw UsageError(fmt::format("--hosts: {} host(s) with no link on plane {}: {}{}", unknown.size(), plane, unknown.front(),
                                 unknown.size() > 1 ? fmt::format(" and {} more", unknown.size() - 1) : ""));
  }
  std::sort(hosts.begin(), hosts.end());
  return hosts;
}

// Names go into shell scripts: only what a hostname and an RDMA device name can be.
void CheckScriptSafeNames(const PlannedFabric& fabric, const Topology& t, const std::vector<uint32_t>& hosts) {
  static const std::regex kSafe("^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$");
  for (uint32_t h : hosts) {
    if (!std::regex_match(fabric.devices[h].name, kSafe)) {
      throw InputError(fmt::format("host '{}': not a hostname railyard writes into a script", fabric.devices[h].name));
    }
    for (const HostNic& n : t.nics.at(h)) {
      if (!std::regex_match(n.device, kSafe))
        throw InputError(fmt::format("{}: device '{}': not a device name", fabric.devices[h].name, n.device));
    }
  }
}

// The rounds of one campaign over the chosen hosts, by pattern; pairs are named in order and their total
// is held under kMaxPairs.
class RoundBuilder {
 public:
  RoundBuilder(const PlannedFabric& fabric, Topology& t, const BurninOptions& o, const std::vector<uint32_t>& hosts,
               BurninPlan& plan)
      : fabric_(fabric),
        t_(t),
        o_(o),
        hosts_(hosts),
        plan_(plan),
        nccl_(o.test == "nccl"),
        // The circle needs an even count: a "bye" player.
        players_(hosts.size() + hosts.size() % 2) {}

  // Every host meets every other once (n-1 rounds, or --rounds of them).
  void Pairwise() {
    size_t count = players_ - 1;
    if (o_.rounds > 0 && static_cast<size_t>(o_.rounds) < count) {
      plan_.notes.push_back(
          fmt::format("{} of the {} pairwise rounds (--rounds): not every pair of hosts meets", o_.rounds, count));
      count = static_cast<size_t>(o_.rounds);
    }
    for (size_t r = 0; r < count; ++r) {
      BurninRound round = NewRound();
      AddCircle(round, r, -1);
      Keep(std::move(round));
    }
  }

  // Each round, each rail's NICs meet a different partner (3 rounds, or --rounds).
  void Rail() {
    size_t rails = 0;
    for (uint32_t h : hosts_) rails = std::max(rails, t_.nics[h].size());
    const size_t count = o_.rounds > 0 ? static_cast<size_t>(o_.rounds) : 3;
    for (size_t r = 0; r < count; ++r) {
      BurninRound round = NewRound();
      for (size_t rail = 0; rail < rails; ++rail) AddCircle(round, (r * rails + rail) % (players_ - 1), static_cast<int>(rail));
      Keep(std::move(round));
    }
  }

  // One round per distance (2, 4 and, with cores, 6 hops): hosts ordered so that partners at that
  // distance sit near each other, then paired greedily within a window.
  void Topo() {
    std::vector<int> distances = {2, 4};
    if (t_.has_core) distances.push_back(6);
    for (int d : distances) {
      const std::vector<uint32_t> order = OrderedForDistance(d);
      BurninRound round = NewRound();
      std::vector<bool> used(order.size(), false);
      constexpr size_t kWindow = 256;
      for (size_t i = 0; i < order.size(); ++i) {
        if (used[i]) continue;
        for (size_t j = i + 1; j < order.size() && j <= i + kWindow; ++j) {
          if (used[j] || Hops(t_, Leaf(order[i]), Leaf(order[j])) != d) continue;
          used[i] = used[j] = true;
          AddHostPair(round, order[i], order[j], -1);
          break;
        }
      }
      if (round.pairs.empty()) {
        plan_.notes.push_back(fmt::format("no two hosts {} hops apart: no round for that distance", d));
        continue;
      }
      Keep(std::move(round));
      if (o_.rounds > 0 && plan_.rounds.size() >= static_cast<size_t>(o_.rounds)) break;
    }
  }

  // Every NIC against itself, in one round.
  void Loopback() {
    BurninRound round = NewRound();
    for (uint32_t h : hosts_) {
      for (const HostNic& nic : t_.nics[h]) {
        BurninPair p;
        p.server = p.client = {fabric_.devices[h].name, nic.device};
        p.rail = nic.rail;
        p.result = Stem(round.index, round.pairs.size(), p.server, p.client);
        round.pairs.push_back(std::move(p));
      }
    }
    Keep(std::move(round));
  }

 private:
  BurninRound NewRound() const {
    BurninRound round;
    round.index = static_cast<int>(plan_.rounds.size());
    return round;
  }

  void Keep(BurninRound round) {
    total_ += round.pairs.size();
    if (total_ > kMaxPairs) {
      throw UsageError(fmt::format("--pattern {} over {} hosts is more than {} pairs: give --rounds to run fewer rounds",
                                   o_.pattern, hosts_.size(), kMaxPairs));
    }
    plan_.rounds.push_back(std::move(round));
  }

  // Round r of the circle method over the hosts; the bye player sits out.
  void AddCircle(BurninRound& round, size_t r, int only_rail_index) {
    for (auto [a, b] : CircleRound(players_, r)) {
      if (a < hosts_.size() && b < hosts_.size()) AddHostPair(round, hosts_[a], hosts_[b], only_rail_index);
    }
  }

  // One host pair in a round: NIC i with NIC i (perftest), or the two hosts (NCCL).
  void AddHostPair(BurninRound& round, uint32_t server, uint32_t client, int only_rail_index) {
    const auto& sn = t_.nics[server];
    const auto& cn = t_.nics[client];
    if (nccl_) {
      BurninPair p;
      p.server = {fabric_.devices[server].name, ""};
      p.client = {fabric_.devices[client].name, ""};
      p.hops = Hops(t_, sn.front().leaf, cn.front().leaf);
      p.result = Stem(round.index, round.pairs.size(), p.server, p.client);
      round.pairs.push_back(std::move(p));
      return;
    }
    for (size_t i = 0; i < std::min(sn.size(), cn.size()); ++i) {
      if (only_rail_index >= 0 && static_cast<size_t>(only_rail_index) != i) continue;
      BurninPair p;
      p.server = {fabric_.devices[server].name, sn[i].device};
      p.client = {fabric_.devices[client].name, cn[i].device};
      p.hops = Hops(t_, sn[i].leaf, cn[i].leaf);
      p.rail = sn[i].rail == cn[i].rail ? sn[i].rail : 0;
      p.result = Stem(round.index, round.pairs.size(), p.server, p.client);
      round.pairs.push_back(std::move(p));
    }
  }

  uint32_t Leaf(uint32_t host) { return t_.nics[host].front().leaf; }
  uint32_t Pod(uint32_t host) { return t_.pod[Leaf(host)]; }

  // The hosts in an order where partners D hops apart sit near each other: by leaf (2), by pod then a
  // host's place on its leaf (4), by that place across pods (6).
  std::vector<uint32_t> OrderedForDistance(int d) {
    std::vector<uint32_t> order = hosts_;
    std::unordered_map<uint32_t, size_t> rank;  // a host's place among the hosts of its leaf (or pod)
    std::map<uint32_t, size_t> seen;
    for (uint32_t h : order) rank[h] = seen[d == 6 ? Pod(h) : Leaf(h)]++;
    if (d == 2) {
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return Leaf(a) < Leaf(b); });
    } else if (d == 4) {
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::tuple(Pod(a), rank[a], Leaf(a)) < std::tuple(Pod(b), rank[b], Leaf(b));
      });
    } else {
      std::stable_sort(order.begin(), order.end(),
                       [&](uint32_t a, uint32_t b) { return std::tuple(rank[a], Pod(a)) < std::tuple(rank[b], Pod(b)); });
    }
    return order;
  }

  const PlannedFabric& fabric_;
  Topology& t_;
  const BurninOptions& o_;
  const std::vector<uint32_t>& hosts_;
  BurninPlan& plan_;
  const bool nccl_;
  const size_t players_;
  size_t total_ = 0;
};

}  // namespace

BurninPlan PlanBurnin(const PlannedFabric& fabric, const BurninOptions& o) {
  CheckOptions(o);
  BurninPlan plan;
  plan.plan_name = fabric.name;
  plan.pattern = o.pattern;
  plan.test = o.test;
  plan.duration_s = o.duration_s;
  plan.gpus_per_node = o.gpus_per_node;
  plan.counters = o.counters && o.test == "perftest";
  const PlannedPlane& plane = ChoosePlane(fabric, o.plane);
  plan.plane = plane.name;
  plan.kind = plane.kind;
  Topology t = ReadTopology(fabric, plane.name);
  for (const PlannedLink& l : fabric.links) {
    if (l.plane == plane.name && l.level == "endpoint-leaf") plan.speed_gbps = std::max(plan.speed_gbps, l.speed_gbps);
  }
  const std::vector<uint32_t> hosts = PickHosts(fabric, t, o.hosts, plane.name);
  plan.hosts = hosts.size();
  CheckScriptSafeNames(fabric, t, hosts);
  if (o.pattern != "loopback" && hosts.size() < 2) {
    throw UsageError(fmt::format("--pattern {}: {} host(s) on plane {}; a pair needs two", o.pattern, hosts.size(), plane.name));
  }
  if (hosts.empty()) throw UsageError(fmt::format("no host on plane {}", plane.name));
  RoundBuilder rounds(fabric, t, o, hosts, plan);
  if (o.pattern == "pairwise") rounds.Pairwise();
  if (o.pattern == "rail") rounds.Rail();
  if (o.pattern == "topo") rounds.Topo();
  if (o.pattern == "loopback") rounds.Loopback();
  return plan;
}

std::string BurninPlanJson(const BurninPlan& plan) {
  std::string out;
  out.reserve(256 + plan.rounds.size() * 64);
  auto q = [](const std::string& s) { return nlohmann::json(s).dump(); };
  out += fmt::format(
      "{{\"schema\":\"railyard.burnin-plan/1\",\"plan\":{},\"plane\":{},\"kind\":{},\"pattern\":{},\"test\":{},\"speed_gbps\":{},"
      "\"duration_s\":{},\"gpus_per_node\":{},\"counters\":{},\"hosts\":{},\"notes\":{},\"rounds\":[",
      q(plan.plan_name), q(plan.plane), q(plan.kind), q(plan.pattern), q(plan.test), plan.speed_gbps, plan.duration_s,
      plan.gpus_per_node, plan.counters, plan.hosts, nlohmann::json(plan.notes).dump());
  for (size_t r = 0; r < plan.rounds.size(); ++r) {
    const BurninRound& round = plan.rounds[r];
    out += fmt::format("{}\n{{\"index\":{},\"pairs\":[", r ? "," : "", round.index);
    for (size_t i = 0; i < round.pairs.size(); ++i) {
      const BurninPair& p = round.pairs[i];
      // Names were checked to be hostnames and device names: nothing to escape.
      out += fmt::format(
          "{}\n{{\"server\":{{\"host\":\"{}\",\"device\":\"{}\"}},\"client\":{{\"host\":\"{}\",\"device\":\"{}\"}},"
          "\"hops\":{},\"rail\":{},\"result\":\"{}\"}}",
          i ? "," : "", p.server.host, p.server.device, p.client.host, p.client.device, p.hops, p.rail, p.result);
    }
    out += "]}";
  }
  out += "\n]}\n";
  return out;
}

BurninPlan ParseBurninPlan(std::string_view json, const std::string& source) {
  nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  auto fail = [&](const std::string& why) { throw InputError(source, 0, 0, "", why); };
  if (j.is_discarded() || !j.is_object()) fail("not JSON (give the burnin-plan.json `railyard burnin plan` wrote)");
  if (!j.contains("schema") || j["schema"] != kBurninPlanSchema) fail("schema: not railyard.burnin-plan/1");
  BurninPlan plan;
  try {
    plan.plan_name = j.at("plan").get<std::string>();
    plan.plane = j.at("plane").get<std::string>();
    RequireText(TextRule::kText, plan.plan_name, source, "/plan");
    RequireText(TextRule::kName, plan.plane, source, "/plane");
    for (const char* key : {"kind", "pattern", "test"})
      RequireText(TextRule::kWord, j.at(key).get<std::string>(), source, std::string("/") + key);
    plan.kind = j.at("kind").get<std::string>();
    plan.pattern = j.at("pattern").get<std::string>();
    plan.test = j.at("test").get<std::string>();
    plan.speed_gbps = j.at("speed_gbps").get<uint32_t>();
    plan.duration_s = j.at("duration_s").get<int>();
    plan.gpus_per_node = j.value("gpus_per_node", 8);
    plan.counters = j.value("counters", false);
    plan.hosts = j.at("hosts").get<size_t>();
    plan.notes = j.value("notes", std::vector<std::string>{});
    for (const auto& r : j.at("rounds")) {
      BurninRound round;
      round.index = r.at("index").get<int>();
      for (const auto& p : r.at("pairs")) {
        BurninPair pair;
        pair.server = {p.at("server").at("host").get<std::string>(), p.at("server").value("device", "")};
        pair.client = {p.at("client").at("host").get<std::string>(), p.at("client").value("device", "")};
        pair.hops = p.value("hops", 0);
        pair.rail = p.value("rail", 0);
        pair.result = p.at("result").get<std::string>();
        // The names go into scripts and the stem into file paths: only what railyard itself writes.
        static const std::regex kStem("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}/[A-Za-z0-9][A-Za-z0-9._-]{0,255}$");
        for (const std::string* name : {&pair.server.host, &pair.server.device, &pair.client.host, &pair.client.device}) {
          if (!name->empty() && !Conforms(TextRule::kName, *name))
            fail(fmt::format("round {}: '{}' is not a host or device name", round.index, *name));
        }
        if (pair.server.host.empty() || pair.client.host.empty())
          fail(fmt::format("round {}: a pair without its hosts", round.index));
        if (!std::regex_match(pair.result, kStem) || pair.result.find("..") != std::string::npos) {
          fail(fmt::format("round {}: result '{}' is not a round-NNN/pair-NNNNN name", round.index, pair.result));
        }
        round.pairs.push_back(std::move(pair));
      }
      plan.rounds.push_back(std::move(round));
    }
  } catch (const nlohmann::json::exception& e) {
    fail(fmt::format("not a burnin plan: {}", e.what()));
  }
  return plan;
}

std::vector<HostFile> BurninScripts(const BurninPlan& plan, const std::string& launcher, int first_round,
                                    const std::string& results) {
  // Names that only reach comments: a line break there would end the comment (util/config_emit.h).
  const std::string plan_name = CommentText(plan.plan_name), plane = CommentText(plan.plane), pattern = CommentText(plan.pattern);
  if (launcher != "ssh" && launcher != "srun") throw UsageError(fmt::format("--launcher '{}': ssh or srun", launcher));
  std::vector<HostFile> files;
  // `on HOST CMD OUT`: a command on a host, its output in a file, in the background.
  const std::string on =
      launcher == "ssh"
          ? "on() { h=$1; c=$2; o=$3; ssh -n -o BatchMode=yes \"$h\" \"$c\" > \"$o\" 2>&1 & }\n"
          : "on() { h=$1; c=$2; o=$3; srun --nodes=1 --ntasks=1 --overlap -w \"$h\" sh -c \"$c\" > \"$o\" 2>&1 & }\n";
  const bool roce = plan.kind == "roce";
  std::string all = fmt::format(
      "#!/bin/sh\n# railyard burnin: every round of plan {} (pattern {}, plane {}), one after the other.\n"
      "# RESULTS (default ./results) collects each pair's output; then: railyard burnin check --plan plan.json RESULTS\n"
      "set -u\ncd \"$(dirname \"$0\")\" || exit 2\nif [ -z \"${{RESULTS:-}}\" ]; then RESULTS={}; fi\nexport RESULTS\n",
      plan_name, pattern, plane, results.empty() ? "\"$PWD/results\"" : ShellWord(results));
  for (const BurninRound& round : plan.rounds) {
    if (round.index < first_round) continue;
    const std::string name = fmt::format("round-{:03}.sh", round.index);
    all += fmt::format("echo \"round {} of {}: {} pair(s)\"\nsh ./{}\n", round.index + 1, plan.rounds.size(), round.pairs.size(),
                       name);
    std::string s = fmt::format(
        "#!/bin/sh\n# railyard burnin: round {} of {} (pattern {}, plane {}, {} pair(s)) from plan {}.\n"
        "# Starts every server of the round, then every client; each client's output is its pair's result.\n"
        "set -u\nRESULTS=${{RESULTS:-results}}\nDURATION=${{DURATION:-{}}}\nLISTEN_WAIT=${{LISTEN_WAIT:-3}}\nmkdir -p "
        "\"$RESULTS/{}\"\n{}",
        round.index + 1, plan.rounds.size(), pattern, plane, round.pairs.size(), plan_name, plan.duration_s,
        round.pairs.empty() ? fmt::format("round-{:03}", round.index)
                            : round.pairs.front().result.substr(0, round.pairs.front().result.find('/')),
        on);
    std::string servers, clients;
    std::map<std::string, int> port_of;  // per server host, the next free port
    for (const BurninPair& p : round.pairs) {
      if (plan.test == "nccl") {
        // Both hosts' GPUs in one all_reduce, 8 GiB, NCCL_TESTS_SPLIT "MOD g": g parallel groups of
        // one GPU per host, so every rail is measured on its own (nccl-tests README).
        const int g = std::max(1, plan.gpus_per_node);
        clients += fmt::format(
            "# {} + {} ({} hops)\n(mpirun -np {} -H {}:{},{}:{} -x NCCL_TESTS_SPLIT=\"MOD {}\" all_reduce_perf -b 8G -e 8G -f 2 "
            "-g 1 "
            "-n 50 > \"$RESULTS/{}.txt\" 2>&1) &\n",
            p.server.host, p.client.host, p.hops, 2 * g, p.server.host, g, p.client.host, g, g, p.result);
        continue;
      }
      // Servers on one host each listen on their own port.
      const int port = 18515 + port_of[p.server.host]++;
      const std::string gid = roce ? " -x 3" : "";  // RoCE: GID index 3, RoCEv2 over the port's IPv4 address
      servers += fmt::format(
          "# {} {} <- {} {} ({} hops{})\non {} \"ib_write_bw -d {} -F --report_gbits -D $DURATION -p {}{}\" "
          "\"$RESULTS/{}.server.txt\"\n",
          p.server.host, p.server.device, p.client.host, p.client.device, p.hops, p.rail ? fmt::format(", rail {}", p.rail) : "",
          p.server.host, p.server.device, port, gid, p.result);
      const std::string target = p.server.host == p.client.host ? "localhost" : p.server.host;
      clients += fmt::format("on {} \"ib_write_bw -d {} -F --report_gbits -D $DURATION -p {}{} {}\" \"$RESULTS/{}.txt\"\n",
                             p.client.host, p.client.device, port, gid, target, p.result);
    }
    // Counters around the round: each NIC's mlxlink counters (symbol and effective errors, link
    // downs, recoveries) and module temperature before and after, so a link whose errors grow under
    // load is caught even when its bandwidth passed.
    std::string before, after;
    if (plan.counters && plan.test != "nccl") {
      const std::string dir =
          round.pairs.empty() ? "" : round.pairs.front().result.substr(0, round.pairs.front().result.find('/'));
      std::set<std::string> seen;
      for (const BurninPair& p : round.pairs) {
        for (const BurninEndpoint* e : {&p.server, &p.client}) {
          if (!seen.insert(e->host + "." + e->device).second) continue;
          for (auto [when, text] : {std::pair<const char*, std::string*>{"before", &before}, {"after", &after}}) {
            *text += fmt::format("on {} \"mlxlink -d {} -c -m\" \"$RESULTS/{}/counters/{}.{}.{}.txt\"\n", e->host, e->device, dir,
                                 e->host, e->device, when);
          }
        }
      }
      s += fmt::format("mkdir -p \"$RESULTS/{}/counters\"\n{}wait\n", dir, before);
    }
    if (!servers.empty()) s += servers + "sleep \"$LISTEN_WAIT\"  # the servers listen before any client connects\n";
    s += clients + "wait\n";
    if (!after.empty()) s += after + "wait\n";
    files.push_back({name, 0755, std::move(s)});
  }
  files.push_back({"run-all.sh", 0755, std::move(all)});
  return files;
}

}  // namespace railyard
