#include "burnin/localize.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

namespace railyard {
namespace {

struct EndpointStats {
  BurninEndpoint endpoint;
  std::vector<size_t> results;  // indexes into outcomes (pairs with a partner)
  size_t fails = 0;
  std::vector<size_t> blamed;  // failed results blamed on this end
  bool ambiguous_only = true;  // every blame was a coin toss
  bool loopback_failed = false;
  bool loopback_passed = false;
  std::vector<size_t> loopbacks;
};

SuspectEvidence Evidence(const PairOutcome& o, const BurninEndpoint& self) {
  const BurninEndpoint& partner = EndpointKey(o.server) == EndpointKey(self) ? o.client : o.server;
  return {o.round, o.pair, o.loopback ? "itself (loopback)" : EndpointKey(partner), o.measured, o.expected, o.failed, o.why};
}

}  // namespace

Localization Localize(const std::vector<PairOutcome>& outcomes, const std::map<std::string, NicPlace>& places) {
  std::map<std::string, EndpointStats> stats;  // ordered: deterministic output
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const PairOutcome& o = outcomes[i];
    if (o.loopback) {
      EndpointStats& s = stats[EndpointKey(o.server)];
      s.endpoint = o.server;
      s.loopbacks.push_back(i);
      (o.failed ? s.loopback_failed : s.loopback_passed) = true;
      continue;
    }
    for (const BurninEndpoint* e : {&o.server, &o.client}) {
      EndpointStats& s = stats[EndpointKey(*e)];
      s.endpoint = *e;
      s.results.push_back(i);
      s.fails += o.failed;
    }
  }
  // Blame each failed pair on the end whose other results are worse; an end with no other result
  // counts as even odds (0.5), so a clean partner shifts the blame to it.
  auto other_ratio = [&](const EndpointStats& s) {
    const size_t others = s.results.size() - 1;
    return others == 0 ? 0.5 : static_cast<double>(s.fails - 1) / static_cast<double>(others);
  };
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const PairOutcome& o = outcomes[i];
    if (o.loopback || !o.failed) continue;
    EndpointStats& a = stats[EndpointKey(o.server)];
    EndpointStats& b = stats[EndpointKey(o.client)];
    const double ra = other_ratio(a), rb = other_ratio(b);
    if (ra > rb) {
      a.blamed.push_back(i);
      a.ambiguous_only = false;
    } else if (rb > ra) {
      b.blamed.push_back(i);
      b.ambiguous_only = false;
    } else {
      // Equal: both bad elsewhere too (two bad parts met), or neither has anything to go on.
      const bool both_bad = ra >= 0.5 && (a.results.size() > 1 || b.results.size() > 1);
      a.blamed.push_back(i);
      b.blamed.push_back(i);
      if (both_bad) a.ambiguous_only = b.ambiguous_only = false;
    }
  }
  Localization out;
  std::set<std::string> folded;  // endpoint keys taken into a switch or host suspect
  auto endpoint_evidence = [&](const EndpointStats& s, Suspect& sus) {
    for (size_t i : s.results) sus.evidence.push_back(Evidence(outcomes[i], s.endpoint));
    for (size_t i : s.loopbacks) sus.evidence.push_back(Evidence(outcomes[i], s.endpoint));
  };
  // Switches: a leaf whose every measured NIC failed every time, across two or more hosts.
  std::map<std::string, std::vector<const EndpointStats*>> by_leaf;
  for (const auto& [key, s] : stats) {
    auto place = places.find(key);
    if (place != places.end() && !place->second.leaf.empty() && !s.results.empty()) by_leaf[place->second.leaf].push_back(&s);
  }
  for (const auto& [leaf, nics] : by_leaf) {
    std::set<std::string> hosts;
    bool all_failed = true;
    for (const EndpointStats* s : nics) {
      hosts.insert(s->endpoint.host);
      all_failed = all_failed && s->fails == s->results.size();
    }
    if (!all_failed || hosts.size() < 2) continue;
    Suspect sus;
    sus.kind = "switch";
    sus.name = leaf;
    sus.leaf = leaf;
    sus.confidence = nics.size() >= 3 ? "confirmed" : "likely";
    sus.reason =
        fmt::format("every pair through it was slow: {} NIC(s) of {} host(s), each fast nowhere", nics.size(), hosts.size());
    for (const EndpointStats* s : nics) {
      folded.insert(EndpointKey(s->endpoint));
      endpoint_evidence(*s, sus);
    }
    out.suspects.push_back(std::move(sus));
  }
  // NICs (and their links) with blame; hosts with blame on two or more NICs.
  std::map<std::string, std::vector<const EndpointStats*>> by_host;
  for (const auto& [key, s] : stats) {
    if (folded.count(key) || (s.blamed.empty() && !s.loopback_failed)) continue;
    by_host[s.endpoint.host].push_back(&s);
  }
  for (const auto& [host, nics] : by_host) {
    size_t firm = 0;
    for (const EndpointStats* s : nics) firm += !s->ambiguous_only || s->loopback_failed;
    const bool host_level = nics.front()->endpoint.device.empty();
    if (!host_level && firm >= 2) {
      Suspect sus;
      sus.kind = "host";
      sus.name = host;
      sus.host = host;
      size_t partners_failed = 0, passes = 0;
      std::set<std::string> partner_hosts;
      for (const EndpointStats* s : nics) {
        partners_failed += s->blamed.size();
        for (size_t i : s->blamed) {
          partner_hosts.insert(outcomes[i].server.host == host ? outcomes[i].client.host : outcomes[i].server.host);
        }
        passes += s->results.size() - s->fails;
        endpoint_evidence(*s, sus);
        folded.insert(EndpointKey(s->endpoint));
      }
      sus.confidence = passes == 0 && partners_failed >= 2 ? "confirmed" : "likely";
      sus.reason = fmt::format(
          "slow on {} of its NICs, in {} pairs with {} other hosts: the host (CPU, memory, PCIe, power, a "
          "driver setting), not one card",
          firm, partners_failed, partner_hosts.size());
      out.suspects.push_back(std::move(sus));
      continue;
    }
    for (const EndpointStats* s : nics) {
      Suspect sus;
      sus.host = s->endpoint.host;
      sus.device = s->endpoint.device;
      auto place = places.find(EndpointKey(s->endpoint));
      if (place != places.end()) {
        sus.leaf = place->second.leaf;
        sus.leaf_port = place->second.leaf_port;
        sus.cable = place->second.cable;
      }
      endpoint_evidence(*s, sus);
      std::set<std::string> partners;
      for (size_t i : s->blamed)
        partners.insert(EndpointKey(outcomes[i].server) == EndpointKey(s->endpoint) ? EndpointKey(outcomes[i].client)
                                                                                    : EndpointKey(outcomes[i].server));
      const size_t passes = s->results.size() - s->fails;
      if (host_level) {
        sus.kind = "host";
        sus.name = s->endpoint.host;
      } else if (s->loopback_failed) {
        sus.kind = "nic";
        sus.name = EndpointKey(s->endpoint);
      } else {
        sus.kind = "link";
        sus.name = EndpointKey(s->endpoint);
      }
      if (s->loopback_failed) {
        sus.confidence = "confirmed";
        sus.reason = "slow against itself (loopback): the card or its PCIe path, not the cable";
      } else if (s->ambiguous_only) {
        sus.confidence = "ambiguous";
        sus.reason = fmt::format(
            "slow with {}, and neither end has another result to tell which: the next round pairs each with a known-good "
            "partner",
            *partners.begin());
      } else if (partners.size() >= 2 && passes == 0) {
        sus.confidence = "confirmed";
        sus.reason = fmt::format("slow with {} different partners and fast with none", partners.size());
      } else if (passes > 0) {
        sus.confidence = "likely";
        sus.reason = fmt::format("slow with {} partner(s), fast with {}: intermittent (a flapping link or a marginal cable)",
                                 partners.size(), passes);
      } else {
        sus.confidence = "likely";
        sus.reason = "slow with its one partner, who was fast with others";
      }
      if (sus.kind == "link" && !s->loopback_passed && sus.confidence != "ambiguous") {
        sus.reason += sus.cable.empty()
                          ? "; a loopback run tells the card from the link"
                          : fmt::format("; the card, cable {} or leaf port {} {}: a loopback run tells the card from the link",
                                        sus.cable, sus.leaf, sus.leaf_port);
      } else if (sus.kind == "link" && s->loopback_passed) {
        sus.reason += fmt::format("; its loopback was fast, so the cable{} or the leaf port, not the card",
                                  sus.cable.empty() ? "" : " " + sus.cable);
      }
      out.suspects.push_back(std::move(sus));
    }
  }
  auto rank = [](const std::string& c) { return c == "confirmed" ? 0 : c == "likely" ? 1 : 2; };
  std::stable_sort(out.suspects.begin(), out.suspects.end(), [&](const Suspect& a, const Suspect& b) {
    return rank(a.confidence) < rank(b.confidence) ||
           (rank(a.confidence) == rank(b.confidence) && a.evidence.size() > b.evidence.size());
  });
  for (const auto& [key, s] : stats) {
    if (!s.results.empty() && s.fails == 0 && !s.loopback_failed) out.known_good.push_back(s.endpoint);
  }
  return out;
}

