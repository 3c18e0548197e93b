// Planner benchmarks at the target scale: a 100,000-GPU, three-plane cluster
// (bench/cluster-100k.yaml). Run with `make bench`; bench/run.sh also times the CLI end to end.
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>

#include <benchmark/benchmark.h>

#include "export/write_all.h"
#include "plan/clos.h"
#include "plan/planner.h"
#include "spec/spec.h"

namespace {

const railyard::Spec& Spec100k() {
  static const railyard::Spec spec = railyard::LoadSpec(std::string(RAILYARD_SOURCE_DIR) + "/bench/cluster-100k.yaml");
  return spec;
}

double PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

void BM_SizeClos100k(benchmark::State& state) {
  railyard::ClosInput in;
  in.nodes = 12500;
  in.ports_per_node = 8;
  in.rail_optimized = true;
  in.nodes_per_su = 64;
  in.leaf_ports = in.spine_ports = in.core_ports = 128;
  for (auto _ : state) benchmark::DoNotOptimize(railyard::SizeClos(in));
}
BENCHMARK(BM_SizeClos100k);

void BM_Plan100k(benchmark::State& state) {
  size_t links = 0;
  for (auto _ : state) {
    railyard::PlanResult result = railyard::Plan(Spec100k());
    links = result.fabric.links.size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["links"] = static_cast<double>(links);
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}
BENCHMARK(BM_Plan100k)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_PlanAndWriteAll100k(benchmark::State& state) {
  const std::string dir = std::filesystem::temp_directory_path() / ("railyard-bench-" + std::to_string(getpid()));
  uintmax_t bytes = 0;
  for (auto _ : state) {
    railyard::PlanResult result = railyard::Plan(Spec100k());
    auto files = railyard::WritePlanOutputs(result, railyard::Catalog::Builtin(), dir);
    state.PauseTiming();
    bytes = 0;
    for (const auto& f : files) bytes += std::filesystem::file_size(std::filesystem::path(dir) / f);
    state.ResumeTiming();
  }
  std::filesystem::remove_all(dir);
  state.counters["output_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}
BENCHMARK(BM_PlanAndWriteAll100k)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
