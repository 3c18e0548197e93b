// railyard verify --plan plan.json [--lldp FILE|DIR]... [--ibnetdiscover FILE]...
//                  [--switch-lldp FILE|DIR]... [--names MAP] [--labels CSV]
//                  [--format table|json|csv|junit|prometheus] [--fail-on SEVERITY]
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <future>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "parse/iblinkinfo.h"
#include "parse/ibnetdiscover.h"
#include "parse/lldpctl.h"
#include "parse/mellanox_tools.h"
#include "parse/switch_lldp.h"
#include "util/file.h"
#include "util/input_error.h"
#include "verify/report.h"
#include "verify/verify.h"

namespace railyard::cli {
namespace {

namespace fs = std::filesystem;

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

// A report that yielded no record of its format is not that format (garbage, truncated to nothing,
// UTF-16): an input error naming the file. One that was read in part stays, with its warnings.
void RequireRecords(const AdjacencyReport& r, const std::string& file, std::string_view format) {
  if (!r.adjacencies.empty() || r.warnings.empty()) return;
  throw InputError(ShownPath(file), r.warnings.front().line, 0, "",
                   fmt::format("no {} record could be read: {}", format, r.warnings.front().message));
}

// "DEVICE=PATH" names the device a capture was taken on; otherwise the file name up to its
// first '.' does ("leaf01.json" was taken on leaf01). A directory is every file in it.
std::vector<std::pair<std::string, fs::path>> Captures(const std::vector<std::string>& args) {
  std::vector<std::pair<std::string, fs::path>> out;
  for (const std::string& arg : args) {
    std::string device;
    fs::path path = arg;
    size_t eq = arg.find('=');
    if (eq != std::string::npos && !fs::exists(arg)) {
      device = arg.substr(0, eq);
      path = arg.substr(eq + 1);
    }
    if (fs::is_directory(path)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(path)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) {
        std::string name = f.filename().string();
        out.emplace_back(name.substr(0, name.find('.')), f);
      }
    } else {
      if (device.empty()) {
        std::string name = path.filename().string();
        device = name.substr(0, name.find('.'));
      }
      out.emplace_back(device, path);
    }
  }
  return out;
}

int Run(const VerifyArgs& o) {
  // Nothing observed is nothing verified: without a capture every planned link would be "unverified"
  // and the run would exit 0, as if the cabling had passed.
  if (o.lldp.empty() && o.switch_lldp.empty() && o.ibnetdiscover.empty() && o.iblinkinfo.empty() && o.labels.empty())
    throw UsageError(
        "nothing to verify: give what was observed (--ibnetdiscover, --lldp, --switch-lldp, --iblinkinfo or --labels)");
  // Neighbour tables: thousands of small files at scale. Two workers share them through a queue;
  // one first reads the plan (plan.index, or plan.json), so both cores stay busy. Each file's
  // records are judged as soon as the plan is ready and every file before it has been (a fixed
  // order, so the report does not depend on thread timing), then freed: at 100,000 GPUs the
  // ~600,000 neighbour records are never all held at once.
  struct Capture {
    std::string device;
    fs::path path;
    bool json;
  };
  std::vector<Capture> captures;
  for (auto& [device, path] : Captures(o.lldp)) captures.push_back({device, path, true});
  for (auto& [device, path] : Captures(o.switch_lldp)) captures.push_back({device, path, false});
  railyard::VerifyOptions options;
  options.check_speed = !o.ignore_speed;
  options.planes = std::set<std::string, std::less<>>(o.planes.begin(), o.planes.end());
  options.list_unverified = o.show_unverified;

  std::unique_ptr<PlannedFabric> plan;
  std::unique_ptr<NameResolver> names;
  std::unique_ptr<VerifySession> session;
  std::vector<AdjacencyReport> reports(captures.size());
  std::vector<char> parsed(captures.size(), 0);
  std::set<std::string> reporting;  // a capture read whole covers its device; a partly unreadable one does not
  std::mutex mutex;
  size_t judged = 0;
  auto judge_ready = [&] {  // with `mutex` held
    if (!session) return;
    for (; judged < captures.size() && parsed[judged]; ++judged) {
      AdjacencyReport& r = reports[judged];
      for (const ParseWarning& w : r.warnings) Warn(w.message);
      if (r.warnings.empty()) reporting.insert(captures[judged].device);
      session->Observe({r.adjacencies, r.warnings.empty()});
      r = AdjacencyReport();
    }
  };
  std::atomic<size_t> next{0};
  auto parse_queue = [&] {
    for (size_t i = next++; i < captures.size(); i = next++) {
      const Capture& c = captures[i];
      std::string text = ReadWholeFile(c.path.string());
      if (text.size() >= 2 && ((text[0] == '\xff' && text[1] == '\xfe') || (text[0] == '\xfe' && text[1] == '\xff'))) {
        throw InputError(c.path.string(), 0, 0, "",
                         "UTF-16 text (a Windows export?): convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)");
      }
      AdjacencyReport report = c.json ? ParseLldpctl(text, c.device, c.path.string())  // any lldpctl -f form
                                      : ParseSwitchLldpTable(text, c.device, c.path.string());
      RequireRecords(report, c.path.string(), c.json ? "lldpctl" : "switch LLDP table");
      std::lock_guard<std::mutex> lock(mutex);
      reports[i] = std::move(report);
      parsed[i] = 1;
      judge_ready();
    }
  };
  auto plan_then_parse = std::async(std::launch::async, [&] {
    try {
      plan = std::make_unique<PlannedFabric>(LoadPlanNoting(o.plan));
      names = std::make_unique<NameResolver>(*plan);
      if (!o.names.empty()) names->LoadMap(o.names);
      if (!o.ibdev2netdev.empty()) names->LoadIbdev2netdevDir(o.ibdev2netdev);
      for (const std::string& plane : o.planes) {
        bool known =
            std::any_of(plan->planes.begin(), plan->planes.end(), [&](const PlannedPlane& p) { return p.name == plane; });
        if (!known) {
          std::string all;
          for (const PlannedPlane& p : plan->planes) all += (all.empty() ? "" : ", ") + p.name;
          throw UsageError(fmt::format("--plane {}: the plan has no such plane (it has {})", plane, all));
        }
      }
      auto ready = std::make_unique<VerifySession>(*plan, *names, options);
      std::lock_guard<std::mutex> lock(mutex);
      session = std::move(ready);
      judge_ready();
    } catch (...) {
      next = captures.size();  // stop the other worker at its next file
      throw;
    }
    parse_queue();
  });
  std::exception_ptr parse_error;
  try {
    parse_queue();
  } catch (...) {
    parse_error = std::current_exception();
    next = captures.size();
  }
  plan_then_parse.get();
  if (parse_error) std::rethrow_exception(parse_error);
  auto observe_whole = [&](AdjacencyReport& report, const std::string& file) {
    for (ParseWarning& w : report.warnings) Warn(fmt::format("{}:{}: {}", file, w.line, w.message));
    session->Observe({report.adjacencies, report.warnings.empty()});
  };
  for (const std::string& file : o.ibnetdiscover) {
    AdjacencyReport report = ParseIbnetdiscover(ReadWholeFile(file), ShownPath(file));
    RequireRecords(report, file, "ibnetdiscover");
    // A fabric's ibnetdiscover always lists links: none at all is a capture that failed, never a
    // fabric whose every cable is "unverified".
    if (report.adjacencies.empty())
      throw InputError(ShownPath(file), 0, 0, "", "no link in it (empty, or not ibnetdiscover output): capture it again");
    observe_whole(report, file);
  }
  for (const std::string& file : o.iblinkinfo) {
    IblinkinfoReport r = ParseIblinkinfo(ReadWholeFile(file), ShownPath(file));
    RequireRecords(r.links, file, "iblinkinfo");
    if (r.links.adjacencies.empty())
      throw InputError(ShownPath(file), 0, 0, "", "no link in it (empty, or not iblinkinfo output): capture it again");
    observe_whole(r.links, file);
  }
  std::vector<LabelScan> labels;
  if (!o.labels.empty()) labels = LoadLabelAudit(o.labels);
  VerifyResult result = session->Finish(reporting, labels);
  Detail(
      fmt::format("plan: {} devices, {} links; {} observation(s) from {} LLDP capture(s), {} ibnetdiscover and {} iblinkinfo "
                  "file(s); {} device(s) gave an LLDP report; {} label scan(s)",
                  plan->devices.size(), plan->links.size(), result.counts.observations, captures.size(), o.ibnetdiscover.size(),
                  o.iblinkinfo.size(), reporting.size(), labels.size()));
  std::cout << VerifyRender(result, *ParseFindingsFormat(o.format));
  Severity threshold = *ParseSeverity(o.fail_on);
  bool fail = std::any_of(result.findings.begin(), result.findings.end(),
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
