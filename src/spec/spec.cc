#include "spec/spec.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "util/file.h"
#include "util/terminal.h"
#include "util/yaml_strict.h"

#include "spec/part_names.h"
#include "util/csv.h"
#include "util/suggest.h"

namespace railyard {

SpecError::SpecError(std::string file, SourceMark mark, std::string key, std::string message)
    : InputError(fmt::format("{}:{}:{}: {}: {}", file, mark.line, mark.column, key, message), file, mark.line, mark.column, key,
                 message) {}

namespace {

constexpr size_t kMaxErrorsShown = 20;

std::vector<SpecError> InFileOrder(std::vector<SpecError> all) {
  std::stable_sort(all.begin(), all.end(), [](const SpecError& a, const SpecError& b) {
    return std::pair(a.mark().line, a.mark().column) < std::pair(b.mark().line, b.mark().column);
  });
  return all;
}

std::string JoinErrors(const std::vector<SpecError>& all) {
  std::string text;
  for (size_t i = 0; i < all.size() && i < kMaxErrorsShown; ++i) text += (i ? "\n" : "") + std::string(all[i].what());
  if (all.size() > kMaxErrorsShown) text += fmt::format("\n... and {} more", all.size() - kMaxErrorsShown);
  return text;
}

}  // namespace

SpecError::SpecError(std::vector<SpecError> all) : SpecError(InFileOrder(std::move(all)), Sorted{}) {}

// Sorted first (above): the arguments below are evaluated in no set order, so none may reorder `all`.
SpecError::SpecError(std::vector<SpecError> all, Sorted)
    : InputError(JoinErrors(all), all.front().file(), all.front().line(), all.front().column(), all.front().key(),
                 all.front().message()),
      all_(std::move(all)) {}

namespace {

// Collects independent problems so a spec's author sees them all in one run.
class Problems {
 public:
  // Runs `check`; a SpecError it throws is kept (and false returned) instead of ending the parse.
  template <typename F>
  bool Check(F&& check) {
    try {
      check();
      return true;
    } catch (const SpecError& e) {
      if (e.all().empty()) {
        list_.push_back(e);
      } else {
        list_.insert(list_.end(), e.all().begin(), e.all().end());
      }
      return false;
    }
  }
  void ThrowIfAny() {
    if (list_.size() == 1) throw list_.front();
    if (!list_.empty()) throw SpecError(std::move(list_));
  }

 private:
  std::vector<SpecError> list_;
};

SourceMark MarkOf(const YAML::Node& node) {
  YAML::Mark m = node.Mark();
  if (m.is_null()) return {};
  return {m.line + 1, m.column + 1};
}

// Reads one YAML mapping with the key path it sits at, so every error can say where.
class MapReader {
 public:
  MapReader(const std::string& file, YAML::Node node, std::string path)
      : file_(file), node_(std::move(node)), path_(std::move(path)) {}

  [[noreturn]] void Fail(const YAML::Node& at, const std::string& key, const std::string& message) const {
    throw SpecError(file_, MarkOf(at), key, message);
  }

  std::string Key(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  void RequireMap() const {
    if (!node_.IsMap()) Fail(node_, path_.empty() ? "(top level)" : path_, "expected a mapping of key: value");
  }

  // Every key must be one we know; a near miss gets a suggestion.
  void CheckKeys(const std::vector<std::string>& allowed) const {
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      std::string key = it->first.Scalar();
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      Fail(it->first, Key(key), UnknownKeyMessage(key, allowed));
    }
  }

  bool Has(const std::string& key) const { return node_[key].IsDefined() && !node_[key].IsNull(); }
  YAML::Node Get(const std::string& key) const { return node_[key]; }
  const YAML::Node& node() const { return node_; }
  SourceMark Mark(const std::string& key) const {
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      if (it->first.Scalar() == key) return MarkOf(it->first);
    }
    return MarkOf(node_);
  }

  std::string String(const std::string& key, bool required = true, std::string fallback = "") const {
    if (!Has(key)) {
      if (required) Fail(node_, Key(key), "required key is missing");
      return fallback;
    }
    YAML::Node v = node_[key];
    if (!v.IsScalar()) Fail(v, Key(key), "expected a single value");
    return v.Scalar();
  }

  uint64_t Unsigned(const std::string& key, bool required, uint64_t fallback, uint64_t min, uint64_t max) const {
    if (!Has(key)) {
      if (required) Fail(node_, Key(key), "required key is missing");
      return fallback;
    }
    YAML::Node v = node_[key];
    const std::string& text = v.Scalar();
    uint64_t value = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!v.IsScalar() || ec != std::errc() || p != text.data() + text.size()) {
      Fail(v, Key(key), fmt::format("expected a whole number, got '{}'", text));
    }
    if (value < min || value > max) Fail(v, Key(key), fmt::format("{} is out of range [{}, {}]", value, min, max));
    return value;
  }

