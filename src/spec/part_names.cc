#include "spec/part_names.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "util/suggest.h"

namespace railyard {

std::string NormalizedFamily(std::string_view name) {
  std::string s;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (s.starts_with("cx")) s = "connectx" + s.substr(2);
  if (s.starts_with("bf") && s.size() > 2 && std::isdigit(static_cast<unsigned char>(s[2]))) s = "bluefield" + s.substr(2);
  return s;
}

namespace {

std::string_view KindName(FabricKind kind) {
  return kind == FabricKind::kInfiniband ? "InfiniBand" : kind == FabricKind::kRoce ? "RoCE" : "Ethernet";
}

bool NicFits(const NicModel& n, FabricKind kind) {
  return kind == FabricKind::kInfiniband ? n.SupportsInfiniband() : n.SupportsEthernet();
}

std::string Describe(const NicModel& n) {
  return fmt::format("{} ({}, {}x{}G {}, PCIe Gen{} x{})", n.opn, n.family, n.ports, n.max_speed, n.cage, n.pcie_gen,
                     n.pcie_width);
}

// At most `cap` names, then how many more.
std::string List(const std::vector<std::string>& names, size_t cap = 8) {
  if (names.size() <= cap) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{}, and {} more", fmt::join(names.begin(), names.begin() + static_cast<long>(cap), ", "),
                     names.size() - cap);
}

}  // namespace

PartResolution ResolveNic(const Catalog& catalog, std::string_view written, FabricKind kind, Gbps speed,
                          uint32_t ports_per_node) {
  PartResolution r;
  if (auto exact = catalog.FindNic(written)) {
    r.index = exact;
    return r;
  }
  const auto& nics = catalog.nics();
  const std::string family = NormalizedFamily(written);
  std::vector<uint16_t> in_family;
  for (size_t i = 0; i < nics.size(); ++i) {
    if (!family.empty() && NormalizedFamily(nics[i].family) == family) in_family.push_back(static_cast<uint16_t>(i));
  }
  if (in_family.empty()) {
    // Suggestions by meaning first: parts of the plane's link type that reach its speed; then spelling.
    std::vector<std::string> fitting, all;
    for (const NicModel& n : nics) {
      all.push_back(n.opn);
      all.push_back(n.family);
      if (NicFits(n, kind) && n.max_speed >= speed) {
        fitting.push_back(n.opn);
        fitting.push_back(n.family);
      }
    }
    std::string guess = ClosestMatch(written, fitting);
    if (guess.empty()) guess = ClosestMatch(written, all);
    r.error =
        guess.empty()
            ? fmt::format("unknown NIC '{}' (neither an OPN nor a family in the catalog; see `railyard catalog nics`)", written)
            : fmt::format("unknown NIC '{}'; did you mean '{}'?", written, guess);
    return r;
  }
  // The family's parts for this plane: its link type, its speed (a faster part only if none is
  // exact), ports that divide the node's (a 2-port card twice for 4 ports), in catalog order.
  auto narrow = [&](std::vector<uint16_t> from, auto keep) {
    std::vector<uint16_t> out;
    for (uint16_t i : from) {
      if (keep(nics[i])) out.push_back(i);
    }
    return out;
  };
  std::vector<uint16_t> linked = narrow(in_family, [&](const NicModel& n) { return NicFits(n, kind); });
  std::vector<uint16_t> exact = narrow(linked, [&](const NicModel& n) { return n.max_speed == speed; });
  std::vector<uint16_t> fits = exact.empty() ? narrow(linked, [&](const NicModel& n) { return n.max_speed > speed; }) : exact;
  std::vector<uint16_t> ported = narrow(fits, [&](const NicModel& n) { return n.ports > 0 && ports_per_node % n.ports == 0; });
  if (!ported.empty()) fits = ported;
  auto names = [&](const std::vector<uint16_t>& list) {
    std::vector<std::string> out;
    for (uint16_t i : list) out.push_back(nics[i].opn);
    return out;
  };
  const std::string& family_name = nics[in_family.front()].family;
  if (fits.empty()) {
    r.error = fmt::format("no {} in the catalog runs {} at {}G (its parts: {})", family_name, KindName(kind), speed,
                          List(names(in_family)));
    return r;
  }
  std::vector<uint16_t> preferred = narrow(fits, [](const NicModel& n) { return n.preferred; });
  if (preferred.size() > 1) {  // a VPI part and a single-protocol one: the plane's own protocol
    std::string_view own = kind == FabricKind::kInfiniband ? "ib" : "eth";
    std::vector<uint16_t> own_kind = narrow(preferred, [&](const NicModel& n) { return n.link_types == own; });
    if (own_kind.size() == 1) preferred = own_kind;
  }
  if (fits.size() > 1 && preferred.size() != 1) {
    r.error = fmt::format("'{}' is ambiguous for {} at {}G: write one of {}", written, KindName(kind), speed, List(names(fits)));
    return r;
  }
  uint16_t chosen = fits.size() == 1 ? fits.front() : preferred.front();
  r.index = chosen;
  std::vector<std::string> others;
  for (uint16_t i : fits) {
    if (i != chosen) others.push_back(nics[i].opn);
  }
  r.info = fmt::format("nic '{}' is {}{}", written, Describe(nics[chosen]),
                       others.empty() ? std::string(": the only one that fits the plane")
                                      : fmt::format(": the catalog's preferred {} for {}G {}; also fit: {}", family_name, speed,
                                                    KindName(kind), List(others)));
  return r;
}

