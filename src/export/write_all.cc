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
#include "export/plan_outputs.h"

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
  // The table's rows in its order (largest first), a per-plane row once per InfiniBand plane. An index
  // row (plan.index) is written by the job of the row before it, from that file's fingerprint, as soon
  // as it is complete.
  std::vector<Job> jobs;
  std::vector<std::unique_ptr<OutputFile>> indexes;
  std::vector<std::string> index_names;
  for (const PlanOutput& row : PlanOutputs()) {
    switch (row.scope) {
      case OutputScope::kOnce:
        jobs.push_back({row.name, [&ctx, write = row.write](OutputFile& o) { write(ctx, o); }});
        break;
      case OutputScope::kPerInfinibandPlane:
        for (size_t p = 0; p < result.fabric.planes.size(); ++p) {
          const Plane& plane = result.fabric.planes[p];
          if (plane.kind != FabricKind::kInfiniband || plane.tiers == 0) continue;
          jobs.push_back(
              {PlanOutputName(row, plane.name), [&ctx, p, write = row.write_plane](OutputFile& o) { write(ctx, p, o); }});
        }
        break;
      case OutputScope::kIndexOfPrevious: {
        OutputFile* index =
            indexes.emplace_back(std::make_unique<OutputFile>((std::filesystem::path(dir) / row.name).string())).get();
        index_names.push_back(row.name);
        jobs.back().write = [&ctx, index, indexed = std::move(jobs.back().write), write = row.write_index](OutputFile& o) {
          indexed(o);
          o.Close();
          write(ctx, o.content_hash(), *index);
          index->Close();
        };
        break;
      }
    }
  }
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
  for (size_t i = 0; i < indexes.size(); ++i) {
    set.push_back(indexes[i].get());
    names.push_back(index_names[i]);
  }
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