  double Real(const std::string& key, double fallback, double min, double max) const {
    if (!Has(key)) return fallback;
    YAML::Node v = node_[key];
    const std::string& text = v.Scalar();
    double value = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (!v.IsScalar() || ec != std::errc() || p != text.data() + text.size()) {
      Fail(v, Key(key), fmt::format("expected a number, got '{}'", text));
    }
    if (!(value >= min && value <= max)) Fail(v, Key(key), fmt::format("{} is out of range [{}, {}]", text, min, max));
    return value;
  }

  bool Bool(const std::string& key, bool fallback) const {
    if (!Has(key)) return fallback;
    YAML::Node v = node_[key];
    const std::string& t = v.Scalar();
    if (t == "true" || t == "yes" || t == "on") return true;
    if (t == "false" || t == "no" || t == "off") return false;
    Fail(v, Key(key), fmt::format("expected true or false, got '{}'", t));
  }

 private:
  const std::string& file_;
  YAML::Node node_;
  std::string path_;
};

// Input limits (docs/security.md): a spec is a few kilobytes; a plane has at most a million endpoints.
constexpr size_t kMaxSpecBytes = 4u << 20;
constexpr uint64_t kMaxEndpoints = 1'000'000;
constexpr size_t kMaxExtraEndpointKinds = 64;

bool ValidName(const std::string& name) {
  static const std::regex kName("^[a-z0-9][a-z0-9_-]{0,31}$");
  return std::regex_match(name, kName);
}

// A switch by model, OPN or short model ("Q3400"); a choice by meaning is noted.
uint16_t LookupSwitch(const MapReader& r, const std::string& key, const Catalog& catalog, FabricKind kind, Gbps speed,
                      std::vector<SpecNote>& notes) {
  std::string model = r.String(key);
  PartResolution found = ResolveSwitch(catalog, model, kind, speed);
  if (!found.index) r.Fail(r.Get(key), r.Key(key), found.error);
  if (!found.info.empty()) notes.push_back({MarkOf(r.Get(key)), r.Key(key), found.info});
  return *found.index;
}

NodesSpec ParseNodes(const MapReader& r) {
  r.RequireMap();
  r.CheckKeys({"count", "gpus", "pcie", "pcie_width", "per_rack", "height_u", "name_prefix", "model", "bios", "os", "kernel",
               "driver_stack"});
  NodesSpec n;
  n.mark = MarkOf(r.node());
  n.count = static_cast<uint32_t>(r.Unsigned("count", true, 0, 1, 1'000'000));
  n.gpus = static_cast<uint32_t>(r.Unsigned("gpus", false, 8, 0, 72));
  std::string pcie = r.String("pcie", false, "gen5");
  static const std::vector<std::string> kGens = {"gen3", "gen4", "gen5", "gen6"};
  auto gen = std::find(kGens.begin(), kGens.end(), pcie);
  if (gen == kGens.end()) {
    r.Fail(r.Get("pcie"), r.Key("pcie"), fmt::format("expected one of gen3, gen4, gen5, gen6, got '{}'", pcie));
  }
  n.pcie_gen = static_cast<int>(gen - kGens.begin()) + 3;
  n.pcie_width = static_cast<int>(r.Unsigned("pcie_width", false, 16, 1, 32));
  if (n.pcie_width != 1 && n.pcie_width != 2 && n.pcie_width != 4 && n.pcie_width != 8 && n.pcie_width != 16 &&
      n.pcie_width != 32) {
    r.Fail(r.Get("pcie_width"), r.Key("pcie_width"), "expected a PCIe width of 1, 2, 4, 8, 16 or 32");
  }
  n.per_rack = static_cast<uint32_t>(r.Unsigned("per_rack", false, 4, 1, 64));
  n.height_u = static_cast<uint32_t>(r.Unsigned("height_u", false, 0, 0, 48));
  n.name_prefix = r.String("name_prefix", false, "node");
  static const std::regex kHost("^[a-zA-Z][a-zA-Z0-9-]{0,40}$");
  if (!std::regex_match(n.name_prefix, kHost)) {
    r.Fail(r.Get("name_prefix"), r.Key("name_prefix"), "a hostname prefix is letters, digits and '-', starting with a letter");
  }
  n.model = r.String("model", false);
  n.bios = r.String("bios", false);
  n.os = r.String("os", false);
  if (!n.os.empty() && (n.os.find(' ') == std::string::npos || n.os.find(' ') != n.os.rfind(' '))) {
    r.Fail(r.Get("os"), r.Key("os"), fmt::format("expected the os-release ID and VERSION_ID, as 'ubuntu 22.04', got '{}'", n.os));
  }
  n.kernel = r.String("kernel", false);
  n.driver_stack = r.String("driver_stack", false);
  if (!n.driver_stack.empty() && !ParseDriverStack(n.driver_stack)) {
    r.Fail(
        r.Get("driver_stack"), r.Key("driver_stack"),
        fmt::format("expected inbox, mlnx_ofed [TRAIN] or doca_ofed [TRAIN] (TRAIN as ofed_info -s prints it: 24.10), got '{}'",
                    n.driver_stack));
  }
  for (const std::string* v : {&n.model, &n.bios, &n.kernel}) {
    if (v->size() > 128 || v->find_first_of("\n\r\t\"") != std::string::npos) {
      r.Fail(r.node(), r.Key("model"), "nodes.model, bios and kernel are one line of at most 128 characters");
    }
  }
  return n;
}

