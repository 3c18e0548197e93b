#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "burnin/burnin_check.h"
#include "burnin/burnin_ledger.h"
#include "burnin/burnin_plan.h"
#include "export/write_all.h"
#include "ledger/ledger.h"
#include "parse/fixtures.h"
#include "parse/nccl_tests.h"
#include "parse/perftest.h"
#include "plan/planner.h"
#include "spec/spec.h"
#include "util/file.h"
#include "util/hostlist.h"

namespace railyard {
namespace {

namespace fs = std::filesystem;

std::string Fixture(const std::string& relative) { return ReadWholeFile(testing::FixturePath("burnin/" + relative).string()); }

// --- Parsers, on the real outputs in tests/fixtures/burnin (provenance in its SOURCES.md) ---

TEST(Perftest, NdrWriteInGbitsWithItsBanner) {
  PerftestResult r = ParsePerftest(Fixture("perftest/ib_write_bw-gbits-ib-ndr400-cx7-client-392g.txt"));
  EXPECT_EQ(r.test, "RDMA_Write BW Test");
  EXPECT_EQ(r.device, "mlx5_0");
  EXPECT_EQ(r.link_type, "IB");
  EXPECT_EQ(r.unit, "Gb/sec");
  ASSERT_EQ(r.bw.size(), 1u);  // the CPU frequency warning between header and row is not a row
  EXPECT_EQ(r.bw[0].bytes, 65536u);
  EXPECT_DOUBLE_EQ(r.bw[0].average_gbps, 392.34);
  ASSERT_TRUE(r.bw[0].peak_gbps);
  EXPECT_DOUBLE_EQ(*r.bw[0].peak_gbps, 392.38);
  EXPECT_TRUE(r.complete);
  EXPECT_TRUE(r.errors.empty());
}

TEST(Perftest, MegabytesAreMebibytesInEveryVersion) {
  // Before 2024 the header said MB/sec, after it MiB/sec; both are 2^20 bytes/s (format_factor 0x100000).
  PerftestResult mib = ParsePerftest(Fixture("perftest/ib_send_bw-mibsec-ib-ndr400-cx7-client-cpufreq-warning.txt"));
  ASSERT_EQ(mib.bw.size(), 1u);
  EXPECT_EQ(mib.unit, "MiB/sec");
  EXPECT_NEAR(mib.bw[0].average_gbps, 390.55, 0.01);  // 46556.xx MiB/s
  PerftestResult mb = ParsePerftest(Fixture("perftest/ib_write_bw-mbsec-D300-rocev2-rdmacm-peak-zero.txt"));
  ASSERT_EQ(mb.bw.size(), 1u);
  EXPECT_NEAR(mb.bw[0].average_gbps, 10322.23 * 1048576 * 8 / 1e9, 1e-6);
  // -D: peak printed as 0.00 (the paste dropped the WARNING line): not measured, not zero.
  EXPECT_FALSE(mb.bw[0].peak_gbps);
  EXPECT_TRUE(mb.peak_not_measured);
}

TEST(Perftest, DurationBidirectionalSweepsAndFailures) {
  PerftestResult d = ParsePerftest(Fixture("perftest/ib_write_bw-gbits-D60-rocev2-rdmacm-16qp-cuda-client.txt"));
  EXPECT_EQ(d.qps, 16);
  EXPECT_EQ(d.link_type, "Ethernet");
  ASSERT_EQ(d.bw.size(), 1u);
  EXPECT_DOUBLE_EQ(d.bw[0].average_gbps, 181.46);
  EXPECT_TRUE(d.peak_not_measured);
  PerftestResult b = ParsePerftest(Fixture("perftest/ib_write_bw-gbits-bidir-b-D5-rocev2-100g-cx5-client.txt"));
  EXPECT_TRUE(b.bidirectional);
  // The -a sweep whose run ended in a completion error: its rows, and the error with its line.
  PerftestResult sweep = ParsePerftest(Fixture("perftest/ib_write_bw-gbits-a-sweep-rocev2-400g-client-completion-error-gke.txt"));
  EXPECT_EQ(sweep.bw.size(), 16u);
  EXPECT_NEAR(sweep.bw.front().average_gbps, 0.048851, 1e-9);  // the 6-decimal form below 0.1 Gb/s
  ASSERT_FALSE(sweep.errors.empty());
  EXPECT_EQ(sweep.errors.front().text, "Completion with error at client");
  EXPECT_FALSE(sweep.complete);
  // Server and client output interleaved line by line (superbench): each row once.
  PerftestResult inter = ParsePerftest(Fixture("perftest/ib_write_bw-mbsec-a-sweep-ib-loopback-interleaved-superbench.txt"));
  EXPECT_EQ(inter.bw.size(), 23u);
  PerftestResult refused = ParsePerftest(Fixture("perftest/ib_write_bw-error-couldnt-connect-unable-to-init-socket-pr228.txt"));
  ASSERT_FALSE(refused.errors.empty());
  EXPECT_EQ(refused.errors.front().line, 2);
  EXPECT_EQ(refused.errors.front().text, "Couldn't connect to 192.168.125.211:18515");
  EXPECT_TRUE(refused.bw.empty());
  PerftestResult rtr = ParsePerftest(Fixture("perftest/ib_write_bw-error-failed-to-modify-qp-rtr-issue393.txt"));
  EXPECT_EQ(rtr.errors.size(), 4u);
}

TEST(Perftest, LatencyTablesAndCutOutput) {
  PerftestResult lat = ParsePerftest(Fixture("perftest/ib_send_lat-ib-ndr400-cx7-client-latency-table.txt"));
  ASSERT_EQ(lat.lat.size(), 1u);
  EXPECT_EQ(lat.unit, "usec");
  EXPECT_TRUE(lat.lat[0].t_p99_us);
  PerftestResult dur = ParsePerftest(Fixture("perftest/ib_write_lat-D300-duration-latency-rocev2-rdmacm-tps.txt"));
  ASSERT_EQ(dur.lat.size(), 1u);
  EXPECT_FALSE(dur.lat[0].t_min_us);
  // Cut after the header: a warning naming it, no row, no crash.
  std::string text = Fixture("perftest/ib_write_bw-gbits-ib-ndr400-cx7-client-392g.txt");
  PerftestResult cut = ParsePerftest(text.substr(0, text.find(" 65536 ")));
  EXPECT_TRUE(cut.bw.empty());
  bool said = false;
  for (const ParseWarning& w : cut.warnings) said = said || w.message.find("did not finish") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(Perftest, OutJsonReadLineByLineWithItsInvalidForms) {
  // The writer's template (tests/fixtures/burnin/FORMATS.md): and --output=bandwidth's trailing comma.
  const char* json =
      "{\n\"test_info\": {\n\"test\": \"RDMA_Write_BW_Test\",\n\"Device\": \"mlx5_0\",\n\"Number_of_qps\": 2,\n"
      "\"Link_type\": \"IB\"\n},\n\"results\": {\n\"MsgSize\": 65536,\n\"n_iterations\": 1234567,\n\"BW_peak\": 0.00,\n"
      "\"BW_average\": 181.46,\n\"MsgRate\": 0.346100\n}\n}\n";
  PerftestResult r = ParsePerftestJson(json, true);
  ASSERT_EQ(r.bw.size(), 1u);
  EXPECT_EQ(r.test, "RDMA Write BW Test");
  EXPECT_DOUBLE_EQ(r.bw[0].average_gbps, 181.46);
  EXPECT_FALSE(r.bw[0].peak_gbps);
  PerftestResult bw = ParsePerftestJson("{\n\"results\": {\n\"bw_avg\": 23000.5,\n}\n}\n", false);
  ASSERT_EQ(bw.bw.size(), 1u);
  EXPECT_NEAR(bw.bw[0].average_gbps, 23000.5 * 1048576 * 8 / 1e9, 1e-6);
}

TEST(NcclTests, MultiNodeTableRanksAndFooter) {
  NcclResult r = ParseNcclTests(Fixture("nccl-tests/all_reduce_perf-2node-16gpu-h100-1G-16G-oci.txt"));
  ASSERT_EQ(r.ranks.size(), 16u);
  EXPECT_EQ(r.ranks[8].host, "h100-ord01-03-294");
  EXPECT_EQ(r.ranks[8].gpu, "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(r.rows.size(), 5u);
  EXPECT_EQ(r.rows[3].bytes, 8589934592u);
  EXPECT_EQ(r.rows[3].redop, "sum");
  EXPECT_DOUBLE_EQ(r.rows[3].out_of_place.busbw_gbs, 469.84);
  EXPECT_DOUBLE_EQ(r.rows[3].in_place.busbw_gbs, 469.96);
  ASSERT_TRUE(r.out_of_bounds);
  EXPECT_EQ(*r.out_of_bounds, 0u);
  ASSERT_TRUE(r.avg_busbw_gbs);
  EXPECT_DOUBLE_EQ(*r.avg_busbw_gbs, 464.075);
  EXPECT_TRUE(r.complete);
}

TEST(NcclTests, WrongElementsFailuresAndEveryLayout) {
  NcclResult wrong = ParseNcclTests(Fixture("nccl-tests/all_reduce_perf-2node-2gpu-rtx3090-wrong-nonzero-FAILED-inc.txt"));
  ASSERT_TRUE(wrong.out_of_bounds);
  EXPECT_EQ(*wrong.out_of_bounds, 108u);
  bool exponent = false;
  for (const NcclRow& row : wrong.rows) exponent = exponent || (row.out_of_place.wrong && *row.out_of_place.wrong > 1e6);
  EXPECT_TRUE(exponent);  // "1.04858e+06"
  NcclResult failed = ParseNcclTests(Fixture("nccl-tests/sendrecv_perf-1node-2gpu-v100-NCCL-failure-unhandled-system-error.txt"));
  ASSERT_FALSE(failed.errors.empty());
  EXPECT_EQ(failed.errors.front().line, 11);
  // The oldest layout: no '#', an "error" column, no redop or root.
  NcclResult v1 = ParseNcclTests(Fixture("nccl-tests/all_gather_perf-v1-legacy-1node-8gpu-v100-error-column-FAILED-issue37.txt"));
  ASSERT_EQ(v1.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(v1.rows[0].out_of_place.busbw_gbs, 129.05);
  EXPECT_EQ(*v1.out_of_bounds, 2u);
  // In-place N/A (alltoall), and legacy rows with a type but no redop.
  NcclResult na = ParseNcclTests(Fixture("nccl-tests/alltoall_perf-1node-1gpu-rtx5090-inplace-NA-busbw0-issue287.txt"));
  ASSERT_EQ(na.rows.size(), 1u);
  EXPECT_FALSE(na.rows[0].in_place.wrong);
  NcclResult legacy = ParseNcclTests(Fixture("nccl-tests/alltoall_perf-legacy-1node-8gpu-a100-superbench.txt"));
  EXPECT_EQ(legacy.rows.size(), 34u);
  // A run that hung after the header: no row, and a warning that says so.
  NcclResult hung = ParseNcclTests(Fixture("nccl-tests/all_gather_perf-2node-4gpu-b200-hang-no-rows-truncated.txt"));
  EXPECT_TRUE(hung.rows.empty());
  EXPECT_FALSE(hung.complete);
  EXPECT_FALSE(hung.warnings.empty());
}

TEST(NcclTests, JsonOutputAsTheWriterWritesIt) {
  // The -J writer's structure (FORMATS.md): booleans as strings, root padded, nwrong null with -c 0.
  const char* json =
      R"({"version":3,"config":{"ngpus":1,"devices":[{"rank":0,"group":0,"pid":1,"hostname":"gpu001","device":0,)"
      R"("device_info":"NVIDIA B200"}]},"results":[{"size":8589934592,"count":2147483648,"type":"float","redop":"sum",)"
      R"("root":"    -1","out_of_place":{"time":34280.0,"alg_bw":250.58,"bus_bw":469.84,"nwrong":0},)"
      R"("in_place":{"time":34272.0,"alg_bw":250.64,"bus_bw":469.96,"nwrong":null}}],)"
      R"("out_of_bounds":{"count":0,"okay":"true"},"average_bus_bandwidth":{"bandwidth":469.9,"okay":"unchecked"},"errors":[]})";
  NcclResult r = ParseNcclTestsJson(json);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(r.rows[0].out_of_place.busbw_gbs, 469.84);
  EXPECT_FALSE(r.rows[0].in_place.wrong);
  EXPECT_EQ(r.ranks.at(0).host, "gpu001");
  EXPECT_TRUE(r.complete);
  EXPECT_TRUE(ParseNcclTestsJson("{\"results\": 7, \"average_bus_bandwidth\": {\"okay\": 1}}").rows.empty());
}

TEST(Hostlist, SlurmRangesAndErrors) {
  EXPECT_EQ(ExpandHostlist("node[001-003,007],gpu1"),
            (std::vector<std::string>{"node001", "node002", "node003", "node007", "gpu1"}));
  EXPECT_EQ(ExpandHostlist("r[1-2]n[1-2]"), (std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"}));
  EXPECT_EQ(ExpandHostlist("n[8-10]"), (std::vector<std::string>{"n8", "n9", "n10"}));
  EXPECT_THROW(ExpandHostlist("node[001-"), std::runtime_error);
  EXPECT_THROW(ExpandHostlist("node[5-1]"), std::runtime_error);
  EXPECT_THROW(ExpandHostlist("node[0-99999999]"), std::runtime_error);  // over the limit, not 100 million names
  EXPECT_THROW(ExpandHostlist("a,,b"), std::runtime_error);
}

// --- The campaign simulator ---

// A rail-optimized RoCE fabric: 16 hosts x 8 rails in two SUs of 8 (a leaf per rail and SU), spines, 400G.
const char* kSpec = R"(name: burnin
nodes: {count: 16, gpus: 8, pcie: gen5, per_rack: 4, name_prefix: gpu}
planes:
  - {name: compute, kind: roce, nic: MCX75310AAS-NEAT, ports_per_node: 8, speed: 400G, switch: SN5600, rail_optimized: true,
     nodes_per_su: 8, tiers: 2}
addressing:
  compute: {prefix: 10.0.0.0/16, mode: p2p31, loopbacks: 10.254.0.0/24}
)";

struct Campaign {
  fs::path dir;
  PlannedFabric fabric;
  Campaign() : dir(fs::temp_directory_path() / fmt::format("railyard-burnin-{}-{}", ::getpid(), counter++)) {
    fs::remove_all(dir);
    WritePlanOutputs(Plan(ParseSpec(kSpec, "burnin.yaml")), Catalog::Builtin(), (dir / "plan").string());
    fabric = LoadPlannedFabric((dir / "plan" / "plan.json").string());
  }
  ~Campaign() { fs::remove_all(dir); }
  // Writes each pair's client output: the real ib_write_bw capture with its row's bandwidth replaced
  // by `rate(pair, round)` (Gb/s); < 0 writes the real "Couldn't connect" failure instead.
  void Run(const BurninPlan& plan, const std::function<double(const BurninPair&, int)>& rate, int from_round = 0) {
    static const std::string healthy = Fixture("perftest/ib_write_bw-gbits-ib-ndr400-cx7-client-392g.txt");
    static const std::string refused = Fixture("perftest/ib_write_bw-error-couldnt-connect-unable-to-init-socket-pr228.txt");
    const size_t row = healthy.find(" 65536      5000");
    const size_t row_end = healthy.find('\n', row);
    for (const BurninRound& round : plan.rounds) {
      if (round.index < from_round) continue;
      for (const BurninPair& p : round.pairs) {
        const fs::path out = dir / "results" / (p.result + ".txt");
        fs::create_directories(out.parent_path());
        const double gbps = rate(p, round.index);
        std::ofstream f(out);
        if (gbps < 0) {
          f << refused;
        } else {
          f << healthy.substr(0, row)
            << fmt::format(" 65536      5000             {:.2f}             {:.2f} \t\t     0.748336", gbps, gbps)
            << healthy.substr(row_end);
        }
      }
    }
  }
  BurninCheck Check(const BurninPlan& plan) { return CheckBurnin(plan, &fabric, (dir / "results").string(), BurninPolicy{}); }
  static inline int counter = 0;
};

bool Involves(const BurninPair& p, const std::string& host, const std::string& device = "") {
  auto is = [&](const BurninEndpoint& e) { return e.host == host && (device.empty() || e.device == device); };
  return is(p.server) || is(p.client);
}

std::string Describe(const BurninCheck& c) { return BurninCheckTable(c); }

BurninPlan RailPlan(const PlannedFabric& fabric) {
  BurninOptions o;
  o.pattern = "rail";
  return PlanBurnin(fabric, o);
}

TEST(BurninPlan, PatternsGiveDisjointRoundsThatCoverWhatTheyPromise) {
  Campaign c;
  for (const char* pattern : {"pairwise", "rail", "topo", "loopback"}) {
    SCOPED_TRACE(pattern);
    BurninOptions o;
    o.pattern = pattern;
    BurninPlan p = PlanBurnin(c.fabric, o);
    EXPECT_EQ(p.hosts, 16u);
    EXPECT_EQ(p.speed_gbps, 400u);
    for (const BurninRound& r : p.rounds) {
      std::set<std::string> busy;  // each NIC at most once per round
      for (const BurninPair& pair : r.pairs) {
        EXPECT_TRUE(busy.insert(pair.server.host + pair.server.device).second || pair.server.host == pair.client.host);
        if (pair.server.host != pair.client.host) {
          EXPECT_TRUE(busy.insert(pair.client.host + pair.client.device).second);
        }
      }
    }
    if (std::string(pattern) == "pairwise") {
      EXPECT_EQ(p.rounds.size(), 15u);  // N-1 rounds of N/2 pairs, 8 rails each
      std::set<std::pair<std::string, std::string>> met;
      for (const BurninRound& r : p.rounds) {
        EXPECT_EQ(r.pairs.size(), 8u * 8u);
        for (const BurninPair& pair : r.pairs) met.insert(std::minmax(pair.server.host, pair.client.host));
      }
      EXPECT_EQ(met.size(), 16u * 15u / 2u);  // every pair of hosts meets
    }
    if (std::string(pattern) == "rail") {
      EXPECT_EQ(p.rounds.size(), 3u);
      // In one round, a host's 8 NICs meet 8 different partners.
      std::map<std::string, std::set<std::string>> partners;
      for (const BurninPair& pair : p.rounds[0].pairs) {
        partners[pair.server.host].insert(pair.client.host);
        partners[pair.client.host].insert(pair.server.host);
      }
      for (const auto& [host, set] : partners) EXPECT_EQ(set.size(), 8u) << host;
    }
    if (std::string(pattern) == "topo") {
      ASSERT_EQ(p.rounds.size(), 2u);  // same leaf (2 hops), through a spine (4)
      for (const BurninPair& pair : p.rounds[0].pairs) EXPECT_EQ(pair.hops, 2);
      for (const BurninPair& pair : p.rounds[1].pairs) EXPECT_EQ(pair.hops, 4);
    }
    if (std::string(pattern) == "loopback") {
      ASSERT_EQ(p.rounds.size(), 1u);
      EXPECT_EQ(p.rounds[0].pairs.size(), 128u);
    }
    // The JSON round trip keeps every pair.
    BurninPlan back = ParseBurninPlan(BurninPlanJson(p), "burnin-plan.json");
    ASSERT_EQ(back.rounds.size(), p.rounds.size());
    EXPECT_EQ(back.rounds.back().pairs.back().result, p.rounds.back().pairs.back().result);
  }
  BurninOptions some;
  some.hosts = "gpu[001-004]";
  EXPECT_EQ(PlanBurnin(c.fabric, some).hosts, 4u);
  some.hosts = "gpu[001-004],nothere";
  EXPECT_THROW(PlanBurnin(c.fabric, some), std::runtime_error);
  // A tampered plan: a host name that would run a command in the scripts is refused.
  std::string json = BurninPlanJson(PlanBurnin(c.fabric, BurninOptions{}));
  json.replace(json.find("\"gpu001\""), 8, "\"gpu001;reboot\"");
  EXPECT_THROW(ParseBurninPlan(json, "burnin-plan.json"), std::runtime_error);
}

TEST(BurninCheck, ACleanCampaignHasNoSuspect) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [](const BurninPair&, int) { return 392.0; });
  BurninCheck r = c.Check(plan);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_TRUE(r.missing.empty());
  EXPECT_EQ(r.passed, 3u * 8u * 8u);
  EXPECT_TRUE(r.localization.suspects.empty()) << Describe(r);
  EXPECT_TRUE(r.next_round.pairs.empty());
  EXPECT_DOUBLE_EQ(r.threshold, 360.0);
}

TEST(BurninCheck, ASlowHostIsNamedAsTheHost) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [](const BurninPair& p, int) { return Involves(p, "gpu005") ? 151.0 : 391.0; });
  BurninCheck r = c.Check(plan);
  ASSERT_EQ(r.localization.suspects.size(), 1u) << Describe(r);
  EXPECT_EQ(r.localization.suspects[0].kind, "host");
  EXPECT_EQ(r.localization.suspects[0].name, "gpu005");
  EXPECT_EQ(r.localization.suspects[0].confidence, "confirmed");
}

TEST(BurninCheck, TheHtmlReportHasTheSuspectsAndAHeatMapPerNicAndPerHostPair) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [](const BurninPair& p, int) { return Involves(p, "gpu005") ? 151.0 : 391.0; });
  const std::string html = BurninCheckHtml(c.Check(plan));
  EXPECT_NE(html.find("<td>host</td><td>gpu005</td><td class=\"confirmed\">confirmed</td>"), std::string::npos);
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t at = html.find(needle); at != std::string::npos; at = html.find(needle, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("title=\"gpu005 mlx5_"), 8u);  // its 8 NICs in the NIC map
  // Red: its 8 NICs and the 24 partner NICs that met it (at their slowest), and its 15 partner hosts both ways.
  EXPECT_EQ(count(": 151.00 Gb/s\"></td>"), 8u + 24u + 2u * 15u);
  EXPECT_EQ(count("<tr><th>gpu"), 2u * 16u);  // 16 hosts in each map
  // Every value is escaped: a result naming a hostile host.
  BurninCheck hostile = c.Check(plan);
  hostile.outcomes[0].server.host = "<script>alert(1)</script>";
  const std::string page = BurninCheckHtml(hostile);
  EXPECT_EQ(page.find("<script>"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;"), std::string::npos);
}

TEST(BurninCheck, OneBadNicOnOneRailIsThatNicAndItsCable) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [](const BurninPair& p, int) { return Involves(p, "gpu011", "mlx5_3") ? 120.0 : 390.0; });
  BurninCheck r = c.Check(plan);
  ASSERT_EQ(r.localization.suspects.size(), 1u) << Describe(r);
  const Suspect& s = r.localization.suspects[0];
  EXPECT_EQ(s.kind, "link");
  EXPECT_EQ(s.name, "gpu011 mlx5_3");
  EXPECT_EQ(s.confidence, "confirmed");
  EXPECT_FALSE(s.cable.empty());
  EXPECT_FALSE(s.leaf_port.empty());
  // The next round: a loopback, to tell the card from the cable.
  ASSERT_EQ(r.next_round.pairs.size(), 1u);
  EXPECT_EQ(r.next_round.pairs[0].server.host, "gpu011");
  EXPECT_EQ(r.next_round.pairs[0].client.host, "gpu011");
  // Bisect: the loopback is fast, so the cable or the leaf port; slow, so the card.
  for (bool card : {false, true}) {
    BurninPlan next = BisectPlan(r);
    c.Run(
        next,
        [&](const BurninPair& p, int) {
          return Involves(p, "gpu011", "mlx5_3") && (card || p.server.host != p.client.host) ? 120.0 : 390.0;
        },
        r.next_round.index);
    BurninCheck again = c.Check(next);
    ASSERT_EQ(again.localization.suspects.size(), 1u) << Describe(again);
    EXPECT_EQ(again.localization.suspects[0].kind, card ? "nic" : "link") << Describe(again);
    EXPECT_EQ(again.localization.suspects[0].confidence, "confirmed");
  }
}

