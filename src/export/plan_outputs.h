// Every file `railyard plan -o DIR` writes, declared once. WritePlanOutputs writes by this table,
// `railyard plan --help` lists it, and export_test holds README.md's table of plan outputs and the
// golden directory to it. An export is its writer, its golden output and one row here.
#pragma once

#include <string>
#include <vector>

#include "export/exporters.h"

namespace railyard {

enum class OutputScope {
  kOnce,                // one file per plan
  kPerInfinibandPlane,  // one per InfiniBand plane with switches: `<plane>` in the name is the plane's
  kIndexOfPrevious,     // an index of the row before it, written from that file's fingerprint (plan.index)
};

struct PlanOutput {
  const char* name;  // the file name; kPerInfinibandPlane: with `<plane>` where the plane's name goes
  OutputScope scope;
  const char* what;                                                                      // one line for --help
  void (*write)(const ExportContext&, OutputFile&) = nullptr;                            // kOnce
  void (*write_plane)(const ExportContext&, size_t plane, OutputFile&) = nullptr;        // kPerInfinibandPlane
  void (*write_index)(const ExportContext&, const ContentHash&, OutputFile&) = nullptr;  // kIndexOfPrevious
};

// In the order they are written: largest first at 100,000 GPUs (labels ~140 MB, plan.json ~130 MB,
// ip-plan ~65 MB ...), so that neither writer thread idles while the other writes the last big file.
// plan-manifest.txt, the record of the set, is not a row: WritePlanOutputs writes it last.
const std::vector<PlanOutput>& PlanOutputs();

// The row's file for one plane ("ibnetdiscover-compute.topo"); a kOnce row's name as it is.
std::string PlanOutputName(const PlanOutput& output, const std::string& plane);

// `railyard plan --help`'s list: each name (per-plane names with <plane>) and what it is.
std::string PlanOutputsHelp();

}  // namespace railyard
