// Parser throughput (MB/s) on the largest real sample of each tool (tests/fixtures, read
// in place; a parser whose sample is absent is skipped), and the time of a live collect.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <benchmark/benchmark.h>

#include "facts/collect.h"
#include "parse/bonding.h"
#include "parse/ethtool.h"
#include "parse/flint.h"
#include "parse/ibnetdiscover.h"
#include "parse/ibstat.h"
#include "parse/lldpctl.h"
#include "parse/lspci.h"
#include "parse/mlxlink.h"
#include "parse/switch_lldp.h"

namespace {

namespace fs = std::filesystem;

// The largest file in a fixture folder, repeated to about 1 MB so timings are not all overhead.
std::string Sample(const std::string& folder, bool repeat = true) {
  fs::path dir = fs::path(RAILYARD_SOURCE_DIR) / "tests" / "fixtures" / folder;
  fs::path best;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && (best.empty() || e.file_size() > fs::file_size(best))) best = e.path();
  }
  if (best.empty()) return {};
  std::ifstream in(best, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  std::string one = s.str();
  if (!repeat) return one;
  std::string out;
  while (out.size() < (1u << 20)) out += one + "\n";
  return out;
}

template <typename Parse>
void Throughput(benchmark::State& state, const std::string& folder, Parse parse, bool repeat = true) {
  const std::string text = Sample(folder, repeat);
  if (text.empty()) {
    state.SkipWithError(("no fixtures in tests/fixtures/" + folder).c_str());
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(parse(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

void BM_Lspci(benchmark::State& s) {
  Throughput(s, "lspci", [](const std::string& t) { return railyard::ParseLspci(t); });
}
void BM_Flint(benchmark::State& s) {
  Throughput(s, "flint", [](const std::string& t) { return railyard::ParseFlintQuery(t); });
}
void BM_Ethtool(benchmark::State& s) {
  Throughput(s, "ethtool", [](const std::string& t) { return railyard::ParseEthtoolSettings(t); });
}
void BM_Bonding(benchmark::State& s) {
  Throughput(s, "bonding", [](const std::string& t) { return railyard::ParseBonding(t); });
}
void BM_Mlxlink(benchmark::State& s) {
  Throughput(s, "mlxlink", [](const std::string& t) { return railyard::ParseMlxlink(t); });
}
void BM_Ibstat(benchmark::State& s) {
  Throughput(s, "ibstat", [](const std::string& t) { return railyard::ParseIbstat(t); });
}
void BM_Ibnetdiscover(benchmark::State& s) {
  Throughput(s, "ibnetdiscover", [](const std::string& t) { return railyard::ParseIbnetdiscover(t, "bench"); });
}
void BM_SwitchLldp(benchmark::State& s) {
  Throughput(s, "switch-lldp", [](const std::string& t) { return railyard::ParseSwitchLldpTable(t, "sw", "bench"); });
}
// JSON cannot be concatenated: one document per iteration.
void BM_LldpctlJson(benchmark::State& s) {
  Throughput(
      s, "lldpctl", [](const std::string& t) { return railyard::ParseLldpctlJson(t, "host", "bench"); }, false);
}
BENCHMARK(BM_Lspci);
BENCHMARK(BM_Flint);
BENCHMARK(BM_Ethtool);
BENCHMARK(BM_Bonding);
BENCHMARK(BM_Mlxlink);
BENCHMARK(BM_Ibstat);
BENCHMARK(BM_Ibnetdiscover);
BENCHMARK(BM_SwitchLldp);
BENCHMARK(BM_LldpctlJson);

void BM_LiveCollect(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(railyard::BuildHostFacts(railyard::CollectLive()));
}
BENCHMARK(BM_LiveCollect)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
