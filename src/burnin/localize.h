// Which part is bad, from which pairs were slow: the localization of `railyard burnin check`.
//
// Every measured pair is two NICs in series with their cables, leaf ports and the switches between.
// A single slow result cannot say which end is at fault; the same NIC slow with several partners,
// each of whom is fast with others, can. The rules (docs/burnin.md "Localization"):
// - A failed pair is blamed on the end whose other results are worse (its failure ratio without this
//   pair). When neither end has another result, or both are equally bad, both are suspects and the
//   next round must tell them apart.
// - A NIC (plus its cable and leaf port: in series, bandwidth alone cannot split them; a loopback
//   round can) blamed for failures is a "link" suspect; "confirmed" when it failed with two or more
//   partners and passed with none, "likely" with one clear failure or mixed results (a flapping link).
// - A host whose NICs are blamed on two or more rails is a "host" suspect (its NICs folded in): a
//   slow host is slow with every partner on every rail.
// - A leaf whose every measured NIC failed, across two or more hosts, is a "switch" suspect.
// - A NIC that failed its loopback (server and client on itself) is a "nic" suspect: the card or its
//   PCIe path, not the cable.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "burnin/burnin_plan.h"

namespace railyard {

// "host device" (or "host" for a host-level NCCL pair): how results, places and suspects name a NIC.
inline std::string EndpointKey(const BurninEndpoint& e) { return e.device.empty() ? e.host : e.host + " " + e.device; }

// One pair's outcome, as the localizer needs it.
struct PairOutcome {
  int round = 0;
  size_t pair = 0;
  BurninEndpoint server, client;
  bool loopback = false;
  bool failed = false;  // below the threshold, errors, or the tool failed
  double measured = 0;  // Gb/s (perftest) or GB/s busbw (NCCL); 0 when the tool gave none
  double expected = 0;
  std::string why;  // "below 360 Gb/s", "ib_write_bw: Couldn't connect to dgx002:18515"
};

// Where a NIC sits: its leaf and the cable label and leaf port of its link (from the plan).
struct NicPlace {
  std::string leaf, leaf_port, cable;
  int rail = 0;
};

struct SuspectEvidence {
  int round = 0;
  size_t pair = 0;
  std::string partner;  // "dgx017 mlx5_0"
  double measured = 0, expected = 0;
  bool failed = false;
  std::string why;
};

struct Suspect {
  std::string kind;        // host | nic | link | switch
  std::string name;        // "dgx007", "dgx007 mlx5_3", "COMP-000123", "compute-leaf-su01-r4"
  std::string confidence;  // confirmed | likely | ambiguous
  std::string reason;      // one sentence: why this part
  std::string host, device, leaf, leaf_port, cable;
  std::vector<SuspectEvidence> evidence;
};

struct Localization {
  std::vector<Suspect> suspects;
  // Endpoints with passes and no failures: partners the next round can trust.
  std::vector<BurninEndpoint> known_good;
};

// `places` maps "host device" to where that NIC sits (may be empty: then no switch suspects).
Localization Localize(const std::vector<PairOutcome>& outcomes, const std::map<std::string, NicPlace>& places);

// The next round that tells the suspects apart: each unconfirmed suspect's NIC (every NIC of a
// suspect host) against a different known-good NIC of the same rail where one exists, and a
// loopback of each suspect NIC to split the card from its cable. Pairs are disjoint; result stems
// are "bisect-round-NNN/..." with NNN the next round index.
BurninRound NextRound(const Localization& l, const std::vector<PairOutcome>& outcomes,
                      const std::map<std::string, NicPlace>& places, int index);

}  // namespace railyard