std::vector<Ratio> ParseOversubscription(const MapReader& r) {
  std::vector<Ratio> out;
  if (!r.Has("oversubscription")) return {Ratio{1, 1}};
  YAML::Node v = r.Get("oversubscription");
  auto parse_one = [&](const YAML::Node& item) {
    auto ratio = ParseRatio(item.Scalar());
    if (!item.IsScalar() || !ratio) {
      r.Fail(item, r.Key("oversubscription"),
             fmt::format("expected a ratio like \"1:1\" or \"2:1\" (down:up, down >= up), got '{}'", item.Scalar()));
    }
    out.push_back(*ratio);
  };
  if (v.IsSequence()) {
    if (v.size() == 0 || v.size() > 3)
      r.Fail(v, r.Key("oversubscription"), "give one ratio, or one per tier from the leaf up (at most 3)");
    for (const YAML::Node& item : v) parse_one(item);
  } else {
    parse_one(v);
  }
  return out;
}

PlaneSpec ParsePlane(const std::string& file, const YAML::Node& node, size_t index, const Catalog& catalog, Problems& problems,
                     std::vector<SpecNote>& notes) {
  MapReader first(file, node, fmt::format("planes[{}]", index));
  first.RequireMap();
  // Until the plane has a name, errors say planes[i]; after, planes.<name>.
  const std::string name = first.String("name");
  MapReader r(file, node, ValidName(name) ? "planes." + name : fmt::format("planes[{}]", index));
  PlaneSpec p;
  p.mark = MarkOf(node);
  for (auto it = node.begin(); it != node.end(); ++it) p.key_marks[it->first.Scalar()] = MarkOf(it->first);
  p.name = name;
  problems.Check([&] {
    r.CheckKeys({"name",
                 "kind",
                 "role",
                 "carries",
                 "nic",
                 "ports_per_node",
                 "speed",
                 "switch",
                 "spine_switch",
                 "core_switch",
                 "rail_optimized",
                 "nodes_per_su",
                 "oversubscription",
                 "tiers",
                 "extra_endpoints",
                 "manage_switches",
                 "redundancy",
                 "peer_links",
                 "netdevs",
                 "slots",
                 "mtu",
                 "qos",
                 "bond"});
  });
  problems.Check([&] {
    if (!ValidName(p.name)) {
      r.Fail(r.Get("name"), r.Key("name"), "plane names are 1-32 of a-z, 0-9, '_' and '-', starting with a letter or digit");
    }
  });
  bool kind_known = problems.Check([&] {
    std::string kind = r.String("kind");
    auto parsed_kind = ParseFabricKind(kind);
    if (!parsed_kind) r.Fail(r.Get("kind"), r.Key("kind"), fmt::format("expected infiniband, roce or ethernet, got '{}'", kind));
    p.kind = *parsed_kind;
  });

  // The role defaults from the name (compute, storage, inband, oob; management, mgmt, bmc and ipmi
  // are out-of-band), else compute.
  problems.Check([&] {
    std::string role = r.String("role", false, "");
    if (!role.empty()) {
      auto parsed = ParsePlaneRole(role);
      if (!parsed) r.Fail(r.Get("role"), r.Key("role"), fmt::format("expected compute, storage, inband or oob, got '{}'", role));
      p.role = *parsed;
    } else if (auto from_name = ParsePlaneRole(p.name)) {
      p.role = *from_name;
    } else {
      for (const char* oob : {"oob", "mgmt", "manage", "bmc", "ipmi", "out-of-band", "outofband"}) {
        if (p.name.find(oob) != std::string::npos) p.role = PlaneRole::kOob;
      }
      if (p.role != PlaneRole::kOob) {
        if (p.name.find("stor") != std::string::npos) {
          p.role = PlaneRole::kStorage;
        } else if (p.name.find("inband") != std::string::npos || p.name.find("in-band") != std::string::npos) {
          p.role = PlaneRole::kInband;
        }
      }
    }
  });
  problems.Check([&] {
    if (r.Has("carries")) {
      YAML::Node c = r.Get("carries");
      if (!c.IsSequence()) r.Fail(c, r.Key("carries"), "expected a list such as [compute, storage]");
      for (const YAML::Node& item : c) {
        auto parsed = ParsePlaneRole(item.Scalar());
        if (!parsed)
          r.Fail(item, r.Key("carries"), fmt::format("expected compute, storage, inband or oob, got '{}'", item.Scalar()));
        p.carries.push_back(*parsed);
      }
    } else {
      p.carries = {p.role};
    }
  });

  bool speed_known = problems.Check([&] {
    std::string speed = r.String("speed");
    auto parsed_speed = ParseSpeed(speed);
    if (!parsed_speed) {
      r.Fail(r.Get("speed"), r.Key("speed"),
             fmt::format("expected a speed like 400G, 400GbE, NDR, NDR200, HDR100 or XDR, got '{}'", speed));
    }
    p.speed = *parsed_speed;
  });
  // Parts are chosen for the plane's kind and speed: without them a name cannot be judged.
  if (kind_known && speed_known) {
    problems.Check([&] { p.leaf_switch = LookupSwitch(r, "switch", catalog, p.kind, p.speed, notes); });
    problems.Check([&] {
      if (r.Has("spine_switch")) p.spine_switch = LookupSwitch(r, "spine_switch", catalog, p.kind, p.speed, notes);
    });
    problems.Check([&] {
      if (r.Has("core_switch")) p.core_switch = LookupSwitch(r, "core_switch", catalog, p.kind, p.speed, notes);
    });
  }

  if (p.role == PlaneRole::kOob) {
    // An out-of-band plane cables node BMCs, one port each; a NIC is not involved.
    problems.Check([&] {
      if (r.Has("nic")) r.Fail(r.Get("nic"), r.Key("nic"), "an oob plane cables BMC ports; it takes no nic");
    });
    problems.Check([&] { p.ports_per_node = static_cast<uint32_t>(r.Unsigned("ports_per_node", false, 1, 1, 1)); });
    problems.Check([&] { p.manage_switches = r.Bool("manage_switches", true); });
  } else {
    bool ports_known =
        problems.Check([&] { p.ports_per_node = static_cast<uint32_t>(r.Unsigned("ports_per_node", false, 1, 1, 64)); });
    problems.Check([&] {
      p.nic = r.String("nic");
      if (!kind_known || !speed_known || !ports_known) return;
      PartResolution nic = ResolveNic(catalog, p.nic, p.kind, p.speed, p.ports_per_node);
      if (!nic.index) r.Fail(r.Get("nic"), r.Key("nic"), nic.error);
      if (!nic.info.empty()) notes.push_back({MarkOf(r.Get("nic")), r.Key("nic"), nic.info});
      p.nic_index = *nic.index;
      p.nic = catalog.nics()[p.nic_index].opn;
    });
    problems.Check([&] { p.manage_switches = r.Bool("manage_switches", false); });
  }
  problems.Check([&] { p.rail_optimized = r.Bool("rail_optimized", false); });
  problems.Check([&] { p.nodes_per_su = static_cast<uint32_t>(r.Unsigned("nodes_per_su", false, 0, 1, 4096)); });
  problems.Check([&] { p.oversubscription = ParseOversubscription(r); });
  problems.Check([&] { p.tiers = static_cast<uint32_t>(r.Unsigned("tiers", false, 0, 1, 3)); });
  problems.Check([&] {
    std::string redundancy = r.String("redundancy", false, "none");
    if (redundancy == "leaf-pair") {
      p.leaf_pair = true;
    } else if (redundancy != "none") {
      r.Fail(r.Get("redundancy"), r.Key("redundancy"), fmt::format("expected none or leaf-pair, got '{}'", redundancy));
    }
    if (p.leaf_pair && (p.rail_optimized || p.tiers > 1)) {
      r.Fail(r.Get("redundancy"), r.Key("redundancy"),
             "a leaf pair is one tier of two leaves: it takes neither rail_optimized nor tiers above 1");
    }
    if (p.leaf_pair && p.role != PlaneRole::kOob && p.ports_per_node < 2) {
      r.Fail(r.Get("redundancy"), r.Key("redundancy"), "a leaf pair dual-homes each node: ports_per_node must be 2 or more");
    }
  });
  // A uniform fleet names its host ports the same on every node: netdevs (what LLDP and ip show) and
  // slots (what the technician reads on the chassis), one per port in NIC order.
  for (const char* key : {"netdevs", "slots"}) {
    problems.Check([&] {
      if (!r.Has(key)) return;
      YAML::Node list = r.Get(key);
      if (!list.IsSequence()) r.Fail(list, r.Key(key), "expected a list, one per node port in NIC order");
      if (list.size() != p.ports_per_node) {
        r.Fail(list, r.Key(key), fmt::format("{} names for {} ports per node: give one per port", list.size(), p.ports_per_node));
      }
      static const std::regex kNetdev("^[A-Za-z0-9_.-]{1,15}$");
      static const std::regex kSlot("^[A-Za-z0-9_./: -]{1,24}$");
      std::vector<std::string>& out = std::string_view(key) == "netdevs" ? p.netdevs : p.slots;
      for (const YAML::Node& item : list) {
        const std::string& text = item.Scalar();
        bool ok = std::string_view(key) == "netdevs" ? std::regex_match(text, kNetdev) : std::regex_match(text, kSlot);
        if (!item.IsScalar() || !ok) {
          r.Fail(item, r.Key(key),
                 std::string_view(key) == "netdevs"
                     ? fmt::format("'{}' is not an interface name (1-15 of letters, digits, _ . -)", text)
                     : fmt::format("'{}': a slot is 1-24 letters, digits, spaces and _ . / : -", text));
        }
        out.push_back(text);
      }
    });
  }
  problems.Check([&] {
    // IPoIB in datagram mode carries at most the IB MTU less 4 bytes (4092 with a 4096 IB MTU);
    // Ethernet switches take at most 9216 bytes of frame on the ports railyard plans.
    if (!r.Has("mtu")) return;
    const bool ib = p.kind == FabricKind::kInfiniband;
    p.mtu = static_cast<uint32_t>(r.Unsigned("mtu", false, 0, 1280, ib ? 4092 : 9216));
  });
  problems.Check([&] {
    // An LACP bond: the node's ports on this plane as one interface with one address. Its members go
    // to two switches only if they act as one (MLAG, EVPN multihoming): the leaf pair.
    if (!r.Has("bond")) return;
    std::string bond = r.String("bond", false, "");
    if (bond != "802.3ad") r.Fail(r.Get("bond"), r.Key("bond"), fmt::format("expected 802.3ad (LACP), got '{}'", bond));
    if (!p.leaf_pair) {
      r.Fail(r.Get("bond"), r.Key("bond"),
             "an 802.3ad bond over two switches needs them to act as one (MLAG or EVPN "
             "multihoming): add redundancy: leaf-pair");
    }
    if (p.kind == FabricKind::kInfiniband) {
      r.Fail(r.Get("bond"), r.Key("bond"),
             "802.3ad is Ethernet's: IPoIB bonds only active-backup (use the ports as rails instead)");
    }
    p.bond = true;
  });
  if (r.Has("qos")) {
    problems.Check([&] {
      MapReader q(file, r.Get("qos"), r.Key("qos"));
      q.RequireMap();
      q.CheckKeys({"priority", "dscp", "cnp_dscp", "cnp_priority"});
      if (p.kind != FabricKind::kRoce) q.Fail(r.Get("qos"), r.Key("qos"), "qos (PFC/ECN classes) is for kind: roce planes");
      p.qos.priority = static_cast<uint8_t>(q.Unsigned("priority", false, 3, 0, 7));
      p.qos.dscp = static_cast<uint8_t>(q.Unsigned("dscp", false, 26, 0, 63));
      p.qos.cnp_dscp = static_cast<uint8_t>(q.Unsigned("cnp_dscp", false, 48, 0, 63));
      p.qos.cnp_priority = static_cast<uint8_t>(q.Unsigned("cnp_priority", false, 6, 0, 7));
      if (p.qos.cnp_priority == p.qos.priority) {
        q.Fail(q.Has("cnp_priority") ? q.Get("cnp_priority") : r.Get("qos"), q.Key("cnp_priority"),
               "congestion notifications need a priority of their own, not the lossless one");
      }
    });
  }
  problems.Check([&] {
    p.peer_links = static_cast<uint32_t>(r.Unsigned("peer_links", false, 2, 1, 64));
    if (r.Has("peer_links") && !p.leaf_pair)
      r.Fail(r.Get("peer_links"), r.Key("peer_links"), "peer_links is for redundancy: leaf-pair");
  });

  if (r.Has("extra_endpoints")) {
    YAML::Node list = r.Get("extra_endpoints");
    problems.Check([&] {
      if (!list.IsSequence()) r.Fail(list, r.Key("extra_endpoints"), "expected a list like [{name: ufm, ports: 4}]");
      if (list.size() > kMaxExtraEndpointKinds) {
        r.Fail(list, r.Key("extra_endpoints"),
               fmt::format("{} kinds of extra endpoint; at most {} are accepted", list.size(), kMaxExtraEndpointKinds));
      }
    });
    for (size_t i = 0; list.IsSequence() && i < list.size() && i < kMaxExtraEndpointKinds; ++i) {
      problems.Check([&] {
        MapReader e(file, list[i], fmt::format("{}[{}]", r.Key("extra_endpoints"), i));
        e.RequireMap();
        e.CheckKeys({"name", "ports", "count"});
        ExtraEndpointSpec x;
        x.mark = MarkOf(list[i]);
        x.name = e.String("name");
        if (!ValidName(x.name)) e.Fail(e.Get("name"), e.Key("name"), "names are 1-32 of a-z, 0-9, '_' and '-'");
        x.ports = static_cast<uint32_t>(e.Unsigned("ports", false, 1, 1, 64));
        x.count = static_cast<uint32_t>(e.Unsigned("count", false, 1, 1, 1024));
        if (x.ports > p.ports_per_node) {
          e.Fail(e.Get("ports"), e.Key("ports"),
                 fmt::format("an extra endpoint takes one node slot, so it has at most ports_per_node ({}) ports",
                             p.ports_per_node));
        }
        p.extra_endpoints.push_back(x);
      });
    }
  }
  return p;
}