TEST(BurninCheck, ABadLeafPortIsTheLinkOnIt) {
  Campaign c;
  // The leaf port of gpu007's rail-6 link: every pair crossing it is slow.
  std::string leaf, port, cable;
  for (const PlannedLink& l : c.fabric.links) {
    if (l.level == "endpoint-leaf" && c.fabric.devices[l.a_device].name == "gpu007" && l.a_port == "mlx5_5") {
      leaf = c.fabric.devices[l.z_device].name;
      port = std::string(l.z_port);
      cable = std::string(l.label);
    }
  }
  ASSERT_FALSE(leaf.empty());
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [](const BurninPair& p, int) { return Involves(p, "gpu007", "mlx5_5") ? 200.0 : 390.0; });
  BurninCheck r = c.Check(plan);
  ASSERT_EQ(r.localization.suspects.size(), 1u) << Describe(r);
  EXPECT_EQ(r.localization.suspects[0].cable, cable);
  EXPECT_EQ(r.localization.suspects[0].leaf, leaf);
  EXPECT_EQ(r.localization.suspects[0].leaf_port, port);
}

TEST(BurninCheck, AFlappingLinkIsLikelyAndIntermittent) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [](const BurninPair& p, int round) { return Involves(p, "gpu002", "mlx5_7") && round != 1 ? 90.0 : 390.0; });
  BurninCheck r = c.Check(plan);
  ASSERT_EQ(r.localization.suspects.size(), 1u) << Describe(r);
  EXPECT_EQ(r.localization.suspects[0].name, "gpu002 mlx5_7");
  EXPECT_EQ(r.localization.suspects[0].confidence, "likely");
  EXPECT_NE(r.localization.suspects[0].reason.find("intermittent"), std::string::npos);
  // The next round puts it against a known-good partner of its rail.
  ASSERT_EQ(r.next_round.pairs.size(), 1u);
  EXPECT_NE(r.next_round.pairs[0].server.host, "gpu002");
  EXPECT_EQ(r.next_round.pairs[0].server.device, "mlx5_7");
}

