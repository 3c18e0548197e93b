// railyard verify --plan plan.json [--lldp FILE|DIR]... [--ibnetdiscover FILE]...
//                  [--switch-lldp FILE|DIR]... [--names MAP] [--labels CSV]
//                  [--format table|json|csv|junit|prometheus] [--fail-on SEVERITY]
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "verify/pipeline.h"
#include "verify/report.h"

namespace railyard::cli {
namespace {

struct VerifyArgs {
  std::string plan;
  std::vector<std::string> lldp, ibnetdiscover, switch_lldp, iblinkinfo;
  std::string names;
  std::string labels;
  std::string format = "table";
  std::string fail_on = "error";
  bool ignore_speed = false;
  std::vector<std::string> planes;
  bool show_unverified = false;
  std::string ibdev2netdev;
};

int Run(const VerifyArgs& o) {
  VerifyInputs in{
      .plan = o.plan,
      .lldp = o.lldp,
      .switch_lldp = o.switch_lldp,
      .ibnetdiscover = o.ibnetdiscover,
      .iblinkinfo = o.iblinkinfo,
      .names = o.names,
      .ibdev2netdev = o.ibdev2netdev,
      .labels = o.labels,
      .options = {
          .check_speed = !o.ignore_speed, .planes = {o.planes.begin(), o.planes.end()}, .list_unverified = o.show_unverified}};
  const VerifyRun run = RunVerify(in, {.warn = [](const std::string& w) { Warn(w); },
                                       .note = [](const std::string& n) { std::cerr << "railyard: note: " << n << "\n"; }});
  Detail(
      fmt::format("plan: {} devices, {} links; {} observation(s) from {} LLDP capture(s), {} ibnetdiscover and {} "
                  "iblinkinfo file(s); {} device(s) gave an LLDP report; {} label scan(s)",
                  run.plan_devices, run.plan_links, run.result.counts.observations, run.lldp_captures, o.ibnetdiscover.size(),
                  o.iblinkinfo.size(), run.reporting_devices, run.label_scans));
  std::cout << VerifyRender(run.result, *ParseFindingsFormat(o.format));
  const Severity threshold = *ParseSeverity(o.fail_on);
  const bool fail = std::any_of(run.result.findings.begin(), run.result.findings.end(),
                                [&](const VerifyFinding& f) { return f.severity >= threshold; });
  return fail ? kExitFindings : kExitOk;
}

}  // namespace

std::function<int()> AddVerifyCommand(CLI::App& app) {
  auto o = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand("verify", "Verify the cabling as built against plan.json");
  cmd->footer(
      "Examples:\n"
      "  railyard verify --plan out/plan.json --ibnetdiscover fabric.topo\n"
      "  railyard verify --plan out/plan.json --lldp lldp/ --switch-lldp leaf01=leaf01-lldp.txt --format json\n"
      "  railyard verify --plan out/plan.json --labels scanned-labels.csv --names names.csv\n"
      "Captures are named after the device they were taken on: lldp/dgx001.json, or DEVICE=FILE.");
  cmd->add_option("--plan", o->plan, "plan.json from `railyard plan -o`")->required()->check(kFileOrStdin);
  cmd->add_option("--lldp", o->lldp, "lldpctl output (json, json0, keyvalue, plain or xml): FILE, DEVICE=FILE or a directory");
  cmd->add_option("--ibnetdiscover", o->ibnetdiscover, "ibnetdiscover topology file (- for standard input)")->check(kFileOrStdin);
  cmd->add_option("--iblinkinfo", o->iblinkinfo,
                  "iblinkinfo output (its \"Could be\" hints mark degraded links; - for standard input)")
      ->check(kFileOrStdin);
  cmd->add_option("--switch-lldp", o->switch_lldp,
                  "switch LLDP table (Arista, Cumulus, SONiC): FILE, DEVICE=FILE or a directory");
  cmd->add_option("--names", o->names, "CSV: observed_device,plan_device or observed_device,observed_port,plan_device,plan_port")
      ->check(kFileOrStdin);
  cmd->add_option("--labels", o->labels, "label audit CSV with device, port and label columns")->check(kFileOrStdin);
  cmd->add_option("--plane", o->planes, "judge only this plane's links (repeatable); the others are not counted");
  cmd->add_flag("--show-unverified", o->show_unverified, "list every planned link no given report could see (info findings)");
  cmd->add_option("--ibdev2netdev", o->ibdev2netdev,
                  "directory of HOST.txt files (ibdev2netdev [-v] output of each host): maps the netdev names hosts "
                  "report over LLDP to the plan's RDMA devices")
      ->check(CLI::ExistingDirectory);
  cmd->add_flag("--ignore-speed", o->ignore_speed,
                "do not compare link speeds with the plan (simulators: ibsim reports every link at SDR)");
  cmd->add_option("--format", o->format, "table (default), json, csv, junit or prometheus")
      ->check(CLI::IsMember(FindingsFormatNames()));
  cmd->add_option("--fail-on", o->fail_on, "exit 1 when a finding reaches this severity: info, warning, error")
      ->check(CLI::IsMember({"info", "warning", "error"}));
  return [o] { return Run(*o); };
}

}  // namespace railyard::cli
