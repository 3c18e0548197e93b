// `railyard burnin plan`: acceptance by sustained load, planned from the fabric. Rounds of disjoint
// pairs of host NICs, each pair a perftest server and client (or, for NCCL, a pair of hosts), chosen
// so that the results localize a fault: every NIC meets several partners, across leaves and rails.
//
// Patterns (docs/burnin.md):
// - pairwise: the round-robin circle method over the hosts: N-1 rounds of N/2 host pairs (N odd: N
//   rounds, one host idle in each), every pair meeting once; each host pair on every rail at once
//   (NIC i with the partner's NIC i).
// - rail: the same circle, but in one round each rail takes a different circle round, so one round
//   already puts each host's NICs against as many partners as it has rails: a slow host is slow with
//   all of them, one bad NIC only on its rail. Default 3 rounds.
// - topo: one round per hop distance the plane has (2 = same leaf, 4 = through a spine, 6 = through
//   a core), hosts paired greedily at that distance (microsoft/superbenchmark topo_aware.py does it
//   the same way from ibnetdiscover).
// - loopback: each NIC against itself (server and client on one host and device): the NIC and its
//   PCIe path without the cable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/host_file.h"
#include "planfile/planned.h"

namespace railyard {

struct BurninEndpoint {
  std::string host;
  std::string device;  // the plan's port name (mlx5_0); "" for an NCCL host-level test
};

struct BurninPair {
  BurninEndpoint server, client;
  int hops = 0;        // switch-to-switch distance x2: 0 loopback, 2 same leaf, 4 via a spine, 6 via a core
  int rail = 0;        // 1-based rail of the NICs (0 = not rail-aligned)
  std::string result;  // results file stem: "round-003/pair-00012.node001.mlx5_0.node017.mlx5_0"
};

struct BurninRound {
  int index = 0;
  std::vector<BurninPair> pairs;
};

struct BurninPlan {
  std::string plan_name, plane, kind, pattern, test;  // kind infiniband|roce; test perftest|nccl
  uint32_t speed_gbps = 0;                            // the plane's host link rate
  int duration_s = 30;
  int gpus_per_node = 0;
  bool counters = false;  // the scripts snapshot counters into <round dir>/counters/HOST.DEV.{before,after}.txt
  size_t hosts = 0;
  std::vector<BurninRound> rounds;
  std::vector<std::string> notes;  // hosts left out, rounds capped
};

struct BurninOptions {
  std::string pattern = "rail";   // pairwise | rail | topo | loopback
  std::string test = "perftest";  // perftest | nccl
  std::string plane;              // "" = the compute plane (else the first with host links)
  std::string hosts;              // Slurm host list or glob ("" = every host of the plane)
  int rounds = 0;                 // at most this many rounds (0 = the pattern's own count)
  int duration_s = 30;
  int gpus_per_node = 8;  // NCCL: ranks per host
  bool counters = true;   // perftest: snapshot each NIC's counters (mlxlink -c -m) around every round
};

// Plans the rounds. Throws UsageError for an unknown plane or pattern, a host list naming
// hosts the plane does not have, fewer than two hosts for a pairing pattern, or a plan too large to
// write (more than 20 million pairs: give --rounds).
BurninPlan PlanBurnin(const PlannedFabric& fabric, const BurninOptions& options);

// The plan as JSON (schema railyard.burnin-plan/1) and back. Parse throws "<source>: ..." naming the
// field that is wrong.
std::string BurninPlanJson(const BurninPlan& plan);
BurninPlan ParseBurninPlan(std::string_view json, const std::string& source);

// The scripts that run it: per round a shell script starting every server of the round, then every
// client, each client writing its output to $RESULTS/<pair.result>.txt (the server's beside it as
// .server.txt), through `launcher` (ssh | srun). Plus run-all.sh running the rounds in order.
// `first_round`: only rounds from this index on get scripts (a bisect plan carries the campaign's
// rounds too, already run); `results`: where run-all.sh writes by default ("" = ./results beside it).
std::vector<HostFile> BurninScripts(const BurninPlan& plan, const std::string& launcher, int first_round = 0,
                                    const std::string& results = "");

}  // namespace railyard