TEST(BurninCheck, TwoBadHostsAtOnceAreBothNamed) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [](const BurninPair& p, int) { return Involves(p, "gpu003") || Involves(p, "gpu014") ? 140.0 : 392.0; });
  BurninCheck r = c.Check(plan);
  ASSERT_EQ(r.localization.suspects.size(), 2u) << Describe(r);
  std::set<std::string> names;
  for (const Suspect& s : r.localization.suspects) {
    EXPECT_EQ(s.kind, "host");
    EXPECT_EQ(s.confidence, "confirmed");
    names.insert(s.name);
  }
  EXPECT_EQ(names, (std::set<std::string>{"gpu003", "gpu014"}));
}

TEST(BurninCheck, ABadLeafIsTheSwitch) {
  Campaign c;
  std::set<std::string> on_leaf;  // "host device" of every NIC on SU 1's rail-4 leaf
  const std::string leaf = "compute-leaf-su01-r4";
  for (const PlannedLink& l : c.fabric.links) {
    if (l.level == "endpoint-leaf" && c.fabric.devices[l.z_device].name == leaf) {
      on_leaf.insert(c.fabric.devices[l.a_device].name + " " + std::string(l.a_port));
    }
  }
  ASSERT_EQ(on_leaf.size(), 8u);
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [&](const BurninPair& p, int) {
    return on_leaf.count(p.server.host + " " + p.server.device) || on_leaf.count(p.client.host + " " + p.client.device) ? 80.0
                                                                                                                        : 392.0;
  });
  BurninCheck r = c.Check(plan);
  ASSERT_EQ(r.localization.suspects.size(), 1u) << Describe(r);
  EXPECT_EQ(r.localization.suspects[0].kind, "switch");
  EXPECT_EQ(r.localization.suspects[0].name, leaf);
}