LayoutSpec ParseLayout(const MapReader& r) {
  r.RequireMap();
  r.CheckKeys({"racks_per_row", "rack_width_m", "row_pitch_m", "network_racks", "rack_units", "slack_m", "in_rack_slack_m",
               "tray_height_m", "airflow"});
  LayoutSpec l;
  l.mark = MarkOf(r.node());
  l.racks_per_row = static_cast<uint32_t>(r.Unsigned("racks_per_row", false, 10, 1, 200));
  l.rack_width_m = r.Real("rack_width_m", 0.6, 0.3, 2.0);
  l.row_pitch_m = r.Real("row_pitch_m", 2.4, 1.0, 10.0);
  l.rack_units = static_cast<uint32_t>(r.Unsigned("rack_units", false, 42, 20, 60));
  l.slack_m = r.Real("slack_m", 1.0, 0, 10);
  l.in_rack_slack_m = r.Real("in_rack_slack_m", 0.3, 0, 5);
  l.tray_height_m = r.Real("tray_height_m", 0.5, 0, 5);
  l.airflow = r.String("airflow", false, "");
  if (l.airflow != "" && l.airflow != "p2c" && l.airflow != "c2p") {
    r.Fail(r.Get("airflow"), r.Key("airflow"),
           fmt::format("expected p2c (air in at the power supplies, out at the ports) or c2p, got '{}'", l.airflow));
  }
  std::string placement = r.String("network_racks", false, "end-of-row");
  if (placement == "end-of-row")
    l.network_racks = NetworkRackPlacement::kEndOfRow;
  else if (placement == "middle-of-row")
    l.network_racks = NetworkRackPlacement::kMiddleOfRow;
  else if (placement == "top-of-rack")
    l.network_racks = NetworkRackPlacement::kTopOfRack;
  else
    r.Fail(r.Get("network_racks"), r.Key("network_racks"),
           fmt::format("expected end-of-row, middle-of-row or top-of-rack, got '{}'", placement));
  return l;
}