BurninRound NextRound(const Localization& l, const std::vector<PairOutcome>& outcomes,
                      const std::map<std::string, NicPlace>& places, int index) {
  BurninRound round;
  round.index = index;
  std::set<std::string> used;
  // Known-good partners by rail (0 = any), each used once.
  std::map<int, std::vector<BurninEndpoint>> good;
  for (const BurninEndpoint& e : l.known_good) {
    auto place = places.find(EndpointKey(e));
    good[place == places.end() ? 0 : place->second.rail].push_back(e);
  }
  std::map<int, size_t> next_good;
  auto stem = [&](const BurninEndpoint& s, const BurninEndpoint& c) {
    std::string out = fmt::format("bisect-round-{:03}/pair-{:05}.{}", index, round.pairs.size(), s.host);
    if (!s.device.empty()) out += "." + s.device;
    out += "." + c.host;
    if (!c.device.empty()) out += "." + c.device;
    return out;
  };
  auto partner_for = [&](const BurninEndpoint& e) -> const BurninEndpoint* {
    auto place = places.find(EndpointKey(e));
    const int rail = place == places.end() ? 0 : place->second.rail;
    auto& list = good[rail];
    for (size_t& i = next_good[rail]; i < list.size(); ++i) {
      if (list[i].host == e.host || used.count(EndpointKey(list[i]))) continue;
      return &list[i++];
    }
    return nullptr;
  };
  auto add = [&](const BurninEndpoint& suspect, const BurninEndpoint& partner, bool loopback) {
    BurninPair p;
    p.server = partner;
    p.client = suspect;
    auto a = places.find(EndpointKey(suspect)), b = places.find(EndpointKey(partner));
    if (loopback) {
      p.server = suspect;
      p.hops = 0;
    } else if (a != places.end() && b != places.end()) {
      p.hops = a->second.leaf == b->second.leaf ? 2 : 4;
    }
    p.rail = a == places.end() ? 0 : a->second.rail;
    p.result = stem(p.server, p.client);
    used.insert(EndpointKey(suspect));
    used.insert(EndpointKey(partner));
    round.pairs.push_back(std::move(p));
  };
  // Endpoints each suspect stands for.
  std::map<std::string, std::vector<BurninEndpoint>> nics_of_host;
  for (const PairOutcome& o : outcomes) {
    for (const BurninEndpoint* e : {&o.server, &o.client}) {
      auto& list = nics_of_host[e->host];
      if (std::none_of(list.begin(), list.end(), [&](const BurninEndpoint& x) { return x.device == e->device; }))
        list.push_back(*e);
    }
  }
  for (const Suspect& s : l.suspects) {
    if (s.kind == "switch") continue;  // the evidence already spans hosts: replace or inspect the switch
    const bool looped = std::any_of(s.evidence.begin(), s.evidence.end(),
                                    [](const SuspectEvidence& e) { return e.partner == "itself (loopback)"; });
    // Settled: a confirmed host or card, or a confirmed link whose loopback has run.
    if (s.confidence == "confirmed" && (s.kind == "host" || s.kind == "nic" || looped)) continue;
    std::vector<BurninEndpoint> ends;
    if (s.kind == "host") {
      ends = nics_of_host[s.host];
    } else {
      ends.push_back({s.host, s.device});
    }
    for (const BurninEndpoint& e : ends) {
      if (used.count(EndpointKey(e))) continue;
      if (s.confidence != "confirmed") {
        if (const BurninEndpoint* g = partner_for(e)) {
          add(e, *g, false);
          continue;
        }
      }
      // A confirmed link (or no good partner left): against itself, to tell the card from the cable.
      if (!e.device.empty() && s.kind == "link") add(e, e, true);
    }
  }
  return round;
}

}  // namespace railyard