TEST(BurninCheck, ToolFailuresFailMissingFilesAreNeverPassed) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [](const BurninPair& p, int) { return Involves(p, "gpu009", "mlx5_0") ? -1.0 : 392.0; });
  fs::remove(c.dir / "results" / (plan.rounds[2].pairs[5].result + ".txt"));
  BurninCheck r = c.Check(plan);
  EXPECT_EQ(r.missing.size(), 1u);
  ASSERT_EQ(r.localization.suspects.size(), 1u) << Describe(r);
  EXPECT_EQ(r.localization.suspects[0].name, "gpu009 mlx5_0");
  EXPECT_NE(r.localization.suspects[0].evidence[0].why.find("Couldn't connect"), std::string::npos);
  nlohmann::json j = nlohmann::json::parse(BurninCheckJson(r));
  EXPECT_EQ(j["schema"], "railyard.burnin/1");
  EXPECT_EQ(j["summary"]["missing"], 1);
  EXPECT_EQ(j["suspects"][0]["kind"], "link");
}

TEST(BurninCheck, CountersThatGrowUnderLoadMakeASuspectEvenWhenBandwidthPassed) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  ASSERT_TRUE(plan.counters);
  c.Run(plan, [](const BurninPair&, int) { return 391.0; });
  // Every NIC's mlxlink snapshots: the real BlueField-3 capture; gpu012 mlx5_6 takes 3 link downs
  // and 1,200 effective errors during round 1.
  const std::string snap =
      ReadWholeFile(testing::FixturePath("mlxlink/bluefield3-qsfp28-fs-passive-dac-temperature-na-with-counters.txt").string());
  for (const BurninRound& r : plan.rounds) {
    for (const BurninPair& p : r.pairs) {
      for (const BurninEndpoint* e : {&p.server, &p.client}) {
        const fs::path base = c.dir / "results" / fmt::format("round-{:03}", r.index) / "counters" / (e->host + "." + e->device);
        fs::create_directories(base.parent_path());
        std::ofstream(base.string() + ".before.txt") << snap;
        std::string after = snap;
        if (e->host == "gpu012" && e->device == "mlx5_6" && r.index == 1) {
          after.replace(after.find("Link Down Counter                  : 0"), 38, "Link Down Counter                  : 3");
          after.replace(after.find("Effective Physical Errors          : 0"), 38, "Effective Physical Errors          : 1200");
        }
        std::ofstream(base.string() + ".after.txt") << after;
      }
    }
  }
  BurninCheck r = c.Check(plan);
  EXPECT_EQ(r.failed, 0u);
  EXPECT_EQ(r.counters_read, 3u * 128u);
  EXPECT_EQ(r.counters_missing, 0u);
  ASSERT_EQ(r.localization.suspects.size(), 1u) << Describe(r);
  const Suspect& s = r.localization.suspects[0];
  EXPECT_EQ(s.name, "gpu012 mlx5_6");
  EXPECT_EQ(s.kind, "link");
  EXPECT_NE(s.reason.find("+3 link down(s)"), std::string::npos) << s.reason;
  EXPECT_NE(s.reason.find("+1200 effective"), std::string::npos) << s.reason;
  EXPECT_FALSE(s.cable.empty());
}