AddressingSpec ParseAddressing(const MapReader& r, const PlaneSpec& plane) {
  r.RequireMap();
  r.CheckKeys({"prefix", "mode", "vlan", "loopbacks", "asn_base"});
  AddressingSpec a;
  a.mark = MarkOf(r.node());
  auto prefix_of = [&](const std::string& key) {
    std::string text = r.String(key);
    std::string why;
    auto prefix = ParsePrefix(text, &why);
    if (!prefix) r.Fail(r.Get(key), r.Key(key), fmt::format("'{}': {}", text, why));
    return *prefix;
  };
  if (r.Has("prefix")) a.plane.prefix = prefix_of("prefix");
  if (r.Has("loopbacks")) a.plane.loopbacks = prefix_of("loopbacks");
  a.plane.vlan = static_cast<uint16_t>(r.Unsigned("vlan", false, 0, 1, 4094));
  a.plane.asn_base = static_cast<uint32_t>(r.Unsigned("asn_base", false, 4'200'000'000u, 1, 4'294'967'294u));
  // Default mode: hosts get addresses from the prefix; InfiniBand planes get none unless asked.
  std::string mode = r.String("mode", false, plane.kind == FabricKind::kInfiniband ? "none" : "host");
  using Mode = PlaneAddressing::Mode;
  if (mode == "none")
    a.plane.mode = Mode::kNone;
  else if (mode == "host")
    a.plane.mode = Mode::kHost;
  else if (mode == "p2p31")
    a.plane.mode = Mode::kP2p31;
  else if (mode == "ipoib")
    a.plane.mode = Mode::kIpoib;
  else
    r.Fail(r.Get("mode"), r.Key("mode"), fmt::format("expected none, host, p2p31 or ipoib, got '{}'", mode));
  if (a.plane.mode != Mode::kNone && !a.plane.prefix) r.Fail(r.node(), r.Key("prefix"), "mode needs a prefix");
  if (a.plane.mode == Mode::kP2p31 && plane.kind == FabricKind::kInfiniband) {
    r.Fail(r.Get("mode"), r.Key("mode"), "p2p31 routes on the NIC links; an InfiniBand plane uses none or ipoib");
  }
  if (a.plane.mode == Mode::kIpoib && plane.kind != FabricKind::kInfiniband) {
    r.Fail(r.Get("mode"), r.Key("mode"), "ipoib is for InfiniBand planes");
  }
  return a;
}

}  // namespace

