#include "export/write_all.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <memory>

#include <fmt/format.h>

#include "export/exporters.h"

namespace railyard {

namespace {

// The comment a file's own format allows, for the not-for-ordering stamp on its first line.
std::string StampLine(const std::string& name, const std::string& why) {
  std::string text = "NOT FOR ORDERING: " + why;
  if (name.ends_with(".dot")) return "// " + text + "\n";
  return "# " + text + "\n";
}

// The files an earlier plan wrote into `dir`, from its manifest (plain names only).
std::vector<std::string> PreviousSet(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  std::ifstream in(dir / kPlanManifest);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string name = line.substr(0, line.find('\t'));
    // Never a path: a manifest edited to name ../something removes nothing outside the directory.
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") continue;
    names.push_back(name);
  }
  return names;
}

}  // namespace

std::vector<std::string> WritePlanOutputs(const PlanResult& result, const Catalog& catalog, const std::string& dir,
                                          const WriteOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot create the output directory: {}", dir, ec.message()));
  const std::vector<std::string> previous = PreviousSet(dir);
  ExportContext ctx(result, catalog);
  ctx.not_for_ordering = options.not_for_ordering;

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
      {"plan.html", [&](OutputFile& o) { WritePlanHtml(ctx, o); }},
      {"cutsheet.csv", [&](OutputFile& o) { WriteCutsheet(ctx, o); }},
      {"netbox-8-cables.csv", [&](OutputFile& o) { WriteNetboxCables(ctx, o); }},
      {"netbox-7-interfaces.csv", [&](OutputFile& o) { WriteNetboxInterfaces(ctx, o); }},
      {"netbox-6-devices.csv", [&](OutputFile& o) { WriteNetboxDevices(ctx, o); }},
      {"topology.dot", [&](OutputFile& o) { WriteDot(ctx, o); }},
  };
  for (size_t p = 0; p < result.fabric.planes.size(); ++p) {
    const Plane& plane = result.fabric.planes[p];
    if (plane.kind == FabricKind::kInfiniband && plane.tiers > 0) {
      jobs.push_back(
          {fmt::format("ibnetdiscover-{}.topo", plane.name), [&ctx, p](OutputFile& o) { WriteIbnetdiscover(ctx, p, o); }});
      jobs.push_back(
          {fmt::format("opensm-root-guids-{}.txt", plane.name), [&ctx, p](OutputFile& o) { WriteOpensmRootGuids(ctx, p, o); }});
      jobs.push_back(
          {fmt::format("opensm-cn-guids-{}.txt", plane.name), [&ctx, p](OutputFile& o) { WriteOpensmCnGuids(ctx, p, o); }});
    }
  }
  jobs.push_back({"bom.csv", [&](OutputFile& o) { WriteBomCsv(ctx, o); }});
  jobs.push_back({"netbox-1-sites.csv", [&](OutputFile& o) { WriteNetboxSites(ctx, o); }});
  jobs.push_back({"netbox-2-racks.csv", [&](OutputFile& o) { WriteNetboxRacks(ctx, o); }});
  jobs.push_back({"netbox-3-manufacturers.csv", [&](OutputFile& o) { WriteNetboxManufacturers(ctx, o); }});
  jobs.push_back({"netbox-4-device-types.csv", [&](OutputFile& o) { WriteNetboxDeviceTypes(ctx, o); }});
  jobs.push_back({"netbox-5-device-roles.csv", [&](OutputFile& o) { WriteNetboxDeviceRoles(ctx, o); }});
  jobs.push_back({"topology.conf", [&](OutputFile& o) { WriteSlurmTopology(ctx, o); }});
  std::vector<std::unique_ptr<OutputFile>> files;
  for (const Job& job : jobs) files.push_back(std::make_unique<OutputFile>((std::filesystem::path(dir) / job.name).string()));
  // Two workers (the machines this runs on have two cores or more) take files from a queue,
  // largest first (the jobs are listed in that order), so neither idles while the other
  // writes the last big file.
  std::atomic<size_t> next{0};
  auto run = [&](size_t) {
    for (size_t i = next++; i < jobs.size(); i = next++) {
      if (!ctx.not_for_ordering.empty() && jobs[i].name != "plan.json") {
        files[i]->Append(StampLine(jobs[i].name, ctx.not_for_ordering));
      }
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
  OutputFile manifest((std::filesystem::path(dir) / kPlanManifest).string());
  manifest.Print("# files written by railyard {} for plan '{}': name, bytes, content fingerprint{}\n", kVersion,
                 result.fabric.name, ctx.not_for_ordering.empty() ? "" : " (NOT FOR ORDERING: " + ctx.not_for_ordering + ")");
  for (OutputFile* f : set) {
    f->Close();
    manifest.Print("{}\t{}\t{}\n", std::filesystem::path(f->path()).filename().string(), f->content_hash().size(),
                   HexDigest(f->content_hash().Digest()));
  }
  set.push_back(&manifest);
  CommitAll(set);
  names.push_back(kPlanManifest);
  // The new set is in place: what the last plan wrote and this one did not is stale.
  for (const std::string& old : previous) {
    if (std::find(names.begin(), names.end(), old) != names.end()) continue;
    std::filesystem::path stale = std::filesystem::path(dir) / old;
    if (std::filesystem::is_regular_file(std::filesystem::symlink_status(stale, ec))) std::filesystem::remove(stale, ec);
  }
  return names;
}

}  // namespace railyard