TEST(BurninLedger, EachNicsVerdictOnItsSerialThroughTheFactsPciAddress) {
  Campaign c;
  BurninPlan plan = RailPlan(c.fabric);
  // gpu011's rail-4 card is bad: slow through its cable and in its loopback.
  auto card_fault = [](const BurninPair& p, int) { return Involves(p, "gpu011", "mlx5_3") ? 120.0 : 390.0; };
  c.Run(plan, card_fault);
  BurninCheck first = c.Check(plan);
  BurninPlan next = BisectPlan(first);
  c.Run(next, card_fault, first.next_round.index);
  BurninCheck r = c.Check(next);
  ASSERT_EQ(r.localization.suspects.size(), 1u) << Describe(r);
  ASSERT_EQ(r.localization.suspects[0].kind, "nic");
  // The ledger knows two cards at their lspci addresses; the facts say where each RDMA device is.
  auto ledger = OpenSqliteLedger((c.dir / "ledger.db").string());
  ledger->Record({{"MT2401X00011", "nic", {{"location", "gpu011 19:00.0"}}, 0},
                  {"MT2401X00012", "nic", {{"location", "gpu012 19:00.0"}}, 0}},
                 "receiving", "test");
  std::vector<HostFacts> facts(2);
  for (int i = 0; i < 2; ++i) {
    facts[i].hostname = i == 0 ? "gpu011" : "gpu012";
    RdmaFacts rdma;
    rdma.ca.name = "mlx5_3";
    rdma.pci_bdf = "0000:19:00.0";  // ibdev2netdev -v's long form
    facts[i].rdma = {rdma};
  }
  BurninLedgerUpdate update = BurninObservations(r, facts, *ledger);
  EXPECT_EQ(update.observations.size(), 2u);
  EXPECT_EQ(update.unmapped.size(), 126u);  // the other NICs have no card in this ledger
  ledger->Record(update.observations, "tester", "railyard burnin check");
  EXPECT_TRUE(ledger->Get("MT2401X00011")
                  ->fields.at("burnin.result")
                  .starts_with("fail (rail perftest on plane compute): the card gpu011 mlx5_3"))
      << ledger->Get("MT2401X00011")->fields.at("burnin.result");
  EXPECT_TRUE(ledger->Get("MT2401X00012")->fields.at("burnin.result").starts_with("pass (rail perftest on plane compute): "))
      << ledger->Get("MT2401X00012")->fields.at("burnin.result");
}

