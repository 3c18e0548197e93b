#include "export/write_all.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>

#include <fmt/format.h>

#include "export/exporters.h"

namespace railyard {

std::vector<std::string> WritePlanOutputs(const PlanResult& result, const Catalog& catalog, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot create the output directory: {}", dir, ec.message()));
  ExportContext ctx(result, catalog);

  struct Job {
    std::string name;
    std::function<void(OutputFile&)> write;
  };
  // Largest first (at 100,000 GPUs: labels ~140 MB, plan.json ~130 MB, ip-plan ~65 MB ...).
  // plan.index names plan.json's fingerprint, so the same worker writes it right after plan.json.
  auto index = std::make_unique<OutputFile>((std::filesystem::path(dir) / "plan.index").string());
  std::vector<Job> jobs = {
      {"labels.csv", [&](OutputFile& o) { WriteLabels(ctx, o); }},
      {"plan.json",
       [&](OutputFile& o) {
         WritePlanJson(ctx, o);
         o.Close();
         WritePlanIndex(ctx, o.content_hash(), *index);
         index->Close();
       }},
      {"ip-plan.csv", [&](OutputFile& o) { WriteIpPlan(ctx, o); }},
      {"cutsheet.csv", [&](OutputFile& o) { WriteCutsheet(ctx, o); }},
      {"netbox-cables.csv", [&](OutputFile& o) { WriteNetboxCables(ctx, o); }},
      {"topology.dot", [&](OutputFile& o) { WriteDot(ctx, o); }},
  };
  for (size_t p = 0; p < result.fabric.planes.size(); ++p) {
    const Plane& plane = result.fabric.planes[p];
    if (plane.kind == FabricKind::kInfiniband && plane.tiers > 0) {
      jobs.push_back({fmt::format("ibnetdiscover-{}.topo", plane.name),
                      [&ctx, p](OutputFile& o) { WriteIbnetdiscover(ctx, p, o); }});
      jobs.push_back({fmt::format("opensm-root-guids-{}.txt", plane.name),
                      [&ctx, p](OutputFile& o) { WriteOpensmRootGuids(ctx, p, o); }});
      jobs.push_back({fmt::format("opensm-cn-guids-{}.txt", plane.name),
                      [&ctx, p](OutputFile& o) { WriteOpensmCnGuids(ctx, p, o); }});
    }
  }
  jobs.push_back({"bom.csv", [&](OutputFile& o) { WriteBomCsv(ctx, o); }});
  jobs.push_back({"topology.conf", [&](OutputFile& o) { WriteSlurmTopology(ctx, o); }});
  std::vector<std::unique_ptr<OutputFile>> files;
  for (const Job& job : jobs) files.push_back(std::make_unique<OutputFile>((std::filesystem::path(dir) / job.name).string()));
  // Two workers (the machines this runs on have two cores or more) take files from a queue,
  // largest first (the jobs are listed in that order), so neither idles while the other
  // writes the last big file.
  std::atomic<size_t> next{0};
  auto run = [&](size_t) {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      jobs[i].write(*files[i]);
      files[i]->Close();
    }
  };
  auto other = std::async(std::launch::async, run, 1);
  std::exception_ptr error;
  try {
    run(0);
  } catch (...) {
    error = std::current_exception();
  }
  try {
    other.get();
  } catch (...) {
    if (!error) error = std::current_exception();
  }
  if (error) std::rethrow_exception(error);
  // The whole set or nothing: a failure part-way leaves the previous plan's files as they were.
  std::vector<OutputFile*> set;
  std::vector<std::string> names;
  for (size_t i = 0; i < jobs.size(); ++i) {
    set.push_back(files[i].get());
    names.push_back(jobs[i].name);
  }
  set.push_back(index.get());
  names.push_back("plan.index");
  CommitAll(set);
  return names;
}

}  // namespace railyard
