// railyard plan SPEC [-o DIR] [--format table|json] [--fail-on SEVERITY]
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "cli/commands.h"
#include "cli/messages.h"
#include "export/plan_outputs.h"
#include "export/summary.h"
#include "export/write_all.h"
#include "model/findings_formats.h"
#include "plan/checks.h"
#include "plan/planner.h"
#include "spec/spec.h"

namespace railyard::cli {

int RunPlan(const PlanOptions& o, bool check_only) {
  Severity fail_on = *ParseSeverity(o.fail_on);
  const Catalog& catalog = CatalogFor(o.catalog_dir);
  Spec spec = LoadSpec(o.spec, catalog);
  Progress("planning");
  PlanResult result = Plan(spec, catalog);
  if (check_only) {
    FindingsScope scope{"check", {}, {}};
    for (const DesignRule& rule : DesignRules()) scope.rules_run.emplace_back(rule.id);
    std::cout << RenderFindings(result.findings, scope, *ParseFindingsFormat(o.format));
  } else {
    size_t errors = std::count_if(result.findings.begin(), result.findings.end(),
                                  [](const Finding& f) { return f.severity == Severity::kError; });
    if (!o.out_dir.empty() && errors > 0 && !o.force) {
      // A BOM with a plane missing is easy to hand to procurement by mistake: nothing is written.
      std::cerr << "railyard: error: the plan has " << errors << " error finding(s) (below): nothing written to " << o.out_dir
                << "; fix them, or give --force to write files stamped NOT FOR ORDERING\n";
    } else if (!o.out_dir.empty()) {
      Progress("writing outputs");
      WriteOptions write;
      if (errors > 0) write.not_for_ordering = fmt::format("written with --force despite {} error finding(s)", errors);
      auto files = WritePlanOutputs(result, catalog, o.out_dir, write);
      if (o.format != "json") {
        Note(fmt::format("wrote {} files to {}{}", files.size(), o.out_dir, errors > 0 ? " (stamped NOT FOR ORDERING)" : ""));
      }
    }
    if (o.format == "json") {
      std::cout << PlanSummaryJson(result, catalog).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      std::cout << PlanSummaryTable(result, catalog);
    }
  }
  return AnyAtOrAbove(result.findings, fail_on) ? kExitFindings : kExitOk;
}

const Catalog& CatalogFor(const std::string& site_dir) {
  if (site_dir.empty()) return Catalog::Builtin();
  static const Catalog site = Catalog::Builtin().WithSite(site_dir);  // one per process: one command runs
  return site;
}

void AddSpecOptions(CLI::App* cmd, PlanOptions& o, bool check_only) {
  cmd->add_option("--catalog", o.catalog_dir,
                  "site catalog: a directory of switches.csv, nics.csv, cables.csv rows laid over the built-in one")
      ->envname("RAILYARD_CATALOG");
  cmd->add_option("SPEC", o.spec, "cluster spec (YAML); - reads it from standard input")->required()->check(kFileOrStdin);
  if (check_only) {
    cmd->add_option("--format", o.format, "table (default), json, csv, junit or prometheus")
        ->check(CLI::IsMember(FindingsFormatNames()));
  } else {
    cmd->add_option("--format", o.format, "table (default) or json")->check(CLI::IsMember({"table", "json"}));
  }
  cmd->add_option("--fail-on", o.fail_on, "exit 1 when a finding reaches this severity: info, warning, error")
      ->check(CLI::IsMember({"info", "warning", "error"}));
}

std::function<int()> AddPlanCommand(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App* cmd = app.add_subcommand("plan", "Plan the fabric of every plane from a cluster spec");
  cmd->footer(
      "Examples:\n"
      "  railyard plan examples/superpod-h100-4su.yaml\n"
      "  railyard plan examples/ib-10k-gpu.yaml -o plan/\n"
      "  railyard plan cluster.yaml --format json | jq '.planes[] | {name, switches}'\n\n" +
      PlanOutputsHelp());
  AddSpecOptions(cmd, *options, false);
  cmd->add_option("-o,--output", options->out_dir, "write every plan file into this directory");
  cmd->add_flag("--force", options->force,
                "write the files even when the plan has error findings (each stamped NOT FOR ORDERING)");
  return [options] { return RunPlan(*options, false); };
}

}  // namespace railyard::cli