TEST(BurninLedger, ABadLeafsNicsAreHeldAndTheirPartnersJudgedOnTheirOtherPairs) {
  Campaign c;
  std::set<std::string> on_leaf;
  for (const PlannedLink& l : c.fabric.links) {
    if (l.level == "endpoint-leaf" && c.fabric.devices[l.z_device].name == "compute-leaf-su01-r4") {
      on_leaf.insert(c.fabric.devices[l.a_device].name + " " + std::string(l.a_port));
    }
  }
  BurninPlan plan = RailPlan(c.fabric);
  c.Run(plan, [&](const BurninPair& p, int) {
    return on_leaf.count(p.server.host + " " + p.server.device) || on_leaf.count(p.client.host + " " + p.client.device) ? 80.0
                                                                                                                        : 392.0;
  });
  BurninCheck r = c.Check(plan);
  ASSERT_EQ(r.localization.suspects.size(), 1u);
  // A partner off the leaf that met one of its NICs (so it has a failed pair too).
  std::string partner;
  for (const PairOutcome& o : r.outcomes) {
    if (!o.failed) continue;
    for (const BurninEndpoint* e : {&o.server, &o.client}) {
      if (!on_leaf.count(e->host + " " + e->device) && partner.empty()) partner = e->host;
    }
  }
  ASSERT_FALSE(partner.empty());
  auto ledger = OpenSqliteLedger((c.dir / "ledger.db").string());
  ledger->Record({{"MT2401X00001", "nic", {{"location", "gpu001 19:00.0"}}, 0},
                  {"MT2401X00009", "nic", {{"location", partner + " 19:00.0"}}, 0}},
                 "receiving", "test");
  std::vector<HostFacts> facts(2);
  for (int i = 0; i < 2; ++i) {
    facts[i].hostname = i == 0 ? "gpu001" : partner;
    RdmaFacts rdma;
    rdma.ca.name = "mlx5_3";
    rdma.pci_bdf = "0000:19:00.0";
    facts[i].rdma = {rdma};
  }
  ledger->Record(BurninObservations(r, facts, *ledger).observations, "tester", "railyard burnin check");
  // gpu001's rail-4 NIC sits on the bad leaf: held. The partner (the other SU's leaf) met one of its
  // NICs and others too: judged on those, a pass.
  EXPECT_TRUE(ledger->Get("MT2401X00001")->fields.at("burnin.result").starts_with("not judged"))
      << ledger->Get("MT2401X00001")->fields.at("burnin.result");
  EXPECT_TRUE(ledger->Get("MT2401X00009")->fields.at("burnin.result").starts_with("pass"))
      << ledger->Get("MT2401X00009")->fields.at("burnin.result");
}

TEST(BurninPolicy, ThresholdsFromYamlAndErrorsWithTheirPlace) {
  BurninPolicy p = ParseBurninPolicy("perftest: {min_gbps: 375}\nnccl: {busbw_per_400g: 48}\n", "burnin.yaml");
  EXPECT_DOUBLE_EQ(*p.perftest_min_gbps, 375);
  EXPECT_DOUBLE_EQ(p.nccl_busbw_per_400g, 48);
  try {
    ParseBurninPolicy("perftest:\n  min_fraction: .nan\n", "burnin.yaml");
    FAIL() << "a NaN threshold was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("burnin.yaml:2:17: perftest.min_fraction"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ParseBurninPolicy("perftest: {min_fractoin: 0.9}\n", "burnin.yaml"), std::runtime_error);
}

}  // namespace
}  // namespace railyard