PartResolution ResolveSwitch(const Catalog& catalog, std::string_view written, FabricKind kind, Gbps speed) {
  PartResolution r;
  if (auto exact = catalog.FindSwitch(written)) {
    r.index = exact;
    return r;
  }
  const auto& switches = catalog.switches();
  const FabricKind want = kind == FabricKind::kInfiniband ? FabricKind::kInfiniband : FabricKind::kEthernet;
  auto fits = [&](const SwitchModel& s) { return s.fabric == want && (s.PortsAt(speed) > 0 || s.UplinkPortsAt(speed) > 0); };
  const std::string key = NormalizedFamily(written);
  std::vector<uint16_t> prefixed, fitting;
  for (size_t i = 0; i < switches.size(); ++i) {
    bool match = !key.empty() && NormalizedFamily(switches[i].model).starts_with(key);
    for (const std::string& opn : switches[i].opns) match = match || (!key.empty() && NormalizedFamily(opn).starts_with(key));
    if (!match) continue;
    prefixed.push_back(static_cast<uint16_t>(i));
    if (fits(switches[i])) fitting.push_back(static_cast<uint16_t>(i));
  }
  std::vector<uint16_t>& pool = fitting.empty() ? prefixed : fitting;
  if (pool.size() == 1) {
    const SwitchModel& s = switches[pool.front()];
    r.index = pool.front();
    r.info =
        fmt::format("switch '{}' is the catalog's {} ({})", written, s.model, s.opns.empty() ? "no OPN listed" : s.opns.front());
    return r;
  }
  if (pool.size() > 1) {
    std::vector<std::string> names;
    for (uint16_t i : pool) names.push_back(switches[i].model);
    r.error = fmt::format("'{}' is ambiguous: write one of {}", written, List(names));
    return r;
  }
  // Not a catalog name: suggest by meaning, then spelling. Only switches of the plane's fabric that
  // run its speed are offered; those whose native port speed is the plane's come first.
  struct Candidate {
    size_t distance;
    bool native;
    std::string model;
  };
  std::vector<Candidate> candidates;
  for (const SwitchModel& s : switches) {
    if (!fits(s)) continue;
    Gbps fastest = 0;
    for (const SpeedCount& sc : s.ports) fastest = std::max(fastest, sc.speed);
    candidates.push_back({EditDistance(written, s.model), fastest == speed, s.model});
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return std::pair(!a.native, a.distance) < std::pair(!b.native, b.distance);
  });
  std::vector<std::string> offered;
  for (const Candidate& c : candidates) offered.push_back(c.model);
  std::string guess = ClosestMatch(written, offered);
  std::string list = offered.empty() ? std::string("none") : List(offered, 5);
  r.error =
      guess.empty()
          ? fmt::format("unknown switch '{}' (not in the catalog); for {} at {}G it has: {} (see `railyard catalog switches`)",
                        written, KindName(kind), speed, list)
          : fmt::format("unknown switch '{}'; did you mean '{}'? (for {} at {}G: {})", written, guess, KindName(kind), speed,
                        list);
  return r;
}

}  // namespace railyard
