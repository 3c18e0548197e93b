// railyard verify --plan plan.json [--lldp FILE|DIR]... [--ibnetdiscover FILE]...
//                  [--switch-lldp FILE|DIR]... [--names MAP] [--labels CSV]
//                  [--format table|json|csv] [--fail-on SEVERITY]
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "parse/ibnetdiscover.h"
#include "parse/lldpctl.h"
#include "parse/switch_lldp.h"
#include "verify/report.h"
#include "verify/verify.h"

namespace railyard::cli {
namespace {

namespace fs = std::filesystem;

struct VerifyArgs {
  std::string plan;
  std::vector<std::string> lldp, ibnetdiscover, switch_lldp;
  std::string names;
  std::string labels;
  std::string format = "table";
  std::string fail_on = "error";
  bool ignore_speed = false;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot read the file");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
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
  try {
    PlannedFabric plan = LoadPlannedFabric(o.plan);
    NameResolver names(plan);
    if (!o.names.empty()) names.LoadMap(o.names);
    std::vector<Adjacency> observed;
    std::set<std::string> reporting;
    std::vector<ParseWarning> warnings;
    auto take = [&](AdjacencyReport report) {
      for (Adjacency& a : report.adjacencies) observed.push_back(std::move(a));
      for (ParseWarning& w : report.warnings) std::cerr << "railyard: warning: " << w.message << "\n";
    };
    for (const auto& [device, path] : Captures(o.lldp)) {
      reporting.insert(device);
      take(ParseLldpctlJson(ReadFile(path), device, path.string()));
    }
    for (const auto& [device, path] : Captures(o.switch_lldp)) {
      reporting.insert(device);
      take(ParseSwitchLldpTable(ReadFile(path), device, path.string()));
    }
    for (const std::string& file : o.ibnetdiscover) {
      AdjacencyReport report = ParseIbnetdiscover(ReadFile(file), file);
      for (ParseWarning& w : report.warnings) w.message = fmt::format("{}:{}: {}", file, w.line, w.message);
      take(std::move(report));
    }
    std::vector<LabelScan> labels;
    if (!o.labels.empty()) labels = LoadLabelAudit(o.labels);
    railyard::VerifyOptions options;
    options.check_speed = !o.ignore_speed;
    VerifyResult result = Verify(plan, names, observed, reporting, labels, options);
    if (o.format == "json") {
      std::cout << VerifyJson(result).dump(2) << "\n";
    } else if (o.format == "csv") {
      std::cout << VerifyCsv(result);
    } else {
      std::cout << VerifyTable(result);
    }
    Severity threshold = *ParseSeverity(o.fail_on);
    bool fail = std::any_of(result.findings.begin(), result.findings.end(),
                            [&](const VerifyFinding& f) { return f.severity >= threshold; });
    return fail ? kExitFindings : kExitOk;
  } catch (const std::exception& e) {
    std::cerr << "railyard: error: " << e.what() << "\n";
    return kExitInput;
  }
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
  cmd->add_option("--plan", o->plan, "plan.json from `railyard plan -o`")->required()->check(CLI::ExistingFile);
  cmd->add_option("--lldp", o->lldp, "lldpctl -f json / -f json0 output: FILE, DEVICE=FILE or a directory");
  cmd->add_option("--ibnetdiscover", o->ibnetdiscover, "ibnetdiscover topology file")->check(CLI::ExistingFile);
  cmd->add_option("--switch-lldp", o->switch_lldp, "switch LLDP table (Arista, Cumulus, SONiC): FILE, DEVICE=FILE or a directory");
  cmd->add_option("--names", o->names, "CSV: observed_device,plan_device or observed_device,observed_port,plan_device,plan_port")
      ->check(CLI::ExistingFile);
  cmd->add_option("--labels", o->labels, "label audit CSV with device, port and label columns")->check(CLI::ExistingFile);
  cmd->add_flag("--ignore-speed", o->ignore_speed,
                "do not compare link speeds with the plan (simulators: ibsim reports every link at SDR)");
  cmd->add_option("--format", o->format, "table (default), json or csv")->check(CLI::IsMember({"table", "json", "csv"}));
  cmd->add_option("--fail-on", o->fail_on, "exit 1 when a finding reaches this severity: info, warning, error")
      ->check(CLI::IsMember({"info", "warning", "error"}));
  return [o] { return Run(*o); };
}

}  // namespace railyard::cli