Spec ParseSpec(const std::string& yaml_text, const std::string& file_name, const Catalog& catalog) {
  if (yaml_text.size() > kMaxSpecBytes) {
    throw SpecError(file_name, {}, "(file)",
                    fmt::format("the spec is {} bytes; at most {} are accepted", yaml_text.size(), kMaxSpecBytes));
  }
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::ParserException& e) {
    throw SpecError(file_name, {e.mark.line + 1, e.mark.column + 1}, "(syntax)", e.msg);
  }
  if (!root.IsDefined() || root.IsNull()) throw SpecError(file_name, {1, 1}, "(top level)", "the spec is empty");
  if (auto d = FindDuplicateKey(root)) {
    throw SpecError(
        file_name, {d->line, d->column}, d->key,
        fmt::format("appears twice in one mapping (first at line {}): YAML would keep only one of them", d->first_line));
  }
  Spec spec;
  spec.file = file_name;
  Problems problems;
  MapReader top(spec.file, root, "");
  top.RequireMap();
  problems.Check([&] { top.CheckKeys({"name", "nodes", "planes", "layout", "addressing", "spares", "racks", "compatibility"}); });
  problems.Check([&] {
    if (!top.Has("compatibility")) return;
    YAML::Node c = top.Get("compatibility");
    if (!c.IsScalar()) top.Fail(c, "compatibility", "expected a CSV file beside the spec (docs/advise.md#compatibility-matrix)");
    spec.compat_mark = MarkOf(c);
    std::filesystem::path csv = std::filesystem::path(spec.file).parent_path() / c.Scalar();
    std::optional<std::string> text = ReadFileIfReadable(csv.string());
    if (!text) top.Fail(c, "compatibility", fmt::format("cannot read {}", csv.string()));
    try {
      spec.compat = ParseCompatMatrix(*text, csv.string());
    } catch (const std::runtime_error& e) {
      // "FILE:LINE: column C (name): message" -> a SpecError at that file and line.
      std::string what = e.what(), rest = what.substr(std::min(what.size(), csv.string().size() + 1));
      int line = std::atoi(rest.c_str());
      std::string message =
          rest.substr(std::min(rest.size(), rest.find(": ") == std::string::npos ? rest.size() : rest.find(": ") + 2));
      throw SpecError(csv.string(), {line, 1}, "compatibility", message);
    }
  });
  problems.Check([&] {
    if (!top.Has("racks")) return;
    static const std::regex kRackName("^[A-Za-z0-9][A-Za-z0-9_./-]{0,31}$");
    YAML::Node racks = top.Get("racks");
    auto add = [&](const std::string& id, const std::string& hall, SourceMark mark, const std::string& where) {
      if (!std::regex_match(hall, kRackName)) {
        throw SpecError(where, mark, "racks." + id,
                        fmt::format("'{}': a rack name is 1-32 of letters, digits and _ . / -", hall));
      }
      if (!spec.rack_names.emplace(id, hall).second) {
        throw SpecError(where, mark, "racks." + id, "named twice");
      }
      spec.rack_name_marks[id] = mark;
    };
    if (racks.IsMap()) {
      for (auto it = racks.begin(); it != racks.end(); ++it)
        add(it->first.Scalar(), it->second.Scalar(), MarkOf(it->first), spec.file);
    } else if (racks.IsScalar()) {
      // A CSV beside the spec: rack,name
      std::filesystem::path csv = std::filesystem::path(spec.file).parent_path() / racks.Scalar();
      std::optional<std::string> text = ReadFileIfReadable(csv.string());
      if (!text) top.Fail(racks, "racks", fmt::format("cannot read {}", csv.string()));
      CsvTable t = ParseCsv(*text, csv.string());
      int id = t.Column("rack"), name = t.Column("name");
      if (id < 0 || name < 0) throw SpecError(csv.string(), {1, 1}, "racks", "the header must name rack and name columns");
      for (const CsvRow& row : t.rows) {
        add(row.fields[static_cast<size_t>(id)], row.fields[static_cast<size_t>(name)], {row.line, 1}, csv.string());
      }
    } else {
      top.Fail(racks, "racks", "expected a mapping of rack ID to the hall's name, or a CSV file (rack,name)");
    }
  });
  problems.Check([&] {
    if (!top.Has("spares")) return;
    MapReader spares(spec.file, top.Get("spares"), "spares");
    spares.RequireMap();
    spares.CheckKeys({"switch", "nic", "cable", "transceiver", "fibre"});
    for (const char* category : {"switch", "nic", "cable", "transceiver", "fibre"}) {
      double pct = spares.Real(category, 0, 0, 100);
      if (pct > 0) spec.spares_percent[category] = pct;
    }
  });
  problems.Check([&] {
    spec.name = top.String("name");
    if (spec.name.empty() || spec.name.size() > 64 || spec.name.find_first_of("\"\\") != std::string::npos ||
        HasControl(spec.name) || !ValidUtf8(spec.name)) {
      top.Fail(top.Get("name"), "name",
               "a cluster name is 1-64 bytes of printable UTF-8 without quotes, backslashes or control characters");
    }
  });
  problems.Check([&] {
    if (!top.Has("nodes")) top.Fail(root, "nodes", "required key is missing");
    spec.nodes = ParseNodes(MapReader(spec.file, top.Get("nodes"), "nodes"));
  });

  std::set<std::string> names;
  problems.Check([&] {
    if (!top.Has("planes")) top.Fail(root, "planes", "required key is missing");
    YAML::Node planes = top.Get("planes");
    if (!planes.IsSequence() || planes.size() == 0) top.Fail(planes, "planes", "expected a non-empty list of planes");
    for (size_t i = 0; i < planes.size(); ++i) {
      problems.Check([&] {
        PlaneSpec plane = ParsePlane(spec.file, planes[i], i, catalog, problems, spec.notes);
        if (!names.insert(plane.name).second) {
          throw SpecError(spec.file, MarkOf(planes[i]["name"]), fmt::format("planes[{}].name", i),
                          fmt::format("plane '{}' is defined twice", plane.name));
        }
        // Extra endpoints (UFM, storage heads) take node slots too: they count against the same cap.
        uint64_t endpoints = spec.nodes.count;
        for (const ExtraEndpointSpec& x : plane.extra_endpoints) endpoints += x.count;
        if (endpoints > kMaxEndpoints) {
          throw SpecError(spec.file, MarkOf(planes[i]), fmt::format("planes[{}].extra_endpoints", i),
                          fmt::format("{} endpoints (nodes and extra endpoints) on one plane; at most {} are accepted", endpoints,
                                      kMaxEndpoints));
        }
        spec.planes.push_back(std::move(plane));
      });
    }
    if (std::count_if(spec.planes.begin(), spec.planes.end(), [](const PlaneSpec& p) { return p.role == PlaneRole::kOob; }) > 1) {
      top.Fail(planes, "planes", "at most one oob plane: a node has one BMC port");
    }
  });

  problems.Check([&] {
    if (top.Has("layout")) spec.layout = ParseLayout(MapReader(spec.file, top.Get("layout"), "layout"));
  });

  problems.Check([&] {
    const NodesSpec& n = spec.nodes;
    if (n.height_u > 0 && n.per_rack * n.height_u > spec.layout.rack_units) {
      throw SpecError(spec.file, n.mark, "nodes.per_rack",
                      fmt::format("{} nodes of {}U need {}U; a rack has {}U (layout.rack_units)", n.per_rack, n.height_u,
                                  n.per_rack * n.height_u, spec.layout.rack_units));
    }
  });

  if (top.Has("addressing")) {
    YAML::Node addressing = top.Get("addressing");
    problems.Check([&] {
      if (!addressing.IsMap()) top.Fail(addressing, "addressing", "expected a mapping of plane name to addressing");
    });
    std::vector<std::string> plane_names(names.begin(), names.end());
    for (auto it = addressing.begin(); addressing.IsMap() && it != addressing.end(); ++it) {
      problems.Check([&] {
        std::string plane_name = it->first.Scalar();
        auto plane =
            std::find_if(spec.planes.begin(), spec.planes.end(), [&](const PlaneSpec& p) { return p.name == plane_name; });
        if (plane == spec.planes.end()) {
          std::string guess = ClosestMatch(plane_name, plane_names);
          throw SpecError(
              spec.file, MarkOf(it->first), "addressing." + plane_name,
              guess.empty() ? "no plane of that name" : fmt::format("no plane of that name; did you mean '{}'?", guess));
        }
        spec.addressing[plane_name] = ParseAddressing(MapReader(spec.file, it->second, "addressing." + plane_name), *plane);
      });
    }
    // Prefixes of different planes must not overlap: they share routing domains at the edge.
    for (auto a = spec.addressing.begin(); a != spec.addressing.end(); ++a) {
      for (auto b = std::next(a); b != spec.addressing.end(); ++b) {
        problems.Check([&] {
          if (a->second.plane.prefix && b->second.plane.prefix && a->second.plane.prefix->overlaps(*b->second.plane.prefix)) {
            throw SpecError(spec.file, b->second.mark, "addressing." + b->first + ".prefix",
                            fmt::format("{} overlaps {} of plane {}", FormatPrefix(*b->second.plane.prefix),
                                        FormatPrefix(*a->second.plane.prefix), a->first));
          }
        });
      }
    }
  }
  problems.ThrowIfAny();
  return spec;
}

Spec LoadSpec(const std::string& path, const Catalog& catalog) {
  if (path == "-") {  // `… | railyard check -`: named "(stdin)" in errors
    std::string text = ReadWholeFile(path);
    if (text.size() > kMaxSpecBytes) {
      throw SpecError("(stdin)", {}, "(file)",
                      fmt::format("the input is {} bytes; a cluster spec is a few kilobytes (at most {} accepted)", text.size(),
                                  kMaxSpecBytes));
    }
    return ParseSpec(text, "(stdin)", catalog);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SpecError(path, {}, "(file)", "cannot read the file");
  in.seekg(0, std::ios::end);
  if (static_cast<size_t>(in.tellg()) > kMaxSpecBytes) {
    throw SpecError(path, {}, "(file)",
                    fmt::format("the file is {} bytes; a cluster spec is a few kilobytes (at most {} accepted)",
                                static_cast<size_t>(in.tellg()), kMaxSpecBytes));
  }
  in.seekg(0);
  std::ostringstream text;
  text << in.rdbuf();
  return ParseSpec(text.str(), path, catalog);
}

}  // namespace railyard
